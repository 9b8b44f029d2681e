"""AI strength against classical baselines: each level against random, greedy and alpha-beta.

    python bench/strength.py [--pairs hard:ab4,hard:ab6,...] [--only mancala-11,...]
                             [--games 43] [--jobs 2] [--seed 1] [--no-cap] [--log FILE]
                             [--report FILE]

Opponents (written here, not in `games/`, so that the AI is measured against something it does
not share code with, beyond the rules and the kits' tested fast engines):

- `random`: a uniformly random legal move.
- `greedy`: one ply: a move that wins at once, else, of the moves that are no blunder, the one
  whose position scores best on the game's plain material (below), ties broken at random (if
  every move is a blunder, the best of them). A blunder, in a two-player game with perfect
  information, is a move after which the opponent has a reply that wins at once (in Pastoral
  Square that includes the mover's own pick-up failure, which follows the reply). In Pastoral
  Square it is also a move that leaves the mover fewer than 5 stones held and in stock: the
  pick-ups stop at 5 held, so with fewer the mover fails a pick-up however it saves (unless a
  mutilation gives stones back). Why: a greedy player without these checks is no baseline. In
  Pastoral Square, maximising the stones on the board spends the stock and loses on pick-up
  failure (greedy:random was 35%, 22-50%, in 43 games); in two-player ICO, the balance rules
  leave one to three moves, nearly always equal in edges held, so greedy was random play
  (44% and 60% in 43 games). Both checks look at the opponent's one reply or at arithmetic on
  the position, not at the game tree: greedy stays the player who sees one move ahead and
  does not hand over the game. With them greedy:random is 86% (81-90%) in Pastoral Square
  and 100% in Progressive Mancala; in two-seat ICO, with the material below, 79% (77-81%) at
  level 2 and 81% (79-83%) at level 1 (2,000 games each; 70% and 71% with progress alone).
- `ab2`, `ab4`, `ab6` (two-player perfect-information games): fixed-depth alpha-beta, valued
  by the plain material at the leaves and by the result at the end of the game, ties broken
  at random among the root moves of the best value. It walks the kit's engine
  (`games.<kit>.ai.ENGINE`), which the tests play against the rules, for its moves. A
  transposition table (keyed on the position and the depth left) and move ordering (the
  table's best move first; in Pastoral Square also killers and history), and in Pastoral
  Square a last ply settled by arithmetic on the stones (a floor and a ceiling, and the moves
  that only add stones not played), change what it cuts, not what it computes: the root
  value and the set of best moves are those of plain minimax at that depth
  (tests/test_bench_strength.py). Why: without them depth 6 cost 2.6-69 s of CPU a move (mean
  17 s) on ten mid-game Pastoral Square positions, too slow for 43 games; now at most 6 s (mean
  2.3 s). Elsewhere depth 6 costs under 0.1 s a move either way.
- `easy`, `normal`, `hard`: the AI's levels, for the 3-4 player games and Consequence.

Plain material: Progressive Mancala, my store minus yours; Pastoral Square, my stones on the
board minus yours; ICO, progress: over the level's winning patterns (faces, belts or big
triangles, from the rules' tables) the sum of the squares of the edges holding my colour in
each, minus the most any other seat has (every edge counts, one towards a nearly full pattern
most); with two seats, also the threats at the black face (`ico_tempo`): 1000 times the
share of the mover's allowed edges that roll the face to where the other seat completes a
pattern at once (against the mover), and at levels 2 and 2+ the most the mover's placement
there adds to its progress (for the mover). Why: the balance rules leave one to three moves a
turn, nearly alike in progress; what a move decides is where the black face goes, so a
player who looks one move ahead judges the face it leaves the opponent. A pattern is never
dead in ICO (an edge takes one marker of every colour), so there is nothing to discount.
Measured (greedy:random, 1,000 games a figure): threats raise level 1 from 71% to 81% and
level 2 from 70% to 75-76%, the mover's gain level 2 to 77-81%; at level 1 it lowers 81% to
78% (a seat's own edges around the face force its later moves), so it is left out there.
Nothing one-ply did better: 150 random weightings of 13 such features (threat counts, faces
where a seat wins or is stuck, the mover's choices) stayed at or under 78% at level 1;
a move-deeper blunder check makes 74% / 82% (levels 2 / 1), plain ab4 82% / 87% (200 games
each, progress alone).
Ghostone, my escaped score minus the best other; Consequence, none before the count (scores are
hidden until then), so greedy there only takes an immediate win.

Two-player games alternate the seats; with 3-4 seats the tested level takes each seat in turn
and the others are the opponent. A draw counts half. Each row prints the win rate (share of the
win), its 95% Wilson interval, and the tested level's think time per move (p50/p99, forced moves
excluded; wall clock, then the process's CPU time, which is what one core of its own would
take), with the load average at the start and end of the run: the machine may be shared.
43 games give an interval no wider than +-15 points.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import math
import operator
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ai_strength import CONFIGS, pct, wilson  # noqa: E402
from games import GameError, get_game, get_kit  # noqa: E402
from games.ai import LEVELS, choose_move, sampler_for  # noqa: E402
from games.ico import game as ico_rules  # noqa: E402
from games.pastoral import ai as pastoral_ai  # noqa: E402
from games.pastoral import game as pastoral_rules  # noqa: E402

LEVEL_NAMES = tuple(LEVELS)
TWO_PLAYER_PI = ("progressive-mancala-11-pits", "progressive-mancala-17-pits", "pastoral-square",
                 "ico-level-2-2-seats", "ico-level-1-2-seats")
DEFAULT_PAIRS = ("easy:random", "easy:greedy", "normal:greedy", "normal:ab2", "hard:ab4",
                 "hard:ab6")
MULTI = ("ico-level-1+-3-seats", "ico-level-2-3-seats", "ico-level-2+-antipodal-4-seats",
         "ghostone-3-seats", "ghostone-4-seats", "consequence")
MULTI_PAIRS = ("easy:random", "easy:greedy", "normal:greedy", "normal:easy", "hard:normal")


# -- plain material, per game ---------------------------------------------------------------
def material(game_id: str, state: Any, seat: int) -> float:
    """The game's plain material for `seat` on a rules state (see the docstring)."""
    if game_id == "progressive-mancala":
        return state.scores[seat] - state.scores[1 - seat]
    if game_id == "pastoral-square":
        return sum(n for o, n in zip(state.owner, state.count, strict=True) if o == seat) - \
            sum(n for o, n in zip(state.owner, state.count, strict=True) if o == 1 - seat)
    if game_id == "ico":
        return ico_material(state, seat)
    if game_id == "ghostone":
        scores = get_game(game_id).scores(state)
        return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)
    return 0.0


