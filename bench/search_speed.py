"""Think time: CPU per move of each AI level, this tree against a reference commit.

    python bench/search_speed.py [--ref b213b27] [--only ico-level-2+] [--levels normal,hard]
                                 [--positions 12] [--rounds 2]

Both trees' `games/` are loaded in one process (the reference as `games_ref`, as in
bench/engines.py) and choose a move, alternately, in the same positions (random play from
each set-up's start) with each level's own budget and no wall-clock cap. It prints each
tree's CPU p50 / p99 and the median ratio reference / now per set-up and level: what a
player waits for a move, before and after a change to a search.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ai_strength import CONFIGS  # noqa: E402
from bench.engines import load_reference  # noqa: E402


def positions(game, seats: int, options: dict, count: int, seed: int) -> list:
    """`count` positions of random play with a choice to make, as JSON (both trees read it)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new(seats, game.draw_options(options, rng))
        for _ in range(rng.randrange(60)):
            if game.outcome(state) is not None:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None and len(game.legal_moves(state)) > 1:
            found.append(game.to_json(state))
    return found


def cpu(choose, game, state, level: str, seed: int) -> float:
    began = time.process_time()
    choose(game, state, level=level, seed=seed, time_cap=None)
    return time.process_time() - began


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="b213b27", help="reference commit")
    parser.add_argument("--only", help="set-ups whose name contains this text")
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2, help="moves chosen per position")
    args = parser.parse_args(argv)
    import games
    from games.ai import choose_move

    ref = load_reference(args.ref)
    ref_ai = __import__("games_ref.ai", fromlist=["choose_move"])
    print(f"load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}, "
          f"reference {args.ref}")
    print(f"{'set-up':<34}{'level':<8}{'now p50/p99 s':>16}{'ref p50/p99 s':>16}{'ref/now':>9}")
    for config, (game_id, seats, options) in CONFIGS.items():
        if args.only and args.only not in config:
            continue
        new_game = games.get_game(game_id)
        ref_game = ref.get_game(game_id)  # type: ignore[attr-defined]
        found = positions(new_game, seats, options, args.positions, seed=len(config))
        for level in args.levels.split(","):
            now, before, ratios = [], [], []
            for i, data in enumerate(found):
                for round_ in range(args.rounds):
                    seed = 1000 * i + round_
                    a = cpu(choose_move, new_game, new_game.from_json(data), level, seed)
                    b = cpu(ref_ai.choose_move, ref_game, ref_game.from_json(data), level, seed)
                    now.append(a)
                    before.append(b)
                    ratios.append(b / max(a, 1e-6))
            print(f"{config:<34}{level:<8}"
                  f"{percentile(now, .5):>8.3f}/{percentile(now, .99):<7.3f}"
                  f"{percentile(before, .5):>8.3f}/{percentile(before, .99):<7.3f}"
                  f"{statistics.median(ratios):>8.2f}x", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
