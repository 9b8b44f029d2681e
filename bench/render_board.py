"""Figures for drawing one Progressive Mancala board: milliseconds and PNG bytes.

    python bench/render_board.py [--runs 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.mancala import GAME  # noqa: E402
from render import render_observation  # noqa: E402


def midgame(pits: str, seed: int = 7, plies: int = 12):
    rng = random.Random(seed)
    state = GAME.new(options={"pits": pits})
    for _ in range(plies):
        if GAME.outcome(state):
            break
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    for pits in ("11", "17"):
        view = GAME.observe(midgame(pits), None)
        render_observation(GAME.id, view, names=["Alice", "Bob"])  # warm fonts
        times, size = [], 0
        for _ in range(args.runs):
            start = time.perf_counter()
            png = render_observation(GAME.id, view, names=["Alice", "Bob"])
            times.append((time.perf_counter() - start) * 1000)
            size = len(png)
        times.sort()
        print(f"render {pits} pits: median {statistics.median(times):.2f} ms, "
              f"p99 {times[int(len(times) * 0.99) - 1]:.2f} ms, {size} bytes PNG "
              f"({args.runs} runs; target <= 10 ms)")


if __name__ == "__main__":
    main()
