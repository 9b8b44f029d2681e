"""The outbox's pacer keeps its requests under Discord's global limit, serving waiters in order."""

from __future__ import annotations

import asyncio

from bot.delivery import Pacer


async def test_the_pacer_lets_a_burst_through_then_spaces_requests():
    now = [0.0]

    async def sleep(seconds: float) -> None:  # time passes only when someone waits
        now[0] += seconds

    pacer = Pacer(rate=40.0, burst=10.0, clock=lambda: now[0], sleep=sleep)
    times = []
    for _ in range(50):
        await pacer.take()
        times.append(now[0])
    assert times[:10] == [0.0] * 10  # the burst
    assert abs(times[-1] - 40 / 40.0) < 1e-9  # then 40 a second
    assert all(b - a >= 1 / 40.0 - 1e-9 for a, b in zip(times[10:], times[11:], strict=False))


async def test_waiters_are_served_in_the_order_they_came():
    pacer = Pacer(rate=1000.0, burst=1.0)
    order: list[int] = []

    async def take(n: int) -> None:
        await pacer.take()
        order.append(n)

    await asyncio.gather(*(take(n) for n in range(20)))
    assert order == list(range(20))
