"""`GET /healthz` and `GET /metrics` on CORRAL_WEB_BIND (default 127.0.0.1:8080), for a
supervisor's health check and a Prometheus scraper; and the web companion's match pages
(`bot/web/pages.py`) on the same address. `python -m bot.web` serves the pages (and /healthz)
as a process of its own, beside the bot, reading the same store.

/healthz: 200 `ok` when every shard's gateway connection is up and the store answers a query;
503 with the reason otherwise. /metrics: the Prometheus text format (prometheus_client): moves,
first-response latency, the outbox's depth and the age of its oldest row, Discord's 429s,
picture and AI job queues, gateway latency per shard, scheduled backups, and the process's own
CPU and memory. Only counts and times: never a user, channel, server or match.

The first response to an interaction and every 429 are seen on the way out, through an aiohttp
trace on discord.py's HTTP session, so no command handler carries metrics code.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import re
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Protocol

import aiohttp
from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp_session import session_middleware
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from .gate import RETRY_AFTER, Gate, WebLimits, raise_descriptor_limit
from .pages import Pages, guard, plain_answer
from .signin import SignInSettings

if TYPE_CHECKING:
    from ..service import Service
    from ..store import Moved, Store


class Served(Protocol):
    """What the endpoints read of the bot (the client, which starts them: described here, not
    imported, so that the client and this module form no import circle)."""

    store: Store
    service: Service

    @property
    def latency(self) -> float: ...

    def is_closed(self) -> bool: ...

    def is_ready(self) -> bool: ...

log = logging.getLogger(__name__)
DISCORD_EPOCH = 1_420_070_400_000  # ms
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
# Discord waits 3 s for the first answer; the buckets resolve well below it
GC_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
STORE_TIMEOUT = 5.0  # seconds the store has to answer /healthz


class Metrics:
    """What the bot counts as it goes (histograms, counters) and reads at each scrape."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        self.first_response = Histogram(
            "corral_first_response_seconds",
            "From an interaction's creation (its snowflake) to the bot's first answer",
            buckets=LATENCY_BUCKETS, registry=self.registry)
        self.rate_limited = Counter(
            "corral_discord_rate_limited", "429 answers from Discord, by X-RateLimit-Scope",
            ["scope"], registry=self.registry)
        self.gc_pause = Histogram(
            "corral_gc_pause_seconds", "Pauses of Python's cyclic garbage collector (the whole "
            "process stops), by generation", ["generation"], buckets=GC_BUCKETS,
            registry=self.registry)
        gc.callbacks.append(_GcTimer(self))
        self.snapshot = _Snapshot()
        self.registry.register(self.snapshot)
        self._gate: _GateFigures | None = None

    def watch_gate(self, gate: Gate) -> None:
        """The web door's figures (connections, streams, refusals, bad requests) too."""
        if self._gate is not None:
            self.registry.unregister(self._gate)
        self._gate = _GateFigures(gate)
        self.registry.register(self._gate)

    def trace_config(self) -> aiohttp.TraceConfig:
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._request_end)
        return trace

    async def _request_end(self, session: Any, context: SimpleNamespace,
                           params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        if status == 429:
            scope = params.response.headers.get("X-RateLimit-Scope", "unknown")
            self.rate_limited.labels(scope if scope in ("user", "global", "shared")
                                     else "unknown").inc()
            return
        found = _CALLBACK.search(params.url.path)
        if found and status < 300 and params.method == "POST":
            created = ((int(found.group(1)) >> 22) + DISCORD_EPOCH) / 1000
            self.first_response.observe(max(0.0, time.time() - created))

    async def refresh(self, bot: Served) -> None:
        """Read the store's figures for this scrape (committed data, off the event loop)."""
        values: dict[str, Any] = {}
        store = bot.store
        pending, oldest = await store.outbox_backlog()
        now = bot.service.clock()
        values["outbox"] = pending
        values["outbox_age"] = max(0.0, now - oldest) if oldest is not None else 0.0
        values["moves"] = bot.service.ctx.moves_played
        values["pictures"] = bot.workers.waiting if hasattr(bot, "workers") else 0
        values["ai"] = bot.ai_workers.waiting if hasattr(bot, "ai_workers") else 0
        values["shards"] = shard_states(bot)
        scheduler = getattr(bot, "backups", None)
        if scheduler is not None:
            values["backup"] = (scheduler.last_success, scheduler.last_size,
                                scheduler.failures)
        self.snapshot.values = values

class _GcTimer:
    """A `gc.callbacks` entry timing each collection into its metrics' histogram; it takes
    itself off the list once those metrics are gone (tests make many)."""

    def __init__(self, metrics: Metrics):
        self._metrics = weakref.ref(metrics)
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        metrics = self._metrics()
        if metrics is None:
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(self)
            return
        if phase == "start":
            self._began = time.perf_counter()
        else:
            metrics.gc_pause.labels(str(info["generation"])).observe(
                time.perf_counter() - self._began)


class _Snapshot(Collector):
    """The figures `Metrics.refresh` read, as metric families."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def describe(self) -> Iterable[Metric]:
        return []  # read at each scrape: nothing to describe in advance

    def collect(self) -> Iterable[Metric]:
        v = self.values
        if not v:
            return
        yield CounterMetricFamily(
            "corral_moves", "Moves played through this process since it started (sum them "
            "over the shards; counting the store's whole log would cost a scan)",
            value=v["moves"])
        yield GaugeMetricFamily("corral_gc_frozen_objects", "Objects out of the garbage "
                                "collector's reach (gc.freeze: the start-up objects, and what "
                                "each full collection kept since the hourly thaw)",
                                value=gc.get_freeze_count())
        yield GaugeMetricFamily("corral_outbox_pending",
                                "Outbox rows (boards, notices, DMs) not yet delivered",
                                value=v["outbox"])
        yield GaugeMetricFamily("corral_outbox_oldest_age_seconds",
                                "Age of the oldest undelivered outbox row (0: none)",
                                value=v["outbox_age"])
        yield GaugeMetricFamily("corral_picture_jobs", "Pictures being drawn or queued",
                                value=v["pictures"])
        yield GaugeMetricFamily("corral_ai_jobs", "AI searches running or queued",
                                value=v["ai"])
        connected = GaugeMetricFamily("corral_gateway_connected",
                                      "1 while the shard's gateway connection is up",
                                      labels=["shard"])
        latency = GaugeMetricFamily("corral_gateway_latency_seconds",
                                    "Heartbeat round trip per shard", labels=["shard"])
        for shard, up, seconds in v["shards"]:
            connected.add_metric([str(shard)], 1.0 if up else 0.0)
            if math.isfinite(seconds):
                latency.add_metric([str(shard)], seconds)
        yield connected
        yield latency
        if "backup" in v:
            last, size, failures = v["backup"]
            if last is not None:
                yield GaugeMetricFamily("corral_backup_last_success_timestamp_seconds",
                                        "When the last scheduled backup was written",
                                        value=last)
                yield GaugeMetricFamily("corral_backup_last_size_bytes",
                                        "Size of the last scheduled backup", value=size)
            yield CounterMetricFamily("corral_backup_failures",
                                      "Scheduled backups that failed", value=failures)


class _GateFigures(Collector):
    """The web door's counts, read at each scrape."""

    REASONS = ("connections", "peer", "silent", "headers", "streams", "match", "client")

    def __init__(self, gate: Gate):
        self.gate = gate

    def describe(self) -> Iterable[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        gate = self.gate
        yield GaugeMetricFamily("corral_web_connections", "Open connections to the web pages",
                                value=gate.connections)
        yield GaugeMetricFamily("corral_web_streams", "Open live streams (match and "
                                "tournament pages)", value=gate.streams)
        refused = CounterMetricFamily(
            "corral_web_refused", "Connections and live streams refused or dropped by a cap: "
            "connections/peer (503 at the door), silent (a connection without a request, "
            "dropped for a newcomer), headers (no request in time), streams/match (503), client "
            "(429)", labels=["reason"])
        for reason in self.REASONS:
            refused.add_metric([reason], gate.refused[reason])
        yield refused
        yield CounterMetricFamily("corral_web_bad_requests", "Malformed requests and server "
                                  "errors answered (logged at most once a minute per client)",
                                  value=gate.bad_requests)


def shard_states(bot: Any) -> list[tuple[int, bool, float]]:
    """(shard id, connected, heartbeat latency) for each shard this process runs."""
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict):  # AutoShardedClient
        return [(shard_id, not info.is_closed(), info.latency)
                for shard_id, info in sorted(shards.items())]
    ws = getattr(bot, "ws", None)
    up = ws is not None and bool(getattr(ws, "open", False))
    return [(getattr(bot, "shard_id", None) or 0, up, bot.latency)]


async def health(bot: Served) -> tuple[bool, str]:
    if bot.is_closed() or getattr(bot, "_closing", False):
        return False, "stopping"
    if not bot.is_ready():
        return False, "not connected to Discord yet"
    down = [str(shard) for shard, up, _ in shard_states(bot) if not up]
    if down:
        return False, f"disconnected from Discord's gateway (shard {', '.join(down)})"
    if not hasattr(bot, "store"):
        return False, "the store is not open"
    try:
        await asyncio.wait_for(bot.store.ping(), STORE_TIMEOUT)
    except Exception as exc:  # any failure is the answer, not an error of the endpoint
        return False, f"the store does not answer ({type(exc).__name__})"
    return True, "ok"


_FULL_TEXT = b"Too many connections right now: try again in a minute.\n"
FULL = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: %d\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n%s"
        % (RETRY_AFTER, len(_FULL_TEXT), _FULL_TEXT))


