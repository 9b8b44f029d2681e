"""`python -m bot backup` on a database of realistic size, and whether moves wait for it.

    python bench/backup.py [--matches 20000] [--seconds 20] [--rate 40]

Builds a store of `--matches` finished Progressive Mancala matches (a few hundred played
through the service to their end, with their move logs and outbox rows, then cloned in SQL),
then:

1. times `python -m bot backup` (a process of its own, as an admin runs it) and reports the
   copy's size and the time the command reports;
2. plays moves through the service on that store at `--rate` moves a second for `--seconds`,
   first alone, then while backups run back to back in another process, and reports
   `service.play` p50/p99/max in both phases (the time a move's commit takes, which is what a
   player's answer waits on);
3. the same with the backups in a thread of the process that plays (CORRAL_BACKUP_EVERY),
   then alone again: the spread between the two "alone" phases is the machine's noise.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from bot.service import Player, Service  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.backup import Scheduler, in_background_thread  # noqa: E402

BASE = 300  # matches played through the service; the rest are clones


async def played(store: Store, service: Service, rng: random.Random, count: int,
                 channel: int) -> int:
    alice, bob = Player(1, "Alice"), Player(2, "Bob")
    for _ in range(count):
        channel += 1
        match = await service.open_match(game_id="progressive-mancala", options={},
                                         host=alice, opponent=bob, guild_id=1,
                                         channel_id=channel, first="me")
        match = await service.accept(match.id, bob.user_id)
        while match.status == "active":
            mover = match.to_move()
            assert mover is not None
            notation = rng.choice(service.legal_moves_for(match, mover.user_id))
            match = (await service.play(match.id, mover.user_id, notation,
                                        expected_ply=match.ply())).match
    return channel


async def build(path: Path, matches: int) -> None:
    store = await Store.open(path)
    service = Service(store, rng=random.Random(1))
    await played(store, service, random.Random(1), BASE, 0)
    await store.close()
    conn = sqlite3.connect(path)
    top = conn.execute("SELECT MAX(id) FROM matches").fetchone()[0]
    columns = [r[1] for r in conn.execute("PRAGMA table_info(matches)")]
    listed = ", ".join(columns)
    shifted = ", ".join({"id": "id + ?", "channel_id": "channel_id + ?"}.get(c, c)
                        for c in columns)
    move_columns = [r[1] for r in conn.execute("PRAGMA table_info(moves)")]
    move_listed = ", ".join(move_columns)
    move_shifted = ", ".join({"match_id": "match_id + ?", "interaction_id": "NULL"}.get(c, c)
                             for c in move_columns)
    with conn:
        for copy in range(1, matches // BASE):
            offset = copy * top
            conn.execute(f"INSERT INTO matches ({listed}) SELECT {shifted} FROM matches"
                         " WHERE id <= ?", (offset, offset, top))
            conn.execute("INSERT INTO seats (match_id, seat, user_id, name, joined_at)"
                         " SELECT match_id + ?, seat, user_id + ?, name, joined_at FROM seats"
                         " WHERE match_id <= ?", (offset, copy * 10, top))
            conn.execute(f"INSERT INTO moves ({move_listed}) SELECT {move_shifted} FROM moves"
                         " WHERE match_id <= ?", (offset, top))
    conn.execute("VACUUM")
    conn.close()


def counts(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return ", ".join(f"{t} {conn.execute(f'SELECT COUNT(*) FROM {t}').fetchone()[0]:,}"
                         for t in ("matches", "moves", "outbox"))
    finally:
        conn.close()


def backup_once(path: Path, target: Path) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "bot", "backup", str(target), "--database",
                             str(path)], capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - started, result.stdout.strip()


async def moves_at_rate(path: Path, rate: float, seconds: float, channel: int
                        ) -> tuple[list[float], int]:
    """service.play times (ms) at `rate` moves a second on fresh matches."""
    store = await Store.open(path)
    rng = random.Random(2)
    service = Service(store, rng=rng)
    alice, bob = Player(1, "Alice"), Player(2, "Bob")
    times: list[float] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    due = loop.time()
    match = None
    while loop.time() < end:
        if match is None or match.status != "active":
            channel += 1
            match = await service.open_match(game_id="progressive-mancala", options={},
                                             host=alice, opponent=bob, guild_id=1,
                                             channel_id=channel, first="me")
            match = await service.accept(match.id, bob.user_id)
        mover = match.to_move()
        assert mover is not None
        notation = rng.choice(service.legal_moves_for(match, mover.user_id))
        started = time.perf_counter()
        match = (await service.play(match.id, mover.user_id, notation,
                                    expected_ply=match.ply())).match
        times.append((time.perf_counter() - started) * 1000)
        due += 1 / rate
        await asyncio.sleep(max(0.0, due - loop.time()))
    await store.close()
    return times, channel


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(len(ordered) * q))]  # noqa: E731
    return (f"{len(values)} moves, service.play p50 {pick(0.5):.2f} ms, p99 {pick(0.99):.2f} ms,"
            f" max {ordered[-1]:.2f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=40.0)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "corral.sqlite3"
        started = time.perf_counter()
        await build(path, args.matches)
        print(f"built {path.stat().st_size / 2**20:.1f} MB ({counts(path)}) in "
              f"{time.perf_counter() - started:.0f} s")
        took, said = backup_once(path, Path(folder) / "copy.sqlite3")
        found = re.search(r"\((.*?)\)", said)
        print(f"python -m bot backup: {took:.2f} s wall (process start included); "
              f"{found.group(1) if found else said}")
        channel = 10_000_000
        alone, channel = await moves_at_rate(path, args.rate, args.seconds, channel)
        print(f"moves alone:          {summary(alone)}")
        stop = asyncio.Event()
        backups = 0

        async def back_to_back() -> None:
            nonlocal backups
            while not stop.is_set():
                await asyncio.to_thread(backup_once, path, Path(folder) / "copy.sqlite3")
                backups += 1

        task = asyncio.create_task(back_to_back())
        during, channel = await moves_at_rate(path, args.rate, args.seconds, channel)
        stop.set()
        await task
        print(f"moves during backups: {summary(during)} ({backups} backups meanwhile)")
        # as CORRAL_BACKUP_EVERY does it: a thread of the process that plays the moves
        scheduler = Scheduler(str(path), Path(folder) / "scheduled", 1.0, 2)
        stop.clear()
        backups = 0

        async def in_a_thread() -> None:
            nonlocal backups
            while not stop.is_set():
                await in_background_thread(scheduler.once)
                backups += 1

        task = asyncio.create_task(in_a_thread())
        during, channel = await moves_at_rate(path, args.rate, args.seconds, channel)
        stop.set()
        await task
        print(f"moves during in-process backups (a thread): {summary(during)} ({backups} "
              "backups meanwhile)")
        again, channel = await moves_at_rate(path, args.rate, args.seconds, channel)
        print(f"moves alone again (the noise of the machine): {summary(again)}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
