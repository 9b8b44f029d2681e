"""Short pauses of Python's cyclic garbage collector in a process that holds many long-lived
objects: the bot's start-up objects, matches in play, and open live pages (some fifty objects
each in aiohttp and the watch).

A full collection stops the whole process while it walks every tracked object it has not been
told to skip. The bot freezes its start-up objects (`gc.freeze`), but a thousand open live
pages are some sixty thousand objects made after that, and every full collection walked them
all again: 30-80 ms pauses, each time the heap grew by a quarter (a crowd of viewers arriving),
which set the bot's first-answer p99 (`bench/web_load.py`: five of them in three minutes of
moves watched by 1,000 viewers). So, after each full collection, what it kept is frozen too:
every object it kept was reachable a moment ago, so nothing garbage is frozen, and the next
full collection walks only what was made since. A frozen object that later becomes garbage
that only the collector frees (a reference cycle: about six objects per closed connection) waits
for the thaw: once every `THAW_SECONDS` a full collection's end puts everything frozen back,
the next full collection frees what died since and what it keeps is frozen again (one long
pause an hour instead of one each time the heap grows by a quarter).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

THAW_SECONDS = 3600.0  # how long a frozen object that became garbage may wait to be freed


def freeze_start_up_objects() -> int:
    """Put everything the process holds once it is set up (its modules, discord.py's and
    aiohttp's objects, the commands, the catalogs) out of the cyclic garbage collector's
    reach (`gc.freeze`). They live as long as the process, and every full collection walked
    them all: 70-100 ms pauses of the event loop, which set the first answer's p99 under
    load (bench/web_load.py with a probe of `gc.callbacks`). A full collection now walks
    only what was made since. Returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


class Refreezer:
    """A `gc.callbacks` entry: freezes what each full collection kept, and thaws everything
    once every `thaw_seconds` (see the module). `install` once the start-up objects are
    frozen; `uninstall` takes it off (tests)."""

    def __init__(self, thaw_seconds: float = THAW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.thaw_seconds = thaw_seconds
        self.clock = clock
        self.thawed_at = clock()
        self.freezes = 0
        self.thaws = 0

    def install(self) -> Refreezer:
        if self not in gc.callbacks:
            gc.callbacks.append(self)
        return self

    def uninstall(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        if self.clock() - self.thawed_at >= self.thaw_seconds:
            # the next full collection walks everything once and frees what died frozen
            self.thawed_at = self.clock()
            self.thaws += 1
            gc.unfreeze()
            return
        self.freezes += 1
        gc.freeze()
