import pytest
from support import FakeClock, FirstFixed

from bot.service import MatchService
from bot.store import Store


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
