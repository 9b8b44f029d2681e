"""The store on both back ends (SQLite files, a throwaway PostgreSQL): migrations, restart, version conflicts, the append-only log,
the outbox's lanes, file permissions, and reads that never see another task's open write."""

import asyncio
import os
import sqlite3
import stat
from typing import Any

import pytest

from bot.store import PENDING_OUTBOX, ChannelBusy, SeatRow, StaleVersion, Store
from bot.store.db import Conflict, migration_scripts
from bot.store.sqlite import split_statements


async def new_match(store, channel=500, now=1.0):
    async with store.transaction() as tx:
        match_id = await tx.create_match(
            game="progressive-mancala", options={"pits": "11"}, seat_count=2, guild_id=1,
            channel_id=channel, in_thread=False, parent_channel_id=None, host_id=101,
            invited_id=None, first_seat="me", status="open", move_seconds=None,
            seats=[SeatRow(0, 101, "Alice")], now=now)
    return await store.get_match(match_id)


async def save(store, match, now, **changes):
    move = changes.pop("move", None)
    async with store.transaction() as tx:
        version = await tx.update_match(match.id, match.version, now=now, **changes)
        if move is not None:
            await tx.append_log(match.id, match.version, ply=0, kind="move", notation=move,
                                actor_id=101, now=now)
    return await store.get_match(match.id), version


async def test_a_rewritten_match_is_the_row_a_read_gives_back(store):
    """`rewrite_match` returns the row it wrote without reading it (the move path's saving):
    it must equal what a read gives, whichever columns changed, JSON included; a change of
    seats is read back; an unknown column or a stale version is refused."""
    match = await new_match(store)
    steps: list[dict] = [
        {"status": "active", "state": {"pits": [1, 2], "note": "é", "nested": {"a": None}},
         "turn_started_at": 2.5, "waiting_on": 101, "next_check_at": 9.0},
        {"state": {"pits": [3]}, "board_version": 2, "move_seconds": 3600},
        {"status": "finished", "result": {"winners": [0], "reason": "target"},
         "finished_at": 7.0, "waiting_on": None, "next_check_at": None, "plies": 12},
        {"seats": [SeatRow(0, 101, "Alice"), SeatRow(1, 202, "Bob")]},
    ]
    for now, changes in enumerate(steps, start=2):
        async with store.transaction() as tx:
            written = await tx.rewrite_match(match, now=float(now), **changes)
        match = await store.get_match(match.id)
        assert written == match
    assert [seat.name for seat in match.seats] == ["Alice", "Bob"]
    async with store.transaction() as tx:
        with pytest.raises(TypeError):
            await tx.rewrite_match(match, now=9.0, colour="red")
    stale = match
    async with store.transaction() as tx:
        await tx.rewrite_match(match, now=9.0, board_version=3)
    with pytest.raises(StaleVersion):
        async with store.transaction() as tx:
            await tx.rewrite_match(stale, now=10.0, board_version=4)


async def test_opening_applies_migrations_with_wal_and_foreign_keys(store):
    dialect = store.db.dialect
    assert await store.schema_version() == migration_scripts(dialect)[-1][0]
    assert [n for n, _, _ in migration_scripts(dialect)] == \
        [n for n, _, _ in migration_scripts("sqlite")]  # the same numbered steps
    if dialect == "sqlite":
        assert (await store.db.pragma("journal_mode")).lower() == "wal"
        assert await store.db.pragma("foreign_keys") == 1


async def test_the_database_is_readable_by_its_owner_only(tmp_path):
    store = await Store.open(tmp_path / "data" / "corral.sqlite3")
    assert stat.S_IMODE(os.stat(tmp_path / "data").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(tmp_path / "data" / "corral.sqlite3").st_mode) == 0o600
    await new_match(store)
    wal = tmp_path / "data" / "corral.sqlite3-wal"
    assert wal.exists() and stat.S_IMODE(os.stat(wal).st_mode) == 0o600
    await store.close()
    assert not wal.exists()  # a clean close checkpoints and removes the log


