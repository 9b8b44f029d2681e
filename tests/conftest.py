import pytest

from bot.service import MatchService, Player
from bot.store import Store


class FakeClock:
    """An injectable clock: tests move time by hand, nothing sleeps."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FirstFixed:
    """A stand-in for the seat shuffle that keeps the join order (deterministic tests)."""

    def shuffle(self, seq):
        return None


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "corral.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def service(store, clock):
    return MatchService(store, clock=clock, rng=FirstFixed())


ALICE = Player(101, "Alice")
BOB = Player(202, "Bob")
CAROL = Player(303, "Carol")


import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).parent))  # so e2e tests can import discord_fake
