"""Running Corral for years on one machine, through the real bot: a backup taken while moves
stream in, restored, holds every move committed before it began; a restore is refused while
the bot runs; a second bot on the same database is refused; /healthz follows the Discord
connection through an outage; /metrics is Prometheus text and names no player."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import aiohttp
import pytest
from e2e_helpers import board_buttons, challenge_and_accept, mover, play_button
from prometheus_client.parser import text_string_to_metric_families

from bot.store.db import migration_scripts
from bot.store.sqlite import split_statements

NEWEST = migration_scripts("sqlite")[-1][0]


async def cli(bot, *args: str) -> tuple[int, str, str]:
    """`python -m bot <args>` beside the bot (its database, its folder)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=str(bot.database.parent), env=bot.env(),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def until_status(url: str, status: int, what: str, timeout: float = 60.0) -> str:
    """Poll `url` until it answers `status` (a wait, not a measurement)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    seen: tuple[int, str] = (0, "")
    while loop.time() < end:
        seen = await get(url)
        if seen[0] == status:
            return seen[1]
        await asyncio.sleep(0.1)
    raise AssertionError(f"{what}: still {seen}")


def logged_moves(database: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(database)
    try:
        return [(r[0], r[1]) for r in conn.execute(
            "SELECT match_id, notation FROM moves WHERE kind = 'move' ORDER BY match_id, seq")]
    finally:
        conn.close()


async def stream_moves(fake, board, users, played: list[str], stop: asyncio.Event) -> None:
    """Play the first legal button of whoever is to move until told to stop or the match
    ends; `played` lists the moves whose new board came (committed)."""
    while not stop.is_set():
        who = mover(board, users)
        buttons = board_buttons(fake, board)
        if who is None or not buttons:
            return
        value = sorted(buttons)[0]
        board = await play_button(fake, who, board, value)
        played.append(value)


async def test_a_backup_during_moves_restores_every_move_committed_before_it(fake, bot,
                                                                              tmp_path):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    played: list[str] = []
    stop = asyncio.Event()
    stream = asyncio.create_task(stream_moves(fake, board, [alice, bob], played, stop))
    await fake.wait_for(lambda: len(played) >= 3 or stream.done(), timeout=60,
                        what="moves streaming")
    committed_before = list(played)  # each one's board came: committed
    copy = tmp_path / "copies" / "during-moves.sqlite3"
    code, out, err = await cli(bot, "backup", str(copy))
    assert code == 0, err
    assert out.startswith("backup written: ") and str(copy) in out and "integrity ok" in out
    assert f"schema {NEWEST}" in out
    moves_after = len(played)
    await fake.wait_for(lambda: len(played) >= moves_after + 2 or stream.done(), timeout=60,
                        what="moves going on after the backup")
    stop.set()
    await stream
    assert not stream.exception()

    # refused while the bot runs, in one line, and nothing is touched
    code, out, err = await cli(bot, "restore", str(copy))
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert "refusing to restore" in err and "already running" in err and "Traceback" not in err
    live = logged_moves(bot.database)
    assert [n for _, n in live] == played

    await bot.stop()
    code, out, err = await cli(bot, "restore", str(copy))
    assert code == 0, err
    assert "restored" in out and "previous database is kept" in out
    kept = sorted(bot.database.parent.glob("corral.sqlite3.before-restore-*"))
    assert len(kept) == 1 and [n for _, n in logged_moves(kept[0])] == played
    restored = [n for _, n in logged_moves(bot.database)]
    assert restored[:len(committed_before)] == committed_before  # every move before it began
    assert restored == played[:len(restored)]  # and nothing that was not played
    conn = sqlite3.connect(bot.database)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()

    await bot.start()  # the restored match is served
    record = await fake.answered(await fake.slash(alice, "board"))  # deferred, then the board
    await fake.wait_for(lambda: record.original and record.original["attachments"],
                        what="the restored board")


def older_database(path: Path, version: int) -> None:
    """A store as an older Corral left it: the migrations up to `version` only."""
    conn = sqlite3.connect(path, isolation_level=None)
    for number, _, script in migration_scripts("sqlite"):
        if number > version:
            break
        conn.execute("BEGIN")
        for statement in split_statements(script):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version={number}")
        conn.execute("COMMIT")
    conn.close()


async def test_a_restored_older_copy_is_migrated_at_the_next_start(fake, bot_process, tmp_path):
    bot = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    await bot.start()
    await bot.stop()
    old = tmp_path / "old.sqlite3"
    older_database(old, NEWEST - 1)
    code, out, err = await cli(bot, "restore", str(old))
    assert code == 0, err
    assert f"migrates it to {NEWEST}" in out
    await bot.start()
    conn = sqlite3.connect(bot.database)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == NEWEST
    conn.close()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    await play_button(fake, alice, board, "k")
    await bot.stop()
    assert "Traceback" not in bot.log.read_text()


async def test_a_second_bot_on_the_same_database_is_refused_in_one_line(fake, bot):
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=str(bot.database.parent),
        env={**bot.env(), "DISCORD_TOKEN": "fake-token", "DISCORD_API_BASE": fake.api_base,
             "DISCORD_GATEWAY_URL": fake.gateway_url, "CORRAL_WEB_BIND": "off"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = (out + err).decode().strip().splitlines()
    assert proc.returncode == 1
    assert len(lines) == 1 and "already running on" in lines[0], lines
    assert f"pid {bot.proc.pid}" in lines[0]
    assert fake.identified == 1  # it never connected
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")  # the first one plays on
    board = await challenge_and_accept(fake, alice, bob, first="me")
    await play_button(fake, alice, board, "k")


async def test_healthz_turns_503_in_a_discord_outage_and_200_after(fake, bot_process, tmp_path):
    bot = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    await bot.start()
    try:
        url = bot.web_base + "/healthz"
        # 503 until discord.py is ready (it waits a moment for the servers' data)
        assert await until_status(url, 200, "healthz after the start") == "ok\n"
        await fake.gateway_outage()
        reason = await until_status(url, 503, "healthz during the outage")
        assert "disconnected from Discord's gateway" in reason
        await fake.wait_for(lambda: fake.gateway_refused >= 1, timeout=30,
                            what="the bot trying to reconnect")
        assert (await get(url))[0] == 503  # still down: it could not reconnect
        fake.gateway_restored()
        assert await until_status(url, 200, "healthz after the outage") == "ok\n"
        assert fake.resumed >= 1  # the session was resumed, not started again
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
        board = await challenge_and_accept(fake, alice, bob, first="me")
        await play_button(fake, alice, board, "k")
    finally:
        await bot.stop()
    # discord.py reports each refused reconnection with its traceback; nothing else may
    log = bot.log.read_text()
    for block in log.split("Traceback")[1:]:
        assert "WSServerHandshakeError" in block and "503" in block, block[:2000]


async def test_metrics_are_prometheus_text_without_player_data(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    fake.rate_limit("POST", r"/interactions/\d+/[^/]+/callback", times=1, retry_after=0.2)
    board = await play_button(fake, alice, board, "k")  # answered after one 429
    status, text = await get(bot.web_base + "/metrics")
    assert status == 200
    families = {f.name: f for f in text_string_to_metric_families(text)}
    value = {(s.name, tuple(sorted(s.labels.items()))): s.value
             for f in families.values() for s in f.samples}
    assert value[("corral_moves_total", ())] == 1
    assert value[("corral_first_response_seconds_count", ())] >= 3  # /play, Accept, k
    assert value[("corral_discord_rate_limited_total", (("scope", "user"),))] == 1
    assert ("corral_outbox_pending", ()) in value
    assert ("corral_outbox_oldest_age_seconds", ()) in value
    assert value[("corral_gateway_connected", (("shard", "0"),))] == 1
    assert ("corral_picture_jobs", ()) in value and ("corral_ai_jobs", ()) in value
    assert families["corral_first_response_seconds"].type == "histogram"
    assert "process_resident_memory_bytes" in families
    # the start-up heap is out of the collector's reach, and its pauses are timed
    assert value[("corral_gc_frozen_objects", ())] > 10_000
    assert families["corral_gc_pause_seconds"].type == "histogram"
    for private in (alice, bob, fake.guild_id, fake.channel_id, "Alice", "Bob"):
        assert str(private) not in text
    board = await play_button(fake, bob, board, "a")
    _, text = await get(bot.web_base + "/metrics")
    assert "corral_moves_total 2.0" in text
    status, _ = await get(bot.web_base + "/admin")
    assert status == 404  # nothing else is served (`/` is the pages' home)


async def test_scheduled_backups_rotate_while_play_goes_on(fake, bot_process, tmp_path):
    bot = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    bot.extra_env = {"CORRAL_BACKUP_EVERY": "0.5", "CORRAL_BACKUP_KEEP": "2"}
    await bot.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")
    await fake.wait_for(lambda: bot.log.read_text().count("scheduled backup: ") >= 4,
                        timeout=30, what="four scheduled backups")
    await play_button(fake, bob, board, "a")
    status, text = await get(bot.web_base + "/metrics")
    assert "corral_backup_last_success_timestamp_seconds" in text
    await bot.stop()
    assert bot.proc.returncode == 0  # SIGTERM: a clean stop, backups and all
    copies = sorted((tmp_path / "backups").glob("corral-*.sqlite3"))
    assert 1 <= len(copies) <= 2, copies  # rotated (two in the same second share a name)
    assert "Traceback" not in bot.log.read_text()
    assert "scheduled backup failed" not in bot.log.read_text()


@pytest.mark.parametrize(("content", "words"), [
    (b"", "no such file"), (b"hello", "not a SQLite database"),
    (None, "newer than this Corral knows")])
def test_bad_copies_get_one_line(tmp_path, content, words):
    import subprocess

    copy = tmp_path / "copy.sqlite3"
    if content is None:  # a store from a newer Corral
        older_database(copy, NEWEST)
        conn = sqlite3.connect(copy)
        conn.execute(f"PRAGMA user_version={NEWEST + 1}")
        conn.close()
    elif content:
        copy.write_bytes(content)
    env = {"PATH": "/usr/bin:/bin", "CORRAL_DATABASE": str(tmp_path / "corral.sqlite3")}
    result = subprocess.run([sys.executable, "-m", "bot", "restore", str(copy)], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr
    assert not (tmp_path / "corral.sqlite3").exists()
    if content is None:  # nor will the bot start on it
        result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, capture_output=True,
                                env={**env, "CORRAL_DATABASE": str(copy), "DISCORD_TOKEN": "t",
                                     "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"},
                                text=True, timeout=60)
        assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1
        assert "newer than this Corral knows" in result.stderr
