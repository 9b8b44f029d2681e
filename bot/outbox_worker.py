"""The outbox worker: takes the due head of every lane, hands it to whoever serves its kind,
and records how it went, so that each row is done exactly once, in order per lane.

Every change writes its outbox rows in its own transaction (`bot/outbox.py` says what each
kind holds); this worker claims them (a lease, so that another process leaves them alone),
survives restarts (pending rows are simply still pending; rows a previous run of the same
worker held are taken back at once), retries with backoff what failed for a while (`Retry`),
gives up on what never can be done (`Give`), and marks done what has nothing left to do
(`Skip`). Who serves which kind is said at start: the delivery worker (`bot/delivery.py`)
posts messages, the AI's worker (`bot/ai_turns.py`) plays AI turns, each with its own
number of rows in hand, so that searches never hold boards back.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from .outbox import BadPayload, Payload, decode
from .store import OutboxRow, Store

log = logging.getLogger(__name__)

BATCH = 16  # rows claimed at once (each the head of a different lane)
LEASE = 120.0  # seconds a claimed row is ours before another worker may take it
MAX_ATTEMPTS = 60
PRUNE_AFTER = 7 * 86400.0

# what was done: "retired" lists live messages whose components a row took away (forgotten
# with the row's end, in one transaction); the rest is kept as the row's result
Result = Mapping[str, Any]
Handler = Callable[[OutboxRow, Any], Awaitable[Result]]


class Retry(Exception):
    """Try this row again later (Discord or the network failed); `after`: in that many
    seconds (when it is known when the way opens again), else with the usual back-off."""

    def __init__(self, reason: str, *, after: float | None = None) -> None:
        super().__init__(reason)
        self.after = after


class Give(Exception):
    """This row can never be done (logged, then marked failed)."""


class Skip(Exception):
    """This row has nothing left to do (its channel was deleted): marked done."""


class OutboxWorker:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 worker_id: str = "main", retry_seconds: float = 1.0):
        """`clock` is the wall clock of retries and leases, never the match clock (which tests
        and replays may set)."""
        self.store = store
        self.clock = clock
        self.worker_id = worker_id
        self.retry_seconds = retry_seconds
        self._routes: dict[str, tuple[Handler, asyncio.Semaphore]] = {}
        self._wake = asyncio.Event()
        self._stopping = False
        self._in_flight: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def serve(self, kinds: Iterable[str], handler: Handler, concurrency: int) -> None:
        """`handler(row, payload)` does the rows of these kinds, at most `concurrency` at
        once (a row waits its turn claimed: nobody else takes it meanwhile)."""
        slots = asyncio.Semaphore(concurrency)
        for kind in kinds:
            self._routes[kind] = (handler, slots)

    def wake(self) -> None:
        """Something was committed: look for due rows now."""
        self._wake.set()

    async def run(self) -> None:
        """Work until stopped; wakes when a change commits, or when a retry comes due."""
        async with self.store.transaction(background=True) as tx:
            await tx.release_claims(self.worker_id)  # rows a previous run of ours held
            await tx.prune_outbox(self.clock() - PRUNE_AFTER)
        while not self._stopping:
            self._wake.clear()
            try:
                started = await self.dispatch()
            except Exception:
                log.exception("outbox dispatch failed")
                started = 0
            if started:
                continue
            due = await self.store.next_outbox_due()
            timeout = 5.0 if due is None else max(0.05, min(5.0, due - self.clock()))
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except TimeoutError:
                pass

    async def dispatch(self) -> int:
        """Start the due head of every lane not already in hand."""
        now = self.clock()
        started = 0
        rows = [row for row in await self.store.pending_outbox(now, BATCH)
                if row.lane not in self._in_flight]
        if not rows:
            return 0
        async with self.store.transaction(background=True) as tx:  # one lease for the batch
            claimed = await tx.claim_outbox_rows([row.id for row in rows], self.worker_id,
                                                 now + LEASE, now)
        for row in rows:
            if row.id not in claimed:
                continue
            self._in_flight.add(row.lane)
            task = asyncio.create_task(self._do(row), name=f"outbox-{row.id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            started += 1
        return started

    async def stop(self, grace: float = 3.0) -> None:
        """Let rows in hand finish for a moment; what is left stays pending."""
        self._stopping = True
        self._wake.set()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=grace)
        for task in list(self._tasks):
            task.cancel()

    async def _do(self, row: OutboxRow) -> None:
        try:
            route = self._routes.get(row.kind)
            if route is None:
                raise Give(f"unknown outbox kind {row.kind}")
            handler, slots = route
            try:
                payload: Payload = decode(row.kind, row.payload)
            except BadPayload as exc:
                raise Give(str(exc)) from None
            async with slots:
                result = await handler(row, payload)
            retired = result.get("retired", ())
            now = self.clock()
            await self.store.together(
                lambda tx: tx.finish_outbox(row.id, now, dict(result), retired=retired))
        except Retry as exc:
            await self._retry(row, str(exc), exc.after)
        except Give as exc:
            log.error("outbox row %s (%s) given up: %s", row.id, row.kind, exc)
            async with self.store.transaction(background=True) as tx:
                await tx.finish_outbox(row.id, self.clock(), status="failed", error=str(exc))
        except Skip as exc:
            log.info("outbox row %s (%s) skipped: %s", row.id, row.kind, exc)
            async with self.store.transaction(background=True) as tx:
                await tx.finish_outbox(row.id, self.clock(), {"skipped": str(exc)})
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug: keep the row, retry later, log it
            log.exception("outbox row %s (%s) failed", row.id, row.kind)
            await self._retry(row, repr(exc))
        finally:
            self._in_flight.discard(row.lane)
            self.wake()

    async def _retry(self, row: OutboxRow, error: str, after: float | None = None) -> None:
        attempts = row.attempts + 1
        async with self.store.transaction(background=True) as tx:
            if attempts >= MAX_ATTEMPTS:
                log.error("outbox row %s (%s) failed %s times: %s", row.id, row.kind,
                          attempts, error)
                await tx.finish_outbox(row.id, self.clock(), status="failed", error=error)
                return
            delay = (min(300.0, self.retry_seconds * 2 ** min(attempts - 1, 10))
                     if after is None else after)
            log.warning("outbox row %s (%s) will be retried in %.1fs: %s", row.id, row.kind,
                        delay, error)
            await tx.retry_outbox(row.id, self.clock() + delay, error)
