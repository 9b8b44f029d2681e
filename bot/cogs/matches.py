"""Opening matches: /play, /abort, /resign and its confirmation. (A lobby's buttons are
bot/lobby.py's; Rematch, on the final board, is bot/boards.py's.)"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands

from games import Phrase, phrase, shorten

from ..ai import LEVELS, ai_name, ai_user_id
from ..boards import opened_phrase
from ..interactions import (
    Handling,
    Interaction,
    Tree,
    display_name,
    is_manager,
    may_post_publicly,
    note_match,
    player,
    reach_of,
    reply,
    texts_for,
)
from ..offered import PLAYABLE
from ..service import AlreadyOpen, Player, Service, ServiceError, parse_options, parse_time
from ..ui import ID, Component, StaticView, button, template
from ..words import strings
from .options import option_choices

FIRST = [app_commands.Choice(name="random", value="random"),
         app_commands.Choice(name="me", value="me"),
         app_commands.Choice(name="my opponent", value="opponent")]
AI_LEVELS = [app_commands.Choice(name=level, value=level) for level in LEVELS]


def register(tree: Tree, service: Service, handling: Handling) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]

    @tree.command(name="play", description="Start a match here: challenge someone, or open a "
                                            "lobby")
    @app_commands.describe(game="Which game",
                           opponent="Challenge this person (leave empty for an open lobby)",
                           options="Match options as name=value, e.g. pits=17",
                           first="Who moves first (default: random)",
                           time="Time per move, e.g. 3d, 12h, or none (default: the server's)",
                           ai="Play against Corral's AI at this level (two-player games)",
                           rated="Whether the result changes ratings (default: on for two "
                                 "humans)")
    @app_commands.choices(game=games, first=FIRST, ai=AI_LEVELS)
    async def play(interaction: Interaction, game: str, opponent: discord.User | None = None,
                   options: str | None = None, first: str = "random",
                   time: str | None = None, ai: str | None = None,
                   rated: bool | None = None) -> None:
        async with handling(interaction):
            await open_match(service, interaction, game, opponent, options, first, time, ai,
                             rated)

    @play.autocomplete("options")
    async def play_options(interaction: Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None) or ""
        return option_choices(PLAYABLE.get(game_id), current, texts_for(interaction))

    @tree.command(name="abort", description="Cancel this channel's match (host before it starts, "
                                             "server managers any time)")
    async def abort(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            await service.abort(match.id, interaction.user.id,
                                    is_manager=is_manager(interaction),
                                    name=display_name(interaction.user))
            await reply(interaction, phrase(strings.ABORT_DONE, match_id=match.id))

    @tree.command(name="resign", description="Give up this channel's match")
    async def resign(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            service.check_active_player(match, interaction.user.id)
            texts = texts_for(interaction)
            view = StaticView()
            view.add_item(ResignButton(match.id, label=texts(strings.BUTTON_RESIGN)))
            await reply(interaction, texts(phrase(
                strings.RESIGN_CONFIRM,
                match_id=match.id)), view=view)


async def open_match(service: Service, interaction: Interaction, game_id: str,
                     opponent: discord.abc.User | None, options: str | None, first: str,
                     time_text: str | None, ai: str | None = None,
                     rated: bool | None = None, *, channel: Any = None) -> None:
    """`channel`: where to open it, if not where the interaction is (a lesson's last button,
    pressed in a DM, opens its match in the server channel the lesson was asked in)."""
    reach = "channel" if channel is not None else reach_of(interaction)
    channel = channel or interaction.channel
    guild = getattr(channel, "guild", None) or interaction.guild
    guild_id = guild.id if guild is not None else interaction.guild_id
    if channel is None:
        raise ServiceError(strings.NO_CHANNEL)
    me = interaction.client.user
    if opponent is not None and me is not None and opponent.id == me.id:
        ai, opponent = ai or "normal", None  # /play opponent:@Corral
    if guild_id is None and reach == "channel" and (ai is None or opponent is not None):
        raise ServiceError(strings.AI_ONLY_IN_BOT_DM)  # the bot's own DM: nobody else sees it
    if ai is None and not may_post_publicly(interaction):
        raise ServiceError(strings.PRIVATE_ANSWERS_ONLY)
    if opponent is not None and opponent.bot:
        raise ServiceError(strings.OPPONENT_IS_BOT, name=display_name(opponent))
    if game_id not in PLAYABLE:
        raise ServiceError(strings.UNKNOWN_GAME, reason=shorten(game_id))
    if ai is not None and (ai not in LEVELS or opponent is not None
                           or PLAYABLE[game_id].info.min_seats > 2):
        raise ServiceError(strings.AI_NOT_HERE)
    host = player(interaction.user)
    guest = (Player(ai_user_id(ai, 0), ai_name(ai)) if ai is not None
             else player(opponent) if opponent else None)
    parsed = parse_options(options)
    move_seconds = parse_time(time_text)
    game, _ = service.check_opening(game_id=game_id, options=parsed, host=host,
                                    opponent=guest, first=first)
    service.check_rated(game, guest, rated)
    parent = getattr(channel, "parent_id", None) or channel.id
    if reach == "channel" and guild_id is not None:
        await service.check_channel(guild_id, parent)
    try:
        await service.find_retry(game_id=game.id, host=host, opponent=guest, channel_id=parent)
    except AlreadyOpen as exc:
        await reply(interaction, exc.phrase)
        return
    settings = await service.guild_settings(guild_id)
    target_id, in_thread, note = channel.id, False, None
    if (settings["use_threads"] and reach == "channel"
            and isinstance(channel, discord.TextChannel)):
        # a thread costs a REST call before the answer: answer first, then make it; the match
        # exists from the start (its channel a placeholder), so a retried /play finds it
        await interaction.response.defer(thinking=True)
        match = await service.open_match(
            game_id=game_id, options=parsed, host=host, opponent=guest,
            guild_id=guild_id, channel_id=-interaction.id, in_thread=True,
            first=first, move_seconds=move_seconds, parent_channel_id=parent, announce=False,
            rated=rated)
        note_match(match.id)
        names = host.name + (f" vs {guest.name}" if guest else "")
        try:
            thread = await channel.create_thread(
                name=texts_for(interaction)(phrase(
                    strings.THREAD_NAME, game=Phrase(game.name), names=names))[:100],
                type=discord.ChannelType.public_thread, auto_archive_duration=10080)
            target_id, in_thread = thread.id, True
        except discord.Forbidden:
            note = strings.THREAD_FORBIDDEN
        except (discord.HTTPException, TimeoutError):
            await service.abort(match.id, host.user_id, is_manager=True)
            raise ServiceError(strings.THREAD_FAILED) from None
        match = await service.place_match(match.id, target_id, in_thread=in_thread)
    else:
        match = await service.open_match(
            game_id=game_id, options=parsed, host=host, opponent=guest,
            guild_id=guild_id, channel_id=target_id, first=first,
            move_seconds=move_seconds, parent_channel_id=parent, rated=rated, reach=reach)
    note_match(match.id)
    if in_thread:
        await reply(interaction, phrase(strings.THREAD_OPENED, match_id=match.id,
                                        link=f"<#{target_id}>"), ephemeral=False)
    elif note is not None:
        await reply(interaction, phrase(note, match_id=match.id), ephemeral=False)
    else:
        await reply(interaction, opened_phrase(match, host.user_id, match.row.link))


class ResignButton(Component[discord.ui.Button[Any]],
                   template=template(rf"c1:r:(?P<match>{ID})")):
    """/resign's confirmation."""

    def __init__(self, match_id: int, *, label: str = "") -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:r:{match_id}", style=discord.ButtonStyle.danger))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        note_match(self.match_id)
        match = await self.service.resign(self.match_id, interaction.user.id)
        await interaction.response.edit_message(
            content=texts_for(interaction)(phrase(strings.RESIGNED_YOU,
                                                  match_id=match.id)), view=None)


COMPONENTS: tuple[type[Component[Any]], ...] = (ResignButton,)
