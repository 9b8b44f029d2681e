"""The clock check (`tick`) with many active matches of which a few are due.

    python bench/tick.py [--sizes 1000,10000,100000] [--due 100] [--rounds 5]

For each size: one real match is made through the service, cloned in SQL to N active matches
(one day per move, each waiting on a different player), then in each round `--due` of them
are made due (half their time gone) and `tick` runs while a probe task measures how late the
event loop answers (the stall other commands would feel). Reports tick wall time p50/max, the
longest stall, and what the tick did (reminders sent).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from bot.service import Player, Service  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.db import params  # noqa: E402

DAY = 86400.0
START = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class KeepOrder:
    def shuffle(self, seq: list[object]) -> None:
        pass


async def build(path: Path, size: int) -> None:
    """One real match, cloned to `size` active matches in SQL (fast, and the same rows)."""
    clock = Clock()
    store = await Store.open(path)
    service = Service(store, clock=clock, rng=KeepOrder())
    match = await service.open_match(game_id="progressive-mancala", options={},
                                     host=Player(1, "A"), opponent=Player(2, "B"), guild_id=1,
                                     channel_id=1, first="me", move_seconds=DAY)
    await service.accept(match.id, 2)
    await store.close()
    conn = sqlite3.connect(path)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(matches)") if r[1] != "id"]
    listed = ", ".join(columns)
    picked = ", ".join("? + 0" if c == "channel_id" else c for c in columns)
    with conn:
        conn.execute("DELETE FROM outbox")
        for first in range(2, size + 1, 5000):
            ids = range(first, min(size, first + 4999) + 1)
            conn.executemany(
                f"INSERT INTO matches (id, {listed}) SELECT ?, "
                f"{picked.replace('? + 0', '?')} FROM matches WHERE id = 1",
                [(i, 1000 + i) for i in ids])
            conn.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, joined_at)"
                " SELECT ?, seat, CASE seat WHEN 0 THEN ? ELSE ? END, name, joined_at"
                " FROM seats WHERE match_id = 1", [(i, 10 * i, 10 * i + 1) for i in ids])
        conn.execute("UPDATE matches SET waiting_on = (SELECT user_id FROM seats"
                     " WHERE match_id = matches.id AND seat = 0),"
                     " next_check_at = ?", (START + 10 * DAY,))  # none due yet
    conn.execute("ANALYZE")
    conn.close()


async def probe(stalls: list[float], stop: asyncio.Event) -> None:
    """How late the loop wakes a 1 ms sleeper: the stall any command would feel."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.001)
        stalls.append(time.perf_counter() - before - 0.001)


async def measure(size: int, due: int, rounds: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tick.sqlite3"
        await build(path, size)
        clock = Clock()
        store = await Store.open(path)
        service = Service(store, clock=clock, rng=KeepOrder())
        ticks: list[float] = []
        cpu: list[float] = []
        stalls: list[float] = []
        sent = 0
        for number in range(rounds + 1):  # round 0 warms the prepared queries up
            clock.now = START + DAY * 0.6 + number  # half the time gone for the due ones
            ids = list(range(1 + number * due, 1 + (number + 1) * due))
            async with store.transaction() as tx:
                await tx.conn.execute(
                    f"UPDATE matches SET next_check_at = $1 WHERE id IN ({params(len(ids), 2)})",
                    START + DAY / 2, *ids)
            stop = asyncio.Event()
            prober = asyncio.create_task(probe(stalls if number else [], stop))
            await asyncio.sleep(0.01)
            started, started_cpu = time.perf_counter(), time.process_time()
            report = await service.tick()
            if number:
                ticks.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                sent += report.reminders
            stop.set()
            await prober
        await store.close()
    return {"size": size, "tick_p50_ms": statistics.median(ticks) * 1000,
            "tick_max_ms": max(ticks) * 1000, "cpu_p50_ms": statistics.median(cpu) * 1000,
            "stall_max_ms": max(stalls) * 1000, "reminders_per_round": sent / rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{'active':>8} {'tick p50':>9} {'tick max':>9} {'cpu p50':>8} {'stall max':>10}"
          f" {'sent/run':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        row = asyncio.run(measure(size, args.due, args.rounds))
        print(f"{size:>8} {row['tick_p50_ms']:>7.1f}ms {row['tick_max_ms']:>7.1f}ms"
              f" {row['cpu_p50_ms']:>6.1f}ms {row['stall_max_ms']:>8.1f}ms"
              f" {row['reminders_per_round']:>8.0f}")


if __name__ == "__main__":
    main()
