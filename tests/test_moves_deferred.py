"""Moves as `Store.atomic` bodies (on SQLite first ahead of the write lock; `seen=`) in a
game with die rolls, under concurrent clicks on old and current reads."""

import asyncio
import random

from support import FirstFixed, ghostone_for_three, take

from bot import service as svc
from bot.service import Service


async def test_ghostone_clicks_on_old_reads_apply_each_move_and_roll_once(store, clock):
    """Ghostone makes its rolls in the move's transaction (two versions per move). Clicks
    on the match as read (current or one move old), each sent twice at once, apply every
    move once with its roll; the log replays to the stored state; every board is for a
    state a roll never waits in."""
    service = Service(store, clock=clock, rng=FirstFixed(), dice=random.Random(3))
    match = await ghostone_for_three(service, 840)
    chooser = random.Random(7)
    old = match
    interaction = 5000
    applied = 0
    while match.status == "active" and applied < 60:
        seen = old if chooser.random() < 0.3 else match
        mover = seen.to_move()
        notation = chooser.choice(service.legal_moves_for(seen, mover.user_id))
        interaction += 1
        results = await asyncio.gather(*(
            service.play(seen.id, mover.user_id, notation, expected_ply=seen.ply(),
                         interaction_id=interaction, seen=seen) for _ in range(2)),
            return_exceptions=True)
        fresh = [r for r in results if isinstance(r, svc.MoveResult) and not r.already]
        assert len(fresh) <= 1, results
        assert all(isinstance(r, (svc.MoveResult, svc.StaleAction, svc.NotYourTurn))
                   for r in results), results
        applied += len(fresh)
        old, match = match, await service.get(match.id)
        assert not match.game.is_chance(match.state)
    assert applied > 10
    log = await store.moves(match.id)
    moves = [m for m in log if m.actor_id is not None]
    assert len(moves) == applied
    assert len({m.interaction_id for m in moves}) == applied
    assert await service.rebuild(match.id) == match.state
    boards = await take(store, "board")
    assert len({b["version"] for b in boards}) == len(boards)
    row = await store.get_match(match.id)
    assert row.board_version == row.version
