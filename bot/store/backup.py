"""Backups and restores of the store, safe while the bot plays on.

    python -m bot backup [PATH]      a checked copy (PATH: a file or a folder)
    python -m bot restore PATH       put a copy back (the bot must be stopped)

SQLite: SQLite's online backup API copies every page in one step, inside one read
transaction, so the copy is exactly the database as it was when the step began. In WAL mode a
reader never blocks the writer: the bot keeps committing moves (to the WAL) while the copy is
made. It runs in the command's own process, or in a thread of the bot for scheduled backups,
never on the bot's event loop and never under the bot's write lock. Row counts are read in the
same read transaction as the copy and compared with the copy's, after its integrity check.

PostgreSQL: `pg_dump --format=custom` when it is installed (checked with `pg_restore --list`);
restore with `pg_restore` (see the README).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..config import database_setting
from .instance import AlreadyRunning, FileLock, is_postgres, newest_schema, real_path

T = TypeVar("T")
SQLITE_MAGIC = b"SQLite format 3\x00"
PREFIX = "corral-"  # scheduled and default backups: corral-YYYYmmdd-HHMMSS.sqlite3


class BackupError(Exception):
    """Why a backup or restore was refused or did not check out (one line for the admin)."""


@dataclass(frozen=True)
class Copy:
    path: Path
    size: int
    schema: int
    rows: dict[str, int]
    seconds: float

    def describe(self) -> str:
        total = sum(self.rows.values())
        return (f"{self.path} ({human_size(self.size)}, schema {self.schema}, integrity ok, "
                f"{len(self.rows)} tables, {total:,} rows; {self.seconds:.2f} s)")


def human_size(size: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def default_folder(database: str | Path) -> Path:
    return Path(database).resolve().parent / "backups"


def stamped_name(suffix: str = ".sqlite3") -> str:
    return PREFIX + time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + suffix


def target_path(database: str, where: str | None, suffix: str = ".sqlite3") -> Path:
    """PATH as given (a folder gets a timestamped file in it), or backups/ beside the store."""
    if where is None:
        return default_folder(database) / stamped_name(suffix)
    path = Path(where)
    if path.is_dir() or where.endswith(("/", os.sep)):
        return path / stamped_name(suffix)
    return path


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name")]


def _counts(conn: sqlite3.Connection) -> dict[str, int]:
    return {table: int(conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])
            for table in _tables(conn)}


def _schema(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
    """{(kind, name): its SQL, whitespace folded} for every table, index, view and trigger
    but SQLite's own (sqlite_stat1 and the like, which `PRAGMA optimize` may add)."""
    return {(kind, name): " ".join((sql or "").split()) for kind, name, sql in conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}


def expected_schema(version: int) -> dict[tuple[str, str], str]:
    """The schema a database of `version` has: the migrations up to it, run on an empty
    database in memory."""
    from .db import migration_scripts
    from .sqlite import split_statements

    conn = sqlite3.connect(":memory:")
    try:
        for number, _, script in migration_scripts("sqlite"):
            if number > version:
                break
            for statement in split_statements(script):
                conn.execute(statement)
        conn.commit()
        return _schema(conn)
    finally:
        conn.close()


def schema_differences(found: dict[tuple[str, str], str],
                       expected: dict[tuple[str, str], str]) -> list[str]:
    """What a copy's schema lacks, has too many or has otherwise, in a few words each."""
    lines = [f"no {kind} {name}" for kind, name in sorted(expected.keys() - found.keys())]
    lines += [f"an unknown {kind} {name}" for kind, name in sorted(found.keys() - expected.keys())]
    lines += [f"{kind} {name} differs" for kind, name in sorted(expected.keys() & found.keys())
              if expected[kind, name] != found[kind, name]]
    return lines


