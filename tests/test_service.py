"""The Discord-free match service: a full match, every refusal, races, restarts, and what each
change asks the outbox to tell players (in the same transaction)."""

import asyncio
import random

import pytest
from support import ALICE, BOB, CAROL, FirstFixed, board_lines, ghostone_for_three, take, text

from bot import service as svc
from bot.service import Service, parse_options
from bot.store import Store

GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


async def challenge(service, channel=500, **kw):
    match = await service.open_match(game_id="progressive-mancala", options=kw.pop("options", {}),
                                     host=ALICE, opponent=BOB, guild_id=1, channel_id=channel,
                                     first=kw.pop("first", "me"))
    return await service.accept(match.id, BOB.user_id)


async def test_a_full_match_of_game_2_through_the_service(service, store):
    match = await challenge(service)
    assert match.status == "active" and [s.name for s in match.seats] == ["Alice", "Bob"]
    first = await take(store)
    assert [row["kind"] for row in first][0] == "lobby"
    boards = [row for row in first if row["kind"] == "board"]
    assert len(boards) == 1 and boards[0]["mention"] == [ALICE.user_id]
    for ply, notation in enumerate(GAME2):
        mover = match.to_move()
        result = await service.play(match.id, mover.user_id, notation, expected_ply=ply)
        match = result.match
        assert result.notation == notation and not result.already
        [board] = await take(store, "board")
        assert board["version"] == match.row.version and board["ply"] == ply + 1
        assert board_lines(board)[0].startswith(f"**{mover.name}** played `{notation}`")
        nxt = match.to_move()
        if nxt is None:
            assert board["final"] and board["mention"] == [ALICE.user_id, BOB.user_id]
        elif nxt.user_id != mover.user_id:  # a mention only when the turn passes
            assert board["mention"] == [nxt.user_id]
        else:
            assert board["mention"] == []
    assert match.status == "finished"
    assert match.outcome().winners == (1,) and match.game.scores(match.state) == (5, 28)
    assert text(board["result"], ["Alice", "Bob"]) == "Bob reached 28 seeds (first to 28)"
    log = await store.moves(match.id)
    assert [m.notation for m in log] == GAME2
    assert [m.actor_id for m in log][:3] == [ALICE.user_id, BOB.user_id, ALICE.user_id]
    assert await service.rebuild(match.id) == match.state
    with pytest.raises(svc.WrongPhase, match="is over"):
        await service.play(match.id, BOB.user_id, "a")


async def test_lobby_join_starts_when_full(service, store):
    lobby = await service.open_match(game_id="progressive-mancala", options={"pits": "17"},
                                     host=ALICE, opponent=None, guild_id=1, channel_id=600,
                                     first="opponent")
    assert lobby.status == "open"
    assert [r["kind"] for r in await take(store)] == ["lobby"]
    with pytest.raises(svc.WrongPhase, match="needs at least 2 players"):
        await service.start(lobby.id, ALICE.user_id)
    with pytest.raises(svc.Forbidden, match="Only the host, Alice"):
        await service.start(lobby.id, BOB.user_id)
    match = await service.join(lobby.id, BOB)  # full: it starts
    assert match.status == "active"
    assert match.to_move().name == "Bob"  # first=opponent
    # the clock waits on him too (its reminders and timeout are his), as stored
    stored = await store.get_match(match.id)
    assert match.row.waiting_on == stored.waiting_on == BOB.user_id
    assert len(match.state.pits) == 17
    with pytest.raises(svc.WrongPhase, match="not an open lobby"):
        await service.join(lobby.id, CAROL)


async def test_refusals_say_why_and_change_nothing(service, store):
    match = await challenge(service)
    await take(store)
    version = match.row.version
    cases = [
        (CAROL.user_id, "k", None, svc.NotAPlayer, "not playing in match"),
        (BOB.user_id, "k", None, svc.NotYourTurn, "waiting for Alice"),
        (ALICE.user_id, "z", None, svc.IllegalMove,
         "`z` is not a move: write the letter of a pit, a to k."),
        (ALICE.user_id, "k", 3, svc.StaleAction, "out of date"),
        (ALICE.user_id, "x" * 5000, None, svc.IllegalMove, "`xxxxx"),
        (ALICE.user_id, "\x00`k`", None, svc.IllegalMove, "is not a move"),
    ]
    for user, notation, ply, error, message in cases:
        with pytest.raises(error) as raised:
            await service.play(match.id, user, notation, expected_ply=ply)
        assert message in str(raised.value)
        assert len(str(raised.value)) < 200  # the input is echoed once, shortened
    match = (await service.play(match.id, ALICE.user_id, "k")).match
    with pytest.raises(svc.IllegalMove, match="`K` can't be played: pit k is empty."):
        await service.play(match.id, BOB.user_id, "K")
    row = await store.get_match(match.id)
    assert row.version == version + 1 and len(await store.moves(match.id)) == 1
    assert len(await take(store, "board")) == 1


