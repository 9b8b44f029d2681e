"""Play across days, on an injectable clock (nothing sleeps): deadlines, claims and skips,
reminders and digests, restarts with overdue deadlines, vacations, offers, settings."""

import random

import pytest
from support import (
    ALICE,
    BOB,
    CAROL,
    FakeClock,
    FirstFixed,
    board_lines,
    ghostone_for_three,
    take,
    text,
)

from bot import service as svc
from bot.clocks import Duration, clock_for, format_duration, overlap, parse_duration
from bot.service import Service, parse_time
from bot.store import Store
from bot.words import strings
from bot.words.i18n import Texts, phrase_from_json, phrase_to_json, translations
from games import phrase

HOUR, DAY = 3600, 86400


async def duel(service, *, seconds=DAY, channel=500, game="progressive-mancala", options=None):
    match = await service.open_match(game_id=game, options=options or {}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=channel, first="me",
                                     move_seconds=seconds)
    return await service.accept(match.id, BOB.user_id)


async def due(service, store) -> list[tuple[str, str]]:
    """Tick, and what it asked to be sent: (kind, first words)."""
    await take(store)
    await service.tick()
    found = []
    for row in await take(store):
        if row["kind"] == "dm":
            found.append(("dm", " ".join(text(row["text"]).split()[:5])))
        elif row["kind"] == "notice":
            found.append(("notice", " ".join(
                text(row["text"], [n for _, n in row["seats"]]).split()[:5])))
        elif row["kind"] == "digest":
            found.append(("digest", text(row["header"])))
    return found


def test_durations_parse_and_read():
    assert parse_duration("3d") == 3 * DAY and parse_duration("1d12h") == 36 * HOUR
    assert parse_duration("90m") == 5400 and parse_duration("none") is None
    for bad in ("3 weeks", "²d", "1" * 5000 + "d", "١d", "-3d", ""):
        with pytest.raises(ValueError):
            parse_duration(bad)
    with pytest.raises(svc.BadRequest, match="between 1 minute and 30 days"):
        parse_time("31d")
    with pytest.raises(svc.BadRequest, match="is not a time per move"):
        parse_time("9" * 5000)
    assert format_duration(2 * DAY + 3 * HOUR + 59) == "2d 3h" and format_duration(30) == "<1m"
    # in Japanese, as the Japanese help texts write them, and written as Japanese reads them
    assert parse_duration("1日12時間") == 36 * HOUR and parse_duration("９０分") == 5400
    assert parse_duration("3日") == 3 * DAY and parse_duration("なし") is None
    for bad in ("3週間", "日", "2時"):
        with pytest.raises(ValueError):
            parse_duration(bad)
    japanese = translations("ja").gettext
    assert format_duration(2 * DAY + 3 * HOUR + 59, japanese) == "2日3時間"
    assert format_duration(5 * HOUR + 20 * 60, japanese) == "5時間20分"
    assert format_duration(3 * DAY, japanese) == "3日" and format_duration(30, japanese) == "1分未満"
    assert Texts("ja")(phrase(strings.NO_LIMIT)) == "なし"
    assert Texts("ja")(phrase("{d}", d=Duration(90 * 60))) == "1時間30分"
    assert str(Duration(90 * 60)) == "1h 30m"
    assert phrase_from_json(phrase_to_json(phrase("{d}", d=Duration(60)))) == \
        phrase("{d}", d=Duration(60))
    assert overlap([(0, 10), (5, 20), (30, 40)], 8, 35) == 12 + 5


def test_the_next_check_follows_the_clock_and_vacations():
    clock = clock_for(DAY, 0.0, 0.0, [])
    assert clock.next_check() == DAY * 0.5
    assert clock_for(DAY, 0.0, DAY * 0.6, []).next_check() == pytest.approx(DAY * 0.9)
    assert clock_for(DAY, 0.0, DAY * 0.95, []).next_check() == pytest.approx(DAY)
    assert clock_for(DAY, 0.0, DAY * 1.1, []).next_check() is None
    away = clock_for(DAY, 0.0, HOUR, [(0.0, 3 * DAY)])
    assert away.next_check() == 3 * DAY and away.due_at == 4 * DAY


