import pytest

from bot.service import MatchService
from bot.store import Store
from support import FakeClock, FirstFixed


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
