"""Run the real bot (`python -m bot`) against the loopback Discord imitation."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest
from discord_fake import FakeDiscord
from discord_fake.model import Picture

ROOT = Path(__file__).resolve().parents[2]

# Every picture the bot posts carries alt text (issue 53): checked after each e2e test, on every
# Discord imitation the test made, for every picture it was shown (edited away or not).
REQUIRE_ALT_TEXT = True


def check_alt_text(pictures: list[Picture], required: bool) -> None:
    """Fail the test if one of these pictures was posted without alt text (when `required`)."""
    missing = [p for p in pictures if not (p.alt or "").strip()]
    if required and missing:
        lines = [f"{p.filename} in message {p.message_id} (channel {p.channel_id}, {p.route})"
                 for p in missing]
        pytest.fail(f"{len(missing)} picture(s) posted without alt text:\n"
                    + "\n".join(lines)[:6000], pytrace=False)


@pytest.fixture(autouse=True)
def _alt_text():
    """After the test: every picture posted to an imitation made during it has alt text."""
    start = len(FakeDiscord.picture_logs)
    yield
    check_alt_text([p for log in FakeDiscord.picture_logs[start:] for p in log],
                   REQUIRE_ALT_TEXT)


class BotProcess:
    def __init__(self, fake: FakeDiscord, database: Path, log: Path, *,
                 database_url: str | None = None, clock_file: Path | None = None):
        """`database_url`: a PostgreSQL store instead of the SQLite file `database` (whose
        folder is still the bot's working folder); `clock_file`: a clock shared with another
        bot process."""
        self.fake, self.database, self.log = fake, database, log
        self.database_url = database_url
        self.proc: asyncio.subprocess.Process | None = None
        self.clock_file = clock_file or database.parent / "clock"
        self.now = 1_800_000_000.0
        if clock_file is None or not clock_file.exists():
            self.clock_file.write_text(str(self.now))
        self.extra_env: dict[str, str] = {}  # settings a test changes (then restarts)
        self.started_once = False

    def advance(self, seconds: float) -> None:
        """Move the bot's clock forward (nothing sleeps)."""
        self.now += seconds
        # atomically: the bot may read the file at any moment, never half-written
        spare = self.clock_file.with_suffix(".new")
        spare.write_text(str(self.now))
        os.replace(spare, self.clock_file)

    async def start(self) -> None:
        """Start the bot and wait until it is connected (the commands are synced on the first
        start only: later starts find them unchanged)."""
        first = not self.started_once if self.database_url else not self.database.exists()
        self.started_once = True
        self.fake.commands_synced.clear()
        self.fake.ready.clear()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CORRAL_"))}
        env.update({
            "DISCORD_TOKEN": "fake-token",
            "CORRAL_DATABASE": self.database_url or str(self.database),
            "DISCORD_API_BASE": self.fake.api_base, "DISCORD_GATEWAY_URL": self.fake.gateway_url,
            "CORRAL_LOG_LEVEL": "INFO", "PYTHONUNBUFFERED": "1",
            "CORRAL_CLOCK_FILE": str(self.clock_file), "CORRAL_TICK_SECONDS": "0.1",
            "CORRAL_RETRY_SECONDS": "0.1", "CORRAL_WORKERS": "1", "CORRAL_AI_PAUSE": "0.05",
            "CORRAL_WEB_BIND": "127.0.0.1:0",  # a free port: see `web_base`
            # this checkout's code, not whichever one the venv has installed
            "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p),
            **self.extra_env,
        })
        with open(self.log, "ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=str(self.database.parent), env=env,
                stdout=out, stderr=out)
        waits = [self.fake.ready.wait()] + ([self.fake.commands_synced.wait()] if first else [])
        started = asyncio.gather(*waits)
        exited = asyncio.ensure_future(self.proc.wait())
        done, _ = await asyncio.wait({started, exited}, timeout=30,
                                     return_when=asyncio.FIRST_COMPLETED)
        if started not in done:
            started.cancel()
            exited.cancel()
            raise AssertionError("the bot did not start:\n" + self.log.read_text()[-4000:])
        exited.cancel()
        await asyncio.sleep(0.3)  # let discord.py finish on_ready

    def env(self) -> dict[str, str]:
        """The environment of a command run beside the bot (`python -m bot backup`)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CORRAL_"))}
        env["CORRAL_DATABASE"] = self.database_url or str(self.database)
        # this checkout's code, as the bot's own (its migrations: the schema it knows)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        return env

    @property
    def web_base(self) -> str:
        """Where the running bot serves /healthz and /metrics (its log says; the newest)."""
        found = re.findall(r"serving /healthz and /metrics on (http://\S+)",
                           self.log.read_text())
        assert found, "the bot does not serve /healthz"
        return found[-1]

    async def kill(self) -> None:
        """SIGKILL: no clean shutdown, as a crash or a pulled plug."""
        if self.proc and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()

    async def stop(self) -> None:
        if self.proc and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                await self.kill()


@pytest.fixture
async def fake():
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
    refused = server.refused()
    if refused and not server.refusals_expected:
        lines = [f"{r.method} {r.path} -> {(r.error or {}).get('code')} "
                 f"{json.dumps((r.error or {}).get('errors'))}"
                 for r in refused]
        pytest.fail(f"Discord would refuse {len(refused)} request(s) of the bot (a malformed "
                    "body, a second answer, an empty or oversized message; a test that "
                    "provokes them on purpose calls fake.expect_refusals()):\n"
                    + "\n".join(lines)[:6000], pytrace=False)


@pytest.fixture
async def bot(fake, tmp_path):
    process = BotProcess(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    await process.start()
    yield process
    await process.stop()
    log = process.log.read_text()
    assert "Traceback" not in log, log[-4000:]


@pytest.fixture
async def kit_bot(fake, tmp_path):
    """A bot on a fresh server with tests/kits/tictactoe among its games."""
    process = BotProcess(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    # the harness passes the bot no CORRAL_ setting of the tests' own: name the kit here
    # (PYTHONPATH, which finds it, is set by tests/conftest.py)
    process.extra_env["CORRAL_EXTRA_KITS"] = "kits.tictactoe"
    await process.start()
    yield process
    await process.stop()
    log = process.log.read_text()
    assert "Traceback" not in log, log[-4000:]


@pytest.fixture
def bot_process():
    """The class, for tests that run bot processes of their own (several shards)."""
    return BotProcess
