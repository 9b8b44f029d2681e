"""bot/collector.py: what a full collection keeps is frozen (the next one does not walk it),
and a frozen object that became garbage is freed after the thaw."""

from __future__ import annotations

import gc
import weakref

import pytest

from bot.collector import Refreezer


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def walked(obj: object) -> bool:
    """Whether the collector's generations hold `obj` (frozen objects are in none)."""
    return any(o is obj for o in gc.get_objects())


@pytest.fixture
def refreezer():
    now = [0.0]
    refreezer = Refreezer(thaw_seconds=60.0, clock=lambda: now[0])
    refreezer.now = now  # type: ignore[attr-defined]
    gc.collect()
    refreezer.install()
    yield refreezer
    refreezer.uninstall()
    gc.unfreeze()  # the test process's other tests see the collector as they found it
    gc.collect()


def test_what_a_full_collection_keeps_is_frozen_and_a_young_collection_freezes_nothing(
        refreezer):
    kept = Node()
    gc.collect(1)
    assert walked(kept) and refreezer.freezes == 0
    before = gc.get_freeze_count()
    gc.collect()
    assert refreezer.freezes == 1 and not walked(kept)
    assert gc.get_freeze_count() > before
    made_after = Node()
    assert walked(made_after)  # the next collection walks only what was made since


def test_garbage_is_never_frozen_and_what_died_frozen_is_freed_after_the_thaw(refreezer):
    dead = Node()
    gone = weakref.ref(dead)
    del dead
    kept = Node()
    later = weakref.ref(kept)
    gc.collect()  # frees the garbage first, then freezes what it kept
    assert gone() is None and refreezer.freezes == 1
    del kept  # dies frozen: no full collection frees it before the thaw
    gc.collect()
    assert later() is not None and refreezer.thaws == 0
    refreezer.now[0] = 61.0  # type: ignore[attr-defined]
    gc.collect()  # the thaw is due: this collection's end puts everything back
    assert refreezer.thaws == 1 and later() is not None
    gc.collect()
    assert later() is None  # freed, and what this collection kept is frozen again
    assert refreezer.freezes == 3 and gc.get_freeze_count() > 0


def test_uninstalled_it_freezes_nothing(refreezer):
    refreezer.uninstall()
    kept = Node()
    gc.collect()
    assert walked(kept) and refreezer.freezes == 0
