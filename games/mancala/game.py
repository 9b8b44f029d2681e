"""Progressive Mancala (Ralf Gering, 2004): rules in ../shared/rules/progressive-mancala.md.

Positions of the sowing cycle are numbered 0..n-1 for pits `a`.. and n for the goal. Seat 0
(first player) sows k -> ... -> a -> goal -> k; seat 1 sows a -> ... -> k -> goal -> a.

Readings where the rule file is silent (a careful player's choice):
- Sowing never skips the pit it started from: with 12 or more seeds (11 pits) the origin
  receives seeds again, as in the seed's long relays. If the last seed of a lap lands in the
  origin that was just emptied, it "fell in a pit that was empty".
- Bonus moves are counted per turn: a turn is 1 move plus one per empty-pit ending the
  opponent made during their previous turn (cumulative); endings during this turn are owed to
  the opponent for their next turn.
- Relay loops cannot actually happen: every lap of the cycle drops a seed in the goal, and the
  goal only grows during a move, so the (board, goal, position) seen at a pick-up never repeats
  and a move ends within (seeds on the board) laps. The guard the rule file asks for is kept
  anyway (a pit that would loop is not legal) and tested on a cycle without a goal. Were every
  non-empty pit to loop, the game would be drawn (`no-legal-move`) so that a match always ends.
- Repetition house rule (option `repetition=on|off`, default on): the position (pits, goal,
  scores, seat to move, moves left in the turn, bonus moves owed) occurring for the third time
  is a draw. A capture changes the scores for good, so only positions since the last capture
  are remembered.
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
    checked_decoder,
    nphrase,
    phrase,
    repetition_option,
)


class MancalaEnding(Ending):
    TARGET = "target"  # a player reached the target score
    REPETITION = "repetition"  # house rule: the third occurrence of a position
    NO_LEGAL_MOVE = "no-legal-move"  # the player to move has no pit to sow


SEEDS_PER_PIT = 5
TARGETS = {11: 28, 17: 43}
GOAL = "goal"


@dataclass(frozen=True)
class MancalaMove:
    pit: int  # 0-based pit index (0 = `a`)


@dataclass(frozen=True)
class LastMove:
    """What the previous move did, for pictures and messages."""

    seat: int
    pit: int
    path: tuple[int, ...]  # sowing starts then the final landing; n means the goal
    captured: int  # seeds scored (0 unless the move ended in the goal)
    ended_empty: bool  # the last seed fell in an empty pit: the opponent gets a bonus move


@dataclass(frozen=True)
class MancalaState:
    pits: tuple[int, ...]
    goal: int
    scores: tuple[int, int]
    to_move: int
    moves_left: int  # moves left in the current turn, this one included
    owed: int  # bonus moves the player to move has granted the opponent this turn
    repetition: bool
    ply: int = 0
    last: LastMove | None = None
    history: tuple[tuple, ...] = ()  # position keys since the last capture, current last

    @property
    def size(self) -> int:
        return len(self.pits)

    @property
    def target(self) -> int:
        return TARGETS[self.size]

    def key(self) -> tuple:
        return (self.pits, self.goal, self.scores, self.to_move, self.moves_left, self.owed)


@dataclass(frozen=True)
class MancalaView:
    """The whole position (nothing is hidden in this game), as the picture needs it."""

    pits: tuple[int, ...]
    goal: int
    scores: tuple[int, int]
    target: int
    to_move: int | None
    extra_moves: int  # bonus moves the player to move still has this turn
    owed: int  # bonus moves the player to move has granted the opponent so far
    last: LastMove | None
    outcome: Outcome | None
    ply: int


def pit_letter(index: int) -> str:
    return chr(ord("a") + index)


def _cycle_next(size: int, seat: int) -> tuple[int, ...]:
    """next[pos] along seat's sowing cycle (positions 0..size, size = goal)."""
    nxt = [0] * (size + 1)
    if seat == 0:  # k -> j -> ... -> a -> goal -> k
        for pos in range(1, size):
            nxt[pos] = pos - 1
        nxt[0] = size
        nxt[size] = size - 1
    else:  # a -> b -> ... -> k -> goal -> a
        for pos in range(size - 1):
            nxt[pos] = pos + 1
        nxt[size - 1] = size
        nxt[size] = 0
    return tuple(nxt)


