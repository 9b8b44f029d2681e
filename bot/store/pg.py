"""PostgreSQL behind the store, through asyncpg: a connection pool, unique-constraint violations
mapped to `Conflict`, and the numbered migrations (`bot/store/migrations/common/` and
`bot/store/migrations/postgresql/`) applied under an advisory lock (several bot processes may start
at once; one migrates, the others wait and find the schema current). The store's `$1, $2, …`
placeholders are asyncpg's own.

Transactions are READ COMMITTED; what must happen once across processes is guarded in the
database itself: a match row is locked (`SELECT … FOR UPDATE`, `Conn.locking`) by every change
of the match, outbox rows and clock notices are claimed by conditional updates and unique keys,
the clock's batches skip the rows another process holds (`SKIP LOCKED`), and rating updates
take a transaction-scoped advisory lock (`Conn.serialize`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

import asyncpg

from .db import Conflict, Conn, Database, Row, migration_scripts

MIGRATION_LOCK = 0x636F7272  # "corr": one process migrates at a time


def _changed(status: str | None) -> int:
    """The row count of a command status such as "UPDATE 3" or "INSERT 0 1"."""
    last = (status or "").rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class _PgConn(Conn):
    def __init__(self, conn: Any):
        self._conn = conn  # a pooled connection in a transaction, or the pool itself

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            rows = await self._conn.fetch(sql, *args)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from None
        return [dict(row) for row in rows]

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        return await self.fetch(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            status = await self._conn.execute(sql, *args)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from None
        return _changed(status)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        try:
            await self._conn.executemany(sql, batch)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from None

    def locking(self, of: str | None = None, *, skip_locked: bool = False) -> str:
        return (" FOR UPDATE" + (f" OF {of}" if of else "")
                + (" SKIP LOCKED" if skip_locked else ""))

    async def serialize(self, key: int) -> None:
        await self._conn.fetchval("SELECT pg_advisory_xact_lock($1)", key)


class PostgresDatabase(Database):
    dialect = "postgresql"

    def __init__(self, url: str, pool: Any):
        self.url = url
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, min_size: int = 2, max_size: int = 10) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size,
                                         command_timeout=60)
        return cls(url, pool)

    @property
    def reader(self) -> Conn:
        """Reads of committed data: each query borrows a pooled connection."""
        return _PgConn(self._pool)

    @contextlib.asynccontextmanager
    async def transaction(self, background: bool = False) -> AsyncIterator[Conn]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield _PgConn(conn)

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
            if not exists:
                return 0
            return int(await conn.fetchval(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    async def migrate(self) -> int:
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
                current = int(await conn.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
                for number, name, script in migration_scripts(self.dialect):
                    if number <= current:
                        continue
                    async with conn.transaction():
                        await conn.execute(script)
                        await conn.execute("INSERT INTO schema_migrations (version, name)"
                                           " VALUES ($1, $2)", number, name)
                    current = number
                return current
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def close(self) -> None:
        await self._pool.close()
