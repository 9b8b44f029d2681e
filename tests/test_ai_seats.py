"""AI seats on the bot's side: who they are, that they are never waited on, and that a failed
search still gives a legal move (a match with an AI never stalls)."""

from __future__ import annotations

import random

import pytest
from support import ALICE, take

import games.ai
from bot.ai import LEVELS, ai_level, ai_move_job, ai_name, ai_names, ai_user_id, is_ai
from bot.service import Player
from games import PRODUCT, get_game
from games.mancala import GAME
from render import render_observation


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
    assert [s.name for s in match.seats][1:] == ["Corral (normal)"]
    match = await service.add_ai(match.id, ALICE.user_id, "hard")
    # two AIs: told apart by a number, the first renamed as the second sits down
    assert [s.name for s in match.seats][1:] == ["AI 1", "AI 2"]
    assert len({s.user_id for s in match.seats}) == 3


async def test_a_match_opened_with_ai_seats_starts_at_once_with_names_told_apart(service,
                                                                                 store):
    """A lesson's closing match: every other seat an AI from the start, no lobby."""
    match = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=9, ai_seats=("easy",) * 3)
    assert match.status == "active" and len(match.seats) == 4 and not match.row.rated
    names = sorted(s.name for s in match.seats if is_ai(s.user_id))
    assert names == ["AI 1", "AI 2", "AI 3"]
    kinds = [r["kind"] for r in await store.conn.fetch("SELECT kind FROM outbox")]
    assert "lobby" not in kinds, kinds
    with pytest.raises(Exception, match="AI"):  # more AIs than the game has seats
        await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                 guild_id=1, channel_id=10, ai_seats=("easy",) * 4)


@pytest.mark.parametrize("game_id", sorted(g for g in PRODUCT
                                           if get_game(g).info.max_seats > 2))
@pytest.mark.parametrize("level", LEVELS)
def test_ai_names_of_a_full_table_are_drawn_whole_at_phone_width(game_id, level):
    """Three AIs at a four-seat table: each name on the picture whole, none cut."""
    game = get_game(game_id)
    seats = game.info.max_seats
    ids = [ALICE.user_id] + [ai_user_id(level, index) for index in range(seats - 1)]
    names = ai_names(ids)
    drawn = [ALICE.name] + [names[i] for i in ids[1:]]
    assert len(set(drawn)) == seats
    layout: list = []
    state = game.new(seats, game.draw_options(game.resolve_options({}), random.Random(1)))
    render_observation(game_id, game.observe(state, None), names=drawn, layout=layout)
    labels = [box.text for box in layout]
    assert all(name in labels for name in drawn[1:]), labels


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
