"""Play across days, on an injectable clock (nothing sleeps): deadlines, claims and skips,
reminders and digests, restarts with overdue deadlines, vacations, offers, settings."""

import pytest

from bot import service as svc
from bot.clocks import format_duration, overlap, parse_duration
from bot.service import Digest, Expired, MatchService, Reminder, parse_time
from bot.store import Store
from support import ALICE, BOB, CAROL, FakeClock, FirstFixed

HOUR, DAY = 3600, 86400


async def duel(service, *, seconds=DAY, channel=500, game="progressive-mancala", options=None):
    match = await service.open_match(game_id=game, options=options or {}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=channel, first="me",
                                     move_seconds=seconds)
    return await service.accept(match.id, BOB.user_id)


def kinds(notices):
    return [(type(n).__name__, getattr(n, "stage", None)) for n in notices]


def test_durations_parse_and_read():
    assert parse_duration("3d") == 3 * DAY and parse_duration("1d12h") == 36 * HOUR
    assert parse_duration("90m") == 5400 and parse_duration("none") is None
    with pytest.raises(ValueError):
        parse_duration("3 weeks")
    with pytest.raises(svc.BadRequest, match="between 1 minute and 30 days"):
        parse_time("31d")
    assert format_duration(2 * DAY + 3 * HOUR + 59) == "2d 3h" and format_duration(30) == \
        "less than a minute"
    assert overlap([(0, 10), (5, 20), (30, 40)], 8, 35) == 12 + 5


async def test_reminders_at_half_and_near_the_end_never_twice(service, clock):
    match = await duel(service)
    assert await service.tick() == []
    clock.advance(DAY * 0.49)
    assert await service.tick() == []
    clock.advance(DAY * 0.02)
    notices = await service.tick()
    assert kinds(notices) == [("Reminder", "half")] and notices[0].user_id == ALICE.user_id
    assert await service.tick() == []  # not twice
    clock.advance(DAY * 0.45)
    assert kinds(await service.tick()) == [("Reminder", "last")]
    assert await service.tick() == []
    clock.advance(DAY * 0.05)
    notices = await service.tick()
    assert kinds(notices) == [("Expired", None)] and notices[0].absent.name == "Alice"
    assert await service.tick() == []
    # a move starts a new turn with its own reminders
    await service.play(match.id, ALICE.user_id, "k")
    clock.advance(DAY * 0.6)
    notices = await service.tick()
    assert kinds(notices) == [("Reminder", "half")] and notices[0].user_id == BOB.user_id


async def test_only_the_last_reminder_after_a_long_downtime(service, clock):
    await duel(service)
    clock.advance(DAY * 0.95)
    assert kinds(await service.tick()) == [("Reminder", "last")]
    assert await service.tick() == []


async def test_reminders_off_and_no_deadline(service, clock):
    await service.set_reminders(ALICE.user_id, "off")
    await duel(service)
    await duel(service, seconds=None, channel=501)
    clock.advance(DAY * 0.9)
    assert await service.tick() == []  # off, and the other match has no clock
    clock.advance(DAY * 0.2)
    assert kinds(await service.tick()) == [("Expired", None)]  # expiry still reaches the channel


async def test_claim_only_by_an_opponent_once_time_is_up(service, clock):
    match = await duel(service, seconds=HOUR)
    with pytest.raises(svc.WrongPhase, match="time is not up yet.*1h left|time is not up yet"):
        await service.claim(match.id, BOB.user_id, expected_version=match.row.version)
    clock.advance(HOUR + 1)
    with pytest.raises(svc.Forbidden, match="Only Alice's opponents can claim"):
        await service.claim(match.id, ALICE.user_id, expected_version=match.row.version)
    with pytest.raises(svc.NotAPlayer):
        await service.claim(match.id, CAROL.user_id, expected_version=match.row.version)
    with pytest.raises(svc.StaleAction):
        await service.claim(match.id, BOB.user_id, expected_version=match.row.version - 1)
    claimed, absent, skipped = await service.claim(match.id, BOB.user_id,
                                                   expected_version=match.row.version)
    assert claimed.status == "finished" and not skipped and absent.name == "Alice"
    assert claimed.outcome().winners == (1,) and claimed.outcome().reason.value == "timeout"
    with pytest.raises(svc.WrongPhase):
        await service.claim(match.id, BOB.user_id, expected_version=claimed.row.version)