@functools.cache
def ico_patterns(level: str, antipodal: bool) -> tuple[frozenset[int], ...]:
    """The edge sets a seat must fill to win at `level` (the rules' tables)."""
    faces = [frozenset(edges) for edges in ico_rules.FACE_EDGES]
    if level == "1":
        return tuple(faces)
    if level == "1+":
        return tuple(f | faces[ico_rules.ANTIPODE[i]] for i, f in enumerate(faces))
    if level == "2":
        return tuple(frozenset(belt) for belt in ico_rules.BELTS.values())
    big = [frozenset(outer) for outer in ico_rules.BIG_TRIANGLES]
    if not antipodal:
        return tuple(big)
    return tuple(b | big[ico_rules.ANTIPODE[i]] for i, b in enumerate(big))


def ico_progress(state: Any, seat: int) -> int:
    """Over the level's winning patterns, the sum of the squares of the edges holding `seat`'s
    colour in each: every edge counts, one towards a nearly full pattern most."""
    mine = {e for e, counts in enumerate(state.markers) if counts[seat]}
    return sum(len(mine & p) ** 2 for p in ico_patterns(state.level, state.antipodal))


# two-seat ICO: a move of the mover's that hands the other a win at once weighs this much
# (times the share of the mover's moves that do); the most the mover's next placement adds to
# its own progress weighs ICO_GAIN
ICO_THREAT = 1000.0
ICO_GAIN = 1.0


def ico_material(state: Any, seat: int) -> float:
    """ICO's plain material for `seat` (see the docstring): progress towards the patterns,
    and with two seats what the black face offers the seat to move on it."""
    near = [ico_progress(state, s) for s in range(state.seats)]
    value = float(near[seat] - max(h for s, h in enumerate(near) if s != seat))
    if state.seats == 2:
        value += ico_tempo(state, seat)
    return value


