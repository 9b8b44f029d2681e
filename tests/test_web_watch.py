"""How live pages learn of new versions: a move committed in this process hands its match's row
to the pages (no read per move, and the row is the match as stored, die rolls included), the
history is read only where it grew, every stream of a match wakes from one shared wait (a
stream that closes cancels no other's) a moment after the change (the mover's answer goes
first), keep-alives go to the streams of matches that stay idle, and a version seen never
goes back."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random

import aiohttp
import pytest
from support import ALICE, BOB, ghostone_for_three

from bot.pool import Workers
from bot.store import Moved
from bot.web.pages import Stream, Watch
from bot.web.server import WebServer, _Standalone


@pytest.fixture
async def quiet_site(store, service):
    """The pages as inside the bot (moves handed over), with the versions' poll made rare so
    that any read a move causes is the move's own."""
    workers = Workers(1, "thread")
    server = WebServer(_Standalone(store, service, workers), None, "127.0.0.1", 0,  # type: ignore[arg-type]
                       base_url="https://corral.example.org")
    server.pages.watch.poll = 3600.0
    await server.start()
    service.on_commit = server.kick  # as bot/client.py wires them
    service.ctx.on_moved = server.moved
    yield f"http://127.0.0.1:{server.port}", server
    await server.stop()
    workers.shutdown()


class Counting:
    """Counts the calls of some of the store's reads (and the `after` of each log read)."""

    def __init__(self, store, names):
        self.calls: dict[str, list] = {name: [] for name in names}
        for name in names:
            real = getattr(store, name)

            async def counted(*args, _real=real, _name=name, **kw):
                result = await _real(*args, **kw)
                self.calls[_name].append((args, result))
                return result

            setattr(store, name, counted)


async def mancala(service, channel_id: int):
    """A Progressive Mancala match of Alice (to move) and Bob, started."""
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=channel_id, first="me")
    return await service.accept(match.id, BOB.user_id)


async def states(response):
    """The stream's state events, one by one."""
    data = b""
    while True:
        line = await asyncio.wait_for(response.content.readline(), 10)
        if line.startswith(b"data: "):
            data = line[6:]
        elif line == b"\n" and data:
            yield json.loads(data)
            data = b""


async def test_a_move_reaches_the_stream_without_reading_the_match_or_its_log(
        quiet_site, service, store):
    base, server = quiet_site
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=500, first="me",
                                     move_seconds=86400)
    match = await service.accept(match.id, BOB.user_id)
    await service.start_vacation(BOB.user_id, 3)  # his deadlines move past it
    async with aiohttp.ClientSession() as session, session.get(
            f"{base}/m/{match.row.web_token}/live?lang=en") as response:
        stream = states(response)
        first = await anext(stream)
        assert first["version"] == match.row.version
        counting = Counting(store, ("get_match", "match_versions", "moves", "vacations"))
        for ply in range(1, 5):
            mover = match.to_move()
            notation = service.legal_moves_for(match, mover.user_id)[0]
            match = (await service.play(match.id, mover.user_id, notation)).match
            seen = await anext(stream)
            assert seen["version"] == match.row.version and len(seen["moves"]) == ply
            assert seen["deadline"]
        # the move handed its row, its log entries and its mover's vacations over
        assert all(calls == [] for calls in counting.calls.values()), counting.calls
        # and the page says what a page made from reads says
        server.pages.cache = type(server.pages.cache)()
        server.pages._replays.clear()
        async with session.get(f"{base}/m/{match.row.web_token}/state.json?lang=en") as fresh:
            assert await fresh.json() == seen
    assert len(counting.calls["moves"]) == 1 and len(counting.calls["vacations"]) >= 1


@pytest.mark.parametrize("game_id", ["progressive-mancala", "consequence", "ghostone"])
async def test_the_row_a_move_hands_over_is_the_match_as_stored(service, store, game_id):
    handed = []
    service.ctx.on_moved = handed.append
    service.dice = random.Random(3)
    if game_id == "ghostone":
        match = await ghostone_for_three(service, 700)
    else:
        match = await service.open_match(game_id=game_id, options={}, host=ALICE,
                                         opponent=BOB, guild_id=1, channel_id=700, first="me")
        match = await service.accept(match.id, BOB.user_id)
    chooser = random.Random(game_id)
    for _ in range(40):
        if match.status != "active" or (mover := match.to_move()) is None:
            break
        notation = chooser.choice(service.legal_moves_for(match, mover.user_id))
        prior = match.row.version
        match = (await service.play(match.id, mover.user_id, notation)).match
        stored = await store.get_match(match.id)
        assert stored is not None
        # `has_conditionals` is what a read says of the queue, not a column of the match
        assert dataclasses.replace(handed[-1].row, has_conditionals=None) == \
            dataclasses.replace(stored, has_conditionals=None)
        # every log entry from the version it began from on (die rolls included)
        assert handed[-1].since == prior
        assert handed[-1].entries == tuple(await store.moves(match.id, handed[-1].since - 1))
        for user_id, vacations in handed[-1].vacations.items():
            assert list(vacations) == await store.vacations(user_id)
    assert len(handed) >= 10