_NEXT = {(size, seat): _cycle_next(size, seat) for size in TARGETS for seat in (0, 1)}


class RelayLoopError(IllegalMoveError):
    """Sowing from this pit would relay forever."""


def sow(pits: tuple[int, ...], goal: int, seat: int, start: int):
    """Play one move's sowing. Returns (pits, goal, captured, path, ended_empty).

    Raises RelayLoopError if the relay returns to a board and position it has seen.
    """
    size = len(pits)
    nxt = _NEXT[(size, seat)]
    board = list(pits)
    pos = start
    hand = board[pos]
    board[pos] = 0
    path = [start]
    seen: set[tuple] = set()
    while True:
        snapshot = (tuple(board), goal, pos)
        if snapshot in seen:
            raise RelayLoopError(N_("sowing from {pit} would relay forever"),
                                 pit=pit_letter(start))
        seen.add(snapshot)
        while hand:
            pos = nxt[pos]
            hand -= 1
            if pos == size:
                goal += 1
            else:
                board[pos] += 1
        path.append(pos)
        if pos == size:
            return tuple(board), 0, goal, tuple(path), False
        if board[pos] == 1:
            return tuple(board), goal, 0, tuple(path), True
        hand = board[pos]
        board[pos] = 0


_SOWABLE: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = {}
_SOWABLE_SIZE = 512  # positions remembered (a few hundred bytes each)


def sowable(pits: tuple[int, ...], goal: int, seat: int) -> tuple[int, ...]:
    """The pits `seat` may sow from: not empty, and no endless relay. Remembered for the
    last few hundred positions, since each is asked many times: the bot asks for a position's
    outcome, whose turn it is and its moves several times while it handles one move, and a
    search asks for each position's outcome and then its moves (each answer sows every
    pit)."""
    key = (pits, goal, seat)
    found = _SOWABLE.get(key)
    if found is None:
        found = tuple(pit for pit in range(len(pits)) if pits[pit] and _sow_ok(key, pit))
        if len(_SOWABLE) >= _SOWABLE_SIZE:
            _SOWABLE.clear()
        _SOWABLE[key] = found
    return found


def _sow_ok(position: tuple[tuple[int, ...], int, int], pit: int) -> bool:
    try:
        sow(*position, pit)
    except RelayLoopError:
        return False
    return True


def last_move_effects(last: LastMove | None, relay: bool = True) -> tuple[Phrase, ...]:
    """What the last sowing did, as the move's messages say it (`relay`: with the pits it
    relayed from; the alt text leaves them out). `last`: a state's or a view's."""
    if last is None:
        return ()
    effects = []
    if relay and len(last.path) > 2:
        effects.append(phrase(N_("relayed from {pits}"), pits=tuple(
            pit_letter(p) for p in last.path[1:-1])))
    if last.captured:
        effects.append(nphrase(N_("scored {n} seed from the goal"),
                               N_("scored {n} seeds from the goal"), last.captured))
    if last.ended_empty:
        effects.append(phrase(N_("ended in an empty pit: {opponent} gets a bonus move"),
                              opponent=Seat(1 - last.seat)))
    return tuple(effects)