async def test_a_match_survives_closing_and_reopening_the_file(tmp_path):
    path = tmp_path / "corral.sqlite3"
    store = await Store.open(path)
    match = await new_match(store)
    match, _ = await save(store, match, 2.0, status="active", state={"x": 1}, move="k")
    await store.close()
    again = await Store.open(path)  # migrations are not re-run on an up-to-date file
    row = await again.get_match(match.id)
    assert row.status == "active" and row.state == {"x": 1} and row.version == match.version
    assert [m.notation for m in await again.moves(match.id)] == ["k"]
    await again.close()


async def test_a_save_with_an_old_version_changes_nothing(store):
    match = await new_match(store)
    first, _ = await save(store, match, 2.0, state={"n": 1}, move="k")
    with pytest.raises(StaleVersion):
        await save(store, match, 3.0, state={"n": 2}, move="c")
    row = await store.get_match(match.id)
    assert row.state == {"n": 1} and row.version == first.version
    assert [m.notation for m in await store.moves(match.id)] == ["k"]


async def test_a_failed_transaction_leaves_no_outbox_row_behind(store):
    match = await new_match(store)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.enqueue(f"m:{match.id}", "board", {"x": 1}, 1.0)
            await tx.update_match(match.id, match.version, now=2.0, status="active")
            raise RuntimeError("a crash between the change and the commit")
    assert await store.pending_outbox(10.0, 10) == []
    assert (await store.get_match(match.id)).version == match.version


async def test_reads_never_see_another_tasks_uncommitted_write(store):
    """The reader is a second connection: a read that runs while another task is inside a
    transaction sees the committed state only."""
    match = await new_match(store)
    inside, release = asyncio.Event(), asyncio.Event()

    async def writer():
        async with store.transaction() as tx:
            await tx.update_match(match.id, match.version, now=2.0, status="active")
            inside.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inside.wait()
    assert (await store.get_match(match.id)).status == "open"
    release.set()
    await task
    assert (await store.get_match(match.id)).status == "active"


async def test_writes_go_out_in_order_and_vanish_with_the_transaction(store):
    """Writes whose result nobody needs wait for the transaction's next statement (SQLite:
    one round trip to the database thread for all of them): a read later in the same
    transaction sees them, a failure discards them, and a queued write's conflict fails the
    transaction with everything before it."""
    match = await new_match(store)
    async with store.transaction() as tx:
        await tx.set_waiting_on(match.id, 101)
        await tx.set_board_version(match.id, 7)
        mid = await tx.lock_match(match.id)
        assert mid is not None and (mid.waiting_on, mid.board_version) == (101, 7)
        await tx.set_board_version(match.id, 8)
    row = await store.get_match(match.id)
    assert (row.waiting_on, row.board_version) == (101, 8)

    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.set_waiting_on(match.id, None)
            await tx.enqueue_many([("m:1", "board", {"n": 1})], 1.0)
            raise RuntimeError("a crash before the commit")
    row = await store.get_match(match.id)
    assert row.waiting_on == 101 and await store.pending_outbox(10.0, 10) == []

    async with store.transaction() as tx:
        await tx.append_log(match.id, 0, ply=0, kind="move", notation="k", actor_id=101,
                            now=1.0, interaction_id=5)

    with pytest.raises(Conflict):
        async with store.transaction() as tx:
            await tx.set_board_version(match.id, 9)
            await tx.append_log(match.id, 1, ply=1, kind="move", notation="c", actor_id=101,
                                now=1.0, interaction_id=5)  # the same interaction again
    assert (await store.get_match(match.id)).board_version == 8


