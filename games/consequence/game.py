"""Consequence (Jonas Lidström Isegrim, 2018): rules in ../shared/rules/consequence.md.

Seat 0 is the moon player (blue tiles, makes the opening placement), seat 1 the sun player
(red tiles, first turn after the opening). The 14 tiles have fixed ids: 0-2 blue moon, 3 blue
sun, 4-6 blue dot, 7-9 red sun, 10 red moon, 11-13 red dot. Squares are 0..15, `file + 4*rank`.

Readings where the rule file is silent (a careful player's choice):
- What a player "has seen and may remember" is tracked per tile: a player knows a tile while it
  is in their hand and, once they place it, wherever it slides on the grid. When a tile goes
  into the opponent's hidden hand, its former holder can no longer tell it from the opponent's
  other tiles of that colour, so that knowledge ends there. Identical tiles in a hand are
  interchangeable; a placement uses the lowest id of the named kind.
- The colour of a tile pushed off the grid is public (everyone sees its back fall); its symbol
  is seen only by the player who receives it.
- During the forced final placements the player with tiles left moves every turn until their
  hand is empty; the restrictions on moving and pushing do not apply because only placing is
  allowed.
- The repetition house rule compares the grid (tile ids), both hands, the player to move, the
  just-moved and just-placed tiles and the phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
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
from ..grid import DIRECTIONS, Grid, compass


class ConsequenceEnding(Ending):
    COUNT = "target"  # the final count of pairs (a draw when it is equal, without a line)
    TIE_BREAK = "tie-break"  # an equal count, and one player has four in a line
    REPETITION = "repetition"  # house rule: the third occurrence of a position


SIZE = 4
SQUARES = SIZE * SIZE
FILES = "abcd"
KINDS = ("BM", "BM", "BM", "BS", "BD", "BD", "BD", "RS", "RS", "RS", "RM", "RD", "RD", "RD")
TILES = len(KINDS)
SYMBOL_OF_SEAT = ("M", "S")  # the moon player scores moons, the sun player suns
EMPTY = -1
OPENING, PLAY, FINAL = "opening", "play", "final"


GRID = Grid(SIZE)
square_name, parse_square, step, neighbours = GRID.name, GRID.parse, GRID.step, GRID.neighbours


@dataclass(frozen=True)
class Place:
    kind: str  # "BM", "RD", ...
    square: int


@dataclass(frozen=True)
class Slide:
    origin: int
    target: int


@dataclass(frozen=True)
class Push:
    kind: str
    square: int
    direction: str


ConsequenceMove = Place | Slide | Push


@dataclass(frozen=True)
class LastAction:
    """The previous action; `ejected` is the tile pushed off the grid (colour public)."""

    seat: int
    move: ConsequenceMove
    tile: int  # the placed or moved tile
    run: tuple[int, ...] = ()  # squares the pushed run occupied before the push
    ejected: int | None = None


@dataclass(frozen=True)
class ConsequenceState:
    grid: tuple[int, ...]  # tile id per square, or EMPTY
    hands: tuple[frozenset[int], frozenset[int]]
    known: tuple[frozenset[int], frozenset[int]]  # tiles each player can identify on the grid
    to_move: int
    phase: str
    just_moved: int | None  # tile the previous Move action moved (not movable now)
    just_placed: int | None  # tile the opponent just placed (not pushable off the grid)
    repetition: bool
    ply: int = 0
    last: LastAction | None = None
    history: tuple[str, ...] = ()

    def key(self) -> str:
        grid = ",".join(str(t) for t in self.grid)
        hands = "/".join(",".join(map(str, sorted(h))) for h in self.hands)
        return f"{grid}|{hands}|{self.to_move}|{self.just_moved}|{self.just_placed}|{self.phase}"


@dataclass(frozen=True)
class TileView:
    colour: str  # "B" or "R"
    symbol: str | None  # None when the viewer does not know it


@dataclass(frozen=True)
class ConsequenceView:
    """What one viewer may see. The public view (viewer None) has no symbol anywhere."""

    viewer: int | None
    grid: tuple[TileView | None, ...]
    hand_sizes: tuple[int, int]
    hand: tuple[str, ...] | None  # the viewer's own hand (kinds), None for the public
    to_move: int | None
    phase: str
    last: dict[str, Any] | None  # the last action as the viewer may know it
    outcome: Outcome | None
    scores: tuple[int, int] | None  # only once the game is over
    pairs: tuple[tuple[int, int, int], ...]  # scoring pairs (seat, square, square) at the end
    lines: tuple[tuple[int, tuple[int, ...]], ...]  # tie-break lines (seat, squares) at the end
    ply: int


class Consequence(Game[ConsequenceState, ConsequenceMove]):
    info = GameInfo(
        id="consequence",
        name=N_("Consequence"),  # N_: a title in Japanese lists
        min_seats=2,
        max_seats=2,
        options=(repetition_option(),),
        hidden_information=True,
        endings=tuple(ConsequenceEnding),
    )

    # -- set-up ------------------------------------------------------------------------
    def new(self, seats=None, options=None) -> ConsequenceState:
        self.check_seats(seats)
        opts = self.resolve_options(options)
        blue = frozenset(t for t in range(TILES) if KINDS[t][0] == "B")
        red = frozenset(t for t in range(TILES) if KINDS[t][0] == "R")
        state = ConsequenceState(
            grid=(EMPTY,) * SQUARES, hands=(blue, red), known=(blue, red), to_move=0,
            phase=OPENING, just_moved=None, just_placed=None,
            repetition=opts["repetition"] == "on")
        return replace(state, history=(state.key(),))

    def options_of(self, state: ConsequenceState) -> dict[str, str]:
        return {"repetition": "on" if state.repetition else "off"}

    def seats(self, state: ConsequenceState) -> int:
        return 2

    # -- scoring -----------------------------------------------------------------------
    def final_scores(self, state: ConsequenceState) -> tuple[tuple[int, int], list, list]:
        pairs = []
        for a in range(SQUARES):
            for b in neighbours(a):
                if a < b and state.grid[a] != EMPTY and state.grid[b] != EMPTY:
                    for seat in (0, 1):
                        symbol = SYMBOL_OF_SEAT[seat]
                        if KINDS[state.grid[a]][1] == symbol == KINDS[state.grid[b]][1]:
                            pairs.append((seat, a, b))
        scores = (sum(1 for p in pairs if p[0] == 0), sum(1 for p in pairs if p[0] == 1))
        lines = []
        for line in LINES:
            for seat in (0, 1):
                if all(state.grid[s] != EMPTY and KINDS[state.grid[s]][1] == SYMBOL_OF_SEAT[seat]
                       for s in line):
                    lines.append((seat, line))
        return scores, pairs, lines

    def _finished(self, state: ConsequenceState) -> bool:
        return state.phase == FINAL and not state.hands[state.to_move]

    def outcome(self, state: ConsequenceState) -> Outcome | None:
        if self._finished(state):
            (a, b), _, lines = self.final_scores(state)
            if a != b:
                return Outcome((0 if a > b else 1,), ending=ConsequenceEnding.COUNT)
            with_line = {seat for seat, _ in lines}
            if len(with_line) == 1:
                return Outcome((with_line.pop(),), ending=ConsequenceEnding.TIE_BREAK)
            return Outcome((0, 1), draw=True, ending=ConsequenceEnding.COUNT)
        if state.repetition and state.history.count(state.key()) >= 3:
            return Outcome((0, 1), draw=True, ending=ConsequenceEnding.REPETITION)
        return None

    def to_move(self, state: ConsequenceState) -> int | None:
        return None if self.outcome(state) else state.to_move

    def scores(self, state: ConsequenceState) -> tuple[int, int] | None:
        """Scores exist only at the final count (before it, they would leak symbols)."""
        return self.final_scores(state)[0] if self._finished(state) else None

    def ply(self, state: ConsequenceState) -> int:
        return state.ply

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self, state: ConsequenceState) -> list[ConsequenceMove]:
        if self.outcome(state) is not None:
            return []
        seat = state.to_move
        kinds = sorted({KINDS[t] for t in state.hands[seat]})
        empty = [s for s in range(SQUARES) if state.grid[s] == EMPTY]
        moves: list[ConsequenceMove] = [Place(k, s) for k in kinds for s in empty]
        if state.phase != PLAY:
            return moves
        for origin in range(SQUARES):
            tile = state.grid[origin]
            if tile == EMPTY or tile == state.just_moved:
                continue
            moves.extend(Slide(origin, n) for n in neighbours(origin) if state.grid[n] == EMPTY)
        for square in empty:
            for direction in DIRECTIONS:
                if self.push_run(state, square, direction, check=False) is not None:
                    moves.extend(Push(k, square, direction) for k in kinds)
        return moves

    def push_run(self, state: ConsequenceState, square: int, direction: str,
                 check: bool = True) -> tuple[list[int], bool] | None:
        """The run a push from `square` would slide, and whether its last tile falls off.
        None if the push is not possible; with `check`, raises with the reason instead."""
        first = step(square, direction)
        if first is None or state.grid[first] == EMPTY:
            if check:
                raise IllegalMoveError(N_("there is no tile next to {square} towards "
                                          "{direction} to push"),
                                       square=square_name(square), direction=compass(direction))
            return None
        run: list[int] = []
        here: int | None = first
        while here is not None and state.grid[here] != EMPTY:
            run.append(here)
            here = step(here, direction)
        falls = here is None
        if falls and state.grid[run[-1]] == state.just_placed:
            if check:
                raise IllegalMoveError(
                    N_("the tile on {square} was just placed by your opponent: it may slide "
                       "but not be pushed off the grid"), square=square_name(run[-1]))
            return None
        return run, falls

    def apply(self, state: ConsequenceState, move: ConsequenceMove) -> ConsequenceState:
        if self.outcome(state) is not None:
            raise GameOverError(N_("the game is over"))
        return self._apply(state, move)

    def _take(self, state: ConsequenceState, kind: str) -> int:
        matching = sorted(t for t in state.hands[state.to_move] if KINDS[t] == kind)
        if not matching:
            raise IllegalMoveError(N_("you have no {kind} tile in your hand"),
                                   kind=describe_kind(kind))
        return matching[0]

    def _apply(self, state: ConsequenceState, move: ConsequenceMove) -> ConsequenceState:
        seat, other = state.to_move, 1 - state.to_move
        grid = list(state.grid)
        hands = [set(state.hands[0]), set(state.hands[1])]
        known = [set(state.known[0]), set(state.known[1])]
        just_moved = None
        just_placed = None
        if isinstance(move, Slide):
            if state.phase != PLAY:
                raise IllegalMoveError(N_("only placing is allowed now"))
            tile = grid[move.origin]
            if tile == EMPTY:
                raise IllegalMoveError(N_("there is no tile on {square}"),
                                       square=square_name(move.origin))
            if move.target not in neighbours(move.origin):
                raise IllegalMoveError(N_("{target} is not next to {origin}"),
                                       target=square_name(move.target),
                                       origin=square_name(move.origin))
            if grid[move.target] != EMPTY:
                raise IllegalMoveError(N_("{square} is not empty"),
                                       square=square_name(move.target))
            if tile == state.just_moved:
                raise IllegalMoveError(N_("your opponent just moved that tile"))
            grid[move.target], grid[move.origin] = tile, EMPTY
            just_moved = tile
            last = LastAction(seat, move, tile)
        else:
            if grid[move.square] != EMPTY:
                raise IllegalMoveError(N_("{square} is not empty"),
                                       square=square_name(move.square))
            if isinstance(move, Push) and state.phase != PLAY:
                raise IllegalMoveError(N_("only placing is allowed now"))
            run: list[int] = []
            falls = False
            if isinstance(move, Push):
                pushed = self.push_run(state, move.square, move.direction)
                assert pushed is not None  # with check, an impossible push raises
                run, falls = pushed
            tile = self._take(state, move.kind)
            hands[seat].discard(tile)
            known[seat].add(tile)
            ejected = None
            if isinstance(move, Push):
                if falls:
                    ejected = grid[run[-1]]
                    grid[run[-1]] = EMPTY
                    hands[other].add(ejected)
                    known[other].add(ejected)
                    known[seat].discard(ejected)  # now in the opponent's hidden hand
                for square in reversed(run[:-1] if falls else run):
                    grid[step(square, move.direction)] = grid[square]  # type: ignore[index]
                grid[run[0]] = tile
            else:
                grid[move.square] = tile
            just_placed = tile
            last = LastAction(seat, move, tile, tuple(run), ejected)
        phase, to_move = state.phase, other
        if state.phase == OPENING:
            phase = PLAY
        elif state.phase == PLAY and not hands[seat]:
            phase = FINAL  # the other player now places every tile left in their hand
        elif state.phase == FINAL:
            to_move = seat
        after = ConsequenceState(
            grid=tuple(grid), hands=(frozenset(hands[0]), frozenset(hands[1])),
            known=(frozenset(known[0]), frozenset(known[1])), to_move=to_move, phase=phase,
            just_moved=just_moved, just_placed=just_placed, repetition=state.repetition,
            ply=state.ply + 1, last=last)
        return replace(after, history=state.history + (after.key(),))

    # -- notation ----------------------------------------------------------------------
    def parse_move(self, state: ConsequenceState | None, text: str) -> ConsequenceMove:
        token = text.strip()
        upper = token.upper()
        if "-" in token:
            a, _, b = token.lower().partition("-")
            origin, target = parse_square(a), parse_square(b)
            if origin is not None and target is not None:
                return Slide(origin, target)
        elif "@" in upper:
            kind, _, rest = upper.partition("@")
            square_text, _, direction = rest.partition(">")
            square = parse_square(square_text.lower())
            if len(kind) == 1 and kind in "BR":
                raise InvalidMoveError(
                    N_("say which tile: {colour}M (moon), {colour}S (sun) or {colour}D (dot)"),
                    colour=kind)
            if kind in set(KINDS) and square is not None:
                if not direction and ">" not in rest:
                    return Place(kind, square)
                if direction in DIRECTIONS:
                    return Push(kind, square, direction)
        raise InvalidMoveError(
            N_("write a tile and a square to place it (BM@b2), two squares to move a tile "
               "(b2-c3), or add a direction to place and push (RS@a1>NE)"))

    def format_move(self, state: ConsequenceState, move: ConsequenceMove) -> str:
        if isinstance(move, Slide):
            return f"{square_name(move.origin)}-{square_name(move.target)}"
        if isinstance(move, Push):
            return f"{move.kind}@{square_name(move.square)}>{move.direction}"
        return f"{move.kind}@{square_name(move.square)}"

    def public_notation(self, state: ConsequenceState, move: ConsequenceMove) -> str:
        """The notation with the symbol removed, for the channel."""
        if isinstance(move, Slide):
            return self.format_move(state, move)
        if isinstance(move, Push):
            return f"{move.kind[0]}@{square_name(move.square)}>{move.direction}"
        return f"{move.kind[0]}@{square_name(move.square)}"

    # -- entering a move and telling people -----------------------------------------------
    def input_path(self, state: ConsequenceState, move: ConsequenceMove) -> tuple[Answer, ...]:
        if isinstance(move, Slide):
            return (("move",), (square_name(move.origin),), (square_name(move.target),))
        how = move.direction if isinstance(move, Push) else "place"
        return ((move.kind,), (square_name(move.square),), (how,))

    def input_step(self, state: ConsequenceState, answers: tuple[Answer, ...],
                   values: list[str], picks: int) -> Step:
        """Every step is private: the first one names a hidden tile, and the later ones would
        tell which tile was chosen."""
        if not answers:
            hand = [KINDS[t] for t in state.hands[state.to_move]]
            options = [Option(v, phrase(N_("Place a {kind}"), kind=describe_kind(v)),
                              nphrase(N_("{n} in your hand"), N_("{n} in your hand"),
                                      hand.count(v)))
                       for v in values if v != "move"]
            if "move" in values:
                options.append(Option("move", phrase(N_("Move a tile on the grid"))))
            return Step("tile", phrase(N_("What do you do?")), tuple(options), private=True,
                        their_prompt=phrase(N_("What will they do?")))
        first = answers[0][0]
        squares = sorted(values, key=lambda s: (s[-1], s))
        if len(answers) == 1 and first == "move":
            return Step("origin", phrase(N_("Which tile do you move?")),
                        tuple(Option(s, s) for s in squares), private=True,
                        their_prompt=phrase(N_("Which tile will they move?")))
        if len(answers) == 1:
            return Step("square", phrase(N_("Where do you put the {kind}?"),
                                         kind=describe_kind(first)),
                        tuple(Option(s, s) for s in squares), private=True,
                        their_prompt=phrase(N_("Where will they put the {kind}?"),
                                            kind=describe_kind(first)))
        where = answers[1][0]
        if first == "move":
            return Step("target", phrase(N_("Move the tile on {square} to…"), square=where),
                        tuple(Option(s, phrase(N_("to {square}"), square=s)) for s in squares),
                        private=True,
                        their_prompt=phrase(N_("Where will they move the tile on {square}?"),
                                            square=where))
        return Step("how", phrase(N_("{kind} on {square}: place it, or place and push?"),
                                  kind=describe_kind(first), square=where),
                    tuple(Option(v, phrase(N_("Place")) if v == "place" else
                                 phrase(N_("Push {direction}"), direction=compass(v)))
                          for v in values),
                    private=True,
                    their_prompt=phrase(N_("{kind} on {square}: will they place it, or place "
                                           "and push?"), kind=describe_kind(first), square=where))

    def describe_outcome(self, state: ConsequenceState) -> Phrase:
        outcome = self.outcome(state)
        if outcome is None:
            return super().describe_outcome(state)
        if outcome.ending == ConsequenceEnding.REPETITION:
            return phrase(N_("Drawn: the same position came up a third time"))
        (moons, suns), _, _ = self.final_scores(state)
        if outcome.draw:
            return phrase(N_("Drawn {moons}-{suns}"), moons=moons, suns=suns)
        if outcome.ending == ConsequenceEnding.TIE_BREAK:
            return phrase(N_("{moons}-{suns}, and {winner} wins with four in a line"),
                          moons=moons, suns=suns, winner=Seat(outcome.winners[0]))
        return phrase(N_("{winner} wins the count, moons {moons} to suns {suns}"),
                      winner=Seat(outcome.winners[0]), moons=moons, suns=suns)

    def seat_title(self, seat: int) -> Phrase:
        return phrase((N_("the moon player"), N_("the sun player"))[seat])

    def move_effects(self, before: ConsequenceState, move: ConsequenceMove,
                     after: ConsequenceState) -> tuple[Phrase, ...]:
        last = after.last
        if last is None or last.ejected is None:
            return ()
        colour = phrase(N_("blue")) if KINDS[last.ejected][0] == "B" else phrase(N_("red"))
        return (phrase(N_("a {colour} tile was pushed off into {receiver}'s hand"),
                       colour=colour, receiver=Seat(1 - last.seat)),)

    def private_news(self, before: ConsequenceState,
                     after: ConsequenceState) -> tuple[int, ...]:
        """Only a tile pushed into a hand is news: every other change of a private view
        follows from the public board and what its owner already knew."""
        last = after.last
        if last is None or last.ejected is None or after.ply != before.ply + 1:
            return ()
        return (1 - last.seat,)


    def turn_card(self, state: ConsequenceState, seat: int) -> Phrase | None:
        """The seat's own hand in words (only its owner ever sees this)."""
        view = self.observe(state, seat)
        other = view.hand_sizes[1 - seat]
        if not view.hand:
            return nphrase(N_("Your hand is empty; {opponent} holds {n} tile."),
                           N_("Your hand is empty; {opponent} holds {n} tiles."), other,
                           opponent=Seat(1 - seat))
        return nphrase(N_("Your hand: {tiles}. {opponent} holds {n} tile."),
                       N_("Your hand: {tiles}. {opponent} holds {n} tiles."), other,
                       tiles=tuple(describe_kind(k) for k in view.hand), opponent=Seat(1 - seat))

    # -- a position in words (games/consequence/words.py) ---------------------------------
    # (imported when used: words.py reads this module's tables)
    def describe_view(self, view: ConsequenceView) -> Description:
        from . import words
        return words.describe(view)

    def without_hints(self, view: ConsequenceView) -> ConsequenceView:
        """A quiz asks about what this leaves out (see `Game.without_hints`)."""
        return replace(view, scores=None, pairs=(), lines=())

    def point_names(self, view: ConsequenceView) -> tuple[str, ...]:
        from . import words
        return words.point_names(view)

    def describe_point(self, view: ConsequenceView, name: str) -> Phrase:
        from . import words
        return words.describe_point(view, name)

    # -- codec -------------------------------------------------------------------------
    def to_json(self, state: ConsequenceState) -> dict[str, Any]:
        last = state.last
        return {
            "grid": list(state.grid), "hands": [sorted(h) for h in state.hands],
            "known": [sorted(k) for k in state.known], "to_move": state.to_move,
            "phase": state.phase, "just_moved": state.just_moved,
            "just_placed": state.just_placed, "repetition": state.repetition, "ply": state.ply,
            "last": None if last is None else {
                "seat": last.seat, "move": self.format_move(state, last.move), "tile": last.tile,
                "run": list(last.run), "ejected": last.ejected},
            "history": list(state.history[:-1]),
        }

    @checked_decoder
    def from_json(self, data: Mapping[str, Any]) -> ConsequenceState:
        try:
            grid = tuple(int(t) for t in data["grid"])
            hands = tuple(frozenset(int(t) for t in h) for h in data["hands"])
            known = tuple(frozenset(int(t) for t in k) for k in data["known"])
            last = data.get("last")
            state = ConsequenceState(
                grid=grid, hands=(hands[0], hands[1]), known=(known[0], known[1]),
                to_move=int(data["to_move"]), phase=str(data["phase"]),
                just_moved=data["just_moved"], just_placed=data["just_placed"],
                repetition=bool(data["repetition"]), ply=int(data["ply"]),
                last=None if not last else LastAction(
                    seat=int(last["seat"]), move=self.parse_move(None, last["move"]),
                    tile=int(last["tile"]), run=tuple(int(s) for s in last["run"]),
                    ejected=last["ejected"]))
            history = tuple(str(k) for k in data.get("history", []))
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, GameOverError) as exc:
            raise InvalidStateError(f"malformed Consequence state: {exc!r}") from None
        placed = [t for t in grid if t != EMPTY]
        everywhere = placed + sorted(hands[0]) + sorted(hands[1])
        if len(grid) != SQUARES or sorted(everywhere) != list(range(TILES)):
            raise InvalidStateError(
                f"{len(everywhere)} tiles on the grid and in hands: expected each of the 14 once")
        if state.phase not in (OPENING, PLAY, FINAL) or state.to_move not in (0, 1):
            raise InvalidStateError(
                f"phase {state.phase!r} / seat {state.to_move!r} is not possible")
        for seat in (0, 1):
            if not hands[seat] <= known[seat]:
                raise InvalidStateError(f"seat {seat + 1} does not know a tile in their own hand")
        return replace(state, history=history + (state.key(),))

    # -- views -------------------------------------------------------------------------
    def observe(self, state: ConsequenceState, viewer: int | None) -> ConsequenceView:
        outcome = self.outcome(state)
        finished = self._finished(state)
        reveal = finished
        visible = frozenset(range(TILES)) if reveal else \
            (state.known[viewer] if viewer is not None else frozenset())
        grid = tuple(None if t == EMPTY else TileView(KINDS[t][0], KINDS[t][1] if t in visible
                                                      else None) for t in state.grid)
        scores, pairs, lines = self.final_scores(state) if finished else (None, [], [])
        return ConsequenceView(
            viewer=viewer, grid=grid, hand_sizes=(len(state.hands[0]), len(state.hands[1])),
            hand=None if viewer is None else tuple(sorted(KINDS[t] for t in state.hands[viewer])),
            to_move=None if outcome else state.to_move, phase=state.phase,
            last=self._last_view(state, viewer, reveal), outcome=outcome, scores=scores,
            pairs=tuple(pairs), lines=tuple(lines), ply=state.ply)

    def _last_view(self, state: ConsequenceState, viewer: int | None,
                   reveal: bool) -> dict[str, Any] | None:
        last = state.last
        if last is None:
            return None
        mine = viewer == last.seat or reveal
        notation = (self.format_move(state, last.move) if mine
                    else self.public_notation(state, last.move))
        view: dict[str, Any] = {"seat": last.seat, "notation": notation,
                                "run": last.run}
        if isinstance(last.move, Slide):
            view.update(kind="move", origin=last.move.origin, target=last.move.target)
        else:
            view.update(kind="push" if isinstance(last.move, Push) else "place",
                        square=last.move.square,
                        direction=getattr(last.move, "direction", None))
        if last.ejected is not None:
            receiver = 1 - last.seat
            sees = reveal or viewer == receiver
            view["ejected"] = KINDS[last.ejected] if sees else KINDS[last.ejected][0]
            view["ejected_to"] = receiver
        return view

    def describe(self, state: ConsequenceState) -> str:
        view = self.observe(state, state.to_move)
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for file in range(SIZE):
                tile = view.grid[file + SIZE * rank]
                cells.append(" .. " if tile is None else f" {tile.colour}{tile.symbol or '?'} ")
            rows.append(f"{rank + 1} " + "".join(cells))
        rows.append("    " + "   ".join(FILES))
        rows.append(f"hands: moon player {view.hand_sizes[0]}, sun player {view.hand_sizes[1]}")
        if view.hand is not None and self.outcome(state) is None:
            who = "moon player" if state.to_move == 0 else "sun player"
            rows.append(f"{who} to move ({state.phase}), your hand: {' '.join(view.hand)}")
        if view.scores is not None:
            rows.append(f"final count: moons {view.scores[0]}, suns {view.scores[1]}")
        return "\n".join(rows)


_KIND_WORDS = {"BM": N_("blue moon"), "BS": N_("blue sun"), "BD": N_("blue dot"),
               "RM": N_("red moon"), "RS": N_("red sun"), "RD": N_("red dot")}


def describe_kind(kind: str) -> Phrase:
    """A tile kind in words ("blue moon")."""
    return phrase(_KIND_WORDS[kind])


def _lines() -> tuple[tuple[int, ...], ...]:
    rows = [tuple(f + SIZE * r for f in range(SIZE)) for r in range(SIZE)]
    cols = [tuple(f + SIZE * r for r in range(SIZE)) for f in range(SIZE)]
    diagonals = [tuple(i + SIZE * i for i in range(SIZE)),
                 tuple((SIZE - 1 - i) + SIZE * i for i in range(SIZE))]
    return tuple(rows + cols + diagonals)


LINES = _lines()  # the rows, columns and diagonals of four

GAME = Consequence()