class _Door(RequestHandler):
    """aiohttp's connection handler with the door's rules (`bot/web/gate.py`): a connection
    over a cap is answered 503 and closed before any request is read; one that has not sent
    its first request's headers `header_seconds` after it opened is dropped; a malformed
    request or a server error is answered briefly, with the security headers, and logged at
    most once a minute per client."""

    def __init__(self, manager: web.Server, *, gate: Gate, **kwargs: Any):
        super().__init__(manager, **kwargs)
        self.gate = gate
        self.peer: str | None = None
        self.counted = False
        self.header_timer: asyncio.TimerHandle | None = None
        self.tail = b""  # the last bytes read while the first request's headers are awaited

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peername = transport.get_extra_info("peername")
        self.peer = str(peername[0]) if isinstance(peername, tuple) and peername else None
        refused = self.gate.open_connection(self.peer, self, self._drop)
        if refused is not None:
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(FULL)
            transport.close()
            return
        self.counted = True
        self.header_timer = asyncio.get_running_loop().call_later(
            self.gate.limits.header_seconds, self._headers_late)
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.header_timer is not None:
            seen = self.tail + data
            if b"\r\n\r\n" in seen or b"\n\n" in seen:
                self.header_timer.cancel()
                self.header_timer = None
                self.gate.spoke(self)
            else:
                self.tail = seen[-3:]
        super().data_received(data)

    def _headers_late(self) -> None:
        self.header_timer = None
        self.gate.refused["headers"] += 1
        if self.transport is not None:
            self.transport.abort()

    def _drop(self) -> None:
        """A newcomer takes this silent connection's place: it stops counting at once."""
        self._uncount()
        if self.transport is not None:
            self.transport.abort()

    def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            self.gate.close_connection(self.peer, self)
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def connection_lost(self, exc: BaseException | None) -> None:
        if self.transport is None and not self.counted:
            return  # refused at the door: aiohttp never saw it
        self._uncount()
        super().connection_lost(exc)

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        headers = getattr(request, "headers", None) or {}
        client = self.gate.client(self.peer, headers.get("X-Forwarded-For")) or self.peer or "?"
        self.gate.bad_request(client, status, exc)
        if request.writer.output_size > 0:  # as aiohttp's own: the answer has begun
            raise ConnectionError("the response has begun: no error answer can follow")
        response = plain_answer(status)
        response.force_close()
        return response


