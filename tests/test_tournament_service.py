"""Tournaments through the service and the store, on SQLite and PostgreSQL: a Swiss runs
itself from matches ending to the final standings; a round is paired once even when asked
twice; refusals change nothing; servers never mix; deadlines and withdrawals."""

from __future__ import annotations

import json
import logging

import pytest
from support import take

from bot import tournaments as engine
from bot.service import BadRequest, Forbidden, NotFound, Player, WrongPhase
from bot.service.tournaments import STALLED_PAIRING
from bot.store.db import Conflict
from bot.words import strings

GUILD, OTHER_GUILD, PARENT, THREAD = 1, 2, 500, 900
PEOPLE = [Player(1000 + i, f"P{i}") for i in range(8)]


def spec(service, **kw):
    args = {"game_id": "progressive-mancala", "options": {}, "format": "swiss", "rounds": 3,
            "double": False, "draw_break": "extra_game", "rated": True, "min_rating": None,
            "move_time": "1d", "round_time": "3d", "signup_time": "1d", "name": "Autumn",
            "may_create": True}
    args.update(kw)
    return service.tournaments.check_create(**args)


async def created(service, **kw):
    return await service.tournaments.create(spec(service, **kw), guild_id=GUILD,
                                            parent_channel_id=PARENT, channel_id=THREAD,
                                            organiser=PEOPLE[0])


async def place_all(service, store):
    """What the delivery worker does: a Swiss round paired (here, in this process), each
    TourMatch row's thread made and its match started. Returns the matches started."""
    placed = []
    while True:
        rows = [r for r in await take(store) if r["kind"] in ("tourpair", "tourmatch")]
        if not rows:
            return placed
        for row in rows:
            if row["kind"] == "tourpair":
                await service.tournaments.pair_job(row["tournament_id"], row["number"],
                                                   compute)
            else:
                assert await service.tournaments.place(row["match_id"], 10_000 + row["match_id"])
                placed.append(row["match_id"])


async def compute(data: str) -> str | None:
    return engine.paired_json(data)


async def test_a_swiss_runs_itself_to_the_final_standings(service, store, clock):
    t = await created(service)
    for p in PEOPLE[:5]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    for number in (1, 2, 3):
        placed = await place_all(service, store)
        assert len(placed) == 2  # five players: two games and a bye
        assert len((await service.tournaments.get(t.id)).data.rounds) == number
        for match_id in placed:
            match = await service.get(match_id)
            assert match.status == "active" and match.row.rated
            await service.resign(match_id, match.seats[1].user_id)  # first seat wins
    t = await service.tournaments.get(t.id)
    assert t.row.status == "finished"
    table = engine.standings(t.data)
    assert sum(r.points for r in table.rows) == 3 * 2 + 3  # games, and a bye a round
    finals = [r for r in await take(store, "tour")
              if r["text"] and "is over" in r["text"]["t"]]
    assert len(finals) == 1 and finals[0]["picture"] == "standings"
    assert finals[0]["mention"] == sorted(r.player_id for r in table.rows if r.rank == 1)
    rounds = await store.conn.fetch(
        "SELECT round FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round", t.id)
    assert [r["round"] for r in rounds] == [1, 2, 3]


async def test_a_round_cannot_be_paired_twice(service, store):
    t = await created(service)
    for p in PEOPLE[:4]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    assert len(await place_all(service, store)) == 2
    # the pairing row delivered again (a restart before it was marked done) changes nothing
    assert not await service.tournaments.pair_job(t.id, 1, compute)
    with pytest.raises(Conflict):
        async with store.transaction() as tx:
            await tx.add_tournament_round(t.id, 1, 0.0)
    assert len((await service.tournaments.get(t.id)).data.rounds) == 1


async def test_refusals_change_nothing(service, store):
    with pytest.raises(Forbidden):
        spec(service, may_create=False)
    with pytest.raises(BadRequest):
        spec(service, format="pods")  # Mancala is a two-player game
    with pytest.raises(BadRequest):
        spec(service, format="swiss", rounds=None)
    with pytest.raises(BadRequest):
        spec(service, format="round_robin", rounds=3)
    with pytest.raises(BadRequest):
        spec(service, move_time="9d", round_time="1d")
    t = await created(service, format="round_robin", rounds=None)
    await service.tournaments.join(t.id, PEOPLE[1], GUILD)
    with pytest.raises(BadRequest):
        await service.tournaments.join(t.id, PEOPLE[1], GUILD)
    with pytest.raises(NotFound):  # another server's member cannot reach it
        await service.tournaments.join(t.id, PEOPLE[2], OTHER_GUILD)
    with pytest.raises(NotFound):
        await service.tournaments.find(t.id, OTHER_GUILD, 0)
    with pytest.raises(WrongPhase):  # one player: too few
        await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False,
                                        guild_id=GUILD)
    for p in PEOPLE[2:4]:
        await service.tournaments.join(t.id, p, GUILD)
    with pytest.raises(Forbidden):  # not the organiser
        await service.tournaments.start(t.id, PEOPLE[2].user_id, is_manager=False,
                                        guild_id=GUILD)
    with pytest.raises(Forbidden):
        await service.tournaments.withdraw(t.id, PEOPLE[1].user_id, by=PEOPLE[2].user_id,
                                           is_manager=False)
    before = await service.tournaments.get(t.id)
    assert [p.id for p in before.data.players] == [p.user_id for p in PEOPLE[1:4]]
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    with pytest.raises(WrongPhase):  # a round robin takes no late entries
        await service.tournaments.join(t.id, PEOPLE[5], GUILD)
    after = await service.tournaments.get(t.id)
    assert len(after.data.players) == 3 and len(after.data.rounds) == 3  # all at once


