"""Play without sight: the position in words (`/board text:True` and the Describe button under
every board), one place of the board (`/board at:`), each player's last move (`/last`) and the
clocks (`/clocks`), all answered privately, in the reader's language.

A screen reader reads a message top to bottom: the essentials come first (which match, whose
turn or the result, the last move), then the kit's text board, then how to move. Nothing
hidden reaches anyone: a player reads their own seat's view (what My view shows them), anyone
else the public view; moves are said as the channel saw them (public notation, move effects).
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from games import GameError, Phrase, nphrase, phrase

from .clocks import Duration, absolute_time, relative_time
from .interactions import MAX_CONTENT, Interaction, note_match, reply, texts_for
from .service import Match, Service, ServiceError, result_phrase
from .service.moves import effective_log
from .ui import ID, Component, button
from .ui import template as id_template
from .words import strings
from .words.descriptions import text_board
from .words.i18n import Texts

EXAMPLES = 5  # legal moves named in the "how to move" line (autocomplete lists them all)


def pages(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """`text` in messages of at most `limit` characters, split between lines (a long text
    board is sent whole, in order, rather than cut)."""
    found: list[str] = []
    for line in text.split("\n"):
        line = line[:limit]
        if found and len(found[-1]) + 1 + len(line) <= limit:
            found[-1] += "\n" + line
        else:
            found.append(line)
    return found


async def reply_pages(interaction: Interaction, text: str) -> None:
    """A private answer of any length: its first message answers, the rest follow it."""
    for page in pages(text):
        await reply(interaction, page)


def seat_view(match: Match, user_id: int) -> tuple[int | None, Any]:
    """The caller's seat (None for a spectator) and the observation they may read: their own
    seat's view if they play in the match, else the public one."""
    seat = match.row.seat_of(user_id)
    return seat, match.observe(seat)


async def describe_text(service: Service, match: Match, user_id: int, texts: Texts) -> str:
    """The whole position in words, for `user_id`: header, turn or result, score, last move,
    the caller's private notes, the kit's text board, and how to move when it is their turn."""
    if match.state is None:
        raise ServiceError(strings.NOT_STARTED, match_id=match.id)
    names = match.names()
    game, state = match.game, match.state
    lines = [texts(phrase(strings.BOARD_HEADER, match_id=match.id, game=Phrase(game.name),
                          ply=match.ply()))]
    result = result_phrase(match)
    mover = match.to_move()
    mine = mover is not None and mover.user_id == user_id
    if result is not None:
        lines.append(texts(phrase(strings.TEXT_RESULT, result=result), names))
    elif match.status == "active" and mover is None:
        lines.append(texts(strings.TEXT_ROLL_DUE))
    elif mover is not None:
        note = game.turn_note(state)
        if mine:
            lines.append(texts(phrase(strings.TEXT_YOUR_TURN_NOTE, note=note) if note
                               else phrase(strings.TEXT_YOUR_TURN), names))
        else:
            lines.append(texts(phrase(strings.TEXT_TO_MOVE_NOTE, name=mover.name, note=note)
                               if note else phrase(strings.TEXT_TO_MOVE, name=mover.name),
                               names))
    scores = game.scores(state)
    if scores is not None:
        lines.append(texts(phrase(strings.SCORES, scores=" · ".join(
            f"{name} {score}" for name, score in zip(names, scores, strict=False)))))
    _, entries = await service.history(match.id)
    if entries:
        last = entries[-1]
        lines.append(texts(phrase(strings.TEXT_LAST_MOVE, line=service.history_line(last)),
                           last.names or names))
    else:
        lines.append(texts(strings.TEXT_NO_MOVE_YET))
    seat, view = seat_view(match, user_id)
    hidden = game.info.hidden_information and match.status != "finished"
    if seat is not None and hidden:  # the kit's words of this seat's view name its hand
        lines.append(texts(strings.TEXT_YOUR_VIEW))
    else:
        lines.append(texts(strings.TEXT_PUBLIC_VIEW))
    lines.extend(line for line in text_board(game, view, texts, names) if line)
    if mine and result is None:
        legal = service.legal_moves_for(match, user_id)
        if legal:
            lines.append(texts(nphrase(*strings.TEXT_HOW_TO_MOVE, len(legal), examples=tuple(
                f"`{notation}`" for notation in examples(legal)))))
    return "\n".join(lines)


def examples(legal: list[str]) -> list[str]:
    """A few legal moves spread over the whole list (the kinds of move a game lists in turn,
    Consequence's placements, moves and pushes, each get a chance to be named)."""
    if len(legal) <= EXAMPLES:
        return legal
    return [legal[round(i * (len(legal) - 1) / (EXAMPLES - 1))] for i in range(EXAMPLES)]


def point_choices(match: Match, user_id: int) -> tuple[str, ...]:
    """The places a reader may ask about, as the kit names them for the caller's view."""
    if match.state is None:
        return ()
    _, view = seat_view(match, user_id)
    return tuple(match.game.point_names(view))