class ProgressiveMancala(Game[MancalaState, MancalaMove]):
    info = GameInfo(
        id="progressive-mancala",
        name=N_("Progressive Mancala"),  # N_: a title in Japanese lists
        min_seats=2,
        max_seats=2,
        options=(
            OptionSpec("pits", ("11", "17"), "11",
                       N_("17 pits is the expert board (first to 43)")),
            repetition_option(),
        ),
        endings=tuple(MancalaEnding),
    )

    # -- set-up ------------------------------------------------------------------------
    def new(self, seats=None, options=None) -> MancalaState:
        self.check_seats(seats)
        opts = self.resolve_options(options)
        size = int(opts["pits"])
        state = MancalaState(
            pits=(SEEDS_PER_PIT,) * size,
            goal=0,
            scores=(0, 0),
            to_move=0,
            moves_left=1,
            owed=0,
            repetition=opts["repetition"] == "on",
        )
        return _with_history(state, ())

    def options_of(self, state: MancalaState) -> dict[str, str]:
        return {"pits": str(state.size), "repetition": "on" if state.repetition else "off"}

    def seats(self, state: MancalaState) -> int:
        return 2

    # -- rules -------------------------------------------------------------------------
    def outcome(self, state: MancalaState) -> Outcome | None:
        for seat, score in enumerate(state.scores):
            if score >= state.target:
                return Outcome((seat,), ending=MancalaEnding.TARGET)
        if state.repetition and state.history.count(state.key()) >= 3:
            return Outcome((0, 1), draw=True, ending=MancalaEnding.REPETITION)
        if not self._playable(state):
            return Outcome((0, 1), draw=True, ending=MancalaEnding.NO_LEGAL_MOVE)
        return None

    def _playable(self, state: MancalaState) -> bool:
        return bool(sowable(state.pits, state.goal, state.to_move))

    def legal_moves(self, state: MancalaState) -> list[MancalaMove]:
        if self.outcome(state) is not None:
            return []
        return [MancalaMove(pit) for pit in sowable(state.pits, state.goal, state.to_move)]

    def to_move(self, state: MancalaState) -> int | None:
        return None if self.outcome(state) else state.to_move

    def scores(self, state: MancalaState) -> tuple[int, ...]:
        return state.scores

    def ply(self, state: MancalaState) -> int:
        return state.ply

    def apply(self, state: MancalaState, move: MancalaMove) -> MancalaState:
        if self.outcome(state) is not None:
            raise GameOverError(N_("the game is over"))
        if not 0 <= move.pit < state.size:
            raise IllegalMoveError(N_("this board has pits a to {last}"),
                                   last=pit_letter(state.size - 1))
        if state.pits[move.pit] == 0:
            raise IllegalMoveError(N_("pit {pit} is empty"), pit=pit_letter(move.pit))
        seat = state.to_move
        pits, goal, captured, path, ended_empty = sow(state.pits, state.goal, seat, move.pit)
        scores = list(state.scores)
        scores[seat] += captured
        owed = state.owed + (1 if ended_empty else 0)
        moves_left = state.moves_left - 1
        to_move = seat
        if moves_left == 0:
            to_move, moves_left, owed = 1 - seat, 1 + owed, 0
        nxt = MancalaState(
            pits=pits,
            goal=goal,
            scores=(scores[0], scores[1]),
            to_move=to_move,
            moves_left=moves_left,
            owed=owed,
            repetition=state.repetition,
            ply=state.ply + 1,
            last=LastMove(seat, move.pit, path, captured, ended_empty),
        )
        return _with_history(nxt, () if captured else state.history)

    # -- notation ----------------------------------------------------------------------
    def parse_move(self, state: MancalaState, text: str) -> MancalaMove:
        token = text.strip().lower()
        size = state.size if state is not None else max(TARGETS)
        last = pit_letter(size - 1)
        if len(token) != 1 or not "a" <= token <= last:
            raise InvalidMoveError(N_("write the letter of a pit, a to {last}"), last=last)
        return MancalaMove(ord(token) - ord("a"))

    def format_move(self, state: MancalaState, move: MancalaMove) -> str:
        return pit_letter(move.pit)

    # -- entering a move and telling people -----------------------------------------------
    def input_path(self, state: MancalaState, move: MancalaMove) -> tuple[Answer, ...]:
        return ((pit_letter(move.pit),),)

    def input_step(self, state: MancalaState, answers: tuple[Answer, ...], values: list[str],
                   picks: int) -> Step:
        return Step("pit", phrase(N_("Which pit do you sow?")), tuple(
            Option(v, v, nphrase(N_("{n} seed"), N_("{n} seeds"),
                                 state.pits[ord(v) - ord("a")]))
            for v in values), their_prompt=phrase(N_("Which pit will they sow?")))

    def describe_outcome(self, state: MancalaState) -> Phrase:
        outcome = self.outcome(state)
        if outcome is None:
            return super().describe_outcome(state)
        if outcome.ending == MancalaEnding.TARGET:
            seat = outcome.winners[0]
            return phrase(N_("{winner} reached {score} seeds (first to {target})"),
                          winner=Seat(seat), score=state.scores[seat], target=state.target)
        if outcome.ending == MancalaEnding.REPETITION:
            return phrase(N_("Drawn: the same position came up a third time"))
        return phrase(N_("Drawn: no pit can be sown"))

    def seat_title(self, seat: int) -> Phrase:
        # the original's 先手 and 後手
        return phrase((NC_("mancala", "the first player"),
                       NC_("mancala", "the second player"))[seat])

    def move_effects(self, before: MancalaState, move: MancalaMove,
                     after: MancalaState) -> tuple[Phrase, ...]:
        return last_move_effects(after.last)

    def move_gist(self, before: MancalaState, move: MancalaMove,
                  after: MancalaState) -> tuple[Phrase, ...]:
        # the relay's pits trace the sowing; what decides is the score and the bonus move
        return tuple(e for e in self.move_effects(before, move, after)
                     if e.template != N_("relayed from {pits}"))

    def turn_note(self, state: MancalaState) -> Phrase | None:
        extra = state.moves_left - 1
        if extra <= 0 or self.outcome(state) is not None:
            return None
        return nphrase(N_("{n} bonus move to make after this one"),
                       N_("{n} bonus moves to make after this one"), extra)

    # -- a position in words (games/mancala/words.py) ---------------------------------------
    def describe_view(self, view: MancalaView) -> Description:
        from .words import describe  # words.py reads this module's names
        return describe(view)

    def point_names(self, view: MancalaView) -> tuple[str, ...]:
        from .words import point_names
        return point_names(view)

    def describe_point(self, view: MancalaView, name: str) -> Phrase:
        from .words import describe_point
        return describe_point(view, name)

    # -- codec -------------------------------------------------------------------------
    def to_json(self, state: MancalaState) -> dict[str, Any]:
        last = state.last
        return {
            "pits": list(state.pits),
            "goal": state.goal,
            "scores": list(state.scores),
            "to_move": state.to_move,
            "moves_left": state.moves_left,
            "owed": state.owed,
            "repetition": state.repetition,
            "ply": state.ply,
            "last": None if last is None else {
                "seat": last.seat, "pit": last.pit, "path": list(last.path),
                "captured": last.captured, "ended_empty": last.ended_empty,
            },
            # every key in history repeats the fields above; store only the distinct part
            "history": [[list(k[0]), k[1], list(k[2]), k[3], k[4], k[5]]
                        for k in state.history[:-1]],
        }

    @checked_decoder
    def from_json(self, data: Mapping[str, Any]) -> MancalaState:
        try:
            pits = tuple(_nat(v, "pit") for v in data["pits"])
            if len(pits) not in TARGETS:
                raise InvalidStateError(f"{len(pits)} pits: expected 11 or 17")
            size = len(pits)
            last = data.get("last")
            state = MancalaState(
                pits=pits,
                goal=_nat(data["goal"], "goal"),
                scores=_pair(data["scores"]),
                to_move=_choice(data["to_move"], (0, 1), "to_move"),
                moves_left=_nat(data["moves_left"], "moves_left"),
                owed=_nat(data["owed"], "owed"),
                repetition=_bool(data["repetition"], "repetition"),
                ply=_nat(data["ply"], "ply"),
                last=None if last is None else LastMove(
                    seat=_choice(last["seat"], (0, 1), "last.seat"),
                    pit=_choice(last["pit"], range(size), "last.pit"),
                    path=tuple(_choice(p, range(size + 1), "last.path") for p in last["path"]),
                    captured=_nat(last["captured"], "last.captured"),
                    ended_empty=_bool(last["ended_empty"], "last.ended_empty"),
                ),
            )
            history = tuple(
                (tuple(_nat(v, "pit") for v in k[0]), _nat(k[1], "goal"),
                 tuple(_nat(v, "score") for v in k[2]), _choice(k[3], (0, 1), "to_move"),
                 _nat(k[4], "moves_left"), _nat(k[5], "owed"))
                for k in data.get("history", [])
            )
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidStateError(f"malformed Progressive Mancala state: {exc!r}") from None
        if len(state.scores) != 2:
            raise InvalidStateError(f"scores {list(state.scores)}: expected two")
        total = sum(pits) + state.goal + sum(state.scores)
        if total != SEEDS_PER_PIT * size:
            raise InvalidStateError(
                f"{total} seeds on the board, goal and scores: expected {SEEDS_PER_PIT * size}")
        if state.moves_left < 1:
            raise InvalidStateError(f"moves_left {state.moves_left}: expected at least 1")
        if state.last is not None and (len(state.last.path) < 2
                                       or state.last.path[0] != state.last.pit):
            raise InvalidStateError(f"last move path {list(state.last.path)} is inconsistent")
        if any(len(k[0]) != size or len(k[2]) != 2 for k in history):
            raise InvalidStateError("history positions do not match the board size")
        return _with_history(state, history)

    # -- views -------------------------------------------------------------------------
    def observe(self, state: MancalaState, viewer: int | None) -> MancalaView:
        outcome = self.outcome(state)
        return MancalaView(
            pits=state.pits,
            goal=state.goal,
            scores=state.scores,
            target=state.target,
            to_move=None if outcome else state.to_move,
            extra_moves=state.moves_left - 1,
            owed=state.owed,
            last=state.last,
            outcome=outcome,
            ply=state.ply,
        )

    def describe(self, state: MancalaState) -> str:
        letters = "  ".join(f"{pit_letter(i):>2}" for i in range(state.size))
        counts = "  ".join(f"{n:>2}" for n in state.pits)
        lines = [
            f"pits   {letters}",
            f"seeds  {counts}",
            f"goal   {state.goal}",
            f"score  first {state.scores[0]} - second {state.scores[1]}  (first to {state.target})",
        ]
        if state.last is not None:
            trail = " -> ".join(GOAL if p == state.size else pit_letter(p) for p in state.last.path)
            lines.append(f"last   {trail}")
        outcome = self.outcome(state)
        if outcome is None:
            who = "first (sows k->a)" if state.to_move == 0 else "second (sows a->k)"
            extra = state.moves_left - 1
            more = f", {extra} bonus move(s) after this" if extra else ""
            lines.append(f"to move: {who}{more}")
        return "\n".join(lines)


def _with_history(state: MancalaState, previous: tuple[tuple, ...]) -> MancalaState:
    return replace(state, history=previous + (state.key(),))


def _nat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidStateError(f"{what} {value!r}: expected a non-negative integer")
    return value


def _pair(value: Any) -> tuple[int, int]:
    scores = [_nat(v, "score") for v in value]
    if len(scores) != 2:
        raise InvalidStateError(f"scores {scores}: expected two")
    return scores[0], scores[1]


def _choice(value: Any, allowed: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise InvalidStateError(f"{what} {value!r} is out of range")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidStateError(f"{what} {value!r}: expected true or false")
    return value


GAME = ProgressiveMancala()