async def test_reminders_at_half_and_near_the_end_never_twice(service, store, clock):
    match = await duel(service)
    assert await due(service, store) == []
    clock.advance(DAY * 0.49)
    assert await due(service, store) == []
    clock.advance(DAY * 0.02)
    assert await due(service, store) == [("dm", "⏳ Half your time is")]
    assert await due(service, store) == []  # not twice
    clock.advance(DAY * 0.45)
    assert await due(service, store) == [("dm", "⌛ Little time is left")]
    assert await due(service, store) == []
    clock.advance(DAY * 0.05)
    assert await due(service, store) == [("notice", "⏰ Alice's time is up")]
    assert await due(service, store) == []
    # a move starts a new turn with its own reminders
    await service.play(match.id, ALICE.user_id, "k")
    clock.advance(DAY * 0.6)
    assert await due(service, store) == [("dm", "⏳ Half your time is")]


async def test_only_the_last_reminder_after_a_long_downtime(service, store, clock):
    await duel(service)
    clock.advance(DAY * 0.95)
    assert await due(service, store) == [("dm", "⌛ Little time is left")]
    assert await due(service, store) == []


async def test_reminders_off_and_no_deadline(service, store, clock):
    await service.set_reminders(ALICE.user_id, "off")
    await duel(service)
    await duel(service, seconds=None, channel=501)
    clock.advance(DAY * 0.9)
    assert await due(service, store) == []  # off, and the other match has no clock
    clock.advance(DAY * 0.2)
    assert await due(service, store) == [("notice", "⏰ Alice's time is up")]


async def test_the_expiry_notice_mentions_the_opponents_and_offers_the_claim(service, store,
                                                                            clock):
    match = await duel(service, seconds=HOUR)
    clock.advance(HOUR + 1)
    await take(store)
    await service.tick()
    [notice] = await take(store, "notice")
    assert notice["mention"] == [BOB.user_id]
    assert notice["buttons"] == [{"kind": "claim", "version": match.row.version, "skip": False}]
    assert notice["live"] == "expiry"


async def test_claim_only_by_an_opponent_once_time_is_up(service, store, clock):
    match = await duel(service, seconds=HOUR)
    with pytest.raises(svc.WrongPhase, match="time is not up yet in match #1: it runs out <t:"):
        await service.claim(match.id, BOB.user_id, expected_version=match.row.version)
    clock.advance(HOUR + 1)
    with pytest.raises(svc.Forbidden, match="It is your own turn: the claim is for your"):
        await service.claim(match.id, ALICE.user_id, expected_version=match.row.version)
    with pytest.raises(svc.NotAPlayer):
        await service.claim(match.id, CAROL.user_id, expected_version=match.row.version)
    with pytest.raises(svc.StaleAction):
        await service.claim(match.id, BOB.user_id, expected_version=match.row.version - 1)
    await take(store)
    claimed = await service.claim(match.id, BOB.user_id, expected_version=match.row.version)
    assert claimed.status == "finished"
    assert claimed.outcome().winners == (1,) and claimed.outcome().reason.value == "timeout"
    [board] = await take(store, "board")
    assert text(board["result"]) == "Time ran out for Alice; Bob claimed the win"
    with pytest.raises(svc.WrongPhase):
        await service.claim(match.id, BOB.user_id, expected_version=claimed.row.version)


async def test_a_ghostone_seat_that_runs_out_is_skipped_not_beaten(store, clock):
    service = Service(store, clock=clock, rng=FirstFixed(), dice=random.Random(1))
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=700, move_seconds=HOUR)
    await service.join(lobby.id, BOB)
    await service.join(lobby.id, CAROL)
    match = await service.start(lobby.id, ALICE.user_id)
    chooser = random.Random(2)
    while match.state.phase == "setup":
        mover = match.to_move()
        match = (await service.play(match.id, mover.user_id, chooser.choice(
            service.legal_moves_for(match, mover.user_id)))).match
    absent = match.to_move()
    clock.advance(HOUR + 1)
    other = next(s for s in match.seats if s.user_id != absent.user_id)
    await take(store)
    skipped = await service.claim(match.id, other.user_id, expected_version=match.row.version)
    assert skipped.status == "active" and skipped.to_move() != absent
    [board] = await take(store, "board")
    assert f"skipped the turn of {absent.name}" in board_lines(board)[0]
    log = await store.moves(match.id)
    assert "skip" in [entry.kind for entry in log[-2:]]
    assert await service.rebuild(match.id) == skipped.state