def writer_trips(monkeypatch, store):
    """The calls of aiosqlite's public API on the SQLite writer's connection, each one round
    trip to its thread, as they are made: (method, the statement's first 30 characters), or
    for a batch of statements sent in one call ("batch", (what it runs, in order)): BEGIN
    IMMEDIATE (if no transaction is open), each statement's first 30 characters ("many "
    before an executemany), COMMIT."""
    import aiosqlite

    from bot.store.sqlite import _Batch

    calls: list[tuple[str, Any]] = []
    writer = store.db._writer
    for name in ("execute", "execute_fetchall", "executemany", "commit", "rollback"):
        real = getattr(aiosqlite.Connection, name)

        def wrapped(self, *args, _real=real, _name=name, **kwargs):
            if self is writer and len(args) > 1 and isinstance(args[1], _Batch):
                batch = args[1]
                calls.append(("batch", (*(["BEGIN IMMEDIATE"] if batch.begin else []),
                                        *(("many " if step.many else "") + step.sql[:30]
                                          for step in batch.steps),
                                        *(["COMMIT"] if batch.commit else []))))
            elif self is writer:
                calls.append((_name, args[0][:30] if args else ""))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, name, wrapped)
    return calls


async def test_a_sqlite_transaction_sends_its_writes_with_its_next_statement(store, monkeypatch):
    """Writes whose results nobody reads wait for the transaction's next statement or its
    commit and go with it in one round trip to the writer's thread (a batch); the transaction
    begins (BEGIN IMMEDIATE) with the first of them, and one that only reads never begins
    (never takes SQLite's write lock). A run of the same SQL is one `executemany`."""
    if store.db.dialect != "sqlite":
        return
    match = await new_match(store)
    calls = writer_trips(monkeypatch, store)
    async with store.transaction() as tx:
        await tx.set_waiting_on(match.id, 101)
        await tx.set_board_version(match.id, 3)
        await tx.enqueue_many([("m:1", "board", {"n": 1})], 1.0)
        assert calls == []  # nothing sent yet
    assert calls == [("batch", ("BEGIN IMMEDIATE", "UPDATE matches SET waiting_on ",
                                "UPDATE matches SET board_versi",
                                "INSERT INTO outbox (lane, kind", "COMMIT"))], calls
    row = await store.get_match(match.id)
    assert (row.waiting_on, row.board_version) == (101, 3)
    assert len(await store.pending_outbox(10.0, 10)) == 1
    calls.clear()
    async with store.transaction() as tx:  # only reads (the match and its seats at once)
        await tx.lock_match(match.id)
    assert [call for call, _ in calls] == ["execute_fetchall"]
    calls.clear()
    async with store.transaction() as tx:  # a move's shape: read, change, log, commit
        locked = await tx.lock_match(match.id)
        assert locked is not None
        await tx.rewrite_match(locked, now=2.0, state={"n": 1}, board_version=4)
        await tx.append_log(match.id, locked.version, ply=0, kind="move", notation="k",
                            actor_id=101, now=2.0)
    assert [call for call, _ in calls] == ["execute_fetchall", "batch"], calls
    assert calls[1][1][0] == "BEGIN IMMEDIATE" and calls[1][1][-1] == "COMMIT", calls
    assert (await store.get_match(match.id)).state == {"n": 1}
    calls.clear()
    async with store.transaction() as tx:  # the same SQL three times: one executemany
        for n in (5, 6, 7):
            await tx.set_board_version(match.id, n)
    assert calls == [("batch", ("BEGIN IMMEDIATE", "many UPDATE matches SET board_versi",
                                "COMMIT"))], calls
    assert (await store.get_match(match.id)).board_version == 7


async def test_a_transaction_begins_with_its_first_write_whatever_the_sql_looks_like(store):
    """The driver opens the transaction because the call is a write (`write`, `execute`), not
    because the statement starts with INSERT or UPDATE (sqlite3's own implicit BEGIN reads
    those letters, and would autocommit a write behind a WITH clause or a comment)."""
    match = await new_match(store)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.conn.write(
                "WITH target AS (SELECT id FROM matches WHERE id = $1) UPDATE matches SET status = 'active'"
                " WHERE id = (SELECT id FROM target)", match.id)
            await tx.conn.write("/* a note */ UPDATE matches SET board_version = 5"
                                " WHERE id = $1", match.id)
            seen = await tx.get_match(match.id)
            assert seen is not None and (seen.status, seen.board_version) == ("active", 5)
            raise RuntimeError("a crash before the commit")
    row = await store.get_match(match.id)
    assert (row.status, row.board_version) == ("open", match.board_version)


