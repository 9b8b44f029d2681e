"""What players look up: /matches, the Moves button, /record, /rules and /help."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from games import Phrase, phrase

from .. import strings
from ..boards import MAX_CONTENT
from ..catalogue import PLAYABLE, rules_text
from ..clocks import absolute_time, clock_for, relative_time
from ..i18n import Texts
from ..interactions import MAX_MATCH_ID, Interaction, handling, note_match, reply, texts_for
from ..service import Match, result_phrase
from ..ui import Custom

if TYPE_CHECKING:
    from ..client import CorralBot


def register(tree: app_commands.CommandTree[CorralBot], bot: CorralBot) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]

    @tree.command(name="matches", description="Your matches and whose turn it is")
    async def matches(interaction: Interaction) -> None:
        async with handling(interaction):
            await reply(interaction, await matches_text(bot, interaction.user.id,
                                                        texts_for(interaction)))

    @tree.command(name="record", description="A match's game record, as a text file")
    @app_commands.describe(match="The match number (default: this channel's match)")
    async def record(interaction: Interaction,
                     match: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None) -> None:
        async with handling(interaction):
            found = (await bot.service.get(match) if match is not None
                     else await bot.service.in_channel(interaction.channel_id or 0))
            note_match(found.id)
            found, text, complete = await bot.service.record(found.id)
            template = strings.RECORD_READY if complete else strings.RECORD_PUBLIC
            await reply(interaction, phrase(template, match_id=found.id,
                                            n=text.count("\n")),
                        file=discord.File(io.BytesIO(text.encode("utf-8")),
                                          filename=f"corral-{found.id}.txt"))

    @tree.command(name="rules", description="How a game is played")
    @app_commands.describe(game="Which game (default: all)")
    @app_commands.choices(game=games)
    async def rules(interaction: Interaction, game: str | None = None) -> None:
        async with handling(interaction):
            reader = texts_for(interaction)
            language = reader.language
            ids = list(PLAYABLE) if game is None else [game]
            texts = [rules_text(g, language) for g in ids]
            if not texts or any(t is None for t in texts):
                titles = tuple(phrase(g.name) for g in PLAYABLE.values())
                await reply(interaction, phrase(strings.RULES_UNKNOWN, game=str(game)[:40],
                                                games=titles))
                return
            for text in texts:  # its `/move k` as the reader's client names the command
                await reply(interaction, reader.commands(text or ""))

    @tree.command(name="help", description="What Corral can do")
    async def help_(interaction: Interaction) -> None:
        async with handling(interaction):
            await reply(interaction, phrase(strings.HELP, games=tuple(
                phrase(g.name) for g in PLAYABLE.values())))


async def on_moves(bot: CorralBot, interaction: Interaction, custom: Custom) -> None:
    """The numbered move list, ephemerally; the newest moves when it is long."""
    assert custom.match_id is not None
    note_match(custom.match_id)
    match, entries = await bot.service.history(custom.match_id)
    texts = texts_for(interaction)
    header = texts(phrase(strings.MOVES_HEADER, match_id=match.id, game=match.game.name,
                          players=tuple(match.names())))
    lines = [texts(bot.service.history_line(e)) for e in entries] or [
        texts(strings.MOVES_EMPTY)]
    shown: list[str] = []
    size = len(header) + 80
    for line in reversed(lines):
        if size + len(line) + 1 > MAX_CONTENT:
            break
        shown.insert(0, line)
        size += len(line) + 1
    hidden = len(lines) - len(shown)
    if hidden:
        shown.insert(0, texts(phrase(strings.MOVES_TRUNCATED, n=hidden)))
    await reply(interaction, "\n".join([header, *shown]))


async def matches_text(bot: CorralBot, user_id: int, texts: Texts) -> str:
    live = await bot.service.live_matches_of(user_id)
    finished = await bot.service.finished_matches_of(user_id, 10)
    if not live and not finished:
        return texts(strings.MATCHES_NONE)
    now = bot.service.clock()

    def waiting_since(match: Match) -> float:
        mover = match.to_move()
        if mover is None or mover.user_id != user_id:
            return float("inf")
        return match.row.turn_started_at or match.row.updated_at

    lines = [texts(strings.MATCHES_HEADER)] if live else []
    for match in sorted(live, key=waiting_since):
        status = await _status(bot, match, user_id, now)
        lines.append(texts(phrase(strings.MATCH_LINE, match_id=match.id, game=match.game.name,
                                  link=f"<#{match.row.channel_id}>", status=status)))
    if finished:
        lines.append(texts(strings.MATCHES_FINISHED))
        for match in finished:
            result = result_phrase(match) or phrase(strings.RESULT_DRAW)
            lines.append(texts(phrase(strings.MATCH_LINE, match_id=match.id,
                                      game=match.game.name, link=f"<#{match.row.channel_id}>",
                                      status=result), match.names()))
    return "\n".join(lines)


async def _status(bot: CorralBot, match: Match, user_id: int, now: float) -> Phrase:
    if match.status == "open":
        return phrase(strings.STATUS_LOBBY, have=len(match.seats),
                      need=match.game.info.min_seats)
    if match.status == "invited":
        invited = match.row.user_at(1)
        return phrase(strings.STATUS_INVITED, name=invited.name if invited else "?")
    mover = match.to_move()
    if mover is None:
        return phrase(strings.STATUS_ROLL)
    vacations = await bot.service.store.vacations(mover.user_id)
    clock = None
    if match.row.move_seconds is not None and match.row.turn_started_at is not None:
        clock = clock_for(match.row.move_seconds, match.row.turn_started_at, now, vacations)
    if mover.user_id == user_id:
        due = phrase(strings.DUE_SUFFIX, relative=relative_time(clock.due_at)) if clock else ""
        return phrase(strings.STATUS_YOUR_TURN,
                      since=relative_time(match.row.turn_started_at or match.row.updated_at),
                      due=due)
    if clock is not None and clock.on_vacation_until is not None:
        return phrase(strings.STATUS_WAITING_VACATION, name=mover.name,
                      until=absolute_time(clock.on_vacation_until))
    return phrase(strings.STATUS_WAITING, name=mover.name)
