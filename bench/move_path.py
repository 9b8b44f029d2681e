"""Figures for the whole service path of one move: parse, validate, apply, SQLite commit
(WAL, on disk) and render the new board. p50 and p99 over many moves of random matches.

    python bench/move_path.py [--moves 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import MatchService, Player
from bot.store import Store
from render import render_observation


async def bench(total: int) -> list[float]:
    rng = random.Random(1)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
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
                match = result.match
                await asyncio.to_thread(render_observation, match.game.id, match.observe(None),
                                        names=match.names())
                times.append((time.perf_counter() - start) * 1000)
        await store.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1000)
    args = parser.parse_args()
    times = sorted(asyncio.run(bench(args.moves)))
    pick = lambda q: times[min(len(times) - 1, int(len(times) * q))]  # noqa: E731
    print(f"move path over {len(times)} moves: p50 {pick(0.50):.2f} ms, p99 {pick(0.99):.2f} ms, "
          f"max {times[-1]:.2f} ms (target p99 <= 25 ms)")


if __name__ == "__main__":
    main()
