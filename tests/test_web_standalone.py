"""`python -m bot.web` on SQLite (issue 51): it never creates a database (a mistyped path),
never migrates one (the bot does, under its lock), refuses a schema it does not write, is
alone on its file, and serves the new file after a restore."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from support import ALICE, BOB, database_at

import bot.web.server
from bot.service import MatchService
from bot.store import Store
from bot.store.backup import backup_sqlite, restore
from bot.store.db import migration_scripts

ROOT = Path(__file__).resolve().parents[1]


def run_web(database: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORRAL_")}
    env.update({"CORRAL_DATABASE": str(database), "CORRAL_WEB_BIND": "127.0.0.1:0",
                "PYTHONPATH": str(ROOT)})
    return subprocess.run([sys.executable, "-m", "bot.web"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_a_mistyped_path_is_refused_and_nothing_is_created(tmp_path):
    missing = tmp_path / "data" / "corral.sqlite3"
    done = run_web(missing, tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith(
        f"not serving: no database at {missing}: start the bot first")
    assert not missing.exists() and "Traceback" not in done.stderr


def test_an_older_or_newer_schema_is_refused_and_left_as_it_is(tmp_path):
    newest = migration_scripts("sqlite")[-1][0]
    old = database_at(tmp_path / "old.sqlite3", newest - 1)
    before = old.read_bytes()
    done = run_web(old, tmp_path)
    assert done.returncode == 1 and "older than this Corral's" in done.stderr
    assert "start the bot once to upgrade it" in done.stderr
    assert old.read_bytes() == before  # not migrated
    new = database_at(tmp_path / "new.sqlite3", newest)
    conn = sqlite3.connect(new)
    conn.execute(f"PRAGMA user_version={newest + 1}")
    conn.commit()
    conn.close()
    done = run_web(new, tmp_path)
    assert done.returncode == 1 and "newer than this Corral knows" in done.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def serving(database: Path):
    port = free_port()
    stop = asyncio.Event()
    task = asyncio.create_task(bot.web.server.serve(str(database), ("127.0.0.1", port), None, stop))
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            assert not task.done(), task.exception()
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"{base}/healthz") as response:
                    if response.status == 200:
                        break
            await asyncio.sleep(0.05)
    try:
        yield base
    finally:
        stop.set()
        await task


async def test_a_second_web_server_on_the_same_file_is_refused(tmp_path):
    database = tmp_path / "corral.sqlite3"
    await (await Store.open(database)).close()  # created and migrated, as the bot does
    async with serving(database):
        link = tmp_path / "link.sqlite3"
        link.symlink_to(database)
        done = await asyncio.to_thread(run_web, link, tmp_path)
    assert done.returncode == 1
    assert "a web server, pid" in done.stderr and "one web server per SQLite file" in done.stderr


async def status(url: str) -> int:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status


async def test_after_a_restore_the_new_file_is_served(tmp_path, monkeypatch):
    monkeypatch.setattr(bot.web.server, "RESTORE_POLL", 0.1)
    database = tmp_path / "corral.sqlite3"
    store = await Store.open(database)
    await store.close()
    empty = backup_sqlite(database, tmp_path / "empty.sqlite3").path
    store = await Store.open(database)
    service = MatchService(store)
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=5, first="me")
    match = await service.accept(match.id, BOB.user_id)
    await store.close()
    page = f"/m/{match.row.web_token}"
    async with serving(database) as base:
        assert await status(base + page) == 200
        await asyncio.to_thread(restore, str(database), empty)  # the match is gone
        for _ in range(100):
            if await status(base + page) == 404:
                break
            await asyncio.sleep(0.05)
        assert await status(base + page) == 404
        assert await status(base + "/healthz") == 200
        # a file this Corral cannot serve: 503 with the reason, until a good one is back
        wrong = database_at(tmp_path / "old.sqlite3", migration_scripts("sqlite")[-1][0] - 1)
        os.replace(wrong, database)
        reason = ""
        for _ in range(100):  # "opening the restored database", then why it cannot be
            async with aiohttp.ClientSession() as session, session.get(base + "/healthz") as r:
                reason = f"{r.status} {await r.text()}"
            if "start the bot once" in reason:
                break
            await asyncio.sleep(0.05)
        assert reason.startswith("503 ") and "start the bot once" in reason, reason
        assert await status(base + page) == 503


def test_the_web_server_refuses_a_bad_limit_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORRAL_")}
    env.update({"CORRAL_WEB_MAX_STREAMS": "many", "PYTHONPATH": str(ROOT)})
    done = subprocess.run([sys.executable, "-m", "bot.web"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "CORRAL_WEB_MAX_STREAMS='many'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.fixture(autouse=True)
def _no_env_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no .env of the checkout is read by the servers in-process
