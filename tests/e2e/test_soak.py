"""A short SIGKILL soak (bench/soak.py runs the long one): the bot is killed at random moments
while matches of every game are played; every logged move is announced exactly once, in
order, and mentions go only to the player whose turn begins."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from soak import soak


async def test_killed_at_random_moments_every_move_is_announced_once(tmp_path):
    report = await soak(kills=6, seed=3, folder=tmp_path)
    assert report.kills == 6 and report.logged_moves > 50
    assert report.ok, report
    assert report.boards == report.logged_moves + report.matches
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]
