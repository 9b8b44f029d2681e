"""What only several processes sharing one PostgreSQL store can get wrong: two services on two
stores (two pools, as two processes have) racing for the same clock work, rating updates and
moves; moving a SQLite store into PostgreSQL with `python -m bot migrate-db`; shard settings."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import ALICE, BOB, CAROL, FakeClock, FirstFixed, take

from bot.config import ConfigError, load_settings
from bot.service import MatchService
from bot.store import Store
from bot.store.db import migration_scripts
from bot.store.migrate import MigrationError, migrate

ROOT = Path(__file__).resolve().parents[1]
DAY = 86400.0
GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


@pytest.fixture
async def two(pg_server):
    """Two services over one database through separate pools: two processes."""
    url = await pg_server.fresh_database()
    clock = FakeClock()
    stores = [await Store.open(url), await Store.open(url)]
    yield url, clock, [MatchService(s, clock=clock, rng=FirstFixed()) for s in stores]
    for store in stores:
        await store.close()


async def test_two_processes_ticking_at_once_send_each_reminder_once(two):
    url, clock, (one, other) = two
    matches = []
    for i in range(30):
        match = await one.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=100 + i, first="me",
                                     move_seconds=int(DAY))
        matches.append(await one.accept(match.id, BOB.user_id))
    await take(one.store)
    clock.advance(DAY * 0.51)
    reports = await asyncio.gather(*(s.tick(batch=7) for s in (one, other, one, other)))
    assert sum(r.reminders for r in reports) == 30
    sent = [row for row in await take(one.store) if row["kind"] == "dm"]
    assert sorted(row["match_id"] for row in sent) == sorted(m.id for m in matches)


async def test_rating_updates_from_two_processes_never_lose_one(two):
    url, clock, (one, other) = two
    # Alice finishes a match against Bob in one process and against Carol in the other
    opened = []
    for service, guest, channel in ((one, BOB, 1), (other, CAROL, 2)):
        match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                         opponent=guest, guild_id=1, channel_id=channel,
                                         first="me")
        match = await service.accept(match.id, guest.user_id)
        for notation in GAME2[:-1]:
            match = (await service.play(match.id, match.to_move().user_id, notation)).match
        opened.append((service, match))
    await asyncio.gather(*(s.play(m.id, m.to_move().user_id, GAME2[-1]) for s, m in opened))
    stored = {(r.user_id, r.game): (r.mu, r.sigma, r.games) for r in await one.store.all_ratings()}
    assert stored[(ALICE.user_id, "progressive-mancala")][2] == 2  # both matches counted
    recomputed = await one.ratings_from_log()
    for key, (mu, sigma, _) in stored.items():
        assert (mu, sigma) == pytest.approx((recomputed[key].mu, recomputed[key].sigma))


async def test_a_move_sent_to_two_processes_is_played_once(two):
    url, clock, (one, other) = two
    match = await one.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                 opponent=BOB, guild_id=1, channel_id=9, first="me")
    match = await one.accept(match.id, BOB.user_id)
    results = await asyncio.gather(
        one.play(match.id, ALICE.user_id, "k", expected_ply=0),
        other.play(match.id, ALICE.user_id, "k", expected_ply=0), return_exceptions=True)
    played = [r for r in results if not isinstance(r, BaseException) and not r.already]
    assert len(played) == 1
    assert [m.notation for m in await one.store.moves(match.id)] == ["k"]


async def finished_sqlite_store(path: Path) -> None:
    store = await Store.open(path)
    service = MatchService(store, clock=FakeClock(), rng=FirstFixed())
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=1, first="me")
    match = await service.accept(match.id, BOB.user_id)
    for notation in GAME2:
        match = (await service.play(match.id, match.to_move().user_id, notation)).match
    lobby = await service.open_match(game_id="ghostone", options={}, host=CAROL, opponent=None,
                                     guild_id=1, channel_id=2)
    await service.join(lobby.id, ALICE)
    await store.close()


async def test_migrate_db_copies_everything_and_refuses_a_non_empty_target(tmp_path, pg_server):
    source = tmp_path / "corral.sqlite3"
    await finished_sqlite_store(source)
    url = await pg_server.empty_database("corral_migrated")
    copied = await migrate(str(source), url, out=open(os.devnull, "w"))  # noqa: SIM115
    assert copied["matches"] == 2 and copied["moves"] == len(GAME2) and copied["ratings"] == 2
    store = await Store.open(url)
    try:
        service = MatchService(store, clock=FakeClock(), rng=FirstFixed())
        assert await store.schema_version() == migration_scripts("postgresql")[-1][0]
        match = await service.get(1)
        assert match.status == "finished" and await service.rebuild(1) == match.state
        assert (await service.profile(BOB.user_id)).games[0].won == 1
        # new rows get new ids after the copied ones
        fresh = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                         opponent=BOB, guild_id=1, channel_id=3)
        assert fresh.id == 3
    finally:
        await store.close()
    with pytest.raises(MigrationError, match="not empty"):
        await migrate(str(source), url, out=open(os.devnull, "w"))  # noqa: SIM115


async def test_migrate_db_copies_every_table_of_the_schema(tmp_path):
    """A table missing from TABLES would be left behind by the copy without a word."""
    import sqlite3

    from bot.store.migrate import TABLES

    source = tmp_path / "corral.sqlite3"
    await finished_sqlite_store(source)
    conn = sqlite3.connect(source)
    try:
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%'")}
    finally:
        conn.close()
    assert tables == set(TABLES)


def test_migrate_db_command_line_refusals(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=60,
                              env={k: v for k, v in os.environ.items()
                                   if not k.startswith(("DISCORD_", "CORRAL_"))})

    missing = run("migrate-db", "--from", f"sqlite:{tmp_path}/none.sqlite3", "--to",
                  "postgresql://corral@127.0.0.1:9/x")
    assert missing.returncode == 1 and "no SQLite database" in missing.stderr
    wrong = run("migrate-db", "--from", "x.sqlite3", "--to", "postgresql://h/x")
    assert wrong.returncode == 2 and "sqlite:PATH" in wrong.stderr
    unknown = run("frobnicate")
    assert unknown.returncode == 2 and "unknown command" in unknown.stderr
    for result in (missing, wrong, unknown):
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("env", "message"), [
    ({"CORRAL_SHARD_IDS": "0"}, "needs CORRAL_SHARDS"),
    ({"CORRAL_SHARDS": "two"}, "total number of shards"),
    ({"CORRAL_SHARDS": "2", "CORRAL_SHARD_IDS": "2"}, "numbered 0 to 1"),
    ({"CORRAL_SHARDS": "2", "CORRAL_SHARD_IDS": "١"}, "shard numbers"),
    ({"CORRAL_SHARDS": "2", "CORRAL_SHARD_IDS": "0"}, "shared PostgreSQL store"),
])
def test_shard_settings_are_checked(env, message):
    with pytest.raises(ConfigError, match=message):
        load_settings({"DISCORD_TOKEN": "t", **env}, "/nonexistent/.env")


def test_shard_settings_read():
    settings = load_settings({"DISCORD_TOKEN": "t", "CORRAL_SHARDS": "4",
                              "CORRAL_SHARD_IDS": "0,2-3",
                              "CORRAL_DATABASE": "postgresql://u@h/d"}, "/nonexistent/.env")
    assert settings.shard_count == 4 and settings.shard_ids == (0, 2, 3)
    one = load_settings({"DISCORD_TOKEN": "t", "CORRAL_SHARDS": "2"}, "/nonexistent/.env")
    assert one.shard_count == 2 and one.shard_ids is None  # all shards in one process


async def test_an_accept_and_a_decline_racing_in_two_processes_settle_once(two):
    import asyncpg

    from bot.service import StaleAction

    url, clock, (one, other) = two
    match = await one.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                 opponent=BOB, guild_id=1, channel_id=11, first="me")
    match = await one.accept(match.id, BOB.user_id)
    offer = await one.offer_draw(match.id, ALICE.user_id)
    # both answers read the open offer, then wait for the match row another connection holds
    holder = await asyncpg.connect(url)
    hold = holder.transaction()
    await hold.start()
    await holder.execute("SELECT id FROM matches WHERE id = $1 FOR UPDATE", match.id)
    # the decline queues for the row first (PostgreSQL grants row locks in order), then the
    # accept: the accept must find the offer declined and change nothing
    decline = asyncio.ensure_future(other.answer_offer(offer.id, BOB.user_id, False))
    await asyncio.sleep(0.3)
    accept = asyncio.ensure_future(one.answer_offer(offer.id, BOB.user_id, True))
    await asyncio.sleep(0.3)
    await hold.rollback()
    await holder.close()
    await decline
    with pytest.raises(StaleAction):
        await accept
    final = await one.get(match.id)
    status = await one.store.conn.fetchval("SELECT status FROM offers WHERE id = $1", offer.id)
    assert (status, final.status) == ("declined", "active")


def _kind(declared: str) -> str:
    """A column's type as both databases store it: SQLite's affinity rules (a name with INT is
    an integer, one with REAL, FLOA or DOUB a real), which PostgreSQL's type names follow."""
    declared = declared.upper()
    if "INT" in declared:
        return "integer"
    if any(part in declared for part in ("REAL", "FLOA", "DOUB")):
        return "real"
    return declared.lower()


