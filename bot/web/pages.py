"""The web companion: a read-only page per match (the live board, whose turn, the deadline, the
moves, the result), its replay, the record and an animated GIF, served beside /healthz and
/metrics (`bot/web/server.py`), inside the bot or as its own process (`python -m bot.web`).

What a page shows is exactly what a spectator in the match's channel sees: the public
observation (`observe(state, None)`) drawn by the bot's own renderer, moves in public notation
while the game hides information, and what the rules reveal once it is over. A match's page is
named by an unguessable token (`matches.web_token`), nothing lists a server's matches, and a
server that turned links off (`/corral settings web_links:False`) has no pages.

Live updates: a page listens to server-sent events; each stream sends the match as it is when
it opens (so a reconnect catches up) and again whenever its version moves. `Watch` learns of
new versions from the moves this process commits (`moved`: the match's row as the move wrote
it, so nothing is read), and by one cheap query for every watched match (`Store.match_versions`)
after this process's other changes (`kick`) and every `POLL_SECONDS` (a web server beside the
bot, or other shard processes writing the same store). It sends a change to all of a match's
streams from one task (a thousand viewers are not a thousand tasks woken per move, each leaving
a wait behind that lives until the next move and swells the collector's old generation).

A player's page (/p/<server>/<user>/<signature>, linked from that server's match pages; the
signature is an HMAC of both with a key kept in the store's meta table) shows their rating
chart and their recent finished matches in that server only, if it shows pages: a page linked
from one server never lists what its players do in another. Routes are added in
`Pages.add_routes` (a tournament page adds its own there). Security: only GET and HEAD
(405 otherwise), a strict Content-Security-Policy (no inline script or style: `web.js` and
`web.css` are files), every name escaped, and anything malformed is a plain 4xx.

The HTML is in Jinja templates, bot/web/templates: layout.html (the document, the header
and its language switch, with blocks `head`, `header_extra` and `main`) and one page each
extending it (match.html, replay.html, player.html, tournament.html). This module reads
the store and computes every text (translated here); the templates escape all of it
(`TEMPLATES`: autoescaping, StrictUndefined).
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import functools
import hashlib
import hmac
import json
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace as Fields
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from aiohttp import web
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from games import N_, get_game, phrase

from ..pictures import board_picture, replay_frame, replay_gif
from ..words.descriptions import alt_text, view_of
from ..words.i18n import LANGUAGES, Texts
from . import play
from .accounts import Accounts, login_path
from .gate import RETRY_AFTER, Gate
from .signin import CookieStorage, SignInSettings, signed_in

if TYPE_CHECKING:
    from ..pool import Workers
    from ..service import Service
    from ..service.history import Replayed
    from ..store import MatchRow, Moved, MoveRow, Store, TournamentRow

log = logging.getLogger(__name__)

TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
POLL_SECONDS = 0.5  # how often watched matches' versions are read (besides the bot's kicks)
PING_SECONDS = 15.0  # a comment on an idle stream, so proxies keep it open
# live pages hear of a change this long after it is committed: the bot's answer to the
# player who made it (sent right after the commit) goes first, without the viewers' work
# in between; a burst of moves wakes the streams once
SETTLE_SECONDS = 0.02
MAX_UNREAD = 16 * 1024  # bytes a viewer may leave unread (past the socket's own buffer)
REPLAYED_ON_LOOP = 4  # new log entries a page's history goes on with on the event loop
REPLAYS_KEPT = 256  # matches whose last replay the pages keep
GIF_BYTES = 8 * 1024 * 1024
STATIC = Path(__file__).resolve().parent / "static"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# Referrer-Policy same-origin, not no-referrer: under no-referrer a browser sends `Origin: null`
# with the page's own form POSTs (Fetch: "append a request Origin header"), which the move
# and sign-out forms' Origin check refuses; other sites still get no referrer
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY"}
# the pages inside Discord (CORRAL_ACTIVITY): framed by Discord's client only
DISCORD_FRAMES = ("https://discord.com https://*.discord.com https://discordapp.com "
                  "https://*.discordapp.com")
HEADERS_KEY = web.AppKey("security_headers", dict)


def security_headers(frame_ancestors: str | None) -> dict[str, str]:
    """The headers of every answer; `frame_ancestors`: who may frame the pages (the
    Activity), else nobody."""
    if not frame_ancestors:
        return SECURITY_HEADERS
    csp = CSP.replace("frame-ancestors 'none'", f"frame-ancestors {frame_ancestors}")
    headers = {**SECURITY_HEADERS, "Content-Security-Policy": csp}
    del headers["X-Frame-Options"]  # it cannot name an ancestor; the CSP does
    return headers
# a live stream's headers go out before its handler returns, so they carry the security
# headers themselves (the guard adds them only to answers not yet sent)
STREAM_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                  "X-Accel-Buffering": "no", **SECURITY_HEADERS}

# -- words ---------------------------------------------------------------------------------------
TITLE = N_("Match #{match_id}: {game}")
PLAYERS = N_("Players: {names}")
TO_MOVE = N_("{name} to move")
DEADLINE = N_("Deadline:")
NO_DEADLINE = N_("No time limit.")
WAITING = N_("The match has not started yet.")
ABORTED = N_("The match was aborted.")
MOVES = N_("Moves")
NO_MOVES = N_("No moves yet.")
RESULT = N_("Result: {result}")
LIVE = N_("Live: this page follows the match by itself.")
OVER = N_("The match is over: this page no longer changes.")
# a finished match's way to its analysis (posted in Discord, kept once made)
ANALYSIS_HINT = N_("Its analysis, each player's chance of winning move by move and the biggest "
                   "swings: `/analysis match:{match_id}` in Discord.")
REPLAY = N_("Replay")
BACK = N_("Back to the match")
RECORD = N_("Download the record")
GIF = N_("Download the GIF")
FIRST = N_("First position")
PREVIOUS = N_("Previous move")
NEXT = N_("Next move")
LAST = N_("Last position")
POSITION = N_("Position {ply} of {total}")
KEYS = N_("Keys: ← and → step, Home and End jump.")
CROSS_LEGEND = N_("Each cell: + won, - lost, = drawn, … being played, B bye, F/f won/lost "
                  "by forfeit; the number after it is the opponent's rank.")
LANGUAGE_SWITCH = N_("Language:")
NOT_FOUND = N_("No such page.")
PLAYER_TITLE = N_("{name} on Corral")
RATING_CHART = N_("Rating in {game}")
RATING_ALT = N_("{name}'s rating in {game} over their last {count} rated games.")
RECENT = N_("Recent matches")
NO_RECENT = N_("No finished matches to show.")
RECENT_LINE = N_("{game}, match #{match_id} against {opponents}: {result}")
WON = N_("won")
LOST = N_("lost")
DRAWN = N_("drawn")
TOURNAMENT_TITLE = N_("Tournament #{tournament_id}: {name}")
TOURNAMENT_GAME = N_("{game}, {format}")
TOURNAMENT_STATUS = {"signup": N_("Sign-up is open."),
                     "running": N_("Round {round} is being played."),
                     "finished": N_("The tournament is over."),
                     "cancelled": N_("The tournament was cancelled.")}
ROUNDS_RUNNING = N_("Rounds {first} to {last} are being played.")
STANDINGS = N_("Standings")
CROSSTABLE = N_("Crosstable")
ROUND_MATCHES = N_("Round {round}")
NO_ROUND = N_("No round has been paired yet.")
RANK = N_("Rank")
PLAYER = N_("Player")
POINTS = N_("Points")
ROUND_SHORT = N_("R{round}")
BYE = N_("bye")
TOURNAMENT_PICTURE_ALT = N_("Standings of tournament #{tournament_id} as a picture.")
BRACKET_ALT = N_("Bracket of tournament #{tournament_id} as a picture.")
TOURNAMENT_LIVE = N_("Live: this page reloads itself when a match ends or a round is paired.")
TIEBREAKS = {"buchholz": N_("Buchholz"), "sonneborn_berger": N_("Sonneborn-Berger"),
             "head_to_head": N_("Head-to-head"), "opponents_points": N_("Opponents' points"),
             "wins": N_("Table wins"), "stage": N_("Stage reached")}
FORMAT_NAMES = {"swiss": N_("Swiss"), "round_robin": N_("round robin"),
                "knockout": N_("knockout"), "pods": N_("pods")}
TOURNAMENT_POLL = 1.0  # seconds between reads of a watched tournament's version


PLAYER_KEY = "web_player_key"


def _sign(key: bytes, user_id: int, kind: str = "player") -> str:
    digest = hmac.new(key, f"{kind}:{user_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:22]


async def signing_key(store: Store) -> bytes:
    """The key player and tournament pages' addresses are signed with (kept in the store's
    meta table, made once, so that the bot and a web process beside it sign alike)."""
    value = await store.meta(PLAYER_KEY)
    if value is None:
        async with store.transaction(background=True) as tx:
            value = await tx.meta(PLAYER_KEY)
            if value is None:
                value = secrets.token_urlsafe(32)
                await tx.set_meta(PLAYER_KEY, value)
    return value.encode()


async def tournament_url(store: Store, base_url: str, tournament_id: int) -> str:
    """A tournament's page: /t/<id>/<signature> (unguessable without the store's key)."""
    key = await signing_key(store)
    return f"{base_url}/t/{tournament_id}/{_sign(key, tournament_id, 'tournament')}"


def code_marks(text: str) -> Markup:
    """The templates' `code` filter: text escaped, then its `commands` set as code (as
    Discord shows them); the only markup is the <code> put around text already escaped."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


