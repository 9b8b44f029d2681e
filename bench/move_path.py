"""Figures for the whole service path of one move: parse, validate, apply, commit (with its
outbox rows) and render the new board. p50 and p99 over many moves of random matches, on
SQLite (WAL, on disk) and, beside it in the same run, on PostgreSQL.

    python bench/move_path.py [--moves 1000] [--backends sqlite,postgresql]
                              [--postgres postgresql://...]

Without `--postgres`, a throwaway PostgreSQL server is started from the machine's binaries
(tests/pg_server.py: as an unprivileged user, on 127.0.0.1, fsync off as in the tests — so the
PostgreSQL figure is the database's CPU and round trips, not a disk's flush).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bot.service import MatchService, Player  # noqa: E402
from bot.store import Store  # noqa: E402
from render import render_observation  # noqa: E402


async def bench(url: str, total: int) -> tuple[list[float], list[float]]:
    """(whole path, commit only) in ms per move."""
    rng = random.Random(1)
    times: list[float] = []
    commits: list[float] = []
    store = await Store.open(url)
    service = MatchService(store, rng=rng)
    alice, bob = Player(1, "Alice"), Player(2, "Bob")
    channel = 0
    while len(times) < total:
        channel += 1
        match = await service.open_match(game_id="progressive-mancala", options={},
                                         host=alice, opponent=bob, guild_id=1,
                                         channel_id=channel)
        match = await service.accept(match.id, bob.user_id)
        while match.status == "active" and len(times) < total:
            mover = match.to_move()
            notation = rng.choice(service.legal_moves_for(match, mover.user_id))
            start = time.perf_counter()
            result = await service.play(match.id, mover.user_id, notation,
                                        expected_ply=match.ply())
            committed = time.perf_counter()
            match = result.match
            await asyncio.to_thread(render_observation, match.game.id, match.observe(None),
                                    names=match.names())
            times.append((time.perf_counter() - start) * 1000)
            commits.append((committed - start) * 1000)
    await store.close()
    return times, commits


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(len(ordered) * q))]  # noqa: E731
    return f"{name:<28} p50 {pick(0.50):6.2f} ms   p99 {pick(0.99):6.2f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--postgres", default=None, help="an existing empty database")
    args = parser.parse_args()
    server = None
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    try:
        for backend in args.backends.split(","):
            if backend == "sqlite":
                with tempfile.TemporaryDirectory() as folder:
                    whole, commit = await bench(str(Path(folder) / "bench.sqlite3"), args.moves)
            else:
                url = args.postgres
                if url is None:
                    from pg_server import PostgresServer

                    server = PostgresServer()
                    server.start()
                    url = await server.fresh_database()
                whole, commit = await bench(url, args.moves)
            print(summary(f"{backend}: move + board", whole))
            print(summary(f"{backend}: service.play only", commit))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
