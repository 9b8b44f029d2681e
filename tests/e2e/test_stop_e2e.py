"""Stopping the bot as a Procfile platform or systemd does (SIGTERM), as Ctrl-C does (SIGINT),
and as a crash does (SIGKILL): a clean exit 0 within seconds, SQLite closed without its WAL,
no picture worker left behind, nothing lost."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest
from e2e_helpers import board_buttons, challenge_and_accept, play_button, play_slash, says


def children(pid: int) -> set[int]:
    """Direct children of `pid`, from /proc (the picture workers)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(c) for c in (task / "children").read_text().split())
    return found


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


async def gone(pids: set[int], within: float) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not any(alive(p) for p in pids):
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_exits_0_quickly_and_leaves_nothing_behind(fake, bot, how):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")  # a picture was drawn by a worker
    assert bot.proc is not None
    workers = children(bot.proc.pid)
    assert workers, "the picture workers run as child processes"
    started = time.monotonic()
    bot.proc.send_signal(how)
    code = await asyncio.wait_for(bot.proc.wait(), 10)
    took = time.monotonic() - started
    assert code == 0 and took < 5, (code, took)
    assert await gone(workers, 2.0), "a picture worker outlived the bot"
    wal = bot.database.with_name(bot.database.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed and closed
    log = bot.log.read_text()
    assert "Traceback" not in log
    await bot.start()  # nothing lost: the match goes on where it was
    answer = await play_slash(fake, alice, "a")
    assert "not your turn" in says(answer.original)
    assert set(board_buttons(fake, board)) <= set("abcdefghijk")


async def test_a_crash_takes_the_workers_with_it(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    await challenge_and_accept(fake, alice, bob, first="me")
    assert bot.proc is not None
    workers = children(bot.proc.pid)
    assert workers
    await bot.kill()
    assert await gone(workers, 5.0), "picture workers were orphaned by a crash"


async def test_a_picture_worker_that_dies_is_replaced_and_the_boards_go_on(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    assert bot.proc is not None
    workers = {pid for pid in children(bot.proc.pid)
               if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()}
    assert workers
    for pid in workers:  # as the kernel's out-of-memory killer would
        os.kill(pid, signal.SIGKILL)
    assert await gone(workers, 2.0)
    board = await play_button(fake, alice, board, "k")  # drawn by a fresh worker
    board = await play_button(fake, bob, board, "a")
    assert "a worker process died; starting a fresh pool" in bot.log.read_text()
    assert "Traceback" not in bot.log.read_text()
