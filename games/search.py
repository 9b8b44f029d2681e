"""The AI's search, for any game: information-set Monte Carlo tree search (UCT).

It imports no game. What it knows of one comes from the game's kit (games/kit.py) as a
`Knowledge`: a `Tuning` (how deep a playout runs and how a cut position is valued, a playout
policy, faster move generators, a decisive-move test), a resampler that deals what a seat
cannot see, and, if the kit wants one, a search of its own in place of this one (as
OpenSpiel's searches take an evaluator and a resampler and stay generic over the State API).

The search never receives the true state of a game with hidden information: `games.ai` turns it
into `observe(state, seat)` and hands the search a *sampler* built from that observation alone,
which deals the tiles the seat cannot see at random, consistently with what it can (a
determinization). Every iteration samples a new deal and walks one shared tree whose edges are
moves (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012); a move's bandit statistics
count only the iterations where it was available. Games without hidden information
(`GameInfo.hidden_information` false) hide nothing from any seat, so their sampler returns the
state itself (which also carries the public history that the repetition rule needs).

- Chance (a die): a chance state is not a decision; the search draws its outcome from the
  die's distribution (uniform over `legal_moves`) and follows that branch.
- Three or four players: every node keeps a reward per seat and the seat to move picks the
  child best for itself (max^n).
- Playouts are random (or follow the kit's policy) and are cut after the kit's number of
  plies, where its evaluation gives a reward per seat; a finished game gives 1 to the winner,
  shared on a draw.
- Positions proved lost (perfect-information games): once the search proves that every move
  loses against perfect play, the rest of the budget goes to a search in which the opponents
  choose at random, so that the move chosen leaves them the most chances to go wrong.
- Given a seed and a budget the choice is deterministic, as long as the wall-clock cap does not
  stop the search first (`time_cap=None` disables it).

Standard library only.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .base import Game, GameError

Rewards = list[float]
Sampler = Callable[[random.Random], Any]


class AiError(GameError):
    """The AI cannot move here: the game is over, or the host must roll the die first (or a
    resampler finds the observation inconsistent)."""


# -- what a kit tells the strength bench --------------------------------------------------------
@dataclass(frozen=True)
class Baseline:
    """A game's plain material, as bench/strength.py's classical opponents count it (greedy
    one ply, fixed-depth alpha-beta): what a player who knows only the rules would count, kept
    in the game's kit (`Kit.baseline`) so that the bench names no game. Nothing here plays in
    the product."""

    # (rules state, seat) -> the seat's material
    material: Callable[[Any, int], float]
    # (a position of the kit's alpha-beta engine) -> seat 0's material, for the alpha-beta's
    # leaves; None: `material(position, 0)` (an engine whose positions are rules states)
    engine_material: Callable[[Any], float] | None = None
    # (engine, position, alpha, beta) -> the value for its mover of a position searched one
    # ply, exact within (alpha, beta), else a bound on the same side; None: no shortcut there
    last_ply: Callable[[Any, Any, float, float], float | None] | None = None
    # whether killer moves and the history heuristic order the alpha-beta's moves
    learn: bool = False
    # (rules state after a move, its mover) -> whether the mover is bound to lose by it
    # whatever the opponent does: a blunder for greedy, besides handing over a win at once
    starved: Callable[[Any, int], bool] | None = None


def hands_over_a_win(game: Game, after: Any, seat: int) -> bool:
    """Two players, perfect information: whether the position `seat`'s move led to lets the
    other seat win at once (a reply of its that ends the game with it the only winner): the
    blunder a player who looks one move ahead avoids."""
    if game.info.hidden_information or game.seats(after) != 2 or \
            game.outcome(after) is not None or game.is_chance(after):
        return False
    other = game.to_move(after)
    if other is None or other == seat:
        return False
    for reply in game.legal_moves(after):
        outcome = game.outcome(game.apply(after, reply))
        if outcome is not None and outcome.winners == (other,):
            return True
    return False


# -- what a kit tells the search --------------------------------------------------------------
@dataclass(frozen=True)
class Tuning:
    """How the default search (`ismcts`) plays one game: its evaluation and playout policy."""

    playout_depth: int  # plies of random play before the evaluation cuts a playout
    evaluate: Callable[[Any, int], Rewards] | None = None  # (state, seats) -> reward per seat
    exploration: float = 0.7
    # the level's iterations are multiplied by this: a game whose iterations are cheap gets
    # more of them within the same think time
    budget: float = 1.0
    # the same list as `game.legal_moves(state)`, faster (tests check they agree)
    legal: Callable[[Any, Any], list] | None = None
    # a uniformly random legal move, or None at the end (for playouts)
    random_move: Callable[[Any, Any, random.Random], Any] | None = None
    # a whole playout, (game, state, rng, depth, seats) -> rewards, in place of the loop of
    # random moves (a game may simulate on a lighter representation than its states)
    playout: Callable[[Any, Any, random.Random, int, int], Rewards] | None = None
    # a move that wins at once for the seat to move, or None: a position where it exists
    # counts as won by that seat in the tree (a kit's own playout may use it too)
    decisive: Callable[[Any, Any], Any] | None = None


def share(values: list[float], scale: float) -> Rewards:
    """Rewards from per-seat figures: a soft-max with `scale` figures per e-fold."""
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


DEFAULT_TUNING = Tuning(400)


@dataclass(frozen=True)
class Decision:
    """One move to choose, as a search receives it. `position` is the state itself only when
    the game hides nothing from the seat; otherwise the search has `sampler` alone."""

    game: Game
    seat: int  # the seat to move, whose move is chosen
    seats: int
    legal: list  # the seat's legal moves (more than one)
    sampler: Sampler  # a state consistent with what the seat sees, dealt afresh per call
    position: Any  # the state, when nothing is hidden from the seat; else None
    level: str  # easy, normal or hard
    iterations: int  # the level's budget (scaled by `Tuning.budget`), or the caller's
    time_cap: float | None  # seconds at most, or None: no cap
    seed: int


@dataclass(frozen=True)
class Knowledge:
    """What a kit knows of its game for the AI (its module `ai` defines `KNOWLEDGE`)."""

    tuning: Tuning = DEFAULT_TUNING
    # (one seat's observation) -> a sampler of states consistent with it: required for a game
    # with hidden information, unused otherwise
    resampler: Callable[[Any], Sampler] | None = None
    # a search of the kit's own (alpha-beta, a solver...) in place of `ismcts`: it returns one
    # of `decision.legal`
    search: Callable[[Decision], Any] | None = None
    # the kit's own search as an estimate: (its move, each seat's chance of winning), for
    # post-game analysis; a kit with its own `search` gives one (else the default's is used)
    estimate: Callable[[Decision], tuple[Any, Rewards]] | None = None
    # (one seat's observation) -> every state consistent with it, each kind of hidden piece
    # dealt once (tiles alike are one), or None when there are too many: the exhaustive
    # puzzle checks of a game with hidden information (games/puzzles.py)
    worlds: Callable[[Any], list[Any] | None] | None = None

    def choose(self, decision: Decision) -> Any:
        if self.search is not None:
            return self.search(decision)
        return ismcts(decision, self.tuning)

    def judge(self, decision: Decision) -> tuple[Any, Rewards]:
        """The move this level plays and each seat's estimated chance of winning."""
        if self.estimate is not None:
            return self.estimate(decision)
        return ismcts_estimate(decision, self.tuning)


