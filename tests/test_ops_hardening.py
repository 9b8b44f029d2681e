"""Operations under a careless or hostile hand (issue 51): the one-process lock holds whatever
name reaches the database (a symlink), a restore checks the copy's whole schema, and a failed
backup leaves nothing behind."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import database_at

from bot.store import Store
from bot.store.backup import (
    BackupError,
    Scheduler,
    backup_sqlite,
    check_copy,
    expected_schema,
    restore,
)
from bot.store.db import migration_scripts
from bot.store.instance import AlreadyRunning, FileLock


def make_store(path: Path) -> None:
    async def create() -> None:
        store = await Store.open(path)
        await store.close()

    asyncio.run(create())


def test_a_symlink_to_the_database_reaches_the_same_lock(tmp_path):
    database = tmp_path / "data" / "corral.sqlite3"
    database.parent.mkdir()
    make_store(database)
    link = tmp_path / "elsewhere.sqlite3"
    link.symlink_to(database)
    holder = FileLock(database)
    holder.acquire()
    try:
        for name in (link, tmp_path / "data" / ".." / "data" / "corral.sqlite3"):
            with pytest.raises(AlreadyRunning, match="already running"):
                FileLock(name).acquire()
    finally:
        holder.release()
    second = FileLock(link)
    second.acquire()  # free again once the first let go
    second.release()


def test_a_restore_through_a_symlink_replaces_the_file_and_keeps_the_link(tmp_path):
    database = tmp_path / "corral.sqlite3"
    make_store(database)
    copy = backup_sqlite(database, tmp_path / "copy.sqlite3").path
    link = tmp_path / "link.sqlite3"
    link.symlink_to(database)
    restore(str(link), copy)
    assert link.is_symlink() and link.resolve() == database.resolve()
    check_copy(database)


def test_a_copy_of_every_schema_version_is_accepted(tmp_path):
    for number, _, _ in migration_scripts("sqlite"):
        schema, _ = check_copy(database_at(tmp_path / f"v{number}.sqlite3", number))
        assert schema == number


@pytest.mark.parametrize("damage, refusal", [
    # another program's database with Corral's two table names (the bot then failed to
    # start with a traceback)
    (None, "no schema version"),
    ("ALTER TABLE matches ADD COLUMN extra TEXT", "table matches differs"),
    ("DROP INDEX {index}", "no index"),
    ("CREATE TABLE notes (x)", "an unknown table notes"),
])
def test_a_copy_whose_schema_is_not_corrals_is_refused(tmp_path, damage, refusal):
    database = tmp_path / "corral.sqlite3"
    make_store(database)
    if damage is None:
        copy = tmp_path / "foreign.sqlite3"
        conn = sqlite3.connect(copy)
        conn.execute("CREATE TABLE matches (id INTEGER PRIMARY KEY)")
        conn.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY)")
    else:
        copy = backup_sqlite(database, tmp_path / "copy.sqlite3").path
        conn = sqlite3.connect(copy)
        index = next(name for kind, name in expected_schema(99) if kind == "index")
        conn.execute(damage.format(index=index))
    conn.commit()
    conn.close()
    before = database.read_bytes()
    with pytest.raises(BackupError, match=refusal):
        restore(str(database), copy)
    assert database.read_bytes() == before  # nothing changed
    assert not list(tmp_path.glob("*.before-restore-*"))


FULL_DISK = textwrap.dedent("""
    import resource, signal, sys
    from pathlib import Path
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (60000, resource.RLIM_INFINITY))
    from bot.store.backup import BackupError, backup_sqlite
    try:
        backup_sqlite(sys.argv[1], Path(sys.argv[2]))
    except BackupError as exc:
        print(exc)
        sys.exit(1)
""")


def test_a_failed_backup_leaves_nothing_behind(tmp_path):
    database = tmp_path / "corral.sqlite3"
    make_store(database)
    conn = sqlite3.connect(database)  # enough rows that the copy outgrows the "disk"
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                     [(f"k{i}", "x" * 400) for i in range(400)])
    conn.commit()
    conn.close()
    out = tmp_path / "out"
    out.mkdir()
    failed = subprocess.run([sys.executable, "-c", FULL_DISK, str(database),
                             str(out / "copy.sqlite3")], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[1])
    assert failed.returncode == 1, failed.stderr
    foreign = tmp_path / "foreign.sqlite3"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(BackupError):
        backup_sqlite(foreign, out / "foreign-copy.sqlite3")
    assert list(out.iterdir()) == []


async def test_the_scheduler_clears_what_a_killed_backup_left(tmp_path, caplog):
    database = tmp_path / "corral.sqlite3"
    await asyncio.to_thread(make_store, database)
    folder = tmp_path / "backups"
    folder.mkdir()
    for leftover in (".corral-20260101-000000.sqlite3.partial",
                     ".corral-20260101-000000.sqlite3.partial-journal",
                     ".corral-20260102-000000.sqlite3.partial-journal"):
        (folder / leftover).write_bytes(b"x")
    scheduler = Scheduler(str(database), folder, every=3600, keep=3)
    task = asyncio.create_task(scheduler.run(logging.getLogger("test")))
    try:
        for _ in range(200):
            if len(list(folder.glob("corral-*.sqlite3"))) == 1:
                break
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
    names = [p.name for p in folder.iterdir()]
    assert len(names) == 1 and names[0].startswith("corral-"), names
