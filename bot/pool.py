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


def _die_with_parent(parent: int) -> None:
    """Runs in each worker as it starts."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot handles Ctrl-C and stops us
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
        import render  # noqa: F401


class Workers:
    """`await workers.run(fn, *args)` runs a picklable top-level function in a worker
    process (mode "process", the default) or a thread (mode "thread", for comparisons)."""

    def __init__(self, size: int | None = None, mode: str = "process"):
        self.size = size or max(1, min(4, os.cpu_count() or 1))
        self.mode = mode
        self._executor: concurrent.futures.Executor
        if mode == "thread":
            self._executor = concurrent.futures.ThreadPoolExecutor(
                self.size, thread_name_prefix="corral-render")
        else:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.size, mp_context=multiprocessing.get_context("spawn"),
                initializer=_die_with_parent, initargs=(os.getpid(),))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    async def warm(self) -> None:
        """Start every worker now, so the first board does not pay for their start."""
        await asyncio.gather(*(self.run(os.getpid) for _ in range(self.size)))


    def shutdown(self) -> None:
        """Stop the workers; queued work is dropped (what it was for is redone after a
        restart from the outbox)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
