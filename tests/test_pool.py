"""The worker pool: a worker that dies is replaced, and nothing is left behind."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import signal

import pytest

from bot.pool import Workers


async def test_a_killed_worker_is_replaced_and_the_job_still_runs():
    workers = Workers(1)
    try:
        first = await workers.run(os.getpid)
        assert first != os.getpid()  # a process of its own
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.2)  # the pool notices its worker is gone
        second = await workers.run(os.getpid)
        assert second not in (first, os.getpid())
        assert workers.replaced == 1
        assert await workers.run(os.getpid) == second  # the fresh pool keeps its worker
    finally:
        workers.shutdown()


async def test_a_job_that_kills_its_worker_fails_once_retried_and_the_pool_lives_on():
    workers = Workers(1)
    try:
        with pytest.raises(concurrent.futures.BrokenExecutor):
            await workers.run(os._exit, 3)  # kills the first pool's worker, then the second's
        assert workers.replaced == 2
        assert await workers.run(os.getpid) != os.getpid()
    finally:
        workers.shutdown()


async def test_warming_starts_every_worker_once():
    workers = Workers(2)
    try:
        await workers.warm()
        pids = {await workers.run(os.getpid) for _ in range(8)}
        assert len(pids) <= 2 and os.getpid() not in pids
    finally:
        workers.shutdown()
