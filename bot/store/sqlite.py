"""SQLite behind the store: aiosqlite (the stdlib `sqlite3`, each connection on a thread of its
own), through its public API only.

One writer connection, its transactions serialised by `WriteLock` (players' first), and one
reader connection in WAL mode that only ever sees committed data. Everything that makes SQLite
fast under load stays in this module: writes whose results nobody reads wait for the
transaction's next statement or its commit and go in the same round trip to the writer's
thread, a run of them with the same SQL as one `executemany` (`_SqliteTx`), bookkeeping from
many tasks shares one commit (`together`), and an `atomic` body is worked out ahead of the
write lock on committed reads and replayed under it (`_Ahead`).

Each call of aiosqlite's is one round trip to the connection's thread, and under load each
trip waits for a turn of the busy event loop while the write lock is held. So the writer's
sqlite3 connection is a subclass of our own (sqlite3's documented `factory`, which aiosqlite
passes on) whose `execute` also takes a `_Batch`: BEGIN IMMEDIATE, the statements and the
COMMIT of a transaction in one call. A move's transaction is one trip, as it was when the
driver ran its own threads, with no private API of aiosqlite's (issue 29).

Placeholders: the store's `$1, $2, …` are SQLite named parameters ("1", "2", …), bound from a
dict (`_named`): nothing in the SQL is rewritten.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, cast

import aiosqlite

from .db import Body, Conflict, Conn, Database, Row, T, migration_scripts

_NAMES: list[str] = [str(n) for n in range(1, 101)]


def _named(args: Sequence[Any]) -> dict[str, Any]:
    """A statement's arguments as its named parameters: {"1": first, "2": second, …}."""
    if len(args) > len(_NAMES):
        _NAMES.extend(str(n) for n in range(len(_NAMES) + 1, len(args) + 1))
    return dict(zip(_NAMES, args, strict=False))  # _NAMES is the longer


_Rows = list[Row]  # what `execute_fetchall` returns: a list, of the row factory's dicts


def _dict_row(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> Row:
    """The connections' row factory (run on their threads): a row as {column: value}."""
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


class _Step(NamedTuple):
    """One statement of a `_Batch`: `args` are its named parameters (a dict), or a list of
    them for an `executemany`; `one`: it must change exactly one row, else the batch stops
    there; `rows`: its rows are wanted (else the number of rows it changed)."""

    sql: str
    args: Any
    many: bool = False
    one: bool = False
    rows: bool = False


class _Batch(NamedTuple):
    """Statements sent to the writer's thread together, as one call of aiosqlite's
    `execute_fetchall` (one round trip): BEGIN IMMEDIATE first if `begin` and no transaction
    is open, then `steps` in order, then COMMIT if `commit` and every step passed."""

    begin: bool
    steps: tuple[_Step, ...]
    commit: bool


class _Ran(NamedTuple):
    """What a `_Batch` gave back: each step's rows or count of changed rows, up to
    `stopped` (the index of a step that did not change exactly one row) if one did not."""

    results: list[Any]
    stopped: int | None


class _BatchCursor(sqlite3.Cursor):
    """What `_Connection.execute` returns for a `_Batch`: its `fetchall` is the `_Ran`."""

    def __init__(self, connection: sqlite3.Connection, ran: _Ran):
        super().__init__(connection)
        self._ran = ran

    def fetchall(self) -> list[Any]:
        return [self._ran]


class _Connection(sqlite3.Connection):
    """The sqlite3 connection aiosqlite runs on its thread (sqlite3's documented `factory`
    for a subclass of its own). Its `execute` also takes a whole `_Batch` for parameters:
    aiosqlite's public API makes each call one round trip to that thread, and under load each
    trip waits for a turn of the busy event loop while the write lock is held, so a
    transaction's statements go in one call (issue 29: no private API of a library, so not
    aiosqlite's `_execute`). Dispatch is on the parameters' type, never on the SQL's text."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if not isinstance(parameters, _Batch):
            return super().execute(sql, parameters)
        return _BatchCursor(self, self._run(parameters))

    def _run(self, batch: _Batch) -> _Ran:
        """On the connection's thread. An error leaves the transaction open (the driver
        rolls it back); so does a step that stopped the batch."""
        if batch.begin and not self.in_transaction:
            super().execute("BEGIN IMMEDIATE")
        results: list[Any] = []
        for index, step in enumerate(batch.steps):
            if step.many:
                cursor = self.executemany(step.sql, step.args)
            else:
                cursor = super().execute(step.sql, step.args)
            results.append(cursor.fetchall() if step.rows else cursor.rowcount)
            if step.one and cursor.rowcount != 1:
                return _Ran(results, index)
        if batch.commit and self.in_transaction:
            self.commit()
        return _Ran(results, None)


async def _connect(path: str, writer: bool) -> aiosqlite.Connection:
    """A connection in autocommit mode (isolation_level=None: the sqlite3 module never opens
    a transaction by itself, from the look of a statement; the driver sends BEGIN IMMEDIATE
    before a transaction's first write)."""
    conn = await aiosqlite.connect(path, isolation_level=None, factory=_Connection)
    try:
        conn.row_factory = _dict_row  # type: ignore[assignment]  # typed as a class; a callable
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL",
                       "busy_timeout=5000"):
            await conn.execute_fetchall(f"PRAGMA {pragma}")
        if not writer:  # the reader's are reads by the interface's contract (`fetch`)
            await conn.execute_fetchall("PRAGMA query_only=ON")
    except BaseException:  # aiosqlite's thread is not a daemon: left open, it keeps the
        await conn.close()  # process from exiting
        raise
    return conn