def ico_tempo(state: Any, seat: int) -> float:
    """Two seats: the threats at the black face, for `seat`. The seat to move must roll the
    face over one of the edges the balance rules allow it; each edge that sends the face to
    where the other seat completes a pattern at once is a threat it must step round (all of
    them: it is lost), and in levels 2 and 2+ the most its own placement there adds to its
    progress counts for it (in level 1 that figure misled: ICO_GAIN measured in the
    docstring)."""
    game = ico_rules.GAME
    if game.outcome(state) is not None:
        return 0.0
    mover = state.to_move
    sign = 1.0 if mover == seat else -1.0
    moves = game.legal_moves(state)
    handed = sum(blunder(game, game.apply(state, move), mover) for move in moves)
    value = -ICO_THREAT * handed / len(moves)
    if state.level in ("2", "2+") and moves[0].place:
        before = ico_progress(state, mover)
        value += ICO_GAIN * max(ico_progress(game.apply(state, move), mover) - before
                                for move in moves)
    return sign * value


def pastoral_starves(state: Any, seat: int) -> bool:
    """Whether `seat` is bound to fail a pick-up even if it saves from now on: the pick-ups
    stop at 5 held stones, so it survives only with held + stock >= 5 (the opponent's
    mutilations, which can only give stones back, are not looked at)."""
    return state.held[seat] + state.stock[seat] < pastoral_rules.MAX_STACK


def engine_material(game_id: str, s: Any) -> float:
    """The plain material for seat 0 on a kit engine's position."""
    if game_id == "progressive-mancala":
        return s[2] - s[3]
    if game_id == "pastoral-square":
        # the alpha-beta's leaves: in C, not a loop over the 64 cells (a third of its time).
        # An empty cell holds no stones, so owner * count adds up seat 1's stones
        return sum(s[1]) - 2 * sum(map(operator.mul, s[0], s[1]))
    return material(game_id, s, 0)


_NOTHING = object()  # no move (None is one: Pastoral Square's save)


# Pastoral Square's last ply for the alpha-beta baseline, by arithmetic. When the opponent's
# next pick-up is safe, a placement on the corral adds its stones to the mover's material (or
# makes a bingo, worth more); a move that can neither make a bingo nor mutilate does just
# that; a mutilation gains at most the opponent's stones it may take. So the corral gives a
# floor and these a ceiling, which settle most last plies without generating the moves, and
# the moves that only add stones need not be played. That last ply was nearly all of a depth-6
# search's time. The tests check the values against plain minimax.
_PASTORAL_SQUARES_AT = tuple(tuple(pair for sq in pastoral_rules.SQUARES if sq.a == cell
                                    for pair in ((sq.b, sq.c), (sq.c, sq.b)))
                              for cell in range(64))
_PASTORAL_CORRAL = tuple((cell, pastoral_rules.VALUE[cell])
                         for cell in sorted(pastoral_rules.CORRAL))


def pastoral_last_ply(e: Any, s: Any, alpha: float, beta: float) -> float | None:
    """The value for its mover of a Pastoral Square engine position (not over) searched one
    ply: exact within (alpha, beta), else a bound on the same side (fail-soft); None when
    the moves' own play is simpler (the opponent's next pick-up fails: every move wins)."""
    owner, count, held, stock, seat, blocked, _ = s
    other = 1 - seat
    if stock[other] < pastoral_rules.required_pickup(held[other]):
        return None
    sign = 1 if seat == 0 else -1
    base = engine_material("pastoral-square", s) * sign
    if base >= beta:
        return base  # saving (always legal) keeps it, and no more is asked
    hand, empty, most = held[seat], pastoral_rules.EMPTY, pastoral_rules.MAX_STACK
    floor = base
    for cell, stones in _PASTORAL_CORRAL:
        who = owner[cell]
        if who == empty:
            n = stones if stones <= hand and cell not in blocked else 0
        else:
            n = min(hand, most - count[cell]) if who == seat else 0
        if base + n > floor:
            floor = base + n
    if floor >= beta:
        return floor
    # the cattle cells X of a square whose A is the opponent's and whose Y is the mover's,
    # where a move may mutilate, with the opponent's stones it would take at most
    takes: dict[int, int] = {}
    for a in range(64):
        if owner[a] == other:
            for x, y in _PASTORAL_SQUARES_AT[a]:
                if owner[y] == seat:
                    takes[x] = takes.get(x, 0) + count[a]
    if pastoral_ai.win(owner, count, hand, blocked, seat) is None:
        ceiling = base + max(min(hand, most), max(takes.values(), default=0))
        if ceiling <= alpha:
            return ceiling
    # the cells where a move may do more than add stones: a line's third cell (a bingo),
    # a mutilation's X
    risky = set(takes)
    for line in pastoral_rules.LINES:
        if (owner[line[0]] == seat) + (owner[line[1]] == seat) + (owner[line[2]] == seat) >= 2:
            risky.update(line)
    best = -math.inf
    played = []
    for move in e.moves(s):
        if move is None:
            v = base
        elif move[0] in risky:
            played.append(move)
            continue
        else:
            v = base + move[1]
        if v > best:
            best = v
            if v >= beta:
                return v
    for move in played:
        child = e.play(s, move)
        if child is None:
            continue
        r = e.result(child)
        v = 1000.0 * r * sign if r is not None else \
            engine_material("pastoral-square", child) * sign
        if v > best:
            best = v
            if v >= beta:
                return v
    return best