DEFAULT_KNOWLEDGE = Knowledge()


# -- the tree ------------------------------------------------------------------------------
class Node:
    __slots__ = ("avail", "children", "info", "mover", "reward", "state", "visits")

    def __init__(self, mover: int | None, seats: int):
        self.mover = mover  # the seat whose move led here (None: a chance outcome)
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0  # iterations in which the move leading here was available
        self.reward = [0.0] * seats
        # without hidden information a node stands for one state: it is kept, with what the
        # search needs of it (see Search.describe), so that a walk down the tree replays
        # nothing
        self.state: Any = None
        self.info: tuple[bool, list, Rewards | None] | None = None


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
                 tuning: Tuning | None = None, fallible: int | None = None):
        self.game = game
        self.sampler = sampler
        self.seats = seats
        self.rng = random.Random(seed)
        self.tuning = tuning or DEFAULT_TUNING
        self.root = Node(None, seats)
        self.iterations = 0
        # with hidden information every iteration deals a different state to the same node
        self.cache = not game.info.hidden_information
        # a seat whose opponents are taken to choose at random: the search then looks for the
        # moves that leave them the most chances to go wrong (used once a position is proved
        # lost; nothing is proved in this mode)
        self.fallible = fallible
        self.solve = self.cache and fallible is None
        fast = self.tuning.legal
        self.legal_moves: Callable[[Any], list] = (
            game.legal_moves if fast is None else (lambda state: fast(game, state)))

    def run(self, iterations: int, time_cap: float | None = None) -> None:
        deadline = None if time_cap is None else time.perf_counter() + time_cap
        for i in range(iterations):
            if deadline is not None and i % 8 == 0 and i and time.perf_counter() > deadline:
                break
            if self.root.info is not None and self.root.info[2] is not None:
                break  # the root is decided: nothing left to learn
            self.iterate()

    def describe(self, state: Any) -> tuple[bool, list, Rewards | None]:
        """(a die roll is due, the moves or the die's outcomes, the rewards if the position
        is decided: the game is over, or the seat to move has a move that wins at once)."""
        game = self.game
        if game.is_chance(state):
            return True, game.legal_moves(state), None
        legal = self.legal_moves(state)
        if not legal:
            return False, legal, outcome_rewards(game, state, self.seats)
        decisive = self.tuning.decisive
        if decisive is not None:
            move = decisive(game, state)
            if move is not None:
                return False, legal, outcome_rewards(game, game.apply(state, move), self.seats)
        return False, legal, None

    def iterate(self) -> None:
        game, rng, seats, cache = self.game, self.rng, self.seats, self.cache
        c = self.tuning.exploration
        node = self.root
        if cache:
            if node.state is None:
                node.state = self.sampler(rng)
            state = node.state
        else:
            state = self.sampler(rng)
        path = [node]
        while True:
            if cache:
                info = node.info
                if info is None:
                    info = node.info = self.describe(state)
            else:
                info = self.describe(state)
            chance, legal, decided = info
            if decided is not None:
                rewards = decided
                if self.solve:
                    self.settle(path)
                break
            if chance:
                move = legal[rng.randrange(len(legal))]
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = Node(None, seats)
                node = child
                path.append(node)
                if not cache:
                    state = game.apply(state, move)
                elif node.state is None:
                    state = node.state = game.apply(state, move)
                else:
                    state = node.state
                continue
            mover = state.to_move  # every game's state names the seat to move
            children = node.children
            untried = []
            if self.fallible is not None and mover != self.fallible:
                move = legal[rng.randrange(len(legal))]
                if move in children:
                    node = children[move]
                    state = node.state if cache else game.apply(state, move)
                    path.append(node)
                    continue
                untried.append(move)
            for move in legal if not untried else ():
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
                if cache:
                    child.state = state
                    child.info = self.describe(state)
                    if child.info[2] is not None:
                        rewards = child.info[2]
                        if self.solve:
                            self.settle(path)
                        break
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
            state = node.state if cache else game.apply(state, best)
            path.append(node)
        for n in path:
            n.visits += 1
            r = n.reward
            for s in range(seats):
                r[s] += rewards[s]
        self.iterations += 1

    @staticmethod
    def settle(path: list[Node]) -> None:
        """A node whose position is decided (over, or won at once by the seat to move) may
        decide the nodes above it: a seat to move with a decided child that gives it the
        most it can get, or whose children are all decided, has a decided position too
        (MCTS-Solver, Winands, Bjornsson and Saito 2008). Only without hidden information,
        where a node is one state; a die roll decides nothing. With three or four seats a
        mover whose best result several moves give, each with another fate for the other
        seats, proves nothing: which of them it plays is a kingmaker's whim, and a proof
        built on one would steer the search (measured in three-seat ICO: issue 30)."""
        for i in range(len(path) - 2, -1, -1):
            node = path[i]
            info = node.info
            if info is None or info[0] or info[2] is not None or not node.children:
                return
            legal, children = info[1], node.children
            mover = next(iter(children.values())).mover
            assert mover is not None
            best: Rewards | None = None
            open_ = len(children) < len(legal)
            results = []
            for child in children.values():
                decided = child.info[2] if child.info is not None else None
                if decided is None:
                    open_ = True
                else:
                    results.append(decided)
                    if best is None or decided[mover] > best[mover]:
                        best = decided
            if best is None or (open_ and best[mover] < 1.0):
                return
            if any(r[mover] == best[mover] and r != best for r in results):
                return  # the mover is indifferent, the others are not: nothing is proved
            node.info = (False, legal, best)

    def playout(self, state: Any) -> Rewards:
        game, rng = self.game, self.rng
        tuning = self.tuning
        if tuning.playout is not None:
            return tuning.playout(game, state, rng, tuning.playout_depth, self.seats)
        evaluate = tuning.evaluate
        legal_moves = self.legal_moves
        random_move = tuning.random_move
        for _ in range(tuning.playout_depth):
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
        """The most visited move at the root (ties: the better average, then the first); a
        move proved to win comes first, and one proved to lose last."""
        best, key = None, (-1, -1, -1.0)
        for move, child in self.root.children.items():
            mover = child.mover if child.mover is not None else 0
            decided = child.info[2] if child.info is not None else None
            proved = 1 if decided is None else 2 if decided[mover] >= 1.0 else \
                0 if decided[mover] <= 0.0 else 1
            k = (proved, child.visits,
                 child.reward[mover] / child.visits if child.visits else 0.0)
            if k > key:
                best, key = move, k
        return best



