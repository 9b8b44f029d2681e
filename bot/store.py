"""All of Corral's SQL: one SQLite file, numbered migrations, versioned saves.

Every change to a match goes through `save`, which only succeeds if the caller saw the
current `version`; a double click or a race therefore loses cleanly with `StaleVersion`
instead of applying a move twice. Moves are also appended to an append-only log (one row per
ply, primary key (match, ply)) from which a match can be rebuilt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable

import aiosqlite

LIVE_STATUSES = ("open", "invited", "active")
UNSET = object()  # "leave this column alone" (None is a value: no deadline)
STATUSES = LIVE_STATUSES + ("finished", "aborted")

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seat_count INTEGER NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        in_thread INTEGER NOT NULL DEFAULT 0,
        host_id INTEGER NOT NULL,
        invited_id INTEGER,
        first_seat TEXT NOT NULL DEFAULT 'random',
        status TEXT NOT NULL CHECK (status IN ('open', 'invited', 'active', 'finished', 'aborted')),
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX matches_one_live_per_channel
        ON matches (channel_id) WHERE status IN ('open', 'invited', 'active');
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        joined_at REAL NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        ply INTEGER NOT NULL,
        notation TEXT NOT NULL,
        actor_id INTEGER,
        played_at REAL NOT NULL,
        PRIMARY KEY (match_id, ply)
    );
    CREATE TRIGGER moves_are_never_changed BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TRIGGER moves_are_never_deleted BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        use_threads INTEGER NOT NULL DEFAULT 0
    );
    """),
    (2, """
    ALTER TABLE matches ADD COLUMN move_seconds INTEGER;
    ALTER TABLE matches ADD COLUMN turn_started_at REAL;
    CREATE TABLE moves_v2 (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seq INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'move' CHECK (kind IN ('move', 'takeback', 'skip')),
        notation TEXT NOT NULL,
        actor_id INTEGER,
        played_at REAL NOT NULL,
        PRIMARY KEY (match_id, seq)
    );
    INSERT INTO moves_v2 (match_id, seq, ply, kind, notation, actor_id, played_at)
        SELECT match_id, ply, ply, 'move', notation, actor_id, played_at FROM moves;
    DROP TABLE moves;
    ALTER TABLE moves_v2 RENAME TO moves;
    CREATE TRIGGER moves_are_never_changed BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TRIGGER moves_are_never_deleted BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TABLE notices (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        ply INTEGER NOT NULL,
        kind TEXT NOT NULL,
        sent_at REAL NOT NULL,
        PRIMARY KEY (match_id, ply, kind)
    );
    CREATE TABLE offers (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches (id),
        kind TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
        from_user INTEGER NOT NULL,
        version INTEGER NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'declined', 'void'))
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        reminders TEXT NOT NULL DEFAULT 'on' CHECK (reminders IN ('on', 'off', 'digest')),
        last_digest_at REAL
    );
    CREATE TABLE vacations (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        starts_at REAL NOT NULL,
        ends_at REAL NOT NULL
    );
    CREATE INDEX vacations_by_user ON vacations (user_id);
    ALTER TABLE guild_settings ADD COLUMN move_seconds INTEGER;
    ALTER TABLE guild_settings ADD COLUMN channels TEXT;
    ALTER TABLE guild_settings ADD COLUMN spectators_talk INTEGER NOT NULL DEFAULT 1;
    """),
)


class StoreError(Exception):
    """Base class of store errors."""


class StaleVersion(StoreError):
    """The match changed since the caller read it."""


