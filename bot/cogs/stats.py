"""Ratings and replays: /profile, /leaderboard, /replay and the replay's step-through viewer."""

from __future__ import annotations

import io
import re
from typing import Any, ClassVar, Self

import discord
from discord import app_commands

from games import Phrase, nphrase, phrase

from ..clocks import Duration, relative_time
from ..interactions import (
    MAX_MATCH_ID,
    Handling,
    Interaction,
    Tree,
    display_name,
    note_match,
    reply,
    texts_for,
)
from ..offered import PLAYABLE
from ..pictures import described_frame, profile_chart, replay_gif
from ..pool import Workers
from ..ratings import Skill
from ..service import Match, Profile, Service, result_phrase
from ..store import RatingRow
from ..ui import ID, Component, StaticView, button, template
from ..words import strings
from ..words.i18n import Texts

SCOPES = [app_commands.Choice(name="this server", value="server"),
          app_commands.Choice(name="all servers", value="global")]
MARKS = {"win": "✅", "draw": "🤝", "loss": "❌"}
STREAKS = {"win": strings.STREAK_WIN, "draw": strings.STREAK_DRAW, "loss": strings.STREAK_LOSS}
GIF_MARGIN = 8192  # room for the rest of the upload request


def register(tree: Tree, service: Service, handling: Handling, pictures: Workers) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]

    @tree.command(name="profile", description="A player's ratings, record and recent results")
    @app_commands.describe(user="Whose profile (default: yours)", game="Only this game")
    @app_commands.choices(game=games)
    async def profile(interaction: Interaction, user: discord.User | None = None,
                      game: str | None = None) -> None:
        async with handling(interaction):
            target = user or interaction.user
            texts = texts_for(interaction)
            found = await service.profile(target.id, game)
            name = display_name(target)
            content = profile_text(found, name, texts)
            if found.trend_game is None:
                await reply(interaction, content, ephemeral=False)
                return
            title = chart_title(found.trend_game, name, texts)
            png = await pictures.run(profile_chart, found.trend, title, texts.language, (name,))
            await reply(interaction, content, ephemeral=False,
                        file=discord.File(io.BytesIO(png), filename="rating.png",
                                          description=chart_alt(found, name, texts)))

    @tree.command(name="leaderboard", description="The best-rated players of a game")
    @app_commands.describe(game="Which game", scope="This server's players or everyone "
                                                    "(default: this server)")
    @app_commands.choices(game=games, scope=SCOPES)
    async def leaderboard(interaction: Interaction, game: str, scope: str = "server") -> None:
        async with handling(interaction):
            texts = texts_for(interaction)
            guild_id = interaction.guild_id if scope == "server" else None
            if scope == "server" and guild_id is None:
                scope = "global"
            board = await service.leaderboard(game, interaction.user.id, guild_id=guild_id)
            at_least = nphrase(*strings.LEADERBOARD_MIN, service.leaderboard_min_games)
            lines = [texts(phrase(
                strings.LEADERBOARD_HEADER, game=PLAYABLE[game].name,
                scope=phrase(strings.LEADERBOARD_SERVER if scope == "server"
                             else strings.LEADERBOARD_GLOBAL),
                min=at_least, days=service.leaderboard_days))]
            for rank, row in enumerate(board.rows, 1):
                lines.append(texts(phrase(strings.LEADERBOARD_LINE, rank=rank, name=row.name,
                                          rating=_rating(row), games=_games(row.games))))
            if not board.rows:
                lines.append(texts(strings.LEADERBOARD_EMPTY))
            mine = board.own
            if board.own_rank is not None and mine is not None:
                if board.own_rank > len(board.rows):
                    lines.append(texts(phrase(strings.LEADERBOARD_YOU, rank=board.own_rank,
                                              rating=_rating(mine), games=_games(mine.games))))
            else:
                lines.append(texts(phrase(strings.LEADERBOARD_YOU_NOT, min=at_least,
                                          days=service.leaderboard_days)))
            await reply(interaction, "\n".join(lines), ephemeral=False)

    @tree.command(name="replay", description="A match as an animation, with a step-through "
                                              "viewer")
    @app_commands.describe(match="The match number (default: this channel's match)")
    async def replay(interaction: Interaction,
                     match: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None) -> None:
        async with handling(interaction):
            found = (await service.get(match) if match is not None
                     else await service.in_channel(interaction.channel_id or 0))
            note_match(found.id)
            found, entries = await service.replay_log(found.id)
            await interaction.response.defer(thinking=True)
            texts = texts_for(interaction)
            result = _result(found, texts)
            limit = int(getattr(interaction, "filesize_limit", 0) or 10 * 1024 * 1024)
            gif = await pictures.run(
                replay_gif, found.game.id, len(found.seats), dict(found.row.options), entries,
                found.names(), result, texts.language, max(limit - GIF_MARGIN, 1024))
            lines: list[str | Phrase] = [phrase(
                strings.REPLAY_POSTED, match_id=found.id, game=found.game.name,
                moves=nphrase(*strings.MOVES_COUNT, len(entries)))]
            if found.game.info.hidden_information and found.status != "finished":
                lines.append(strings.REPLAY_HIDDEN)
            if gif is None:
                lines.append(phrase(strings.REPLAY_TOO_BIG, match_id=found.id))
            content = "\n".join(texts(line) for line in lines)
            if gif is not None:
                alt = texts(phrase(strings.ALT_REPLAY, match_id=found.id,
                                   game=found.game.name,
                                   moves=nphrase(*strings.MOVES_COUNT, len(entries))))
                await reply(interaction, content, ephemeral=False,
                            file=discord.File(io.BytesIO(gif),
                                              filename=f"corral-{found.id}.gif",
                                              description=alt))
            else:
                await reply(interaction, content, ephemeral=False)
            text, png, alt, view = await viewer(pictures, found, entries, 0, texts)
            await interaction.followup.send(
                text, ephemeral=True, view=view, allowed_mentions=discord.AllowedMentions.none(),
                file=discord.File(io.BytesIO(png), filename=f"corral-{found.id}-0.png",
                                  description=alt or None))