async def test_the_deadline_and_a_withdrawal(service, store, clock):
    t = await created(service, format="round_robin", rounds=None)
    for p in PEOPLE[1:5]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    placed = await place_all(service, store)
    assert len(placed) == 6  # four players, every game at once
    await service.tournaments.withdraw(t.id, PEOPLE[4].user_id, by=PEOPLE[4].user_id,
                                       is_manager=False)
    t = await service.tournaments.get(t.id)
    games = [g for r in t.data.rounds for g in r.games if PEOPLE[4].user_id in g.seats]
    assert all(g.forfeit and g.points is not None for g in games)
    clock.advance(4 * 86400)  # past the whole schedule's time (3 rounds x 3 days)
    await service.tick()
    clock.advance(6 * 86400)
    await service.tick()
    t = await service.tournaments.get(t.id)
    assert t.row.status == "finished"
    for match_id in placed:
        assert (await service.get(match_id)).status == "finished"


async def test_the_organiser_role_and_a_minimum_rating(service, store):
    tours = service.tournaments
    assert not await tours.may_organise(GUILD, is_manager=False, role_ids=(77,))
    with pytest.raises(Forbidden):
        await tours.set_organiser_role(GUILD, 77, is_manager=False)
    await tours.set_organiser_role(GUILD, 77, is_manager=True)
    assert await tours.may_organise(GUILD, is_manager=False, role_ids=(5, 77))
    assert not await tours.may_organise(GUILD, is_manager=False, role_ids=(5,))
    assert not await tours.may_organise(OTHER_GUILD, is_manager=False, role_ids=(77,))
    assert (await store.guild_settings(GUILD))["use_threads"] is False  # nothing else moved
    t = await created(service, min_rating=1600, name="Open\x00\nCup `x`")
    assert t.data.settings.name == "Open Cup 'x'"
    with pytest.raises(Forbidden):  # a newcomer shows 1500
        await tours.join(t.id, PEOPLE[1], GUILD)
    assert (await tours.get(t.id)).data.players == ()


async def test_a_drawn_knockout_game_is_replayed_with_seats_swapped(service, store):
    t = await created(service, format="knockout", rounds=None)
    for p in PEOPLE[1:5]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    first, second = await place_all(service, store)
    match = await service.get(first)
    a, b = (s.user_id for s in match.seats)
    offer = await service.offer_draw(first, a)
    await service.answer_offer(offer.id, b, True)  # an agreed draw
    await service.resign(second, (await service.get(second)).seats[1].user_id)
    t = await service.tournaments.get(t.id)
    assert [r.kind for r in t.data.rounds] == ["main", "tiebreak"]
    (replay,) = t.data.rounds[1].games
    assert replay.seats == (b, a)  # the extra game, first seat to the other player
    (again,) = await place_all(service, store)
    assert [s.user_id for s in (await service.get(again)).seats] == [b, a]


async def test_ico_pods_seat_three_or_four(service, store):
    t = await created(service, game_id="ico", format="pods", rounds=1)
    assert (t.data.settings.table_min, t.data.settings.table_max) == (3, 4)
    for p in PEOPLE[:7]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    placed = await place_all(service, store)
    sizes = sorted([len((await service.get(m)).seats) for m in placed])
    assert sizes == [3, 4]


async def test_a_swiss_pairing_the_outbox_gave_up_on_is_enqueued_again(service, store, clock,
                                                                       caplog):
    """The watchdog in the tick: a round left unpaired with no pairing job pending (the
    outbox gave up) gets a new job after STALLED_PAIRING, once, and is paired once."""
    t = await created(service)
    for p in PEOPLE[:4]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)

    async def jobs(status: str = "pending") -> list[dict]:
        rows = await store.conn.fetch(
            "SELECT id, payload FROM outbox WHERE kind = 'tourpair' AND status = $1 ORDER BY id",
            status)
        return [{"id": r["id"], **json.loads(r["payload"])} for r in rows]

    first = await jobs()
    assert [j["number"] for j in first] == [1]
    clock.advance(STALLED_PAIRING + 60)
    await service.tick()
    assert await jobs() == first  # pending (retrying): the watchdog leaves it be
    async with store.transaction() as tx:  # the delivery worker gives up on it
        await tx.finish_outbox(first[0]["id"], clock(), status="failed", error="gave up")
    clock.advance(STALLED_PAIRING - 60)  # the tournament has waited long enough already
    with caplog.at_level(logging.WARNING, logger="bot.service.tournaments"):
        await service.tick()
        await service.tick()  # the new job is pending: not a second one
    again = await jobs()
    assert [(j["tournament_id"], j["number"]) for j in again] == [(t.id, 1)]
    lines = [r.getMessage() for r in caplog.records if "unpaired" in r.getMessage()]
    assert lines == [f"tournament #{t.id}: round 1 was still unpaired after "
                     f"{STALLED_PAIRING} s with no pairing job; pairing it again"]
    assert len(await place_all(service, store)) == 2
    assert not await service.tournaments.pair_job(t.id, 1, compute)  # paired once only
    # a paired round has its deadline: the watchdog has nothing to do, however long it lasts
    clock.advance(2 * 86400)
    await service.tick()
    assert await jobs() == [] and len(await jobs("done")) == 1
    t = await service.tournaments.get(t.id)
    assert len(t.data.rounds) == 1 and t.row.round_deadline is not None


