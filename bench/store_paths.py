"""What the store costs per statement on a move's path, and what SQLAlchemy Core would cost:

    python bench/store_paths.py [--rounds 2000] [--setups sqlite,pg] [--sqlalchemy]

The move's path is one read of the match with its seats (`get_match`), then one transaction
that updates the match at its version, appends the log entry, voids open offers and writes
one outbox row. Measured sequentially (so each figure is the cost of the path alone: wall
time and this process's CPU per read and per move, in microseconds) and with 30 moves in
flight at once (moves/s).

`--sqlalchemy` (needs `pip install 'sqlalchemy[asyncio]'`, not a dependency of Corral) runs
the same statements through SQLAlchemy Core's async engine (`text()` statements, as a port of
the store's SQL would be; sqlite+aiosqlite and postgresql+asyncpg): the measurement behind
the choice of one driver per database (see bot/store/db.py).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bot.store import SeatRow, Store  # noqa: E402

MATCHES = 200


async def _prepare(url: str) -> list[int]:
    store = await Store.open(url)
    ids = []
    try:
        for n in range(MATCHES):
            async with store.transaction() as tx:
                match_id = await tx.create_match(
                    game="progressive-mancala", options={}, seat_count=2, guild_id=1,
                    channel_id=10_000 + n, in_thread=False, parent_channel_id=None,
                    host_id=101, invited_id=202, first_seat="me", status="active",
                    move_seconds=None, seats=[SeatRow(0, 101, "A"), SeatRow(1, 202, "B")],
                    now=1.0)
            ids.append(match_id)
    finally:
        await store.close()
    return ids


STATE = '{"pits": [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], "turn": 0}'
PAYLOAD = '{"match_id": 1, "lines": ["a move"], "state": ' + STATE + '}'


async def _store_run(url: str, ids: list[int], rounds: int) -> dict[str, float]:
    store = await Store.open(url)
    versions = dict.fromkeys(ids, 0)

    async def move(match_id: int) -> None:
        row = await store.get_match(match_id)
        assert row is not None
        version = versions[match_id]
        async with store.transaction() as tx:
            await tx.update_match(match_id, version, now=2.0, state={"pits": [4] * 14},
                                  board_version=version + 1)
            await tx.append_log(match_id, version, ply=version, kind="move", notation="3",
                                actor_id=101, now=2.0)
            await tx.void_offers(match_id)
            await tx.enqueue_many([(f"m:{match_id}", "board", {"state": STATE})], 2.0)
        versions[match_id] = version + 1

    try:
        return await _timed(rounds, ids, lambda i: store.get_match(i), move)
    finally:
        await store.close()


async def _sqlalchemy_run(url: str, ids: list[int], rounds: int) -> dict[str, float]:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    if url.startswith("postgresql://"):
        engine = create_async_engine(url.replace("postgresql://", "postgresql+asyncpg://"),
                                     pool_size=10)
    else:  # one connection: SQLite has one writer (the store's own design has one too)
        engine = create_async_engine(f"sqlite+aiosqlite:///{url}", pool_size=1,
                                     max_overflow=0)
    read = text("SELECT m.*, s.seat AS seat_number, s.user_id AS seat_user_id,"
                " s.name AS seat_name FROM matches m LEFT JOIN seats s ON s.match_id = m.id"
                " WHERE m.id = :id ORDER BY s.seat")
    update = text("UPDATE matches SET version = version + 1, updated_at = :now, state = :state,"
                  " board_version = :bv WHERE id = :id AND version = :version")
    log = text("INSERT INTO moves (match_id, seq, ply, kind, notation, actor_id, played_at,"
               " interaction_id) VALUES (:m, :seq, :ply, 'move', '3', 101, :now, NULL)")
    void = text("UPDATE offers SET status = 'void' WHERE match_id = :m AND status = 'open'")
    outbox = text("INSERT INTO outbox (lane, kind, payload, next_attempt_at, created_at)"
                  " VALUES (:lane, 'board', :payload, 0, :now)")
    versions = dict.fromkeys(ids, 0)

    async def get(match_id: int) -> Any:
        async with engine.connect() as conn:
            return (await conn.execute(read, {"id": match_id})).mappings().all()

    async def move(match_id: int) -> None:
        await get(match_id)
        version = versions[match_id]
        async with engine.begin() as conn:
            result = await conn.execute(update, {"now": 2.0, "state": STATE, "bv": version + 1,
                                                 "id": match_id, "version": version})
            assert result.rowcount == 1
            await conn.execute(log, {"m": match_id, "seq": version, "ply": version, "now": 2.0})
            await conn.execute(void, {"m": match_id})
            await conn.execute(outbox, {"lane": f"m:{match_id}", "payload": PAYLOAD,
                                        "now": 2.0})
        versions[match_id] = version + 1

    try:
        return await _timed(rounds, ids, get, move)
    finally:
        await engine.dispose()


async def _timed(rounds: int, ids: list[int], get: Any, move: Any) -> dict[str, float]:
    for match_id in ids[:20]:  # warm up (prepared statements, caches)
        await get(match_id)
    figures: dict[str, float] = {}
    for name, call in (("read", get), ("move", move)):
        wall, cpu = time.perf_counter(), time.process_time()
        for n in range(rounds):
            await call(ids[n % len(ids)])
        figures[f"{name} us"] = (time.perf_counter() - wall) / rounds * 1e6
        figures[f"{name} cpu us"] = (time.process_time() - cpu) / rounds * 1e6
    started = time.perf_counter()
    done = 0

    async def player(match_id: int) -> None:
        nonlocal done
        while time.perf_counter() - started < 3.0:
            await move(match_id)
            done += 1

    await asyncio.gather(*(player(match_id) for match_id in ids[:30]))
    figures["moves/s (30 at once)"] = done / (time.perf_counter() - started)
    return figures


async def _one(setup: str, path: str, rounds: int) -> None:
    server = None
    folder = Path(tempfile.mkdtemp(prefix="corral-paths-"))
    try:
        if setup == "pg":
            from pg_server import PostgresServer

            server = PostgresServer()
            server.start()
        runs = [("store", _store_run)] + ([("sqlalchemy", _sqlalchemy_run)] if path else [])
        for name, run in runs:
            if server is not None:
                url = await server.empty_database(f"paths_{name}")
            else:
                url = str(folder / f"{name}.sqlite3")
            ids = await _prepare(url)
            figures = await run(url, ids, rounds)
            shown = "  ".join(f"{k} {v:8.1f}" for k, v in figures.items())
            print(f"{setup:6} {name:10} {shown}", flush=True)
    finally:
        if server is not None:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--setups", default="sqlite,pg")
    parser.add_argument("--sqlalchemy", action="store_true")
    args = parser.parse_args()
    for setup in args.setups.split(","):
        asyncio.run(_one(setup, "sqlalchemy" if args.sqlalchemy else "", args.rounds))


if __name__ == "__main__":
    main()
