"""What a post-game analysis costs: the time to judge one position at each AI level, per
game, as the bot's analysis worker does it (`games.analysis.judge_job`, one position per
call), and what a whole match of a typical length takes.

    python bench/analysis.py [--levels easy,normal,hard] [--positions 10] [--seed 1]

Each kit's set-ups (`Kit.setups`: board sizes, seat counts, levels) play one random match
(seeded) and judge its first `--positions` positions at each level; it prints per set-up and
level the median and the worst time per position (wall clock and the process's CPU time), and
the wall time a 60-position match would take at the median, with the load average at the start
and end (the machine may be shared). The bot runs these searches in one worker process at a
lower CPU priority, one position at a time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import KITS, get_game
from games.analysis import judge_job

CONFIGS = tuple((kit.id, setup.label, setup.seats, dict(setup.options))
                for kit in KITS.values() for setup in kit.setups)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load at start: {os.getloadavg()[0]:.2f}")
    print(f"{'game':<40}{'level':<8}{'p50 s':>8}{'max s':>8}{'cpu p50':>9}{'60 moves':>10}")
    for game_id, label, seats, options in CONFIGS:
        game = get_game(game_id)
        rng = random.Random(args.seed)
        options = game.draw_options(options, rng)  # a start face drawn as the host does
        state = game.new(seats, options)
        entries: list[list[str]] = []
        while game.outcome(state) is None and len(entries) < args.positions:
            notation = rng.choice(game.legal_notations(state))
            entries.append(["move", notation])
            state = game.play(state, notation)
        for level in args.levels.split(","):
            walls, cpus = [], []
            for index in range(len(entries)):
                wall, cpu = time.perf_counter(), time.process_time()
                judge_job(game_id, seats, options, entries, index, level, args.seed + index)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            name = f"{game_id} ({label})"
            p50 = statistics.median(walls)
            print(f"{name:<40}{level:<8}{p50:>8.2f}{max(walls):>8.2f}"
                  f"{statistics.median(cpus):>9.2f}{p50 * 60:>9.0f}s", flush=True)
    print(f"load at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