def ismcts_estimate(decision: Decision, tuning: Tuning = DEFAULT_TUNING) -> tuple[Any, Rewards]:
    """`ismcts`'s move, and each seat's chance of winning as its root estimates it: the mean
    reward of the iterations (the proved result when the root is decided)."""
    move, root, proved = _ismcts(decision, tuning)
    if proved is not None:
        return move, list(proved)
    decided = root.info[2] if root.info is not None else None
    if decided is not None:
        return move, list(decided)
    if root.visits == 0:
        return move, [1.0 / decision.seats] * decision.seats
    return move, [r / root.visits for r in root.reward]


def ismcts(decision: Decision, tuning: Tuning = DEFAULT_TUNING) -> Any:
    """The default search's choice: a move that wins at once if the tuning knows one, else the
    most visited move of a search of `decision.iterations` iterations."""
    return _ismcts(decision, tuning)[0]


def _ismcts(decision: Decision, tuning: Tuning) -> tuple[Any, Node, Rewards | None]:
    """(the move, the root of the search, the root's result if it was proved)"""
    game, state, seed, cap = decision.game, decision.position, decision.seed, decision.time_cap
    if tuning.decisive is not None and state is not None:
        winning = tuning.decisive(game, state)
        if winning is not None:
            won = outcome_rewards(game, game.apply(state, winning), decision.seats)
            return winning, Node(None, decision.seats), won
    budget, to_move, sampler = decision.iterations, decision.seat, decision.sampler
    began = time.perf_counter()
    search = Search(game, sampler, decision.seats, seed, tuning)
    search.run(budget, cap)
    decided = search.root.info[2] if search.root.info is not None else None
    proved = decided
    if decided is not None and decided[to_move] <= 0.0 and budget > search.iterations:
        # proved lost against perfect play: spend what is left of the budget on the move
        # that leaves the opponents the most chances to go wrong
        used = search.iterations
        search = Search(game, sampler, decision.seats, seed, tuning, fallible=to_move)
        search.run(budget - used,
                   None if cap is None else max(0.0, cap - (time.perf_counter() - began)))
    move = search.best_move()
    return (move if move is not None else decision.legal[0]), search.root, proved


