"""Ghostone (ブツダ, 2013): rules in ../shared/rules/ghostone.md.

Plates are 0..15, `file + 4 * rank` (a1 = 0, d4 = 15, north is rank 4). Seats are 0-based here
and 1-based in every text. Chance is explicit: when a roll is due (before each turn of seat 1
once the ghost is out) the state is a *chance node*: `to_move` is None, `legal_moves` lists the
eight `roll <dir>` outcomes and the host picks one and applies it like any move. Passes are
automatic and leave no move.

Readings where the rule file is silent (a careful player's choice):
- A shared win (equal highest scores) is reported as a draw between the seats that share it.
- Positions for the repetition house rule are taken when a turn starts (passed turns included)
  and after the roll that precedes seat 1's turn; a set-up placement is not a turn.
- The "n passes in a row" house rule counts passed turns only; a seat that moves resets it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import (
    N_,
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
    Outcome,
    Phrase,
    Seat,
    Step,
    checked_decoder,
    nphrase,
    phrase,
    repetition_option,
)
from ..grid import DIRECTIONS, ORTHOGONAL, Grid, compass

SIZE = 4
PLATES = SIZE * SIZE
FILES = "abcd"
PAWNS = {3: 3, 4: 2}
class GhostoneEnding(Ending):
    PAWNS = "target"  # the pawns left on the board all belong to one player
    PASSES = "no-legal-move"  # every player in turn could not step
    REPETITION = "repetition"  # house rule: the third occurrence of a position


SETUP_ORDER = {3: (0, 1, 2, 1, 2, 0, 2, 0, 1), 4: (0, 1, 2, 3, 3, 2, 1, 0)}
BONUS = (3, 2, 1)
NO_PAWN = -1
SETUP, PLAY, GHOST, ROLL, OVER = "setup", "play", "ghost", "roll", "over"


GRID = Grid(SIZE)
plate_name, parse_plate, step, around = GRID.name, GRID.parse, GRID.step, GRID.neighbours
wrap_step = GRID.wrap_step  # the ghost lives on a torus


def _by_name(plates) -> tuple[int, ...]:
    return tuple(sorted(plates, key=plate_name))


def _three(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Three plates in the notation's order (by name)."""
    x, y, z = _by_name((a, b, c))
    return x, y, z


# tables for the moves (playouts of the AI ask for them on every move)
_STEPS = {d: tuple(GRID.step(p, d) for p in range(PLATES)) for d in DIRECTIONS}
_ORTHOGONAL_STEPS = tuple(tuple((d, GRID.step(p, d)) for d in ORTHOGONAL) for p in range(PLATES))
_AROUND = tuple(frozenset(around(p)) for p in range(PLATES))


