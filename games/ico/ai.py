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
alpha-beta needs two sides with opposite interests), all of it on a light game (`LightIco`:
positions of tuples, playouts on plain lists played in place; a hard search of the same
iterations takes 2.5 times less CPU than on the rules' states, the playouts of easy and normal
more). Hard takes a position whose mover can win at once as won, searches 24,000 iterations,
and plays its playouts as players who go for their own patterns (`pattern_playout`); normal
searches 300 and easy 20 (MULTI_BUDGET), with random playouts. Why (issue 30 wants each level
to beat the one below clearly, and a playout policy clearly better than random):
- The pattern playout, as a player on its own (bench/playout_policy.py, 2,000 games each),
  wins 40% of three-seat games against random players (fair 33%; random playouts 31-34%) and
  33% of four-seat ones (fair 25%; random 26%), and against the greedy baseline 32% and 23%
  (random 26-27% and 14%). Its playouts tell the search more of what players do; hard
  thinks about a tenth longer than with random playouts (four seats: CPU p50 1.9 s a move,
  p99 2.7 s; bench/search_speed.py).
- With three or four seats a level's edge over the ones below is thin; most of a game's moves
  are someone else's and many turns offer one move. Spacing the levels by more than ten
  times the search each is what makes the steps show: normal at 800 iterations scored 44-46%
  (fair 33%) against 250, and against easy's 80 only 35% of 60 games with four seats (fair
  25%), 50% against 20 iterations.
- With four seats hard's step over normal is small but clear: with pattern playouts at
  24,000 iterations it scored 30% (27-33%) of 864 games (fair 25%; outright wins 23% against
  16% for each normal, 28% four-way draws), a total fixed in advance, and 31% (27-35%) in the
  480 of them played after the first 384. The step is small because a seat makes only about
  13 real choices in a game of about 113 plies, between two or three edges. More search does
  not widen it: random playouts gave 27% (21-33%) of 192 games at 7,992 iterations and 31%
  (25-38%) of 192 at 24,000; 48,000 iterations 35% of 64 (CPU p50 3.2 s a move), 96,000 31%
  of 48 (6.6 s). Tried beside them, and no better: exploring half as much (0.35 instead of
  0.7: 32%, 26-39%, of 192 games) and playouts that avoid handing the next seat a win (27%
  of 60, at 7,992).
