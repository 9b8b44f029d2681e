"""How the weights of Pastoral Square's playout evaluation (`ai.py` beside this) were found.

Plays games of the AI against itself (a few hundred iterations a move, now and then a random
move, so that positions vary), records every position with the final result for the seat to
move, and fits a logistic model of that result on the evaluation's features by Newton's method
(L2-regularised), on 80% of the games; the other 20% give the held-out log loss, beside the
loss of the old evaluation (stones left and corral cells) and of a constant 1/2.

    python -m games.pastoral.fit_eval [--games 300] [--jobs 2]

Standard library only; the printed weights are the ones to copy into `ai.WEIGHTS_*`, `WEIGHT_*`
and `BIAS`. A tool for whoever tunes the AI: nothing else imports it.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from ..ai import choose_move
from . import game as P
from .ai import line_needs

NAMES = ["lines needing 1 (mover)", "2 (mover)", "3 (mover)", "4+ (mover)",
         "lines needing 1 (other)", "2 (other)", "3 (other)", "4+ (other)",
         "corral cells (diff)", "stones (diff)", "held (diff)", "bias"]
Row = tuple[tuple[int, ...], tuple[int, ...], tuple[int, int], tuple[int, int], int]


def one_game(seed: int) -> tuple[list[Row], list[float]]:
    game = P.GAME
    rng = random.Random(seed)
    state = game.new()
    rows: list[Row] = []
    noise = rng.choice([0.0, 0.1, 0.2])
    while game.outcome(state) is None:
        rows.append((state.owner, state.count, state.held, state.stock, state.to_move))
        if rng.random() < noise:
            move = rng.choice(game.legal_moves(state))
        else:
            move = choose_move(game, state, seed=rng.randrange(2**32),
                               iterations=rng.choice([100, 200, 400]), time_cap=None)
        state = game.apply(state, move)
    outcome = game.outcome(state)
    assert outcome is not None
    return rows, [1.0 / len(outcome.winners) if s in outcome.winners else 0.0 for s in (0, 1)]


def features(row: Row) -> list[float]:
    owner, count, held, stock, mover = row
    other = 1 - mover
    mine, theirs = line_needs(owner, count, mover), line_needs(owner, count, other)
    cells = sum((owner[c] == mover) - (owner[c] == other) for c in P.CORRAL)
    return [mine[1], mine[2], mine[3], sum(mine[4:]), theirs[1], theirs[2], theirs[3],
            sum(theirs[4:]), cells, held[mover] + stock[mover] - held[other] - stock[other],
            held[mover] - held[other], 1.0]


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(xs: list[list[float]], ys: list[float], lam: float = 1e-2) -> list[float]:
    d = len(xs[0])
    w = [0.0] * d
    for _ in range(12):
        hessian = [[lam if i == j else 0.0 for j in range(d)] for i in range(d)]
        gradient = [lam * w[i] for i in range(d)]
        for x, t in zip(xs, ys, strict=True):
            p = sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            for i in range(d):
                gradient[i] += (p - t) * x[i]
                xi = p * (1 - p) * x[i]
                if xi:
                    for j in range(d):
                        hessian[i][j] += xi * x[j]
        w = [a - b for a, b in zip(w, solve(hessian, gradient), strict=True)]
    return w


def log_loss(ps: list[float], ys: list[float]) -> float:
    total = 0.0
    for p, t in zip(ps, ys, strict=True):
        p = min(1 - 1e-6, max(1e-6, p))
        total -= t * math.log(p) + (1 - t) * math.log(1 - p)
    return total / len(ys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(one_game, range(args.seed, args.seed + args.games)))
    random.Random(1).shuffle(games)
    split = int(len(games) * 0.8)

    def table(part: list) -> tuple[list[Row], list[float]]:
        rows = [row for rows, _ in part for row in rows]
        return rows, [result[row[4]] for rows, result in part for row in rows]

    train, train_y = table(games[:split])
    held, held_y = table(games[split:])
    w = fit([features(r) for r in train], train_y)
    predicted = [sigmoid(sum(a * b for a, b in zip(w, features(r), strict=True))) for r in held]
    old = []
    for owner, _count, hand, stock, mover in held:
        value = [stock[s] + hand[s] + 2.0 * sum(1 for c in P.CORRAL if owner[c] == s)
                 for s in (0, 1)]
        old.append(sigmoid((value[mover] - value[1 - mover]) / 6.0))
    print(f"{args.games} games, {len(train)} + {len(held)} positions, "
          f"{time.perf_counter() - began:.0f} s")
    print(f"held-out log loss: fitted {log_loss(predicted, held_y):.4f}, "
          f"old evaluation {log_loss(old, held_y):.4f}, constant 1/2 {math.log(2):.4f}")
    for name, weight in zip(NAMES, w, strict=True):
        print(f"  {name:<26} {weight:+.3f}")


if __name__ == "__main__":
    main()
