"""The Discord-free match service: a full match, every refusal, races and restarts."""

import asyncio

import pytest

from bot import service as svc
from bot.service import MatchService, parse_options
from bot.store import Store
from support import ALICE, BOB, CAROL, FirstFixed

GAME2 = "k c h k d j g c a i f e i a f".split()


async def challenge(service, channel=500, **kw):
    match = await service.open_match(game_id="progressive-mancala", options=kw.pop("options", {}),
                                     host=ALICE, opponent=BOB, guild_id=1, channel_id=channel,
                                     first=kw.pop("first", "me"))
    return await service.accept(match.id, BOB.user_id)


async def test_a_full_match_of_game_2_through_the_service(service, store):
    match = await challenge(service)
    assert match.status == "active" and [s.name for s in match.seats] == ["Alice", "Bob"]
    for ply, notation in enumerate(GAME2):
        mover = match.to_move()
        result = await service.play(match.id, mover.user_id, notation, expected_ply=ply)
        match = result.match
        assert result.notation == notation and result.mover == mover
    assert match.status == "finished"
    assert match.outcome().winners == (1,) and match.game.scores(match.state) == (5, 28)
    log = await store.moves(match.id)
    assert [m.notation for m in log] == GAME2
    assert [m.actor_id for m in log][:3] == [ALICE.user_id, BOB.user_id, ALICE.user_id]
    assert await service.rebuild(match.id) == match.state
    with pytest.raises(svc.WrongPhase, match="is over"):
        await service.play(match.id, BOB.user_id, "a")


async def test_lobby_join_and_start(service):
    lobby = await service.open_match(game_id="progressive-mancala", options={"pits": "17"},
                                     host=ALICE, opponent=None, guild_id=1, channel_id=600,
                                     first="opponent")
    assert lobby.status == "open"
    with pytest.raises(svc.WrongPhase, match="needs at least 2 players"):
        await service.start(lobby.id, ALICE.user_id)
    lobby = await service.join(lobby.id, BOB)
    with pytest.raises(svc.BadRequest, match="already joined"):
        await service.join(lobby.id, BOB)
    with pytest.raises(svc.WrongPhase, match="is full"):
        await service.join(lobby.id, CAROL)
    with pytest.raises(svc.Forbidden, match="Only the host, Alice"):
        await service.start(lobby.id, BOB.user_id)
    match = await service.start(lobby.id, ALICE.user_id)
    assert match.status == "active"
    assert match.to_move().name == "Bob"  # first=opponent
    assert len(match.state.pits) == 17


async def test_refusals_say_why_and_change_nothing(service, store):
    match = await challenge(service)
    version = match.row.version
    cases = [
        (CAROL.user_id, "k", None, svc.NotAPlayer, "not playing in match"),
        (BOB.user_id, "k", None, svc.NotYourTurn, "waiting for Alice"),
        (ALICE.user_id, "z", None, svc.IllegalMove, "`z` can't be played: 'z' is not a pit"),
        (ALICE.user_id, "k", 3, svc.StaleAction, "out of date"),
    ]
    for user, notation, ply, error, text in cases:
        with pytest.raises(error, match=text):
            await service.play(match.id, user, notation, expected_ply=ply)
    match = (await service.play(match.id, ALICE.user_id, "k")).match
    with pytest.raises(svc.IllegalMove, match="`K` can't be played: that pit is empty"):
        await service.play(match.id, BOB.user_id, "K")
    row = await store.get_match(match.id)
    assert row.version == version + 1 and len(await store.moves(match.id)) == 1


async def test_two_simultaneous_clicks_apply_one_move(service, store):
    match = await challenge(service)
    results = await asyncio.gather(
        *(service.play(match.id, ALICE.user_id, pit, expected_ply=0) for pit in "kke"),
        return_exceptions=True)
    played = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(played) == 1 and all(isinstance(r, svc.StaleAction) for r in refused)
    assert len(await store.moves(match.id)) == 1


async def test_a_match_continues_after_a_restart(tmp_path, clock):
    path = tmp_path / "corral.sqlite3"
    store = await Store.open(path)
    service = MatchService(store, clock=clock, rng=FirstFixed())
    match = await challenge(service)
    for notation in GAME2[:7]:
        match = (await service.play(match.id, match.to_move().user_id, notation)).match
    await store.close()

    store = await Store.open(path)
    service = MatchService(store, clock=clock, rng=FirstFixed())
    match = await service.in_channel(500)
    assert match.ply() == 7 and match.to_move().name == "Bob"
    for notation in GAME2[7:]:
        match = (await service.play(match.id, match.to_move().user_id, notation,
                                    expected_ply=match.ply())).match
    assert match.outcome().winners == (1,)
    await store.close()


