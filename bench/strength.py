"""AI strength against classical baselines: each level against random, greedy and alpha-beta.

    python bench/strength.py [--pairs hard:ab4,hard:ab6,...] [--only mancala-11,...]
                             [--games 43] [--jobs 2] [--seed 1] [--no-cap] [--log FILE]
                             [--report FILE]

Opponents (written here, not in the AI's code, so that the AI is measured against something it
does not share code with, beyond the rules, the kits' tested fast engines and each kit's plain
material, `Kit.baseline`: a `games.search.Baseline`, whose module says what it counts and why):

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

Plain material (each kit's `baseline` module): Progressive Mancala, my store minus yours;
Pastoral Square, my stones on the board minus yours; ICO, progress towards the level's winning
patterns against the best other seat's and, with two seats, the threats at the black face;
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
from games.search import Baseline, hands_over_a_win  # noqa: E402

LEVEL_NAMES = tuple(LEVELS)


def two_player_pi(config: str) -> bool:
    """Whether a set-up is a two-player game of perfect information without chance whose kit
    counts a plain material: where the alpha-beta baselines play."""
    game_id, seats, _ = CONFIGS[config]
    info = get_game(game_id).info
    return seats == 2 and not info.hidden_information and not info.chance and \
        get_kit(game_id).baseline is not None


TWO_PLAYER_PI = tuple(c for c in CONFIGS if two_player_pi(c))
MULTI = tuple(c for c in CONFIGS if not two_player_pi(c))  # 3-4 seats, chance, hidden tiles
DEFAULT_PAIRS = ("easy:random", "easy:greedy", "normal:greedy", "normal:ab2", "hard:ab4",
                 "hard:ab6")
MULTI_PAIRS = ("easy:random", "easy:greedy", "normal:greedy", "normal:easy", "hard:normal")


# -- plain material, from each game's kit ----------------------------------------------------
@functools.cache
def baseline(game_id: str) -> Baseline | None:
    """The kit's plain material for the classical opponents (`Kit.baseline`), or None."""
    path = get_kit(game_id).baseline
    return None if path is None else importlib.import_module(path).BASELINE


def material(game_id: str, state: Any, seat: int) -> float:
    """The game's plain material for `seat` on a rules state (0 where the kit counts none)."""
    known = baseline(game_id)
    return 0.0 if known is None else known.material(state, seat)


def engine_material(game_id: str, s: Any) -> float:
    """The plain material for seat 0 on a kit engine's position."""
    known = baseline(game_id)
    if known is not None and known.engine_material is not None:
        return known.engine_material(s)
    return material(game_id, s, 0)


_NOTHING = object()  # no move (None is one: a move of some games, such as a save)


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
    known = baseline(game.id)
    if known is not None and known.starved is not None and known.starved(after, seat):
        return True
    return hands_over_a_win(game, after, seat)


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
        known = baseline(game_id)
        self.learn = known is not None and known.learn  # killers and history order moves
        self.last_ply = None if known is None else known.last_ply

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
        if depth == 1 and self.last_ply is not None and \
                (last := self.last_ply(e, s, alpha, beta)) is not None:
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
