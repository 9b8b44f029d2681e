"""The store on real SQLite files: migrations, restart, version conflicts, the append-only log."""

import sqlite3

import pytest

from bot.store import MIGRATIONS, ChannelBusy, NewMove, StaleVersion, Store


async def new_match(store, channel=500, now=1.0):
    return await store.create_match(
        game="progressive-mancala", options={"pits": "11"}, seat_count=2, guild_id=1,
        channel_id=channel, in_thread=False, host_id=101, host_name="Alice", invited_id=None,
        first_seat="me", status="open", now=now)


async def test_opening_applies_migrations_with_wal_and_foreign_keys(store):
    assert await store.schema_version() == MIGRATIONS[-1][0]
    assert (await store.pragma("journal_mode")).lower() == "wal"
    assert await store.pragma("foreign_keys") == 1


async def test_a_match_survives_closing_and_reopening_the_file(tmp_path):
    path = tmp_path / "corral.sqlite3"
    store = await Store.open(path)
    match = await new_match(store)
    match = await store.save(match.id, match.version, now=2.0, status="active",
                             state={"x": 1}, move=NewMove(0, "k", 101))
    await store.close()
    again = await Store.open(path)  # migrations are not re-run on an up-to-date file
    row = await again.get_match(match.id)
    assert row.status == "active" and row.state == {"x": 1} and row.version == match.version
    assert [m.notation for m in await again.moves(match.id)] == ["k"]
    await again.close()


async def test_a_save_with_an_old_version_changes_nothing(store):
    match = await new_match(store)
    first = await store.save(match.id, match.version, now=2.0, state={"n": 1},
                             move=NewMove(0, "k", 101))
    with pytest.raises(StaleVersion):
        await store.save(match.id, match.version, now=3.0, state={"n": 2},
                         move=NewMove(0, "c", 202))
    row = await store.get_match(match.id)
    assert row.state == {"n": 1} and row.version == first.version
    assert [m.notation for m in await store.moves(match.id)] == ["k"]


async def test_the_same_version_cannot_be_logged_twice(store):
    match = await new_match(store)
    match = await store.save(match.id, match.version, now=2.0, move=NewMove(0, "k", 101))
    with pytest.raises(StaleVersion):
        await store.save(match.id, match.version - 1, now=3.0, move=NewMove(0, "c", 202))
    assert len(await store.moves(match.id)) == 1


async def test_migration_2_keeps_a_version_1_log(tmp_path):
    import sqlite3

    from bot.store import MIGRATIONS, _statements

    path = tmp_path / "old.sqlite3"
    raw = sqlite3.connect(path)
    for statement in _statements(MIGRATIONS[0][1]):
        raw.execute(statement)
    raw.execute("PRAGMA user_version=1")
    raw.execute("INSERT INTO matches (id, game, seat_count, channel_id, host_id, status,"
                " created_at, updated_at) VALUES (1, 'progressive-mancala', 2, 5, 9, 'active', 0, 0)")
    raw.execute("INSERT INTO moves VALUES (1, 0, 'k', 9, 1.0)")
    raw.commit()
    raw.close()
    store = await Store.open(path)
    assert await store.schema_version() == 2
    [row] = await store.moves(1)
    assert (row.seq, row.ply, row.kind, row.notation, row.actor_id) == (0, 0, "move", "k", 9)
    await store.close()


async def test_the_move_log_is_append_only(store, tmp_path):
    match = await new_match(store)
    await store.save(match.id, match.version, now=2.0, move=NewMove(0, "k", 101))
    raw = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("UPDATE moves SET notation = 'c'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("DELETE FROM moves")
    raw.close()


async def test_one_live_match_per_channel(store):
    match = await new_match(store, channel=900)
    with pytest.raises(ChannelBusy):
        await new_match(store, channel=900)
    await store.save(match.id, match.version, now=2.0, status="finished")
    assert (await new_match(store, channel=900)).status == "open"


async def test_guild_thread_setting_defaults_off(store):
    assert await store.uses_threads(7) is False
    await store.set_uses_threads(7, True)
    assert await store.uses_threads(7) is True
    await store.set_uses_threads(7, False)
    assert await store.uses_threads(7) is False
