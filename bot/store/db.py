"""The database behind the store: one interface, and one driver per database.

`bot/store/__init__.py` holds all of Corral's SQL and runs it on a `Conn`; a `Database` opens
transactions and answers reads of committed data. Two drivers implement them, each with the
differences of its database inside it, none in branches of the shared code:

- `bot/store/sqlite.py` (the default): aiosqlite, the stdlib `sqlite3` on a thread of its own per
  connection, through aiosqlite's public API only (`connect`, `execute`, `execute_fetchall`,
  `commit`, `rollback`, `in_transaction`, `row_factory`); one writer serialised by a lock
  (players' transactions first), in autocommit mode (isolation_level None: the driver sends
  BEGIN IMMEDIATE before a transaction's first write, and sqlite3 never opens one from the
  look of a statement); reads of committed data on a second, query-only connection (WAL);
  writes whose results nobody reads held for the transaction's next statement or its commit
  and sent with it in one round trip (a run of the same SQL as one `executemany`), group
  commits (`together`), and `atomic` bodies worked out ahead of the write lock and replayed
  under it.

  Why aiosqlite (the design card's stack) and its public API only: issue 29 forbids a
  library's private API, and aiosqlite's one way to run a function of ours on its thread is
  the private `Connection._execute`. Sent through its public calls, each statement of a
  transaction was a round trip of its own (a move's transaction: BEGIN, four writes, the
  commit, six trips where a hand-written thread sent them in one), and under load each trip
  waits for a turn of the busy event loop with the write lock held. So the sqlite3
  connection aiosqlite opens is our subclass (sqlite3's documented `factory` argument, which
  `aiosqlite.connect` passes on), whose `execute` also takes a `_Batch` of statements: a
  move's transaction is one `execute_fetchall` again. `bench/store_trips.py` (round trips and
  CPU per `play()`) and `bench/store_paths.py --setups sqlite`, run alternately on the
  hand-written thread (e38892f^1), aiosqlite a trip per statement (6cecc85) and this driver
  on the same 2-core machine at load 7-8: round trips per `play()` 1.5 / 6.5 / 1.5; CPU per
  `play()` 0.95-1.0 / 1.3-1.7 / 0.9-1.1 ms; 30 moves at once 576-580 / 313-349 / 567-628
  moves/s. Earlier, at load ~1, aiosqlite a trip per statement gave 820-970 moves/s against
  1,390-1,530 for the thread; sending a transaction's statements as several tasks on
  aiosqlite's queue without waiting for each gained little (about 650/s): the cost is each
  call's own, not the waits. The end-to-end figures are in the README.
- `bot/store/pg.py`: asyncpg's pool; row locks, SKIP LOCKED and advisory locks where SQLite's one
  writer needs none.

The SQL is written once. Its placeholders are `$1, $2, …`, which both drivers bind natively:
asyncpg by position, sqlite3 as named parameters (`$1` is the parameter named "1"; the SQLite
driver passes {"1": first, "2": second, …}). Nothing rewrites or inspects SQL text: a read is a
call of its own (`fetch`), never guessed from the statement, and a write that returns rows is
`returning`. The few places where the two databases must be told different things are methods
of `Conn`: `locking` (the clause that locks the rows a SELECT reads, for the rest of the
transaction) and `serialize` (one transaction at a time per key).

Why not SQLAlchemy Core with Alembic (issue 29 asked to measure both): `bench/store_paths.py`
runs a move's statements (the match read with its seats; then, in one transaction, the
match's versioned UPDATE, its log entry, the offers voided, one outbox row) through this store
and through SQLAlchemy 2.1 Core's async engine (`text()` statements, sqlite+aiosqlite and
postgresql+asyncpg). On this project's 2-core machine (load ~2), per operation (the SQLite
figures for the store are those of its driver before aiosqlite, one round trip per
transaction, as the aiosqlite driver's are again):

    SQLite      read 120 µs (120 CPU)  vs 1,405 µs (839 CPU);  move 848 µs (436 CPU)  vs
                4,797 µs (2,963 CPU);  30 moves at once: 1,134/s  vs 254/s
    PostgreSQL  read 511 µs (339 CPU)  vs 900 µs (579 CPU);    move 2,560 µs (1,219 CPU) vs
                3,778 µs (2,108 CPU);  30 moves at once: 487/s  vs 191/s

The bot's saturation is bound by CPU and by the time SQLite's write lock is held; SQLAlchemy's
async layer (greenlets, result processing) costs several times the CPU per move, on top of a
round trip per statement (its aiosqlite dialect has no call for several).

Migrations are SQL files, numbered. Those written once for both databases are in
`bot/store/migrations/common/` (from 0004 on: BIGINT and DOUBLE PRECISION, which SQLite reads with
the same INTEGER and REAL affinity as its own spelling, so no type name is substituted); a
database's own are in `bot/store/migrations/<dialect>/`. 0001-0003 stay twins per database because
what they make is spelled differently, not just typed: an id is SQLite's INTEGER PRIMARY KEY
(the rowid; AUTOINCREMENT for the outbox) against a BIGSERIAL, the append-only trigger is a
SELECT RAISE against a PL/pgSQL function, and 0002 rebuilds SQLite's move log (it cannot drop
a primary key) where PostgreSQL alters it. Rewriting those applied migrations into one text
would need a template language for exactly these cases; Alembic would spell them per dialect
as well. `tests/test_postgres.py` checks that both sets make the same schema.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

Row = Mapping[str, Any]
T = TypeVar("T")
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class DatabaseError(Exception):
    """Base class of the errors this module raises."""


class Conflict(DatabaseError):
    """A unique or foreign-key constraint refused a write (the transaction is rolled back)."""


def params(count: int, start: int = 1) -> str:
    """`$start, $start+1, …`: `count` placeholders (an IN list)."""
    return ", ".join(f"${n}" for n in range(start, start + count))


class Conn(ABC):
    """What a query runs on: a transaction, or the reader of committed data. Placeholders
    are `$1, $2, …` (see the module's docstring)."""

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """A read: the statement changes nothing (a SELECT)."""

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else next(iter(row.values()))

    @abstractmethod
    async def returning(self, sql: str, *args: Any) -> list[Row]:
        """A write that returns rows (INSERT/UPDATE … RETURNING)."""

    async def returning_last(self, sql: str, *args: Any) -> list[Row]:
        """A `returning` that is the transaction's last statement: in a SQLite transaction the
        commit goes with it, in the same round trip to the database thread."""
        return await self.returning(sql, *args)

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run a write; returns the number of rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        for row in rows:
            await self.execute(sql, *row)

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

    def locking(self, of: str | None = None, *, skip_locked: bool = False) -> str:
        """The clause a SELECT ends with so that the rows it reads (of table alias `of`) stay
        this transaction's until it ends; `skip_locked`: rows another transaction holds are
        left out. Empty where one writer holds the whole database (SQLite)."""
        return ""

    async def serialize(self, key: int) -> None:
        """What follows reads data and writes from it with nothing to check that the data is
        unchanged at the commit (ratings): one transaction at a time per `key`, until this
        one ends. Nothing to do where transactions never overlap (SQLite)."""
        return None


Body = Callable[[Conn], Awaitable[T]]


class Database(ABC):
    dialect: str  # which database ("sqlite", "postgresql"): for messages and tests
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

    async def together(self, writes: Callable[[Conn], Awaitable[None]], *,
                       background: bool = True) -> None:
        """Commit `writes` (statements whose results nobody reads), possibly in one
        transaction with other `together` writes waiting at the same moment (SQLite's group
        commit); each caller's error is its own. By default, a transaction of its own."""
        async with self.transaction(background) as conn:
            await writes(conn)

    async def atomic(self, body: Body[T], *, again_on: tuple[type[Exception], ...] = (),
                     background: bool = False) -> T:
        """Run `body` as one transaction and return what it returns. The body may run more
        than once, so it must do nothing outside the transaction; what it returns comes
        from the run whose writes were committed (or from a run that wrote nothing).

        A run that raises one of `again_on` (the body's own check that its start was
        current) is run again. Drivers may also run a body first ahead of their write lock
        (SQLite: every read of committed data, the writes recorded and committed in a group
        commit with their checks); if that run needs the lock, raises, or its checks fail at
        the commit, it runs again in a transaction, and that run's outcome stands. So every
        read such a body makes must either be checked at the commit (a match's version guards
        the match, its seats and its log) or be harmless when a moment old (a player's
        settings). By default: one transaction."""
        while True:
            try:
                async with self.transaction(background) as conn:
                    return await body(conn)
            except again_on:
                again_on = ()

    @abstractmethod
    async def migrate(self) -> int:
        """Apply the migrations not applied yet; returns the schema version."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def close(self) -> None: ...


def migration_scripts(dialect: str) -> list[tuple[int, str, str]]:
    """(number, name, SQL) of the numbered migrations, in order: those written once for both
    databases (`bot/store/migrations/common/`) and the database's own
    (`bot/store/migrations/<dialect>/`). A number in both is an error: it would be ambiguous
    which one a database applied."""
    scripts: dict[int, tuple[int, str, str]] = {}
    for folder in (MIGRATIONS / "common", MIGRATIONS / dialect):
        for path in sorted(folder.glob("*.sql")):
            number = int(path.name.split("_", 1)[0])
            if number in scripts:
                raise DatabaseError(f"migration {number} is both common and {dialect}'s own")
            scripts[number] = (number, path.stem, path.read_text(encoding="utf-8"))
    return [scripts[number] for number in sorted(scripts)]
