"""Two bot processes, each running one of two shards, sharing one PostgreSQL store: matches in
guilds of both shards are played; a click that reaches both processes applies once; a deadline
is noticed once; killing one process loses nothing while the other keeps serving."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from e2e_helpers import board_buttons, boards, challenge_and_accept, mover, play_button, says

HOUR = 3600
WHOLE_GAME = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


@pytest.fixture
async def shards(fake, tmp_path, pg_server, bot_process):
    url = await pg_server.fresh_database()
    clock = tmp_path / "clock"
    processes = []
    for shard in (0, 1):
        folder = tmp_path / f"shard{shard}"
        folder.mkdir()
        process = bot_process(fake, folder / "unused.sqlite3", folder / "bot.log",
                             database_url=url, clock_file=clock)
        process.extra_env = {"CORRAL_SHARDS": "2", "CORRAL_SHARD_IDS": str(shard)}
        processes.append(process)
    await asyncio.gather(*(p.start() for p in processes))
    await fake.wait_for(lambda: {s.shard_id for s in fake.sessions if s.ws is not None}
                        == {0, 1}, what="both shards connected")
    for shard, process in enumerate(processes):
        assert f"shards [{shard}] of 2" in process.log.read_text()
    yield url, processes
    for process in processes:
        await process.stop()
        log = process.log.read_text()
        assert "Traceback" not in log, log[-4000:]


async def logged(url: str, match_id: int) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT notation FROM moves WHERE match_id = $1 ORDER BY seq",
                                match_id)
    finally:
        await conn.close()
    return [r["notation"] for r in rows]


async def test_two_shard_processes_share_one_store(fake, shards):
    url, (zero, one) = shards
    first = fake.add_guild("Shard Zero", shard=(0, 2))
    second = fake.add_guild("Shard One", shard=(1, 2))
    await fake.announce_guild(first.guild_id)
    await fake.announce_guild(second.guild_id)
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")

    # a match in each shard's guild, played to the end through its own process
    for guild in (first, second):
        board = await challenge_and_accept(fake, alice, bob, channel_id=guild.channel_id)
        for notation in WHOLE_GAME:
            board = await play_button(fake, mover(board, [alice, bob]), board, notation,
                                      channel_id=guild.channel_id)
        assert "Bob reached 28 seeds" in says(board)

    # the same click reaching both processes at once is applied once
    channel = second.channel_id
    board = await challenge_and_accept(fake, alice, bob, channel_id=channel, time="1h")
    button = board_buttons(fake, board)["k"]
    match_id = int(button.split(":")[2])
    before = len(boards(fake, channel))
    records = await fake.click_in_every_session(alice, board, button)
    assert len(records) == 2
    for record in records:
        await fake.answered(record)
    answers = sorted((r.kind, (r.original or {}).get("content") or "") for r in records)
    assert answers[0][0] == 4 and "Already played: `k`" in answers[0][1]  # the late one
    assert answers[1][0] == 7  # the one that played: its board's components retired
    await fake.wait_for(lambda: len(boards(fake, channel)) > before, what="the next board")
    await fake.settle(0.5)
    assert await logged(url, match_id) == ["k"]
    assert len(boards(fake, channel)) == before + 1

    # a deadline coming due is noticed once, though both processes tick
    def reminders():
        return [m for m in fake.dm_messages(bob) if "Half your time is gone" in says(m)]

    zero.advance(31 * 60)  # the clock file both processes read
    await fake.wait_for(lambda: len(reminders()) == 1, what="the half-time reminder")
    await fake.settle(1.0)
    assert len(reminders()) == 1

    # shard 0's process dies: shard 1's process keeps serving its guild
    await zero.kill()
    board = boards(fake, channel)[-1]
    board = await play_button(fake, bob, board, next(iter(board_buttons(fake, board))),
                              channel_id=channel)
    assert len(await logged(url, match_id)) == 2
    # and once restarted, shard 0's guild is served again, nothing lost
    await zero.start()
    board = await challenge_and_accept(fake, alice, bob, channel_id=first.channel_id)
    board = await play_button(fake, alice, board, "k", channel_id=first.channel_id)
    assert board is not None



async def test_a_second_process_for_a_running_shard_is_refused_in_one_line(fake, shards,
                                                                          tmp_path):
    """An overlapping restart of shard 1 (its advisory lock is held) never runs it twice."""
    import os
    import sys

    url, (zero, one) = shards
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CORRAL_"))}
    env.update({"DISCORD_TOKEN": "fake-token", "CORRAL_DATABASE": url,
                "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY_URL": fake.gateway_url,
                "CORRAL_SHARDS": "2", "CORRAL_SHARD_IDS": "0-1", "CORRAL_WEB_BIND": "off"})
    identified = fake.identified
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=str(tmp_path), env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = (out + err).decode().strip().splitlines()
    assert proc.returncode == 1
    assert len(lines) == 1 and "shard 0 is already served by another bot process" in lines[0]
    assert fake.identified == identified  # it never connected