def point_text(match: Match, user_id: int, name: str, texts: Texts) -> str:
    """What is on one place of the board, as the caller may see it; the kit's refusal for a
    place that does not exist (nothing changes)."""
    if match.state is None:
        raise ServiceError(strings.NOT_STARTED, match_id=match.id)
    _, view = seat_view(match, user_id)
    try:
        point = match.game.describe_point(view, name.strip()[:40])
    except GameError as exc:
        raise ServiceError(exc.phrase) from None
    return texts(phrase(strings.POINT_LINE, match_id=match.id, ply=match.ply(), point=point),
                 match.names())


async def last_text(service: Service, match: Match, texts: Texts) -> str:
    """The last move of each player, newest first: who, what (as the channel saw it), what it
    did, and how long ago (a Discord timestamp, read in the reader's own words)."""
    game = Phrase(match.game.name)
    header = texts(phrase(strings.LAST_HEADER, match_id=match.id, game=game))
    if match.state is None:
        return "\n".join([header, texts(phrase(strings.NOT_STARTED, match_id=match.id))])
    _, entries = await service.history(match.id)
    log = effective_log(await service.store.moves(match.id))
    played = {entry.ply + 1: entry for entry in log}
    by_name = {seat.name: seat.user_id for seat in match.seats}
    seen: set[int] = set()
    lines = [header]
    for entry in reversed(entries):
        row = played.get(entry.ply)
        if entry.kind == "roll" or row is None:
            continue
        user_id = row.actor_id if entry.kind == "move" else by_name.get(entry.name or "")
        if user_id is None or user_id in seen:
            continue
        seen.add(user_id)
        lines.append(texts(phrase(strings.LAST_LINE, line=service.history_line(entry),
                                  ago=relative_time(row.played_at)),
                           entry.names or match.names()))
    for seat in match.seats:
        if seat.user_id not in seen:
            lines.append(texts(phrase(strings.LAST_NONE_YET, name=seat.name)))
    return "\n".join(lines)


async def clocks_text(service: Service, match: Match, texts: Texts) -> str:
    """Each player's time as the match has it: the time per move, the clock of the player to
    move (what is left, until when, a vacation that pauses it), the others' vacations; said
    plainly when the match has no clock."""
    if match.row.move_seconds is None:
        return texts(phrase(strings.CLOCKS_NONE, match_id=match.id))
    game = Phrase(match.game.name)
    lines = [texts(phrase(strings.CLOCKS_HEADER, match_id=match.id, game=game)),
             texts(phrase(strings.CLOCKS_PER_MOVE, time=Duration(match.row.move_seconds)))]
    if match.state is None or match.status in ("open", "invited"):
        lines.append(texts(strings.CLOCKS_NOT_STARTED))
        return "\n".join(lines)
    if match.status != "active":
        lines.append(texts(strings.CLOCKS_OVER))
        return "\n".join(lines)
    mover = match.to_move()
    now = service.clock()
    if mover is None:
        lines.append(texts(strings.CLOCKS_ROLL))
    elif mover.user_id < 0:
        lines.append(texts(phrase(strings.CLOCKS_AI, name=mover.name)))
    else:
        clock = await service.clock_of(match)
        if clock is None:
            pass  # no turn start recorded: nothing to say beyond the time per move
        elif clock.expired:
            lines.append(texts(phrase(strings.CLOCKS_MOVER_OUT, name=mover.name,
                                      relative=relative_time(now + clock.remaining))))
        elif clock.on_vacation_until is not None:
            lines.append(texts(phrase(strings.CLOCKS_MOVER_VACATION, name=mover.name,
                                      until=absolute_time(clock.on_vacation_until),
                                      left=Duration(int(clock.remaining)))))
        else:
            lines.append(texts(phrase(strings.CLOCKS_MOVER, name=mover.name,
                                      left=Duration(int(clock.remaining)),
                                      relative=relative_time(clock.due_at),
                                      absolute=absolute_time(clock.due_at))))
    for seat in match.seats:
        if mover is not None and seat.user_id == mover.user_id:
            continue
        away = [b for a, b in await service.store.vacations(seat.user_id) if a <= now < b] \
            if seat.user_id > 0 else []
        lines.append(texts(phrase(strings.CLOCKS_WAITING_VACATION, name=seat.name,
                                  until=absolute_time(max(away))) if away
                           else phrase(strings.CLOCKS_WAITING, name=seat.name)))
    return "\n".join(lines)


# -- the Describe button -------------------------------------------------------------------
class DescribeButton(Component[discord.ui.Button[Any]],
                     template=id_template(rf"c1:d:(?P<match>{ID})")):
    """Describe: the board in words, privately, to whoever clicks (their own view if they
    play, the public one otherwise)."""

    def __init__(self, match_id: int, *, label: str = "", row: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:d:{match_id}", style=discord.ButtonStyle.secondary,
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        note_match(self.match_id)
        match = await self.service.get(self.match_id)
        await reply_pages(interaction, await describe_text(
            self.service, match, interaction.user.id, texts_for(interaction)))


def describe_button(match_id: int, texts: Texts, row: int | None = None) -> DescribeButton:
    """The Describe button of a board, labelled in the reader's language."""
    return DescribeButton(match_id, label=texts(strings.BUTTON_DESCRIBE), row=row)


TEXTBOARD_COMPONENTS: tuple[type[Component[Any]], ...] = (DescribeButton,)