async def test_the_migrations_of_both_databases_make_the_same_schema(pg_server, tmp_path):
    """0001-0003 are twins per database (`bot/store/migrations/<dialect>/`), and 0004 on are written
    once (`bot/store/migrations/common/`, with PostgreSQL's type names, which SQLite stores with the
    same affinity): both sets make the same tables, with the same columns of the same kinds,
    the same indexes and a trigger on the move log."""
    import asyncpg

    assert [name for _, name, _ in migration_scripts("sqlite")] == [
        name for _, name, _ in migration_scripts("postgresql")]
    sqlite_store = await Store.open(tmp_path / "corral.sqlite3")
    try:
        tables = [r["name"] for r in await sqlite_store.conn.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%'")]
        on_sqlite = {}
        for table in tables:  # names from sqlite_master
            rows = await sqlite_store.conn.fetch(
                f"SELECT name, type FROM pragma_table_info('{table}')")
            on_sqlite[table] = sorted((r["name"], _kind(r["type"])) for r in rows)
        sqlite_indexes = sorted(r["name"] for r in await sqlite_store.conn.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'index'"
            " AND name NOT LIKE 'sqlite_autoindex%'"))
        sqlite_triggers = {r["tbl_name"] for r in await sqlite_store.conn.fetch(
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")}
    finally:
        await sqlite_store.close()
    conn = await asyncpg.connect(await pg_server.fresh_database())
    try:
        on_pg: dict[str, list[tuple[str, str]]] = {}
        for r in await conn.fetch(
                "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = 'public' AND table_name <> 'schema_migrations'"):
            on_pg.setdefault(r["table_name"], []).append(
                (r["column_name"], _kind(r["data_type"])))
        pg_indexes = sorted(r["indexname"] for r in await conn.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
            " AND indexname NOT LIKE '%_pkey'"))
        pg_triggers = {r["event_object_table"] for r in await conn.fetch(
            "SELECT event_object_table FROM information_schema.triggers")}
    finally:
        await conn.close()
    assert on_sqlite == {table: sorted(columns) for table, columns in on_pg.items()}
    # PostgreSQL names a UNIQUE constraint's index itself; SQLite's is an autoindex
    assert sqlite_indexes == [name for name in pg_indexes if not name.endswith("_key")]
    assert sqlite_triggers == pg_triggers == {"moves"}
