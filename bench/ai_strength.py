"""AI strength: win rates against uniformly random play, hard against normal, think time.

    python bench/ai_strength.py [--games 20] [--levels easy,normal] [--h2h 10] [--jobs 2]
                                [--only consequence] [--h2h-configs ico-2,...] [--seed 1]
                                [--no-cap] [--log FILE] [--report FILE]

- AI against random play, per game and level. Two-player games: the AI plays half the games
  as the first seat and half as the second, and each seat's win rate is given with a 95%
  Wilson interval (a draw counts half). Three- and four-player games: one AI against random
  players, in every seat in turn; its share of wins (a shared win split) is compared with the
  fair share 1/n.
- Hard against normal: two-player games alternate the seats; with 3-4 players one hard AI
  plays against normal AIs, so its fair share is again 1/n.
- Think time: the median and 95th percentile of the wall-clock time per AI move (forced
  single moves excluded), per level, measured in the worker processes; the load average is
  printed with the figures because the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import KITS, get_game  # noqa: E402
from games.ai import choose_move  # noqa: E402


def config_name(game_id: str, label: str, count: int) -> str:
    """A kit's set-up as named on the command line: the game id, and the set-up's label when
    the kit has several ("ico-level-2-2-seats")."""
    return game_id if count == 1 else game_id + "-" + re.sub(r"[^a-z0-9+]+", "-", label.lower())


# every kit's set-ups (`Kit.setups`): name -> (game id, seats, options)
CONFIGS = {config_name(kit.id, setup.label, len(kit.setups)): (kit.id, setup.seats,
                                                               dict(setup.options))
           for kit in KITS.values() for setup in kit.setups}

# hard against normal on each kit's first set-up (ICO's is level 2: level 1 with two players
# is a win for the second seat with perfect play from every start face, `python -m
# games.ico.solve`, and both levels find it, so hard against normal at level 1 can only split
# the games by seat)
H2H_DEFAULT = tuple(config_name(kit.id, kit.setups[0].label, len(kit.setups))
                    for kit in KITS.values())


@dataclass
class Result:
    config: str
    kind: str  # "random:<level>" or "h2h"
    seat: int  # the seat of the AI under test (the hard AI in a head-to-head)
    seats: int
    share: float  # the tested seat's share of the win
    plies: int
    times: dict[str, list[float]] = field(default_factory=dict)


def play(config: str, players: tuple[str | None, ...], seed: int, tested: int,
         kind: str, cap: bool = True) -> Result:
    """One game; `players` gives each seat's level, None for uniformly random play."""
    game_id, seats, options = CONFIGS[config]
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.new(seats, game.draw_options(options, rng))
    times: dict[str, list[float]] = {}
    while game.outcome(state) is None:
        legal = game.legal_moves(state)
        seat = game.to_move(state)
        level = None if seat is None else players[seat]
        if level is None:  # the host's roll or a random player
            move = rng.choice(legal)
        else:
            began = time.perf_counter()
            move = choose_move(game, state, level=level, seed=rng.randrange(2**32),
                               time_cap=-1.0 if cap else None)
            if len(legal) > 1:
                times.setdefault(level, []).append(time.perf_counter() - began)
        state = game.apply(state, move)
    outcome = game.outcome(state)
    assert outcome is not None
    share = 1 / len(outcome.winners) if tested in outcome.winners else 0.0
    return Result(config, kind, tested, len(players), share, game.ply(state), times)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def tasks(args) -> list[tuple]:
    out = []
    seed = args.seed
    for config in CONFIGS:
        if args.only and not any(config == o or (o not in CONFIGS and o in config)
                                 for o in args.only):
            continue
        n = CONFIGS[config][1]
        for level in args.levels:
            for i in range(args.games):
                seat = i % n
                players = tuple(level if s == seat else None for s in range(n))
                seed += 1
                out.append((config, players, seed, seat, f"random:{level}"))
        for i in range(args.h2h if config in args.h2h_configs else 0):
            seat = i % n
            players = tuple("hard" if s == seat else "normal" for s in range(n))
            seed += 1
            out.append((config, players, seed, seat, "h2h"))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(results: list[Result], levels: list[str]) -> None:
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    times: dict[str, list[float]] = {}
    for config in CONFIGS:
        mine = [r for r in results if r.config == config]
        if not mine:
            continue
        n = mine[0].seats
        print(f"\n{config} ({n} players)")
        for kind in [f"random:{lv}" for lv in levels] + ["h2h"]:
            rows = [r for r in mine if r.kind == kind]
            if not rows:
                continue
            label = ("hard vs normal" if kind == "h2h" else f"{kind[7:]} vs random")
            if n == 2:
                parts = []
                for seat in (0, 1):
                    seat_rows = [r for r in rows if r.seat == seat]
                    won = sum(r.share for r in seat_rows)
                    lo, hi = wilson(won, len(seat_rows))
                    parts.append(f"as seat {seat + 1}: {won:g}/{len(seat_rows)} = "
                                 f"{won / max(1, len(seat_rows)):.0%} [{lo:.0%}, {hi:.0%}]")
                total = sum(r.share for r in rows)
                lo, hi = wilson(total, len(rows))
                line = "; ".join(parts) + f"; all {total / len(rows):.0%} [{lo:.0%}, {hi:.0%}]"
            else:
                won = sum(r.share for r in rows)
                lo, hi = wilson(won, len(rows))
                line = (f"share {won:g}/{len(rows)} = {won / len(rows):.0%} [{lo:.0%}, {hi:.0%}]"
                        f", fair share {1 / n:.0%} ({won / len(rows) * n:.1f}x)")
            print(f"  {label:<18} {line}")
        for r in mine:
            for level, values in r.times.items():
                times.setdefault(level, []).extend(values)
                times.setdefault(f"{level}@{config}", []).extend(values)
        for level in ("easy", "normal", "hard"):
            values = times.get(f"{level}@{config}", [])
            if values:
                print(f"  think time {level:<7} median {statistics.median(values):.2f} s, "
                      f"p95 {pct(values, 0.95):.2f} s, max {max(values):.2f} s "
                      f"({len(values)} moves)")
    print("\nthink time per move, all games:")
    for level in ("easy", "normal", "hard"):
        values = times.get(level, [])
        if values:
            print(f"  {level:<7} median {statistics.median(values):.2f} s, p95 "
                  f"{pct(values, 0.95):.2f} s, max {max(values):.2f} s ({len(values)} moves)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game and level")
    parser.add_argument("--levels", default="easy,normal",
                        help="levels to test against random play")
    parser.add_argument("--h2h", type=int, default=10, help="hard-vs-normal games per game")
    parser.add_argument("--h2h-configs", default=",".join(H2H_DEFAULT),
                        help="configurations for hard vs normal (default: each game's first)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="comma-separated configurations (a name, or a part "
                        "of names)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cap", action="store_true",
                        help="search the levels' whole budgets, without their time caps (to "
                        "compare strength apart from the machine's speed of the moment)")
    parser.add_argument("--log", help="append each game's result here as a JSON line")
    parser.add_argument("--report", help="only report the results logged in this file")
    args = parser.parse_args(argv)
    args.levels = [lv for lv in args.levels.split(",") if lv]
    args.h2h_configs = [c for c in args.h2h_configs.split(",") if c]
    args.only = [o for o in (args.only or "").split(",") if o]
    if args.report:
        with open(args.report, encoding="utf-8") as handle:
            logged = [Result(**json.loads(line)) for line in handle if line.strip()]
        report(logged, sorted({r.kind[7:] for r in logged if r.kind != "h2h"},
                              key=["easy", "normal", "hard"].index))
        return 0
    work = tasks(args)
    load = os.getloadavg()
    print(f"{len(work)} games on {args.jobs} processes; load average {load[0]:.2f} "
          f"{load[1]:.2f} {load[2]:.2f}", flush=True)
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
                print(f"  {done}/{len(work)} games, {time.perf_counter() - began:.0f} s",
                      file=sys.stderr, flush=True)
    report(results, args.levels)
    print(f"\n{len(work)} games in {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