class _Site(web.BaseSite):
    """A listening socket whose connections go through `_Door`."""

    __slots__ = ("_host", "_port", "_factory", "bound")

    def __init__(self, runner: web.BaseRunner, host: str, port: int,
                 factory: Callable[[], asyncio.Protocol]):
        super().__init__(runner, backlog=1024)
        self._host, self._port, self._factory = host, port, factory
        self.bound = port

    @property
    def name(self) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{self.bound}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        server = await loop.create_server(self._factory, self._host, self._port,
                                          backlog=self._backlog, reuse_address=True)
        self._server = server
        if server.sockets:
            self.bound = int(server.sockets[0].getsockname()[1])


class WebServer:
    """The health and metrics endpoints, and the match pages; nothing else is served (404)."""

    def __init__(self, bot: Served, metrics: Metrics | None, host: str, port: int, *,
                 base_url: str | None = None,
                 check: Callable[[], Awaitable[tuple[bool, str]]] | None = None,
                 limits: WebLimits | None = None, sign_in: SignInSettings | None = None,
                 activity: bool = False, frame_ancestors: str | None = None):
        self.bot, self.metrics, self.host, self.port = bot, metrics, host, port
        self.check = check or (lambda: health(bot))
        self.limits = limits or WebLimits()
        self.gate = Gate(self.limits)
        self.pages = Pages(bot, base_url, self.gate, sign_in=sign_in, activity=activity,
                           frame_ancestors=frame_ancestors)
        if metrics is not None:
            metrics.watch_gate(self.gate)
        self._runner: web.AppRunner | None = None

    def kick(self) -> None:
        """A change was committed in this process: live pages learn of it now."""
        self.pages.watch.kick()

    def moved(self, moved: Moved) -> None:
        """A move was committed in this process: its match's live pages show it."""
        self.pages.watch.moved(moved)

    async def start(self) -> None:
        """A port already in use is logged, and the bot plays on without the endpoints."""
        # the session middleware reads a session only where a handler asks for it
        app = web.Application(middlewares=[guard, session_middleware(self.pages.sessions)],
                              client_max_size=1024)
        app.router.add_get("/healthz", self._healthz)
        if self.metrics is not None:
            app.router.add_get("/metrics", self._metrics)
        self.pages.add_routes(app)
        # a handler whose client left is cancelled at once (a live stream ends with it)
        runner = web.AppRunner(app, access_log=None, handle_signals=False,
                               handler_cancellation=True)
        await runner.setup()
        descriptors = raise_descriptor_limit(self.limits.connections + 1024)
        limits = self.limits.within(descriptors)
        if limits != self.limits:
            log.warning("web: %s file descriptors allowed: at most %s connections and %s live "
                        "streams (raise LimitNOFILE for more)", descriptors, limits.connections,
                        limits.streams)
            self.limits = self.gate.limits = limits
        manager, loop = runner.server, asyncio.get_running_loop()
        assert manager is not None

        def door() -> _Door:
            return _Door(manager, gate=self.gate, loop=loop, access_log=None,
                         keepalive_timeout=limits.idle_seconds, max_headers=64)

        site = _Site(runner, self.host, self.port, door)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            log.error("cannot serve /healthz and /metrics on %s:%s (%s); set CORRAL_WEB_BIND",
                      self.host, self.port, exc.strerror or exc)
            return
        self._runner = runner
        self.pages.watch.start()
        self.port = site.bound
        host = f"[{self.host}]" if ":" in self.host else self.host
        log.info("serving /healthz and /metrics on http://%s:%s", host, self.port)

    async def stop(self) -> None:
        await self.pages.watch.stop()  # live streams end before the server waits for them
        await self.pages.accounts.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        ok, reason = await self.check()
        return web.Response(status=200 if ok else 503, text=reason + "\n",
                            headers={"Cache-Control": "no-store"})

    async def _metrics(self, request: web.Request) -> web.Response:
        assert self.metrics is not None  # routed only with metrics
        try:
            await self.metrics.refresh(self.bot)
        except Exception as exc:  # the process's own figures are still worth serving
            log.warning("metrics: could not read the store (%s)", exc)
            self.metrics.snapshot.values = {}  # no stale figures
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST,
                                                "Cache-Control": "no-store"})


