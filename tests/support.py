"""Shared test doubles: an injectable clock, a deterministic seat order, named players, a
look at what the service asked to be delivered (the outbox), a SQLite file at any schema
version, and Debian's Chromium for the browser tests."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import Player
from bot.words.i18n import ENGLISH, phrase_from_json


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

    def shuffle(self, seq: list[Any]) -> None:
        return None


ALICE = Player(101, "Alice")
BOB = Player(202, "Bob")
CAROL = Player(303, "Carol")


async def ghostone_for_three(service: Any, channel_id: int) -> Any:
    """A Ghostone match of Alice, Bob and Carol, started by Alice (the host) in `channel_id`."""
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=channel_id)
    await service.join(lobby.id, BOB)
    await service.join(lobby.id, CAROL)
    return await service.start(lobby.id, ALICE.user_id)


async def take(store, kind: str | None = None) -> list[dict[str, Any]]:
    """The pending outbox rows (payloads, with `kind` and `lane`), marked delivered."""
    rows = await store.conn.fetch("SELECT * FROM outbox WHERE status = 'pending' ORDER BY id")
    import json

    taken = []
    async with store.transaction() as tx:
        for row in rows:
            await tx.finish_outbox(row["id"], 0.0)
            taken.append({**json.loads(row["payload"]), "kind": row["kind"], "lane": row["lane"]})
    return [t for t in taken if kind is None or t["kind"] == kind]


def text(payload_phrase: Any, names: list[str] | None = None) -> str:
    """A stored phrase in English."""
    value = phrase_from_json(payload_phrase)
    return ENGLISH(value, names) if value is not None else ""


def board_lines(board: dict[str, Any]) -> list[str]:
    names = [name for _, name in board["seats"]]
    return [text(line, names) for line in board["lines"]]


def command_tree():
    """The bot's commands as registered at start (what /help lists)."""
    from bot import cogs
    from bot.client import CorralBot
    from bot.config import Settings

    bot = CorralBot(Settings(token="unused"))
    cogs.register_all(bot.tree, service=None, handling=None, pictures=None)  # type: ignore
    return bot.tree


def database_at(path: Any, version: int) -> Any:
    """A SQLite database as Corral's migrations leave it at `version` (no rows)."""
    import sqlite3

    from bot.store.db import migration_scripts
    from bot.store.sqlite import split_statements

    conn = sqlite3.connect(path)
    for number, _, script in migration_scripts("sqlite"):
        if number > version:
            break
        for statement in split_statements(script):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version={number}")
    conn.commit()
    conn.close()
    return path


CHROMIUM = Path("/usr/bin/chromium")


@contextlib.asynccontextmanager
async def chromium(what: str = "browser tests") -> AsyncIterator[Any]:
    """Headless Chromium (Debian's package, never a downloaded one) through Playwright; `what`
    the tests are, for the one line that skips them where it is missing (with CI=true: fails)."""
    why = None
    if not CHROMIUM.exists():
        why = f"Chromium is not installed ({CHROMIUM}; apt-get install chromium)"
    else:
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            why = "Playwright is not installed (pip install -e '.[test]')"
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} cannot run: {why}", pytrace=False)
        pytest.skip(f"{what} skipped: {why}")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            await browser.close()
