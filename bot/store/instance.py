"""One bot process per database role: a second `python -m bot` started by mistake on the same
SQLite file, or on a shard another process of the same PostgreSQL deployment already runs,
refuses to start, so an overlapping restart can never post a board twice.

SQLite: an exclusive `flock` on `<database>.lock` beside the file (not on the database file
itself, which a restore replaces), named from the database's real path: a symlink, a relative
path or `..` in CORRAL_DATABASE reaches the same lock as any other name for the same file.
The kernel drops it when the process ends however it ends, SIGKILL included, so a crash never
leaves a stale lock to clean up. PostgreSQL: a session
advisory lock per shard, held on a connection of its own for the life of the process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from pathlib import Path
from typing import Any

from ..config import Settings

SHARD_LOCK = 0x73686172  # "shar": pg_try_advisory_lock(SHARD_LOCK, shard id)


class AlreadyRunning(Exception):
    """The bot must not start on this database (another process holds its role, or the
    database cannot be used); the message is one line for the admin."""


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def real_path(database: str | Path) -> Path:
    """The database file's real path (symlinks resolved; the file need not exist yet)."""
    return Path(database).expanduser().resolve()


def lock_path(database: str | Path, suffix: str = ".lock") -> Path:
    path = real_path(database)
    return path.with_name(path.name + suffix)


class FileLock:
    """The SQLite file's lock; `release` (or the process's end) lets the next one in."""

    def __init__(self, database: str | Path, suffix: str = ".lock",
                 why: str = "only one process may use a SQLite file"):
        self.database = Path(database)
        self.path = lock_path(database, suffix)
        self.why = why
        self._fd: int | None = None

    def acquire(self, what: str = "a bot") -> None:
        """Take the lock or raise `AlreadyRunning` naming the holder's pid."""
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:  # the fd is not inherited by the picture workers (Python's default)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except PermissionError:  # another user's lock file (an admin's sudo): it locks too
            fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise AlreadyRunning(
                f"another process ({holder}) is already running on {self.database}: "
                f"stop it first ({self.why})") from None
        with contextlib.suppress(OSError):  # who holds it, for the next one's message
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{what}, pid {os.getpid()}".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing drops the flock
            self._fd = None


def newest_schema(dialect: str = "sqlite") -> int:
    from .db import migration_scripts

    return migration_scripts(dialect)[-1][0]


def sqlite_schema(path: str | Path) -> int:
    """The schema version of an existing SQLite file (read only; 0 for an empty file)."""
    conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def check_sqlite_schema(path: str | Path) -> None:
    """A database written by a newer Corral is refused before anything touches it (the
    migrations only go forward)."""
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        version = sqlite_schema(path)
    except sqlite3.DatabaseError as exc:
        raise AlreadyRunning(f"{path} is not a usable SQLite database ({exc})") from None
    if version > newest_schema():
        raise AlreadyRunning(
            f"{path} has schema {version}, newer than this Corral knows ({newest_schema()}): "
            "upgrade Corral, or restore a backup made by this version")


def lock_sqlite(settings: Settings) -> FileLock:
    """At start, before the store opens: the lock, then the schema check."""
    lock = FileLock(settings.database)
    lock.acquire()
    try:
        check_sqlite_schema(settings.database)
    except AlreadyRunning:
        lock.release()
        raise
    return lock


def shards_of(settings: Settings) -> list[int]:
    """The shards this process serves: a process without CORRAL_SHARDS serves them all, and
    is counted as shard 0 (so it clashes with any shard process that has shard 0)."""
    if settings.shard_count is None:
        return [0]
    return list(settings.shard_ids or range(settings.shard_count))


async def lock_postgres(settings: Settings) -> Any:
    """A connection holding a session advisory lock per shard (closing it releases them)."""
    import asyncpg

    try:
        conn = await asyncpg.connect(settings.database, timeout=30)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        raise AlreadyRunning(f"cannot reach the PostgreSQL database in CORRAL_DATABASE "
                             f"({type(exc).__name__}: {str(exc)[:200]})") from None
    try:
        for shard in shards_of(settings):
            if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK,
                                       shard):
                holder = await conn.fetchval(
                    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1"
                    " AND objid = $2 AND granted LIMIT 1", SHARD_LOCK, shard)
                raise AlreadyRunning(
                    f"shard {shard} is already served by another bot process on this "
                    f"PostgreSQL database (its server pid {holder}): stop it first, or give "
                    "this process other CORRAL_SHARD_IDS")
    except BaseException:
        await conn.close()
        raise
    return conn
