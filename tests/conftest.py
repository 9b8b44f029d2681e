import os
from pathlib import Path

# A sixth game, kept in the tests (tests/kits/tictactoe), registered for the whole suite before
# anything imports `games`: every test that covers "every game" plays it too, and subprocesses
# (the CLI, the bot) find it through PYTHONPATH. Product-only checks use `games.PRODUCT`.
TESTS = str(Path(__file__).resolve().parent)
os.environ.setdefault("CORRAL_EXTRA_KITS", "kits.tictactoe")
os.environ["PYTHONPATH"] = os.pathsep.join(
    [TESTS] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != TESTS])

import pytest  # noqa: E402
from support import FakeClock, FirstFixed  # noqa: E402

from bot.service import MatchService  # noqa: E402
from bot.store import Store  # noqa: E402

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server for the whole session (see tests/pg_server.py)."""
    from pg_server import PostgresServer, binaries

    if binaries() is None:
        message = "PostgreSQL is not installed (no initdb/pg_ctl): PostgreSQL tests skipped"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message.replace("skipped", "cannot run in CI"))
        pytest.skip(message)
    server = PostgresServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def cjk_font():
    """Tests of Japanese pictures need a CJK font (fonts-ipafont-gothic). Without it the bot
    draws Japanese boards with English labels, as the README says, so those tests are skipped
    with one line saying why; with CI=true (where .ci/run installs the font) they fail."""
    from render import cjk_font_available

    if not cjk_font_available():
        message = ("no CJK font (fonts-ipafont-gothic is not installed): "
                   "Japanese picture tests skipped")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message.replace("skipped", "cannot run in CI"))
        pytest.skip(message)


@pytest.fixture(params=BACKENDS)
async def store(request, tmp_path):
    """The store on each back end: a SQLite file, and a fresh PostgreSQL database."""
    if request.param == "sqlite":
        url = str(tmp_path / "corral.sqlite3")
    else:
        url = await request.getfixturevalue("pg_server").fresh_database()
    store = await Store.open(url)
    yield store
    await store.close()


@pytest.fixture
def service(store, clock):
    return MatchService(store, clock=clock, rng=FirstFixed())


def pytest_report_header(config):
    """Where the Discord imitation's OpenAPI description comes from (tests/discord_fake/spec.py),
    in the header of a run that shows one."""
    from discord_fake import spec

    return spec.status() if spec.spec_path().is_file() else None


def pytest_terminal_summary(terminalreporter):
    """Without the description, one line says the request bodies went unchecked (shown with
    -q too)."""
    from discord_fake import spec

    if not spec.spec_path().is_file():
        terminalreporter.write_line(spec.status(), yellow=True)