@contextlib.asynccontextmanager
async def watching(store, poll: float, ping: float, settle: float = 0.0):
    """A started Watch over `store` whose deliveries are recorded (`watch.sent`: match,
    version and how many streams), writing the version to each stream; stopped at the end."""
    sent: list[tuple[int, int, int]] = []

    async def send(match_id, version, streams):
        sent.append((match_id, version, len(streams)))
        for stream in streams:
            if await stream.write(f"v{version}".encode()):
                stream.sent = version

    watch = Watch(lambda: store, send, poll=poll, ping=ping,  # type: ignore[arg-type, return-value]
                  settle=settle)
    watch.sent = sent  # type: ignore[attr-defined]
    watch.start()
    try:
        yield watch
    finally:
        await watch.stop()


class Sink:
    """A viewer's response: what was written to it (`fail`: its connection is gone)."""

    def __init__(self, fail: bool = False):
        self.got: list[bytes] = []
        self.fail = fail

    async def write(self, data: bytes) -> None:
        if self.fail:
            raise ConnectionResetError
        self.got.append(data)


def viewer(watch, match_id: int, version: int = 1, fail: bool = False) -> tuple[Stream, Sink]:
    sink = Sink(fail)
    stream = Stream(sink, None, "en")
    watch.add(match_id, version, stream)
    return stream, sink


