"""Tournaments: /tournament create | join | leave | start | withdraw | remove | standings |
export | rules, and the sign-up message's Join / Leave buttons. The rules of a tournament are
bot/service/tournaments.py's; this module only reads Discord's side (who, where, which role)."""

from __future__ import annotations

import io
import re
from typing import Any, Self

import discord
from discord import app_commands

from games import phrase

from ..interactions import (
    Handling,
    Interaction,
    Tree,
    display_name,
    is_manager,
    player,
    reply,
    texts_for,
)
from ..offered import PLAYABLE
from ..pictures import tournament_alt, tournament_picture
from ..pool import Workers
from ..service import Service, ServiceError, parse_options
from ..service.tournaments import (
    DRAW_BREAKS,
    FORMATS,
    MAX_MIN_RATING,
    MAX_ROUNDS,
    MIN_MIN_RATING,
    MIN_ROUNDS,
    Tournament,
)
from ..ui import ID, Component, StaticView, button, template
from ..words import strings
from ..words.i18n import Texts

NUMBER = app_commands.Range[int, 1, (1 << 53) - 1]


def register(tree: Tree, service: Service, handling: Handling, pictures: Workers) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]
    formats = [app_commands.Choice(name=f.replace("_", " "), value=f) for f in FORMATS]
    breaks = [app_commands.Choice(name=b.replace("_", " "), value=b) for b in DRAW_BREAKS]
    group = app_commands.Group(name="tournament", description="Tournaments in this server",
                               guild_only=True)

    async def found(interaction: Interaction, number: int | None) -> Tournament:
        guild = interaction.guild
        if guild is None or not interaction.is_guild_integration():
            raise ServiceError(strings.NEEDS_SERVER_INSTALL)
        return await service.tournaments.find(number, guild.id, interaction.channel_id or 0)

    @group.command(name="create", description="Create a tournament with a sign-up thread "
                                              "(managers and organisers)")
    @app_commands.describe(game="Which game", format="swiss, round robin, knockout or pods",
                           rounds="Rounds (Swiss and pods)",
                           options="Match options as name=value, e.g. pits=17",
                           time="Time per move, e.g. 1d (default: none)",
                           round_time="Time for a round, e.g. 7d (default 7d)",
                           signup="How long sign-up stays open, e.g. 2d (default 2d)",
                           rated="Whether the games change ratings (default: yes)",
                           min_rating="Lowest rating that may join",
                           double="Round robin: play everyone twice",
                           draw_break="Knockout: how a drawn game is broken",
                           title="The tournament's name")
    @app_commands.choices(game=games, format=formats, draw_break=breaks)
    async def create(interaction: Interaction, game: str, format: str,
                     rounds: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
                     options: str | None = None, time: str | None = None,
                     round_time: str | None = None, signup: str | None = None,
                     rated: bool = True, min_rating: app_commands.Range[int, MIN_MIN_RATING,
                                                             MAX_MIN_RATING] | None = None,
                     double: bool = False, draw_break: str = "extra_game",
                     title: str | None = None) -> None:
        async with handling(interaction):
            guild, channel = interaction.guild, interaction.channel
            if not interaction.is_guild_integration():
                raise ServiceError(strings.NEEDS_SERVER_INSTALL)
            if guild is None or channel is None:
                raise ServiceError(strings.NOT_IN_GUILD)
            roles = tuple(r.id for r in getattr(interaction.user, "roles", ()))
            may = await service.tournaments.may_organise(
                guild.id, is_manager=is_manager(interaction), role_ids=roles)
            if game not in PLAYABLE:
                raise ServiceError(strings.UNKNOWN_GAME, reason=game[:40])
            spec = service.tournaments.check_create(
                game_id=game, options=parse_options(options), format=format, rounds=rounds,
                double=double, draw_break=draw_break, rated=rated, min_rating=min_rating,
                move_time=time, round_time=round_time, signup_time=signup, name=title,
                may_create=may)
            parent = channel.parent if isinstance(channel, discord.Thread) else channel
            if not isinstance(parent, discord.TextChannel):
                raise ServiceError(strings.TOURNAMENT_THREAD_FAILED)
            await service.check_channel(guild.id, parent.id)
            await interaction.response.defer(thinking=True)
            texts = await _server_texts(service, guild.id)
            try:
                thread = await parent.create_thread(
                    name=texts(phrase(strings.TOURNAMENT_THREAD, name=spec.name))[:100],
                    type=discord.ChannelType.public_thread, auto_archive_duration=10080)
            except (discord.HTTPException, TimeoutError):
                raise ServiceError(strings.TOURNAMENT_THREAD_FAILED) from None
            made = await service.tournaments.create(
                spec, guild_id=guild.id, parent_channel_id=parent.id, channel_id=thread.id,
                organiser=player(interaction.user))
            await reply(interaction, phrase(strings.TOURNAMENT_CREATED, tournament_id=made.id,
                                            link=f"<#{thread.id}>"), ephemeral=False)

    @group.command(name="join", description="Sign up for a tournament")
    @app_commands.describe(tournament="Its number (default: this thread's)")
    async def join(interaction: Interaction, tournament: NUMBER | None = None) -> None:
        async with handling(interaction):
            t = await found(interaction, tournament)
            await service.tournaments.join(t.id, player(interaction.user), t.row.guild_id)
            await reply(interaction, phrase(strings.TOURNAMENT_JOINED, tournament_id=t.id))

    @group.command(name="leave", description="Take your name off a tournament's sign-up list")
    @app_commands.describe(tournament="Its number (default: this thread's)")
    async def leave(interaction: Interaction, tournament: NUMBER | None = None) -> None:
        async with handling(interaction):
            t = await found(interaction, tournament)
            await service.tournaments.leave(t.id, interaction.user.id, t.row.guild_id)
            await reply(interaction, phrase(strings.TOURNAMENT_LEFT, tournament_id=t.id))

    @group.command(name="start", description="Close sign-up and pair the first round "
                                             "(organiser)")
    @app_commands.describe(tournament="Its number (default: this thread's)")
    async def start(interaction: Interaction, tournament: NUMBER | None = None) -> None:
        async with handling(interaction):
            t = await found(interaction, tournament)
            await service.tournaments.start(t.id, interaction.user.id,
                                            is_manager=is_manager(interaction),
                                            guild_id=t.row.guild_id)
            await reply(interaction, phrase(strings.TOURNAMENT_STARTING, tournament_id=t.id))

    @group.command(name="withdraw", description="Withdraw from a running tournament")
    @app_commands.describe(tournament="Its number (default: this thread's)")
    async def withdraw(interaction: Interaction, tournament: NUMBER | None = None) -> None:
        async with handling(interaction):
            t = await found(interaction, tournament)
            await service.tournaments.withdraw(t.id, interaction.user.id, by=interaction.user.id,
                                 is_manager=False, guild_id=t.row.guild_id)
            await reply(interaction, phrase(strings.TOURNAMENT_WITHDREW_YOU, tournament_id=t.id))

    @group.command(name="remove", description="Remove a player from a tournament (organiser)")
    @app_commands.describe(member="Who", tournament="Its number (default: this thread's)")
    async def remove(interaction: Interaction, member: discord.User,
                     tournament: NUMBER | None = None) -> None:
        async with handling(interaction):
            t = await found(interaction, tournament)
            await service.tournaments.withdraw(t.id, member.id, by=interaction.user.id,
                                 is_manager=is_manager(interaction), guild_id=t.row.guild_id)
            await reply(interaction, phrase(strings.TOURNAMENT_REMOVED,
                                            name=display_name(member), tournament_id=t.id))

    @group.command(name="standings", description="A tournament's standings")
    @app_commands.describe(tournament="Its number (default: this thread's)")
    async def standings(interaction: Interaction, tournament: NUMBER | None = None) -> None:
        async with handling(interaction):
            t = await found(interaction, tournament)
            texts = texts_for(interaction)
            from .. import tournaments as engine

            kind = "bracket" if t.row.format == "knockout" else "standings"
            png = await pictures.run(tournament_picture, kind, engine.to_json(t.data),
                                     texts.language)
            text = texts(phrase(strings.TOURNAMENT_STANDINGS, tournament_id=t.id,
                                name=t.data.settings.name, rounds=len(t.data.rounds),
                                status=phrase(strings.TOURNAMENT_STATUS[t.row.status]),
                                standings=service.tournaments.standings_lines(t)))
            alt = tournament_alt(kind, engine.to_json(t.data), texts)
            await reply(interaction, text, file=discord.File(io.BytesIO(png),
                                                             filename=f"{kind}.png",
                                                             description=alt or None))

    @group.command(name="export", description="A tournament as TRF (two-player formats) and JSON")
    @app_commands.describe(tournament="Its number (default: this thread's)")
    async def export(interaction: Interaction, tournament: NUMBER | None = None) -> None:
        async with handling(interaction):
            t = await found(interaction, tournament)
            trf, data = service.tournaments.export(t)
            files = [discord.File(io.BytesIO(data.encode()), filename=f"tournament-{t.id}.json")]
            if trf is not None:
                files.insert(0, discord.File(io.BytesIO(trf.encode()),
                                             filename=f"tournament-{t.id}.trf"))
            await reply(interaction, phrase(strings.TOURNAMENT_EXPORT, tournament_id=t.id),
                        files=files)

    @group.command(name="rules", description="How Corral's tournaments run")
    async def rules(interaction: Interaction) -> None:
        async with handling(interaction):
            await reply(interaction, phrase(strings.TOURNAMENT_RULES))

    tree.add_command(group)


