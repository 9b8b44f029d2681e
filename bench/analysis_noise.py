"""The search's own noise in a post-game analysis, per AI level: how far apart the search's
estimates of the mover's chance of winning fall where nothing was lost, which is the threshold
below which an analysis does not call a move a mistake (`games.analysis.NOISE`).

    python bench/analysis_noise.py [--levels easy,normal,hard] [--positions 10] [--seeds 3]
        [--games ico,consequence]

For each game (its kit's first set-up), one match self-played by the easy AI (seeded) gives
up to `--positions` positions, spread along it, where someone chooses among several moves.
Each is judged as the analysis judges it (`games.analysis.judge`: the level, the analysis's
per-position cap) with `--seeds` different seeds, and so is the position after the move the
level prefers there. Two figures per game and level, the mover's chance in points:
- seeds: |difference| between two seeds' estimates of the same position (every pair);
- own move: how much the estimate drops from a position to the position after its own
  preferred move (what the analysis would count as that move's loss were it not the
  preferred one: the horizon's noise, which the other moves' losses carry too).
It prints the 50th and 95th percentiles of each and the game's threshold at the level: the
larger of the two 95th percentiles (a kit keeps it as `Knowledge.noise`), with the load at the
start and end (the machine may be shared). The search is deterministic given a seed and a
budget unless the cap stops it, so the load enters the figures; run it when the machine is as
busy as the bot's would be.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import KITS, get_game
from games.ai import choose_move
from games.analysis import judge, result_shares


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def positions(game_id: str, seats: int, options: dict[str, str], count: int,
              seed: int) -> list:
    game = get_game(game_id)
    rng = random.Random(seed)
    options = game.draw_options(options, rng)
    state = game.new(seats, options)
    found = []
    while game.outcome(state) is None and len(found) < 400:
        if game.is_chance(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            continue
        if len(game.legal_moves(state)) > 1:
            found.append(state)
        state = game.apply(state, choose_move(game, state, level="easy", seed=rng.randrange(99)))
    step = max(1, len(found) // count)
    return found[::step][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="", help="game ids, separated by commas (all)")
    args = parser.parse_args()
    print(f"load at start: {os.getloadavg()[0]:.2f}", flush=True)
    print(f"{'game':<24}{'level':<8}{'n':>4}{'seeds p50':>10}{'p95':>6}{'own p50':>9}"
          f"{'p95':>6}{'threshold':>10}", flush=True)
    for level in args.levels.split(","):
        wanted = {g for g in args.games.split(",") if g}
        for kit in (k for k in KITS.values() if not wanted or k.id in wanted):
            setup = kit.setups[0]
            game = get_game(kit.id)
            spread: list[float] = []
            own: list[float] = []
            for state in positions(kit.id, setup.seats, dict(setup.options), args.positions,
                                   args.seed):
                mover = game.to_move(state)
                judged = [judge(game, state, level=level, seed=1000 * k + 7)
                          for k in range(args.seeds)]
                chances = [j[1][mover] for j in judged if j is not None]
                spread += [abs(a - b) for i, a in enumerate(chances) for b in chances[i + 1:]]
                if judged[0] is None:
                    continue
                after = game.apply(state, judged[0][0])
                if game.outcome(after) is not None:
                    later = result_shares(game, after)[mover]
                elif game.is_chance(after):
                    continue
                else:
                    found = judge(game, after, level=level, seed=11)
                    assert found is not None
                    if not found[1]:  # a forced move: not searched (no chances of its own)
                        continue
                    later = found[1][mover]
                own.append(max(0.0, chances[0] - later))
            threshold = max(percentile(spread, 0.95), percentile(own, 0.95))
            print(f"{kit.id:<24}{level:<8}{len(own):>4}{percentile(spread, 0.5):>10.3f}"
                  f"{percentile(spread, 0.95):>6.3f}{percentile(own, 0.5):>9.3f}"
                  f"{percentile(own, 0.95):>6.3f}{threshold:>10.3f}", flush=True)
    print(f"load at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