# -- the baselines -------------------------------------------------------------------------
def greedy_move(game: Any, state: Any, rng: random.Random) -> Any:
    """One ply (see the docstring): a win at once, else the best plain material among the
    moves that are no blunder, ties at random."""
    seat = game.to_move(state)
    legal = game.legal_moves(state)
    best, best_value = [], -math.inf
    blunders, worst_value = [], -math.inf
    # what the seat sees: with hidden information a deal consistent with its observation
    base = sampler_for(game, state, seat)(rng) if game.info.hidden_information else state
    for move in legal:
        try:
            after = game.apply(base, move)
        except GameError:  # a sampled deal may refuse a move: skip it
            continue
        outcome = game.outcome(after)
        if outcome is not None and seat in outcome.winners and len(outcome.winners) == 1:
            return move
        value = material(game.id, after, seat)
        if blunder(game, after, seat):
            if value > worst_value:
                blunders, worst_value = [move], value
            elif value == worst_value:
                blunders.append(move)
        elif value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best or blunders or legal)


def blunder(game: Any, after: Any, seat: int) -> bool:
    """Whether the position `seat`'s move led to loses at once (two-player games with
    perfect information): the opponent has a reply that wins (in Pastoral Square, also
    by `seat`'s failed pick-up), or, in Pastoral Square, `seat` has starved itself."""
    if game.id == "pastoral-square" and pastoral_starves(after, seat):
        return True
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


