"""The web pages under hostile load (issue 51): a live stream ends the moment its viewer
leaves, each stream gets its keep-alive on its own idle time, caps answer 503/429 with
Retry-After and are counted, a connection that never finishes its headers is dropped,
malformed requests are answered briefly with the security headers and logged once a minute
per client, and live streams carry the security headers."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiohttp
import pytest
from support import ALICE, BOB

from bot.pool import Workers
from bot.service import MatchService
from bot.store import Store
from bot.web.gate import LimitError, WebLimits
from bot.web.pages import CSP, Stream, Watch
from bot.web.server import Metrics, WebServer, _Standalone


@pytest.fixture
async def store(tmp_path):
    """SQLite only: what is tested here is the web door, not a back end."""
    store = await Store.open(str(tmp_path / "corral.sqlite3"))
    yield store
    await store.close()


@pytest.fixture
def service(store, clock):
    return MatchService(store, clock=clock)


@contextlib.asynccontextmanager
async def serving(store, service, metrics: Metrics | None = None, **limits):
    workers = Workers(1, "thread")
    server = WebServer(_Standalone(store, service, workers), metrics, "127.0.0.1", 0,  # type: ignore[arg-type]
                       limits=WebLimits(**limits))
    await server.start()
    try:
        yield f"http://127.0.0.1:{server.port}", server
    finally:
        await server.stop()
        workers.shutdown()


async def mancala(service, channel_id: int = 500):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=channel_id, first="me")
    return await service.accept(match.id, BOB.user_id)


async def until(condition, seconds: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        assert loop.time() < end, "not in time"
        await asyncio.sleep(0.01)


async def first_event(response: aiohttp.ClientResponse) -> bytes:
    data = b""
    while b"\n\n" not in data:
        data += await asyncio.wait_for(response.content.readany(), 10)
    return data


async def test_a_live_stream_ends_as_soon_as_its_viewer_leaves(store, service):
    """Nothing moves and no keep-alive is due: the stream still ends (before, its handler
    waited for a write that never came, and each closed viewer was kept)."""
    match = await mancala(service)
    async with serving(store, service) as (base, server):
        for _ in range(5):
            async with aiohttp.ClientSession() as session, session.get(
                    f"{base}/m/{match.row.web_token}/live") as response:
                await first_event(response)
                assert server.pages.watch.connections == 1 and server.gate.streams == 1
            await until(lambda: server.gate.streams == 0, 2.0)
            assert server.pages.watch.connections == 0
            assert server.pages.watch.version(match.id) == -1  # nothing kept of the match


def sender(sent: list[int]):
    """A watch's `send` that writes `v` to each stream behind and notes how many there were."""
    async def send(match_id, version, streams):
        sent.append(len(streams))
        for stream in streams:
            if await stream.write(b"v"):
                stream.sent = version

    return send


class Sink:
    def __init__(self):
        self.got: list[bytes] = []

    async def write(self, data: bytes) -> None:
        self.got.append(data)


async def test_each_stream_gets_its_keep_alive_on_its_own_idle_time():
    """A new viewer's first event does not put off the keep-alive of the match's others."""
    class Versions:
        async def match_versions(self, ids):
            return {}

    sent: list[int] = []
    send = sender(sent)

    store = Versions()
    watch = Watch(lambda: store, send, poll=3600.0, ping=0.6)  # type: ignore[arg-type, return-value]
    watch.start()
    try:
        loop = asyncio.get_running_loop()
        first, second = Sink(), Sink()
        began = loop.time()
        watch.add(7, 1, Stream(first, None, "en"))
        await asyncio.sleep(0.4)
        watch.add(7, 1, Stream(second, None, "en"))  # its first event goes out now
        await until(lambda: len(first.got) == 2)
        assert first.got == [b"v", b": ping\n\n"]
        assert loop.time() - began < 0.9  # due 0.6 s after its own first event
        assert second.got == [b"v"]  # not yet: it was written to 0.2 s ago
        await until(lambda: len(second.got) == 2)
        assert loop.time() - began >= 0.95
    finally:
        await watch.stop()


class Counted(Stream):
    """A stream that counts how often the watch looks at it."""

    looked = 0

    @property  # type: ignore[override]
    def sent(self) -> int:
        Counted.looked += 1
        return self.__dict__.get("_sent", -1)

    @sent.setter
    def sent(self, value: int) -> None:
        self.__dict__["_sent"] = value


async def test_a_join_or_a_leave_walks_none_of_the_match_s_other_streams():
    """Before, each new viewer made the watch scan every stream of its match for the ones
    behind, and each leave searched a list: O(N) per viewer, O(N^2) for a crowd."""
    sent: list[int] = []
    send = sender(sent)

    watch = Watch(lambda: None, send, poll=3600.0, ping=3600.0)
    watch.start()
    try:
        crowd = [Counted(Sink(), None, "en") for _ in range(2000)]
        for stream in crowd:
            watch.add(7, 1, stream)
        await until(lambda: all(stream.sent == 1 for stream in crowd))
        Counted.looked = 0
        newcomer = Stream(Sink(), None, "en")
        watch.add(7, 1, newcomer)
        await until(lambda: newcomer.sent == 1)
        leaving = crowd.pop(1000)
        watch.remove(7, leaving)
        assert Counted.looked == 0 and sent[-1] == 1
        watch.moved(moved_row(7, 2))  # a move goes to them all, once each
        await until(lambda: all(stream.sent == 2 for stream in crowd))
        assert sent[-1] == 2000
    finally:
        await watch.stop()