- Hard used to cut its playouts after 12 plies and value each seat by how near it was to a
  pattern; with four seats that scored 20% of 60 games against normal. Full playouts do
  better with three seats: with pattern playouts at 24,000 iterations 44% (35-52%) of 120
  games at level 2 and 48% (40-57%) of 120 at level 1+ (fair 33%; with random playouts
  43% and 42% of 120; the cut ones 39% and 37% against normal's 800).
Measured with `bench/strength.py --only SET-UP --pairs hard:normal --no-cap` (issue 30's
note gives the seeds); think times with `bench/search_speed.py`.

The two-seat evaluation counts what a player counts: for each of their patterns (faces, face pairs,
belts or big triangles, by level) the edges still missing their colour, the nearest pattern
weighing most; and the markers left, since a player who has placed all 30 can only roll.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any, cast

from ..base import Game, Outcome
from ..search import (
    Decision,
    Engine,
    Knowledge,
    Tuning,
    alphabeta_estimate,
    ismcts_estimate,
)
from .game import (
    _BELT_MASKS,
    _EDGE_BITS,
    _FACE_MASKS,
    _TRIANGLE_MASKS,
    ACROSS,
    ANTIPODE,
    FACE_EDGES,
    GAME,
    MARKERS,
    IcoMove,
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


# -- three or four seats: a light game for the search ------------------------------------
# pattern masks containing each edge, per (level, antipodal): a placement can complete only
# a pattern through its own edge
_BY_EDGE = {key: tuple(tuple(m for m in masks if m >> e & 1) for e in range(len(_EDGE_BITS)))
            for key, masks in _PATTERNS.items()}
_ACROSS = tuple(tuple(ACROSS[(f, e)] if e in FACE_EDGES[f] else -1
                      for e in range(len(_EDGE_BITS))) for f in range(len(FACE_EDGES)))
_FACES = tuple(tuple(edges) for edges in FACE_EDGES)
OPEN, DRAWN = -1, -2  # IcoPos.winner while the game goes on, and after a draw


class IcoPos:
    """A position of the light game (`LIGHT`): each seat's edges as one bit mask, each edge's
    marker count, the markers left, as tuples. Treated as a value: `LIGHT.apply` returns a
    new one."""

    __slots__ = ("rules", "has", "total", "left", "active", "to_move", "idle", "winner")

    def __init__(self, rules: tuple[int, bool, tuple], has: tuple[int, ...],
                 total: tuple[int, ...], left: tuple[int, ...], active: int, to_move: int,
                 idle: int, winner: int):
        self.rules = rules  # (seats, redoubling allowed, the pattern masks through each edge)
        self.has = has
        self.total = total
        self.left = left
        self.active = active
        self.to_move = to_move
        self.idle = idle
        self.winner = winner  # the winning seat, OPEN or DRAWN

    @classmethod
    def enter(cls, state: Any) -> IcoPos:
        """The rules' state as a light position."""
        seats = state.seats
        has = [0] * seats
        left = [MARKERS] * seats
        for edge, counts in enumerate(state.markers):
            for seat, n in enumerate(counts):
                if n:
                    has[seat] |= _EDGE_BITS[edge]
                    left[seat] -= n
        outcome = GAME.outcome(state)
        winner = OPEN if outcome is None else DRAWN if outcome.draw else outcome.winners[0]
        rules = (seats, state.level in ("2", "2+"), _BY_EDGE[(state.level, state.antipodal)])
        return cls(rules, tuple(has), tuple(sum(c) for c in state.markers), tuple(left),
                   state.active, state.to_move, state.idle, winner)


def _choices(rules: tuple[int, bool, tuple], has: int, left: int, total: Any,
             face: int) -> tuple[tuple[int, ...] | list[int], bool]:
    """The edges a seat (its edges `has`, `left` markers) may use on `face`, and whether it
    places there: the balance rules, as GAME.legal_moves."""
    edges = _FACES[face]
    if not left:
        return edges, False
    pool = [e for e in edges if not has >> e & 1]
    if not pool:
        if not rules[1]:
            return edges, False
        pool = list(edges)
    if len(pool) > 1:
        fewest = min(total[e] for e in pool)
        pool = [e for e in pool if total[e] == fewest]
    return pool, True


def _completes(rules: tuple[int, bool, tuple], has: int, edge: int) -> bool:
    """Whether a marker on `edge` completes one of the patterns of a seat holding `has`."""
    mine = has | _EDGE_BITS[edge]
    return any(mine & mask == mask for mask in rules[2][edge])


class LightIco:
    """ICO's rules on `IcoPos`, as the generic search plays a game (`legal_moves`, `apply`,
    `outcome`, `is_chance`, `info`): the three- and four-seat search runs on it, and a hard
    search takes 2.5 times less CPU than on the rules' states (bench/search_speed.py). A move
    is an edge (place and roll over it) or -1 - edge (roll without placing). `apply` trusts
    its move to be legal: only the search plays here, with moves from `legal_moves`. A test
    plays it against the rules on random games of every level and seat count."""

    info = GAME.info

    @staticmethod
    def is_chance(pos: IcoPos) -> bool:
        return False

    @staticmethod
    def legal_moves(pos: IcoPos) -> list[int]:
        if pos.winner != OPEN:
            return []
        seat = pos.to_move
        edges, place = _choices(pos.rules, pos.has[seat], pos.left[seat], pos.total,
                                pos.active)
        return list(edges) if place else [-1 - e for e in edges]

    @staticmethod
    def apply(pos: IcoPos, move: int) -> IcoPos:
        rules, seat = pos.rules, pos.to_move
        has, total, left = pos.has, pos.total, pos.left
        if move >= 0:
            edge = move
            won = _completes(rules, has[seat], edge)
            has = has[:seat] + (has[seat] | _EDGE_BITS[edge],) + has[seat + 1:]
            total = total[:edge] + (total[edge] + 1,) + total[edge + 1:]
            left = left[:seat] + (left[seat] - 1,) + left[seat + 1:]
            idle, winner = 0, seat if won else OPEN
        else:
            edge = -1 - move
            idle = pos.idle + 1
            winner = DRAWN if idle >= 2 * rules[0] else OPEN
        return IcoPos(rules, has, total, left, _ACROSS[pos.active][edge],
                      (seat + 1) % rules[0], idle, winner)

    @staticmethod
    def outcome(pos: IcoPos) -> Outcome | None:
        if pos.winner == OPEN:
            return None
        if pos.winner == DRAWN:
            return Outcome(tuple(range(pos.rules[0])), draw=True)
        return Outcome((pos.winner,))


LIGHT = LightIco()


def to_rules(move: int) -> IcoMove:
    """A light move as the rules' move."""
    return IcoMove(move, True) if move >= 0 else IcoMove(-1 - move, False)


def random_playout(game: Any, pos: IcoPos, rng: random.Random, depth: int, seats: int,
                   trace: list[int] | None = None) -> list[float]:
    """Uniformly random moves from `pos` to the end (or `depth` plies, then shared evenly):
    easy's and normal's playout with three or four seats. One `rng.random()` a ply with more
    than one move (a test replays it on the rules); `trace` as in `pattern_playout`."""
    return _play_out(pos, rng, depth, seats, False, trace)


# the share of a pattern playout's choices made at random (see pattern_playout)
WANDER = 0.25


def pattern_playout(game: Any, pos: IcoPos, rng: random.Random, depth: int, seats: int,
                    trace: list[int] | None = None) -> list[float]:
    """Moves from `pos` to the end (or `depth` plies, then shared evenly) as players who play
    for their own patterns: a seat with a choice of placements completes a pattern when it can,
    else mostly (1 - WANDER) places where one of its patterns through that edge is then nearest
    to complete, ties at random; other choices at random. Hard's playout with three or four
    seats. `trace` (a test's) gets each move played, as `LIGHT` writes it."""
    return _play_out(pos, rng, depth, seats, True, trace)


def _play_out(pos: IcoPos, rng: random.Random, depth: int, seats: int, seek: bool,
              trace: list[int] | None) -> list[float]:
    """Both playouts, on plain lists played in place, with the balance rules spelled out for
    a face's three edges (as `_choices`, which cost a quarter more of a hard search's CPU);
    `seek` chooses as `pattern_playout`, else at random."""
    if pos.winner != OPEN:
        return _rewards(pos.winner, seats)
    rules = pos.rules
    redouble, by_edge = rules[1], rules[2]
    has, total, left = list(pos.has), list(pos.total), list(pos.left)
    active, seat, idle = pos.active, pos.to_move, pos.idle
    limit = 2 * seats
    draw = rng.random
    bits, across, faces = _EDGE_BITS, _ACROSS, _FACES
    for _ in range(depth):
        a, b, c = faces[active]
        place = True
        if not left[seat]:
            pool: Any = (a, b, c)
            place = False
        else:
            mine = has[seat]
            fa, fb, fc = not mine >> a & 1, not mine >> b & 1, not mine >> c & 1
            n = fa + fb + fc
            if n == 1:
                pool = (a,) if fa else (b,) if fb else (c,)
            elif n == 2:  # the one with fewer markers, or either
                x, y = (b, c) if not fa else (a, c) if not fb else (a, b)
                tx, ty = total[x], total[y]
                pool = (x,) if tx < ty else (y,) if ty < tx else (x, y)
            elif n == 0 and not redouble:
                pool = (a, b, c)
                place = False
            else:  # all three: those with the fewest markers
                ta, tb, tc = total[a], total[b], total[c]
                fewest = min(ta, tb, tc)
                pool = [e for e, t in ((a, ta), (b, tb), (c, tc)) if t == fewest]
        if len(pool) == 1:
            edge = pool[0]
        elif not (seek and place):
            edge = pool[int(draw() * len(pool))]
        else:  # each edge by the fewest edges then missing from a pattern through it
            mine = has[seat]
            best: list[int] = []
            nearest = 99
            for e in pool:
                lacking = ~(mine | bits[e])
                missing = 99
                for mask in by_edge[e]:
                    k = (mask & lacking).bit_count()
                    if k < missing:
                        missing = k
                if missing < nearest:
                    best, nearest = [e], missing
                elif missing == nearest:
                    best.append(e)
            if nearest and draw() < WANDER:
                best = pool
            edge = best[int(draw() * len(best))] if len(best) > 1 else best[0]
        if trace is not None:
            trace.append(edge if place else -1 - edge)
        if place:
            mine = has[seat] | bits[edge]
            for mask in by_edge[edge]:
                if mine & mask == mask:
                    return _rewards(seat, seats)
            has[seat] = mine
            total[edge] += 1
            left[seat] -= 1
            idle = 0
        else:
            idle += 1
            if idle >= limit:
                return _rewards(DRAWN, seats)
        active = across[active][edge]
        seat = seat + 1 if seat + 1 < seats else 0
    return _rewards(DRAWN, seats)


def _rewards(winner: int, seats: int) -> list[float]:
    if winner == DRAWN:
        return [1.0 / seats] * seats
    return [1.0 if s == winner else 0.0 for s in range(seats)]


def winning_move(game: Any, pos: IcoPos) -> int | None:
    """A placement that completes a pattern for the seat to move, or None: the search takes
    such a position as won by that seat (`Tuning.decisive`)."""
    if pos.winner != OPEN:
        return None
    rules, seat = pos.rules, pos.to_move
    edges, place = _choices(rules, pos.has[seat], pos.left[seat], pos.total, pos.active)
    if place:
        for edge in edges:
            if _completes(rules, pos.has[seat], edge):
                return edge
    return None


# Three or four seats, hard: full playouts by players who go for their patterns, with a win
# at once taken as a win in the tree (playouts cut early and valued by how near
# each seat was to a pattern did worse: see the docstring).
MULTI_HARD = Tuning(400, playout=pattern_playout, decisive=winning_move)
# Three or four seats, easy and normal: random playouts, without the win at once
MULTI = Tuning(400, playout=random_playout)
# Three or four seats: each level's iterations are multiplied by this, so that each level
# searches well over ten times as much as the level below (see the docstring).
MULTI_BUDGET = {"easy": 0.25, "normal": 0.375, "hard": 10.0}


def _multi(decision: Decision) -> tuple[Decision, Tuning]:
    """The decision as the three- and four-seat search receives it: on the light game,
    with the level's iterations (MULTI_BUDGET) and tuning."""
    iterations = max(1, round(decision.iterations * MULTI_BUDGET[decision.level]))
    pos = IcoPos.enter(decision.position)
    # the generic search asks of its game only what LightIco answers (see its docstring)
    light = dataclasses.replace(decision, game=cast(Game, LIGHT), position=pos,
                                sampler=lambda rng: pos, legal=LIGHT.legal_moves(pos),
                                iterations=iterations)
    return light, MULTI_HARD if decision.level == "hard" else MULTI


def search(decision: Decision) -> Any:
    return estimate(decision)[0]


def estimate(decision: Decision) -> tuple[Any, list[float]]:
    """The move `search` plays and each seat's chance of winning (post-game analysis)."""
    if decision.seats != 2:
        move, chances = ismcts_estimate(*_multi(decision))
        return to_rules(move), chances
    if decision.level == "easy":
        return glance(decision)
    return alphabeta_estimate(decision, ENGINE)


# The search's own noise in a post-game analysis, per level (a smaller loss of chance is no
# mistake): `python bench/analysis_noise.py --positions 10 --seeds 3`, 2 shared cores,
# load 2 to 5 (the larger 95th percentile of two seeds' spread and of the drop after the
# move the search prefers). Hard again on a quiet machine (load 0.0 to 1.0), 20 positions:
# `python bench/analysis_noise.py --levels hard --positions 20 --seeds 3 --games ico,consequence`
# (under load the 2 s cap stops the deepening at different depths: the figure doubles or more).
KNOWLEDGE = Knowledge(TUNING, search=search, estimate=estimate,
                      noise={"easy": 0.67, "normal": 0.11, "hard": 0.07})
