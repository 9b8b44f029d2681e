"""Solve two-player ICO level 1 exactly from every start face.

    python -m games.ico.solve [--level 1]

A memoized negamax over the rules' own states (about 13,000-26,000 positions a face, under a
second each): prints, per start face, the value for the first seat with perfect play (win,
draw or loss) and the number of positions. Why: with two players level 1 is a second-seat win
from every face, so a head-to-head of two AI levels there says nothing about their strength.
A tool for whoever studies the game: nothing else imports it.
"""

from __future__ import annotations

import argparse
import sys
import time

from .game import GAME


def solve(state, memo: dict) -> int:
    """1, 0 or -1: the best the seat to move can force."""
    key = (state.markers, state.active, state.to_move, state.idle)
    value = memo.get(key)
    if value is not None:
        return value
    me, best = state.to_move, -2
    for move in GAME.legal_moves(state):
        after = GAME.apply(state, move)
        outcome = GAME.outcome(after)
        if outcome is not None:
            result = 0 if len(outcome.winners) != 1 else 1 if me in outcome.winners else -1
        else:
            result = solve(after, memo)
            if after.to_move != me:
                result = -result
        best = max(best, result)
        if best == 1:
            break
    memo[key] = best
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="1")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    names = {1: "first seat wins", 0: "draw", -1: "second seat wins"}
    for face in range(20):
        began = time.perf_counter()
        memo: dict = {}
        state = GAME.new(2, {"level": args.level, "start": f"f{face}"})
        value = solve(state, memo)
        print(f"start f{face:<2} {names[value]:<16} {len(memo):>7} positions "
              f"{time.perf_counter() - began:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