def moved_row(match_id: int, version: int):
    from bot.store import Moved

    row = type("Row", (), {"id": match_id, "version": version})()
    return Moved(row, version - 1)  # type: ignore[arg-type]


async def test_stream_caps_answer_with_retry_after_and_are_counted(store, service):
    metrics = Metrics()
    first, second = await mancala(service, 501), await mancala(service, 502)
    async with serving(store, service, metrics, per_client=2, per_match=3, streams=4) as (
            base, server), aiohttp.ClientSession() as session:
        opened = []

        async def open_live(match, client: str) -> aiohttp.ClientResponse:
            response = await session.get(f"{base}/m/{match.row.web_token}/live",
                                         headers={"X-Forwarded-For": client})
            if response.status == 200:
                await first_event(response)
                opened.append(response)
            return response

        try:
            assert (await open_live(first, "203.0.113.1")).status == 200
            assert (await open_live(first, "203.0.113.1")).status == 200
            refused = await open_live(first, "203.0.113.1")  # a third from one client
            assert refused.status == 429 and refused.headers["Retry-After"] == "30"
            assert "Too many live pages" in await refused.text()
            assert (await open_live(first, "203.0.113.2")).status == 200
            full = await open_live(first, "203.0.113.3")  # a fourth on one match
            assert full.status == 503 and full.headers["Retry-After"] == "30"
            assert (await open_live(second, "203.0.113.3")).status == 200
            busy = await open_live(second, "203.0.113.4")  # a fifth in all
            assert busy.status == 503
            assert server.gate.refused == {"client": 1, "match": 1, "streams": 1}
            assert server.gate.streams == 4
            async with session.get(f"{base}/metrics") as response:
                text = await response.text()
            assert 'corral_web_refused_total{reason="client"} 1.0' in text
            assert "corral_web_streams 4.0" in text
        finally:
            for response in opened:
                response.close()
        await until(lambda: server.gate.streams == 0, 2.0)
        assert (await open_live(first, "203.0.113.1")).status == 200  # room again


async def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy():
    from bot.web.gate import Gate

    gate = Gate(WebLimits())
    assert gate.client("127.0.0.1", "198.51.100.7, 203.0.113.9") == "203.0.113.9"
    assert gate.client("127.0.0.1", None) == ""  # a process on this machine: no client cap
    assert gate.client("192.0.2.5", "203.0.113.9") == "192.0.2.5"  # not a proxy of ours
    assert gate.client("127.0.0.1", "not an address") == "127.0.0.1"
    fenced = Gate(WebLimits.from_env({"CORRAL_WEB_TRUSTED_PROXIES": "none"}))
    assert fenced.client("127.0.0.1", "203.0.113.9") == "127.0.0.1"


def test_limits_from_the_environment_and_within_the_descriptor_limit():
    assert WebLimits.from_env({"CORRAL_WEB_MAX_STREAMS": "500"}).streams == 500
    with pytest.raises(LimitError, match="CORRAL_WEB_MAX_STREAMS"):
        WebLimits.from_env({"CORRAL_WEB_MAX_STREAMS": "lots"})
    with pytest.raises(LimitError, match="CORRAL_WEB_TRUSTED_PROXIES"):
        WebLimits.from_env({"CORRAL_WEB_TRUSTED_PROXIES": "10.0.0.0/8 caddy"})
    small = WebLimits().within(1024)  # a shell's default soft limit
    assert small.connections == 1024 - 256 and small.streams < small.connections
    assert WebLimits().within(65536) == WebLimits()


async def test_connections_over_the_cap_get_503_at_the_door_and_pages_answer_after(
        store, service):
    match = await mancala(service)
    async with serving(store, service, connections=5, per_peer=100) as (base, server):
        port = server.port
        held = []
        for _ in range(5):  # five live streams: connections that are requests, not silent
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /m/{match.row.web_token}/live HTTP/1.1\r\nHost: x\r\n\r\n"
                         .encode())
            await reader.readuntil(b"\n\n")
            held.append(writer)
        await until(lambda: server.gate.connections == 5 and server.gate.streams == 5)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        answer = await asyncio.wait_for(reader.read(), 5)
        assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After: 30" in answer
        writer.close()
        assert server.gate.refused["connections"] == 1 and server.gate.connections == 5
        for w in held:
            w.close()
        await until(lambda: server.gate.connections == 0)
        async with aiohttp.ClientSession() as session, session.get(f"{base}/static/web.css") as r:
            assert r.status == 200