async def test_the_reader_refuses_a_write(store):
    """`fetch` is a read by the interface's contract; on SQLite the reader's connection is
    query-only, so a write given to it fails instead of committing outside the write lock."""
    match = await new_match(store)
    if store.db.dialect != "sqlite":
        return
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        await store.conn.fetch("UPDATE matches SET status = 'active' WHERE id = $1"
                               " RETURNING id", match.id)
    assert (await store.get_match(match.id)).status == "open"


def test_a_migration_is_either_common_or_a_databases_own(tmp_path, monkeypatch):
    """`bot/store/migrations/common/` and `bot/store/migrations/<dialect>/` make one numbered
    sequence; the same number in both would leave it to chance which one a database applied."""
    import bot.store.db
    from bot.store.db import DatabaseError

    for folder, name in (("common", "0002_b"), ("sqlite", "0001_a"), ("sqlite", "0003_c")):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / f"{name}.sql").write_text(f"-- {name}\n", encoding="utf-8")
    monkeypatch.setattr(bot.store.db, "MIGRATIONS", tmp_path)
    assert [(n, name) for n, name, _ in migration_scripts("sqlite")] == [
        (1, "0001_a"), (2, "0002_b"), (3, "0003_c")]
    (tmp_path / "sqlite" / "0002_b.sql").write_text("-- again\n", encoding="utf-8")
    with pytest.raises(DatabaseError, match="migration 2"):
        migration_scripts("sqlite")


async def test_a_stale_change_waiting_for_the_commit_still_fails_the_transaction(store):
    """A match change that may wait for the commit (it cannot break the one-live-match
    constraint) still fails the whole transaction, with the caller's error, if the match
    moved on; what was queued before and after it is discarded."""
    match = await new_match(store)
    async with store.transaction() as tx:
        await tx.rewrite_match(match, now=2.0, board_version=3)

    class Lost(Exception):
        pass

    with pytest.raises(Lost):
        async with store.transaction() as tx:
            await tx.set_waiting_on(match.id, 202)
            await tx.rewrite_match(match, now=3.0, stale=Lost(), state={"n": 2},
                                   status="finished")
            await tx.enqueue_many([("m:1", "board", {"n": 2})], 3.0)
    row = await store.get_match(match.id)
    assert (row.board_version, row.state, row.status, row.waiting_on) == \
        (3, match.state, match.status, match.waiting_on)
    assert await store.pending_outbox(10.0, 10) == []


