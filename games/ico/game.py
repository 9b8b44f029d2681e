"""ICO (two-dimensional), levels 1, 1+, 2 and 2+: rules in ../shared/rules/ico.md.

The icosahedron's numbering is canonical and given here as the rule file's tables (the tests
rebuild the solid from coordinates and check every table). Seats 0..3 play red, blue, yellow,
green. The start face is a match option; when it is `random`, the host draws it before the
match begins (`draw_options`) and the record keeps the face drawn.

Readings where the rule file is silent (a careful player's choice):
- In levels 2 and 2+, a player who completes the three edges of the active face keeps
  redoubling there until another rule applies; colour balance is checked first, as the file
  says ("otherwise the colour balance rule of level 1 applies unchanged").
- Rolling without placing (`-eN`) is allowed exactly when no placement is: all three edges hold
  your colour in level 1+, or your 30 markers are all placed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import compress
from operator import itemgetter
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
    InvalidOptionError,
    InvalidStateError,
    Option,
    OptionSpec,
    Outcome,
    Phrase,
    Seat,
    Step,
    ascii_number,
    checked_decoder,
    phrase,
)


class IcoEnding(Ending):
    PATTERN = "target"  # a player completed the level's winning pattern
    IDLE = "no-legal-move"  # house rule: two rounds without a placement


COLOURS = ("red", "blue", "yellow", "green")
MARKERS = 30
LEVELS = ("1", "1+", "2", "2+")

# face: (vertices, ((edge, face across), ...), antipode) -- the rule file's table
FACES: tuple[tuple[tuple[int, int, int], tuple[tuple[int, int], ...], int], ...] = (
    ((0, 1, 2), ((0, 4), (1, 1), (5, 5)), 17),
    ((0, 2, 3), ((1, 0), (2, 2), (9, 6)), 18),
    ((0, 3, 4), ((2, 1), (3, 3), (12, 7)), 19),
    ((0, 4, 5), ((3, 2), (4, 4), (15, 8)), 15),
    ((0, 1, 5), ((0, 0), (4, 3), (6, 9)), 16),
    ((1, 2, 6), ((5, 0), (7, 14), (10, 10)), 12),
    ((2, 3, 7), ((9, 1), (11, 10), (13, 11)), 13),
    ((3, 4, 8), ((12, 2), (14, 11), (16, 12)), 14),
    ((4, 5, 9), ((15, 3), (17, 12), (18, 13)), 10),
    ((1, 5, 10), ((6, 4), (8, 14), (19, 13)), 11),
    ((2, 6, 7), ((10, 5), (11, 6), (20, 15)), 8),
    ((3, 7, 8), ((13, 6), (14, 7), (23, 16)), 9),
    ((4, 8, 9), ((16, 7), (17, 8), (25, 17)), 5),
    ((5, 9, 10), ((18, 8), (19, 9), (27, 18)), 6),
    ((1, 6, 10), ((7, 5), (8, 9), (21, 19)), 7),
    ((6, 7, 11), ((20, 10), (22, 19), (24, 16)), 3),
    ((7, 8, 11), ((23, 11), (24, 15), (26, 17)), 4),
    ((8, 9, 11), ((25, 12), (26, 16), (28, 18)), 0),
    ((9, 10, 11), ((27, 13), (28, 17), (29, 19)), 1),
    ((6, 10, 11), ((21, 14), (22, 15), (29, 18)), 2),
)
EDGES: tuple[tuple[int, int], ...] = (
    (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 5), (1, 6), (1, 10), (2, 3),
    (2, 6), (2, 7), (3, 4), (3, 7), (3, 8), (4, 5), (4, 8), (4, 9), (5, 9), (5, 10),
    (6, 7), (6, 10), (6, 11), (7, 8), (7, 11), (8, 9), (8, 11), (9, 10), (9, 11), (10, 11),
)
BELTS: dict[tuple[int, int], tuple[int, ...]] = {
    (0, 11): (7, 8, 10, 11, 13, 14, 16, 17, 18, 19),
    (1, 8): (2, 3, 9, 11, 15, 18, 20, 22, 27, 29),
    (2, 9): (3, 4, 6, 8, 12, 14, 21, 22, 23, 24),
    (3, 10): (0, 4, 5, 10, 15, 17, 20, 24, 25, 26),
    (4, 6): (0, 1, 6, 9, 13, 19, 23, 26, 27, 28),
    (5, 7): (1, 2, 5, 7, 12, 16, 21, 25, 28, 29),
}
BIG_TRIANGLES: tuple[tuple[int, ...], ...] = (
    (2, 4, 6, 7, 9, 10), (0, 3, 5, 11, 12, 13), (1, 4, 9, 14, 15, 16), (0, 2, 6, 12, 17, 18),
    (1, 3, 5, 8, 15, 19), (0, 1, 8, 11, 20, 21), (1, 2, 10, 14, 20, 23),
    (2, 3, 13, 17, 23, 25), (3, 4, 16, 19, 25, 27), (0, 4, 7, 18, 21, 27),
    (5, 7, 9, 13, 22, 24), (9, 11, 12, 16, 24, 26), (12, 14, 15, 18, 26, 28),
    (6, 8, 15, 17, 28, 29), (5, 6, 10, 19, 22, 29), (10, 11, 21, 23, 26, 29),
    (13, 14, 20, 22, 25, 28), (16, 17, 23, 24, 27, 29), (18, 19, 21, 22, 25, 26),
    (7, 8, 20, 24, 27, 28),
)
def _vertex_coordinates() -> tuple[tuple[float, float, float], ...]:
    """Unit-sphere positions: vertex 0 the north pole, 1-5 the upper ring anticlockwise from
    angle 0, 6-10 the lower ring from 36 degrees, 11 the south pole (for pictures)."""
    z, r = 1 / math.sqrt(5), 2 / math.sqrt(5)
    ring = [(r * math.cos(math.radians(a)), r * math.sin(math.radians(a)))
            for a in range(0, 360, 72)]
    lower = [(r * math.cos(math.radians(a)), r * math.sin(math.radians(a)))
             for a in range(36, 396, 72)]
    return ((0.0, 0.0, 1.0), *((x, y, z) for x, y in ring), *((x, y, -z) for x, y in lower),
            (0.0, 0.0, -1.0))


VERTICES = _vertex_coordinates()
FACE_EDGES = tuple(tuple(e for e, _ in face[1]) for face in FACES)
ACROSS = {(f, e): other for f, face in enumerate(FACES) for e, other in face[1]}
ANTIPODE = tuple(face[2] for face in FACES)


def _face_numbers() -> tuple[int, ...]:
    """The number each face carries on the map, 1-10, shared by antipodal faces (the original
    marks the pairs with shared colours)."""
    numbers, next_number = [0] * len(FACES), 1
    for face in range(len(FACES)):
        if not numbers[face]:
            numbers[face] = numbers[ANTIPODE[face]] = next_number
            next_number += 1
    return tuple(numbers)


# What players read faces by: texts name a face by the number the map draws on it ("face 6"),
# never by its index in the tables (f5), which the map does not show. A face's number is
# shared with its antipode, but never with a neighbour or a neighbour's neighbour, so "the
# black face rolls onto face 6" names one face next to the black one. The indexes f0-f19
# stay the notation of the start option and of the rule book's tables.
FACE_NUMBERS = _face_numbers()


def _mask(edges) -> int:
    return sum(1 << e for e in edges)


_EDGE_BITS = tuple(1 << e for e in range(len(EDGES)))
_FACE_MASKS = tuple(_mask(edges) for edges in FACE_EDGES)
_BELT_MASKS = tuple(_mask(belt) for belt in BELTS.values())
_TRIANGLE_MASKS = tuple(_mask(outer) for outer in BIG_TRIANGLES)
_last_winning: tuple[Any, ...] = ((), -1, "", False, ((), ()))
_last_choices: tuple[Any, ...] = (None, -1, ((), False))


@dataclass(frozen=True)
class IcoMove:
    edge: int
    place: bool  # False: roll over the edge without placing


@dataclass(frozen=True)
class IcoState:
    seats: int
    level: str
    antipodal: bool  # level 2+ option: a big triangle and its antipodal big triangle
    markers: tuple[tuple[int, ...], ...]  # per edge: markers per seat
    active: int
    to_move: int
    idle: int  # consecutive turns without a placement (the house rule's draw)
    start: int = 0  # the first active face, kept for the record
    ply: int = 0
    last: tuple[int, int, bool] | None = None  # (seat, edge, placed)
    previous_active: int | None = None

    def placed(self, seat: int) -> int:
        return sum(map(itemgetter(seat), self.markers))


@dataclass(frozen=True)
class IcoView:
    seats: int
    level: str
    markers: tuple[tuple[int, ...], ...]
    active: int
    to_move: int | None
    legal_edges: tuple[int, ...]
    last: tuple[int, int, bool] | None
    previous_active: int | None
    outcome: Outcome | None
    winning_edges: tuple[int, ...]
    winning_faces: tuple[int, ...]
    left: tuple[int, ...]  # markers each seat has left
    ply: int
    antipodal: bool = False  # level 2+: the big triangle's antipodal one is needed too


class Ico(Game[IcoState, IcoMove]):
    info = GameInfo(
        id="ico",
        name=N_("ICO"),  # N_: a title in Japanese lists
        min_seats=2,
        max_seats=4,
        options=(
            OptionSpec("level", LEVELS, "1", N_("1, 1+ (face and antipode), 2 (belt), 2+ (big "
                                                "triangle)")),
            OptionSpec("start", ("random",) + tuple(f"f{i}" for i in range(20)), "random",
                       N_("the first active face (random: drawn by the host)")),
            OptionSpec("antipodal", ("no", "yes"), "no",
                       N_("level 2+: a big triangle and the one around the antipodal face")),
        ),
        endings=tuple(IcoEnding),
    )

    def check_options(self, options: Mapping[str, str]) -> None:
        if options.get("antipodal") == "yes" and options.get("level") != "2+":
            raise InvalidOptionError(N_("antipodal=yes goes with level=2+ only"))

    def draw_options(self, options: Mapping[str, str] | None, rng: Any) -> dict[str, str]:
        """The host's part of the set-up: a random start face is drawn once and recorded."""
        resolved = self.resolve_options(options)
        if resolved["start"] == "random":
            resolved["start"] = f"f{rng.randrange(len(FACES))}"
        return resolved

    # -- set-up ------------------------------------------------------------------------
    def new(self, seats=None, options=None) -> IcoState:
        seats = self.check_seats(seats)
        opts = self.resolve_options(options)
        if opts["start"] == "random":
            raise InvalidOptionError(
                N_("start=random: the host draws the start face; give start=f0..f19"))
        return IcoState(seats=seats, level=opts["level"], antipodal=opts["antipodal"] == "yes",
                        markers=((0,) * seats,) * len(EDGES), active=int(opts["start"][1:]),
                        to_move=0, idle=0, start=int(opts["start"][1:]))

    def options_of(self, state: IcoState) -> dict[str, str]:
        options = {"level": state.level, "start": f"f{state.start}"}
        if state.level == "2+":
            options["antipodal"] = "yes" if state.antipodal else "no"
        return options

    def seats(self, state: IcoState) -> int:
        return state.seats

    # -- rules -------------------------------------------------------------------------
    def _has(self, state: IcoState, edge: int, seat: int) -> bool:
        return state.markers[edge][seat] > 0

    def _choices(self, state: IcoState, seat: int) -> tuple[list[int], bool]:
        """The edges the mover may use, and whether they place on them (else roll only).
        The last answer is kept: a state is asked for its moves, then for them again when
        one of them is applied."""
        global _last_choices
        if _last_choices[0] is state and _last_choices[1] == seat:
            edges, place = _last_choices[2]
            return list(edges), place
        edges, place = self._work_out_choices(state, seat)
        _last_choices = (state, seat, (tuple(edges), place))
        return edges, place

    def _work_out_choices(self, state: IcoState, seat: int) -> tuple[list[int], bool]:
        edges = FACE_EDGES[state.active]
        if state.placed(seat) >= MARKERS:
            return list(edges), False
        without = [e for e in edges if not self._has(state, e, seat)]
        if without:
            pool = without
        elif state.level in ("2", "2+"):
            pool = list(edges)  # redoubling
        else:
            return list(edges), False  # level 1+: all three hold your colour
        fewest = min(sum(state.markers[e]) for e in pool)
        return [e for e in pool if sum(state.markers[e]) == fewest], True

    def winning(self, state: IcoState, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(edges, faces) of a completed pattern of `seat`, or empty tuples.

        The seat's edges are one bit mask and every pattern a precomputed mask, so a check
        is a few integer operations (playouts call this on every move)."""
        global _last_winning
        cached = _last_winning
        if (cached[0] is state.markers and cached[1] == seat and cached[2] == state.level
                and cached[3] == state.antipodal):
            return cached[4]
        result = self._winning(state, seat)
        # outcome() is asked several times of one state: keep the last answer (the cache
        # holds the markers tuple itself, so an identity match is the same position)
        _last_winning = (state.markers, seat, state.level, state.antipodal, result)
        return result

    def _winning(self, state: IcoState, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        has = sum(compress(_EDGE_BITS, map(itemgetter(seat), state.markers)))
        if state.level == "1":
            for face, mask in enumerate(_FACE_MASKS):
                if has & mask == mask:
                    return FACE_EDGES[face], (face,)
        elif state.level == "1+":
            for face, mask in enumerate(_FACE_MASKS):
                both = mask | _FACE_MASKS[ANTIPODE[face]]
                if has & both == both:
                    return FACE_EDGES[face] + FACE_EDGES[ANTIPODE[face]], (face, ANTIPODE[face])
        elif state.level == "2":
            for belt, mask in zip(BELTS.values(), _BELT_MASKS, strict=True):
                if has & mask == mask:
                    return belt, ()
        elif state.level == "2+":
            for face, mask in enumerate(_TRIANGLE_MASKS):
                if has & mask != mask:
                    continue
                if not state.antipodal:
                    return BIG_TRIANGLES[face], (face,)
                other = _TRIANGLE_MASKS[ANTIPODE[face]]
                if has & other == other:
                    return BIG_TRIANGLES[face] + BIG_TRIANGLES[ANTIPODE[face]], \
                        (face, ANTIPODE[face])
        return (), ()

    def outcome(self, state: IcoState) -> Outcome | None:
        if state.last is not None and state.last[2]:
            seat = state.last[0]
            if self.winning(state, seat)[0]:
                return Outcome((seat,), ending=IcoEnding.PATTERN)
        if state.idle >= 2 * state.seats:
            return Outcome(tuple(range(state.seats)), draw=True, ending=IcoEnding.IDLE)
        return None

    def to_move(self, state: IcoState) -> int | None:
        return None if self.outcome(state) else state.to_move

    def scores(self, state: IcoState) -> None:
        return None

    def ply(self, state: IcoState) -> int:
        return state.ply

    def legal_moves(self, state: IcoState) -> list[IcoMove]:
        if self.outcome(state) is not None:
            return []
        edges, place = self._choices(state, state.to_move)
        return [IcoMove(e, place) for e in edges]

    def apply(self, state: IcoState, move: IcoMove) -> IcoState:
        if self.outcome(state) is not None:
            raise GameOverError(N_("the game is over"))
        edges, place = self._choices(state, state.to_move)
        if move.edge not in FACE_EDGES[state.active]:
            raise IllegalMoveError(N_("e{edge} is not an edge of the black face: use {edges}"),
                                   edge=move.edge,
                                   edges=tuple(self._notation(e, place) for e in edges))
        if move.place != place:
            if place:
                raise IllegalMoveError(N_("you must place a marker: write it without '-'"))
            raise IllegalMoveError(N_("you cannot place now: roll over an edge with '-eN'"))
        if move.edge not in edges:
            raise IllegalMoveError(N_("the balance rules allow only {edges}"),
                                   edges=tuple(self._notation(e, place) for e in edges))
        markers = list(state.markers)
        if place:
            counts = list(markers[move.edge])
            counts[state.to_move] += 1
            markers[move.edge] = tuple(counts)
        # the constructor, not dataclasses.replace: a playout applies a move on every ply
        return IcoState(seats=state.seats, level=state.level, antipodal=state.antipodal,
                        markers=tuple(markers), active=ACROSS[(state.active, move.edge)],
                        to_move=(state.to_move + 1) % state.seats,
                        idle=0 if place else state.idle + 1, start=state.start,
                        ply=state.ply + 1, last=(state.to_move, move.edge, place),
                        previous_active=state.active)

    def can_skip(self, state: IcoState) -> bool:
        return state.seats > 2 and self.outcome(state) is None

    def skip(self, state: IcoState) -> IcoState:
        """A timed-out seat loses its turn: the next seat plays on the same active face (an
        idle turn for the draw house rule)."""
        if not self.can_skip(state):
            raise IllegalMoveError(N_("a turn can be skipped only in a running match of 3-4 "
                                      "seats"))
        return replace(state, to_move=(state.to_move + 1) % state.seats, idle=state.idle + 1,
                       ply=state.ply + 1)

    # -- notation ----------------------------------------------------------------------
    def parse_move(self, state: IcoState, text: str) -> IcoMove:
        token = text.strip().lower()
        roll = token.startswith("-")
        body = token[1:] if roll else token
        number = ascii_number(body[1:], 2) if body.startswith("e") else None
        if number is None or number >= len(EDGES):
            raise InvalidMoveError(N_("write an edge such as e12 (place and roll), or -e12 "
                                      "(roll without placing); edges are e0 to e29"))
        return IcoMove(number, not roll)

    @staticmethod
    def _notation(edge: int, place: bool) -> str:
        return f"{'' if place else '-'}e{edge}"

    def format_move(self, state: IcoState, move: IcoMove) -> str:
        return f"{'' if move.place else '-'}e{move.edge}"

    # -- entering a move and telling people -----------------------------------------------
    def input_path(self, state: IcoState, move: IcoMove) -> tuple[Answer, ...]:
        return ((self.format_move(state, move),),)

    def input_step(self, state: IcoState, answers: tuple[Answer, ...], values: list[str],
                   picks: int) -> Step:
        options = []
        for value in values:
            move = self.parse_move(state, value)
            across = ACROSS[(state.active, move.edge)]
            label = value if move.place else phrase(N_("roll over {edge}"), edge=value[1:])
            options.append(Option(value, label, phrase(N_("the black face rolls onto face {face}"),
                                                       face=FACE_NUMBERS[across])))
        return Step("edge", phrase(N_("Which edge?")), tuple(options),
                    their_prompt=phrase(N_("Which edge will they take?")))

    def describe_outcome(self, state: IcoState) -> Phrase:
        outcome = self.outcome(state)
        if outcome is None:
            return super().describe_outcome(state)
        if outcome.draw:
            return phrase(N_("Drawn: {n} turns in a row without a marker placed"),
                          n=state.idle)
        winner = Seat(outcome.winners[0])
        if state.level == "1":
            return phrase(N_("{winner} completed a face"), winner=winner)
        if state.level == "1+":
            return phrase(N_("{winner} completed a face and its opposite face"), winner=winner)
        if state.level == "2":
            return phrase(N_("{winner} completed a belt"), winner=winner)
        if state.antipodal:
            return phrase(N_("{winner} completed a big triangle and its opposite"),
                          winner=winner)
        return phrase(N_("{winner} completed a big triangle"), winner=winner)

    def move_effects(self, before: IcoState, move: IcoMove,
                     after: IcoState) -> tuple[Phrase, ...]:
        return (phrase(N_("the black face rolls from face {origin} onto face {face}"),
                       origin=FACE_NUMBERS[before.active], face=FACE_NUMBERS[after.active]),)


    # -- a position in words (games/ico/words.py) -----------------------------------------
    # (imported when used: words.py reads this module's tables)
    def describe_view(self, view: IcoView) -> Description:
        from . import words
        return words.describe(view)

    def without_hints(self, view: IcoView) -> IcoView:
        """A quiz asks about what this leaves out (see `Game.without_hints`)."""
        return replace(view, legal_edges=())

    def point_names(self, view: IcoView) -> tuple[str, ...]:
        from . import words
        return words.point_names(view)

    def describe_point(self, view: IcoView, name: str) -> Phrase:
        from . import words
        return words.describe_point(view, name)

    # -- codec -------------------------------------------------------------------------
    def to_json(self, state: IcoState) -> dict[str, Any]:
        return {"seats": state.seats, "level": state.level, "antipodal": state.antipodal,
                "markers": [list(m) for m in state.markers], "active": state.active,
                "to_move": state.to_move, "idle": state.idle, "start": state.start,
                "ply": state.ply,
                "last": list(state.last) if state.last else None,
                "previous_active": state.previous_active}

    @checked_decoder
    def from_json(self, data: Mapping[str, Any]) -> IcoState:
        try:
            last = data.get("last")
            state = IcoState(
                seats=int(data["seats"]), level=str(data["level"]),
                antipodal=bool(data["antipodal"]),
                markers=tuple(tuple(int(n) for n in m) for m in data["markers"]),
                active=int(data["active"]), to_move=int(data["to_move"]), idle=int(data["idle"]),
                start=int(data["start"]), ply=int(data["ply"]),
                last=None if not last else (int(last[0]), int(last[1]), bool(last[2])),
                previous_active=data.get("previous_active"))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidStateError(f"malformed ICO state: {exc!r}") from None
        if state.level not in LEVELS or not 2 <= state.seats <= 4:
            raise InvalidStateError(f"level {state.level!r} / {state.seats} seats is not possible")
        if len(state.markers) != len(EDGES) or any(len(m) != state.seats for m in state.markers):
            raise InvalidStateError("markers must list every edge for every seat")
        if any(n < 0 for m in state.markers for n in m):
            raise InvalidStateError("negative marker counts")
        single = state.level in ("1", "1+")
        if single and any(n > 1 for m in state.markers for n in m):
            raise InvalidStateError("levels 1 and 1+ allow one marker per colour on an edge")
        if any(state.placed(s) > MARKERS for s in range(state.seats)):
            raise InvalidStateError("a colour has more than 30 markers on the solid")
        if not 0 <= state.active < len(FACES) or not 0 <= state.to_move < state.seats:
            raise InvalidStateError("active face or seat out of range")
        return state

    # -- views -------------------------------------------------------------------------
    def observe(self, state: IcoState, viewer: int | None) -> IcoView:
        outcome = self.outcome(state)
        edges, faces = (self.winning(state, outcome.winners[0])
                        if outcome and not outcome.draw else ((), ()))
        legal = () if outcome else tuple(self._choices(state, state.to_move)[0])
        return IcoView(
            seats=state.seats, level=state.level, markers=state.markers, active=state.active,
            to_move=None if outcome else state.to_move, legal_edges=legal, last=state.last,
            previous_active=state.previous_active, outcome=outcome, winning_edges=edges,
            winning_faces=faces,
            left=tuple(MARKERS - state.placed(s) for s in range(state.seats)), ply=state.ply,
            antipodal=state.antipodal)

    def describe(self, state: IcoState) -> str:
        rows = [f"level {state.level}, active face f{state.active} "
                f"(edges {', '.join(f'e{e}' for e in FACE_EDGES[state.active])})"]
        for edge in FACE_EDGES[state.active]:
            on = [COLOURS[s] for s in range(state.seats) for _ in range(state.markers[edge][s])]
            rows.append(f"  e{edge} -> f{ACROSS[(state.active, edge)]}: {', '.join(on) or 'empty'}")
        rows.append("markers left: " + ", ".join(
            f"{COLOURS[s]} {MARKERS - state.placed(s)}" for s in range(state.seats)))
        if self.outcome(state) is None:
            rows.append(f"{COLOURS[state.to_move]} (seat {state.to_move + 1}) to move")
        return "\n".join(rows)


GAME = Ico()
