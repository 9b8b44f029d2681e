"""SQLite behind the store: the stdlib `sqlite3`, each connection on a thread of its own.

One writer connection, its transactions serialised by `WriteLock` (players' first), and one
reader connection in WAL mode that only ever sees committed data. Everything that makes SQLite
fast under load stays in this module: writes whose results nobody reads travel with the
transaction's next statement (`_SqliteTx`), bookkeeping from many tasks shares one commit
(`together`), and an `atomic` body is worked out ahead of the write lock on committed reads
and replayed under it (`_Ahead`).

Placeholders: the store's `$1, $2, …` are SQLite named parameters ("1", "2", …), bound from a
dict (`_named`): nothing in the SQL is rewritten.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import queue
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .db import Body, Conflict, Conn, Database, Row, T, migration_scripts

_NAMES: list[str] = [str(n) for n in range(1, 101)]


def _named(args: Sequence[Any]) -> dict[str, Any]:
    """A statement's arguments as its named parameters: {"1": first, "2": second, …}."""
    if len(args) > len(_NAMES):
        _NAMES.extend(str(n) for n in range(len(_NAMES) + 1, len(args) + 1))
    return dict(zip(_NAMES, args, strict=False))  # _NAMES is the longer


def _rows(cursor: sqlite3.Cursor) -> list[Row]:
    rows = cursor.fetchall()
    if not rows:
        return []
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in rows]


class _Thread:
    """A sqlite3 connection and the one thread that runs everything on it: `run(fn, *args)`
    calls `fn(connection, *args)` there, and the event loop waits without blocking."""

    def __init__(self, path: str, name: str):
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._path = path
        self._thread = threading.Thread(target=self._serve, name=f"sqlite-{name}", daemon=True)
        self.conn: sqlite3.Connection | None = None
        self.closed = False

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            loop, future, fn, args = job
            try:
                if self.conn is None:
                    self.conn = sqlite3.connect(self._path, isolation_level=None,
                                                check_same_thread=False)
                result = fn(self.conn, *args)
            except BaseException as exc:
                loop.call_soon_threadsafe(_settle, future, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, future, result, None)

    def in_transaction(self) -> bool:
        """Whether a transaction is open on the connection (a flag of the connection's, read
        while its thread is idle: only the write lock's holder uses the writer)."""
        return self.conn is not None and self.conn.in_transaction

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.closed:
            raise sqlite3.ProgrammingError("the database is closed")
        if not self._thread.is_alive():
            self._thread.start()
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((loop, future, fn, args))
        return await future

    async def close(self) -> None:
        if self.closed:
            return
        if self._thread.is_alive():
            await self.run(_close)
            self._jobs.put(None)
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join)
        self.closed = True


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the waiting task was cancelled
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _close(conn: sqlite3.Connection) -> None:
    conn.close()


def _setup(conn: sqlite3.Connection, writer: bool) -> None:
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")
    if not writer:  # what the reader is given is a read by the interface's contract (`fetch`)
        conn.execute("PRAGMA query_only=ON")


def _fetch(conn: sqlite3.Connection, sql: str, args: Sequence[Any]) -> list[Row]:
    try:
        return _rows(conn.execute(sql, _named(args)))
    except sqlite3.IntegrityError as exc:  # an INSERT ... RETURNING
        raise Conflict(str(exc)) from None


class _Reader(Conn):
    """Reads on their own connection (committed data only, in WAL mode), or on the writer's
    for `:memory:` (which then sees an open transaction's rows)."""

    def __init__(self, thread: _Thread):
        self._thread = thread

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return await self._thread.run(_fetch, sql, args)

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        raise TypeError("a write outside a transaction")

    async def execute(self, sql: str, *args: Any) -> int:
        raise TypeError("a write outside a transaction")


class _NotOneRow(Exception):
    def __init__(self, otherwise: Exception):
        super().__init__()
        self.otherwise = otherwise


Queued = tuple[str, Sequence[Any], Exception | None]


def _begin(conn: sqlite3.Connection) -> None:
    """Open the write transaction before a write (the connection is in autocommit mode, so
    sqlite3 opens none by itself): the call it came through says it is a write."""
    if not conn.in_transaction:
        conn.execute("BEGIN IMMEDIATE")