async def test_the_due_outbox_rows_are_found_without_walking_the_delivered_ones(store):
    """The worker asks for the lanes' heads several times a second, and delivered rows are
    kept for a week: the query must go by the index of pending rows (migration 0013), not
    walk the whole outbox in id order (SQLite's plan; PostgreSQL plans by its statistics)."""
    if store.db.dialect != "sqlite":  # its planner chooses by statistics: the index is there
        found = await store.conn.fetchval(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'outbox_pending'")
        assert found is not None and "status = 'pending'" in found.replace("::text", ""), found
        return
    plan = await store.conn.fetch("EXPLAIN QUERY PLAN " + PENDING_OUTBOX, 1e12, 1e12, 50)
    details = [row["detail"] for row in plan]
    assert any("outbox_pending" in d for d in details), details
    assert not any(d.startswith("SCAN") and "USING" not in d for d in details), details


async def test_outbox_lanes_go_out_in_order(store):
    async with store.transaction() as tx:
        a1 = await tx.enqueue("m:1", "board", {"n": 1}, 1.0)
        a2 = await tx.enqueue("m:1", "board", {"n": 2}, 1.0)
        b1 = await tx.enqueue("m:2", "board", {"n": 3}, 1.0)
    heads = await store.pending_outbox(5.0, 10)
    assert [row.id for row in heads] == [a1, b1]  # one head per lane
    async with store.transaction() as tx:
        await tx.retry_outbox(a1, 100.0, "502")
    assert [row.id for row in await store.pending_outbox(5.0, 10)] == [b1]  # a2 waits for a1
    assert [row.id for row in await store.pending_outbox(101.0, 10)] == [a1, b1]
    async with store.transaction() as tx:
        await tx.finish_outbox(a1, 101.0, {"message_id": 5})
    assert [row.id for row in await store.pending_outbox(101.0, 10)] == [a2, b1]


async def test_a_claimed_row_is_not_handed_out_again_until_its_lease_ends(store):
    async with store.transaction() as tx:
        row = await tx.enqueue("m:1", "board", {}, 1.0)
        assert await tx.claim_outbox_rows([row], "a", 50.0, 1.0) == {row}
    async with store.transaction() as tx:
        assert await tx.claim_outbox_rows([row], "b", 50.0, 2.0) == set()
    async with store.transaction() as tx:  # a claim commits: nothing may follow it
        await tx.claim_outbox_rows([row], "b", 50.0, 2.0)
        if store.db.dialect == "sqlite":
            with pytest.raises(RuntimeError):
                await tx.enqueue("m:9", "board", {}, 2.0)
    assert await store.pending_outbox(10.0, 10) == []
    assert [r.id for r in await store.pending_outbox(51.0, 10)] == [row]
    async with store.transaction() as tx:  # a batch: only the rows nobody holds
        other = await tx.enqueue("m:2", "board", {}, 1.0)
        done = await tx.enqueue("m:3", "board", {}, 1.0)
        await tx.finish_outbox(done, 2.0)
        assert await tx.claim_outbox_rows([row, other, done], "b", 90.0, 20.0) == {other}
    assert [r.id for r in await store.pending_outbox(60.0, 10)] == [row]  # `other` is held
    assert [r.id for r in await store.pending_outbox(91.0, 10)] == [row, other]


async def test_finishing_a_row_forgets_the_messages_it_retired(store):
    from bot.store import LiveMessage

    match = await new_match(store)
    async with store.transaction() as tx:
        row = await tx.enqueue(f"m:{match.id}", "board", {}, 1.0)
        for message_id, version in ((11, 1), (12, 2), (13, 3)):
            await tx.add_live_message(
                LiveMessage(message_id, 500, match.id, "board", version, None), 1.0)
    async with store.transaction() as tx:
        await tx.finish_outbox(row, 2.0, {"retired": [11, 12]}, retired=[11, 12])
    assert [m.message_id for m in await store.live_messages(match.id)] == [13]
    assert await store.pending_outbox(10.0, 10) == []


async def test_migrations_keep_a_version_1_log(tmp_path):
    path = tmp_path / "old.sqlite3"
    raw = sqlite3.connect(path)
    for statement in split_statements(migration_scripts("sqlite")[0][2]):
        raw.execute(statement)
    raw.execute("PRAGMA user_version=1")
    raw.execute("INSERT INTO matches (id, game, seat_count, channel_id, host_id, status,"
                " created_at, updated_at) VALUES (1, 'progressive-mancala', 2, 5, 9, 'active', 0, 0)")
    raw.execute("INSERT INTO moves VALUES (1, 0, 'k', 9, 1.0)")
    raw.commit()
    raw.close()
    store = await Store.open(path)
    assert await store.schema_version() == migration_scripts("sqlite")[-1][0]
    [row] = await store.moves(1)
    assert (row.seq, row.ply, row.kind, row.notation, row.actor_id) == (0, 0, "move", "k", 9)
    await store.close()


async def test_the_move_log_is_append_only(store):
    match = await new_match(store)
    await save(store, match, 2.0, move="k")
    if store.db.dialect == "sqlite":
        raw = sqlite3.connect(store.path)
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute("UPDATE moves SET notation = 'c'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute("DELETE FROM moves")
        raw.close()
        return
    import asyncpg

    raw = await asyncpg.connect(store.path)  # a connection of its own, outside the store
    try:
        with pytest.raises(asyncpg.PostgresError, match="append-only"):
            await raw.execute("UPDATE moves SET notation = 'c'")
        with pytest.raises(asyncpg.PostgresError, match="append-only"):
            await raw.execute("DELETE FROM moves")
    finally:
        await raw.close()
    assert [m.notation for m in await store.moves(match.id)] == ["k"]


async def test_one_live_match_per_channel(store):
    match = await new_match(store, channel=900)
    with pytest.raises(ChannelBusy):
        await new_match(store, channel=900)
    await save(store, match, 2.0, status="finished")
    assert (await new_match(store, channel=900)).status == "open"


async def test_an_interaction_is_logged_once(store):
    match = await new_match(store)
    async with store.transaction() as tx:
        await tx.append_log(match.id, 0, ply=0, kind="move", notation="k", actor_id=101,
                            now=1.0, interaction_id=77)
    from bot.store.db import Conflict

    with pytest.raises(Conflict):
        async with store.transaction() as tx:
            await tx.append_log(match.id, 1, ply=1, kind="move", notation="c", actor_id=101,
                                now=1.0, interaction_id=77)
    found = await store.move_by_interaction(77)
    assert found is not None and found[0] == match.id and found[1].notation == "k"


async def test_guild_settings_default_and_change(store):
    assert (await store.guild_settings(7))["use_threads"] is False
    async with store.transaction() as tx:
        await tx.update_guild_settings(7, use_threads=True, channels=[3, 1])
    settings = await store.guild_settings(7)
    assert settings["use_threads"] is True and settings["channels"] == [1, 3]


async def test_the_sqlite_write_lock_serves_players_first_without_starving_the_rest():
    """Transactions a player waits on go before waiting background work (arrival order
    within each kind), background work still gets every FAIR_SHARE-th turn, and a waiter
    cancelled in the queue or at the moment it is handed the lock never wedges it."""
    import asyncio

    from bot.store.sqlite import WriteLock

    lock = WriteLock()
    order: list[str] = []
    inside = 0

    async def transaction(name: str, background: bool) -> None:
        nonlocal inside
        async with lock.hold(background):
            inside += 1
            assert inside == 1  # one at a time
            order.append(name)
            await asyncio.sleep(0)
            inside -= 1

    await lock.acquire()
    tasks = [asyncio.create_task(transaction(f"b{i}", True)) for i in range(2)]
    tasks += [asyncio.create_task(transaction(f"p{i}", False)) for i in range(5)]
    await asyncio.sleep(0)
    lock.release()
    await asyncio.gather(*tasks)
    share = WriteLock.FAIR_SHARE - 1
    assert order == [f"p{i}" for i in range(share)] + ["b0"] + \
        [f"p{i}" for i in range(share, 5)] + ["b1"]
    assert not lock.locked()

    await lock.acquire()
    queued = asyncio.create_task(lock.acquire())
    handed = asyncio.create_task(lock.acquire(background=True))
    last = asyncio.create_task(transaction("last", True))
    await asyncio.sleep(0)
    queued.cancel()  # gives up while waiting
    await asyncio.sleep(0)
    lock.release()  # to `handed`, which is cancelled before it runs
    handed.cancel()
    for task in (queued, handed):
        with pytest.raises(asyncio.CancelledError):
            await task
    await asyncio.wait_for(last, 1)
    assert order[-1] == "last" and not lock.locked()


async def test_writes_waiting_together_share_one_commit_and_never_share_an_error(store,
                                                                                  monkeypatch):
    """`together`: bookkeeping writes that wait for SQLite's write lock at the same moment
    go in one transaction (one commit); if that transaction fails, each is committed on its
    own, so only the writes at fault fail."""
    import asyncio

    match = await new_match(store)
    async with store.transaction() as tx:
        ids = [await tx.enqueue(f"m:{n}", "board", {"n": n}, 1.0) for n in range(6)]
    calls = writer_trips(monkeypatch, store) if store.db.dialect == "sqlite" else []

    def finish(outbox_id):
        return lambda tx: tx.finish_outbox(outbox_id, 2.0, {"ok": outbox_id})

    async with store.transaction():  # the lock is busy while they line up
        waiting = [asyncio.create_task(store.together(finish(i))) for i in ids[:3]]
        await asyncio.sleep(0.01)
    await asyncio.gather(*waiting)
    if store.db.dialect == "sqlite":  # one transaction: the three updates in one executemany,
        # all in one round trip
        assert calls == [("batch", ("BEGIN IMMEDIATE", "many UPDATE outbox SET status = $1,",
                                    "COMMIT"))], calls
    assert [row.id for row in await store.pending_outbox(10.0, 10)] == ids[3:]

    async def broken(tx):
        await tx.append_log(match.id, 0, ply=0, kind="move", notation="k", actor_id=101,
                            now=1.0, interaction_id=77)
        await tx.append_log(match.id, 1, ply=1, kind="move", notation="c", actor_id=101,
                            now=1.0, interaction_id=77)  # the same interaction: a conflict

    async with store.transaction():
        waiting = [asyncio.create_task(store.together(finish(ids[3]))),
                   asyncio.create_task(store.together(broken)),
                   asyncio.create_task(store.together(finish(ids[4])))]
        await asyncio.sleep(0.01)
    results = await asyncio.gather(*waiting, return_exceptions=True)
    from bot.store.db import Conflict

    assert results[0] is None and results[2] is None and isinstance(results[1], Conflict)
    assert [row.id for row in await store.pending_outbox(10.0, 10)] == [ids[5]]
    assert await store.moves(match.id) == []


async def test_an_atomic_body_runs_ahead_of_the_lock_and_again_under_it_when_it_must(store):
    """`atomic` on SQLite: the body runs first ahead of the write lock (reads of committed
    data, writes kept until a group commit checks and commits them); a body that needs the
    lock (a write whose result it reads, ratings) or whose checks fail at the commit (the
    match moved on since it was read) runs again in a transaction, and only that run's
    writes are kept. On PostgreSQL: one transaction, run again only for `again_on`."""
    ahead = store.db.dialect == "sqlite"
    match = await new_match(store)
    runs: list = []

    async def bump(tx):
        row = await tx.lock_match(match.id)
        runs.append(row.version)
        await tx.rewrite_match(row, now=2.0, board_version=row.version + 10)
        await tx.set_waiting_on(match.id, 300 + len(runs))
        return row.version

    assert await store.atomic(bump) == match.version and runs == [match.version]
    now = await store.get_match(match.id)
    assert (now.version, now.board_version, now.waiting_on) == (
        match.version + 1, match.version + 10, 301)

    async def needs_the_lock(tx):
        runs.append("run")
        await tx.lock_ratings()
        return await tx.enqueue("m:1", "board", {}, 1.0)

    runs.clear()
    outbox_id = await store.atomic(needs_the_lock)
    assert runs == (["run", "run"] if ahead else ["run"])
    assert [row.id for row in await store.pending_outbox(10.0, 10)] == [outbox_id]

    if ahead:  # the match moves on between the run ahead and its commit
        async def raced(tx):
            row = await tx.lock_match(match.id)
            runs.append(row.version)
            if len(runs) == 1:
                async with store.transaction() as other:
                    await other.rewrite_match(row, now=3.0, board_version=99)
            await tx.rewrite_match(row, now=4.0, board_version=row.version + 10)
            await tx.set_waiting_on(match.id, 400 + len(runs))
            return row.version

        runs.clear()
        version = now.version
        assert await store.atomic(raced) == version + 1 and runs == [version, version + 1]
        after = await store.get_match(match.id)
        assert (after.version, after.board_version, after.waiting_on) == (
            version + 2, version + 11, 402)

    class Moved(Exception):
        pass

    async def checked(tx):
        runs.append("run")
        if len(runs) == 1:
            raise Moved
        return len(runs)

    runs.clear()
    assert await store.atomic(checked, again_on=(Moved,)) == 2

    async def refused(tx):
        runs.append("run")
        raise ValueError("refused")

    runs.clear()  # an error stands once the body raised it in a transaction
    with pytest.raises(ValueError):
        await store.atomic(refused)
    assert runs == (["run", "run"] if ahead else ["run"])


async def test_moves_are_worked_out_ahead_of_the_lock_only_where_reads_see_committed_data(
        tmp_path):
    """A `:memory:` database reads on its writer's connection, which sees a transaction's
    uncommitted rows: no `atomic` body runs there before the write lock."""
    runs = []

    async def needs_the_lock(tx):
        runs.append("run")
        await tx.lock_ratings()

    memory = await Store.open(":memory:")
    on_file = await Store.open(str(tmp_path / "corral.sqlite3"))
    try:
        await memory.atomic(needs_the_lock)
        assert runs == ["run"]
        await on_file.atomic(needs_the_lock)
        assert runs == ["run"] * 3
    finally:
        await memory.close()
        await on_file.close()


async def test_a_sqlite_store_whose_migration_fails_leaves_no_thread_behind(tmp_path, monkeypatch):
    """aiosqlite's connection threads are not daemons: a database left open would keep the
    process from exiting after the error (a bot that cannot migrate must stop, not hang)."""
    import threading

    import bot.store.sqlite

    monkeypatch.setattr(bot.store.sqlite, "migration_scripts",
                        lambda dialect: [(1, "0001_broken", "CREATE TABLE broken (")])
    before = set(threading.enumerate())
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(str(tmp_path / "corral.sqlite3"))
    left = [t for t in threading.enumerate() if t not in before and not t.daemon]
    for thread in left:  # a closed connection's thread ends just after the close returns
        await asyncio.to_thread(thread.join, 10)
    assert not [t for t in left if t.is_alive()], left


class _Refused(Exception):
    pass


async def test_a_failed_check_or_conflict_in_a_transaction_commits_nothing_sent_with_it(store):
    """The writes of a transaction travel together (on SQLite, in one round trip to the
    writer's thread): a `write_one` that changes no row stops there and a conflict fails the
    statement, and in either case nothing of the transaction is committed, neither what went
    before it nor what was sent after it."""
    match = await new_match(store)
    with pytest.raises(_Refused):
        async with store.transaction() as tx:
            await tx.conn.write("UPDATE matches SET waiting_on = $1 WHERE id = $2", 7, match.id)
            await tx.conn.write_one("UPDATE matches SET board_version = $1 WHERE id = $2", 9,
                                    -1, otherwise=_Refused())  # no such match: no row
            await tx.conn.write("UPDATE matches SET board_version = $1 WHERE id = $2", 8,
                                match.id)
    row = await store.get_match(match.id)
    assert (row.waiting_on, row.board_version) == (match.waiting_on, match.board_version)
    with pytest.raises(Conflict):
        async with store.transaction() as tx:
            await tx.conn.write("UPDATE matches SET waiting_on = $1 WHERE id = $2", 7, match.id)
            await tx.append_log(match.id, 0, ply=0, kind="move", notation="k", actor_id=101,
                                now=1.0, interaction_id=5)
            await tx.append_log(match.id, 1, ply=1, kind="move", notation="c", actor_id=101,
                                now=1.0, interaction_id=5)  # the same interaction: a conflict
            await tx.conn.write("UPDATE matches SET board_version = $1 WHERE id = $2", 8,
                                match.id)
    row = await store.get_match(match.id)
    assert (row.waiting_on, row.board_version) == (match.waiting_on, match.board_version)
    assert await store.moves(match.id) == []