async def test_restart_with_an_overdue_deadline(tmp_path, clock):
    path = tmp_path / "corral.sqlite3"
    store = await Store.open(path)
    service = Service(store, clock=clock, rng=FirstFixed())
    await duel(service, seconds=HOUR)
    await store.close()
    clock.advance(5 * HOUR)  # the bot was down
    store = await Store.open(path)
    service = Service(store, clock=clock, rng=FirstFixed())
    assert await due(service, store) == [("notice", "⏰ Alice's time is up")]
    assert await due(service, store) == []
    await store.close()


async def test_tick_reads_only_what_is_due(service, store, clock):
    """The clock columns: a match without a time limit is never looked at, and one with a
    limit only when something may be due."""
    timed = await duel(service, seconds=DAY, channel=1)
    await duel(service, seconds=None, channel=2)
    assert (await store.get_match(timed.id)).next_check_at == clock.now + DAY * 0.5
    assert await store.due_matches(clock.now + DAY * 0.49, 100) == []
    report = await service.tick()
    assert report.checked == 0
    clock.advance(DAY * 0.5)
    assert [row.id for row in await store.due_matches(clock.now, 100)] == [timed.id]
    report = await service.tick()
    assert report.checked == 1 and report.reminders == 1
    assert (await store.get_match(timed.id)).next_check_at == pytest.approx(clock.now +
                                                                          DAY * 0.4)


async def test_a_vacation_pauses_the_clock_within_the_yearly_allowance(service, store, clock):
    match = await duel(service, seconds=DAY)
    clock.advance(HOUR * 10)
    until, left = await service.start_vacation(ALICE.user_id, 3)
    assert left == pytest.approx(27)
    with pytest.raises(svc.WrongPhase, match="already on vacation"):
        await service.start_vacation(ALICE.user_id, 1)
    clock.advance(3 * DAY)  # all of it on vacation
    assert await due(service, store) == []
    remaining = (await service.clock_of(await service.get(match.id))).remaining
    assert remaining == pytest.approx(14 * HOUR)
    clock.advance(HOUR)
    await service.start_vacation(ALICE.user_id, 2)
    await service.end_vacation(ALICE.user_id)  # back early: only the used part counts
    assert (await store.get_match(match.id)).next_check_at == clock.now  # looked at again
    with pytest.raises(svc.WrongPhase, match="not on vacation"):
        await service.end_vacation(ALICE.user_id)
    assert await service.vacation_days_left(ALICE.user_id) == pytest.approx(27)
    with pytest.raises(svc.BadRequest, match="27 vacation days left"):
        await service.start_vacation(ALICE.user_id, 28)


async def test_daily_digest_lists_every_match_waiting_once_a_day(service, store, clock):
    await service.set_reminders(BOB.user_id, "digest")
    first = await duel(service, seconds=DAY, channel=1)
    second = await duel(service, seconds=None, channel=2)
    await service.play(first.id, ALICE.user_id, "k")
    clock.advance(HOUR)
    await service.play(second.id, ALICE.user_id, "k")
    clock.advance(HOUR)
    await take(store)
    await service.tick()
    digests = await take(store, "digest")
    assert len(digests) == 1 and digests[0]["user_id"] == BOB.user_id
    lines = [text(line) for line in digests[0]["lines"]]
    assert [line.split()[1] for line in lines] == [f"#{first.id}", f"#{second.id}"]
    assert "runs out <t:" in lines[0] and "runs out" not in lines[1]  # only one has a clock
    await service.tick()
    assert await take(store, "digest") == []
    clock.advance(DAY)
    await service.tick()
    rows = await take(store)
    assert [r["kind"] for r in rows if r["kind"] == "digest"] == ["digest"]
    assert not [r for r in rows if r["kind"] == "dm" and r["user_id"] == BOB.user_id]


