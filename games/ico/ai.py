"""What the AI knows of ICO, and why two-player ICO is searched with alpha-beta.

With two seats ICO is a two-player game of perfect information without chance, and a tiny
one to branch: at most three moves a turn (the active face's edges, fewer under the balance
rules). That is the ground where alpha-beta with a transposition table is strongest: positions
repeat by many orders of play (the table merges them), and a few hundred thousand nodes reach
the end of the game well before the markers run out, so the search plays endgames exactly
(level 1 is solved from the start: `python -m games.ico.solve`). Normal and hard use it.

Easy with two seats is a beginner who plays for their own pattern and does not see the
opponent's coming: each move gets a glance at a few random continuations to the end (GLANCES,
by level), in which the opponent misses its wins (at level 1 for its next two moves, at the
bigger patterns for the whole continuation: OVERLOOKED). Why: issue 30 wants easy to beat
random play (80%) and lose to the one-ply greedy baseline of bench/strength.py, and in ICO the
two are close (greedy beats random about 80%; the balance rules leave few moves, so random play
is no pushover). A weaker search moves both figures together (the Monte Carlo search on 3-10
iterations: 73-85% against random, 48-64% against greedy at level 2); overlooking the
opponent's wins costs more against greedy, which never misses one, than against random, which
takes only the wins it happens on. The glances are a best answer to a random opponent that
never wins on purpose: more of them exploit random play better, and at level 1, where a face
is three edges and a glance sees traps clearly, that counts more than the greedy player's
punishment; at level 2 three glances leave it weak enough to lose to greedy. Measured
(`bench/strength.py --only ico-level-N-2-seats --pairs easy:random,easy:greedy --games G
--no-cap --seed S`, against random / against greedy): level 2, 5 glances 80% / 53% (400
games), 3 glances 82% / 46% (1,000 games, seeds 9101 and 9201 alike) and 82% (81-84%) / 48%
(46-50%) (2,000 games, seed 3); level 1, 5 glances 78% (75-80%) / 44% (1,000), 10 glances 82%
/ 46% (1,000, seed 9101) but 83% / 51% (48-53%) (2,000, seed 3), 7 glances 81% (79-83%) / 48%
(45-50%) and 81% / 48% (46-50%) (2,000 games each, seeds 3 and 9201); seeing the opponent's
second move too (10 glances) 83% / 51%.

With three or four seats the game stays with the generic ISMCTS (max^n over playouts:
alpha-beta needs two sides with opposite interests). Easy and normal play their playouts to
the end; hard cuts them after MULTI_DEPTH plies and values each seat by how near it is to a pattern
(`multi_evaluate`): with three players most of a long random playout's moves are someone
else's, so where it ends says little of who was ahead, and the cut playouts are cheap enough
for twice the level's iterations.

The evaluation counts what a player counts: for each of their patterns (faces, face pairs,
belts or big triangles, by level) the edges still missing their colour, the nearest pattern
weighing most; and the markers left, since a player who has placed all 30 can only roll.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

from ..search import (
    Decision,
    Engine,
    Knowledge,
    Tuning,
    alphabeta_estimate,
    ismcts_estimate,
    share,
)
from .game import (
    _BELT_MASKS,
    _EDGE_BITS,
    _FACE_MASKS,
    _TRIANGLE_MASKS,
    ANTIPODE,
    GAME,
    MARKERS,
)


def patterns(level: str, antipodal: bool) -> tuple[int, ...]:
    """The edge masks a player must fill to win at `level`."""
    if level == "1":
        return _FACE_MASKS
    if level == "1+":
        return tuple(m | _FACE_MASKS[ANTIPODE[f]] for f, m in enumerate(_FACE_MASKS))
    if level == "2":
        return _BELT_MASKS
    if not antipodal:
        return _TRIANGLE_MASKS
    return tuple(m | _TRIANGLE_MASKS[ANTIPODE[f]] for f, m in enumerate(_TRIANGLE_MASKS))


_PATTERNS = {(level, anti): patterns(level, anti) for level in ("1", "1+", "2", "2+")
             for anti in (False, True)}


def closeness(has: int, masks: tuple[int, ...]) -> float:
    """Sum over patterns of 3 ** -(edges missing): the nearest pattern counts most."""
    total = 0.0
    for mask in masks:
        total += 3.0 ** -(mask & ~has).bit_count()
    return total


def value(state: Any) -> float:
    masks = _PATTERNS[(state.level, state.antipodal)]
    has = [0, 0]
    left = [MARKERS, MARKERS]
    for edge, counts in enumerate(state.markers):
        for seat in (0, 1):
            if counts[seat]:
                has[seat] |= _EDGE_BITS[edge]
                left[seat] -= counts[seat]
    x = closeness(has[0], masks) - closeness(has[1], masks)
    x *= 4.0
    # a placed marker that adds no edge (redoubling) is spent: markers left are worth keeping
    x += 0.02 * (left[0] - left[1])
    return math.tanh(x)


def result(state: Any) -> float | None:
    outcome = GAME.outcome(state)
    if outcome is None:
        return None
    if len(outcome.winners) != 1:
        return 0.0
    return 1.0 if outcome.winners[0] == 0 else -1.0


def play(state: Any, move: Any) -> Any:
    return GAME.apply(state, move)


ENGINE = Engine(enter=lambda state: state, moves=GAME.legal_moves, play=play,
                mover=lambda state: state.to_move, result=result, evaluate=value,
                key=lambda s: (s.markers, s.active, s.to_move, s.idle),
                to_rules=lambda move: move, nodes_per_iteration=6.0)
TUNING = Tuning(400)


# easy with two seats: so many random continuations of each move, by level (see the docstring)
GLANCES = {"1": 7, "1+": 3, "2": 3, "2+": 3}
# ... in which the opponent takes a win it could avoid only after this many of its moves,
# by level: the beginner does not see the opponent's next pattern coming (a face's three edges
# from two moves off, a belt or big triangle at all)
OVERLOOKED = {"1": 2, "1+": MARKERS, "2": MARKERS, "2+": MARKERS}


def glance(decision: Decision) -> tuple[Any, list[float]]:
    """Two-seat easy: each move valued by GLANCES[level] random continuations to the end, in
    which the opponent misses the wins the beginner overlooks (OVERLOOKED); the best share of
    wins, ties at random, after a win at once. Returns the move and each seat's estimated chance."""
    rng = random.Random(decision.seed)
    state = decision.sampler(rng)
    me = decision.seat
    overlooked = OVERLOOKED[state.level]
    glances = GLANCES[state.level]
    for move in decision.legal:  # the beginner sees its own win at once
        ended = GAME.outcome(GAME.apply(state, move))
        if ended is not None and ended.winners == (me,):
            return move, [1.0 if s == me else 0.0 for s in range(2)]
    best: list[Any] = []
    top = -1
    for move in decision.legal:
        won = 0
        for _ in range(glances):
            won += _continue(GAME.apply(state, move), me, overlooked, rng)
        if won > top:
            best, top = [move], won
        elif won == top:
            best.append(move)
    chance = top / glances
    return rng.choice(best), [chance if s == me else 1.0 - chance for s in range(2)]