class _Standalone:
    """The pages' source in `python -m bot.web`: the store, a service to read it through, and
    picture workers; no Discord connection. `store` is None while the database cannot be
    served (a restore put a file there that this Corral cannot read): pages answer 503."""

    def __init__(self, store: Store | None, service: Service | None, workers: Any):
        self.store, self.service, self.workers = store, service, workers


class CannotServe(Exception):
    """`python -m bot.web` must not serve this database; the message is one line."""


RESTORE_POLL = 2.0  # seconds between two looks at which file the database's path names


async def open_for_pages(database: str) -> Store:
    """The store, opened as the pages need it: never created (a mistyped path is not an
    empty database), never migrated (that is the bot's work, under its lock), and only at
    the schema this Corral writes."""
    import sqlite3

    from ..store import Store
    from ..store.instance import is_postgres, newest_schema, real_path, sqlite_schema

    if not is_postgres(database):
        path = real_path(database)
        if not path.is_file():
            raise CannotServe(f"no database at {database}: start the bot first (it creates "
                              "the database), or fix CORRAL_DATABASE")
        try:  # read only, before anything opens it for writing (which would change it)
            _check_version(database, sqlite_schema(path), newest_schema("sqlite"))
        except sqlite3.DatabaseError as exc:
            raise CannotServe(f"{database} is not a usable SQLite database ({exc})") from None
    store = await Store.open(database, migrate=False)
    try:
        version = await store.db.schema_version()
        _check_version(database, version, newest_schema(store.db.dialect))
    except CannotServe:
        await store.close()
        raise
    except Exception as exc:
        await store.close()
        raise CannotServe(f"{database} is not a database Corral can read "
                          f"({type(exc).__name__})") from None
    return store


