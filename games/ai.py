"""A computer opponent for every game: information-set Monte Carlo tree search (UCT).

What the AI may know is fixed by construction. The search never receives the true state of a
game with hidden information: `choose_move` turns it into `observe(state, seat)` and hands
the search a *sampler* built from that observation alone, which deals the tiles the seat cannot
see at random, consistently with what it can (a determinization). Every iteration samples a new
deal and walks one shared tree whose edges are moves (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012); a move's bandit statistics count only the iterations where it was available.
Games without hidden information (`GameInfo.hidden_information` false) hide nothing from any
seat, so their sampler returns the state itself (which also carries the public history that
the repetition rule needs).

- Chance (Ghostone's die): a chance state is not a decision; the search draws its outcome
  from the die's distribution (uniform over `legal_moves`) and follows that branch.
- Three or four players: every node keeps a reward per seat and the seat to move picks the
  child best for itself (max^n).
- Playouts are random (with a light per-game policy) and are cut after a per-game number of
  plies, where an evaluation gives a reward per seat; a finished game gives 1 to the winner,
  shared on a draw.
- Levels are iteration budgets with a wall-clock cap. Given a seed and a budget the choice is
  deterministic, as long as the cap does not stop the search first (`time_cap=None` disables
  it).

Standard library only. For the bot (run it in a process pool, it is CPU-bound):

    choose_move_job(game_id, state_json, seat, level="normal", seed=0) -> notation
    random_legal_move(game_id, state_json, seed=0) -> notation   (a cheap fallback)

Both raise AiError (a GameError) when the game is over, a die roll is due or `seat` is not
to move. A search takes at most its level's cap (easy 0.2 s, normal 1.8 s, hard 5 s) plus
a few milliseconds; a single legal move is returned at once.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import consequence as _consequence
from . import get_game
from . import pastoral as _pastoral
from .base import Game, GameError

Rewards = list[float]
Sampler = Callable[[random.Random], Any]


@dataclass(frozen=True)
class Level:
    name: str
    iterations: int
    time_cap: float  # seconds of search at most


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 80, 0.2),
    "normal": Level("normal", 800, 1.8),
    "hard": Level("hard", 2400, 5.0),
}


class AiError(GameError):
    """The AI cannot move here: the game is over, or the host must roll the die first."""


# -- per-game knowledge: how deep a playout runs, and how a cut position is valued ---------
@dataclass(frozen=True)
class Tuning:
    playout_depth: int  # plies of random play before the evaluation cuts a playout
    evaluate: Callable[[Any, int], Rewards] | None = None  # (state, seats) -> reward per seat
    exploration: float = 0.7
    # the same list as `game.legal_moves(state)`, faster (tests check they agree)
    legal: Callable[[Any, Any], list] | None = None
    # a uniformly random legal move, or None at the end (for playouts)
    random_move: Callable[[Any, Any, random.Random], Any] | None = None


def _share(values: list[float], scale: float) -> Rewards:
    """Rewards from per-seat figures: a soft-max with `scale` figures per e-fold."""
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def _mancala_eval(state: Any, seats: int) -> Rewards:
    a, b = state.scores
    return _share([a, b], max(2.0, state.target / 8))


def _pastoral_eval(state: Any, seats: int) -> Rewards:
    """Stones a player can still pay with (a pick-up failure loses), and claimed cells."""
    values = []
    for seat in (0, 1):
        cells = sum(1 for cell in _pastoral.CORRAL if state.owner[cell] == seat)
        values.append(state.stock[seat] + state.held[seat] + 2.0 * cells)
    return _share(values, 6.0)


_CONSEQUENCE_PAIRS = tuple((a, b) for a in range(_consequence.SQUARES)
                           for b in _consequence.neighbours(a) if a < b)
_CONSEQUENCE_SYMBOL = tuple(kind[1] for kind in _consequence.KINDS)


def _consequence_eval(state: Any, seats: int) -> Rewards:
    """The count so far: pairs of neighbouring moons (the moon player's) and suns."""
    grid, symbol = state.grid, _CONSEQUENCE_SYMBOL
    moons = suns = 0
    for a, b in _CONSEQUENCE_PAIRS:
        x, y = grid[a], grid[b]
        if x >= 0 and y >= 0 and symbol[x] == symbol[y]:
            if symbol[x] == "M":
                moons += 1
            elif symbol[x] == "S":
                suns += 1
    return _share([float(moons), float(suns)], 1.5)


_STEP8 = tuple(tuple(_consequence.step(sq, d) for d in _consequence.DIRECTIONS)
               for sq in range(_consequence.SQUARES))
_DIRECTION_NAMES = tuple(_consequence.DIRECTIONS)


def _consequence_candidate(game: Any, state: Any, index: int, kinds: list[str],
                           empty: list[int], occupied: list[int]) -> Any:
    """Candidate `index` of Consequence's move space (placements, then a slide of each tile
    in each of 8 directions, then a placement pushing in each of 8 directions), or None when
    the rules refuse it. Each legal move is exactly one candidate (tests check)."""
    c = _consequence
    places = len(kinds) * len(empty)
    if index < places:
        return c.Place(kinds[index // len(empty)], empty[index % len(empty)])
    if state.phase != c.PLAY:
        return None
    index -= places
    slides = len(occupied) * 8
    if index < slides:
        origin = occupied[index // 8]
        target = _STEP8[origin][index % 8]
        if (target is None or state.grid[target] != c.EMPTY
                or state.grid[origin] == state.just_moved):
            return None
        return c.Slide(origin, target)
    index -= slides
    kind, rest = kinds[index // (len(empty) * 8)], index % (len(empty) * 8)
    square, direction = empty[rest // 8], _DIRECTION_NAMES[rest % 8]
    if game._push_run(state, square, direction, check=False) is None:
        return None
    return c.Push(kind, square, direction)


def _consequence_space(state: Any) -> tuple[list[str], list[int], list[int], int]:
    c = _consequence
    kinds = sorted({c.KINDS[t] for t in state.hands[state.to_move]})
    empty = [s for s in range(c.SQUARES) if state.grid[s] == c.EMPTY]
    occupied = [s for s in range(c.SQUARES) if state.grid[s] != c.EMPTY]
    size = len(kinds) * len(empty)
    if state.phase == c.PLAY:
        size += len(occupied) * 8 + len(kinds) * len(empty) * 8
    return kinds, empty, occupied, size


def _consequence_random(game: Any, state: Any, rng: random.Random) -> Any:
    """A uniformly random legal move (None at the end): candidates drawn until one is legal
    (placements always are, and one is always possible while the game runs)."""
    if game.outcome(state) is not None:
        return None
    kinds, empty, occupied, size = _consequence_space(state)
    for _ in range(500):
        move = _consequence_candidate(game, state, rng.randrange(size), kinds, empty, occupied)
        if move is not None:
            return move
    moves = game.legal_moves(state)
    return moves[rng.randrange(len(moves))] if moves else None


def _ghostone_eval(state: Any, seats: int) -> Rewards:
    scores = [sum(p + b for p, b in escapes) for escapes in state.escaped]
    return _share([float(s) for s in scores], 2.5)


_PASTORAL_MOVES = tuple(tuple(_pastoral.PastoralMove(cell, n)
                              for n in range(_pastoral.MAX_STACK + 1)) for cell in range(64))
_PASTORAL_PLAYABLE = tuple(cell for cell in range(64) if cell not in _pastoral.HOLDING)


def _pastoral_candidates(state: Any) -> list:
    """Pastoral Square's moves that pass the cheap refusals (not a holding cell, not the
    opponent's cell, no more stones than held or than a cell takes, a claim of an empty
    corral cell with exactly its value); the rest is asked of the rules (`_pastoral_ok`)."""
    p = _pastoral
    seat = state.to_move
    held = state.held[seat]
    owner, count = state.owner, state.count
    moves: list = [p.SAVE]
    empty, corral, value = p.EMPTY, p.CORRAL, p.VALUE
    for cell in _PASTORAL_PLAYABLE:
        who = owner[cell]
        if who != empty and who != seat:
            continue
        top = min(held, p.MAX_STACK - count[cell])
        if who == empty and cell in corral:
            if value[cell] <= top:
                moves.append(_PASTORAL_MOVES[cell][value[cell]])
        elif top > 0:
            moves.extend(_PASTORAL_MOVES[cell][1:top + 1])
    return moves


def _pastoral_ok(game: Any, state: Any, move: Any) -> bool:
    p = _pastoral
    if move.cell is None:
        return True
    if move.cell in p.CORRAL:
        return game._refusal(state, move) is None
    x = state.count[move.cell] + move.stones
    return bool(game._fired(state, state.to_move, move.cell, x)
                or game._is_reach(state, state.to_move, move.cell, x))


def _pastoral_legal(game: Any, state: Any) -> list:
    """Pastoral Square's `legal_moves`, without building a refusal for each of the 320
    candidate moves."""
    if game.outcome(state) is not None:
        return []
    return [m for m in _pastoral_candidates(state) if _pastoral_ok(game, state, m)]


def _pastoral_random(game: Any, state: Any, rng: random.Random) -> Any:
    """A uniformly random legal move (or None when the game is over), drawing candidates
    without replacement until the rules accept one."""
    if game.outcome(state) is not None:
        return None
    moves = _pastoral_candidates(state)
    while moves:
        i = rng.randrange(len(moves))
        move = moves[i]
        if _pastoral_ok(game, state, move):
            return move
        moves[i] = moves[-1]
        moves.pop()
    return None


TUNING: dict[str, Tuning] = {
    "progressive-mancala": Tuning(24, _mancala_eval),
    "ghostone": Tuning(40, _ghostone_eval),
    "ico": Tuning(400),
    "pastoral-square": Tuning(16, _pastoral_eval, legal=_pastoral_legal,
                                               random_move=_pastoral_random),
    "consequence": Tuning(400, random_move=_consequence_random),
}
DEFAULT_TUNING = Tuning(400)


# -- the tree ------------------------------------------------------------------------------
class Node:
    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int | None, seats: int):
        self.mover = mover  # the seat whose move led here (None: a chance outcome)
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0  # iterations in which the move leading here was available
        self.reward = [0.0] * seats


def outcome_rewards(game: Game, state: Any, seats: int) -> Rewards:
    outcome = game.outcome(state)
    rewards = [0.0] * seats
    if outcome is None:  # a playout that stopped on no legal move without an outcome
        return [1.0 / seats] * seats
    for seat in outcome.winners:
        rewards[seat] = 1.0 / len(outcome.winners)
    return rewards


class Search:
    """One decision: `run()` then `best_move()`."""

    def __init__(self, game: Game, sampler: Sampler, seats: int, seed: int,
                 tuning: Tuning | None = None):
        self.game = game
        self.sampler = sampler
        self.seats = seats
        self.rng = random.Random(seed)
        self.tuning = tuning or TUNING.get(game.id, DEFAULT_TUNING)
        self.root = Node(None, seats)
        self.iterations = 0
        fast = self.tuning.legal
        self.legal_moves: Callable[[Any], list] = (
            game.legal_moves if fast is None else (lambda state: fast(game, state)))

    def run(self, iterations: int, time_cap: float | None = None) -> None:
        deadline = None if time_cap is None else time.perf_counter() + time_cap
        for i in range(iterations):
            if deadline is not None and i % 8 == 0 and i and time.perf_counter() > deadline:
                break
            self.iterate()

    def iterate(self) -> None:
        game, rng, seats = self.game, self.rng, self.seats
        c = self.tuning.exploration
        legal_moves = self.legal_moves
        state = self.sampler(rng)
        node = self.root
        path = [node]
        while True:
            if game.is_chance(state):
                move = rng.choice(game.legal_moves(state))
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = Node(None, seats)
                state = game.apply(state, move)
                node = child
                path.append(node)
                continue
            legal = legal_moves(state)
            if not legal:
                rewards = outcome_rewards(game, state, seats)
                break
            mover = state.to_move  # every game's state names the seat to move
            children = node.children
            untried = []
            for move in legal:
                child = children.get(move)
                if child is None:
                    untried.append(move)
                else:
                    child.avail += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = children[move] = Node(mover, seats)
                child.avail = 1
                state = game.apply(state, move)
                path.append(child)
                rewards = self.playout(state)
                break
            best, best_value = None, -1.0
            for move in legal:
                child = children[move]
                value = (child.reward[mover] / child.visits
                         + c * math.sqrt(math.log(child.avail) / child.visits))
                if value > best_value:
                    best, best_value = move, value
            node = children[best]
            state = game.apply(state, best)
            path.append(node)
        for n in path:
            n.visits += 1
            r = n.reward
            for s in range(seats):
                r[s] += rewards[s]
        self.iterations += 1

    def playout(self, state: Any) -> Rewards:
        game, rng = self.game, self.rng
        evaluate = self.tuning.evaluate
        legal_moves = self.legal_moves
        random_move = self.tuning.random_move
        for _ in range(self.tuning.playout_depth):
            if random_move is not None:
                move = random_move(game, state, rng)
                if move is None:
                    return outcome_rewards(game, state, self.seats)
                state = game.apply(state, move)
                continue
            legal = legal_moves(state)
            if not legal:
                return outcome_rewards(game, state, self.seats)
            state = game.apply(state, legal[rng.randrange(len(legal))])
        if game.outcome(state) is not None:
            return outcome_rewards(game, state, self.seats)
        if evaluate is None:
            return [1.0 / self.seats] * self.seats
        return evaluate(state, self.seats)

    def best_move(self) -> Any:
        """The most visited move at the root (ties: the better average, then the first)."""
        best, key = None, (-1, -1.0)
        for move, child in self.root.children.items():
            mover = child.mover if child.mover is not None else 0
            k = (child.visits, child.reward[mover] / child.visits if child.visits else 0.0)
            if k > key:
                best, key = move, k
        return best


# -- what a seat may know -------------------------------------------------------------------
def consequence_sampler(view: _consequence.ConsequenceView) -> Sampler:
    """Deals Consequence's hidden tiles from `view` (one seat's observation) alone: the tiles
    it cannot identify (symbols on the grid it never saw, the opponent's hand) are shuffled
    among the places of the right colour. Colours are public; the opponent's hand holds what
    of each colour is neither on the grid nor in the seat's own hand."""
    c = _consequence
    seat = view.viewer
    if seat is None or view.hand is None:
        raise AiError("a determinization needs a seat's own view")
    other = 1 - seat
    by_kind: dict[str, list[int]] = {}
    for tile, kind in enumerate(c.KINDS):
        by_kind.setdefault(kind, []).append(tile)
    free = {kind: list(ids) for kind, ids in by_kind.items()}

    def take(kind: str) -> int:
        return free[kind].pop(0)

    own = frozenset(take(kind) for kind in view.hand)
    grid: list[int | None] = [c.EMPTY] * c.SQUARES
    unknown_squares: dict[str, list[int]] = {"B": [], "R": []}
    seen: set[int] = set(own)
    for square, seen_tile in enumerate(view.grid):
        if seen_tile is None:
            continue
        if seen_tile.symbol is not None:
            tile = take(seen_tile.colour + seen_tile.symbol)
            grid[square] = tile
            seen.add(tile)
        else:
            grid[square] = None
            unknown_squares[seen_tile.colour].append(square)
    pool = {colour: [t for kind, ids in free.items() if kind[0] == colour for t in ids]
            for colour in "BR"}
    opp_count = {colour: len(pool[colour]) - len(unknown_squares[colour]) for colour in "BR"}
    if (any(n < 0 for n in opp_count.values())
            or sum(opp_count.values()) != view.hand_sizes[other]):
        raise AiError("the observation is not consistent")
    last = view.last
    phase, to_move = view.phase, view.to_move
    if to_move is None:
        raise AiError("the game is over")

    def sample(rng: random.Random) -> _consequence.ConsequenceState:
        cells = list(grid)
        theirs: list[int] = []
        for colour in "BR":
            tiles = list(pool[colour])
            rng.shuffle(tiles)
            for square in unknown_squares[colour]:
                cells[square] = tiles.pop()
            theirs.extend(tiles)
        just_moved = just_placed = None
        if last is not None:
            if last["kind"] == "move":
                just_moved = cells[last["target"]]
            else:
                where = last["run"][0] if last["kind"] == "push" else last["square"]
                just_placed = cells[where]
        board = tuple(t if t is not None else c.EMPTY for t in cells)
        on_grid = frozenset(t for t in board if t != c.EMPTY)
        hands: list[frozenset[int]] = [frozenset(), frozenset()]
        hands[seat], hands[other] = own, frozenset(theirs)
        known: list[frozenset[int]] = [frozenset(), frozenset()]
        known[seat] = frozenset(seen) | own
        known[other] = on_grid | hands[other]
        state = c.ConsequenceState(
            grid=board, hands=(hands[0], hands[1]), known=(known[0], known[1]),
            to_move=to_move, phase=phase, just_moved=just_moved, just_placed=just_placed,
            repetition=False, ply=view.ply)
        return state

    return sample


SAMPLERS: dict[str, Callable[[Any], Sampler]] = {"consequence": consequence_sampler}


def sampler_for(game: Game, state: Any, seat: int) -> Sampler:
    """What `seat` may search from. For a game with hidden information only the seat's
    observation goes into the sampler: the true state goes no further than this function."""
    if game.info.hidden_information:
        return SAMPLERS[game.id](game.observe(state, seat))
    return lambda rng: state


# -- the entry points ------------------------------------------------------------------------
def _check_turn(game: Game, state: Any) -> int:
    if game.outcome(state) is not None:
        raise AiError("the game is over")
    if game.is_chance(state):
        raise AiError("a die roll is due: the host rolls before anyone moves")
    seat = game.to_move(state)
    if seat is None:
        raise AiError("nobody is to move")
    return seat


def choose_move(game: Game, state: Any, *, level: str = "normal", seed: int = 0,
                iterations: int | None = None, time_cap: float | None = -1.0,
                seat: int | None = None) -> Any:
    """The move the AI plays for the seat to move (raises AiError if nobody can move).

    `iterations` overrides the level's budget; `time_cap` -1 means the level's cap, None no
    cap. A single legal move is played at once."""
    to_move = _check_turn(game, state)
    if seat is not None and seat != to_move:
        raise AiError(f"seat {seat + 1} is not to move")
    spec = LEVELS[level]
    legal = game.legal_moves(state)
    if len(legal) == 1:
        return legal[0]
    search = Search(game, sampler_for(game, state, to_move), game.seats(state), seed)
    search.run(spec.iterations if iterations is None else iterations,
               spec.time_cap if time_cap == -1.0 else time_cap)
    move = search.best_move()
    return move if move is not None else legal[0]


def choose_move_job(game_id: str, state_json: dict, seat: int, level: str = "normal",
                    seed: int = 0) -> str:
    """For a process pool (top level, picklable arguments): the notation of the AI's move
    for `seat` in the saved state `state_json`."""
    game = get_game(game_id)
    state = game.from_json(state_json)
    return game.format_move(state, choose_move(game, state, level=level, seed=seed, seat=seat))


def random_legal_move(game_id: str, state_json: dict, seed: int = 0) -> str:
    """A cheap fallback: a uniformly random legal move's notation."""
    game = get_game(game_id)
    state = game.from_json(state_json)
    _check_turn(game, state)
    legal = game.legal_moves(state)
    return game.format_move(state, random.Random(seed).choice(legal))