def _evolve(state: GhostoneState, **changes: Any) -> GhostoneState:
    """`dataclasses.replace` without its per-field overhead (the state has no __init__ logic
    to run): playouts make a few new states per move."""
    new = object.__new__(GhostoneState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def total_rocks(seats: int) -> int:
    return PLATES + 3 * seats * PAWNS[seats]


_ROCK_CHARS = tuple(chr(48 + n) for n in range(200))
_PAWN_CHARS = (".", "0", "1", "2", "3")


@dataclass(frozen=True)
class SetupMove:
    pawn: int
    rocks: tuple[int, int, int]  # in the notation's order: sorted by plate name


@dataclass(frozen=True)
class PawnMove:
    origin: int
    target: int
    rock: str | None  # direction of the rock moved from the origin, None when none moves


@dataclass(frozen=True)
class GhostPlacement:
    plate: int


@dataclass(frozen=True)
class Roll:
    direction: str


GhostoneMove = SetupMove | PawnMove | GhostPlacement | Roll


@dataclass(frozen=True)
class LastAction:
    seat: int | None  # None for the host's roll
    move: GhostoneMove
    escaped: tuple[int, int] | None = None  # (points, bonus)
    rock_to: int | None = None  # plate the rock went to; None if off the board or none moved
    ghost_from: int | None = None
    ghost_took: bool = False


@dataclass(frozen=True)
class GhostoneState:
    seats: int
    rocks: tuple[int, ...]
    pawns: tuple[int, ...]  # seat per plate, or NO_PAWN
    flipped: frozenset[int]
    phase: str
    to_move: int  # the seat to act (for ROLL: seat 1, whose turn the roll precedes)
    setup_index: int
    escaped: tuple[tuple[tuple[int, int], ...], ...]  # per seat: (points, bonus) per escape
    ghost: int | None
    removed: int  # rocks out of the game (pushed off, taken by the ghost)
    passes: int  # passed turns in a row
    end: str | None  # why the game ended
    repetition: bool = True  # house rule
    ply: int = 0
    last: LastAction | None = None  # the last set-up, pawn move or ghost placement
    last_roll: LastAction | None = None  # the last die roll (kept apart for the picture)
    history: tuple[str, ...] = ()  # position keys at the start of every turn

    def key(self) -> str:
        # as "".join(chr(48 + n) for n in rocks), "." or the seat per plate, and "1" per
        # flipped plate, built from tables (playouts build a key every turn)
        rocks = "".join([_ROCK_CHARS[n] if n < 200 else chr(48 + n) for n in self.rocks])
        pawns = "".join([_PAWN_CHARS[p + 1] for p in self.pawns])
        flipped = format(sum(1 << p for p in self.flipped), f"0{PLATES}b")[::-1]
        return f"{rocks}|{pawns}|{flipped}|{self.ghost}|{self.to_move}"

    def escapes(self) -> int:
        return sum(len(e) for e in self.escaped)


@dataclass(frozen=True)
class GhostoneView:
    seats: int
    rocks: tuple[int, ...]
    pawns: tuple[int, ...]
    flipped: frozenset[int]
    ghost: int | None
    phase: str
    to_move: int | None
    escaped: tuple[tuple[tuple[int, int], ...], ...]
    scores: tuple[int, ...]
    removed: int
    last: LastAction | None
    last_roll: LastAction | None
    outcome: Outcome | None
    ply: int


class Ghostone(Game[GhostoneState, GhostoneMove]):
    info = GameInfo(
        id="ghostone",
        name=N_("Ghostone"),  # N_: a title in Japanese lists
        min_seats=3,
        max_seats=4,
        options=(repetition_option(
            N_("house rule: third repetition of a position ends the game")),),
        endings=tuple(GhostoneEnding),
        chance=True,  # the die decides where a ghost reappears
    )

    # -- set-up ------------------------------------------------------------------------
    def new(self, seats=None, options=None) -> GhostoneState:
        seats = self.check_seats(seats)
        opts = self.resolve_options(options)
        return GhostoneState(
            seats=seats, rocks=(1,) * PLATES, pawns=(NO_PAWN,) * PLATES, flipped=frozenset(),
            phase=SETUP, to_move=SETUP_ORDER[seats][0], setup_index=0,
            escaped=((),) * seats, ghost=None, removed=0, passes=0, end=None,
            repetition=opts["repetition"] == "on")

    def options_of(self, state: GhostoneState) -> dict[str, str]:
        return {"repetition": "on" if state.repetition else "off"}

    def seats(self, state: GhostoneState) -> int:
        return state.seats

    def can_skip(self, state: GhostoneState) -> bool:
        return state.end is None and state.phase == PLAY

    def skip(self, state: GhostoneState) -> GhostoneState:
        """A timed-out seat's turn is passed, as if it could not move (it counts towards the
        all-pass house rule)."""
        if not self.can_skip(state):
            raise IllegalMoveError(N_("a turn can be skipped only during play (not during the "
                                      "set-up, a ghost placement or a roll)"))
        passes = state.passes + 1
        after = _evolve(state, passes=passes, ply=state.ply + 1)
        if passes >= state.seats:
            return _evolve(after, end="passes", phase=OVER)
        return self._next_turn(after, (state.to_move + 1) % state.seats)

    def is_chance(self, state: GhostoneState) -> bool:
        return state.phase == ROLL

    # -- scores and the end ------------------------------------------------------------
    def scores(self, state: GhostoneState) -> tuple[int, ...]:
        return tuple(sum(p + b for p, b in escapes) for escapes in state.escaped)

    def outcome(self, state: GhostoneState) -> Outcome | None:
        if state.end is None:
            return None
        scores = self.scores(state)
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
        ending = {"pawns": GhostoneEnding.PAWNS, "passes": GhostoneEnding.PASSES,
                  "repetition": GhostoneEnding.REPETITION}[state.end]
        return Outcome(winners, draw=len(winners) > 1, ending=ending)

    def to_move(self, state: GhostoneState) -> int | None:
        return None if state.end is not None or state.phase == ROLL else state.to_move

    def ply(self, state: GhostoneState) -> int:
        return state.ply

    # -- legal moves -------------------------------------------------------------------
    def legal_moves(self, state: GhostoneState) -> list[GhostoneMove]:
        if state.end is not None:
            return []
        if state.phase == ROLL:
            return [Roll(d) for d in DIRECTIONS]
        if state.phase == GHOST:
            return [GhostPlacement(p) for p in range(PLATES) if p not in state.flipped]
        if state.phase == SETUP:
            moves: list[GhostoneMove] = []
            for pawn in range(PLATES):
                if state.pawns[pawn] == NO_PAWN:
                    moves.extend(SETUP_MOVES[pawn])
            return moves
        return self._pawn_moves(state, state.to_move)

    def _pawn_steps(self, state: GhostoneState, seat: int) -> list[tuple[int, int]]:
        steps = []
        pawns, flipped = state.pawns, state.flipped
        for origin in range(PLATES):
            if pawns[origin] != seat:
                continue
            for _, target in _ORTHOGONAL_STEPS[origin]:
                if target is not None and pawns[target] == NO_PAWN and target not in flipped:
                    steps.append((origin, target))
        return steps

    def _pawn_moves(self, state: GhostoneState, seat: int) -> list[GhostoneMove]:
        moves: list[GhostoneMove] = []
        for origin, target in self._pawn_steps(state, seat):
            directions = self._rock_directions(state, origin, target)
            if not directions:
                moves.append(PawnMove(origin, target, None))
            else:
                moves.extend(PawnMove(origin, target, d) for d in directions)
        return moves

    def _rock_directions(self, state: GhostoneState, origin: int, target: int) -> list[str]:
        """Where a rock from `origin` may go after the pawn steps to `target` ([] = none)."""
        if state.rocks[origin] == 0:
            return []
        escapes = state.rocks[target] == 0
        if escapes and self._ends_after_escape(state, origin):
            return []
        flipped = state.flipped
        return [d for d, to in _ORTHOGONAL_STEPS[origin]
                if to is None or (to not in flipped and not (escapes and to == target))]

    def _ends_after_escape(self, state: GhostoneState, origin: int) -> bool:
        left = {p for plate, p in enumerate(state.pawns) if p != NO_PAWN and plate != origin}
        return len(left) <= 1

    # -- applying ----------------------------------------------------------------------
    def apply(self, state: GhostoneState, move: GhostoneMove) -> GhostoneState:
        if state.end is not None:
            raise GameOverError(N_("the game is over"))
        if not self._is_legal(state, move):
            raise IllegalMoveError(self._why_illegal(state, move))
        if isinstance(move, SetupMove):
            return self._setup(state, move)
        if isinstance(move, Roll):
            return self._roll(state, move)
        if isinstance(move, GhostPlacement):
            placed = _evolve(state, ghost=move.plate, ply=state.ply + 1,
                             last=LastAction(state.to_move, move))
            return self._next_turn(placed, (state.to_move + 1) % state.seats)
        return self._pawn(state, move)

    def _is_legal(self, state: GhostoneState, move: GhostoneMove) -> bool:
        """The same answer as `move in legal_moves(state)`, without listing them all."""
        if state.phase == ROLL:
            return isinstance(move, Roll) and move.direction in DIRECTIONS
        if state.phase == GHOST:
            return isinstance(move, GhostPlacement) and move.plate not in state.flipped
        if state.phase == SETUP:
            return (isinstance(move, SetupMove) and state.pawns[move.pawn] == NO_PAWN
                    and len(set(move.rocks)) == 3 and set(move.rocks) <= _AROUND[move.pawn]
                    and move.rocks == _by_name(move.rocks))
        if not isinstance(move, PawnMove) or not 0 <= move.origin < PLATES:
            return False
        # as `move in self._pawn_moves(...)`, for the one step the move names
        if state.pawns[move.origin] != state.to_move:
            return False
        target = move.target
        if (target not in (to for _, to in _ORTHOGONAL_STEPS[move.origin])
                or state.pawns[target] != NO_PAWN or target in state.flipped):
            return False
        directions = self._rock_directions(state, move.origin, target)
        return move.rock in directions if directions else move.rock is None

    def _why_illegal(self, state: GhostoneState, move: GhostoneMove) -> Phrase:
        """In the mover's terms: where their pawns are, which plates and directions remain."""
        if state.phase == ROLL:
            return phrase(N_("the host rolls the die now"))
        if state.phase == GHOST and not isinstance(move, GhostPlacement):
            return phrase(N_("you place the ghost now: choose a plate (ghost c3)"))
        if isinstance(move, GhostPlacement):
            if state.phase != GHOST:
                return phrase(N_("the ghost is placed only by the player whose pawn made the "
                                 "third escape"))
            return phrase(N_("{plate} is flipped"), plate=plate_name(move.plate))
        if state.phase == SETUP:
            if not isinstance(move, SetupMove):
                return phrase(N_("place a pawn now, with its three rocks (b2:a1,a3,c2)"))
            if state.pawns[move.pawn] != NO_PAWN:
                return phrase(N_("{plate} already has a pawn"), plate=plate_name(move.pawn))
            return phrase(N_("the three rocks go on different plates around {plate} "
                             "({around})"), plate=plate_name(move.pawn),
                          around=tuple(plate_name(p) for p in around(move.pawn)))
        if isinstance(move, SetupMove):
            return phrase(N_("the set-up is over"))
        if isinstance(move, Roll):
            return phrase(N_("no roll is due"))
        if state.pawns[move.origin] != state.to_move:
            mine = tuple(plate_name(p) for p in range(PLATES)
                         if state.pawns[p] == state.to_move)
            return phrase(N_("you have no pawn on {plate}: your pawns are on {plates}"),
                          plate=plate_name(move.origin), plates=mine)
        if (move.origin, move.target) not in self._pawn_steps(state, state.to_move):
            targets = tuple(plate_name(t) for o, t in self._pawn_steps(state, state.to_move)
                            if o == move.origin)
            if not targets:
                return phrase(N_("your pawn on {origin} cannot step anywhere now"),
                              origin=plate_name(move.origin))
            return phrase(N_("your pawn on {origin} can step to {targets}, not {target}"),
                          origin=plate_name(move.origin), targets=targets,
                          target=plate_name(move.target))
        allowed = self._rock_directions(state, move.origin, move.target)
        if not allowed:
            return phrase(N_("no rock moves on this step: write it without a direction"))
        if move.rock is None:
            return phrase(N_("a rock from {origin} must move: add one of {directions}"),
                          origin=plate_name(move.origin),
                          directions=tuple(compass(d) for d in allowed))
        return phrase(N_("the rock cannot go {direction} (a flipped plate): try {directions}"),
                      direction=compass(move.rock),
                      directions=tuple(compass(d) for d in allowed))

    def _setup(self, state: GhostoneState, move: SetupMove) -> GhostoneState:
        seat = state.to_move
        pawns = list(state.pawns)
        pawns[move.pawn] = seat
        rocks = list(state.rocks)
        for plate in move.rocks:
            rocks[plate] += 1
        index = state.setup_index + 1
        order = SETUP_ORDER[state.seats]
        after = _evolve(state, pawns=tuple(pawns), rocks=tuple(rocks), setup_index=index,
                        ply=state.ply + 1, last=LastAction(seat, move))
        if index < len(order):
            return _evolve(after, to_move=order[index])
        return self._next_turn(_evolve(after, phase=PLAY), state.seats - 1)

    def _pawn(self, state: GhostoneState, move: PawnMove) -> GhostoneState:
        seat = state.to_move
        pawns, rocks = list(state.pawns), list(state.rocks)
        flipped, removed = set(state.flipped), state.removed
        escaped = [list(e) for e in state.escaped]
        escape = None
        pawns[move.origin] = NO_PAWN
        if rocks[move.target] == 0:
            count = state.escapes()
            escape = (rocks[move.origin], BONUS[count] if count < len(BONUS) else 0)
            escaped[seat].append(escape)
            flipped.add(move.target)
        else:
            pawns[move.target] = seat
        rock_to = None
        if move.rock is not None:
            rocks[move.origin] -= 1
            rock_to = _STEPS[move.rock][move.origin]
            if rock_to is None:
                removed += 1
            else:
                rocks[rock_to] += 1
        after = _evolve(state, pawns=tuple(pawns), rocks=tuple(rocks),
                        flipped=frozenset(flipped), removed=removed,
                        escaped=tuple(tuple(e) for e in escaped), passes=0, ply=state.ply + 1,
                        last=LastAction(seat, move, escape, rock_to))
        on_board = {p for p in pawns if p != NO_PAWN}
        if escape is not None and len(on_board) <= 1:
            return _evolve(after, end="pawns", phase=OVER)
        if escape is not None and state.escapes() + 1 == 3:
            return _evolve(after, phase=GHOST)  # the same seat places the ghost
        return self._next_turn(after, (seat + 1) % state.seats)

    def _roll(self, state: GhostoneState, move: Roll) -> GhostoneState:
        assert state.ghost is not None
        origin, here = state.ghost, state.ghost
        for _ in range(PLATES):
            here = wrap_step(here, move.direction)
            if here == origin or here not in state.flipped:
                break
        rocks, removed = list(state.rocks), state.removed
        took = False
        if not (here == origin and origin in state.flipped) and rocks[origin] > 0:
            rocks[origin] -= 1
            removed += 1
            took = True
        rolled = _evolve(state, ghost=here, rocks=tuple(rocks), removed=removed,
                         ply=state.ply + 1,
                         last_roll=LastAction(None, move, ghost_from=origin, ghost_took=took))
        return self._begin_turn(rolled, 0)

    def _next_turn(self, state: GhostoneState, seat: int) -> GhostoneState:
        """Hand the turn to `seat`, with the roll due before seat 1's turn."""
        if seat == 0 and state.ghost is not None:
            return _evolve(state, phase=ROLL, to_move=0)
        return self._begin_turn(state, seat)

    def _begin_turn(self, state: GhostoneState, seat: int) -> GhostoneState:
        """A turn starts: record the position, then pass automatically while a seat cannot
        move (house rules end the game on n passes in a row or a third repetition)."""
        state = _evolve(state, phase=PLAY, to_move=seat)
        history = state.history + (state.key(),)
        state = _evolve(state, history=history)
        if state.repetition and history.count(state.key()) >= 3:
            return _evolve(state, end="repetition", phase=OVER)
        if self._pawn_steps(state, seat):
            return state
        passes = state.passes + 1
        if passes >= state.seats:
            return _evolve(state, passes=passes, end="passes", phase=OVER)
        return self._next_turn(_evolve(state, passes=passes), (seat + 1) % state.seats)

    # -- notation ----------------------------------------------------------------------
    def parse_move(self, state: GhostoneState, text: str) -> GhostoneMove:
        token = " ".join(text.strip().split())
        lower = token.lower()
        if lower.startswith("roll "):
            direction = token[5:].strip().upper()
            if direction in DIRECTIONS:
                return Roll(direction)
        elif lower.startswith("ghost "):
            plate = parse_plate(lower[6:].strip())
            if plate is not None:
                return GhostPlacement(plate)
        elif ":" in lower:
            pawn_text, _, rock_text = lower.partition(":")
            pawn = parse_plate(pawn_text.strip())
            plates = [parse_plate(p.strip()) for p in rock_text.split(",")]
            if pawn is not None and len(plates) == 3 and None not in plates:
                if len(set(plates)) != 3:
                    raise InvalidMoveError(N_("the three rocks go on three different plates"))
                return SetupMove(pawn, _by_name(plates))  # type: ignore[arg-type]
        elif "-" in lower:
            body, _, direction = lower.partition(" ")
            a, _, b = body.partition("-")
            origin, target = parse_plate(a), parse_plate(b)
            rock = direction.strip().upper() or None
            if origin is not None and target is not None and (rock is None or rock in ORTHOGONAL):
                return PawnMove(origin, target, rock)
        raise InvalidMoveError(
            N_("write b2:a1,a3,c2 (set-up), b2-b3 W (a pawn's step and a rock's direction) or "
               "ghost c3"))

    def format_move(self, state: GhostoneState, move: GhostoneMove) -> str:
        if isinstance(move, SetupMove):
            return f"{plate_name(move.pawn)}:{','.join(plate_name(p) for p in move.rocks)}"
        if isinstance(move, Roll):
            return f"roll {move.direction}"
        if isinstance(move, GhostPlacement):
            return f"ghost {plate_name(move.plate)}"
        text = f"{plate_name(move.origin)}-{plate_name(move.target)}"
        return f"{text} {move.rock}" if move.rock else text

    # -- entering a move and telling people -----------------------------------------------
    def input_path(self, state: GhostoneState, move: GhostoneMove) -> tuple[Answer, ...]:
        if isinstance(move, SetupMove):
            return ((plate_name(move.pawn),), tuple(plate_name(p) for p in move.rocks))
        if isinstance(move, PawnMove):
            step_text = f"{plate_name(move.origin)}-{plate_name(move.target)}"
            return ((step_text,), (move.rock,)) if move.rock else ((step_text,),)
        if isinstance(move, GhostPlacement):
            return ((plate_name(move.plate),),)
        return ((self.format_move(state, move),),)

    def input_step(self, state: GhostoneState, answers: tuple[Answer, ...], values: list[str],
                   picks: int) -> Step:
        def by_board(plates: list[str]) -> list[str]:
            return sorted(plates, key=lambda p: (p[1], p[0]))

        if state.phase == GHOST:
            return Step("ghost", phrase(N_("Where do you put the ghost?")), tuple(
                Option(v, v) for v in by_board(values)),
                their_prompt=phrase(N_("Where will they put the ghost?")))
        if state.phase == SETUP and not answers:
            return Step("plate", phrase(N_("Where does your pawn go?")),
                        tuple(Option(v, v) for v in by_board(values)),
                        their_prompt=phrase(N_("Where will their pawn go?")))
        if state.phase == SETUP:
            return Step("rocks", phrase(N_("Choose the 3 plates around {plate} that get a "
                                           "rock"), plate=answers[0][0]),
                        tuple(Option(v, v) for v in by_board(values)), private=True, picks=3,
                        their_prompt=phrase(N_("Which 3 plates around {plate} will they give "
                                               "a rock?"), plate=answers[0][0]))
        if not answers:
            options = []
            for value in values:
                origin, target = (parse_plate(p) for p in value.split("-"))
                assert origin is not None and target is not None
                escape = state.rocks[target] == 0
                options.append(Option(value, value.replace("-", "→"), phrase(
                    N_("escapes, scoring the {n} rocks left behind"), n=state.rocks[origin])
                    if escape else None))
            return Step("step", phrase(N_("Which step does your pawn take?")), tuple(options),
                        their_prompt=phrase(N_("Which step will their pawn take?")))
        origin_name = answers[0][0].split("-")[0]
        origin = parse_plate(origin_name)
        assert origin is not None
        options = []
        for direction in values:
            to = step(origin, direction)
            where = (phrase(N_("off the board")) if to is None
                     else phrase(N_("onto {plate}"), plate=plate_name(to)))
            options.append(Option(direction, phrase(N_("rock {direction}"),
                                                    direction=compass(direction)), where))
        return Step("rock", phrase(N_("Which way does a rock from {origin} go?"),
                                   origin=origin_name), tuple(options),
                    their_prompt=phrase(N_("Which way will they send a rock from {origin}?"),
                                        origin=origin_name))

    def describe_outcome(self, state: GhostoneState) -> Phrase:
        outcome = self.outcome(state)
        if outcome is None:
            return super().describe_outcome(state)
        scores = self.scores(state)
        best = scores[outcome.winners[0]]
        if outcome.draw:
            result = phrase(N_("{winners} share the lead with {score}"),
                            winners=tuple(Seat(w) for w in outcome.winners), score=best)
        else:
            result = phrase(N_("{winner} wins with {score}"), winner=Seat(outcome.winners[0]),
                            score=best)
        if state.end == "pawns" and state.last is not None and state.last.seat is not None:
            return phrase(N_("{last} escaped last: {result}"), last=Seat(state.last.seat),
                          result=result)
        if state.end == "passes":
            return phrase(N_("Nobody could move for a whole round: {result}"), result=result)
        return phrase(N_("The same position came up a third time: {result}"), result=result)

    def move_effects(self, before: GhostoneState, move: GhostoneMove,
                     after: GhostoneState) -> tuple[Phrase, ...]:
        if isinstance(move, Roll):
            roll = after.last_roll
            if roll is None or roll.ghost_from is None or after.ghost is None:
                return ()
            moved = phrase(N_("the die shows {direction}: the ghost moves {origin} → {target}"),
                           direction=compass(move.direction),
                           origin=plate_name(roll.ghost_from),
                           target=plate_name(after.ghost))
            if roll.ghost_took:
                return moved, phrase(N_("the ghost takes a rock from {plate}"),
                                     plate=plate_name(roll.ghost_from))
            return (moved,)
        last = after.last
        if not isinstance(move, PawnMove) or last is None:
            return ()
        effects = []
        if last.escaped is not None:
            points, bonus = last.escaped
            effects.append(nphrase(N_("escaped: {n} rock + {bonus} bonus"),
                                   N_("escaped: {n} rocks + {bonus} bonus"), points,
                                   bonus=bonus))
        if move.rock is not None:
            effects.append(phrase(N_("a rock went off the board")) if last.rock_to is None
                           else phrase(N_("a rock went to {plate}"),
                                       plate=plate_name(last.rock_to)))
        passed = after.passes
        if passed and after.end is None:
            effects.append(nphrase(N_("{n} turn was passed (no move possible)"),
                                   N_("{n} turns were passed (no move possible)"), passed))
        return tuple(effects)

    # -- a position in words (games/ghostone/words.py) ---------------------------------------
    def describe_view(self, view: GhostoneView) -> Description:
        from .words import describe  # words.py reads this module's names
        return describe(view)

    def point_names(self, view: GhostoneView) -> tuple[str, ...]:
        from .words import point_names
        return point_names(view)

    def describe_point(self, view: GhostoneView, name: str) -> Phrase:
        from .words import describe_point
        return describe_point(view, name)

    # -- codec -------------------------------------------------------------------------
    def to_json(self, state: GhostoneState) -> dict[str, Any]:
        return {
            "seats": state.seats, "rocks": list(state.rocks), "pawns": list(state.pawns),
            "flipped": sorted(state.flipped), "phase": state.phase, "to_move": state.to_move,
            "setup_index": state.setup_index,
            "escaped": [[list(e) for e in seat] for seat in state.escaped],
            "ghost": state.ghost, "removed": state.removed, "passes": state.passes,
            "end": state.end, "repetition": state.repetition, "ply": state.ply,
            "last": self._last_json(state, state.last),
            "last_roll": self._last_json(state, state.last_roll),
            "history": list(state.history),
        }

    def _last_json(self, state: GhostoneState, last: LastAction | None) -> dict | None:
        if last is None:
            return None
        return {"seat": last.seat, "move": self.format_move(state, last.move),
                "escaped": list(last.escaped) if last.escaped else None,
                "rock_to": last.rock_to, "ghost_from": last.ghost_from,
                "ghost_took": last.ghost_took}

    def _last_from_json(self, last: Mapping[str, Any] | None) -> LastAction | None:
        if not last:
            return None
        return LastAction(
            seat=last["seat"], move=self.parse_move(None, last["move"]),  # type: ignore[arg-type]
            escaped=(int(last["escaped"][0]), int(last["escaped"][1])) if last["escaped"] else None,
            rock_to=last["rock_to"], ghost_from=last["ghost_from"],
            ghost_took=bool(last["ghost_took"]))

    @checked_decoder
    def from_json(self, data: Mapping[str, Any]) -> GhostoneState:
        try:
            state = GhostoneState(
                seats=int(data["seats"]), rocks=tuple(int(n) for n in data["rocks"]),
                pawns=tuple(int(p) for p in data["pawns"]),
                flipped=frozenset(int(p) for p in data["flipped"]), phase=str(data["phase"]),
                to_move=int(data["to_move"]), setup_index=int(data["setup_index"]),
                escaped=tuple(tuple((int(a), int(b)) for a, b in seat) for seat in data["escaped"]),
                ghost=None if data["ghost"] is None else int(data["ghost"]),
                removed=int(data["removed"]), passes=int(data["passes"]), end=data["end"],
                repetition=bool(data["repetition"]), ply=int(data["ply"]),
                last=self._last_from_json(data.get("last")),
                last_roll=self._last_from_json(data.get("last_roll")),
                history=tuple(str(k) for k in data.get("history", [])))
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, InvalidMoveError) as exc:
            raise InvalidStateError(f"malformed Ghostone state: {exc!r}") from None
        if state.seats not in PAWNS or len(state.rocks) != PLATES or len(state.pawns) != PLATES:
            raise InvalidStateError("a Ghostone board has 16 plates and 3 or 4 seats")
        if any(n < 0 for n in state.rocks) or any(state.rocks[p] for p in state.flipped):
            raise InvalidStateError("rock counts are negative or a flipped plate holds rocks")
        if rock_count(state) != total_rocks(state.seats):
            raise InvalidStateError(
                f"{rock_count(state)} rocks counted: expected {total_rocks(state.seats)}")
        return state

    # -- views -------------------------------------------------------------------------
    def observe(self, state: GhostoneState, viewer: int | None) -> GhostoneView:
        return GhostoneView(
            seats=state.seats, rocks=state.rocks, pawns=state.pawns, flipped=state.flipped,
            ghost=state.ghost, phase=state.phase, to_move=self.to_move(state),
            escaped=state.escaped, scores=self.scores(state), removed=state.removed,
            last=state.last, last_roll=state.last_roll, outcome=self.outcome(state),
            ply=state.ply)

    def describe(self, state: GhostoneState) -> str:
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for file in range(SIZE):
                plate = file + SIZE * rank
                if plate in state.flipped:
                    cells.append("  ## ")
                    continue
                pawn = "." if state.pawns[plate] == NO_PAWN else str(state.pawns[plate] + 1)
                ghost = "G" if state.ghost == plate else " "
                cells.append(f" {pawn}{state.rocks[plate]}{ghost} ")
            rows.append(f"{rank + 1} " + "".join(cells))
        rows.append("    " + "    ".join(FILES))
        rows.append("scores: " + ", ".join(f"seat {s + 1} {v}"
                                           for s, v in enumerate(self.scores(state))))
        if state.end is None:
            who = "the host rolls the die" if state.phase == ROLL else \
                f"seat {state.to_move + 1} to move ({state.phase})"
            rows.append(who)
        return "\n".join(rows)


def rock_count(state: GhostoneState) -> int:
    """Rocks on plates, out of the game, and still to be placed during set-up."""
    to_place = 3 * (len(SETUP_ORDER[state.seats]) - state.setup_index)
    return sum(state.rocks) + state.removed + to_place


GAME = Ghostone()


def _setup_moves(pawn: int) -> tuple[SetupMove, ...]:
    near = around(pawn)
    return tuple(SetupMove(pawn, _three(near[i], near[j], near[k]))
                 for i in range(len(near)) for j in range(i + 1, len(near))
                 for k in range(j + 1, len(near)))


SETUP_MOVES = tuple(_setup_moves(p) for p in range(PLATES))  # per pawn plate, in order