class ChannelBusy(StoreError):
    """The channel already has a live match."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True)
class MoveRow:
    seq: int  # position in the log (takebacks and skips are entries too)
    ply: int  # the game's ply before the entry
    kind: str  # move, takeback or skip
    notation: str
    actor_id: int | None
    played_at: float


@dataclass(frozen=True)
class MatchRow:
    id: int
    game: str
    options: dict[str, str]
    seat_count: int
    guild_id: int | None
    channel_id: int
    in_thread: bool
    host_id: int
    invited_id: int | None
    first_seat: str
    status: str
    state: dict[str, Any] | None
    version: int
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    seats: tuple[SeatRow, ...] = field(default=())
    move_seconds: int | None = None  # time per move; None: no deadline
    turn_started_at: float | None = None

    def seat_of(self, user_id: int) -> int | None:
        for row in self.seats:
            if row.user_id == user_id:
                return row.seat
        return None

    def user_at(self, seat: int) -> SeatRow | None:
        for row in self.seats:
            if row.seat == seat:
                return row
        return None


@dataclass(frozen=True)
class NewMove:
    ply: int
    notation: str
    actor_id: int | None
    kind: str = "move"


class Store:
    """One aiosqlite connection; writes are serialised by a lock so that transactions from
    concurrent tasks never interleave on the shared connection."""

    def __init__(self, db: aiosqlite.Connection, path: str):
        self._db = db
        self.path = path
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store._migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    @contextlib.asynccontextmanager
    async def _transaction(self, conflict: Callable[[], Exception] | None = None
                           ) -> AsyncIterator[None]:
        """One write transaction at a time; a constraint violation becomes `conflict()`."""
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except sqlite3.IntegrityError:
                await self._db.execute("ROLLBACK")
                if conflict is None:
                    raise
                raise conflict() from None
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in MIGRATIONS:
            if number <= current:
                continue
            async with self._transaction():
                for statement in _statements(script):
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version={number}")

    async def schema_version(self) -> int:
        (version,) = await (await self._db.execute("PRAGMA user_version")).fetchone()
        return version

    async def pragma(self, name: str) -> Any:
        (value,) = await (await self._db.execute(f"PRAGMA {name}")).fetchone()
        return value

    # -- matches -----------------------------------------------------------------------
    async def create_match(self, *, game: str, options: dict[str, str], seat_count: int,
                           guild_id: int | None, channel_id: int, in_thread: bool,
                           host_id: int, host_name: str, invited_id: int | None,
                           first_seat: str, status: str, now: float) -> MatchRow:
        async with self._transaction(conflict=lambda: ChannelBusy(channel_id)):
            cursor = await self._db.execute(
                "INSERT INTO matches (game, options, seat_count, guild_id, channel_id,"
                " in_thread, host_id, invited_id, first_seat, status, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, json.dumps(options), seat_count, guild_id, channel_id, int(in_thread),
                 host_id, invited_id, first_seat, status, now, now))
            match_id = cursor.lastrowid
            await self._db.execute(
                "INSERT INTO seats (match_id, seat, user_id, name, joined_at)"
                " VALUES (?, 0, ?, ?, ?)", (match_id, host_id, host_name, now))
        return await self._fetch(match_id)

    async def _fetch(self, match_id: int) -> MatchRow:
        match = await self.get_match(match_id)
        assert match is not None
        return match

    async def get_match(self, match_id: int) -> MatchRow | None:
        cursor = await self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,))
        row = await cursor.fetchone()
        return None if row is None else await self._with_seats(row)

    async def live_match_in(self, channel_id: int) -> MatchRow | None:
        cursor = await self._db.execute(
            "SELECT * FROM matches WHERE channel_id = ? AND status IN ('open', 'invited', 'active')",
            (channel_id,))
        row = await cursor.fetchone()
        return None if row is None else await self._with_seats(row)

    async def live_matches_of(self, user_id: int) -> list[MatchRow]:
        cursor = await self._db.execute(
            "SELECT m.* FROM matches m JOIN seats s ON s.match_id = m.id"
            " WHERE s.user_id = ? AND m.status IN ('open', 'invited', 'active')"
            " ORDER BY m.updated_at", (user_id,))
        return [await self._with_seats(row) for row in await cursor.fetchall()]

    async def _with_seats(self, row: sqlite3.Row) -> MatchRow:
        cursor = await self._db.execute(
            "SELECT seat, user_id, name FROM seats WHERE match_id = ? ORDER BY seat", (row["id"],))
        seats = tuple(SeatRow(r["seat"], r["user_id"], r["name"]) for r in await cursor.fetchall())
        return MatchRow(
            id=row["id"], game=row["game"], options=json.loads(row["options"]),
            seat_count=row["seat_count"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            in_thread=bool(row["in_thread"]), host_id=row["host_id"],
            invited_id=row["invited_id"], first_seat=row["first_seat"], status=row["status"],
            state=None if row["state"] is None else json.loads(row["state"]),
            version=row["version"],
            result=None if row["result"] is None else json.loads(row["result"]),
            created_at=row["created_at"], updated_at=row["updated_at"], seats=seats,
            move_seconds=row["move_seconds"], turn_started_at=row["turn_started_at"])

    async def save(self, match_id: int, expected_version: int, *, now: float,
                   status: str | None = None, state: dict[str, Any] | None = None,
                   result: dict[str, Any] | None = None,
                   seats: Iterable[SeatRow] | None = None,
                   move: NewMove | None = None, turn_started_at: float | None = None,
                   move_seconds: Any = UNSET) -> MatchRow:
        """Apply a change if the match is still at `expected_version`; returns the new row."""
        sets = ["version = version + 1", "updated_at = ?"]
        args: list[Any] = [now]
        if turn_started_at is not None:
            sets.append("turn_started_at = ?")
            args.append(turn_started_at)
        if move_seconds is not UNSET:
            sets.append("move_seconds = ?")
            args.append(move_seconds)
        if status is not None:
            sets.append("status = ?")
            args.append(status)
        if state is not None:
            sets.append("state = ?")
            args.append(json.dumps(state, separators=(",", ":")))
        if result is not None:
            sets.append("result = ?")
            args.append(json.dumps(result))
        async with self._transaction(conflict=lambda: StaleVersion(match_id)):
            cursor = await self._db.execute(
                f"UPDATE matches SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*args, match_id, expected_version))
            if cursor.rowcount != 1:
                raise StaleVersion(match_id)
            if seats is not None:
                await self._db.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
                await self._db.executemany(
                    "INSERT INTO seats (match_id, seat, user_id, name, joined_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(match_id, s.seat, s.user_id, s.name, now) for s in seats])
            if move is not None:  # the log's sequence is the version being replaced: unique
                await self._db.execute(
                    "INSERT INTO moves (match_id, seq, ply, kind, notation, actor_id, played_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (match_id, expected_version, move.ply, move.kind, move.notation,
                     move.actor_id, now))
        return await self._fetch(match_id)

    async def moves(self, match_id: int) -> list[MoveRow]:
        cursor = await self._db.execute(
            "SELECT seq, ply, kind, notation, actor_id, played_at FROM moves WHERE match_id = ?"
            " ORDER BY seq", (match_id,))
        return [MoveRow(r["seq"], r["ply"], r["kind"], r["notation"], r["actor_id"],
                        r["played_at"]) for r in await cursor.fetchall()]

    async def active_matches(self) -> list[MatchRow]:
        cursor = await self._db.execute("SELECT * FROM matches WHERE status = 'active'")
        return [await self._with_seats(row) for row in await cursor.fetchall()]

    # -- notices: each reminder or expiry is sent at most once per match and ply --------
    async def claim_notice(self, match_id: int, ply: int, kind: str, now: float) -> bool:
        """Record that a notice is being sent; False if it already was."""
        async with self._transaction():
            cursor = await self._db.execute(
                "INSERT OR IGNORE INTO notices (match_id, ply, kind, sent_at) VALUES (?, ?, ?, ?)",
                (match_id, ply, kind, now))
            return cursor.rowcount == 1

    # -- offers ------------------------------------------------------------------------
    async def add_offer(self, match_id: int, kind: str, from_user: int, version: int,
                        now: float) -> int:
        async with self._transaction():
            await self._db.execute(
                "UPDATE offers SET status = 'void' WHERE match_id = ? AND kind = ? AND status = 'open'",
                (match_id, kind))
            cursor = await self._db.execute(
                "INSERT INTO offers (match_id, kind, from_user, version, created_at)"
                " VALUES (?, ?, ?, ?, ?)", (match_id, kind, from_user, version, now))
            return cursor.lastrowid

    async def get_offer(self, offer_id: int) -> dict[str, Any] | None:
        cursor = await self._db.execute("SELECT * FROM offers WHERE id = ?", (offer_id,))
        row = await cursor.fetchone()
        return None if row is None else dict(row)

    async def close_offer(self, offer_id: int, status: str) -> bool:
        """Close an open offer; False if it was no longer open (answered twice, or void)."""
        async with self._transaction():
            cursor = await self._db.execute(
                "UPDATE offers SET status = ? WHERE id = ? AND status = 'open'", (status, offer_id))
            return cursor.rowcount == 1

    # -- users -------------------------------------------------------------------------
    async def reminder_mode(self, user_id: int) -> str:
        cursor = await self._db.execute("SELECT reminders FROM users WHERE user_id = ?",
                                        (user_id,))
        row = await cursor.fetchone()
        return row["reminders"] if row else "on"

    async def set_reminder_mode(self, user_id: int, mode: str) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO users (user_id, reminders) VALUES (?, ?) ON CONFLICT (user_id)"
                " DO UPDATE SET reminders = excluded.reminders", (user_id, mode))

    async def last_digest(self, user_id: int) -> float | None:
        cursor = await self._db.execute("SELECT last_digest_at FROM users WHERE user_id = ?",
                                        (user_id,))
        row = await cursor.fetchone()
        return row["last_digest_at"] if row else None

    async def mark_digest(self, user_id: int, now: float) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO users (user_id, last_digest_at) VALUES (?, ?) ON CONFLICT (user_id)"
                " DO UPDATE SET last_digest_at = excluded.last_digest_at", (user_id, now))

    async def users_with_mode(self, mode: str) -> list[int]:
        cursor = await self._db.execute("SELECT user_id FROM users WHERE reminders = ?", (mode,))
        return [row["user_id"] for row in await cursor.fetchall()]

    async def vacations(self, user_id: int) -> list[tuple[float, float]]:
        cursor = await self._db.execute(
            "SELECT starts_at, ends_at FROM vacations WHERE user_id = ? ORDER BY starts_at",
            (user_id,))
        return [(row["starts_at"], row["ends_at"]) for row in await cursor.fetchall()]

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES (?, ?, ?)",
                (user_id, starts_at, ends_at))

    async def end_vacations(self, user_id: int, now: float) -> int:
        """Cut short every vacation still running; returns how many were."""
        async with self._transaction():
            cursor = await self._db.execute(
                "UPDATE vacations SET ends_at = ? WHERE user_id = ? AND ends_at > ? AND starts_at <= ?",
                (now, user_id, now, now))
            return cursor.rowcount

    # -- server settings ---------------------------------------------------------------
    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        defaults = {"use_threads": False, "move_seconds": None, "channels": None,
                    "spectators_talk": True}
        if guild_id is None:
            return defaults
        cursor = await self._db.execute("SELECT * FROM guild_settings WHERE guild_id = ?",
                                        (guild_id,))
        row = await cursor.fetchone()
        if row is None:
            return defaults
        return {"use_threads": bool(row["use_threads"]), "move_seconds": row["move_seconds"],
                "channels": None if row["channels"] is None else json.loads(row["channels"]),
                "spectators_talk": bool(row["spectators_talk"])}

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> None:
        """Change some settings: use_threads, move_seconds, channels (list or None),
        spectators_talk."""
        columns = {"use_threads": int, "move_seconds": lambda v: v,
                   "channels": lambda v: None if v is None else json.dumps(sorted(v)),
                   "spectators_talk": int}
        async with self._transaction():
            await self._db.execute("INSERT OR IGNORE INTO guild_settings (guild_id) VALUES (?)",
                                   (guild_id,))
            for name, value in changes.items():
                await self._db.execute(f"UPDATE guild_settings SET {name} = ? WHERE guild_id = ?",
                                       (columns[name](value), guild_id))


    async def uses_threads(self, guild_id: int | None) -> bool:
        return (await self.guild_settings(guild_id))["use_threads"]

    async def set_uses_threads(self, guild_id: int, value: bool) -> None:
        await self.update_guild_settings(guild_id, use_threads=value)


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements, buffer = [], ""
    for line in script.strip().splitlines():
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
