"""The database connection behind the store: SQLite (the default) or PostgreSQL.

The store writes portable SQL with `?` placeholders; this module runs it on one back end,
maps unique-constraint violations to `Conflict`, and applies the numbered migrations of
`bot/migrations/<dialect>/`. Reads outside a transaction only ever see committed data (SQLite:
a second connection in WAL mode), so a read can never observe another task's half-done
transaction on a shared connection.
"""

from __future__ import annotations

import asyncio
import collections
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

    async def write(self, sql: str, *args: Any) -> None:
        """A write whose result the caller does not need. In a SQLite transaction it goes to
        the database with the transaction's next statement or its commit, in one round trip
        to the database thread; its errors (a `Conflict`) surface there. Elsewhere it runs
        at once."""
        await self.execute(sql, *args)

    async def write_one(self, sql: str, *args: Any, otherwise: Exception) -> None:
        """A `write` that must change exactly one row, else the transaction fails with
        `otherwise` (where the write goes: at once, or with the next statement or commit)."""
        if await self.execute(sql, *args) != 1:
            raise otherwise

    async def fetch_last(self, sql: str, *args: Any) -> list[Row]:
        """A `fetch` that is the transaction's last statement: in a SQLite transaction the
        commit goes with it, in the same round trip to the database thread."""
        return await self.fetch(sql, *args)

    def hold_lock(self) -> None:
        """What follows reads data and writes from it, with nothing to check that the data
        is unchanged at the commit (ratings): a transaction's lock must be held (see
        `DeferredConn`). In a transaction, nothing to do."""
        return None

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        for row in rows:
            await self.execute(sql, *row)


class NeedsLock(DatabaseError):
    """A body run ahead of its transaction (`DeferredConn`) needs a statement's result under
    the write lock: run it in a transaction instead."""