async def _send(conn: aiosqlite.Connection, batch: _Batch) -> _Ran:
    """One round trip: the batch on the connection's thread."""
    rows = await conn.execute_fetchall("-- a Corral batch (_Connection.execute)", batch)
    return cast(_Ran, next(iter(rows)))


class _Reader(Conn):
    """Reads on their own connection (committed data only, in WAL mode), or on the writer's
    for `:memory:` (which then sees an open transaction's rows)."""

    def __init__(self, conn: aiosqlite.Connection):
        self._db = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            return cast(_Rows, await self._db.execute_fetchall(sql, _named(args)))
        except sqlite3.IntegrityError as exc:  # an INSERT ... RETURNING
            raise Conflict(str(exc)) from None

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        raise TypeError("a write outside a transaction")

    async def execute(self, sql: str, *args: Any) -> int:
        raise TypeError("a write outside a transaction")


Queued = tuple[str, Sequence[Any], Exception | None]


class _SqliteTx(Conn):
    """The connection inside a write transaction. Writes whose results nobody reads wait
    (`write`, `write_one`) and go with the transaction's next statement or its commit, in
    the same round trip (`_Batch`): a run of them with the same SQL and no check as one
    `executemany`. The transaction begins (BEGIN IMMEDIATE, in that trip too) before its
    first write, a call the interface names a write, never guessed from the SQL."""

    def __init__(self, conn: aiosqlite.Connection):
        self._db = conn
        self._writes: list[Queued] = []
        self._finished = False

    def _queued(self) -> list[tuple[_Step, Exception | None]]:
        """The queued writes as steps, in order, each with what its failed check raises."""
        writes, self._writes = self._writes, []
        steps: list[tuple[_Step, Exception | None]] = []
        start = 0
        while start < len(writes):
            sql, args, otherwise = writes[start]
            end = start + 1
            if otherwise is None:
                while end < len(writes) and writes[end][0] == sql and writes[end][2] is None:
                    end += 1
            if end - start > 1:
                steps.append((_Step(sql, [_named(queued[1]) for queued in writes[start:end]],
                                    many=True), None))
            else:
                steps.append((_Step(sql, _named(args), one=otherwise is not None), otherwise))
            start = end
        return steps

    async def _run(self, write: bool, last: _Step | None, commit: bool = False) -> Any:
        """The queued writes and then `last` (if any) in one round trip, the transaction
        begun first if any of them is a write (`write`: `last` is), committed after them if
        `commit`; returns `last`'s result. A queued `write_one` that did not change exactly
        one row raises its `otherwise` (nothing after it ran)."""
        if self._finished:
            raise RuntimeError("a statement after the transaction's last one (returning_last)")
        queued = self._queued()
        steps = tuple(step for step, _ in queued) + ((last,) if last is not None else ())
        if not steps:
            if commit:
                self._finished = True
                if self._db.in_transaction:
                    await self._db.commit()
            return None
        if commit:
            self._finished = True
        try:
            ran = await _send(self._db, _Batch(bool(queued) or write, steps, commit))
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None
        if ran.stopped is not None:
            otherwise = queued[ran.stopped][1] if ran.stopped < len(queued) else None
            raise otherwise or RuntimeError("a batch stopped at a step with no check")
        return ran.results[-1] if last is not None else None

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        if not self._writes:  # nothing to send with it: no need of a batch
            if self._finished:
                raise RuntimeError("a statement after the transaction's last one")
            try:
                return cast(_Rows, await self._db.execute_fetchall(sql, _named(args)))
            except sqlite3.IntegrityError as exc:
                raise Conflict(str(exc)) from None
        return cast(_Rows, await self._run(False, _Step(sql, _named(args), rows=True)))

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        return cast(_Rows, await self._run(True, _Step(sql, _named(args), rows=True)))

    async def returning_last(self, sql: str, *args: Any) -> list[Row]:
        return cast(_Rows, await self._run(True, _Step(sql, _named(args), rows=True),
                                           commit=True))

    async def execute(self, sql: str, *args: Any) -> int:
        return cast(int, await self._run(True, _Step(sql, _named(args))))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._run(True, _Step(sql, [_named(row) for row in rows], many=True))

    async def write(self, sql: str, *args: Any) -> None:
        self._writes.append((sql, args, None))

    async def write_one(self, sql: str, *args: Any, otherwise: Exception) -> None:
        self._writes.append((sql, args, otherwise))

    async def commit(self) -> None:
        if self._finished:
            return
        await self._run(False, None, commit=True)


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

    A write transaction holds the lock across its round trips to the writer's thread, and
    under load each round trip waits for a turn of the busy event loop: the lock's time
    bounds the moves per second. The driver opens the transaction (BEGIN IMMEDIATE) just before
    its first write (a call the interface names a write: `write`, `execute`, `returning`,
    never guessed from the SQL), and reads before that first write run on the writer outside
    a transaction. They still see exactly what the transaction would, because every write of
    the process goes through this lock and a SQLite file belongs to one bot process (several
    processes share PostgreSQL, never SQLite). A transaction that only reads never takes
    SQLite's write lock at all. Writes whose result is not needed (`Conn.write`) wait for the
    next statement or the commit and go with it in one round trip (`_Batch`), a run of the same
    SQL as one `executemany`.
    """

    dialect = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection):
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
        writer = await _connect(path, writer=True)
        reader = writer
        if path != ":memory:":
            try:
                reader = await _connect(path, writer=False)
            except BaseException:
                await writer.close()
                raise
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
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        """Roll back whatever is open, on the writer's thread after the trips already sent
        (a cancelled call may still be running there): sqlite3 does nothing if no transaction
        is open, so the flag is not read from here."""
        await self._writer.rollback()

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
        rows = cast(_Rows, await self._writer.execute_fetchall("PRAGMA user_version"))
        return int(rows[0]["user_version"])

    async def migrate(self) -> int:
        current = await self.schema_version()
        for number, _, script in migration_scripts(self.dialect):
            if number <= current:
                continue
            async with self._write_lock.hold():
                try:
                    await self._writer.execute("BEGIN IMMEDIATE")
                    for statement in split_statements(script):
                        await self._writer.execute(statement)
                    await self._writer.execute(f"PRAGMA user_version={int(number)}")
                    await self._writer.commit()
                except BaseException:
                    await self._rollback()
                    raise
            current = number
        return current

    async def pragma(self, name: str) -> Any:
        rows = cast(_Rows, await self._reader.execute_fetchall(f"PRAGMA {name}"))
        return next(iter(rows[0].values())) if rows else None

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
                await self._writer.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._writer.close()


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