def _batch(conn: sqlite3.Connection, writes: list[Queued], mode: str, sql: str,
           args: Any) -> Any:
    """Runs on the connection's thread: the queued writes in order (a `write_one` that did
    not change exactly one row stops there), then one statement (`mode` fetch, returning,
    returning_commit, execute or many) or the commit. The transaction begins with the first
    write, in the same round trip."""
    if writes or mode in ("returning", "returning_commit", "execute", "many"):
        _begin(conn)
    for queued_sql, queued_args, otherwise in writes:
        changed = conn.execute(queued_sql, _named(queued_args)).rowcount
        if otherwise is not None and changed != 1:
            raise _NotOneRow(otherwise)
    if mode in ("fetch", "returning", "returning_commit"):
        rows = _rows(conn.execute(sql, _named(args)))
        if mode == "returning_commit":
            conn.commit()
        return rows
    if mode == "execute":
        return conn.execute(sql, _named(args)).rowcount
    if mode == "many":
        conn.executemany(sql, [_named(row) for row in args])
    elif mode == "commit":
        if conn.in_transaction:
            conn.commit()
    elif mode == "script":  # a migration, in a transaction of its own
        _begin(conn)
        for statement in sql:
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version={int(args)}")
        conn.commit()
    return None


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.rollback()


class _SqliteTx(Conn):
    """The connection inside a write transaction: every call is one round trip to the
    database thread, carrying the writes queued by `write` before it."""

    def __init__(self, thread: _Thread):
        self._thread = thread
        self._writes: list[Queued] = []
        self._finished = False

    async def _run(self, mode: str, sql: Any = "", args: Any = ()) -> Any:
        if self._finished:
            raise RuntimeError("a statement after the transaction's last one (returning_last)")
        writes, self._writes = self._writes, []
        if mode == "commit" and not writes and not self._thread.in_transaction():
            return None  # only reads: no transaction was opened
        try:
            return await self._thread.run(_batch, writes, mode, sql, args)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None
        except _NotOneRow as exc:
            raise exc.otherwise from None

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return await self._run("fetch", sql, args)

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        return await self._run("returning", sql, args)

    async def returning_last(self, sql: str, *args: Any) -> list[Row]:
        rows = await self._run("returning_commit", sql, args)
        self._finished = True
        return rows

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


class _NeedsLock(Exception):
    """A body run ahead of the write lock (`_Ahead`) needs a statement's result under the
    lock: it runs again in a transaction."""


class _Moved(Exception):
    """A check of a body run ahead of the lock failed at its commit: what it read has
    changed since."""


class _Ahead(Conn):
    """What an `atomic` body runs on before it takes the write lock: reads see committed
    data (the reader), and writes are recorded, to be replayed (with their `write_one`
    checks) in a group commit. A statement whose result is needed under the lock (an
    `execute`, a write that returns rows) or `serialize` raises `_NeedsLock`."""

    def __init__(self, reader: Conn):
        self._reader = reader
        self.recorded: list[Queued] = []

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return await self._reader.fetch(sql, *args)

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        raise _NeedsLock(sql[:40])

    async def execute(self, sql: str, *args: Any) -> int:
        raise _NeedsLock(sql[:40])

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.recorded.extend((sql, tuple(row), None) for row in rows)

    async def write(self, sql: str, *args: Any) -> None:
        self.recorded.append((sql, args, None))

    async def write_one(self, sql: str, *args: Any, otherwise: Exception) -> None:
        self.recorded.append((sql, args, otherwise))

    async def serialize(self, key: int) -> None:
        raise _NeedsLock("reads that must stay true until the commit")

    async def replay(self, conn: Conn) -> None:
        """The recorded writes, in order, on a transaction's connection; a failed check
        raises `_Moved`."""
        for sql, args, otherwise in self.recorded:
            if otherwise is None:
                await conn.write(sql, *args)
            else:
                await conn.write_one(sql, *args, otherwise=_Moved())


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
        for waiting in (urgent, background):
            while waiting and waiting[0].done():
                waiting.popleft()  # cancelled while waiting
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


Writes = Callable[[Conn], Awaitable[None]]