class PlainAlphaBeta:
    """Fixed-depth alpha-beta, material at the leaves. Its transposition table and move
    ordering choose only what is cut, not the values (tests/test_bench_strength.py checks
    them against plain minimax): they and a lean last ply make depth 6 affordable."""

    EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is: exact, a floor, a ceiling

    def __init__(self, game_id: str, depth: int, rng: random.Random):
        self.e = importlib.import_module(str(get_kit(game_id).ai)).ENGINE
        self.game_id = game_id
        self.depth = depth
        self.rng = rng
        # (engine key, depth left) -> (value, kind): a value depends on the depth left, so an
        # entry answers only a search to that same depth
        self.table: dict[tuple[Any, int], tuple[float, int]] = {}
        self.best: dict[Any, Any] = {}  # engine key -> the move that was best there last
        self.killers: dict[int, list[Any]] = {}  # depth left -> the last two moves that cut
        # per mover, move -> how much it has cut (depth left squared each time)
        self.history: tuple[Counter[Any], Counter[Any]] = (Counter(), Counter())
        self.learn = game_id == "pastoral-square"  # whether killers and history order moves

    def child(self, child: Any, mover: int, depth: int, alpha: float, beta: float) -> float:
        """The value for `mover` of the position its move led to."""
        e = self.e
        result = e.result(child)
        if result is not None:
            return 1000.0 * result * (1 if mover == 0 else -1)
        if depth == 0:
            return engine_material(self.game_id, child) * (1 if mover == 0 else -1)
        if e.mover(child) == mover:
            return self.value(child, depth, alpha, beta)
        return -self.value(child, depth, -beta, -alpha)

    def ordered(self, s: Any, key: Any, depth: int, mover: int) -> list[Any]:
        """The moves of `s`, likeliest to cut first: the one that was best here last, then
        in Pastoral Square the killers of this depth and the rest by history, elsewhere in
        the engine's order. (A Progressive Mancala move is a pit, whose seeds change from
        one position to the next, so killers and history only spoiled the engine's order
        there: captures first. Sorting by one-ply material, or iterative deepening for the
        order, cost more than they saved in Pastoral Square: nearly every cut comes at the
        first move already.)"""
        moves = self.e.moves(s)
        if len(moves) < 2:
            return moves
        first = self.best.get(key, _NOTHING)
        if self.learn:
            moves.sort(key=self.history[mover].__getitem__, reverse=True)
            front = [m for m in (first, *self.killers.get(depth, ())) if m in moves]
        elif first is _NOTHING:
            return moves
        else:
            front = [first]
        return front + [m for m in moves if m not in front]

    def value(self, s: Any, depth: int, alpha: float, beta: float) -> float:
        """The value of `s` (not over) for its mover, searched `depth` plies: exact strictly
        within (alpha, beta), else a bound on the same side (fail-soft)."""
        e = self.e
        key = (e.key(s), depth)
        hit = self.table.get(key)
        if hit is not None:
            v, kind = hit
            if kind == self.EXACT or kind == self.LOWER and v >= beta or \
                    kind == self.UPPER and v <= alpha:
                return v
        mover = e.mover(s)
        floor = alpha
        best, best_move = -math.inf, _NOTHING
        if depth == 1 and self.game_id == "pastoral-square" and \
                (last := pastoral_last_ply(e, s, alpha, beta)) is not None:
            # (saving is always legal there: never without a move)
            kind = self.LOWER if last >= beta else self.UPPER if last <= alpha else self.EXACT
            self.table[key] = (last, kind)
            return last
        if depth == 1:
            # the last ply, where nearly all the time goes: the children's results or
            # material, inline
            play, result, game_id = e.play, e.result, self.game_id
            sign = 1 if mover == 0 else -1
            for move in self.ordered(s, key[0], 1, mover):
                child = play(s, move)
                if child is None:
                    continue
                r = result(child)
                v = 1000.0 * r * sign if r is not None else \
                    engine_material(game_id, child) * sign
                if v > best:
                    best, best_move = v, move
                    if v >= beta:
                        break
        else:
            for move in self.ordered(s, key[0], depth, mover):
                child = e.play(s, move)
                if child is None:
                    continue
                v = self.child(child, mover, depth - 1, max(alpha, best), beta)
                if v > best:
                    best, best_move = v, move
                    if v >= beta:
                        break
        if best == -math.inf:  # no legal move (the rules end such a game first)
            self.table[key] = (0.0, self.EXACT)
            return 0.0
        if best >= beta and self.learn:
            self.history[mover][best_move] += depth * depth
            killers = self.killers.setdefault(depth, [])
            if best_move not in killers:
                killers.insert(0, best_move)
                del killers[2:]
        kind = self.UPPER if best <= floor else self.LOWER if best >= beta else self.EXACT
        self.table[key] = (best, kind)
        self.best[key[0]] = best_move
        return best

    def choose(self, game: Any, state: Any) -> Any:
        top, scored = self.root(state)
        move = self.rng.choice([m for v, m in scored if v == top])
        return self.e.to_rules(move)

    def root(self, state: Any) -> tuple[float, list[tuple[float, Any]]]:
        """The root's value and its (value, engine move) pairs: exact for the moves of the
        best value, a ceiling under it for the others."""
        e = self.e
        s = e.enter(state)
        mover = e.mover(s)
        scored: list[tuple[float, Any]] = []
        top = -math.inf
        for move in e.moves(s):
            child = e.play(s, move)
            if child is None:
                continue
            # material is whole: a window from just under the best so far gives the exact
            # value of every move as good as it (for the tie-break) and prunes the others
            v = self.child(child, mover, self.depth - 1, top - 0.5, math.inf)
            scored.append((v, move))
            top = max(top, v)
        return top, scored


# -- one game -------------------------------------------------------------------------------
@dataclass
class Result:
    config: str
    tested: str
    opponent: str
    seat: int
    seats: int
    share: float
    plies: int
    times: list[float] = field(default_factory=list)  # wall-clock seconds per move
    cpu: list[float] = field(default_factory=list)  # the process's CPU seconds per move


def play(config: str, tested: str, opponent: str, seat: int, seed: int,
         cap: bool = True) -> Result:
    game_id, seats, options = CONFIGS[config]
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.new(seats, game.draw_options(options, rng))
    times: list[float] = []
    cpu: list[float] = []
    while game.outcome(state) is None:
        legal = game.legal_moves(state)
        mover = game.to_move(state)
        who = None if mover is None else tested if mover == seat else opponent
        began, began_cpu = time.perf_counter(), time.process_time()
        if who is None or who == "random" or len(legal) == 1:
            move = rng.choice(legal)
        elif who == "greedy":
            move = greedy_move(game, state, rng)
        elif who.startswith("ab"):
            move = PlainAlphaBeta(game_id, int(who[2:]), rng).choose(game, state)
        else:
            move = choose_move(game, state, level=who, seed=rng.randrange(2**32),
                               time_cap=-1.0 if cap else None)
            if mover == seat and len(legal) > 1:
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - began_cpu)
        state = game.apply(state, move)
    outcome = game.outcome(state)
    assert outcome is not None
    share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    return Result(config, tested, opponent, seat, seats, share, game.ply(state), times, cpu)


