"""Where Corral may only answer interactions, a board that finds the channel's follow-ups
spent for the minute waits for the minute, not for the outbox's back-off: the budget says when
it opens, and the worker retries at that moment."""

from __future__ import annotations

import asyncio

import pytest

from bot.followups import ChannelBudget
from bot.outbox_worker import OutboxWorker, Retry


def test_the_budget_says_when_a_channel_opens_again():
    budget = ChannelBudget(limit=2, window=60.0)
    assert budget.take(1, 0.0) and budget.take(1, 10.0)
    assert not budget.take(1, 20.0)
    assert budget.opens_in(1, 20.0) == 40.0  # when the first of the two leaves the window
    assert budget.opens_in(2, 20.0) == 0.0  # another channel: at once
    assert budget.take(1, 60.5) and not budget.take(1, 60.6)
    assert budget.opens_in(1, 60.6) == pytest.approx(9.4)


async def test_a_retry_with_a_moment_is_tried_at_that_moment(store):
    now = 1_000.0
    worker = OutboxWorker(store, clock=lambda: now, retry_seconds=1.0)
    seen = []

    async def handler(row, payload):
        seen.append(row.id)
        raise Retry("follow-ups of channel 5 spent for this minute", after=37.5)

    worker.serve(["digest"], handler, 1)
    async with store.transaction() as tx:
        await tx.enqueue("u:1", "digest", {"user_id": 1, "header": None, "lines": []}, now)
    assert await worker.dispatch() == 1
    while worker._tasks:
        await asyncio.sleep(0.01)
    assert len(seen) == 1
    assert await store.pending_outbox(now + 37.4, 10) == []  # not with the back-off (1 s)
    [row] = await store.pending_outbox(now + 37.5, 10)
    assert row.attempts == 1