async def test_a_ghostone_seat_that_runs_out_is_skipped_not_beaten(store, clock):
    import random

    service = MatchService(store, clock=clock, rng=FirstFixed(), dice=random.Random(1))
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=700, move_seconds=HOUR)
    await service.join(lobby.id, BOB)
    await service.join(lobby.id, CAROL)
    match = await service.start(lobby.id, ALICE.user_id)
    chooser = random.Random(2)
    while match.state.phase == "setup":
        mover = match.to_move()
        match = (await service.play(match.id, mover.user_id,
                                    chooser.choice(service.legal_moves_for(match, mover.user_id)))).match
    absent = match.to_move()
    clock.advance(HOUR + 1)
    other = next(s for s in match.seats if s.user_id != absent.user_id)
    skipped, who, was_skip = await service.claim(match.id, other.user_id,
                                                 expected_version=match.row.version)
    assert was_skip and who == absent and skipped.status == "active"
    assert skipped.to_move() != absent
    log = await store.moves(match.id)
    assert log[-1].kind == "skip" or log[-2].kind == "skip"
    assert await service.rebuild(match.id) == skipped.state


async def test_restart_with_an_overdue_deadline(tmp_path, clock):
    path = tmp_path / "corral.sqlite3"
    store = await Store.open(path)
    service = MatchService(store, clock=clock, rng=FirstFixed())
    await duel(service, seconds=HOUR)
    await store.close()
    clock.advance(5 * HOUR)  # the bot was down
    store = await Store.open(path)
    service = MatchService(store, clock=clock, rng=FirstFixed())
    notices = await service.tick()
    assert kinds(notices) == [("Expired", None)]
    assert await service.tick() == []
    await store.close()


async def test_a_vacation_pauses_the_clock_within_the_yearly_allowance(service, clock):
    match = await duel(service, seconds=DAY)
    clock.advance(HOUR * 10)
    until, left = await service.start_vacation(ALICE.user_id, 3)
    assert left == pytest.approx(27)
    with pytest.raises(svc.WrongPhase, match="already on vacation"):
        await service.start_vacation(ALICE.user_id, 1)
    clock.advance(3 * DAY)  # all of it on vacation
    assert await service.tick() == []
    remaining = (await service.clock_of(await service.get(match.id))).remaining
    assert remaining == pytest.approx(14 * HOUR)
    clock.advance(HOUR)
    await service.start_vacation(ALICE.user_id, 2)
    await service.end_vacation(ALICE.user_id)  # back early: only the used part counts
    with pytest.raises(svc.WrongPhase, match="not on vacation"):
        await service.end_vacation(ALICE.user_id)
    assert await service.vacation_days_left(ALICE.user_id) == pytest.approx(27)
    with pytest.raises(svc.BadRequest, match="27 vacation days left"):
        await service.start_vacation(ALICE.user_id, 28)


async def test_daily_digest_lists_every_match_waiting_once_a_day(service, clock):
    await service.set_reminders(BOB.user_id, "digest")
    first = await duel(service, seconds=DAY, channel=1)
    second = await duel(service, seconds=None, channel=2)
    await service.play(first.id, ALICE.user_id, "k")
    clock.advance(HOUR)
    await service.play(second.id, ALICE.user_id, "k")
    clock.advance(HOUR)
    notices = [n for n in await service.tick() if isinstance(n, Digest)]
    assert len(notices) == 1 and notices[0].user_id == BOB.user_id
    assert [m.id for m, _, _ in notices[0].waiting] == [first.id, second.id]  # longest wait first
    assert not [n for n in await service.tick() if isinstance(n, Digest)]
    clock.advance(DAY)
    assert [n for n in await service.tick() if isinstance(n, Digest)]
    assert not [n for n in await service.tick() if isinstance(n, Reminder)
                if n.user_id == BOB.user_id]  # digest users get no per-match reminders


async def test_draw_offers(service):
    match = await duel(service)
    offer = await service.offer_draw(match.id, ALICE.user_id)
    with pytest.raises(svc.Forbidden, match="your own offer"):
        await service.answer_offer(offer.id, ALICE.user_id, True)
    _, drawn = await service.answer_offer(offer.id, BOB.user_id, True)
    assert drawn.status == "finished" and drawn.outcome().draw
    assert drawn.outcome().reason.value == "agreement"
    with pytest.raises(svc.StaleAction, match="no longer open"):
        await service.answer_offer(offer.id, BOB.user_id, True)


