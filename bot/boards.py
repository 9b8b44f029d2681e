"""Turn a match into what Discord shows: the text, the picture and the move buttons.

Rendering runs in a worker thread (`asyncio.to_thread`), never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any

import discord

from render import render_observation

from . import strings
from .components import MoveButton
from .service import Match, MoveResult

MAX_MOVE_BUTTONS = 25  # Discord's limit: 5 rows of 5


@dataclass
class BoardMessage:
    match_id: int
    ply: int
    content: str
    png: bytes
    move_buttons: list[str] = field(default_factory=list)
    mention: int | None = None  # the one user this message may ping

    def kwargs(self, *, with_buttons: bool = True) -> dict[str, Any]:
        """Arguments for `send_message` / `channel.send` / `followup.send`."""
        view = discord.ui.View(timeout=None)
        if with_buttons:
            for notation in self.move_buttons:
                view.add_item(MoveButton(self.match_id, self.ply, notation))
        return {
            "content": self.content,
            "file": discord.File(io.BytesIO(self.png), filename="board.png"),
            "view": view,
            "allowed_mentions": mention_only(self.mention),
        }


def mention_only(user_id: int | None) -> discord.AllowedMentions:
    """Ping at most one user: the one whose turn it is."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(user_id)] if user_id else False)


def scores_text(match: Match) -> str:
    scores = match.game.scores(match.state) if match.state is not None else None
    if scores is None:
        return ""
    parts = [f"{seat.name} {scores[seat.seat]}" for seat in match.seats]
    return strings.SCORES.format(scores=" · ".join(parts))


def extra_moves(view: Any) -> int:
    """Extra moves the player to move still owes after this one (Progressive Mancala)."""
    return int(getattr(view, "extra_moves", 0) or 0)


def move_detail(view: Any) -> str:
    """What the last move achieved, for games whose view tells (captures, empty endings)."""
    last = getattr(view, "last", None)
    if last is None:
        return ""
    if getattr(last, "captured", 0):
        return f" (+{last.captured})"
    if getattr(last, "ended_empty", False):
        return " (ends in an empty pit)"
    return ""


def result_text(match: Match) -> str:
    outcome = match.outcome()
    if outcome is None:
        return ""
    reason = strings.REASONS.get(outcome.reason.value, outcome.reason.value)
    if outcome.draw:
        return strings.GAME_DRAWN.format(match_id=match.id, reason=reason)
    names = " & ".join(match.row.user_at(w).name for w in outcome.winners)
    return strings.GAME_WON.format(names=names, match_id=match.id, reason=reason)


def turn_text(match: Match, view: Any) -> tuple[str, int | None]:
    mover = match.to_move()
    if mover is None:
        return result_text(match), None
    n = extra_moves(view)
    extra = strings.EXTRA_MOVES.format(n=n, s="" if n == 1 else "s") if n else ""
    return strings.YOUR_TURN.format(mention=f"<@{mover.user_id}>", extra=extra), mover.user_id


async def render_view(match: Match, view: Any) -> bytes:
    return await asyncio.to_thread(render_observation, match.game.id, view, names=match.names())


async def board_message(match: Match, *, result: MoveResult | None = None,
                        lead: str | None = None) -> BoardMessage:
    """The message posted after a move (or at the start, or for /board)."""
    view = match.observe(None)
    lines = []
    if lead:
        lines.append(lead)
    if result is not None:
        lines.append(strings.MOVE_PLAYED.format(name=result.mover.name, notation=result.notation,
                                                detail=move_detail(view)))
    score = scores_text(match)
    if score:
        lines.append(score)
    turn, mention = turn_text(match, view)
    if turn:
        lines.append(turn)
    png = await render_view(match, view)
    buttons: list[str] = []
    if match.to_move() is not None:
        legal = match.game.legal_notations(match.state)
        if len(legal) <= MAX_MOVE_BUTTONS:
            buttons = legal
    return BoardMessage(match.id, match.ply(), "\n".join(lines), png, buttons, mention)