class SqliteDatabase(Database):
    """One writer connection (writes serialised by a lock) and one reader (WAL).

    A write transaction holds the lock across its round trips to the database thread, and
    under load each round trip waits for a turn of the busy event loop: the lock's time, not
    the CPU, bounded the moves per second. So a transaction spends no round trip of its own on
    BEGIN: the driver opens the transaction (BEGIN IMMEDIATE) in the same call as the first
    write (a call the interface names a write: `write`, `execute`, `returning`, never guessed
    from the SQL), and reads before that first write run on the writer outside a transaction. They
    still see exactly what the transaction would, because every write of the process goes
    through this lock and a SQLite file belongs to one bot process (several processes share
    PostgreSQL, never SQLite). A transaction that only reads never takes SQLite's write lock
    at all. Writes whose result is not needed (`Conn.write`) wait and go with the next
    statement or the commit: one round trip for several statements.
    """

    dialect = "sqlite"

    def __init__(self, path: str, writer: _Thread, reader: _Thread):
        self.url = path
        self._writer = writer
        self._reader = reader
        self._write_lock = WriteLock()
        # `together`: the writes waiting for the next shared commit, players' and background
        self._groups: dict[bool, list[tuple[Writes, asyncio.Future[None]]]] = {
            False: [], True: []}
        self.committers: set[asyncio.Task[None]] = set()  # group commits under way

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        path = str(path)
        if path != ":memory:":
            private_file(Path(path))
        writer = _Thread(path, "writer")
        await writer.run(_setup, True)
        reader = writer
        if path != ":memory:":
            reader = _Thread(path, "reader")
            await reader.run(_setup, False)
        return cls(path, writer, reader)

    @property
    def reader(self) -> Conn:
        return _Reader(self._reader)

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
                await self._writer.run(_rollback)
                raise

    async def atomic(self, body: Body[T], *, again_on: tuple[type[Exception], ...] = (),
                     background: bool = False) -> T:
        """First ahead of the write lock (`_Ahead`), committed in a group commit; again in a
        transaction if that run needs the lock, raises, or its checks fail at the commit."""
        if self.reads_committed:
            ahead = _Ahead(self.reader)
            try:
                result = await body(ahead)
            except Exception:
                pass
            else:
                if not ahead.recorded:
                    return result
                try:
                    await self.together(ahead.replay, background=background)
                except _Moved:
                    pass
                else:
                    return result
        return await super().atomic(body, again_on=again_on, background=background)

    async def together(self, writes: Writes, *, background: bool = True) -> None:
        """Commit `writes` in one transaction with whatever other `together` writes are
        waiting for the write lock at the same moment: one lock turn and one round trip to
        the database thread for all of them (a group commit). Under load the delivery
        worker finishes many rows at once, and each transaction of its own kept the lock for
        a round trip. If the shared transaction fails, each `writes` is committed on its
        own, so that one's error is never another's. Returns once the writes are committed
        (raises what committing them alone raised)."""
        done = asyncio.get_running_loop().create_future()
        group = self._groups[background]
        group.append((writes, done))
        if len(group) == 1:  # the first to wait starts the commit the others join
            task = asyncio.create_task(self._commit_group(background))
            self.committers.add(task)
            task.add_done_callback(self.committers.discard)
        await done

    async def _commit_group(self, background: bool) -> None:
        batch: list[tuple[Writes, asyncio.Future[None]]] = []
        try:
            try:
                async with self.transaction(background) as tx:
                    # taken once the lock is ours: all who joined while it was awaited come
                    batch, self._groups[background] = self._groups[background], []
                    for writes, _ in batch:
                        await writes(tx)
            except Exception:
                await self._commit_alone(batch, background)
                return
        except BaseException:  # cancelled (the loop is closing), retrying alone too: nobody is
            # left waiting
            if not batch:
                batch, self._groups[background] = self._groups[background], []
            for _, done in batch:
                done.cancel()  # those already settled stay as they are
            raise
        for _, done in batch:
            if not done.done():
                done.set_result(None)

    async def _commit_alone(self, batch: list[tuple[Writes, asyncio.Future[None]]],
                            background: bool) -> None:
        """Each `writes` of a failed group in a transaction of its own (cancelled meanwhile:
        `_commit_group` cancels those not retried yet)."""
        for writes, done in batch:
            try:
                async with self.transaction(background) as tx:
                    await writes(tx)
            except Exception as exc:
                if not done.done():
                    done.set_exception(exc)
            else:
                if not done.done():
                    done.set_result(None)

    async def schema_version(self) -> int:
        return int(await self._writer.run(_user_version))

    async def migrate(self) -> int:
        current = await self.schema_version()
        for number, _, script in migration_scripts(self.dialect):
            if number <= current:
                continue
            async with self._write_lock.hold():
                try:
                    await self._writer.run(_batch, [], "script", split_statements(script), number)
                except BaseException:
                    await self._writer.run(_rollback)
                    raise
            current = number
        return current

    async def pragma(self, name: str) -> Any:
        return await self._reader.run(_pragma, name)

    async def close(self) -> None:
        """Wait for the group commits under way (a write they carry, such as an outbox row
        marked done, is not lost to the stop); checkpoint the write-ahead log into the
        database file, then close both connections (the last close removes the -wal and
        -shm files)."""
        if self.committers:
            await asyncio.wait(set(self.committers), timeout=2)
        async with self._write_lock.hold():
            if self._reader is not self._writer:
                await self._reader.close()
            with contextlib.suppress(sqlite3.Error):
                await self._writer.run(_checkpoint)
            await self._writer.close()


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _pragma(conn: sqlite3.Connection, name: str) -> Any:
    row = conn.execute(f"PRAGMA {name}").fetchone()
    return None if row is None else row[0]


def _checkpoint(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def private_file(path: Path) -> None:
    """Create the database's folder (0700) and file (0600) readable by this user only; SQLite
    gives its -wal and -shm files the database file's permissions."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, mode=0o700)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    os.chmod(path, 0o600)


def split_statements(script: str) -> list[str]:
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
