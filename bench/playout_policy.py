"""ICO's playout policies with three or four seats, each as a player on its own.

    python bench/playout_policy.py [--games 400] [--seed 1] [--only ico-level-2-3-seats,...]

A playout policy is what the search assumes everyone plays below its tree: the better it
plays, the better a playout's end tells how good its start was. Here each policy plays one
seat (each seat in turn) of three- and four-seat ICO, one move at a time (its playout's first
move, `depth` 1), against random players and against the one-ply greedy baseline of
bench/strength.py in the other seats. It prints the policy's share of the wins (a draw
shared) with a 95% Wilson interval, and the fair share. Issue 30 asks for a playout policy
clearly better than random: `random_playout` (easy's and normal's) should come out near fair
against random players, `pattern_playout` (hard's) clearly above it.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ai_strength import CONFIGS, wilson  # noqa: E402
from bench.strength import greedy_move  # noqa: E402
from games import get_game  # noqa: E402
from games.ico import ai  # noqa: E402

POLICIES = {"random_playout": ai.random_playout, "pattern_playout": ai.pattern_playout}


def policy_move(policy, state) -> int:
    """The move a playout policy makes first from `state`."""
    trace: list[int] = []
    policy(ai.LIGHT, ai.IcoPos.enter(state), random, 1, state.seats, trace)
    return trace[0]


def play(config: str, policy, opponent: str, seat: int, rng: random.Random) -> float:
    game_id, seats, options = CONFIGS[config]
    game = get_game(game_id)
    state = game.new(seats, game.draw_options(options, rng))
    while (outcome := game.outcome(state)) is None:
        legal = game.legal_moves(state)
        if state.to_move == seat:
            move = ai.to_rules(policy_move(policy, state))
        elif opponent == "greedy":
            move = greedy_move(game, state, rng)
        else:
            move = rng.choice(legal)
        state = game.apply(state, move)
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="comma-separated configurations (default: every ICO "
                        "set-up with three or four seats)")
    args = parser.parse_args(argv)
    configs = [c for c in (args.only or "").split(",") if c] or [
        c for c, (game_id, seats, _) in CONFIGS.items() if game_id == "ico" and seats > 2]
    random.seed(args.seed)
    rng = random.Random(args.seed)
    print(f"{'set-up':<32}{'policy':<17}{'vs':<8}{'games':>6}{'win':>7}  95% Wilson   fair")
    for config in configs:
        seats = CONFIGS[config][1]
        for name, policy in POLICIES.items():
            for opponent in ("random", "greedy"):
                won = sum(play(config, policy, opponent, i % seats, rng)
                          for i in range(args.games))
                lo, hi = wilson(won, args.games)
                print(f"{config:<32}{name:<17}{opponent:<8}{args.games:>6}"
                      f"{won / args.games:>7.0%}  [{lo:.0%}, {hi:.0%}]   {1 / seats:.0%}",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
