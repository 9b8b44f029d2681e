"""Conditional moves in the service (both databases): a takeback clears the queue, the queue
is refused where a reply cannot be decided in advance (asked of the game's declared
properties), a stale view adds nothing, and a line that no longer matches is cleared."""

from __future__ import annotations

import pytest
from support import ALICE, BOB

from bot import service as svc
from bot.service.conditional import eligible
from games import REGISTRY
from games.base import Game


async def challenge(service, channel=600):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=channel, first="me")
    return await service.accept(match.id, BOB.user_id)


def test_every_game_with_chance_moves_declares_it():
    for game in REGISTRY.values():
        overrides = type(game).is_chance is not Game.is_chance
        assert game.info.chance == overrides, game.id


async def test_a_takeback_clears_the_queue(service, store):
    match = await challenge(service)
    match = (await service.play(match.id, ALICE.user_id, "h")).match
    view = await service.conditional_view(match, ALICE.user_id)
    assert view.pairs == () and not view.entering_mine
    theirs = view.match.game.legal_notations(view.position)[0]
    view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), 0, theirs)
    while view.draft:  # the rest of their turn, then Alice's whole reply
        legal = view.match.game.legal_notations(view.position)
        view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), view.size,
                                             legal[0])
    assert len(view.pairs) == 1 and await store.conditional_moves(match.id)
    with pytest.raises(svc.StaleAction):  # a view of before that pair
        await service.add_conditional(match.id, ALICE.user_id, match.ply(), 0, theirs)
    offer = await service.request_takeback(match.id, ALICE.user_id)
    await service.answer_offer(offer.id, BOB.user_id, True)
    assert await store.conditional_moves(match.id) == []


async def test_a_match_that_ends_takes_its_queues_along(service, store):
    match = await challenge(service)
    match = (await service.play(match.id, ALICE.user_id, "h")).match
    theirs = match.game.legal_notations(match.state)[0]
    await service.add_conditional(match.id, ALICE.user_id, match.ply(), 0, theirs)
    assert await store.conditional_moves(match.id)
    await service.resign(match.id, BOB.user_id)
    assert await store.conditional_moves(match.id) == []


async def test_refused_on_your_own_turn_and_to_others(service):
    match = await challenge(service)
    with pytest.raises(svc.WrongPhase, match="your turn"):
        await service.conditional_view(match, ALICE.user_id)
    with pytest.raises(svc.NotAPlayer):
        await service.conditional_view(match, 999)


def test_which_matches_take_conditional_moves():
    from bot.service.core import wrap
    from bot.store import MatchRow, SeatRow

    def match(game_id: str, seats: int):
        row = MatchRow(id=1, game=game_id, options={}, status="active", channel_id=1,
                       guild_id=1, host_id=1, seat_count=seats, in_thread=False,
                       invited_id=None, first_seat="me", state=None, version=1, result=None,
                       created_at=0.0, updated_at=0.0,
                       seats=tuple(SeatRow(i, i + 1, "x") for i in range(seats)))
        return wrap(row)

    assert eligible(match("progressive-mancala", 2)) and eligible(match("ico", 2))
    assert eligible(match("pastoral-square", 2))
    assert not eligible(match("ico", 3))  # more than two players
    assert not eligible(match("consequence", 2))  # hidden information
    assert not eligible(match("ghostone", 3))