async def _server_texts(service: Service, guild_id: int) -> Texts:
    return Texts(await service.channel_language(guild_id))


def signup_buttons(tournament_id: int, texts: Texts) -> StaticView:
    view = StaticView()
    view.add_item(SignupButton("j", tournament_id, label=texts(strings.BUTTON_TOURNAMENT_JOIN)))
    view.add_item(SignupButton("l", tournament_id, label=texts(strings.BUTTON_TOURNAMENT_LEAVE)))
    return view


class SignupButton(Component[discord.ui.Button[Any]],
                   template=template(rf"c1:T:(?P<action>[jl]):(?P<t>{ID})")):
    """The sign-up message's Join and Leave."""

    def __init__(self, action: str, tournament_id: int, *, label: str = "") -> None:
        self.action, self.tournament_id = action, tournament_id
        style = discord.ButtonStyle.success if action == "j" else discord.ButtonStyle.secondary
        super().__init__(button(label, f"c1:T:{action}:{tournament_id}", style=style))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(found["action"], int(found["t"]))

    async def handle(self, interaction: Interaction) -> None:
        tours = self.service.tournaments
        guild_id = interaction.guild.id if interaction.guild else None
        if self.action == "j":
            await tours.join(self.tournament_id, player(interaction.user), guild_id)
            said = strings.TOURNAMENT_JOINED
        else:
            await tours.leave(self.tournament_id, interaction.user.id, guild_id)
            said = strings.TOURNAMENT_LEFT
        await reply(interaction, phrase(said, tournament_id=self.tournament_id))


COMPONENTS: tuple[type[Component[Any]], ...] = (SignupButton,)