def tasks(pairs: list[str], configs: list[str], games: int, seed: int) -> list[tuple]:
    out = []
    for config in configs:
        seats = CONFIGS[config][1]
        for pair in pairs:
            tested, opponent = pair.split(":")
            for i in range(games):
                seed += 1
                out.append((config, tested, opponent, i % seats, seed))
    return out


def report(results: list[Result], load: str) -> None:
    print(f"\n{'game':<32}{'level':<8}{'vs':<8}{'games':>6}{'win':>7}  {'95% Wilson':<13}"
          f"{'p50 s':>7}{'p99 s':>7}{'cpu p50':>8}{'p99':>6}  fair")
    seen: dict[tuple, list[Result]] = {}
    for r in results:
        seen.setdefault((r.config, r.tested, r.opponent), []).append(r)
    for (config, tested, opponent), rows in seen.items():
        won = sum(r.share for r in rows)
        lo, hi = wilson(won, len(rows))
        times = [t for r in rows for t in r.times]
        p50 = pct(times, 0.5) if times else float("nan")
        p99 = pct(times, 0.99) if times else float("nan")
        cpu = [t for r in rows for t in r.cpu]
        c50 = pct(cpu, 0.5) if cpu else float("nan")
        c99 = pct(cpu, 0.99) if cpu else float("nan")
        print(f"{config:<32}{tested:<8}{opponent:<8}{len(rows):>6}{won / len(rows):>7.0%}  "
              f"[{lo:.0%}, {hi:.0%}]{'':<3}{p50:>7.2f}{p99:>7.2f}{c50:>8.2f}{c99:>6.2f}  "
              f"{1 / rows[0].seats:.0%}")
    print(f"\n{load}")


def loadavg() -> str:
    a, b, c = os.getloadavg()
    return f"{a:.2f} {b:.2f} {c:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", help="tested:opponent,... (default: the two-player set for "
                        "two-player games, the level ladder for the others)")
    parser.add_argument("--only", help="comma-separated configurations (default: every "
                        "two-player perfect-information one)")
    parser.add_argument("--games", type=int, default=43, help="games per pair and game")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cap", action="store_true",
                        help="search the levels' whole budgets, without their wall-clock caps "
                        "(on a loaded machine a cap cuts searches that one free core would "
                        "finish; the CPU times tell what one core takes)")
    parser.add_argument("--log", help="append each game's result here as a JSON line")
    parser.add_argument("--report", help="only report the results logged in this file")
    args = parser.parse_args(argv)
    if args.report:
        with open(args.report, encoding="utf-8") as handle:
            logged = [Result(**json.loads(line)) for line in handle if line.strip()]
        report(logged, f"(logged results; load average now {loadavg()})")
        return 0
    configs = [c for c in (args.only or ",".join(TWO_PLAYER_PI)).split(",") if c]
    for config in configs:
        if config not in CONFIGS:
            parser.error(f"unknown configuration {config}: {', '.join(CONFIGS)}")
    work = []
    for config in configs:
        default = DEFAULT_PAIRS if config in TWO_PLAYER_PI else MULTI_PAIRS
        pairs = [p for p in (args.pairs or ",".join(default)).split(",") if p]
        work += tasks(pairs, [config], args.games, args.seed + len(work))
    start = loadavg()
    print(f"{len(work)} games on {args.jobs} processes{', no caps' if args.no_cap else ''}; "
          f"load average {start}", flush=True)
    results: list[Result] = []
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(play, *task, cap=not args.no_cap) for task in work]
        for done, future in enumerate(futures, 1):
            results.append(future.result())
            if args.log:
                with open(args.log, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(asdict(results[-1])) + "\n")
            if done % 10 == 0:
                print(f"  {done}/{len(work)} games, {time.perf_counter() - began:.0f} s, "
                      f"load {loadavg()}", file=sys.stderr, flush=True)
    report(results, f"load average at the start {start}, at the end {loadavg()}; "
           f"{time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