# -- alpha-beta, for two players with perfect information ------------------------------------
@dataclass(frozen=True)
class Engine:
    """A two-player game without chance or hidden information as `alphabeta` searches it,
    on a representation of the kit's choosing (a light tuple is many times faster than the
    rules' states, which carry a repetition history and a dataclass each ply). A kit's tests
    play its engine against the rules on random games.

    Engine states are values (`play` returns a new one); engine moves are hashable. A seat may
    move several times running (Progressive Mancala's extra moves): the search compares the
    mover of each position, it does not assume that turns alternate."""

    enter: Callable[[Any], Any]  # the rules' state -> the engine's
    # the moves, best guesses first; [] when it is over. It may hold moves that `play`
    # refuses (a kit that must play a move to know it is legal plays it only when searched)
    moves: Callable[[Any], list]
    play: Callable[[Any, Any], Any]  # the position after a move, or None if it is not legal
    mover: Callable[[Any], int]  # the seat to move (0 or 1)
    # the game's result for seat 0 (1 won, 0 drawn, -1 lost), or None while it goes on
    result: Callable[[Any], float | None]
    evaluate: Callable[[Any], float]  # a position's value for seat 0, strictly within (-1, 1)
    key: Callable[[Any], Any]  # a hashable key of the position (transposition table)
    to_rules: Callable[[Any], Any]  # an engine move -> the rules' move
    # the node budget per level iteration (a level's iterations times this)
    nodes_per_iteration: float = 20.0