async def test_draw_offers(service, store):
    match = await duel(service)
    offer = await service.offer_draw(match.id, ALICE.user_id)
    [posted] = await take(store, "notice")
    assert posted["buttons"] == [{"kind": "offer", "offer_id": offer.id}]
    assert posted["mention"] == [BOB.user_id]
    with pytest.raises(svc.Forbidden, match="your own offer"):
        await service.answer_offer(offer.id, ALICE.user_id, True)
    _, drawn = await service.answer_offer(offer.id, BOB.user_id, True)
    assert drawn.status == "finished" and drawn.outcome().draw
    assert drawn.outcome().reason.value == "agreement"
    [board] = await take(store, "board")
    assert text(board["result"]) == "Drawn by agreement"
    with pytest.raises(svc.StaleAction, match="no longer open"):
        await service.answer_offer(offer.id, BOB.user_id, True)


async def test_a_second_offer_withdraws_the_first(service, store):
    match = await duel(service)
    first = await service.offer_draw(match.id, ALICE.user_id)
    await take(store)
    await service.offer_draw(match.id, ALICE.user_id)
    rows = await take(store)
    assert rows[0]["kind"] == "retire" and rows[0]["offer_ids"] == [first.id]
    with pytest.raises(svc.StaleAction):
        await service.answer_offer(first.id, BOB.user_id, True)


async def test_no_takeback_across_hidden_information_or_a_roll(service, store, clock):
    hidden = await duel(service, game="consequence", channel=600)
    hidden = (await service.play(hidden.id, ALICE.user_id, "BM@b2")).match
    with pytest.raises(svc.BadRequest, match="hidden information"):
        await service.request_takeback(hidden.id, ALICE.user_id)
    service.dice = random.Random(3)
    match = await ghostone_for_three(service, 710)
    chooser = random.Random(4)
    while match.status == "active":
        mover = match.to_move()
        before = len(await store.moves(match.id))
        match = (await service.play(match.id, mover.user_id, chooser.choice(
            service.legal_moves_for(match, mover.user_id)))).match
        if len(await store.moves(match.id)) > before + 1 and match.status == "active":
            with pytest.raises(svc.BadRequest, match="never across a die roll"):
                await service.request_takeback(match.id, mover.user_id)
            return
    pytest.fail("no roll happened in this match")


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
    with pytest.raises(svc.Forbidden, match="Only server managers"):
        await service.update_settings(1, is_manager=False, threads=True)
    now = await service.update_settings(1, is_manager=True, time_per_move="2d",
                                        spectators_talk=False, threads=True, channel_id=500)
    now = await service.update_settings(1, is_manager=True, channel_id=501)
    assert now == {"use_threads": True, "move_seconds": 2 * DAY, "channels": [500, 501],
                   "spectators_talk": False, "language": None, "preferred_language": None,
                   "web_links": True}
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
    now = await service.update_settings(1, is_manager=True, channel_id=500,
                                        channel_action="disallow")
    assert now["channels"] == [501]
    now = await service.update_settings(1, is_manager=True, channel_action="all")
    assert now["channels"] is None


def test_fake_clock_is_injectable():
    clock = FakeClock(10.0)
    clock.advance(5)
    assert clock() == 15.0


async def test_languages_of_servers_and_users(service, store):
    assert await service.channel_language(1) == "en" and await service.user_language(101) == "en"
    await service.note_languages(101, "ja", 1, "ja")  # what Discord reported
    assert await service.channel_language(1) == "ja" and await service.user_language(101) == "ja"
    now = await service.update_settings(1, is_manager=True, language="en")  # a manager's choice
    assert now["language"] == "en" and await service.channel_language(1) == "en"
    with pytest.raises(svc.BadRequest, match="Corral speaks English, Japanese"):
        await service.update_settings(1, is_manager=True, language="fr")
    await service.set_user_language(101, "en")  # chosen with /notify: it holds
    await service.note_languages(101, "ja", 1, "ja")
    assert await service.user_language(101) == "en"
    with pytest.raises(svc.BadRequest):
        await service.set_user_language(101, "xx")