def check_copy(path: Path) -> tuple[int, dict[str, int]]:
    """A file that is a SQLite database, passes its integrity check, has a schema this
    Corral knows, and has exactly the tables, columns, indexes and triggers that Corral's
    migrations make at that schema (a database of some other program with a `matches` table,
    or a damaged or hand-edited copy, would only fail later, as a traceback at the bot's
    start). Returns (schema, row counts)."""
    if not path.exists():
        raise BackupError(f"{path}: no such file")
    if not path.is_file():
        raise BackupError(f"{path}: not a file")
    with open(path, "rb") as f:
        if f.read(16) != SQLITE_MAGIC:
            raise BackupError(f"{path}: not a SQLite database")
    try:
        conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"{path}: fails its integrity check ({problems[0][:100]})")
            schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = _tables(conn)
            if "matches" not in tables or "moves" not in tables:
                raise BackupError(f"{path}: a SQLite database, but not Corral's (no matches)")
            if schema > newest_schema():
                raise BackupError(f"{path}: schema {schema} is newer than this Corral knows "
                                  f"({newest_schema()}); upgrade Corral first")
            if schema < 1:
                raise BackupError(f"{path}: a SQLite database with Corral's table names, but "
                                  "no schema version: not a copy Corral made")
            wrong = schema_differences(_schema(conn), expected_schema(schema))
            if wrong:
                more = f" and {len(wrong) - 3} more" if len(wrong) > 3 else ""
                raise BackupError(f"{path}: not Corral's schema {schema} ("
                                  + "; ".join(wrong[:3]) + more + ")")
            rows = _counts(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path}: not a usable SQLite database ({exc})") from None
    return schema, rows


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _discard(partial: Path) -> None:
    """A copy cut short, with what SQLite may have left beside it (its rollback journal)."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        partial.with_name(partial.name + suffix).unlink(missing_ok=True)


def _copy_into(source_path: Path, partial: Path) -> tuple[int, dict[str, int]]:
    """Copy the live database into `partial` in one read transaction; (schema, row counts)
    of the database at that moment."""
    try:
        # read-write, though it only reads: a read-only connection cannot remove the -wal and
        # -shm files it creates when it is the last one (a stopped bot)
        source = sqlite3.connect(source_path, isolation_level=None)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source_path}: cannot be opened ({exc})") from None
    try:
        source.execute("PRAGMA busy_timeout=5000")
        source.execute("BEGIN")  # one read transaction: the counts and the copy see one state
        try:
            schema = int(source.execute("PRAGMA user_version").fetchone()[0])
            expected = _counts(source)
            dest = sqlite3.connect(partial)
            try:
                source.backup(dest)  # every page in one step, in this read transaction
                dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                dest.close()
        finally:
            source.execute("COMMIT")
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source_path}: the copy failed ({exc})") from None
    finally:
        source.close()
    return schema, expected


def backup_sqlite(database: str | Path, target: Path) -> Copy:
    """Copy the live database to `target` (written beside it, then renamed: a backup file is
    never half-written) and verify the copy. Blocking: run it in a thread or a process."""
    source_path = Path(database)
    if not source_path.is_file():
        raise BackupError(f"{source_path}: no database there (CORRAL_DATABASE)")
    live = source_path.resolve()
    if target.resolve() in (live, live.with_name(live.name + "-wal"),
                            live.with_name(live.name + "-shm")):
        raise BackupError(f"{target} is the database itself: give another PATH")
    started = time.perf_counter()
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    partial = target.with_name(f".{target.name}.partial")
    _discard(partial)
    try:
        schema, expected = _copy_into(source_path, partial)
        os.chmod(partial, 0o600)  # the copy holds what the database holds
        with open(partial, "rb+") as f:
            os.fsync(f.fileno())
        copied_schema, rows = check_copy(partial)
        if copied_schema != schema or rows != expected:
            raise BackupError(f"{target}: the copy does not match the database "
                              f"(schema {copied_schema} vs {schema}, rows differ)")
    except BaseException as exc:  # a failed backup leaves nothing behind, however it failed
        _discard(partial)
        if isinstance(exc, OSError):
            raise BackupError(f"{target}: the copy could not be written "
                              f"({exc.strerror or exc})") from None
        raise
    os.replace(partial, target)
    _fsync_folder(target.parent)
    return Copy(target, target.stat().st_size, schema, rows, time.perf_counter() - started)


def backup_postgres(url: str, target: Path) -> Copy:
    """`pg_dump --format=custom`, then `pg_restore --list` to check the archive reads."""
    dump = shutil.which("pg_dump")
    if dump is None:
        raise BackupError("pg_dump is not installed (Debian: apt-get install "
                          "postgresql-client); or run it yourself: pg_dump --format=custom "
                          "--file corral.dump \"$CORRAL_DATABASE\"")
    started = time.perf_counter()
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    partial = target.with_name(f".{target.name}.partial")
    result = subprocess.run([dump, "--format=custom", "--no-owner", f"--file={partial}",
                             f"--dbname={url}"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BackupError("pg_dump failed: " + (result.stderr.strip().splitlines() or ["?"])[-1])
    restore = shutil.which("pg_restore")
    if restore is not None:
        listed = subprocess.run([restore, "--list", str(partial)], capture_output=True,
                                text=True, check=False)
        if listed.returncode != 0 or "TABLE DATA public moves" not in listed.stdout:
            partial.unlink(missing_ok=True)
            raise BackupError("pg_dump wrote an archive pg_restore cannot read")
    os.chmod(partial, 0o600)
    os.replace(partial, target)
    return Copy(target, target.stat().st_size, 0, {}, time.perf_counter() - started)


def backup(database: str, where: str | None = None) -> Copy:
    if is_postgres(database):
        return backup_postgres(database, target_path(database, where, ".dump")
                               if where is not None else
                               Path("backups").resolve() / stamped_name(".dump"))
    return backup_sqlite(database, target_path(database, where))


def rotate(folder: Path, keep: int, suffix: str = ".sqlite3") -> list[Path]:
    """Remove all but the newest `keep` timestamped backups in `folder` (only files named as
    this module names them: an admin's own copies there are left alone)."""
    found = sorted(p for p in folder.glob(f"{PREFIX}*{suffix}") if p.is_file())
    old = found[:-keep] if keep > 0 else found
    for path in old:
        path.unlink(missing_ok=True)
    return old


def restore(database: str, source: Path) -> str:
    """Put the checked copy `source` in place of the database; the current file is kept
    beside it. Refused while a bot runs on the database (its lock is taken for the restore).
    Returns what was done, in one paragraph."""
    if is_postgres(database):
        raise BackupError("CORRAL_DATABASE is PostgreSQL: stop the bots, then restore with "
                          "pg_restore --clean --if-exists --no-owner --dbname=\"$CORRAL_DATABASE\" "
                          "FILE (see the README)")
    schema, rows = check_copy(source)
    wal = source.with_name(source.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:  # copying the file alone would lose it
        raise BackupError(f"{source} has a write-ahead log beside it ({wal.name}): restore a "
                          "copy made by `python -m bot backup`")
    target = real_path(database)  # a symlink in CORRAL_DATABASE: the file it points to
    if target.exists() and target == source.resolve():
        raise BackupError(f"{source} is the database itself")
    lock = FileLock(target)
    try:
        lock.acquire("a restore")
    except AlreadyRunning as exc:
        raise BackupError(f"refusing to restore: {exc}") from None
    try:
        kept = None
        if target.exists():
            _settle(target)
            kept = target.with_name(f"{target.name}.before-restore-"
                                    + time.strftime("%Y%m%d-%H%M%S", time.gmtime()))
            os.replace(target, kept)
            for extra in ("-wal", "-shm"):  # none after _settle, but never apply one to the copy
                side = target.with_name(target.name + extra)
                if side.exists():
                    os.replace(side, kept.with_name(kept.name + extra))
        partial = target.with_name(f".{target.name}.restoring")
        shutil.copyfile(source, partial)
        os.chmod(partial, 0o600)
        _same_owner([partial, lock.path], kept or target.parent)
        with open(partial, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(partial, target)
        _fsync_folder(target.parent)
    finally:
        lock.release()
    newest = newest_schema()
    lines = [f"restored {target} from {source} (schema {schema}, "
             f"{sum(rows.values()):,} rows, {rows.get('moves', 0):,} moves)."]
    if schema < newest:
        lines.append(f"The copy has schema {schema}; the bot migrates it to {newest} at its "
                     "next start.")
    if kept is not None:
        lines.append(f"The previous database is kept as {kept}.")
    return " ".join(lines)


def _same_owner(paths: list[Path], like: Path) -> None:
    """Run as root (sudo), a restore leaves the files to the bot's user, not to root."""
    if os.geteuid() == 0:
        owner = like.stat()
        for path in paths:
            os.chown(path, owner.st_uid, owner.st_gid)


def _settle(path: Path) -> None:
    """Fold a leftover write-ahead log (a bot killed without its clean stop) into the current
    file before it is set aside, so the kept file is whole on its own."""
    wal = path.with_name(path.name + "-wal")
    if not wal.exists():
        return
    try:
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        pass  # a damaged current file: it is set aside with its -wal as it is


USAGE = """python -m bot backup [PATH]   a checked copy of the database while the bot runs
python -m bot restore PATH    put a copy back (stop the bot first)"""


def main(command: str, argv: list[str]) -> int:
    """`backup` and `restore`: exit 0 with what was done, 1 with one line saying why not."""
    parser = argparse.ArgumentParser(prog=f"python -m bot {command}", description=USAGE)
    parser.add_argument("path", nargs="?" if command == "backup" else None,
                        help="backup: a file or folder (default: backups/ beside the database);"
                             " restore: the copy to put back")
    parser.add_argument("--database", help="the database (default: CORRAL_DATABASE)")
    args = parser.parse_args(argv)
    database = args.database or database_setting()
    try:
        if command == "backup":
            lower_priority()  # beside a running bot, which comes first
            copy = backup(database, args.path)
            print(f"backup written: {copy.describe()}" if copy.rows else
                  f"backup written: {copy.path} ({human_size(copy.size)}, pg_dump custom "
                  f"format, listed by pg_restore; {copy.seconds:.2f} s)")
        else:
            print(restore(database, Path(args.path)))
    except BackupError as exc:
        print(f"{command} failed: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{command} failed: {exc.strerror or exc} ({exc.filename or ''})", file=sys.stderr)
        return 1
    return 0


def lower_priority(thread: bool = False) -> None:
    """Nice 10: a backup takes the CPU the bot leaves. On Linux a thread has a priority of
    its own, so `thread` lowers the calling thread's alone."""
    with contextlib.suppress(OSError, AttributeError):
        who = threading.get_native_id() if thread else 0
        os.setpriority(os.PRIO_PROCESS, who, max(10, os.getpriority(os.PRIO_PROCESS, who)))


async def in_background_thread(fn: Callable[[], T]) -> T:
    """`fn()` in a thread of its own at a lower priority (not the loop's shared executor,
    whose threads would keep the priority). A daemon: a stop never waits for a backup, whose
    unfinished copy is removed at the next start."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def target() -> None:
        lower_priority(thread=True)
        try:
            result = fn()
        except BaseException as exc:  # handed to the awaiting task
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(settle, None, exc)
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, result, None)

    threading.Thread(target=target, name="corral-backup", daemon=True).start()
    return await future


class Scheduler:
    """CORRAL_BACKUP_EVERY inside the bot: a copy every `every` seconds (the first one when
    the newest in the folder is that old), the oldest beyond `keep` removed. The copy runs in
    a thread (SQLite) or a child process (pg_dump): a move never waits for it."""

    def __init__(self, database: str, folder: Path, every: float, keep: int):
        self.database, self.folder, self.every, self.keep = database, folder, every, keep
        self.suffix = ".dump" if is_postgres(database) else ".sqlite3"
        self.last_success: float | None = None
        self.last_size: int | None = None
        self.last_seconds: float | None = None
        self.failures = 0

    def _newest(self) -> float | None:
        found = [p.stat().st_mtime for p in self.folder.glob(f"{PREFIX}*{self.suffix}")]
        return max(found) if found else None

    def once(self) -> Copy:
        """One scheduled backup and rotation (blocking)."""
        target = self.folder / stamped_name(self.suffix)
        if is_postgres(self.database):
            copy = backup_postgres(self.database, target)
        else:
            copy = backup_sqlite(self.database, target)
        rotate(self.folder, self.keep, self.suffix)
        return copy

    async def run(self, log: logging.Logger) -> None:
        for partial in self.folder.glob(f".{PREFIX}*.partial"):  # a copy cut short by a kill
            _discard(partial)
        for journal in self.folder.glob(f".{PREFIX}*.partial-journal"):  # its journal alone
            journal.unlink(missing_ok=True)
        newest = self._newest()
        due = time.time() if newest is None else newest + self.every
        while True:
            await asyncio.sleep(max(0.0, due - time.time()))
            try:
                copy = await in_background_thread(self.once)
            except Exception as exc:  # a failed backup is logged; play goes on
                self.failures += 1
                log.error("scheduled backup failed: %s", exc)
            else:
                self.last_success, self.last_size = time.time(), copy.size
                self.last_seconds = copy.seconds
                log.info("scheduled backup: %s", copy.describe() if copy.rows else copy.path)
            due = time.time() + self.every
