"""Round trips to SQLite's connection threads and CPU per move (`MatchService.play`):

    python bench/store_trips.py [--matches 40] [--root PATH]

Plays the first legal move of Progressive Mancala, up to 8 moves in each of `--matches`
matches, each click on the match as it was read (`seen=`, as the Discord layer does), one
move at a time on a SQLite file. For each `play()` it counts the calls that cross to a
connection's thread (the writer's and the reader's apart) and measures this process's CPU
(all threads) and wall time. Round trips are independent of the machine's load; CPU and wall
time are not: alternate the trees compared (A B A B …) and note `uptime` beside them.

`--root` runs another checkout's code (for one before issue 29's aiosqlite driver, whose
threads are its own `_Thread`s) with this script; by default this tree's.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_WRITER: list[Any] = []  # the writer's connection (or thread), once the store is open


def _count(counts: dict[str, int]) -> None:
    """Counts every call that is one round trip to a SQLite connection's thread, by the
    connection it goes to ("writer", "reader")."""
    import bot.store.sqlite as driver

    def side(db: Any) -> str:
        return "writer" if _WRITER and db is _WRITER[0] else "reader"

    if hasattr(driver, "_Thread"):  # the driver's own threads (before its aiosqlite)
        thread = driver._Thread  # noqa: SLF001
        real = thread.run

        async def run(self: Any, fn: Any, *args: Any) -> Any:
            counts[side(self)] += 1
            return await real(self, fn, *args)

        thread.run = run
        return
    import aiosqlite

    for name in ("execute", "execute_fetchall", "executemany", "commit", "rollback"):
        method = getattr(aiosqlite.Connection, name)

        def wrapped(self: Any, *args: Any, _method: Any = method, **kwargs: Any) -> Any:
            counts[side(self)] += 1
            return _method(self, *args, **kwargs)

        setattr(aiosqlite.Connection, name, wrapped)


async def _main(matches: int) -> None:
    from support import ALICE, BOB, FakeClock, FirstFixed

    from bot.service import MatchService
    from bot.store import Store

    counts = {"writer": 0, "reader": 0}
    _count(counts)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "trips.sqlite3"))
        _WRITER.append(store.db._writer)  # noqa: SLF001
        service = MatchService(store, clock=FakeClock(), rng=FirstFixed())
        trips: list[tuple[int, int]] = []
        cpu = wall = 0.0
        for n in range(matches):
            match = await service.open_match(
                game_id="progressive-mancala", options={}, host=ALICE, opponent=BOB, guild_id=1,
                channel_id=100 + n, first="me")
            await service.accept(match.id, BOB.user_id)
            for k in range(8):
                seen = await service.in_channel(100 + n)
                mover = seen.to_move() if seen is not None else None
                if seen is None or mover is None:
                    break
                notation = service.legal_moves_for(seen, mover.user_id)[0]
                counts.update(writer=0, reader=0)
                started, spent = time.perf_counter(), time.process_time()
                await service.play(match.id, mover.user_id, notation,
                                   interaction_id=10_000 * n + k + 1, seen=seen)
                cpu += time.process_time() - spent
                wall += time.perf_counter() - started
                trips.append((counts["writer"], counts["reader"]))
        await store.close()
    plays = len(trips)
    writer = sum(w for w, _ in trips) / plays
    reader = sum(r for _, r in trips) / plays
    print(f"{plays} plays: round trips per play {writer + reader:.2f} (writer {writer:.2f},"
          f" reader {reader:.2f}; totals seen {sorted({w + r for w, r in trips})});"
          f" CPU {cpu / plays * 1e6:.0f} µs, wall {wall / plays * 1e6:.0f} µs per play")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    options = parser.parse_args()
    root = options.root.resolve()
    sys.path[:0] = [str(root), str(root / "tests")]
    print(f"{root}:", end=" ")
    asyncio.run(_main(options.matches))


if __name__ == "__main__":
    main()