class ReplayStep(Component[discord.ui.Button[Any]],
                 template=template(rf"c1:R:(?P<match>{ID}):(?P<ply>{ID}):(?P<key>[fbnl])")):
    """First / Back / Next / Last in the replay viewer: the message shows the position after
    `ply` entries (`key` keeps the four buttons' ids distinct)."""

    pictures: ClassVar[Workers]

    def __init__(self, match_id: int, ply: int, key: str, *, label: str = "",
                 disabled: bool = False) -> None:
        self.match_id, self.ply, self.key = match_id, ply, key
        super().__init__(button(label, f"c1:R:{match_id}:{ply}:{key}",
                                style=discord.ButtonStyle.secondary, disabled=disabled))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["ply"]), found["key"])

    async def handle(self, interaction: Interaction) -> None:
        note_match(self.match_id)
        found, entries = await self.service.replay_log(self.match_id)
        ply = self.service.check_replay_ply(self.ply, entries, found.id)
        # the picture is drawn by a worker that may be busy (a GIF): answer first, then edit
        await interaction.response.defer()
        text, png, alt, view = await viewer(self.pictures, found, entries, ply,
                                            texts_for(interaction))
        await interaction.edit_original_response(
            content=text, view=view,
            attachments=[discord.File(io.BytesIO(png), filename=f"corral-{found.id}-{ply}.png",
                                      description=alt or None)])


COMPONENTS: tuple[type[Component[Any]], ...] = (ReplayStep,)


