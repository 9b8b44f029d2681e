"""AI seats on the bot's side: who they are, that they are never waited on, and that a failed
search still gives a legal move (a match with an AI never stalls)."""

from __future__ import annotations

import random

import pytest
from support import ALICE, take

import games.ai
from bot.ai import ai_level, ai_move_job, ai_name, ai_user_id, is_ai
from bot.service import Player
from games.mancala import GAME


def test_ai_ids_carry_their_level_and_stay_unique_in_a_match():
    ids = [ai_user_id(level, index) for index in range(4) for level in ("easy", "normal", "hard")]
    assert len(set(ids)) == len(ids) and all(is_ai(i) for i in ids)
    assert [ai_level(ai_user_id(level, 2)) for level in ("easy", "normal", "hard")] == [
        "easy", "normal", "hard"]
    assert not is_ai(ALICE.user_id) and ai_name("hard") == "Corral (hard)"


def test_a_failed_search_falls_back_to_a_random_legal_move(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("search blew up")

    monkeypatch.setattr(games.ai, "choose_move_job", broken)
    state = GAME.new(2)
    notation, searched = ai_move_job(GAME.id, GAME.to_json(state), 0, "normal", 7)
    assert not searched and notation in GAME.legal_notations(state)


def test_the_ai_searches_when_it_can():
    state = GAME.new(2)
    notation, searched = ai_move_job(GAME.id, GAME.to_json(state), 0, "easy", 7)
    assert searched and notation in GAME.legal_notations(state)


async def test_a_match_against_the_ai_starts_at_once_and_never_waits_on_it(service, store):
    ai = Player(ai_user_id("easy", 0), ai_name("easy"))
    match = await service.open_match(game_id=GAME.id, options={}, host=ALICE, opponent=ai,
                                     guild_id=1, channel_id=9, first="opponent",
                                     move_seconds=3600)
    assert match.status == "active" and match.to_move().user_id == ai.user_id
    assert match.waiting_on() is None  # no clock, reminder or expiry for the AI
    rows = await store.conn.fetch("SELECT kind, lane FROM outbox ORDER BY id")
    assert ("ai", f"a:{match.id}") in [(r["kind"], r["lane"]) for r in rows]


async def test_the_host_adds_ai_players_to_a_lobby(service):
    match = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=9)
    with pytest.raises(Exception, match="Only the host"):
        await service.add_ai(match.id, 999)
    match = await service.add_ai(match.id, ALICE.user_id)
    match = await service.add_ai(match.id, ALICE.user_id, "hard")
    assert [s.name for s in match.seats][1:] == ["Corral (normal)", "Corral (hard)"]
    assert len({s.user_id for s in match.seats}) == 3


async def test_no_direct_message_is_ever_queued_for_an_ai_seat(service, store):
    """A game with hidden information tells each seat privately what it learnt; an AI seat
    has no DMs (Discord refuses its id), so its private views are never queued, while the
    human's still are (it was: Dm rows to user -1, which Discord refused)."""
    ai = Player(ai_user_id("easy", 0), ai_name("easy"))
    match = await service.open_match(game_id="consequence", options={}, host=ALICE,
                                     opponent=ai, guild_id=1, channel_id=9, first="me")
    rng = random.Random(5)
    while match.status == "active":  # the AI's moves, which come from the outbox, by hand
        mover = match.to_move()
        move = rng.choice(match.game.legal_notations(match.state))
        match = (await service.play(match.id, mover.user_id, move,
                                    expected_ply=match.ply())).match
    dms = await take(store, "dm")
    assert dms and {row["user_id"] for row in dms} == {ALICE.user_id}
