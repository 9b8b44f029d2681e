"""CPU-heavy work off the event loop and off its interpreter lock: a small process pool for
pictures (and AI searches), started and shut down with the bot.

Workers never outlive the bot: each one asks the kernel to kill it when its parent dies and
also watches its parent's pid, so even a SIGKILL of the bot leaves no process behind.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


def _die_with_parent(parent: int, nice: int = 0) -> None:
    """Runs in each worker as it starts; `nice`: how much lower its CPU priority is."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot handles Ctrl-C and stops us
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(1.0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    with contextlib.suppress(Exception):  # load fonts and modules once, not on first board
        import render.api  # noqa: F401


class Workers:
    """`await workers.run(fn, *args)` runs a picklable top-level function in a worker
    process (mode "process", the default) or a thread (mode "thread", for comparisons).

    Processes start when first needed (or at `warm`). A worker that dies (killed by the
    kernel for memory, a crash in a native library) breaks a process pool for good, and every
    later picture would fail until the bot restarts: the broken pool is replaced by a fresh
    one and the job is tried once more there."""

    def __init__(self, size: int | None = None, mode: str = "process", nice: int = 0):
        """`nice`: the workers run at a lower CPU priority (background work, such as
        post-game analyses, that must not slow live moves and pictures down)."""
        self.size = size or max(1, min(4, os.cpu_count() or 1))
        self.mode = mode
        self.nice = nice
        self.replaced = 0  # broken pools replaced (logged, and read by tests)
        self.waiting = 0  # jobs submitted and not finished (running or queued): /metrics
        self._warm = False
        self._executor = self._new_executor()

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.mode == "thread":
            return concurrent.futures.ThreadPoolExecutor(
                self.size, thread_name_prefix="corral-render")
        return concurrent.futures.ProcessPoolExecutor(
            self.size, mp_context=multiprocessing.get_context("spawn"),
            initializer=_die_with_parent, initargs=(os.getpid(), self.nice))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        self.waiting += 1
        try:
            for tries_left in (1, 0):
                executor = self._executor
                try:
                    return await loop.run_in_executor(executor, fn, *args)
                except concurrent.futures.BrokenExecutor:
                    self._replace(executor)
                    if not tries_left:
                        raise
        finally:
            self.waiting -= 1
        raise AssertionError("unreachable")

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        """A fresh pool instead of `broken` (once, however many jobs saw it break)."""
        if self._executor is not broken:
            return
        self.replaced += 1
        self._warm = False
        log.warning("a worker process died; starting a fresh pool of %s", self.size)
        self._executor = self._new_executor()
        broken.shutdown(wait=False, cancel_futures=True)

    async def warm(self) -> None:
        """Start every worker now (once), so the next job does not pay for their start."""
        if not self._warm:
            await asyncio.gather(*(self.run(os.getpid) for _ in range(self.size)))
            self._warm = True


    def shutdown(self) -> None:
        """Stop the workers; queued work is dropped (what it was for is redone after a
        restart from the outbox)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