def _continue(state: Any, me: int, overlooked: int, rng: random.Random) -> int:
    """1 if `me` wins a random continuation of `state` (a draw counts as a loss: rare), in
    which the opponent's first `overlooked` moves avoid a win when they can."""
    seen = 0
    while (outcome := GAME.outcome(state)) is None:
        moves = GAME.legal_moves(state)
        if state.to_move != me:
            seen += 1
            if seen <= overlooked and len(moves) > 1:
                blind = [m for m in moves if GAME.outcome(GAME.apply(state, m)) is None]
                moves = blind or moves
        state = GAME.apply(state, rng.choice(moves))
    return int(outcome.winners == (me,))


def distances(state: Any) -> list[float]:
    """Per seat, how near its patterns are in edges: log3 of `closeness`, a soft minimum of
    the edges still missing (the nearest pattern, less a little for each other near one)."""
    masks = _PATTERNS[(state.level, state.antipodal)]
    seats = state.seats
    has = [0] * seats
    for edge, counts in enumerate(state.markers):
        bit = _EDGE_BITS[edge]
        for seat in range(seats):
            if counts[seat]:
                has[seat] |= bit
    return [math.log(closeness(h, masks), 3) for h in has]


def multi_evaluate(state: Any, seats: int) -> list[float]:
    """Three or four seats, at a playout's cut: an edge nearer a pattern is an e-fold."""
    return share(distances(state), 1.0)


# Three or four seats, hard: playouts cut after MULTI_DEPTH plies and valued by how near each
# seat is to a pattern (a random playout to the end says little of who was ahead: with three
# players most of its moves are someone else's), and HARD_BUDGET times the iterations (cut
# playouts are cheap; the median think time stays well under the cap).
MULTI_DEPTH = 12
MULTI_HARD = Tuning(MULTI_DEPTH, multi_evaluate)
HARD_BUDGET = 2.0


def _multi(decision: Decision) -> tuple[Decision, Tuning]:
    if decision.level != "hard":
        return decision, TUNING
    return (dataclasses.replace(decision, iterations=round(decision.iterations * HARD_BUDGET)),
            MULTI_HARD)


def search(decision: Decision) -> Any:
    return estimate(decision)[0]


def estimate(decision: Decision) -> tuple[Any, list[float]]:
    """The move `search` plays and each seat's chance of winning (post-game analysis)."""
    if decision.seats != 2:
        return ismcts_estimate(*_multi(decision))
    if decision.level == "easy":
        return glance(decision)
    return alphabeta_estimate(decision, ENGINE)


KNOWLEDGE = Knowledge(TUNING, search=search, estimate=estimate)