async def test_silent_sockets_give_their_place_to_a_real_request(store, service):
    """Connections opened and left silent fill the door; the next real request takes the
    place of the oldest of them (before, 1,100 bare sockets took /healthz down for 110 s)."""
    async with serving(store, service, connections=5, per_peer=100) as (base, server):
        silent = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(5)]
        await until(lambda: server.gate.connections == 5)
        async with aiohttp.ClientSession() as session, session.get(f"{base}/static/web.css") as r:
            assert r.status == 200
        assert server.gate.refused["silent"] == 1
        assert await asyncio.wait_for(silent[0][0].read(), 5) == b""  # the oldest was dropped
        for _, writer in silent:
            writer.close()
        await until(lambda: server.gate.connections == 0)


async def test_a_connection_that_never_finishes_its_headers_is_dropped(store, service):
    async with serving(store, service, header_seconds=0.3) as (base, server):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /static/web.css HTTP/1.1\r\nHost: x\r\n")  # and nothing more
        await writer.drain()
        loop = asyncio.get_running_loop()
        began = loop.time()
        assert await asyncio.wait_for(reader.read(), 5) == b""  # dropped, nothing answered
        assert 0.25 <= loop.time() - began < 2.0
        assert server.gate.refused["headers"] == 1
        await until(lambda: server.gate.connections == 0)
        # a request sent whole in time is answered, however slowly its bytes came
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        for part in (b"GET /static/web.css HTTP/1.1\r\n", b"Host: x\r\n", b"\r\n"):
            writer.write(part)
            await asyncio.sleep(0.05)
        assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"HTTP/1.1 200")
        writer.close()


async def test_malformed_requests_get_a_short_answer_and_one_log_line_a_minute(
        store, service, caplog):
    async with serving(store, service) as (base, server):
        caplog.set_level(logging.DEBUG)
        answers = []
        for i in range(40):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /m/<script>" + str(i).encode() + b" HTTP/1.1\r\nHost: x\r\n"
                         b"Bad Header Line\r\n\r\n")
            answers.append(await asyncio.wait_for(reader.read(), 5))
            writer.close()
        for answer in answers:
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith((b"HTTP/1.0 400", b"HTTP/1.1 400"))
            assert b"Content-Security-Policy: " + CSP.encode() in head
            assert b"X-Content-Type-Options: nosniff" in head
            assert body == b"Bad request\n"  # nothing of the request echoed
        lines = [r for r in caplog.records if r.name.startswith(("aiohttp", "bot.web"))
                 and r.levelno >= logging.WARNING]
        assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]
        assert "<script>" not in lines[0].getMessage()
        assert server.gate.bad_requests == 40


async def test_live_streams_carry_the_security_headers(store, service):
    match = await mancala(service)
    async with serving(store, service) as (base, _), aiohttp.ClientSession() as session:
        async with session.get(f"{base}/m/{match.row.web_token}/live") as response:
            await first_event(response)
            assert response.headers["Content-Security-Policy"] == CSP
            assert response.headers["X-Frame-Options"] == "DENY"
            assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_a_viewer_who_leaves_cancels_neither_the_picture_nor_the_others_waiting():
    """Handlers are cancelled when their client goes: the one that began making a cached
    value must not take the others' answer down with it."""
    from bot.web.pages import Cache

    cache = Cache()
    made = 0
    release = asyncio.Event()

    async def make() -> bytes:
        nonlocal made
        made += 1
        await release.wait()
        return b"png"

    leaving = asyncio.create_task(cache.get("board", make))
    staying = asyncio.create_task(cache.get("board", make))
    await asyncio.sleep(0.01)
    leaving.cancel()  # the first viewer's connection dropped
    await asyncio.sleep(0.01)
    release.set()
    assert await staying == b"png"
    assert await cache.get("board", make) == b"png" and made == 1
    assert leaving.cancelled()


def test_a_bad_limit_stops_the_bot_with_one_line():
    from bot.config import ConfigError, load_settings

    settings = load_settings({"DISCORD_TOKEN": "t", "CORRAL_WEB_MAX_STREAMS": "300"},
                             env_file="/nonexistent")
    assert settings.web_limits.streams == 300
    with pytest.raises(ConfigError, match="CORRAL_WEB_MAX_STREAMS='-1'"):
        load_settings({"DISCORD_TOKEN": "t", "CORRAL_WEB_MAX_STREAMS": "-1"},
                      env_file="/nonexistent")


def test_an_address_at_its_cap_takes_no_one_else_s_place():
    from bot.web.gate import Gate

    gate = Gate(WebLimits(connections=3, per_peer=2))
    dropped: list[str] = []

    def door(name: str):
        def drop() -> None:
            dropped.append(name)
            gate.close_connection("192.0.2.9" if name.startswith("b") else "192.0.2.1", name)
        return drop

    assert gate.open_connection("192.0.2.1", "a1", door("a1")) is None  # silent
    assert gate.open_connection("192.0.2.9", "b1", door("b1")) is None
    assert gate.open_connection("192.0.2.9", "b2", door("b2")) is None
    assert gate.open_connection("192.0.2.9", "b3", door("b3")) == "peer"  # its third
    assert dropped == [] and gate.connections == 3
    assert gate.open_connection("192.0.2.5", "c1", door("c1")) is None  # a newcomer
    assert dropped == ["a1"] and gate.connections == 3  # the oldest silent gave its place
