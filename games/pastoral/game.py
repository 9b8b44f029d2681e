"""Pastoral Square: rules in ../shared/rules/pastoral-square.md.

Cells are numbered 0..63, `file + 8 * rank` (a1 = 0, h8 = 63). The pick-up is automatic: the
state always shows the player to move *after* their pick-up (or a pick-up failure, which ends
the game), so `held` is what they may spend now and `picked` what the pick-up just gave them.

Readings where the rule file is silent (a careful player's choice):
- The mover's bingo is checked before anything else; if the action wins, the opponent's
  pick-up is not made.
- Only the mover can have a bingo after an action (a mutilation only removes the opponent's
  stones), so the outcome is read off the board: whoever owns a bingo line has won.
- A cattle action must put stones on an empty cattle cell or one the mover owns; the opponent's
  cattle stacks are never touched, except by a mutilation that removes the mover's own X and Y.
- The first player's colour is a match option (`colour=black|white`, default black); it only
  changes the picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..base import (
    N_,
    NC_,
    Answer,
    Description,
    Ending,
    Game,
    GameInfo,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    Option,
    OptionSpec,
    Outcome,
    Phrase,
    Seat,
    Step,
    ascii_number,
    checked_decoder,
    nphrase,
    phrase,
    repetition_option,
)
from ..grid import Grid


class PastoralEnding(Ending):
    BINGO = "target"  # three corral cells in a line, with equal stacks
    PICKUP_FAILURE = "pickup-failure"  # the stock of the player to move cannot cover the pick-up
    REPETITION = "repetition"  # house rule: the third occurrence of a position


FILES = "abcdefgh"
STONES = 64
START_STOCK = 32
MAX_STACK = 5
EMPTY = -1

CORRAL_VALUES = {  # figure 1 of the original
    "c6": 2, "d6": 3, "e6": 3, "f6": 2,
    "c5": 3, "d5": 4, "e5": 4, "f5": 3,
    "c4": 3, "d4": 4, "e4": 4, "f4": 3,
    "c3": 2, "d3": 3, "e3": 3, "f3": 2,
}


GRID = Grid(8)
cell_name, parse_cell = GRID.name, GRID.parse


def _cell(file: int, rank: int) -> int:
    return file + 8 * rank


def _named(name: str) -> int:
    cell = parse_cell(name)
    assert cell is not None, name
    return cell


CORRAL = frozenset(_named(name) for name in CORRAL_VALUES)
VALUE = {_named(name): value for name, value in CORRAL_VALUES.items()}
HOLDING = frozenset(_cell(f, r) for f0, r0 in ((0, 0), (6, 0), (0, 6), (6, 6))
                    for f in (f0, f0 + 1) for r in (r0, r0 + 1))
CATTLE = frozenset(range(64)) - CORRAL - HOLDING


@dataclass(frozen=True)
class Square:
    """A mutilation square: A in the corral, D in a holding area, B and C in the cattle area."""

    a: int
    b: int
    c: int
    d: int


def _squares() -> tuple[Square, ...]:
    found = []
    for a in sorted(CORRAL):
        fa, ra = a % 8, a // 8
        for d in sorted(HOLDING):
            fd, rd = d % 8, d // 8
            if abs(fa - fd) != abs(ra - rd):
                continue
            b, c = _cell(fd, ra), _cell(fa, rd)
            if b in CATTLE and c in CATTLE:
                found.append(Square(a, b, c, d))
    return tuple(found)


SQUARES = _squares()
# for a cattle cell X: the squares it is B or C of, as (A, Y = the other cattle cell, square)
PARTNERS: dict[int, tuple[tuple[int, int, Square], ...]] = {
    x: tuple((sq.a, sq.c if x == sq.b else sq.b, sq) for sq in SQUARES if x in (sq.b, sq.c))
    for x in CATTLE
}


def _lines() -> tuple[tuple[int, int, int], ...]:
    """The 24 bingo lines: every 3 consecutive corral cells in a row, file or diagonal."""
    lines: list[tuple[int, int, int]] = []
    for f in range(2, 6):
        for r in range(2, 6):
            for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(f + i * df, r + i * dr) for i in range(3)]
                if all(2 <= cf <= 5 and 2 <= cr <= 5 for cf, cr in cells):
                    a, b, c = (_cell(cf, cr) for cf, cr in cells)
                    lines.append((a, b, c))
    return tuple(lines)


LINES = _lines()


@dataclass(frozen=True)
class PastoralMove:
    cell: int | None  # None = save
    stones: int = 0


SAVE = PastoralMove(None, 0)


@dataclass(frozen=True)
class Mutilation:
    """What one action's mutilation removed, for messages and the picture."""

    squares: tuple[Square, ...]
    removed: tuple[tuple[int, int, int], ...]  # (cell, owner, stones)
    to_stocks: int  # stones returned to each stock
    to_held: int  # 1 when the total was odd: one stone to the mover's held stones