async def test_a_stalled_watchdog_waits_for_a_recent_change(service, store, clock):
    """A round whose pairing job was lost (done, yet nothing paired) is enqueued again only
    once the tournament has waited STALLED_PAIRING."""
    t = await created(service)
    for p in PEOPLE[:4]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    await take(store)  # delivered and lost: done, yet the round never paired
    clock.advance(STALLED_PAIRING - 60)
    await service.tick()
    assert await take(store, "tourpair") == []
    clock.advance(120)
    await service.tick()
    assert [r["number"] for r in await take(store, "tourpair")] == [1]


async def test_a_thread_made_before_a_failure_is_where_the_match_starts(
        service, store, monkeypatch):
    """Delivering a tournament match: its thread is remembered in the outbox row as soon as
    it is made, so a retry after a failure (or a stop) before the match started there starts
    the match in that thread and never makes a second one."""
    import json
    from types import SimpleNamespace

    from bot.delivery import Delivery
    from bot.outbox import decode
    from bot.store import OutboxRow

    t = await created(service)
    for p in PEOPLE[:4]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    for row in await store.conn.fetch("SELECT * FROM outbox WHERE kind = 'tourpair'"):
        payload = json.loads(row["payload"])
        await service.tournaments.pair_job(payload["tournament_id"], payload["number"], compute)
    made: list[str] = []

    async def start_thread(parent_id, *, name, auto_archive_duration, type):
        made.append(name)
        return {"id": str(77_000 + len(made))}

    client = SimpleNamespace(http=SimpleNamespace(start_thread_without_message=start_thread))
    delivery = Delivery(client, store, service, None, answers=None, api_base="http://unused",
                        on_dm_closed=lambda user: None)
    real_place, failures = service.tournaments.place, []

    async def place_failing_once(match_id, thread_id):
        if not failures:
            failures.append(thread_id)
            raise RuntimeError("stopped before the match started")
        return await real_place(match_id, thread_id)

    monkeypatch.setattr(service.tournaments, "place", place_failing_once)

    async def row_now(outbox_id):
        found = await store.conn.fetchrow("SELECT * FROM outbox WHERE id = $1", outbox_id)
        return OutboxRow(found["id"], found["lane"], found["kind"],
                         json.loads(found["payload"]), found["attempts"], found["created_at"])

    first = (await store.conn.fetch(
        "SELECT id FROM outbox WHERE kind = 'tourmatch' ORDER BY id"))[0]["id"]
    row = await row_now(first)
    with pytest.raises(RuntimeError):
        await delivery.deliver(row, decode(row.kind, row.payload))
    row = await row_now(first)  # as the retry reads it
    assert row.payload["thread_id"] == 77_001
    result = await delivery.deliver(row, decode(row.kind, row.payload))
    assert result == {"thread_id": 77_001, "placed": True} and len(made) == 1
    match = await service.get(decode(row.kind, row.payload).match_id)
    assert match.row.channel_id == 77_001 and match.status == "active"


@pytest.mark.parametrize(("option", "text", "expected"), [
    ("round_time", "soon", "TOURNAMENT_BAD_ROUND_TIME"),
    ("round_time", "91d", "TOURNAMENT_ROUND_TIME_RANGE"),
    ("round_time", "60d", None),  # a long round is fine, though a time per move stops at 30 days
    ("signup_time", "soon", "TOURNAMENT_BAD_SIGNUP"),
    ("signup_time", "91d", "TOURNAMENT_SIGNUP_RANGE"),
])
async def test_round_and_signup_errors_name_their_own_option(service, option, text, expected):
    """Issue 51 point 10: a bad round_time or signup was answered with the time per move's
    words and range (1 minute to 30 days), so a 60-day round was refused as a time per move."""
    if expected is None:
        spec(service, **{option: text})
        return
    with pytest.raises(BadRequest) as refused:
        spec(service, **{option: text})
    assert refused.value.phrase.template == getattr(strings, expected, expected)
    assert "time per move" not in str(refused.value)