async def test_one_live_match_per_channel_and_invitations(service):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=700)
    with pytest.raises(svc.WrongPhase, match="already has a match"):
        await service.open_match(game_id="progressive-mancala", options={}, host=CAROL,
                                 opponent=None, guild_id=1, channel_id=700)
    with pytest.raises(svc.NotAPlayer, match="invitation is for Bob"):
        await service.accept(match.id, CAROL.user_id)
    declined = await service.decline(match.id, BOB.user_id)
    assert declined.status == "aborted"
    again = await service.open_match(game_id="progressive-mancala", options={}, host=CAROL,
                                     opponent=None, guild_id=1, channel_id=700)
    assert again.status == "open"


async def test_bad_openings(service):
    with pytest.raises(svc.BadRequest, match="yourself"):
        await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                 opponent=ALICE, guild_id=1, channel_id=1)
    with pytest.raises(svc.BadRequest, match="pits='12'"):
        await service.open_match(game_id="progressive-mancala", options={"pits": "12"},
                                 host=ALICE, opponent=BOB, guild_id=1, channel_id=1)
    with pytest.raises(svc.BadRequest, match="'chess' is not a game"):
        await service.open_match(game_id="chess", options={}, host=ALICE, opponent=BOB,
                                 guild_id=1, channel_id=1)
    with pytest.raises(svc.BadRequest, match="name=value"):
        parse_options("pits")
    assert parse_options("pits=17, repetition=off") == {"pits": "17", "repetition": "off"}


async def test_resign_and_abort_rules(service):
    match = await challenge(service)
    with pytest.raises(svc.Forbidden, match="only a server manager"):
        await service.abort(match.id, ALICE.user_id, is_manager=False)
    with pytest.raises(svc.NotAPlayer):
        await service.resign(match.id, CAROL.user_id)
    resigned = await service.resign(match.id, ALICE.user_id)
    assert resigned.status == "finished" and resigned.outcome().winners == (1,)
    assert resigned.outcome().reason.value == "resignation"

    lobby = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=None, guild_id=1, channel_id=501)
    with pytest.raises(svc.Forbidden):
        await service.abort(lobby.id, BOB.user_id, is_manager=False)
    assert (await service.abort(lobby.id, ALICE.user_id, is_manager=False)).status == "aborted"

    live = await challenge(service, channel=502)
    assert (await service.abort(live.id, CAROL.user_id, is_manager=True)).status == "aborted"


async def test_matches_of_a_player_and_legal_moves_for_the_caller(service):
    match = await challenge(service)
    assert [m.id for m in await service.live_matches_of(BOB.user_id)] == [match.id]
    assert service.legal_moves_for(match, ALICE.user_id) == list("abcdefghijk")
    assert service.legal_moves_for(match, BOB.user_id) == []
    assert service.legal_moves_for(match, CAROL.user_id) == []


async def test_ghostone_rolls_are_drawn_by_the_host_and_logged(store, clock):
    import random

    service = MatchService(store, clock=clock, rng=FirstFixed(), dice=random.Random(4))
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=800)
    await service.join(lobby.id, BOB)
    with pytest.raises(svc.WrongPhase, match="needs at least 3 players"):
        await service.start(lobby.id, ALICE.user_id)
    await service.join(lobby.id, CAROL)
    match = await service.start(lobby.id, ALICE.user_id)
    assert match.game.seats(match.state) == 3
    chooser = random.Random(9)
    rolled = 0
    while match.status == "active":
        mover = match.to_move()
        result = await service.play(match.id, mover.user_id,
                                    chooser.choice(service.legal_moves_for(match, mover.user_id)))
        match = result.match
        rolled += len(result.rolls)
        assert not match.game.is_chance(match.state)  # never left waiting for the host
    log = await store.moves(match.id)
    rolls = [m for m in log if m.notation.startswith("roll ")]
    assert rolled == len(rolls) > 0 and all(m.actor_id is None for m in rolls)
    assert await service.rebuild(match.id) == match.state