async def test_two_simultaneous_clicks_apply_one_move(service, store):
    match = await challenge(service)
    results = await asyncio.gather(
        *(service.play(match.id, ALICE.user_id, pit, expected_ply=0) for pit in "kke"),
        return_exceptions=True)
    played = [r for r in results if not isinstance(r, Exception) and not r.already]
    others = [r for r in results if r not in played]
    assert len(played) == 1
    assert all(isinstance(r, svc.StaleAction) or getattr(r, "already", False) for r in others)
    assert len(await store.moves(match.id)) == 1


async def test_a_move_on_an_old_read_of_the_match_is_played_on_the_match_as_it_is(
        service, store, monkeypatch):
    """A click's move is played on the match the click read, without reading it again under
    the write lock; if the match moved on in between, or the old read refuses the move, it
    is played on the match as it is (never applied twice, never refused on an old read)."""
    from test_store import writer_trips

    seen = await challenge(service)
    calls = writer_trips(monkeypatch, store) if store.db.dialect == "sqlite" else []
    first = await service.play(seen.id, ALICE.user_id, "k", expected_ply=0, seen=seen)
    if store.db.dialect == "sqlite":  # worked out before the lock: its writes, no read, all
        # in one round trip to the writer's thread
        assert len(calls) == 1 and calls[0][0] == "batch", calls
        assert calls[0][1][0] == "BEGIN IMMEDIATE" and calls[0][1][-1] == "COMMIT", calls
    results = await asyncio.gather(  # the same click, twice more, on the same old read
        *(service.play(seen.id, ALICE.user_id, pit, expected_ply=0, seen=seen)
          for pit in "kc"), return_exceptions=True)
    assert all(isinstance(r, svc.StaleAction) or r.already for r in results), results
    # Bob read the match while Alice was to move: that read would refuse him
    bob = await service.play(seen.id, BOB.user_id, "a", expected_ply=1, seen=seen)
    assert not bob.already and bob.ply == 1
    assert [m.notation for m in await store.moves(seen.id)] == ["k", "a"]
    assert await service.rebuild(seen.id) == bob.match.state
    assert first.match.row.version < bob.match.row.version
    # Bob's click again, on a read that says he has yet to move: it is the same move
    again = await service.play(seen.id, BOB.user_id, "a", expected_ply=1, seen=first.match)
    assert again.already and len(await store.moves(seen.id)) == 2


async def test_a_move_repeated_for_the_same_ply_or_interaction_is_played_once(service, store):
    match = await challenge(service)
    await service.play(match.id, ALICE.user_id, "a", expected_ply=0, interaction_id=11)
    first = await service.play(match.id, BOB.user_id, "a", expected_ply=1, interaction_id=12)
    assert first.match.to_move().name == "Bob"  # an extra move: Bob is still to move
    again = await service.play(match.id, BOB.user_id, "A", expected_ply=1, interaction_id=13)
    assert again.already and again.notation == "a" and again.ply == 1
    replayed = await service.play(match.id, BOB.user_id, "a", interaction_id=12)
    assert replayed.already
    assert len(await store.moves(match.id)) == 2
    with pytest.raises(svc.StaleAction):  # a different move for a past ply: out of date
        await service.play(match.id, BOB.user_id, "b", expected_ply=1)


async def test_a_match_continues_after_a_restart(tmp_path, clock):
    path = tmp_path / "corral.sqlite3"
    store = await Store.open(path)
    service = Service(store, clock=clock, rng=FirstFixed())
    match = await challenge(service)
    for notation in GAME2[:7]:
        match = (await service.play(match.id, match.to_move().user_id, notation)).match
    await store.close()

    store = await Store.open(path)
    service = Service(store, clock=clock, rng=FirstFixed())
    assert await service.recover() == 0  # nothing was left half done
    match = await service.in_channel(500)
    assert match.ply() == 7 and match.to_move().name == "Bob"
    for notation in GAME2[7:]:
        match = (await service.play(match.id, match.to_move().user_id, notation,
                                    expected_ply=match.ply())).match
    assert match.outcome().winners == (1,)
    await store.close()