async def test_an_offer_dies_when_the_match_moves_on(service):
    match = await duel(service)
    offer = await service.offer_draw(match.id, BOB.user_id)
    await service.play(match.id, ALICE.user_id, "k")
    with pytest.raises(svc.StaleAction, match="no longer open"):
        await service.answer_offer(offer.id, ALICE.user_id, True)


async def test_takeback_only_of_your_own_last_move_before_the_opponent_moves(service, store):
    match = await duel(service)
    with pytest.raises(svc.BadRequest, match="only your own last move"):
        await service.request_takeback(match.id, ALICE.user_id)
    match = (await service.play(match.id, ALICE.user_id, "h")).match  # ends in an empty pit
    with pytest.raises(svc.BadRequest, match="only your own last move"):
        await service.request_takeback(match.id, BOB.user_id)
    offer = await service.request_takeback(match.id, ALICE.user_id)
    assert offer.notation == "h"
    declined, _ = await service.answer_offer(offer.id, BOB.user_id, False)
    offer = await service.request_takeback(match.id, ALICE.user_id)
    _, back = await service.answer_offer(offer.id, BOB.user_id, True)
    assert back.ply() == 0 and back.to_move().name == "Alice"
    assert back.state == (await duel(service, channel=900)).state
    assert [e.kind for e in await store.moves(match.id)] == ["move", "takeback"]
    assert await service.rebuild(match.id) == back.state
    match = (await service.play(match.id, ALICE.user_id, "k")).match  # play goes on
    assert match.ply() == 1


async def test_no_takeback_across_hidden_information_or_a_roll(service):
    hidden = await duel(service, game="consequence", channel=600)
    hidden = (await service.play(hidden.id, ALICE.user_id, "BM@b2")).match
    with pytest.raises(svc.BadRequest, match="hidden information"):
        await service.request_takeback(hidden.id, ALICE.user_id)


async def test_rematch_swaps_who_moves_first(service):
    match = await duel(service, seconds=HOUR)
    await service.resign(match.id, BOB.user_id)
    again = await service.rematch(match.id, BOB)
    assert again.status == "invited" and again.row.move_seconds == HOUR
    again = await service.accept(again.id, ALICE.user_id)
    # Alice moved first last time; Bob, who asked for the rematch, moves first now
    assert match.to_move().name == "Alice" and again.to_move().name == "Bob"
    with pytest.raises(svc.NotAPlayer):
        await service.rematch(match.id, CAROL)


async def test_server_settings_default_time_channels_and_spectators(service, store):
    await store.update_guild_settings(1, move_seconds=2 * DAY, channels=[500, 501],
                                      spectators_talk=False, use_threads=True)
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=500)
    assert match.row.move_seconds == 2 * DAY
    with pytest.raises(svc.BadRequest, match="only in <#500>, <#501>"):
        await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                 opponent=BOB, guild_id=1, channel_id=999)
    thread = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                      opponent=BOB, guild_id=1, channel_id=7777, in_thread=True,
                                      parent_channel_id=501)
    assert await service.may_talk(7777, BOB.user_id, 1) is True
    assert await service.may_talk(7777, CAROL.user_id, 1) is False
    assert await service.may_talk(500, CAROL.user_id, 1) is True  # not a thread
    assert thread.row.move_seconds == 2 * DAY


async def test_no_takeback_across_a_die_roll(store, clock):
    import random

    service = MatchService(store, clock=clock, rng=FirstFixed(), dice=random.Random(3))
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=710)
    await service.join(lobby.id, BOB)
    await service.join(lobby.id, CAROL)
    match = await service.start(lobby.id, ALICE.user_id)
    chooser = random.Random(4)
    while match.status == "active":
        mover = match.to_move()
        result = await service.play(match.id, mover.user_id,
                                    chooser.choice(service.legal_moves_for(match, mover.user_id)))
        match = result.match
        if result.rolls and match.status == "active":
            with pytest.raises(svc.BadRequest, match="never across a die roll"):
                await service.request_takeback(match.id, mover.user_id)
            return
    pytest.fail("no roll happened in this match")
