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


async def test_a_move_looks_for_queued_replies_only_where_its_read_of_the_match_saw_some(
        service, store, monkeypatch):
    """The read of a match says whether conditional moves are queued in it, so a move in a
    match without any looks for none (a round trip fewer on every move), and a move in one
    with a queue still plays the reply queued for it."""
    from bot.store import Queries

    looked: list[int] = []
    real = Queries.conditional_moves

    async def counted(self, match_id):
        looked.append(match_id)
        return await real(self, match_id)

    monkeypatch.setattr(Queries, "conditional_moves", counted)
    match = await challenge(service)
    seen = await service.get(match.id)
    assert seen.row.has_conditionals is False
    match = (await service.play(match.id, ALICE.user_id, "h", seen=seen)).match
    assert looked == []
    view = await service.conditional_view(match, ALICE.user_id)
    theirs = view.match.game.legal_notations(view.position)[0]
    view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), 0, theirs)
    while view.draft:  # the rest of Bob's turn, then Alice's whole reply
        legal = view.match.game.legal_notations(view.position)
        view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), view.size,
                                             legal[0])
    seen = await service.get(match.id)
    assert seen.row.has_conditionals is True
    pair = view.pairs[0]
    for notation in pair.theirs:  # Bob's turn, as Alice foresaw it
        seen = (await service.play(match.id, BOB.user_id, notation, seen=seen)).match
    assert looked and set(looked) == {match.id}
    moves = await store.moves(match.id)
    assert [m.notation for m in moves[-len(pair.mine):]] == list(pair.mine)
    assert {m.actor_id for m in moves[-len(pair.mine):]} == {ALICE.user_id}  # her reply
    assert await store.conditional_moves(match.id) == []
