"""Conditional moves in the service (both databases): a takeback clears the queue, the queue
is refused where a reply cannot be decided in advance (asked of the game's declared
properties), a stale view adds nothing, and a line that no longer matches is cleared."""

from __future__ import annotations

import pytest
from support import ALICE, BOB, take, text

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
    # a queue played out is not said to be cleared
    assert not [row for row in await take(store, "dm") if "cleared" in text(row["text"])]


# -- the queue as its owner sees it: pictures, the person of the prompts, whole turns -------------
def _turns(game, state, seat):
    """Every turn of the seat to move from `state` (each first ply, then the first legal
    moves while the turn lasts), with the state after it."""
    found = []
    for first in game.legal_notations(state):
        plies, after = [first], game.play(state, first)
        while game.outcome(after) is None and game.to_move(after) == seat:
            nxt = game.legal_notations(after)[0]
            plies.append(nxt)
            after = game.play(after, nxt)
        found.append((tuple(plies), after))
    return found


def _two_ply_reply(game, state, owner):
    """Their turn, then a reply of the owner's of at least two plies (a bonus move), if any."""
    for theirs, after in _turns(game, state, game.to_move(state)):
        if game.outcome(after) is not None or game.to_move(after) != owner:
            continue
        for mine, _ in _turns(game, after, owner):
            if len(mine) >= 2:
                return theirs, mine
    return None


async def test_each_step_asks_in_the_right_person_and_a_two_ply_reply_is_shown_in_full(service):
    """Entering their move, the question is about them ("Which pit will they sow?"); entering
    the reply, about the player; the pair being entered is written out whole, the first ply
    of a two-ply reply with it, in English and Japanese."""
    from bot.cogs.conditional import queue_message
    from bot.words.i18n import Texts

    match = await challenge(service)
    match = (await service.play(match.id, ALICE.user_id, "h")).match
    game = match.game
    found = _two_ply_reply(game, match.state, 0)
    assert found is not None  # Progressive Mancala's bonus moves: a reply of two plies
    theirs, mine = found
    english, japanese = Texts("en"), Texts("ja")
    view = await service.conditional_view(match, ALICE.user_id)
    content, _ = queue_message(view, (), english)
    assert "Which pit will they sow?" in content and "do you sow" not in content
    assert "相手はどの穴から蒔きますか？" in queue_message(view, (), japanese)[0]
    for number, ply in enumerate(theirs):
        view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), number, ply)
        content, _ = queue_message(view, (), english)
        if number < len(theirs) - 1:  # their turn goes on: what they played so far is shown
            assert f"They play `{' '.join(theirs[:number + 1])}` and move again" in content
            assert "Which pit will they sow?" in content
    assert f"If they play `{' '.join(theirs)}`: now choose your reply." in content
    assert "Which pit do you sow?" in content and "will they" not in content
    view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), view.size,
                                         mine[0])
    content, _ = queue_message(view, (), english)
    assert (f"If they play `{' '.join(theirs)}`, you play `{mine[0]}` and move again"
            in content), content
    assert "Which pit do you sow?" in content
    japanese_content = queue_message(view, (), japanese)[0]
    assert f"`{' '.join(theirs)}`" in japanese_content and f"`{mine[0]}`" in japanese_content
    for ply in mine[1:]:
        view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), view.size,
                                             ply)
    content, _ = queue_message(view, (), english)
    assert f"1. if they play `{' '.join(theirs)}`, I play `{' '.join(mine)}`" in content


def test_every_game_asks_about_another_players_move_in_words_of_its_own():
    """Every step of every game (random positions of each kit's set-ups) declares its question
    about another player's move: not the mover's words, none addressed to "you", translated."""
    import random
    import re

    from bot.words.i18n import Texts
    from games import KITS, PRODUCT
    from render.gallery import playout

    english, japanese = Texts("en"), Texts("ja")
    steps = 0
    for game_id in sorted(PRODUCT):
        kit = KITS[game_id]
        game = kit.game
        rng = random.Random(game_id)
        for setup in kit.setups[:2]:
            states = playout(game, setup.seats, dict(setup.options), rng)
            for state in states[:: max(1, len(states) // 8)]:
                if game.outcome(state) is not None or game.is_chance(state):
                    continue
                answers: tuple = ()
                while True:
                    step = game.move_input(state, answers)
                    if isinstance(step, str):
                        break
                    steps += 1
                    assert step.their_prompt is not None, (game_id, step.name)
                    theirs = english(step.prompt_for(False))
                    assert theirs != english(step.prompt), (game_id, step.name)
                    assert not re.search(r"\byours?\b", theirs, re.I), theirs
                    assert english(step.prompt_for(True)) == english(step.prompt)
                    assert japanese(step.prompt_for(False)) not in (theirs,
                                                                   japanese(step.prompt))
                    pick = rng.sample([o.value for o in step.options], step.picks)
                    answers = answers + (tuple(pick),)
    assert steps > 50


async def test_a_queue_cleared_by_another_move_is_told_to_its_owner(service, store):
    """In the opponent's move's transaction: one DM to the queue's owner (a note at their next
    interaction if it cannot be delivered) that says which move cleared which expected one
    (a queue played out is not: the test above)."""
    match = await challenge(service)
    match = (await service.play(match.id, ALICE.user_id, "h")).match
    game = match.game
    expected = game.legal_notations(match.state)[0]
    view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), 0, expected)
    while view.draft:
        legal = view.match.game.legal_notations(view.position)
        view = await service.add_conditional(match.id, ALICE.user_id, match.ply(), view.size,
                                             legal[0])
    await take(store)
    other = next(n for n in game.legal_notations(match.state) if n != expected)
    await service.play(match.id, BOB.user_id, other)
    dms = [row for row in await take(store, "dm") if row["user_id"] == ALICE.user_id
           and "cleared" in text(row["text"])]
    assert len(dms) == 1, dms
    assert text(dms[0]["text"]) == (f"🔀 Your conditional moves in match #{match.id} are "
                                    f"cleared: Bob played `{other}`, not `{expected}`.")
    assert dms[0]["fallback"] == "note"
    assert await store.conditional_moves(match.id) == []