@dataclass(frozen=True)
class LastAction:
    seat: int
    cell: int | None
    stones: int
    mutilation: Mutilation | None


@dataclass(frozen=True)
class PastoralState:
    owner: tuple[int, ...]  # per cell: seat or EMPTY
    count: tuple[int, ...]
    held: tuple[int, int]
    stock: tuple[int, int]
    to_move: int
    picked: int  # what the pick-up of the player to move gave them
    pickup_failed: bool  # the player to move could not pick up: they have lost
    blocked: frozenset[int]  # corral cells the player to move may not place on
    repetition: bool
    first_colour: str
    ply: int = 0
    last: LastAction | None = None
    history: tuple[str, ...] = ()  # position keys of the whole game, the current one last

    def key(self) -> str:
        """The position as a short text (for the repetition rule): cells, held, stocks, seat
        to move, blocked cells."""
        cells = "".join("." if o == EMPTY else chr(ord("a" if o == 0 else "A") + n - 1)
                        for o, n in zip(self.owner, self.count, strict=True))
        blocked = ",".join(sorted(cell_name(c) for c in self.blocked))
        return (f"{cells}|{self.held[0]},{self.held[1]}|{self.stock[0]},{self.stock[1]}"
                f"|{self.to_move}|{blocked}")


@dataclass(frozen=True)
class PastoralView:
    owner: tuple[int, ...]
    count: tuple[int, ...]
    held: tuple[int, int]
    stock: tuple[int, int]
    to_move: int | None
    picked: int
    blocked: frozenset[int]
    first_colour: str
    last: LastAction | None
    outcome: Outcome | None
    bingo: tuple[int, int, int] | None
    ply: int


def required_pickup(held: int) -> int:
    return 2 if held <= 3 else 1 if held == 4 else 0


def bingo_line(owner: tuple[int, ...], count: tuple[int, ...]) -> tuple[int, int, int] | None:
    for line in LINES:
        first = line[0]
        if owner[first] != EMPTY and all(owner[c] == owner[first] and count[c] == count[first]
                                         for c in line[1:]):
            return line
    return None