class DeferredConn(Conn):
    """What a transaction's body runs on before it takes SQLite's write lock: reads see
    committed data (the reader), and writes are recorded, to be replayed (with their
    `write_one` checks) in one shared commit (`Store.together`). A body may run here only if
    every read it makes is either checked at the commit (a match's version guards the match,
    its seats and its log) or harmless when a moment old (a player's settings). A statement
    whose result is needed under the lock (an `execute`, a write that returns rows) or
    `hold_lock` raises `NeedsLock`."""

    def __init__(self, reader: Conn):
        self.dialect = reader.dialect
        self._reader = reader
        self.recorded: list[Queued] = []

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        if not sql.lstrip()[:6].upper() == "SELECT":
            raise NeedsLock(sql[:40])
        return await self._reader.fetch(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        raise NeedsLock(sql[:40])

    async def fetch_last(self, sql: str, *args: Any) -> list[Row]:
        raise NeedsLock(sql[:40])

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.recorded.extend((sql, tuple(row), None) for row in rows)

    async def write(self, sql: str, *args: Any) -> None:
        self.recorded.append((sql, args, None))

    async def write_one(self, sql: str, *args: Any, otherwise: Exception) -> None:
        self.recorded.append((sql, args, otherwise))

    def hold_lock(self) -> None:
        raise NeedsLock("reads that must stay true until the commit")

    async def replay(self, conn: Conn) -> None:
        """The recorded writes, in order, on a transaction's connection."""
        for sql, args, otherwise in self.recorded:
            if otherwise is None:
                await conn.write(sql, *args)
            else:
                await conn.write_one(sql, *args, otherwise=otherwise)


class Database(ABC):
    dialect: str
    url: str

    @property
    @abstractmethod
    def reader(self) -> Conn:
        """Reads of committed data."""

    @abstractmethod
    def transaction(self, background: bool = False
                    ) -> contextlib.AbstractAsyncContextManager[Conn]:
        """One write transaction: committed on exit, rolled back on any exception.
        `background`: no player waits on it (it may wait for those a player waits on)."""

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
        try:  # one round trip to the database thread, not two (execute, then fetch)
            rows = await self._db.execute_fetchall(sql, args)
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


class _NotOneRow(Exception):
    def __init__(self, otherwise: Exception):
        super().__init__()
        self.otherwise = otherwise


Queued = tuple[str, Sequence[Any], Exception | None]


def _batch(conn: sqlite3.Connection, writes: list[Queued], mode: str, sql: str,
           args: Any) -> Any:
    """Runs on the connection's thread: the queued writes in order (a `write_one` that did
    not change exactly one row stops there), then one statement (`mode` fetch, execute or
    many) or the commit."""
    for queued_sql, queued_args, otherwise in writes:
        changed = conn.execute(queued_sql, queued_args).rowcount
        if otherwise is not None and changed != 1:
            raise _NotOneRow(otherwise)
    if mode in ("fetch", "fetch_commit"):
        rows = conn.execute(sql, args).fetchall()
        if mode == "fetch_commit":
            conn.commit()
        return rows
    if mode == "execute":
        return conn.execute(sql, args).rowcount
    if mode == "many":
        conn.executemany(sql, args)
    elif mode == "commit":
        conn.commit()
    return None


class _SqliteTx(_SqliteConn):
    """The connection inside a write transaction: every call is one round trip to the
    database thread, carrying the writes queued by `write` before it."""

    def __init__(self, db: aiosqlite.Connection):
        super().__init__(db)
        self._writes: list[Queued] = []
        self._finished = False

    async def _run(self, mode: str, sql: str = "", args: Any = ()) -> Any:
        if self._finished:
            raise RuntimeError("a statement after the transaction's last one (fetch_last)")
        writes, self._writes = self._writes, []
        if mode == "commit" and not writes and not self._db.in_transaction:
            return None  # only reads: no transaction was opened
        try:
            # aiosqlite has no public call for "run this function on the connection's
            # thread"; `_execute` is what each of its own methods uses (pinned in
            # pyproject.toml, exercised by every store test)
            return await self._db._execute(_batch, self._db._conn, writes, mode, sql, args)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None
        except _NotOneRow as exc:
            raise exc.otherwise from None

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        rows = await self._run("fetch", sql, args)
        return [dict(zip(row.keys(), tuple(row), strict=True)) for row in rows]

    async def fetch_last(self, sql: str, *args: Any) -> list[Row]:
        rows = await self._run("fetch_commit", sql, args)
        self._finished = True
        return [dict(zip(row.keys(), tuple(row), strict=True)) for row in rows]

    async def execute(self, sql: str, *args: Any) -> int:
        return int(await self._run("execute", sql, args))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._run("many", sql, [tuple(row) for row in rows])

    async def write(self, sql: str, *args: Any) -> None:
        self._writes.append((sql, args, None))

    async def write_one(self, sql: str, *args: Any, otherwise: Exception) -> None:
        self._writes.append((sql, args, otherwise))

    async def commit(self) -> None:
        if not self._finished:
            await self._run("commit")


class WriteLock:
    """SQLite's one writer, handed from transaction to transaction: a transaction a player
    waits on goes before waiting background work (the outbox's bookkeeping, the clock), in
    arrival order within each kind. Under load the background queue is long, and a move
    that waited behind it delayed the answer to its click. So that background work is never
    starved, every `FAIR_SHARE`-th hand-over while it waits goes to background work."""

    FAIR_SHARE = 4

    def __init__(self) -> None:
        self._held = False
        self._queues: tuple[collections.deque[asyncio.Future[None]], ...] = (
            collections.deque(), collections.deque())  # players', background
        self._urgent_in_a_row = 0

    def locked(self) -> bool:
        return self._held

    async def acquire(self, background: bool = False) -> None:
        if not self._held and not any(self._queues):
            self._held = True
            return
        waiter = asyncio.get_running_loop().create_future()
        self._queues[1 if background else 0].append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed the lock just as it was cancelled: pass it on
            raise

    def release(self) -> None:
        urgent, background = self._queues
        for queue in (urgent, background):
            while queue and queue[0].done():
                queue.popleft()  # cancelled while waiting
        if urgent and not (background and self._urgent_in_a_row >= self.FAIR_SHARE - 1):
            self._urgent_in_a_row += 1
            urgent.popleft().set_result(None)  # the lock passes on: still held
        elif background:
            self._urgent_in_a_row = 0
            background.popleft().set_result(None)
        else:
            self._urgent_in_a_row = 0
            self._held = False

    @contextlib.asynccontextmanager
    async def hold(self, background: bool = False) -> AsyncIterator[None]:
        await self.acquire(background)
        try:
            yield
        finally:
            self.release()


class SqliteDatabase(Database):
    """One writer connection (writes serialised by a lock) and one reader (WAL).

    A write transaction holds the lock across its round trips to the database thread, and
    under load each round trip waits for a turn of the busy event loop: the lock's time, not
    the CPU, bounded the moves per second. So a transaction spends no round trip of its own on
    BEGIN: the writer lets sqlite3 open the transaction (BEGIN IMMEDIATE) in the same call as
    the first write, and reads before that first write run on the writer outside a
    transaction. They still see exactly what the transaction would, because every write of the
    process goes through this lock and a SQLite file belongs to one bot process (several
    processes share PostgreSQL, never SQLite). A transaction that only reads never takes
    SQLite's write lock at all. Writes whose result is not needed (`Conn.write`) wait and go
    with the next statement or the commit: one round trip for several statements.
    """

    dialect = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection):
        self.url = path
        self._writer = writer
        self._reader = reader
        self._write_lock = WriteLock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        path = str(path)
        if path != ":memory:":
            private_file(Path(path))
        writer = await _connect(path, isolation_level="IMMEDIATE")
        reader = writer if path == ":memory:" else await _connect(path)
        return cls(path, writer, reader)

    @property
    def reader(self) -> Conn:
        return _SqliteConn(self._reader)

    @property
    def reads_committed(self) -> bool:
        """Whether `reader` sees only committed data: not for `:memory:`, whose reader is
        the writer's own connection (it sees a transaction's uncommitted rows)."""
        return self._reader is not self._writer

    @contextlib.asynccontextmanager
    async def transaction(self, background: bool = False) -> AsyncIterator[Conn]:
        async with self._write_lock.hold(background):
            tx = _SqliteTx(self._writer)
            try:
                yield tx
                await tx.commit()
            except BaseException:
                await self._writer.rollback()
                raise

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
                await tx.execute("BEGIN IMMEDIATE")  # DDL opens no transaction by itself
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
        async with self._write_lock.hold():
            if self._reader is not self._writer:
                await self._reader.close()
            with contextlib.suppress(sqlite3.Error):
                await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._writer.close()


async def _connect(path: str, isolation_level: str | None = None) -> aiosqlite.Connection:
    """`isolation_level` None: autocommit (the reader); "IMMEDIATE": sqlite3 begins a write
    transaction with the first INSERT, UPDATE, DELETE or REPLACE (the writer)."""
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute("PRAGMA foreign_keys=ON")
    await db.execute("PRAGMA synchronous=NORMAL")
    await db.execute("PRAGMA busy_timeout=5000")
    if isolation_level is not None:  # after the PRAGMAs, which must run outside a transaction
        db.isolation_level = isolation_level  # type: ignore[assignment]
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
