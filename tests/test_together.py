"""`Store.together` (group commit): every caller's future settles, whatever happens
to the task that commits the group."""

import asyncio
import contextlib

import pytest
from test_store import new_match

from bot.store import Store


@pytest.fixture
async def store(tmp_path):
    """SQLite only: a group commit exists only where one writer is queued for."""
    store = await Store.open(str(tmp_path / "corral.sqlite3"))
    yield store
    await store.close()


async def test_a_group_cancelled_while_retrying_alone_settles_every_caller(store):
    """The shared transaction fails (one caller's write conflicts), so `_commit_group` retries
    each caller alone. If the committing task is cancelled during those retries (the loop
    closing), the callers not yet retried must not be left waiting forever: their futures
    are resolved or cancelled, like those of a group cancelled before or during its shared
    commit."""
    match = await new_match(store)
    async with store.transaction() as tx:
        row = await tx.enqueue("m:1", "board", {}, 1.0)

    async def broken(tx):  # the same interaction twice: a conflict at the commit
        for seq in (0, 1):
            await tx.append_log(match.id, seq, ply=seq, kind="move", notation="k",
                                actor_id=101, now=1.0, interaction_id=77)

    async def finish(tx):
        await tx.finish_outbox(row, 2.0)

    db = store.db  # the SQLite driver commits the groups
    real = db.transaction
    opened = 0

    @contextlib.asynccontextmanager
    async def counting(background=False):
        nonlocal opened
        opened += 1
        if opened == 2:  # the first retry alone (1: the shared transaction)
            for task in list(db.committers):
                task.cancel()
        async with real(background) as tx:
            yield tx

    async with store.transaction():  # the lock is busy while both line up
        db.transaction = counting
        first = asyncio.create_task(store.together(broken))
        second = asyncio.create_task(store.together(finish))
        await asyncio.sleep(0.01)
    done, pending = await asyncio.wait({first, second}, timeout=2)
    for task in pending:
        task.cancel()
    db.transaction = real
    assert not pending, "a caller of `together` was left waiting forever"