class PastoralSquare(Game[PastoralState, PastoralMove]):
    info = GameInfo(
        id="pastoral-square",
        name=N_("Pastoral Square"),  # N_: a title in Japanese lists
        min_seats=2,
        max_seats=2,
        options=(
            OptionSpec("colour", ("black", "white"), "black", N_("the first player's colour")),
            repetition_option(),
        ),
        endings=tuple(PastoralEnding),
    )

    # -- set-up ------------------------------------------------------------------------
    def new(self, seats=None, options=None) -> PastoralState:
        self.check_seats(seats)
        opts = self.resolve_options(options)
        state = PastoralState(
            owner=(EMPTY,) * 64, count=(0,) * 64, held=(0, 0), stock=(START_STOCK,) * 2,
            to_move=1, picked=0, pickup_failed=False, blocked=frozenset(),
            repetition=opts["repetition"] == "on", first_colour=opts["colour"])
        return _start_turn(replace(state, to_move=0), blocked=frozenset(), history=())

    def options_of(self, state: PastoralState) -> dict[str, str]:
        return {"colour": state.first_colour, "repetition": "on" if state.repetition else "off"}

    def seats(self, state: PastoralState) -> int:
        return 2

    # -- rules -------------------------------------------------------------------------
    def outcome(self, state: PastoralState) -> Outcome | None:
        line = bingo_line(state.owner, state.count)
        if line is not None:
            return Outcome((state.owner[line[0]],), ending=PastoralEnding.BINGO)
        if state.pickup_failed:
            return Outcome((1 - state.to_move,), ending=PastoralEnding.PICKUP_FAILURE)
        if state.repetition and state.history.count(state.key()) >= 3:
            return Outcome((0, 1), draw=True, ending=PastoralEnding.REPETITION)
        return None

    def to_move(self, state: PastoralState) -> int | None:
        return None if self.outcome(state) else state.to_move

    def scores(self, state: PastoralState) -> None:
        return None

    def ply(self, state: PastoralState) -> int:
        return state.ply

    def legal_moves(self, state: PastoralState) -> list[PastoralMove]:
        if self.outcome(state) is not None:
            return []
        moves = [SAVE]
        for cell in range(64):
            for stones in range(1, MAX_STACK + 1):
                move = PastoralMove(cell, stones)
                if self._refusal(state, move) is None:
                    moves.append(move)
        return moves

    def _refusal(self, state: PastoralState, move: PastoralMove) -> Phrase | None:
        """Why `move` is illegal, in the player's terms, or None."""
        if move.cell is None:
            return None
        seat, cell, n = state.to_move, move.cell, move.stones
        name = cell_name(cell)
        if n < 1:
            return phrase(N_("put at least one stone"))
        if n > MAX_STACK:
            return phrase(N_("a cell holds at most {max} stones"), max=MAX_STACK)
        if n > state.held[seat]:
            return nphrase(N_("you hold {n} stone, not {wanted}"),
                           N_("you hold {n} stones, not {wanted}"), state.held[seat], wanted=n)
        if cell in HOLDING:
            return phrase(N_("{cell} is in a holding area, where no stones are played"),
                          cell=name)
        owner, count = state.owner[cell], state.count[cell]
        if owner not in (EMPTY, seat):
            return phrase(N_("{cell} belongs to your opponent"), cell=name)
        if count + n > MAX_STACK:
            return nphrase(N_("{cell} has {count} stones; you can add at most {n}"),
                           N_("{cell} has {count} stones; you can add at most {n}"),
                           MAX_STACK - count, cell=name, count=count)
        if cell in CORRAL:
            if owner == EMPTY:
                if cell in state.blocked:
                    return phrase(N_("your stones on {cell} were just mutilated: you may not "
                                     "place there this turn"), cell=name)
                if n != VALUE[cell]:
                    return phrase(N_("claiming {cell} takes exactly {value} stones"),
                                  cell=name, value=VALUE[cell])
            return None
        x = count + n
        if self._fired(state, seat, cell, x) or self._is_reach(state, seat, cell, x):
            return None
        return nphrase(N_("{cell}:{stones} is neither a mutilation nor a reach: {n} stone on "
                          "{cell} must divide the opponent's stack at the corner of a square "
                          "whose other cattle cell is empty or yours"),
                       N_("{cell}:{stones} is neither a mutilation nor a reach: {n} stones on "
                          "{cell} must divide the opponent's stack at the corner of a square "
                          "whose other cattle cell is empty or yours"), x, cell=name, stones=n)

    @staticmethod
    def _fired(state: PastoralState, seat: int, x: int, stones: int) -> tuple[Square, ...]:
        opponent = 1 - seat
        return tuple(sq for a, y, sq in PARTNERS[x]
                     if state.owner[a] == opponent and state.owner[y] == seat
                     and state.count[a] == stones * state.count[y])

    @staticmethod
    def _is_reach(state: PastoralState, seat: int, x: int, stones: int) -> bool:
        opponent = 1 - seat
        return any(state.owner[a] == opponent and state.owner[y] in (EMPTY, seat)
                   and state.count[a] % stones == 0 for a, y, _ in PARTNERS[x])

    def apply(self, state: PastoralState, move: PastoralMove) -> PastoralState:
        if self.outcome(state) is not None:
            raise GameOverError(N_("the game is over"))
        if move.cell is not None and not 0 <= move.cell < 64:
            raise IllegalMoveError(N_("there is no such cell"))
        reason = self._refusal(state, move)
        if reason is not None:
            raise IllegalMoveError(reason)
        seat = state.to_move
        owner, count = list(state.owner), list(state.count)
        held, stock = list(state.held), list(state.stock)
        mutilation = None
        blocked: frozenset[int] = frozenset()
        if move.cell is not None:
            cell, n = move.cell, move.stones
            fired = self._fired(state, seat, cell, state.count[cell] + n) \
                if cell in CATTLE else ()
            owner[cell] = seat
            count[cell] += n
            held[seat] -= n
            if fired:
                cells = sorted({c for sq in fired for c in (sq.a, sq.b, sq.c)})
                removed = tuple((c, owner[c], count[c]) for c in cells)
                total = sum(r[2] for r in removed)
                for c in cells:
                    owner[c], count[c] = EMPTY, 0
                to_held = total % 2
                to_stocks = (total - to_held) // 2
                stock[0] += to_stocks
                stock[1] += to_stocks
                held[seat] += to_held
                mutilation = Mutilation(fired, removed, to_stocks, to_held)
                blocked = frozenset(sq.a for sq in fired)
        after = replace(state, owner=tuple(owner), count=tuple(count), held=(held[0], held[1]),
                        stock=(stock[0], stock[1]), ply=state.ply + 1,
                        last=LastAction(seat, move.cell, move.stones, mutilation))
        if bingo_line(after.owner, after.count) is not None:
            return replace(after, history=after.history + (after.key(),))
        return _start_turn(replace(after, to_move=1 - seat), blocked=blocked,
                           history=state.history)

    # -- notation ----------------------------------------------------------------------
    def parse_move(self, state: PastoralState, text: str) -> PastoralMove:
        token = text.strip().lower().replace(" ", "")
        if token == "save":
            return SAVE
        cell_text, sep, stones_text = token.partition(":")
        cell = parse_cell(cell_text)
        stones = ascii_number(stones_text, 2)
        if not sep or cell is None or stones is None:
            raise InvalidMoveError(N_("write save, or a cell and a number of stones such as "
                                      "d4:4"))
        return PastoralMove(cell, stones)

    def format_move(self, state: PastoralState, move: PastoralMove) -> str:
        return "save" if move.cell is None else f"{cell_name(move.cell)}:{move.stones}"

    # -- entering a move and telling people -----------------------------------------------
    def input_path(self, state: PastoralState, move: PastoralMove) -> tuple[Answer, ...]:
        if move.cell is None:
            return (("save",),)
        return ((cell_name(move.cell),), (str(move.stones),))

    def input_step(self, state: PastoralState, answers: tuple[Answer, ...], values: list[str],
                   picks: int) -> Step:
        if not answers:
            counts: dict[str, list[str]] = {}
            for move in self.legal_moves(state):
                if move.cell is not None:
                    counts.setdefault(cell_name(move.cell), []).append(str(move.stones))
            options = [Option("save", phrase(N_("Save")),
                              phrase(N_("keep your stones for a later turn")))]
            cells = sorted((v for v in values if v != "save"), key=lambda c: (c[1], c[0]))
            options += [Option(c, c, phrase(N_("stones: {counts}"),
                                            counts=tuple(counts[c]))) for c in cells]
            return Step("cell", phrase(N_("Where do you play?")), tuple(options),
                        their_prompt=phrase(N_("Where will they play?")))
        cell = answers[0][0]
        return Step("stones", phrase(N_("How many stones on {cell}?"), cell=cell),
                    tuple(Option(v, v) for v in sorted(values, key=int)),
                    their_prompt=phrase(N_("How many stones will they put on {cell}?"),
                                        cell=cell))

    def seat_title(self, seat: int) -> Phrase:
        # the original's 先攻 and 後攻 (other games' 先手 and 後手)
        return phrase((NC_("pastoral", "the first player"),
                       NC_("pastoral", "the second player"))[seat])

    def describe_outcome(self, state: PastoralState) -> Phrase:
        outcome = self.outcome(state)
        if outcome is None:
            return super().describe_outcome(state)
        if outcome.ending == PastoralEnding.BINGO:
            line = bingo_line(state.owner, state.count)
            assert line is not None
            return nphrase(N_("{winner} made a bingo: {cells} with {n} stone each"),
                           N_("{winner} made a bingo: {cells} with {n} stones each"),
                           state.count[line[0]], winner=Seat(outcome.winners[0]),
                           cells=tuple(cell_name(c) for c in line))
        if outcome.ending == PastoralEnding.PICKUP_FAILURE:
            loser = 1 - outcome.winners[0]
            return phrase(N_("{loser}'s stock could not cover the pick-up: {winner} wins"),
                          loser=Seat(loser), winner=Seat(outcome.winners[0]))
        return phrase(N_("Drawn: the same position came up a third time"))

    def move_effects(self, before: PastoralState, move: PastoralMove,
                     after: PastoralState) -> tuple[Phrase, ...]:
        last = after.last
        if last is None or last.mutilation is None:
            return ()
        mutilation = last.mutilation
        gone = tuple(f"{cell_name(c)} ({n})" for c, _, n in mutilation.removed)
        effects = [nphrase(N_("mutilation: {cells} removed, {n} stone back to each stock"),
                           N_("mutilation: {cells} removed, {n} stones back to each stock"),
                           mutilation.to_stocks, cells=gone)]
        if mutilation.to_held:
            effects.append(phrase(N_("one stone back to the mover's hand")))
        return tuple(effects)

    def turn_card(self, state: PastoralState, seat: int) -> Phrase | None:
        view = self.observe(state, seat)
        other = 1 - seat
        card = nphrase(N_("You picked up {picked}: you hold {n} stone and {stock} remain in "
                          "your stock. {opponent} holds {opp_held}, stock {opp_stock}."),
                       N_("You picked up {picked}: you hold {n} stones and {stock} remain in "
                          "your stock. {opponent} holds {opp_held}, stock {opp_stock}."),
                       view.held[seat], picked=view.picked, stock=view.stock[seat],
                       opponent=Seat(other), opp_held=view.held[other],
                       opp_stock=view.stock[other])
        if view.blocked and view.to_move == seat:
            return phrase(N_("{card} You may not place on {cells} this turn (your stones there "
                             "were just mutilated)."), card=card,
                          cells=tuple(sorted(cell_name(c) for c in view.blocked)))
        return card

    # -- a position in words (games/pastoral/words.py) ---------------------------------------
    def describe_view(self, view: PastoralView) -> Description:
        from .words import describe  # words.py reads this module's names
        return describe(view)

    def without_hints(self, view: PastoralView) -> PastoralView:
        """A quiz asks about what this leaves out (see `Game.without_hints`)."""
        return replace(view, blocked=frozenset())

    def point_names(self, view: PastoralView) -> tuple[str, ...]:
        from .words import point_names
        return point_names(view)

    def describe_point(self, view: PastoralView, name: str) -> Phrase:
        from .words import describe_point
        return describe_point(view, name)

    # -- codec -------------------------------------------------------------------------
    def to_json(self, state: PastoralState) -> dict[str, Any]:
        last = state.last
        return {
            "board": {cell_name(c): [state.owner[c], state.count[c]]
                      for c in range(64) if state.owner[c] != EMPTY},
            "held": list(state.held), "stock": list(state.stock), "to_move": state.to_move,
            "picked": state.picked, "pickup_failed": state.pickup_failed,
            "blocked": sorted(cell_name(c) for c in state.blocked),
            "repetition": state.repetition, "colour": state.first_colour, "ply": state.ply,
            "last": None if last is None else {
                "seat": last.seat,
                "move": self.format_move(state, PastoralMove(last.cell, last.stones)),
                "mutilation": None if last.mutilation is None else {
                    "squares": [[s.a, s.b, s.c, s.d] for s in last.mutilation.squares],
                    "removed": [list(r) for r in last.mutilation.removed],
                    "to_stocks": last.mutilation.to_stocks, "to_held": last.mutilation.to_held}},
            "history": list(state.history[:-1]),
        }

    @checked_decoder
    def from_json(self, data: Mapping[str, Any]) -> PastoralState:
        try:
            owner, count = [EMPTY] * 64, [0] * 64
            for name, (who, n) in data["board"].items():
                cell = parse_cell(name)
                if cell is None or cell in HOLDING or who not in (0, 1) or not 1 <= n <= MAX_STACK:
                    raise InvalidStateError(f"board cell {name}={[who, n]} is not possible")
                owner[cell], count[cell] = who, n
            last = data.get("last")
            mut = last and last.get("mutilation")
            state = PastoralState(
                owner=tuple(owner), count=tuple(count),
                held=_pair(data["held"], "held"), stock=_pair(data["stock"], "stock"),
                to_move=_seat(data["to_move"]), picked=int(data["picked"]),
                pickup_failed=bool(data["pickup_failed"]),
                blocked=frozenset(_corral(n) for n in data["blocked"]),
                repetition=bool(data["repetition"]), first_colour=str(data["colour"]),
                ply=int(data["ply"]),
                last=None if not last else LastAction(
                    seat=_seat(last["seat"]),
                    cell=self.parse_move(None, last["move"]).cell,  # type: ignore[arg-type]
                    stones=self.parse_move(None, last["move"]).stones,  # type: ignore[arg-type]
                    mutilation=None if not mut else Mutilation(
                        squares=tuple(Square(*s) for s in mut["squares"]),
                        removed=tuple((int(c), int(o), int(n)) for c, o, n in mut["removed"]),
                        to_stocks=int(mut["to_stocks"]), to_held=int(mut["to_held"]))),
            )
            history = tuple(str(k) for k in data.get("history", []))
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidStateError(f"malformed Pastoral Square state: {exc!r}") from None
        total = sum(state.count) + sum(state.held) + sum(state.stock)
        if total != STONES:
            raise InvalidStateError(f"{total} stones on the board, held and in stock: expected 64")
        if any(h > MAX_STACK for h in state.held):
            raise InvalidStateError(f"held stones {list(state.held)}: at most 5 each")
        if state.first_colour not in ("black", "white"):
            raise InvalidStateError(f"colour {state.first_colour!r}: expected black or white")
        return replace(state, history=history + (state.key(),))

    # -- views -------------------------------------------------------------------------
    def observe(self, state: PastoralState, viewer: int | None) -> PastoralView:
        outcome = self.outcome(state)
        return PastoralView(
            owner=state.owner, count=state.count, held=state.held, stock=state.stock,
            to_move=None if outcome else state.to_move, picked=state.picked,
            blocked=state.blocked, first_colour=state.first_colour, last=state.last,
            outcome=outcome, bingo=bingo_line(state.owner, state.count), ply=state.ply)

    def describe(self, state: PastoralState) -> str:
        marks = {0: "X", 1: "O"}
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                cell = _cell(file, rank)
                if state.owner[cell] != EMPTY:
                    cells.append(f"{marks[state.owner[cell]]}{state.count[cell]}")
                elif cell in CORRAL:
                    cells.append(f"({VALUE[cell]})")
                elif cell in HOLDING:
                    cells.append(" ::")
                else:
                    cells.append(" . ")
            rows.append(f"{rank + 1} " + " ".join(f"{c:>3}" for c in cells))
        rows.append("    " + "   ".join(FILES))
        rows.append(f"first (X): held {state.held[0]}, stock {state.stock[0]}    "
                    f"second (O): held {state.held[1]}, stock {state.stock[1]}")
        if state.last and state.last.mutilation:
            gone = ", ".join(f"{cell_name(c)} ({n})" for c, _, n in state.last.mutilation.removed)
            rows.append(f"mutilation removed {gone}")
        if self.outcome(state) is None:
            rows.append(f"to move: {'first (X)' if state.to_move == 0 else 'second (O)'}"
                        f" (picked up {state.picked})")
            if state.blocked:
                blocked = ", ".join(sorted(cell_name(c) for c in state.blocked))
                rows.append(f"may not place on {blocked}")
        return "\n".join(rows)


def _start_turn(state: PastoralState, *, blocked: frozenset[int],
                history: tuple[str, ...]) -> PastoralState:
    """The automatic pick-up of the player to move (or their loss when the stock is short)."""
    seat = state.to_move
    need = required_pickup(state.held[seat])
    if state.stock[seat] < need:
        after = replace(state, picked=0, pickup_failed=True, blocked=blocked)
    else:
        held, stock = list(state.held), list(state.stock)
        held[seat] += need
        stock[seat] -= need
        after = replace(state, held=(held[0], held[1]), stock=(stock[0], stock[1]),
                        picked=need, pickup_failed=False, blocked=blocked)
    return replace(after, history=history + (after.key(),))


def _pair(value: Any, what: str) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
        raise InvalidStateError(f"{what} {value!r}: expected two non-negative integers")
    return value[0], value[1]


def _seat(value: Any) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise InvalidStateError(f"seat {value!r} is out of range")
    return value


def _corral(name: str) -> int:
    cell = parse_cell(name)
    if cell is None or cell not in CORRAL:
        raise InvalidStateError(f"blocked cell {name!r} is not in the corral")
    return cell


GAME = PastoralSquare()