async def test_recovery_rolls_a_pending_roll_and_posts_missing_boards(service, store):
    """Rows from before the outbox (or a crash between a move and its roll in older
    versions): the latest state gets a board, a pending roll is rolled."""
    service.dice = random.Random(5)
    match = await ghostone_for_three(service, 820)
    chooser = random.Random(1)
    # play until a move would make a roll due; save that move the way an old version did,
    # without the roll
    game = match.game
    while True:
        mover = match.to_move()
        move = chooser.choice(service.legal_moves_for(match, mover.user_id))
        after = game.play(match.state, move)
        if game.is_chance(after):
            break
        match = (await service.play(match.id, mover.user_id, move)).match
    async with store.transaction() as tx:  # as an old version would have left it
        version = await tx.update_match(match.id, match.row.version, now=1.0,
                                        state=game.to_json(after), waiting_on=None)
        await tx.append_log(match.id, match.row.version, ply=game.ply(match.state),
                            kind="move", notation=move, actor_id=mover.user_id, now=1.0)
    await take(store)
    assert await service.recover() == 1
    rows = await take(store)
    boards = [r for r in rows if r["kind"] == "board"]
    assert len(boards) == 1 and any("🎲" in line for line in board_lines(boards[0]))
    match = await service.get(match.id)
    assert not game.is_chance(match.state) and match.row.version == version + 1
    assert match.row.waiting_on == match.to_move().user_id
    assert await service.recover() == 0


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


async def test_a_retried_play_finds_the_match_it_opened(service):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=7001, in_thread=True,
                                     parent_channel_id=700)
    with pytest.raises(svc.AlreadyOpen) as found:
        await service.find_retry(game_id="progressive-mancala", host=ALICE, opponent=BOB,
                                 channel_id=700)
    assert found.value.match.id == match.id and "<#7001>" in str(found.value)
    await service.find_retry(game_id="ico", host=ALICE, opponent=BOB, channel_id=700)


async def test_bad_openings(service):
    with pytest.raises(svc.BadRequest, match="yourself"):
        await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                 opponent=ALICE, guild_id=1, channel_id=1)
    with pytest.raises(svc.BadRequest, match="pits can be 11, 17, not 12"):
        await service.open_match(game_id="progressive-mancala", options={"pits": "12"},
                                 host=ALICE, opponent=BOB, guild_id=1, channel_id=1)
    with pytest.raises(svc.BadRequest, match="chess is not a game"):
        await service.open_match(game_id="chess", options={}, host=ALICE, opponent=BOB,
                                 guild_id=1, channel_id=1)
    with pytest.raises(svc.BadRequest, match="antipodal=yes goes with level=2\\+ only"):
        await service.open_match(game_id="ico", options={"antipodal": "yes"}, host=ALICE,
                                 opponent=BOB, guild_id=1, channel_id=1)
    with pytest.raises(svc.BadRequest, match="name=value"):
        parse_options("pits")
    with pytest.raises(svc.BadRequest, match="given twice"):
        parse_options("pits=17 pits=11")
    assert parse_options("pits=17, repetition=off") == {"pits": "17", "repetition": "off"}


async def test_resign_and_abort_rules(service, store):
    match = await challenge(service)
    with pytest.raises(svc.Forbidden, match="only a server manager"):
        await service.abort(match.id, ALICE.user_id, is_manager=False)
    with pytest.raises(svc.NotAPlayer):
        await service.resign(match.id, CAROL.user_id)
    await take(store)
    resigned = await service.resign(match.id, ALICE.user_id)
    assert resigned.status == "finished" and resigned.outcome().winners == (1,)
    assert resigned.outcome().reason.value == "resignation"
    [board] = await take(store, "board")
    assert board["final"] and text(board["result"]) == "Alice resigned: Bob wins"
    assert board["mention"] == [ALICE.user_id, BOB.user_id]

    lobby = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=None, guild_id=1, channel_id=501)
    with pytest.raises(svc.Forbidden):
        await service.abort(lobby.id, BOB.user_id, is_manager=False)
    assert (await service.abort(lobby.id, ALICE.user_id, is_manager=False)).status == "aborted"

    live = await challenge(service, channel=502)
    await take(store)
    assert (await service.abort(live.id, CAROL.user_id, is_manager=True,
                                name="Carol")).status == "aborted"
    rows = await take(store)
    assert [r["kind"] for r in rows] == ["retire", "notice"]
    assert text(rows[1]["text"]) == f"Match #{live.id} was aborted by **Carol**."


async def test_matches_of_a_player_and_legal_moves_for_the_caller(service):
    match = await challenge(service)
    assert [m.id for m in await service.live_matches_of(BOB.user_id)] == [match.id]
    assert service.legal_moves_for(match, ALICE.user_id) == list("abcdefghijk")
    assert service.legal_moves_for(match, BOB.user_id) == []
    assert service.legal_moves_for(match, CAROL.user_id) == []