async def viewer(pictures: Workers, match: Match, entries: list[list[str]], ply: int,
                 texts: Texts) -> tuple[str, bytes, str, StaticView]:
    """The replay viewer at `ply`: its text, picture, the picture's alt text, buttons."""
    total = len(entries)
    png, notation, alt = await pictures.run(
        described_frame, match.game.id, len(match.seats), dict(match.row.options), entries, ply,
        match.names(), _result(match, texts), texts.language, match.status == "finished")
    if ply == 0:
        text = texts(nphrase(*strings.REPLAY_VIEWER_START, total, match_id=match.id))
    else:
        text = texts(phrase(strings.REPLAY_VIEWER, match_id=match.id, ply=ply, total=total,
                            move=f"`{notation}`"))
    view = StaticView()
    targets = (("f", 0, strings.BUTTON_FIRST), ("b", ply - 1, strings.BUTTON_PREVIOUS),
               ("n", ply + 1, strings.BUTTON_NEXT), ("l", total, strings.BUTTON_LAST))
    for key, target, label in targets:
        view.add_item(ReplayStep(match.id, max(0, min(target, total)), key, label=texts(label),
                                 disabled=target < 0 or target > total or target == ply))
    return text, png, alt, view


def _result(match: Match, texts: Texts) -> str | None:
    if match.status != "finished":
        return None
    found = result_phrase(match)
    return texts(found, match.names()) if found is not None else None


def _rating(row: RatingRow) -> str:
    return Skill(row.mu, row.sigma).text()


def _games(n: int) -> Phrase:
    return nphrase(*strings.PROFILE_GAMES, n)


def chart_alt(profile: Profile, name: str, texts: Texts) -> str:
    """The rating chart in words: how many rated games, the first and last rating, the
    highest and lowest."""
    ratings = [round(rating) for _, rating in profile.trend]
    game_id = profile.trend_game or ""
    game = PLAYABLE[game_id].name if game_id in PLAYABLE else game_id
    return texts(phrase(strings.ALT_RATING, name=name, game=texts(game),
                        games=_games(len(ratings)), first=ratings[0] if ratings else "?",
                        last=ratings[-1] if ratings else "?",
                        high=max(ratings, default="?"), low=min(ratings, default="?")))


def chart_title(game_id: str, name: str, texts: Texts) -> str:
    """The rating chart's title, the player and the game: the game's name through the catalog
    in the reader's language, as every other screen names a game (it was left English)."""
    game = PLAYABLE[game_id].name if game_id in PLAYABLE else game_id
    return texts(phrase(strings.PROFILE_CHART, name=name, game=texts(game)))


def profile_text(profile: Profile, name: str, texts: Texts) -> str:
    if not profile.games and not profile.active:
        return texts(phrase(strings.PROFILE_NOTHING, name=name))
    lines = [texts(phrase(strings.PROFILE_HEADER, name=name))]
    for record in profile.games:
        rating = (_rating(record.rating) if record.rating is not None
                  else texts(strings.PROFILE_UNRATED))
        lines.append(texts(phrase(strings.PROFILE_GAME, game=PLAYABLE[record.game].name
                                  if record.game in PLAYABLE else record.game,
                                  rating=rating, played=_games(record.played), won=record.won,
                                  drawn=record.drawn, lost=record.lost)))
        if record.average_plies is not None and record.average_seconds is not None:
            lines.append(texts(phrase(
                strings.PROFILE_AVERAGE,
                moves=nphrase(*strings.MOVES_COUNT, round(record.average_plies)),
                duration=Duration(int(record.average_seconds)))))
    if profile.streak is not None:
        kind, n = profile.streak
        lines.append(texts(phrase(strings.PROFILE_STREAK, streak=nphrase(*STREAKS[kind], n))))
    if profile.last:
        lines.append(texts(strings.PROFILE_LAST))
        for row in profile.last:
            lines.append(texts(phrase(
                strings.PROFILE_RESULT_LINE, mark=MARKS[row.result], match_id=row.match_id,
                game=PLAYABLE[row.game].name if row.game in PLAYABLE else row.game,
                opponents=tuple(row.opponents) or "-", when=relative_time(row.finished_at))))
    if profile.active:
        links = " ".join(m.row.link for m in profile.active[:10])
        lines.append(texts(nphrase(*strings.PROFILE_ACTIVE, len(profile.active), links=links)))
    return "\n".join(lines)