WIN = 100.0  # a proved win is worth WIN minus its distance in plies; evaluations stay in (-1, 1)


class _OutOfBudget(Exception):
    pass


@dataclass
class Line:
    """What `alphabeta` found: the move, its value for the mover (-1..1 is an estimate,
    beyond that a proved result), the depth completed and the nodes searched."""

    move: Any
    value: float
    depth: int
    nodes: int
    values: dict  # root move -> value for the mover at the last completed depth (all moves)


class AlphaBeta:
    """Negamax alpha-beta with iterative deepening, a transposition table, and move ordering
    (the table's move, two killer moves a ply, the history heuristic), stopped by a node
    budget (deterministic) or a wall-clock cap. Mate-distance scoring makes the search solve
    a position exactly once its tree is small enough: a win is worth WIN less its distance."""

    def __init__(self, engine: Engine, nodes: int | None, deadline: float | None):
        self.e = engine
        self.budget = nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[Any, tuple[int, float, int, Any]] = {}
        self.killers: dict[int, list] = {}
        self.history: dict[Any, int] = {}
        self.evals: dict[Any, float] = {}

    def tick(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _OutOfBudget
        if self.deadline is not None and not self.nodes & 255 \
                and time.perf_counter() > self.deadline:
            raise _OutOfBudget

    def value(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of `state` for its mover, searched `depth` plies deep."""
        e = self.e
        self.tick()
        mover = e.mover(state)
        sign = 1 if mover == 0 else -1
        key = e.key(state)
        if depth <= 0:
            # the same leaf comes up by several orders of moves, and again in the next
            # iteration: its evaluation is kept (evaluations cost more than the rest of a node)
            value = self.evals.get(key)
            if value is None:
                value = self.evals[key] = e.evaluate(state)
            return sign * value
        entry = self.table.get(key)
        first = None
        if entry is not None:
            d, v, flag, first = entry
            if d >= depth:
                # proved results are stored relative to this position (ply 0)
                v = v - ply if v > WIN / 2 else v + ply if v < -WIN / 2 else v
                if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                    return v
        original, best, best_move, found = alpha, -math.inf, None, False
        for move in self.order(e.moves(state), first, ply):
            child = e.play(state, move)
            if child is None:
                continue
            found = True
            v = self.child_value(child, mover, depth - 1, alpha, beta, ply + 1)
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        killers = self.killers.setdefault(ply, [])
                        if move not in killers:
                            killers.insert(0, move)
                            del killers[2:]
                        self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        if not found:
            return 0.0  # no legal move and no result: the rules' draw
        stored = best + ply if best > WIN / 2 else best - ply if best < -WIN / 2 else best
        flag = -1 if best <= original else 1 if best >= beta else 0
        self.table[key] = (depth, stored, flag, best_move)
        return best

    def child_value(self, child: Any, mover: int, depth: int, alpha: float, beta: float,
                    ply: int) -> float:
        """The value for `mover` of the position its move led to, `ply` plies from the root:
        the result if the game is over there, else that position's value, negated when the
        other seat moves there."""
        e = self.e
        result = e.result(child)
        if result is not None:
            self.tick()
            if result == 0:
                return 0.0
            return (WIN - ply) * (1 if (result > 0) == (mover == 0) else -1)
        if e.mover(child) == mover:
            return self.value(child, depth, alpha, beta, ply)
        return -self.value(child, depth, -beta, -alpha, ply)

    def order(self, moves: list, first: Any, ply: int) -> list:
        if len(moves) < 2:
            return moves
        history = self.history
        killers = self.killers.get(ply, ())
        scored = [(move != first, move not in killers, -history.get(move, 0), i)
                  for i, move in enumerate(moves)]
        scored.sort()
        return [moves[k[3]] for k in scored]

    def search(self, state: Any, max_depth: int = 64) -> Line:
        """Iterative deepening until the budget or the cap runs out, or the root is proved.
        The move of an interrupted iteration is kept when a root move finished there (the
        first searched is the previous best, so a different one proved better)."""
        e = self.e
        mover = e.mover(state)
        moves = [(m, c) for m in e.moves(state) if (c := e.play(state, m)) is not None]
        line = Line(moves[0][0], 0.0, 0, 0, {})
        for depth in range(1, max_depth + 1):
            values: dict = {}
            best, best_move, alpha = -math.inf, line.move, -math.inf
            try:
                # the previous iteration's best first, then the rest by its values (a move
                # that did not come first has an upper bound there, which is enough to sort)
                for move, child in moves:
                    v = self.child_value(child, mover, depth - 1, alpha, math.inf, 1)
                    values[move] = v
                    if v > best:
                        best, best_move = v, move
                        alpha = max(alpha, v)
            except _OutOfBudget:
                if values and best_move != line.move:
                    line = Line(best_move, best, line.depth, self.nodes, line.values)
                break
            moves.sort(key=lambda pair: -values[pair[0]])
            line = Line(best_move, best, depth, self.nodes, values)
            if abs(best) > WIN / 2:
                break  # proved: a deeper search would find the same
        line.nodes = self.nodes
        return line


def alphabeta(decision: Decision, engine: Engine, *, nodes: int | None = None) -> Any:
    """The choice of `AlphaBeta` for a decision whose position is known (perfect
    information): the budget is the level's iterations times the engine's nodes per
    iteration, and the level's cap stops it first if the machine is slow."""
    return alphabeta_estimate(decision, engine, nodes=nodes)[0]


def alphabeta_estimate(decision: Decision, engine: Engine, *,
                       nodes: int | None = None) -> tuple[Any, Rewards]:
    """`alphabeta`'s move and each seat's chance of winning: a proved result is certain; an
    evaluation v in (-1, 1) for the mover reads as a chance of (1 + v) / 2."""
    line = analyse_position(engine, decision.position,
                            nodes if nodes is not None
                            else round(decision.iterations * engine.nodes_per_iteration),
                            decision.time_cap)
    chosen = engine.to_rules(line.move)
    move = next((m for m in decision.legal if m == chosen), decision.legal[0])
    v = line.value
    p = 1.0 if v > WIN / 2 else 0.0 if v < -WIN / 2 else (1.0 + max(-1.0, min(1.0, v))) / 2
    win = [1.0 - p] * decision.seats
    win[decision.seat] = p
    return move, win


def analyse_position(engine: Engine, position: Any, nodes: int | None,
                     time_cap: float | None) -> Line:
    """`AlphaBeta`'s line for a rules state with at least one legal move."""
    deadline = None if time_cap is None else time.perf_counter() + time_cap
    search = AlphaBeta(engine, nodes, deadline)
    return search.search(engine.enter(position))


# -- a beginner's choice (easy), for two players with perfect information --------------------
def one_ply_values(engine: Engine, position: Any) -> list[tuple[Any, float]]:
    """Each legal engine move at the root with its value for the mover after one ply: WIN for
    a move that wins at once (-WIN loses, 0 draws), else the engine's evaluation."""
    state = engine.enter(position)
    mover = engine.mover(state)
    sign = 1 if mover == 0 else -1
    out = []
    for move in engine.moves(state):
        child = engine.play(state, move)
        if child is None:
            continue
        result = engine.result(child)
        value = engine.evaluate(child) if result is None else WIN * result
        out.append((move, sign * value))
    return out


def noisy_one_ply(decision: Decision, engine: Engine, temperature: float) -> tuple[Any, Rewards]:
    """A beginner's move: a win at once if there is one, else a move drawn with probability
    proportional to exp(value / temperature) over the one-ply values (`one_ply_values`), from
    the decision's seed. It does not look at the opponent's replies, and the noise makes it
    play a worse move now and then: a player who sees its own chances, not the threats. Also
    (the move, each seat's chance of winning read from the best one-ply value, as
    `alphabeta_estimate` reads its values)."""
    scored = one_ply_values(engine, decision.position)
    top = max(v for _, v in scored)
    if top >= WIN / 2:
        pick = next(m for m, v in scored if v == top)
    else:
        weights = [math.exp((v - top) / temperature) for _, v in scored]
        rng = random.Random(decision.seed)
        pick = rng.choices([m for m, _ in scored], weights)[0]
    chosen = engine.to_rules(pick)
    move = next((m for m in decision.legal if m == chosen), decision.legal[0])
    p = 1.0 if top >= WIN / 2 else 0.0 if top <= -WIN / 2 else (1.0 + top) / 2
    win = [1.0 - p] * decision.seats
    win[decision.seat] = p
    return move, win
