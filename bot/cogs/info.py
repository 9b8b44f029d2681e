"""What players look up: /matches, /record, /rules and /help. (Moves, under the board, is
bot/boards.py's.)"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from games import Phrase, phrase

from .. import strings
from ..catalogue import PLAYABLE, rules_text
from ..clocks import absolute_time, clock_for, relative_time
from ..i18n import Texts
from ..interactions import (
    MAX_MATCH_ID,
    Handling,
    Interaction,
    Tree,
    note_match,
    reply,
    texts_for,
)
from ..service import Match, Service, result_phrase


def register(tree: Tree, service: Service, handling: Handling) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]

    @tree.command(name="matches", description="Your matches and whose turn it is")
    async def matches(interaction: Interaction) -> None:
        async with handling(interaction):
            await reply(interaction, await matches_text(service, interaction.user.id,
                                                        texts_for(interaction)))

    @tree.command(name="record", description="A match's game record, as a text file")
    @app_commands.describe(match="The match number (default: this channel's match)")
    async def record(interaction: Interaction,
                     match: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None) -> None:
        async with handling(interaction):
            found = (await service.get(match) if match is not None
                     else await service.in_channel(interaction.channel_id or 0))
            note_match(found.id)
            found, text, complete = await service.record(found.id)
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


async def matches_text(service: Service, user_id: int, texts: Texts) -> str:
    live = await service.live_matches_of(user_id)
    finished = await service.finished_matches_of(user_id, 10)
    if not live and not finished:
        return texts(strings.MATCHES_NONE)
    now = service.clock()

    def waiting_since(match: Match) -> float:
        mover = match.to_move()
        if mover is None or mover.user_id != user_id:
            return float("inf")
        return match.row.turn_started_at or match.row.updated_at

    lines = [texts(strings.MATCHES_HEADER)] if live else []
    for match in sorted(live, key=waiting_since):
        status = await _status(service, match, user_id, now)
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


async def _status(service: Service, match: Match, user_id: int, now: float) -> Phrase:
    if match.status == "open":
        return phrase(strings.STATUS_LOBBY, have=len(match.seats),
                      need=match.game.info.min_seats)
    if match.status == "invited":
        invited = match.row.user_at(1)
        return phrase(strings.STATUS_INVITED, name=invited.name if invited else "?")
    mover = match.to_move()
    if mover is None:
        return phrase(strings.STATUS_ROLL)
    vacations = await service.store.vacations(mover.user_id)
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