async def test_ghostone_rolls_are_made_in_the_moves_transaction(store, clock):
    service = Service(store, clock=clock, rng=FirstFixed(), dice=random.Random(4))
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=800)
    await service.join(lobby.id, BOB)
    with pytest.raises(svc.WrongPhase, match="needs at least 3 players"):
        await service.start(lobby.id, ALICE.user_id)
    await service.join(lobby.id, CAROL)
    match = await service.start(lobby.id, ALICE.user_id)
    assert match.game.seats(match.state) == 3
    chooser = random.Random(9)
    announced = 0
    while match.status == "active":
        mover = match.to_move()
        result = await service.play(match.id, mover.user_id,
                                    chooser.choice(service.legal_moves_for(match, mover.user_id)))
        match = result.match
        assert not match.game.is_chance(match.state)  # never left waiting for the host
        for board in await take(store, "board"):
            announced += sum("🎲" in line for line in board_lines(board))
    log = await store.moves(match.id)
    rolls = [m for m in log if m.notation.startswith("roll ")]
    assert announced == len(rolls) > 0 and all(m.actor_id is None for m in rolls)
    assert await service.rebuild(match.id) == match.state


async def test_hidden_information_reaches_only_its_owner(service, store):
    """Consequence: the channel's board text has only public notation; a private view goes
    (by DM, with that seat's picture) only to a player who learnt something."""
    match = await service.open_match(game_id="consequence", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=830, first="me")
    match = await service.accept(match.id, BOB.user_id)
    start = await take(store)
    pictures = sorted(r["picture"]["seat"] for r in start if r["kind"] == "dm")
    assert pictures == [0, 1]  # each player's own view at the start
    rng = random.Random(2)
    while match.status == "active":
        mover = match.to_move()
        before = match.state
        notation = rng.choice(service.legal_moves_for(match, mover.user_id))
        match = (await service.play(match.id, mover.user_id, notation)).match
        rows = await take(store)
        for row in rows:
            if row["kind"] == "board" and not row["final"]:
                assert not any("@" in line and line.split("`")[1][:2] in
                               ("BM", "BS", "BD", "RM", "RS", "RD")
                               for line in board_lines(row) if "`" in line)
        news = match.game.private_news(before, match.state)
        views = [r for r in rows if r["kind"] == "dm" and r.get("picture")]
        assert sorted(r["picture"]["seat"] for r in views) == sorted(news)
        assert mover.seat not in news  # nothing new for the mover of their own move


async def test_takeback_only_of_your_own_last_move_before_the_opponent_moves(service, store):
    match = await challenge(service)
    with pytest.raises(svc.BadRequest, match="only your own last move"):
        await service.request_takeback(match.id, ALICE.user_id)
    match = (await service.play(match.id, ALICE.user_id, "h")).match
    with pytest.raises(svc.BadRequest, match="only your own last move"):
        await service.request_takeback(match.id, BOB.user_id)
    offer = await service.request_takeback(match.id, ALICE.user_id)
    assert offer.notation == "h"
    await service.answer_offer(offer.id, BOB.user_id, False)
    offer = await service.request_takeback(match.id, ALICE.user_id)
    _, back = await service.answer_offer(offer.id, BOB.user_id, True)
    assert back.ply() == 0 and back.to_move().name == "Alice"
    assert [e.kind for e in await store.moves(match.id)] == ["move", "takeback"]
    assert await service.rebuild(match.id) == back.state
    match = (await service.play(match.id, ALICE.user_id, "k")).match  # play goes on
    assert match.ply() == 1


async def test_an_offer_accepted_in_a_race_with_a_move_changes_nothing(service, store):
    match = await challenge(service)
    offer = await service.offer_draw(match.id, BOB.user_id)
    await service.play(match.id, ALICE.user_id, "k")
    with pytest.raises(svc.StaleAction, match="no longer open"):
        await service.answer_offer(offer.id, ALICE.user_id, True)
    row = await store.get_offer(offer.id)
    assert row.status == "void"
    assert (await service.get(match.id)).status == "active"


async def test_matches_opened_before_web_pages_get_a_token_at_start(service, store):
    """A match opened before migration 0012 has no web page token; the recovery at start
    gives it one (unguessable, its own), and leaves the tokens of the others alone."""
    import re

    old, new = await challenge(service, channel=501), await challenge(service, channel=502)
    async with store.transaction() as tx:
        await tx.conn.execute("UPDATE matches SET web_token = NULL WHERE id = $1", old.id)
    assert (await store.get_match(old.id)).web_token is None
    kept = (await store.get_match(new.id)).web_token
    await service.recover()
    given = (await store.get_match(old.id)).web_token
    assert given is not None and re.fullmatch(r"[A-Za-z0-9_-]{22}", given)
    assert given != kept and (await store.get_match(new.id)).web_token == kept
    assert (await store.match_by_token(given)).id == old.id
    await service.recover()
    assert (await store.get_match(old.id)).web_token == given