async def until(condition, seconds: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        assert loop.time() < end, "not in time"
        await asyncio.sleep(0.005)


class Versions:
    """A store that answers the versions' poll with what the test says."""

    def __init__(self):
        self.versions: dict[int, int] = {}
        self.reads = 0

    async def match_versions(self, ids):
        self.reads += 1
        return {i: self.versions[i] for i in ids if i in self.versions}


def moved(match_id: int, version: int) -> Moved:
    """A move as it hands its match over (only what the watch reads of the row)."""
    row = type("Row", (), {"id": match_id, "version": version})()
    return Moved(row, version - 1)  # type: ignore[arg-type]


async def test_one_delivery_serves_every_stream_and_a_closed_stream_ends_alone():
    store = Versions()
    async with watching(store, poll=3600.0, ping=3600.0) as watch:
        viewers = [viewer(watch, 7) for _ in range(3)]
        gone, _ = viewer(watch, 7, fail=True)  # its connection dropped
        await until(lambda: all(sink.got == [b"v1"] for _, sink in viewers))
        assert gone.closed.done() and not any(stream.closed.done() for stream, _ in viewers)
        watch.remove(7, gone)
        viewers[0][0].close()  # a viewer leaves
        watch.remove(7, viewers[0][0])
        store.versions[7] = 2
        watch.kick()
        await until(lambda: all(sink.got == [b"v1", b"v2"] for _, sink in viewers[1:]))
        assert viewers[0][1].got == [b"v1"]
        assert watch.sent[-1] == (7, 2, 2)  # one delivery for both streams left
        assert watch.version(7) == 2 and watch.connections == 2


async def test_moves_are_sent_once_settled_in_one_delivery_per_match_for_a_burst():
    store = Versions()
    async with watching(store, poll=3600.0, ping=3600.0, settle=0.3) as watch:
        sinks = {m: viewer(watch, m)[1] for m in (7, 8, 9)}
        await until(lambda: all(sink.got == [b"v1"] for sink in sinks.values()))
        loop = asyncio.get_running_loop()
        began = loop.time()
        watch.moved(moved(7, 2))
        await asyncio.sleep(0.1)
        watch.moved(moved(8, 2))  # within the first one's settle: sent with it
        watch.moved(moved(8, 3))
        await asyncio.sleep(0.1)
        assert len(watch.sent) == 3  # nothing yet: the mover's answer goes first
        await until(lambda: sinks[7].got[-1:] == [b"v2"] and sinks[8].got[-1:] == [b"v3"])
        assert 0.25 <= loop.time() - began < 0.5  # the first move's settle, not the second's
        assert sorted(watch.sent[3:]) == [(7, 2, 1), (8, 3, 1)]
        assert sinks[9].got == [b"v1"]  # no viewer of match 9 was sent anything


async def test_keep_alives_go_to_matches_that_stay_idle_and_not_to_those_that_move():
    store = Versions()
    async with watching(store, poll=3600.0, ping=0.6) as watch:
        loop = asyncio.get_running_loop()
        began = loop.time()
        sinks = {m: viewer(watch, m)[1] for m in (7, 8)}
        await asyncio.sleep(0.4)
        watch.moved(moved(7, 2))
        await until(lambda: sinks[7].got == [b"v1", b"v2"])
        # match 8 stayed idle: its keep-alive falls due 0.6 s after it was first sent to
        await until(lambda: len(sinks[8].got) == 2)
        assert sinks[8].got[1] == b": ping\n\n" and 0.55 <= loop.time() - began < 0.9
        assert len(sinks[7].got) == 2  # match 7 moved 0.2 s ago: no keep-alive yet
        await until(lambda: len(sinks[7].got) == 3)
        assert sinks[7].got[2] == b": ping\n\n" and loop.time() - began >= 0.95


class Stalled(Versions):
    """A database that never answers the versions' query."""

    async def match_versions(self, ids):
        self.reads += 1
        await asyncio.sleep(3600)
        return {}


async def test_idle_streams_get_keep_alives_even_while_the_versions_query_hangs():
    store = Stalled()
    async with watching(store, poll=0.01, ping=0.2) as watch:
        _, sink = viewer(watch, 7)
        loop = asyncio.get_running_loop()
        began = loop.time()
        await until(lambda: len(sink.got) == 2)
        assert sink.got == [b"v1", b": ping\n\n"]  # nothing moved: a keep-alive
        assert loop.time() - began >= 0.15 and store.reads == 1  # the one query still hangs
        await until(lambda: len(sink.got) == 3)


async def test_a_viewer_that_stops_reading_is_let_go_and_no_other_waits_for_it():
    class Backed(asyncio.WriteTransport):  # its viewer no longer empties its buffer
        def is_closing(self) -> bool:
            return False

        def get_write_buffer_size(self) -> int:
            return 1 << 20

    store = Versions()
    async with watching(store, poll=3600.0, ping=3600.0) as watch:
        slow, fast = Sink(), Sink()
        lagging, reading = Stream(slow, Backed(), "en"), Stream(fast, None, "en")
        watch.add(7, 1, lagging)
        watch.add(7, 1, reading)
        await until(lambda: fast.got == [b"v1"])
        assert slow.got == [] and lagging.closed.done() and not reading.closed.done()


async def test_a_version_seen_never_goes_back():
    store = Versions()
    async with watching(store, poll=0.01, ping=3600.0) as watch:
        stream, _ = viewer(watch, 7)
        store.versions[7] = 1
        # a move in this process, then a poll that read the version before it committed
        row = moved(7, 3)
        watch.moved(row)
        store.versions[7] = 2
        reads = store.reads
        await until(lambda: store.reads >= reads + 2)
        assert watch.version(7) == 3
        assert watch.last_move(7, 3) is row and watch.last_move(7, 2) is None
        watch.remove(7, stream)  # its last viewer left: nothing is kept of it
        assert watch.version(7) == -1 and watch.last_move(7, 3) is None


async def test_a_takeback_reaches_the_stream_and_its_history_is_read_on(quiet_site, service):
    base, _ = quiet_site
    match = await mancala(service, 501)
    async with aiohttp.ClientSession() as session, session.get(
            f"{base}/m/{match.row.web_token}/live?lang=en") as response:
        stream = states(response)
        await anext(stream)
        for user in (ALICE, BOB):
            match = (await service.play(match.id, user.user_id,
                                        service.legal_moves_for(match, user.user_id)[0])).match
            assert len((await anext(stream))["moves"]) == match.ply()
        offer = await service.request_takeback(match.id, BOB.user_id)
        _, back = await service.answer_offer(offer.id, ALICE.user_id, True)
        seen = await anext(stream)  # not a move: found by the versions' query the commit kicks
        assert seen["version"] == back.row.version and len(seen["moves"]) == back.ply() == 1
        match = (await service.play(back.id, BOB.user_id,
                                    service.legal_moves_for(back, BOB.user_id)[-1])).match
        seen = await anext(stream)
        assert len(seen["moves"]) == 2 and seen["version"] == match.row.version
