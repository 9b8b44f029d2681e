"""Turn a match into what Discord shows: the text, the picture and the move buttons.

Rendering runs in a worker thread (`asyncio.to_thread`), never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any, Callable

import discord

from games.ghostone import plate_name
from games.pastoral import cell_name
from render import render_observation

from . import strings
from .clocks import format_duration
from .components import (CellSelect, MoveButton, PickSelect, RematchButton, StepButton,
                         TileStart, ViewButton)
from .service import Match, MoveResult

MAX_MOVE_BUTTONS = 25  # Discord's limit: 5 rows of 5
MAX_OPTIONS = 25  # options in one select menu


@dataclass
class BoardMessage:
    match_id: int
    ply: int
    content: str
    png: bytes
    move_buttons: list[str] = field(default_factory=list)
    mention: int | None = None  # the one user this message may ping
    # two-step moves: select menus of cells, each option (cell, description)
    cell_groups: list[list[tuple[str, str]]] = field(default_factory=list)
    private_flow: bool = False  # hidden information: "My view" and a private "Play…" flow
    running: bool = True
    steps: list[tuple[str, str]] = field(default_factory=list)  # (prefix, label) two-part moves
    pick: tuple[str, list[str], str] | None = None  # (mode, plates, placeholder) plate menu
    finished: bool = False  # a result: offer a rematch

    def kwargs(self, *, with_buttons: bool = True) -> dict[str, Any]:
        """Arguments for `send_message` / `channel.send` / `followup.send`."""
        view = discord.ui.View(timeout=None)
        if self.finished:
            view.add_item(RematchButton(self.match_id, strings.REMATCH))
        if self.private_flow:
            view.add_item(ViewButton(self.match_id, strings.MY_VIEW))
            if with_buttons and self.running:
                view.add_item(TileStart(self.match_id, self.ply, strings.PLAY_TILE))
        elif with_buttons:
            for notation in self.move_buttons:
                view.add_item(MoveButton(self.match_id, self.ply, notation))
            for prefix, label in self.steps:
                view.add_item(StepButton(self.match_id, self.ply, prefix, label))
            if self.pick is not None:
                mode, plates, placeholder = self.pick
                view.add_item(PickSelect(self.match_id, self.ply, mode,
                                         [discord.SelectOption(label=p, value=p) for p in plates],
                                         placeholder))
            for index, group in enumerate(self.cell_groups):
                first, last = group[0][0], group[-1][0]
                view.add_item(CellSelect(
                    self.match_id, self.ply, index,
                    [discord.SelectOption(label=cell, value=cell, description=text)
                     for cell, text in group],
                    strings.PICK_CELL.format(first=first, last=last)))
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


def roll_text(view: Any) -> str:
    """The host's last die roll in words (Ghostone)."""
    roll = getattr(view, "last_roll", None)
    if roll is None or view.ghost is None:
        return ""
    origin, target = plate_name(roll.ghost_from), plate_name(view.ghost)
    took = strings.ROLL_TOOK.format(origin=origin) if roll.ghost_took else ""
    return strings.ROLL_ANNOUNCE.format(direction=roll.move.direction, origin=origin,
                                        target=target, took=took)


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
                        lead: str | None = None, clock: Any = None) -> BoardMessage:
    """The message posted after a move (or at the start, or for /board)."""
    view = match.observe(None)
    lines = []
    if lead:
        lines.append(lead)
    if result is not None:
        lines.append(strings.MOVE_PLAYED.format(name=result.mover.name, notation=result.public,
                                                detail=move_detail(view)))
    if result is not None and result.rolls:
        lines.append(roll_text(view))
    score = scores_text(match)
    if score:
        lines.append(score)
    turn, mention = turn_text(match, view)
    if turn:
        lines.append(turn)
    if clock is not None and match.to_move() is not None:
        lines.append(strings.TIME_LEFT.format(left=format_duration(clock.remaining)))
    png = await render_view(match, view)
    hidden = match.game.info.hidden_information
    layout = Layout() if hidden else move_components(match)
    return BoardMessage(match.id, match.ply(), "\n".join(lines), png, layout.plain, mention,
                        layout.cell_groups, private_flow=hidden,
                        running=match.to_move() is not None, steps=layout.steps,
                        pick=layout.pick, finished=match.status == "finished")


async def private_message(match: Match, seat: int) -> tuple[str, bytes]:
    """A player's private view: the picture with what they know, and their hand in words."""
    view = match.observe(seat)
    hand = getattr(view, "hand", None) or ()
    words = ", ".join(strings.TILE_KINDS.get(k, k) for k in hand) or strings.PRIVATE_EMPTY_HAND
    content = strings.PRIVATE_VIEW.format(match_id=match.id, game=match.game.name,
                                          link=f"<#{match.row.channel_id}>", hand=words)
    return content, await render_view(match, view)


