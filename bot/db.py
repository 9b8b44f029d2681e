"""The database connection behind the store: SQLite (the default) or PostgreSQL.

The store writes portable SQL with `?` placeholders; this module runs it on one back end,
maps unique-constraint violations to `Conflict`, and applies the numbered migrations of
`bot/migrations/<dialect>/`. Reads outside a transaction only ever see committed data (SQLite:
a second connection in WAL mode), so a read can never observe another task's half-done
transaction on a shared connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

Row = Mapping[str, Any]
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class DatabaseError(Exception):
    """Base class of the errors this module raises."""


class Conflict(DatabaseError):
    """A unique or foreign-key constraint refused a write (the transaction is rolled back)."""


class Conn(ABC):
    """What a query runs on: a transaction, or the reader of committed data."""

    dialect = "sqlite"

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else next(iter(row.values()))

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; returns the number of rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        for row in rows:
            await self.execute(sql, *row)


class Database(ABC):
    dialect: str
    url: str

    @property
    @abstractmethod
    def reader(self) -> Conn:
        """Reads of committed data."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Conn]:
        """One write transaction: committed on exit, rolled back on any exception."""

    @abstractmethod
    async def migrate(self) -> int:
        """Apply the migrations not applied yet; returns the schema version."""

    @abstractmethod
    async def close(self) -> None: ...


def migration_scripts(dialect: str) -> list[tuple[int, str, str]]:
    """(number, name, SQL) of `bot/migrations/<dialect>/NNNN_name.sql`, in order."""
    scripts = []
    for path in sorted((MIGRATIONS / dialect).glob("*.sql")):
        number = int(path.name.split("_", 1)[0])
        scripts.append((number, path.stem, path.read_text(encoding="utf-8")))
    return scripts


# -- SQLite ---------------------------------------------------------------------------------
class _SqliteConn(Conn):
    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            cursor = await self._db.execute(sql, args)
            rows = await cursor.fetchall()
        except sqlite3.IntegrityError as exc:  # an INSERT ... RETURNING
            raise Conflict(str(exc)) from None
        return [dict(zip(row.keys(), tuple(row), strict=True)) for row in rows]

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            cursor = await self._db.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One round trip to the database thread for all the rows."""
        try:
            await self._db.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None


class SqliteDatabase(Database):
    """One writer connection (writes serialised by a lock) and one reader (WAL)."""

    dialect = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection):
        self.url = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        path = str(path)
        if path != ":memory:":
            private_file(Path(path))
        writer = await _connect(path)
        reader = writer if path == ":memory:" else await _connect(path)
        return cls(path, writer, reader)

    @property
    def reader(self) -> Conn:
        return _SqliteConn(self._reader)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteConn(self._writer)
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")

    async def schema_version(self) -> int:
        cursor = await self._writer.execute("PRAGMA user_version")
        row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        current = await self.schema_version()
        for number, _, script in migration_scripts(self.dialect):
            if number <= current:
                continue
            async with self.transaction() as tx:
                for statement in _sqlite_statements(script):
                    await tx.execute(statement)
                await tx.execute(f"PRAGMA user_version={number}")
            current = number
        return current

    async def pragma(self, name: str) -> Any:
        cursor = await self._reader.execute(f"PRAGMA {name}")
        row = await cursor.fetchone()
        return None if row is None else row[0]

    async def close(self) -> None:
        """Checkpoint the write-ahead log into the database file, then close both
        connections (the last close removes the -wal and -shm files)."""
        async with self._write_lock:
            if self._reader is not self._writer:
                await self._reader.close()
            with contextlib.suppress(sqlite3.Error):
                await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._writer.close()


async def _connect(path: str) -> aiosqlite.Connection:
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute("PRAGMA foreign_keys=ON")
    await db.execute("PRAGMA synchronous=NORMAL")
    await db.execute("PRAGMA busy_timeout=5000")
    return db


def private_file(path: Path) -> None:
    """Create the database's folder (0700) and file (0600) readable by this user only; SQLite
    gives its -wal and -shm files the database file's permissions."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, mode=0o700)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    os.chmod(path, 0o600)


def _sqlite_statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements, buffer = [], ""
    for line in script.strip().splitlines():
        if not buffer and line.strip().startswith("--"):
            continue
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


_PLACEHOLDER = re.compile(r"\?")





async def open_database(url: str) -> Database:
    """`postgresql://...` selects PostgreSQL; anything else is a SQLite path."""
    if url.startswith(("postgresql://", "postgres://")):
        from .pg import PostgresDatabase

        return await PostgresDatabase.open(url)
    return await SqliteDatabase.open(url)
