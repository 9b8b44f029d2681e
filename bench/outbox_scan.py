"""The outbox worker's query for the head of every due lane (`Store.pending_outbox`), asked
several times a second under load, against an outbox that holds a week of delivered rows (they
are kept seven days): with the index of pending rows (migration 0013) and, in the same process
and on the same rows, without it (the index dropped), as the query ran before.

    python bench/outbox_scan.py [--delivered 20000,100000] [--pending 40] [--calls 300]

Prints p50/p99 of one query (through the store, on its reader connection) per size and the
ratio without/with. SQLite only (the bot's default).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.store import Store, Tx  # noqa: E402


async def timed(store: Store, calls: int) -> tuple[float, float]:
    took = []
    for _ in range(calls):
        began = time.perf_counter()
        await store.pending_outbox(1e12, 50)
        took.append(time.perf_counter() - began)
    took.sort()
    return statistics.median(took), took[min(len(took) - 1, int(len(took) * 0.99))]


async def one(delivered: int, pending: int, calls: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "outbox.sqlite3"))
        try:
            async def fill(tx: Tx) -> None:
                await tx.conn.executemany(
                    "INSERT INTO outbox (lane, kind, payload, next_attempt_at, created_at,"
                    " status, done_at) VALUES ($1, 'board', '{}', 0, 0, 'done', 1)",
                    [(f"channel:{i % 500}",) for i in range(delivered)])
                await tx.conn.executemany(
                    "INSERT INTO outbox (lane, kind, payload, next_attempt_at, created_at)"
                    " VALUES ($1, 'board', '{}', 0, 0)",
                    [(f"channel:{i % 30}",) for i in range(pending)])
            await store.together(fill)
            heads = len(await store.pending_outbox(1e12, 50))
            await timed(store, 20)  # warm
            with_index = await timed(store, calls)

            async def drop(tx: Tx) -> None:
                await tx.conn.execute("DROP INDEX outbox_pending")
            await store.together(drop)
            assert len(await store.pending_outbox(1e12, 50)) == heads
            await timed(store, 20)
            without = await timed(store, calls)
        finally:
            await store.close()
    print(f"{delivered:>10,} {pending:>8} {heads:>6}"
          f"  {without[0] * 1e3:7.3f} /{without[1] * 1e3:7.3f}"
          f"  {with_index[0] * 1e3:7.3f} /{with_index[1] * 1e3:7.3f}"
          f"  {without[0] / with_index[0]:6.1f}x", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delivered", default="2000,20000,100000")
    parser.add_argument("--pending", type=int, default=40)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    print(f"{'delivered':>10} {'pending':>8} {'heads':>6}  {'without index p50/p99 ms':>17}"
          f"  {'with index p50/p99 ms':>17}  ratio (p50)")
    for delivered in (int(n) for n in args.delivered.split(",")):
        await one(delivered, args.pending, args.calls)


if __name__ == "__main__":
    asyncio.run(main())
