"""Figures for drawing one board of each game with a picture: milliseconds and PNG bytes.

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

from games import REGISTRY  # noqa: E402
from render import render_observation  # noqa: E402


def midgame(game, options, seed: int = 7, plies: int = 30):
    """A position some random moves in (the last one shown on the picture)."""
    rng = random.Random(seed)
    state = game.new(game.info.min_seats, game.draw_options(options, rng))
    for _ in range(plies):
        if game.outcome(state):
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return state


CASES = (
    ("progressive-mancala", {"pits": "11"}, "11 pits"),
    ("progressive-mancala", {"pits": "17"}, "17 pits"),
    ("pastoral-square", {}, "8x8"),
    ("consequence", {}, "4x4 public"),
    ("ghostone", {}, "4x4, 3 seats"),
    ("ico", {"level": "2"}, "level 2, 2 seats"),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    for game_id, options, label in CASES:
        game = REGISTRY[game_id]
        view = game.observe(midgame(game, options), None)
        render_observation(game_id, view, names=["Alice", "Bob"])  # warm fonts and layers
        times, size = [], 0
        for _ in range(args.runs):
            start = time.perf_counter()
            png = render_observation(game_id, view, names=["Alice", "Bob"])
            times.append((time.perf_counter() - start) * 1000)
            size = len(png)
        times.sort()
        print(f"render {game_id} {label}: median {statistics.median(times):.2f} ms, "
              f"p99 {times[int(len(times) * 0.99) - 1]:.2f} ms, {size} bytes PNG "
              f"({args.runs} runs; target <= 10 ms)")


if __name__ == "__main__":
    main()