def _check_version(database: str, version: int, newest: int) -> None:
    if version != newest:
        if version > newest:
            raise CannotServe(f"{database} has schema {version}, newer than this Corral knows "
                              f"({newest}): upgrade Corral, or restore a backup made by this "
                              "version")
        raise CannotServe(f"{database} has schema {version}, older than this Corral's {newest}: "
                          "start the bot once to upgrade it (the web server never migrates)")


def file_identity(database: str) -> tuple[int, int] | None:
    """Which file the database's path names now (a restore puts another file there)."""
    from ..store.instance import real_path

    try:
        stat = real_path(database).stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


async def follow_restores(database: str, source: _Standalone, server: WebServer,
                          problem: list[str], seconds: float | None = None) -> None:
    """A restore replaces the database file (os.replace): the pages would go on reading the
    old one through their open connections. Every `seconds`, see which file the path names;
    when it changed, open the new one (checked as at start) and serve it, or answer 503 with
    the reason until a file that can be served is there."""
    from ..service import Service

    serving = file_identity(database)
    while True:
        await asyncio.sleep(seconds or RESTORE_POLL)
        now = file_identity(database)
        if now == serving:
            continue
        old = source.store
        source.store = source.service = None
        server.pages.reset()  # its streams reconnect and catch up from the new file
        if old is not None:
            await old.close()
        try:
            store = await open_for_pages(database)
        except CannotServe as exc:
            problem[:] = [str(exc)]
            log.error("web: the database file was replaced; not serving it: %s", exc)
            serving = now
            continue
        source.store, source.service = store, Service(store, clock=time.time)
        problem.clear()
        serving = now
        log.info("web: the database file was replaced (a restore); serving the new one")


async def serve(database: str, bind: tuple[str, int], base_url: str | None,
                stop: asyncio.Event, limits: WebLimits | None = None,
                sign_in: SignInSettings | None = None, activity: bool = False,
                frame_ancestors: str | None = None) -> None:
    """Raises CannotServe before anything is served if the database cannot be served, or
    another web server already serves it."""
    from ..collector import Refreezer, freeze_start_up_objects
    from ..pool import Workers
    from ..service import Service
    from ..store.instance import AlreadyRunning, FileLock, is_postgres

    lock = None
    if not is_postgres(database):  # one web server per SQLite file (beside its one bot)
        lock = FileLock(database, ".web.lock", "one web server per SQLite file")
        try:
            lock.acquire("a web server")
        except AlreadyRunning as exc:
            raise CannotServe(str(exc)) from None
    try:
        store = await open_for_pages(database)
        workers = Workers(None)
        source = _Standalone(store, Service(store, clock=time.time), workers)
        problem: list[str] = []

        async def check() -> tuple[bool, str]:
            if problem:
                return False, problem[0]
            current = source.store
            if current is None:
                return False, "opening the restored database"
            try:
                await asyncio.wait_for(current.ping(), STORE_TIMEOUT)
            except Exception as exc:  # any failure is the answer
                return False, f"the store does not answer ({type(exc).__name__})"
            return True, "ok"

        server = WebServer(source, None, *bind, base_url=base_url, check=check,  # type: ignore[arg-type]
                           limits=limits, sign_in=sign_in, activity=activity,
                           frame_ancestors=frame_ancestors)
        refreezer = Refreezer()
        follower = (asyncio.create_task(follow_restores(database, source, server, problem))
                    if lock is not None else None)
        try:
            await server.start()
            freeze_start_up_objects()  # and what each full collection keeps (its open streams)
            refreezer.install()
            await stop.wait()
        finally:
            if follower is not None:
                follower.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await follower
            refreezer.uninstall()
            await server.stop()
            workers.shutdown()
            if source.store is not None:
                await source.store.close()
    finally:
        if lock is not None:
            lock.release()


def main() -> None:
    import signal
    import sys

    from ..config import ConfigError, web_settings

    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = web_settings()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        sys.exit(1)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await serve(settings.database, settings.bind, settings.url, stop, settings.limits,
                    settings.sign_in, settings.activity, settings.frame_ancestors)

    try:
        asyncio.run(run())
    except CannotServe as exc:
        print(f"not serving: {exc}", file=sys.stderr)
        sys.exit(1)