# the pages' HTML (bot/web/templates): every value escaped unless it is Markup (only what
# `code_marks` makes), and a name the page does not pass is an error, not an empty string
TEMPLATES = Environment(loader=PackageLoader("bot.web", "templates"),
                        autoescape=select_autoescape(("html",), default_for_string=True,
                                                     default=True),
                        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
TEMPLATES.filters["code"] = code_marks
SWITCH = (("en", "English"), ("ja", "日本語"))  # the language switch, each in its own words


class Source(Protocol):
    """What the pages read of the process they run in (the bot, or `python -m bot.web`); the
    bot sets its `service` and `workers` up after the server starts (503 until then)."""

    store: Store


@dataclass(frozen=True)
class View:
    """A match as a spectator sees it at one version, in one language."""

    version: int
    data: dict[str, Any]
    event: bytes = b""  # the live stream's event, encoded once for all of its viewers


def language_of_request(request: web.Request) -> str:
    """`?lang=` (the switch) wins; then the browser's Accept-Language, by its q order."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    best, best_q = "en", -1.0
    for part in request.headers.get("Accept-Language", "")[:200].split(","):
        code, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:7])
            except ValueError:
                q = 0.0
        base = code.split("-")[0].lower()
        if base in LANGUAGES and q > best_q:
            best, best_q = base, q
    return best


class Stream:
    """One open live page: where its events go, in which language, the version it was last
    sent, when it was last written to, and a future its request handler waits on until the
    stream ends (the handler is cancelled at once when its viewer leaves: see `Pages._live`)."""

    __slots__ = ("response", "transport", "language", "sent", "closed", "last", "idle")

    def __init__(self, response: Any, transport: asyncio.BaseTransport | None,
                 language: str) -> None:
        self.response = response  # what `write(bytes)` is awaited on
        self.transport = transport
        self.language = language
        self.sent = -1
        loop = asyncio.get_running_loop()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.last = loop.time()  # when it was last written to (its keep-alive falls due after)
        # the watch's streams in the order they were last written to (set by `Watch.add`)
        self.idle: OrderedDict[Stream, None] | None = None

    def close(self) -> None:
        if not self.closed.done():
            self.closed.set_result(None)
        if self.idle is not None:
            self.idle.pop(self, None)
            self.idle = None

    async def write(self, data: bytes) -> bool:
        """Send `data` unless the viewer stopped reading (the stream is then closed: an
        EventSource reconnects and catches up). False once the stream is closed."""
        if self.closed.done():
            return False
        transport = self.transport
        if transport is not None and (transport.is_closing() or (
                isinstance(transport, asyncio.WriteTransport)
                and transport.get_write_buffer_size() > MAX_UNREAD)):
            self.close()
            return False
        try:
            await self.response.write(data)
        except Exception:  # reset, or the response already ended: this stream ends, and
            self.close()   # the watch's tasks (deliveries, keep-alives) go on for the others
            return False
        self.last = asyncio.get_running_loop().time()
        if self.idle is not None:
            self.idle.move_to_end(self)
        return True


# the match and the version its streams are behind on, and those streams: send them the match
Send = Callable[[int, int, list[Stream]], Awaitable[None]]


class Watch:
    """Which matches pages are watching, their streams, and the version each match was last
    seen at; it sends each change to a match's streams from one task for that match.

    A move committed in this process hands its match's row over (`moved`): the streams get it
    without any read. Other changes here (`kick`) and every `POLL_SECONDS` (a web server
    beside the bot, other shard processes) read the watched versions in one query. A change
    is sent `SETTLE_SECONDS` later, from one timer for all the matches that changed meanwhile
    (the mover's answer from the bot is never queued behind the viewers' work), by `send`,
    once per match however many viewers it has: no task, wait or timer per viewer (a viewer's
    request handler only waits for its stream to end). A stream that got nothing for
    `PING_SECONDS` gets a keep-alive comment, each on its own idle time (by a timer of its own:
    a slow database delays no keep-alive). Joining and leaving cost O(1) however many viewers
    a match has: each match's streams, and all streams in the order they were last written to,
    are insertion-ordered dicts.
    """

    def __init__(self, store: Callable[[], Store | None], send: Send,
                 poll: float = POLL_SECONDS, ping: float = PING_SECONDS,
                 settle: float = SETTLE_SECONDS):
        self._store = store
        self.send = send
        self.poll = poll
        self.ping = ping
        self.settle = settle
        self._streams: dict[int, dict[Stream, None]] = {}
        self._versions: dict[int, int] = {}
        self._moves: dict[int, Moved] = {}  # the last move in this process, as it wrote it
        # every open stream, the one written to longest ago first (keep-alives go from there)
        self._idle: OrderedDict[Stream, None] = OrderedDict()
        self._delivered: dict[int, int] = {}  # the version each match was last sent at
        self._fresh: dict[int, dict[Stream, None]] = {}  # streams joined since that delivery
        self._sending: dict[int, asyncio.Task[None]] = {}  # a match's delivery under way
        self._again: set[int] = set()  # matches that changed again while being sent
        self._due: set[int] = set()  # matches whose change the next settle sends
        self._settling: asyncio.TimerHandle | None = None
        self._kick = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.closing = False

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._run(), name="corral-web-watch"),
                       asyncio.create_task(self._keep_alive(), name="corral-web-pings")]

    async def stop(self) -> None:
        self.closing = True
        if self._settling is not None:
            self._settling.cancel()
            self._settling = None
        self._due.clear()
        tasks = self._tasks + list(self._sending.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except asyncio.CancelledError:
                pass
        self._tasks = []
        for streams in list(self._streams.values()):
            for stream in streams:
                stream.close()

    def reset(self) -> None:
        """End every stream and forget every version seen (the database was replaced)."""
        for streams in list(self._streams.values()):
            for stream in list(streams):
                stream.close()
        self._versions.clear()
        self._moves.clear()
        self._delivered.clear()

    def kick(self) -> None:
        """A change was committed in this process: read the watched versions now."""
        if self._streams:
            self._kick.set()

    def moved(self, moved: Moved) -> None:
        """A move was committed in this process: its match as written, and its log entries."""
        row = moved.row
        if row.id in self._streams and row.version > self._versions.get(row.id, -1):
            self._versions[row.id] = row.version
            self._moves[row.id] = moved
            self._send_soon(row.id)

    @property
    def connections(self) -> int:
        return len(self._idle)

    def add(self, match_id: int, version: int, stream: Stream) -> None:
        """A stream opened on the match as read at `version`: it is sent the match now."""
        self._streams.setdefault(match_id, {})[stream] = None
        self._fresh.setdefault(match_id, {})[stream] = None
        stream.last = asyncio.get_running_loop().time()
        stream.idle = self._idle
        self._idle[stream] = None
        if version > self._versions.get(match_id, -1):
            self._versions[match_id] = version
        self._deliver(match_id)

    def remove(self, match_id: int, stream: Stream) -> None:
        stream.close()
        streams = self._streams.get(match_id)
        if streams is None:
            return
        streams.pop(stream, None)
        fresh = self._fresh.get(match_id)
        if fresh is not None:
            fresh.pop(stream, None)
        if streams:
            return
        del self._streams[match_id]
        self._versions.pop(match_id, None)
        self._moves.pop(match_id, None)
        self._delivered.pop(match_id, None)
        self._fresh.pop(match_id, None)

    def version(self, match_id: int) -> int:
        return self._versions.get(match_id, -1)

    def last_move(self, match_id: int, version: int) -> Moved | None:
        """The move in this process that made `version` of the match, if that is known."""
        moved = self._moves.get(match_id)
        return moved if moved is not None and moved.row.version == version else None

    def _send_soon(self, match_id: int) -> None:
        """Send the match's change once it has settled (`SETTLE_SECONDS`)."""
        self._due.add(match_id)
        if self._settling is None:
            self._settling = asyncio.get_running_loop().call_later(self.settle, self._settled)

    def _settled(self) -> None:
        self._settling = None
        due, self._due = self._due, set()
        for match_id in due:
            self._deliver(match_id)

    def _deliver(self, match_id: int) -> None:
        """Send the match to its streams that are behind, from its one delivery task."""
        if self.closing or match_id not in self._streams:
            return
        if match_id in self._sending:
            self._again.add(match_id)  # sent once more when the delivery under way ends
            return
        self._sending[match_id] = asyncio.create_task(self._send(match_id))

    async def _send(self, match_id: int) -> None:
        try:
            while True:
                self._again.discard(match_id)
                version = self._versions.get(match_id, -1)
                # a new version goes to every stream of the match; otherwise only the
                # streams that joined since the last delivery are behind (a join walks
                # no other viewer)
                fresh = self._fresh.pop(match_id, None)
                if self._delivered.get(match_id, -1) < version:
                    self._delivered[match_id] = version
                    candidates: Iterable[Stream] = self._streams.get(match_id, ())
                else:
                    candidates = fresh or ()
                behind = [stream for stream in candidates
                          if stream.sent < version and not stream.closed.done()]
                if behind:
                    try:
                        await self.send(match_id, version, behind)
                    except Exception as exc:  # its streams end; their pages reconnect
                        log.warning("web: could not send match %s (%s)", match_id,
                                    type(exc).__name__)
                        for stream in behind:
                            stream.close()
                if match_id not in self._again:
                    return
        finally:
            self._sending.pop(match_id, None)

    async def _keep_alive(self) -> None:
        """Every stream quiet for `ping` seconds gets a comment; the streams are walked from
        the one written to longest ago, and the walk stops at the first that is not due."""
        loop = asyncio.get_running_loop()
        idle = self._idle
        while True:
            await asyncio.sleep(self.ping / 15)
            quiet_since = loop.time() - self.ping
            written = 0
            while idle:
                stream = next(iter(idle))
                if stream.last > quiet_since:
                    break
                if not await stream.write(b": ping\n\n"):
                    idle.pop(stream, None)  # closed: it leaves the line (its handler ends it)
                written += 1
                if written % 256 == 0:
                    await asyncio.sleep(0)  # the bot's own work goes on between batches

    async def _run(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._kick.wait(), self.poll)
            except TimeoutError:
                pass
            self._kick.clear()
            store = self._store()
            if not self._streams or store is None:
                continue
            try:
                versions = await store.match_versions(sorted(self._streams))
            except Exception as exc:  # the next round tries again; pages keep what they have
                log.warning("web: could not read match versions (%s)", type(exc).__name__)
                await asyncio.sleep(self.poll)
                continue
            for match_id, version in versions.items():
                if version > self._versions.get(match_id, -1) and match_id in self._streams:
                    self._versions[match_id] = version
                    self._send_soon(match_id)


class Cache:
    """Recent pictures and views, each made once however many viewers ask at the same time."""

    def __init__(self, size: int = 256):
        self.size = size
        self._done: OrderedDict[Any, Any] = OrderedDict()
        self._making: dict[Any, asyncio.Future[Any]] = {}  # being made, by a task each

    async def get(self, key: Any, make: Callable[[], Awaitable[Any]]) -> Any:
        """The value for `key`, made once: by a task of its own, so a viewer who leaves (its
        handler cancelled) cancels neither the making nor the others waiting for it."""
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        making = self._making.get(key)
        if making is None:
            making = asyncio.ensure_future(make())
            self._making[key] = making
            making.add_done_callback(functools.partial(self._made, key))
        return await asyncio.shield(making)

    def _made(self, key: Any, making: asyncio.Future[Any]) -> None:
        self._making.pop(key, None)
        if making.cancelled() or making.exception() is not None:
            return  # the next viewer tries again (the error is raised to those waiting)
        self._done[key] = making.result()
        while len(self._done) > self.size:
            self._done.popitem(last=False)


_MARKUP = {0x3C: "\\u003c", 0x3E: "\\u003e", 0x26: "\\u0026"}  # < > & as JSON escapes


def safe_json(data: Any) -> str:
    """JSON with <, > and & escaped: data never reads as markup, whatever sniffs it."""
    return json.dumps(data, ensure_ascii=False).translate(_MARKUP)


def _plain(status: int, text: str = "") -> web.Response:
    reason = text or {400: "Bad request", 404: "Not found", 405: "Method not allowed",
                      503: "Not ready yet"}.get(status, "Error")
    return web.Response(status=status, text=reason + "\n", headers={"Cache-Control": "no-store"})


def plain_answer(status: int) -> web.Response:
    """A short answer to a request that never reached the pages (malformed, or a server
    error), with the security headers, echoing nothing of the request."""
    response = _plain(status)
    response.headers.update(SECURITY_HEADERS)
    return response


def _refused(status: int, reason: str) -> web.Response:
    """A live stream over a cap: 429 (this client has enough) or 503 (the match or the
    server is full), to be tried again later (the page does so by itself)."""
    text = ("Too many live pages from your address" if status == 429
            else "Too many live pages open right now")
    response = _plain(status, f"{text}: try again in a minute.")
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


@web.middleware
async def guard(request: web.Request,
                handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                ) -> web.StreamResponse:
    """GET and HEAD, and POST where a route takes it (sign-in, moves); strict headers on
    every answer; an error is a plain 4xx/5xx."""
    if request.method not in ("GET", "HEAD") and not (
            request.method == "POST" and request.match_info.http_exception is None):
        response: web.StreamResponse = _plain(405)
        response.headers["Allow"] = "GET, HEAD"
    elif len(request.raw_path) > 512 or "\\" in request.raw_path or "/." in request.raw_path:
        response = _plain(404 if len(request.raw_path) <= 512 else 414, "Not found")
    else:
        try:
            response = await handler(request)
        except web.HTTPRedirection as exc:
            response = web.Response(status=exc.status, headers=exc.headers)
            response.cookies.update(exc.cookies)  # a session begun or ended on the way
        except web.HTTPException as exc:
            response = _plain(exc.status if 400 <= exc.status < 600 else 404,
                              exc.reason if exc.status == 405 else "")
            if exc.status == 405:
                response.headers["Allow"] = "GET, HEAD"
    headers = request.app.get(HEADERS_KEY, SECURITY_HEADERS)
    if not response.prepared:
        for name, value in headers.items():
            response.headers.setdefault(name, value)
    return response


class Pages:
    """The match pages, pictures, streams and downloads, over a `Source`."""

    def __init__(self, source: Any, base_url: str | None = None, gate: Gate | None = None, *,
                 sign_in: SignInSettings | None = None, activity: bool = False,
                 frame_ancestors: str | None = None):
        self.source = source
        self.base_url = base_url
        self.gate = gate or Gate()
        self.sign_in = sign_in
        self.sessions = CookieStorage(lambda: getattr(source, "store", None),
                                      secure=bool(base_url and base_url.startswith("https:")))
        self.accounts = Accounts(self, sign_in, activity)
        self.headers = security_headers(
            (frame_ancestors or DISCORD_FRAMES) if self.accounts.activity else None)
        self.watch = Watch(lambda: getattr(source, "store", None), self._send_live)
        self.cache = Cache()
        self.pictures = Cache(128)
        # each watched tournament's last read: (loop time, the read), shared by its streams
        self._tournament_reads: dict[int, tuple[float, asyncio.Future[TournamentRow | None]]] = {}
        # the last replay of each match a page showed, to go on from at its next version
        # (and the lines each language said of it)
        # and the log it was made from, complete up to the version that closes the tuple
        self._replays: OrderedDict[
            int, tuple[Replayed, dict[str, list[str]], tuple[MoveRow, ...], int]] = OrderedDict()
        self._key: bytes | None = None  # see `_secret`
        self._static = {name: (STATIC / name).read_bytes()
                        for name in ("web.js", "web.css", "activity.js")}

    def reset(self) -> None:
        """The database was replaced (a restore): forget what was read of the old one, and
        end the live streams (their pages reconnect and catch up from the new one)."""
        self.watch.reset()
        self.cache = Cache()
        self.pictures = Cache(128)
        self._tournament_reads.clear()
        self.sessions.forget_key()
        self._replays.clear()
        self._key = None

    def add_routes(self, app: web.Application) -> None:
        t = "{token:[A-Za-z0-9_-]{22}}"
        lang = "{lang:en|ja}"
        app[HEADERS_KEY] = self.headers
        app.router.add_get("/static/{name:(?:web|activity)\\.js|web\\.css}", self._static_file)
        self.accounts.add_routes(app)
        # what browsers ask for first (spelt so that no game's id appears in the source)
        app.router.add_get("/{name:fav[i]con\\.[i]co}", self._no_symbol)
        app.router.add_get(f"/m/{t}", self._match_page)
        app.router.add_get(f"/m/{t}/live", self._live)
        app.router.add_get(f"/m/{t}/state.json", self._state)
        app.router.add_get(f"/m/{t}/board/{{version:[0-9]{{1,9}}}}-{lang}.png", self._board)
        app.router.add_get(f"/m/{t}/replay", self._replay_page)
        app.router.add_get(
            f"/m/{t}/frame/{{version:[0-9]{{1,9}}}}/{{ply:[0-9]{{1,5}}}}-{lang}.png",
            self._frame)
        app.router.add_get(f"/m/{t}/record.txt", self._record)
        app.router.add_get(f"/m/{t}/replay-{lang}.gif", self._gif)
        pp = "/p/{guild:[0-9]{1,20}}/{user:[0-9]{1,20}}/{sig:[A-Za-z0-9_-]{22}}"
        app.router.add_get(pp, self._player_page)
        app.router.add_get(pp + "/chart-" + lang
                           + ".png", self._player_chart)
        tp = "/t/{tid:[0-9]{1,20}}/{sig:[A-Za-z0-9_-]{22}}"
        app.router.add_get(tp, self._tournament_page)
        app.router.add_get(tp + "/live", self._tournament_live)
        app.router.add_get(tp + "/picture/{version:[0-9]{1,9}}-" + lang + ".png",
                           self._tournament_picture)

    # -- reading -----------------------------------------------------------------------
    def _parts(self) -> tuple[Store, Service, Workers]:
        source = self.source
        if not all(getattr(source, name, None) is not None
                   for name in ("store", "service", "workers")):
            raise web.HTTPServiceUnavailable()  # starting, or a restored file being opened
        return source.store, source.service, source.workers

    def parts(self) -> tuple[Store, Service, Workers]:
        """The store, the service and the workers (503 while they are not there)."""
        return self._parts()

    def store(self) -> Store:
        return self._parts()[0]

    async def found(self, request: web.Request) -> MatchRow:
        """The match the address's token names (404 unless its server shows pages)."""
        return await self._found(request)

    def language(self, request: web.Request) -> str:
        return language_of_request(request)

    def client_of(self, request: web.Request) -> str:
        """Who asks, for the per-client caps (the proxy's X-Forwarded-For, if trusted)."""
        return self._client(request)

    def title_of(self, row: MatchRow, texts: Texts) -> str:
        return texts(phrase(TITLE, match_id=row.id, game=texts(get_game(row.game).name)))

    def page(self, template: str, language: str, path: str, title: str,
             og: Fields | None = None, **context: Any) -> web.Response:
        """A page from the templates (see `_page`)."""
        return self._page(template, language, path, title, og, **context)

    async def account(self, request: web.Request, language: str, path: str) -> Fields | None:
        """The header's account line: the sign-in link, or who is signed in and Sign out;
        None where sign-in is not set up."""
        if self.sign_in is None:
            return None
        texts = Texts(language)
        user = await signed_in(request)
        return Fields(
            user=user, login=login_path(f"{path}?lang={language}"),
            path=f"{path}?lang={language}",
            sign_in=texts(play.SIGN_IN), sign_out=texts(play.SIGN_OUT),
            signed_as=texts(phrase(play.SIGNED_IN_AS, name=user.name)) if user else "",
            csrf=user.csrf if user else "", invite=texts(play.SIGN_IN_TO_MOVE))

    async def _found(self, request: web.Request) -> MatchRow:
        """The match the token names, if its server allows pages; else 404."""
        token = request.match_info["token"]
        if not TOKEN.fullmatch(token):
            raise web.HTTPNotFound()
        store, _, _ = self._parts()
        row = await store.match_by_token(token)
        if row is None:
            raise web.HTTPNotFound()
        if not (await store.guild_settings(row.guild_id))["web_links"]:
            raise web.HTTPNotFound()
        return row

    async def view(self, row: MatchRow, language: str, moved: Moved | None = None) -> View:
        """The match at its current version as a spectator sees it (cached by version).
        `moved`: the move that made this version, as it was committed in this process."""
        return await self.cache.get(("view", row.id, row.version, language),
                                    lambda: self._make_view(row, language, moved))

    async def _make_view(self, row: MatchRow, language: str, moved: Moved | None) -> View:
        from ..clocks import clock_for
        from ..service.core import result_phrase, wrap
        from ..service.history import history_text, replay_more
        from ..service.moves import effective_log

        store, service, workers = self._parts()
        texts = Texts(language)
        match = wrap(row)
        game = match.game
        token = row.web_token
        names = match.names()
        moves: list[str] = []
        if match.state is not None:
            # the history as the Moves button tells it: the new moves since the replay this
            # page last made of the match, on the loop (a move or two: what the service does
            # for a move); a whole match replayed in a worker (CPU work)
            kept = self._replays.get(row.id)
            before, spoken, entries, upto = kept if kept is not None else (None, {}, (), -1)
            if moved is not None and moved.since == upto:
                # the move's own entries go on from the log kept (no read on a move)
                entries += moved.entries
            else:  # the log as read before, and only its entries since (only appended to)
                entries += tuple(await store.moves(row.id, entries[-1].seq if entries else None))
            log = [(e.kind, e.notation, e.actor_id, e.ply) for e in effective_log(list(entries))]
            revealed = row.status == "finished" or not game.info.hidden_information
            seats = [(s.seat, s.user_id, s.name) for s in row.seats]
            if before is not None and before.continues(log, revealed) \
                    and len(log) - len(before.log) <= REPLAYED_ON_LOOP:
                replayed = replay_more(game.id, len(row.seats), row.options, log, seats,
                                       revealed, before)
            else:
                replayed = await workers.run(replay_more, game.id, len(row.seats),
                                             row.options, log, seats, revealed, None)
                spoken = {}
            # the lines spoken before in this language, and the new entries' lines
            lines = spoken.get(language, [])[:len(before.entries) if before else 0]
            lines += history_text(replayed.entries[len(lines):], language)
            spoken[language] = lines
            # the log is complete up to this version unless it was read past it (an entry's
            # seq is the version it replaced): then the next view reads on from it
            upto = row.version if not entries or entries[-1].seq < row.version else -1
            self._replays[row.id] = (replayed, spoken, entries, upto)
            self._replays.move_to_end(row.id)
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
            moves = [line.replace("`", "") for line in lines]  # no Discord code marks
        ply = match.ply()
        mover = match.to_move()
        turn = texts(phrase(TO_MOVE, name=mover.name)) if mover is not None else ""
        deadline = None
        if mover is not None and row.move_seconds is not None and row.turn_started_at:
            read = moved.vacations.get(mover.user_id) if moved is not None else None
            vacations = list(read) if read is not None else \
                await self._parts()[0].vacations(mover.user_id)
            clock = clock_for(row.move_seconds, row.turn_started_at, service.clock(), vacations)
            deadline = datetime.datetime.fromtimestamp(clock.due_at, datetime.UTC).isoformat()
        result = ""
        if row.status == "finished":
            said = result_phrase(match)
            result = texts(phrase(RESULT, result=texts(said, names))) if said else ""
        elif row.status == "aborted":
            result = texts(ABORTED)
        status = {"open": WAITING, "invited": WAITING}.get(row.status)
        # the board's alt text is the one Discord's board carries: the kit's words for the
        # public view (never what the game hides)
        alt = (alt_text(game, view_of(game, match.state, None), texts, names)
               if match.state is not None else "")
        data = {
            "version": row.version, "status": row.status, "ply": ply,
            "title": texts(phrase(TITLE, match_id=row.id, game=texts(game.name))),
            "players": texts(phrase(PLAYERS, names=", ".join(names))),
            "board": (f"/m/{token}/board/{row.version}-{language}.png"
                      if match.state is not None else None),
            "alt": alt, "turn": turn, "deadline": deadline,
            "deadline_label": texts(DEADLINE) if deadline else "",
            "moves": moves, "result": result,
            "waiting": texts(status) if status else "",
        }
        event = f"id: {row.version}\nevent: state\ndata: {safe_json(data)}\n\n".encode()
        return View(row.version, data, event)

    # -- pages -------------------------------------------------------------------------
    async def _match_page(self, request: web.Request) -> web.Response:
        row = await self._found(request)
        language = language_of_request(request)
        view = await self.view(row, language)
        texts = Texts(language)
        d = view.data
        token = row.web_token or ""
        og = None
        if self.base_url and d["board"]:
            og = open_graph(d["title"], d["players"], f"{self.base_url}/m/{token}",
                            self.base_url + d["board"], d["alt"])
        over = row.status in ("finished", "aborted")
        people = []
        for seat in row.seats:
            if seat.user_id > 0:  # a person (an AI seat has no page)
                path = await self.player_path(seat.user_id, row.guild_id)
                people.append((f"{path}?lang={language}", seat.name))
        words = Fields(over=texts(OVER), live=texts(OVER if over else LIVE),
                       replay=texts(REPLAY), record=texts(RECORD), moves=texts(MOVES),
                       no_moves=texts(NO_MOVES))
        analysis = (texts(phrase(ANALYSIS_HINT, match_id=row.id))
                    if row.status == "finished" else None)
        account = await self.account(request, language, f"/m/{token}")
        mine = None
        if account is not None and account.user is not None:
            _, service, _ = self._parts()
            from ..service.core import wrap
            mine = await play.panel(request, row, wrap(row), service, language)
        live = "" if over else f"/m/{token}/live?lang={language}"
        socket = ""
        if mine is not None and mine.user.frame and not over and self.accounts.activity:
            live, socket = "", f"/m/{token}/socket?lang={language}"  # Discord's proxy
        return self._page(
            "match.html", language, f"/m/{token}", d["title"], og, view=Fields(**d),
            token=token, version=view.version, people=people, analysis=analysis, words=words,
            live=live, socket=socket, account=account, mine=mine,
            move_words=self._move_words(texts) if mine is not None else None)

    def _move_words(self, texts: Texts) -> Fields:
        return Fields(choose=texts(play.CHOOSE), back=texts(play.BACK),
                      private=texts(play.PRIVATE_STEP), your_view=texts(play.YOUR_VIEW),
                      by_dm=texts(play.BY_DM_NOTE),
                      picks=lambda n: texts(phrase(play.PICK_COUNT, count=n)))

    async def _replay_page(self, request: web.Request) -> web.Response:
        row = await self._found(request)
        language = language_of_request(request)
        view = await self.view(row, language)
        texts = Texts(language)
        d = view.data
        token = row.web_token or ""
        total = len(d["moves"])
        alts = await self._frame_alts(row, language, total) if row.state is not None \
            else [""]
        frames = f"/m/{token}/frame/{row.version}/{{ply}}-{language}.png"
        first_frame = frames.replace("{ply}", "0")  # a replay starts from the beginning
        controls = [(key, glyph, texts(name))
                    for key, glyph, name in (("first", "«", FIRST), ("prev", "◀", PREVIOUS),
                                             ("next", "▶", NEXT), ("last", "»", LAST))]
        words = Fields(position=texts(POSITION), replay=texts(REPLAY), keys=texts(KEYS),
                       back=texts(BACK), record=texts(RECORD), gif=texts(GIF),
                       moves=texts(MOVES))
        return self._page(
            "replay.html", language, f"/m/{token}/replay", d["title"], view=Fields(**d),
            token=token, frames=frames, total=total, start_alt=alts[0],
            first_frame=first_frame if row.state is not None else None,
            start=texts(phrase(POSITION, ply=0, total=total)), controls=controls,
            steps=list(zip(alts[1:], d["moves"], strict=True)), words=words)

    async def _frame_alts(self, row: MatchRow, language: str, total: int) -> list[str]:
        """The alt text of the replay's `total` + 1 frames (the first position's too), made
        once per version and language in a worker (the whole match replayed: CPU work)."""
        _, service, workers = self._parts()

        async def make() -> list[str]:
            # the log is read after the row: moves played since are left out; a takeback
            # since (a shorter log) leaves the last frames with the last position's words,
            # until the page is loaded again (its frames then lead back to it anyway)
            match, entries = await service.replay_log(row.id)
            alts: list[str] = await workers.run(frame_alts, row.game, len(row.seats),
                                                row.options, entries[:total], match.names(),
                                                language)
            return alts + alts[-1:] * (total + 1 - len(alts))

        found: list[str] = await self.cache.get(
            ("alts", row.id, row.version, total, language), make)
        return found

    def _page(self, template: str, language: str, path: str, title: str,
              og: Fields | None = None, **context: Any) -> web.Response:
        """A page: `template` (in bot/web/templates, extending layout.html) rendered with
        `context`; `path` is the page's own, which the language switch links to."""
        account = context.setdefault("account", None)
        context.setdefault("framed", False)
        page = TEMPLATES.get_template(template).render(
            language=language, path=path, title=title, og=og, switch=SWITCH,
            switch_label=Texts(language)(LANGUAGE_SWITCH), **context)
        # a signed-in player's page (their form's token, their question, their view) is
        # theirs: kept by no cache on the way
        private = account is not None and account.user is not None
        return web.Response(text=page, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "private, no-store" if private
                                     else "no-cache", "Vary": "Accept-Language, Cookie"})

    async def _no_symbol(self, request: web.Request) -> web.Response:
        return web.Response(status=204, headers={"Cache-Control": "max-age=86400"})

    async def _static_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return web.Response(body=self._static[name], content_type=kind, charset="utf-8",
                            headers={"Cache-Control": "max-age=300"})

    # -- players -------------------------------------------------------------------------
    async def _secret(self, fresh: bool = False) -> bytes:
        """The key player pages' addresses are signed with (kept in the store, so that the
        bot and a web process beside it sign alike)."""
        if self._key is None or fresh:
            store, _, _ = self._parts()
            self._key = await signing_key(store)
        return self._key

    async def player_path(self, user_id: int, guild_id: int | None) -> str:
        """A player's page as a server's match pages link it: /p/<server>/<user>/<signature>
        (unguessable, as match pages are; 0 for matches outside a server)."""
        guild = guild_id or 0
        return f"/p/{guild}/{user_id}/{_sign(await self._secret(), user_id, f'player-{guild}')}"

    async def _player(self, request: web.Request) -> tuple[int, int]:
        """(server, user) of a player page's address, if its signature is right and the
        server shows pages."""
        guild, user_id = int(request.match_info["guild"]), int(request.match_info["user"])
        sig = request.match_info["sig"]
        for fresh in (False, True):
            if hmac.compare_digest(_sign(await self._secret(fresh), user_id, f"player-{guild}"),
                                   sig):
                store, _, _ = self._parts()
                if not (await store.guild_settings(guild or None))["web_links"]:
                    break
                return guild, user_id
        raise web.HTTPNotFound()

    async def _public_finished(self, user_id: int, guild: int) -> list[MatchRow]:
        """A player's recent finished matches in one server."""
        store, _, _ = self._parts()
        return [row for row in await store.finished_matches_of(user_id, 50)
                if (row.guild_id or 0) == guild and row.web_token][:20]

    async def _trend(self, user_id: int,
                     guild: int) -> tuple[str | None, list[tuple[float, float]]]:
        """The page's chart: rating after each rated match played in this server only (the
        rating is one per game, but games in other servers, which may have turned pages off,
        must not show through this one's page)."""
        from ..ratings import Skill

        store, _, _ = self._parts()
        game, rows = await store.rating_trend_in(user_id, guild or None)
        return game, [(t, float(Skill(mu, sigma).display)) for t, mu, sigma in rows]

    async def _player_page(self, request: web.Request) -> web.Response:
        from ..service.stats import seat_result

        guild, user_id = await self._player(request)
        language = language_of_request(request)
        texts = Texts(language)
        rows = await self._public_finished(user_id, guild)
        # a signed link to a member with no finished match here is a page that says so
        trend_game, trend = await self._trend(user_id, guild)
        name = next((s.name for r in rows for s in r.seats if s.user_id == user_id), None)
        if name is None:  # no finished match here yet: their seat in one being played
            store, _, _ = self._parts()
            name = await store.seat_name_in(user_id, guild) or "?"
        outcomes = {"win": WON, "loss": LOST, "draw": DRAWN}
        items = []
        for row in rows:
            seat = row.seat_of(user_id)
            opponents = ", ".join(s.name for s in row.seats if s.user_id != user_id)
            line = texts(phrase(RECENT_LINE, game=texts(get_game(row.game).name),
                                match_id=row.id, opponents=opponents,
                                result=texts(outcomes[seat_result(row.result, seat or 0)])))
            items.append((f"/m/{row.web_token}?lang={language}", line))
        chart = None
        if trend_game is not None and trend:
            game_name = texts(get_game(trend_game).name)
            chart = Fields(heading=texts(phrase(RATING_CHART, game=game_name)),
                           src=f"{request.path}/chart-{language}.png",
                           alt=texts(phrase(RATING_ALT, name=name, game=game_name,
                                            count=len(trend))))
        title = texts(phrase(PLAYER_TITLE, name=name))
        words = Fields(recent=texts(RECENT), no_recent=texts(NO_RECENT))
        return self._page("player.html", language, request.path, title, chart=chart,
                          recent=items, words=words)

    async def _player_chart(self, request: web.Request) -> web.Response:
        from ..pictures import profile_chart

        guild, user_id = await self._player(request)
        language = request.match_info["lang"]
        _, _, workers = self._parts()
        trend_game, trend = await self._trend(user_id, guild)
        if trend_game is None or not trend:
            raise web.HTTPNotFound()
        texts = Texts(language)
        title = texts(phrase(RATING_CHART, game=texts(get_game(trend_game).name)))
        png: bytes = await workers.run(profile_chart, trend, title, language)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "no-cache"})

    # -- tournaments ---------------------------------------------------------------------
    async def _tournament(self, request: web.Request) -> TournamentRow:
        """The tournament the address names, if its signature is right and its server
        allows pages; else 404."""
        tournament_id, sig = int(request.match_info["tid"]), request.match_info["sig"]
        for fresh in (False, True):
            if hmac.compare_digest(
                    _sign(await self._secret(fresh), tournament_id, "tournament"), sig):
                break
        else:
            raise web.HTTPNotFound()
        store, _, _ = self._parts()
        row = await store.tournament(tournament_id)
        if row is None or not (await store.guild_settings(row.guild_id))["web_links"]:
            raise web.HTTPNotFound()
        return row

    async def _tournament_page(self, request: web.Request) -> web.Response:
        from render.tournament import cell_text

        from ..tournaments import crosstable, from_json, standings

        row = await self._tournament(request)
        store, _, _ = self._parts()
        language = language_of_request(request)
        texts = Texts(language)
        t = from_json(row.data)
        names = {p.id: p.name for p in t.players}
        current = len(t.rounds)
        title = texts(phrase(TOURNAMENT_TITLE, tournament_id=row.id,
                             name=t.settings.name or texts(get_game(row.game).name)))
        about = texts(phrase(TOURNAMENT_GAME, game=texts(get_game(row.game).name),
                             format=texts(FORMAT_NAMES.get(row.format, row.format))))
        playing = [r.number for r in t.rounds if not r.finished] or [current]
        if row.status == "running" and len(playing) > 1:
            status = texts(phrase(ROUNDS_RUNNING, first=playing[0], last=playing[-1]))
        else:
            status = texts(phrase(TOURNAMENT_STATUS.get(row.status, TOURNAMENT_STATUS["running"]),
                                  round=playing[0]))
        table = standings(t)
        breaks = [texts(TIEBREAKS.get(name, name)) for name in table.tiebreak_names]
        standing = Fields(head=[texts(RANK), texts(PLAYER), texts(POINTS), *breaks],
                          rows=[(s.rank, names.get(s.player_id, "?"), _number(s.points),
                                 [_number(x) for x in s.tiebreaks]) for s in table.rows])
        cross = None
        if t.rounds:
            cross_rows = []
            for c in crosstable(t):
                by_round: dict[int, list[str]] = {}
                for cell in c.cells:
                    mark = cell_text(cell.code, cell.opponents)
                    by_round.setdefault(cell.round, []).append(mark)
                cross_rows.append((c.rank, names.get(c.player_id, "?"), _number(c.points),
                                   [" ".join(by_round.get(r.number, [])) for r in t.rounds]))
            cross = Fields(head=[texts(phrase(ROUND_SHORT, round=r.number)) for r in t.rounds],
                           rows=cross_rows)
        # every round still being played (a round robin pairs them all at once), so that a
        # player finds their game whichever round it belongs to
        open_rounds = [r for r in t.rounds if not r.finished] or list(t.rounds[-1:])
        entries = {(m.round, m.game_index): m.match_id
                   for m in await store.tournament_matches(row.id)}
        rounds = []
        for rnd in open_rounds:
            items = []
            for index, g in enumerate(rnd.games):
                who = " – ".join(names.get(pid, "?") for pid in g.seats)
                match_id = entries.get((rnd.number, index))
                match = await store.get_match(match_id) if match_id is not None else None
                if match is not None and match.web_token and match.state is not None:
                    items.append(Fields(who=who, match_id=match.id, bye=False,
                                        href=f"/m/{match.web_token}?lang={language}"))
                else:
                    items.append(Fields(who=who, match_id=None, bye=len(g.seats) == 1,
                                        href=None))
            rounds.append(Fields(heading=texts(phrase(ROUND_MATCHES, round=rnd.number)),
                                 games=items))
        kind = "bracket" if row.format == "knockout" else "standings"
        alt = texts(phrase(BRACKET_ALT if kind == "bracket" else TOURNAMENT_PICTURE_ALT,
                           tournament_id=row.id))
        base = request.path
        picture_src = f"{base}/picture/{row.version}-{language}.png"
        og = None
        if self.base_url and t.players:  # a pasted link shows the standings (or bracket)
            og = open_graph(title, f"{about} · {status}", self.base_url + base,
                            self.base_url + picture_src, alt)
        words = Fields(live=texts(TOURNAMENT_LIVE), standings=texts(STANDINGS),
                       bye=texts(BYE), no_round=texts(NO_ROUND),
                       crosstable=texts(CROSSTABLE), rank=texts(RANK), player=texts(PLAYER),
                       points=texts(POINTS), cross_legend=texts(CROSS_LEGEND))
        return self._page(
            "tournament.html", language, base, title, og, live=f"{base}/live",
            version=row.version, about=about, status=status, standings=standing,
            rounds=rounds, cross=cross, words=words,
            picture=Fields(src=picture_src, alt=alt) if t.players else None)

    async def _tournament_live(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the tournament's version now, then whenever it moves (the
        page reloads itself on a new one)."""
        row = await self._tournament(request)
        store, _, _ = self._parts()
        if request.method == "HEAD":
            return web.Response(headers=STREAM_HEADERS)
        watched, client = ("tournament", row.id), self._client(request)
        refused = self.gate.open_stream(watched, client)
        if refused is not None:
            return _refused(*refused)
        try:
            return await self._follow_tournament(request, store, row)
        finally:
            self.gate.close_stream(watched, client)

    async def _follow_tournament(self, request: web.Request, store: Store,
                                 row: TournamentRow) -> web.StreamResponse:
        response = web.StreamResponse(headers=STREAM_HEADERS)
        await response.prepare(request)
        sent, idle = -1, 0.0
        try:
            while not self.watch.closing:
                if row.version != sent:
                    sent = row.version
                    idle = 0.0
                    await response.write(f"event: version\ndata: {sent}\n\n".encode())
                elif idle >= PING_SECONDS:
                    idle = 0.0
                    await response.write(b": ping\n\n")
                await asyncio.sleep(TOURNAMENT_POLL)
                idle += TOURNAMENT_POLL
                fresh = await self._tournament_now(store, row.id)
                if fresh is None:
                    break
                row = fresh
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return response

    async def _tournament_now(self, store: Store, tournament_id: int) -> TournamentRow | None:
        """The tournament's row, read at most once a poll period for all of its pages'
        streams (a hundred viewers of a tournament are one read a second, not a hundred)."""
        now = asyncio.get_running_loop().time()
        found = self._tournament_reads.get(tournament_id)
        if found is None or now - found[0] >= TOURNAMENT_POLL:
            if len(self._tournament_reads) > 256:  # forget tournaments nobody watches now
                self._tournament_reads = {k: v for k, v in self._tournament_reads.items()
                                          if now - v[0] < TOURNAMENT_POLL}
            found = (now, asyncio.ensure_future(store.tournament(tournament_id)))
            self._tournament_reads[tournament_id] = found
        return await asyncio.shield(found[1])

    async def _tournament_picture(self, request: web.Request) -> web.Response:
        from ..pictures import tournament_picture

        row = await self._tournament(request)
        version = int(request.match_info["version"])
        language = request.match_info["lang"]
        if version != row.version:
            raise web.HTTPFound(
                f"{request.path.rsplit('/picture/', 1)[0]}/picture/{row.version}-{language}.png",
                headers={"Cache-Control": "no-store"})
        _, _, workers = self._parts()
        kind = "bracket" if row.format == "knockout" else "standings"

        async def draw() -> bytes:
            png: bytes = await workers.run(tournament_picture, kind, row.data, language)
            return png

        png = await self.pictures.get(("tournament", row.id, row.version, language), draw)
        return self._picture(request, png, "image/png", f'"t{row.id}-{row.version}-{language}"')

    # -- data and pictures ------------------------------------------------------------
    async def _state(self, request: web.Request) -> web.Response:
        row = await self._found(request)
        view = await self.view(row, language_of_request(request))
        return web.Response(text=safe_json(view.data), content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    async def _live(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the match now, then at each new version (sent by the watch,
        `_send_live`); the handler only waits for the stream to end."""
        row = await self._found(request)
        language = language_of_request(request)
        if request.method == "HEAD":
            return web.Response(headers=STREAM_HEADERS)
        match_id, client = row.id, self._client(request)
        refused = self.gate.open_stream(match_id, client)
        if refused is not None:
            return _refused(*refused)
        try:
            response = web.StreamResponse(headers=STREAM_HEADERS)
            await response.prepare(request)
            if self.watch.closing:
                return response
            stream = Stream(response, request.transport, language)
            self.watch.add(match_id, row.version, stream)
            # an open stream holds only what it needs: not the row read to open it, whose
            # objects every full collection of the garbage collector would walk per viewer
            del row
            try:
                # ends when the watch closes the stream, or at once when the viewer leaves:
                # the server cancels a handler whose client went (`handler_cancellation`)
                await stream.closed
            finally:
                self.watch.remove(match_id, stream)
            return response
        finally:
            self.gate.close_stream(match_id, client)

    async def follow(self, request: web.Request, row: MatchRow, language: str, socket: Any,
                     ws: web.WebSocketResponse, client: str | None = None
                     ) -> web.StreamResponse:
        """A WebSocket as a live stream (the pages inside Discord), under the same caps;
        `socket` writes events to `ws` and knows when it closes; `client`: whom the
        per-client cap counts it against (default: the address)."""
        match_id, client = row.id, client or self._client(request)
        refused = self.gate.open_stream(match_id, client)
        if refused is not None:
            return _refused(*refused)
        try:
            for name, value in self.headers.items():
                ws.headers[name] = value
            await ws.prepare(request)
            if self.watch.closing:
                await ws.close()
                return ws
            stream = Stream(socket, request.transport, language)
            self.watch.add(match_id, row.version, stream)
            del row
            try:
                await socket.until_closed(stream)
            finally:
                stream.close()
                self.watch.remove(match_id, stream)
            return ws
        finally:
            self.gate.close_stream(match_id, client)

    def _client(self, request: web.Request) -> str:
        return self.gate.client(request.remote, request.headers.get("X-Forwarded-For"))

    async def _send_live(self, match_id: int, version: int, streams: list[Stream]) -> None:
        """The match at `version` (as the move wrote it, or read once for all its viewers) to
        each of `streams`, one event per language made once."""
        moved = self.watch.last_move(match_id, version)
        row = moved.row if moved is not None else None
        if row is None:
            store, _, _ = self._parts()
            row = await self.cache.get(("row", match_id, version),
                                       functools.partial(store.get_match, match_id))
        if row is None:  # gone: the pages end
            for stream in streams:
                stream.close()
            return
        events: dict[str, bytes] = {}
        written = 0
        for stream in streams:
            if stream.sent >= row.version:
                continue
            event = events.get(stream.language)
            if event is None:
                event = events[stream.language] = (
                    await self.view(row, stream.language, moved)).event
            if await stream.write(event):
                stream.sent = row.version
            written += 1
            if written % 256 == 0:
                await asyncio.sleep(0)  # a match with many viewers: the bot's work goes between

    async def _board(self, request: web.Request) -> web.Response:
        row = await self._found(request)
        version = int(request.match_info["version"])
        language = request.match_info["lang"]
        if version != row.version:  # an older board: the current one (no-store redirect)
            raise web.HTTPFound(f"/m/{row.web_token}/board/{row.version}-{language}.png",
                                headers={"Cache-Control": "no-store"})
        if row.state is None:
            raise web.HTTPNotFound()
        png = await self.pictures.get(("board", row.id, row.version, language),
                                      lambda: self._draw_board(row, language))
        return self._picture(request, png, "image/png", f'"{row.id}-{row.version}-{language}"')

    async def _draw_board(self, row: MatchRow, language: str) -> bytes:
        from ..service.core import result_phrase, wrap

        _, _, workers = self._parts()
        texts = Texts(language)
        match = wrap(row)
        said = result_phrase(match) if row.status == "finished" else None
        names = match.names()
        result = texts(said, names) if said is not None else None
        png: bytes = await workers.run(board_picture, row.game, row.state, None, names,
                                       result, language)
        return png

    def _picture(self, request: web.Request, body: bytes, kind: str, etag: str,
                 attachment: str | None = None) -> web.Response:
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        headers = {"ETag": etag, "Cache-Control": "max-age=31536000, immutable"}
        if attachment:
            headers["Content-Disposition"] = f'attachment; filename="{attachment}"'
        return web.Response(body=body, content_type=kind, headers=headers)

    async def _frame(self, request: web.Request) -> web.Response:
        row = await self._found(request)
        version, ply = int(request.match_info["version"]), int(request.match_info["ply"])
        language = request.match_info["lang"]
        if version != row.version:
            raise web.HTTPFound(f"/m/{row.web_token}/replay?lang={language}",
                                headers={"Cache-Control": "no-store"})
        _, service, workers = self._parts()
        if row.state is None:
            raise web.HTTPNotFound()
        match, entries = await service.replay_log(row.id)
        if ply > len(entries):
            raise web.HTTPNotFound()
        texts = Texts(language)
        from ..service.core import result_phrase

        said = result_phrase(match) if row.status == "finished" else None
        names = match.names()
        result = texts(said, names) if said is not None else None
        revealed = row.status == "finished"

        async def draw() -> bytes:
            png, _ = await workers.run(replay_frame, row.game, len(row.seats), row.options,
                                       entries, ply, names, result, language, revealed)
            return bytes(png)

        png = await self.pictures.get(("frame", row.id, row.version, ply, language), draw)
        return self._picture(request, png, "image/png",
                             f'"{row.id}-{row.version}-{ply}-{language}"')

    async def _record(self, request: web.Request) -> web.Response:
        row = await self._found(request)
        _, service, _ = self._parts()
        if row.state is None:
            raise web.HTTPNotFound()
        _, text, _ = await service.record(row.id)
        return web.Response(text=text, content_type="text/plain", charset="utf-8", headers={
            "Content-Disposition": f'attachment; filename="corral-match-{row.id}.txt"',
            "Cache-Control": "no-cache"})

    async def _gif(self, request: web.Request) -> web.Response:
        row = await self._found(request)
        language = request.match_info["lang"]
        _, service, workers = self._parts()
        if row.state is None:
            raise web.HTTPNotFound()
        match, entries = await service.replay_log(row.id)
        from ..service.core import result_phrase

        texts = Texts(language)
        said = result_phrase(match) if row.status == "finished" else None
        names = match.names()
        result = texts(said, names) if said is not None else None

        async def draw() -> bytes | None:
            gif: bytes | None = await workers.run(
                replay_gif, row.game, len(row.seats), row.options, entries, names, result,
                language, GIF_BYTES)
            return gif

        gif = await self.pictures.get(("gif", row.id, row.version, language), draw)
        if gif is None:
            raise web.HTTPNotFound()
        return self._picture(request, gif, "image/gif", f'"{row.id}-{row.version}-gif"',
                             attachment=f"corral-match-{row.id}.gif")


def frame_alts(game_id: str, seat_count: int, options: dict[str, str],
               entries: list[list[Any]], names: list[str], language: str) -> list[str]:
    """The alt text of a replay's frames, the first position's and each entry's: the kit's
    words for each position's public view, as the frame draws it (`replay_frame`)."""
    game = get_game(game_id)
    texts = Texts(language)
    state = game.new(seat_count, options)
    alts = [alt_text(game, game.observe(state, None), texts, names)]
    for kind, notation in entries:
        state = game.skip(state) if kind == "skip" else game.play(state, notation)
        alts.append(alt_text(game, game.observe(state, None), texts, names))
    return alts


def open_graph(title: str, description: str, url: str, image: str, alt: str) -> Fields:
    """A page's OpenGraph tags (what a chat shows for a pasted link, the picture as well),
    for layout.html's head."""
    return Fields(title=title, description=description, url=url, image=image, alt=alt)


def match_url(base_url: str, token: str) -> str:
    return f"{base_url}/m/{quote(token)}"



def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}".rstrip("0").rstrip(".")