def private_changes(before: Any, after: Any) -> list[int]:
    """Seats whose private knowledge changed with a move (their hand, or tiles they track)."""
    seats = []
    for seat in (0, 1):
        if (getattr(before, "hands", None) is not None
                and (before.hands[seat] != after.hands[seat]
                     or before.known[seat] != after.known[seat])):
            seats.append(seat)
    return seats


def _pastoral_card(match: Match, seat: int) -> str:
    view = match.observe(seat)
    other = 1 - seat
    opponent = match.row.user_at(other)
    details = strings.PASTORAL_CARD.format(
        picked=view.picked, held=view.held[seat], s="" if view.held[seat] == 1 else "s",
        stock=view.stock[seat], opponent=opponent.name if opponent else "?",
        opp_held=view.held[other], opp_stock=view.stock[other])
    if view.blocked:
        details += "\n" + strings.PASTORAL_BLOCKED.format(
            cells=", ".join(sorted(cell_name(c) for c in view.blocked)))
    return details


# games whose player to move gets a private turn card by DM: game id -> details of the card
TURN_CARDS: dict[str, Callable[[Match, int], str]] = {"pastoral-square": _pastoral_card}


def turn_card(match: Match) -> str | None:
    """The private card DMed to the player whose turn it now is, for games that have one."""
    mover = match.to_move()
    card = TURN_CARDS.get(match.game.id)
    if mover is None or card is None:
        return None
    return strings.TURN_CARD.format(match_id=match.id, game=match.game.name,
                                    link=f"<#{match.row.channel_id}>",
                                    details=card(match, mover.seat))


def split_two_step(legal: list[str]) -> tuple[list[str], dict[str, list[int]]]:
    """Plain moves (`save`, `k`) and two-step ones (`d4:2`) grouped by cell -> counts."""
    plain: list[str] = []
    cells: dict[str, list[int]] = {}
    for notation in legal:
        cell, sep, amount = notation.partition(":")
        if sep and amount.isdigit():
            cells.setdefault(cell, []).append(int(amount))
        else:
            plain.append(notation)
    return plain, cells


@dataclass
class Layout:
    """The components under a board, derived from the shapes of the legal notations."""

    plain: list[str] = field(default_factory=list)  # one button each
    cell_groups: list[list[tuple[str, str]]] = field(default_factory=list)  # cell:n moves
    steps: list[tuple[str, str]] = field(default_factory=list)  # "b2-b3 W": first half
    pick: tuple[str, list[str], str] | None = None  # "ghost c3" / "b2:a1,a3,c2": plate menu


def move_components(match: Match) -> Layout:
    """Buttons for plain moves, menus and two-part buttons for the rest; the private second
    step (count, rock direction, rock plates) is answered ephemerally."""
    if match.to_move() is None:
        return Layout()
    legal = match.game.legal_notations(match.state)
    if legal and all(n.startswith("ghost ") for n in legal):
        return Layout(pick=("ghost", [n.split(" ", 1)[1] for n in legal], strings.PICK_GHOST))
    if legal and all("," in n for n in legal):  # set-up: <plate>:<plate>,<plate>,<plate>
        plates = sorted({n.split(":", 1)[0] for n in legal}, key=lambda p: (p[1], p[0]))
        return Layout(pick=("setup", plates, strings.PICK_SETUP))
    if any(" " in n for n in legal):  # <step> <ending>, e.g. b2-b3 W
        heads: dict[str, list[str]] = {}
        for notation in legal:
            heads.setdefault(notation.split(" ", 1)[0], []).append(notation)
        plain = [moves[0] for moves in heads.values() if moves == [moves[0].split(" ")[0]]]
        steps = [(head, head.replace("-", "→")) for head, moves in heads.items()
                 if moves != [head]]
        if len(plain) + len(steps) <= MAX_MOVE_BUTTONS:
            return Layout(plain=plain, steps=steps)
        return Layout()
    plain, cells = split_two_step(legal)
    if len(plain) > MAX_MOVE_BUTTONS:
        return Layout()
    options = [(cell, strings.CELL_CHOICES.format(counts=", ".join(map(str, counts))))
               for cell, counts in sorted(cells.items(), key=lambda kv: (kv[0][1:], kv[0][0]))]
    groups = [options[i:i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]
    rows_for_buttons = -(-len(plain) // 5)
    return Layout(plain=plain, cell_groups=groups[:max(0, 5 - rows_for_buttons)])
