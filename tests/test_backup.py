"""Backups and restores without a bot: rotation, the checks on a copy, and a database left
with its write-ahead log by a killed bot, which a restore must keep whole."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.backup import BackupError, backup_sqlite, check_copy, restore, rotate
from bot.store.instance import FileLock


def make_store(path: Path) -> None:
    async def create() -> None:
        store = await Store.open(path)
        await store.close()

    asyncio.run(create())


def test_rotation_keeps_the_newest_and_leaves_other_files_alone(tmp_path):
    names = [f"corral-2026010{i}-000000.sqlite3" for i in range(1, 6)]
    for name in names + ["my-own-copy.sqlite3", "corral-20260101-000000.dump"]:
        (tmp_path / name).write_bytes(b"x")
    removed = rotate(tmp_path, 2)
    assert sorted(p.name for p in removed) == names[:3]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["corral-20260101-000000.dump"] + names[3:] + ["my-own-copy.sqlite3"]


def test_a_copy_is_checked_and_counted(tmp_path):
    make_store(tmp_path / "corral.sqlite3")
    copy = backup_sqlite(tmp_path / "corral.sqlite3", tmp_path / "b" / "copy.sqlite3")
    assert copy.path.exists() and copy.size == copy.path.stat().st_size
    assert copy.rows["matches"] == 0 and "moves" in copy.rows
    assert not list((tmp_path / "b").glob(".*partial"))
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(BackupError, match="not Corral's"):
        check_copy(other)
    with pytest.raises(BackupError, match="the database itself"):
        backup_sqlite(tmp_path / "corral.sqlite3", tmp_path / "corral.sqlite3")
    with pytest.raises(BackupError, match="no database there"):
        backup_sqlite(tmp_path / "none.sqlite3", tmp_path / "x.sqlite3")


def test_a_held_lock_refuses_a_restore(tmp_path):
    database = tmp_path / "corral.sqlite3"
    make_store(database)
    copy = backup_sqlite(database, tmp_path / "copy.sqlite3").path
    lock = FileLock(database)
    lock.acquire()
    try:
        with pytest.raises(BackupError, match="refusing to restore: another process"):
            restore(str(database), copy)
    finally:
        lock.release()
    assert "restored" in restore(str(database), copy)


def test_a_killed_bots_log_is_folded_into_the_file_kept_aside(tmp_path):
    database = tmp_path / "corral.sqlite3"
    make_store(database)
    copy = backup_sqlite(database, tmp_path / "copy.sqlite3").path
    # a writer that dies without closing: its commit lives only in corral.sqlite3-wal
    subprocess.run([sys.executable, "-c", (
        "import os, sqlite3\n"
        f"c = sqlite3.connect({str(database)!r}); c.execute('PRAGMA journal_mode=WAL')\n"
        "c.execute(\"INSERT INTO meta (key, value) VALUES ('last', 'words')\"); c.commit()\n"
        "os._exit(0)\n")], check=True)
    assert (tmp_path / "corral.sqlite3-wal").stat().st_size > 0
    said = restore(str(database), copy)
    kept = next(tmp_path.glob("corral.sqlite3.before-restore-*"))
    assert str(kept) in said
    assert not (tmp_path / "corral.sqlite3-wal").exists()
    conn = sqlite3.connect(kept)
    assert conn.execute("SELECT value FROM meta WHERE key = 'last'").fetchone() == ("words",)
    conn.close()
    conn = sqlite3.connect(database)
    assert conn.execute("SELECT COUNT(*) FROM meta WHERE key = 'last'").fetchone() == (0,)
    conn.close()


async def test_postgresql_is_backed_up_with_pg_dump(pg_server, tmp_path):
    import shutil

    from bot.store.backup import backup

    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    url = await pg_server.fresh_database()
    store = await Store.open(url)
    async with store.transaction() as tx:
        await tx.set_meta("kept", "yes")
    await store.close()
    copy = await asyncio.to_thread(backup, url, str(tmp_path / "corral.dump"))
    assert copy.path == tmp_path / "corral.dump" and copy.size > 0
    listed = subprocess.run(["pg_restore", "--list", str(copy.path)], capture_output=True,
                            text=True, check=True).stdout
    assert "TABLE DATA public meta" in listed and "TABLE DATA public moves" in listed
    data = subprocess.run(["pg_restore", "--data-only", "--table=meta", "--file=-",
                           str(copy.path)], capture_output=True, text=True, check=True).stdout
    assert "kept\tyes" in data
