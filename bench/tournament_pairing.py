"""How long one Swiss round takes to pair (bot/tournaments/swiss.py) for a big field.

Plays `--rounds` rounds of a `--players` Swiss with seeded random results (draws included)
and a few withdrawals, timing each `pair_next_round` (wall and CPU time), and prints p50/p99
over the rounds with the machine's load average (the matching is pure Python and CPU bound).

    .venv/bin/python bench/tournament_pairing.py --players 500 --rounds 9
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bot.tournaments import Player, Settings, Tournament, add_round, pair_next_round, record
from bot.tournaments.model import withdraw


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    players = tuple(
        Player(id=i, rating=rng.randint(1000, 2400)) for i in range(1, args.players + 1))
    t = Tournament(Settings("swiss", rounds=args.rounds), players)
    times, cpu = [], []
    for r in range(1, args.rounds + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        rnd = pair_next_round(t)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        print(f"round {r}: {len(rnd.games)} games, {times[-1]:.2f} s wall, {cpu[-1]:.2f} s CPU",
              flush=True)
        t = add_round(t, rnd)
        for i, g in enumerate(rnd.games):
            if len(g.seats) == 2:
                t = record(t, r, i, rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (1.0, 0.0)]))
        for p in rng.sample(t.players, 2):
            if p.withdrawn_round is None:
                t = withdraw(t, p.id)
    load = os.getloadavg()
    for what, xs in (("wall", times), ("CPU", cpu)):
        xs.sort()
        p99 = xs[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]
        print(f"{args.players} players, {args.rounds} rounds, {what}: "
              f"p50 {statistics.median(xs):.2f} s, p99 {p99:.2f} s")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores "
          "(CPU time is what the pairing itself costs; wall time grows with the load)")


if __name__ == "__main__":
    main()
