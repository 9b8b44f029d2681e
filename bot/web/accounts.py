"""The signed-in side of the pages: sign-in and sign-out (bot/web/signin.py), the home page
(a signed-in player's matches; inside Discord, the Activity's entry), moves from the match
page (bot/web/play.py), a player's own view of a game that hides information, and the live
updates of a page inside Discord (a WebSocket: Discord's proxy carries WebSockets).

Every route here is off (404) unless sign-in is set up (DISCORD_CLIENT_ID and
DISCORD_CLIENT_SECRET); the Activity's entry needs CORRAL_ACTIVITY too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from aiohttp import WSMsgType, web
from aiohttp_session import get_session, new_session

from games import N_

from ..words.i18n import Texts
from . import play
from .signin import (
    FRAME_SIGN_INS_PER_CLIENT,
    FRAME_SIGN_OUT,
    SIGN_IN_WINDOW,
    SIGN_INS_IN_ALL,
    SIGN_INS_PER_CLIENT,
    Discord,
    Limiter,
    SignInFailed,
    SignInSettings,
    begin,
    csrf_ok,
    finish,
    local_path,
    same_origin,
    signed_in,
    start,
)

if TYPE_CHECKING:
    from ..pool import Workers
    from ..service import Service
    from ..store import MatchRow, Store


class Site(Protocol):
    """What these routes use of the pages (`bot.web.pages.Pages`, which adds them: described
    here, not imported, so that the two modules form no import circle)."""

    base_url: str | None
    pictures: Any  # the pictures' cache: `get(key, make)`

    def parts(self) -> tuple[Store, Service, Workers]: ...

    def store(self) -> Store: ...

    async def found(self, request: web.Request) -> MatchRow: ...

    def language(self, request: web.Request) -> str: ...

    def client_of(self, request: web.Request) -> str: ...

    def title_of(self, row: MatchRow, texts: Texts) -> str: ...

    def page(self, template: str, language: str, path: str, title: str, og: Any = None,
             **context: Any) -> web.Response: ...

    async def account(self, request: web.Request, language: str, path: str) -> Any: ...

    async def follow(self, request: web.Request, row: MatchRow, language: str, socket: Any,
                     ws: web.WebSocketResponse, client: str | None = None
                     ) -> web.StreamResponse: ...

log = logging.getLogger(__name__)

MATCHES_LISTED = 25
SOCKET_MESSAGE = 256  # bytes a page may send on its socket (it sends nothing)

# -- words ---------------------------------------------------------------------------------------
HOME_TITLE = N_("Corral")
YOUR_MATCHES = N_("Your matches")
NO_MATCHES = N_("No match of yours is being played. Start one in Discord with `/play`.")
YOUR_TURN = N_("your turn")
HOME_SIGNED_OUT = N_("Corral hosts board games on Discord. Sign in with Discord to see your "
                     "matches and move from this page.")
SIGN_IN_PROBLEM = N_("Sign-in did not work")
SIGN_IN_REASONS = {
    "cancelled": N_("Sign-in was cancelled: nothing changed."),
    "stale": N_("That sign-in expired or was already used: please sign in again."),
    "refused": N_("Discord did not confirm the sign-in: please sign in again."),
    "unreachable": N_("Discord did not answer: please try again in a minute."),
    "busy": N_("Too many sign-ins from here: please wait a few minutes."),
}
BACK_HOME = N_("Back")
ACTIVITY_TITLE = N_("Corral: the board")
ACTIVITY_SIGNING_IN = N_("Signing in with Discord…")
ACTIVITY_FAILED = N_("Could not sign in:")
ACTIVITY_NONE = N_("You have no match being played here. Start one with `/play`.")
ACTIVITY_NEEDS_SCRIPT = N_("This board needs JavaScript, which Discord's app runs.")
ACTIVITY_NO_DISCORD = N_("Discord did not answer. This page works inside Discord: open it with "
                         "the Open board button under a match's board.")
REFUSED_TITLE = N_("Not played")


class Accounts:
    """Routes for signed-in players, over the pages (`Pages`: the store, the service, the
    templates, the live streams)."""

    def __init__(self, pages: Site, settings: SignInSettings | None, activity: bool):
        self.pages = pages
        self.settings = settings
        self.activity = activity and settings is not None
        self.discord = Discord(settings) if settings is not None else None
        self.sign_ins = Limiter(SIGN_INS_PER_CLIENT, SIGN_IN_WINDOW)
        self.frame_sign_ins = Limiter(FRAME_SIGN_INS_PER_CLIENT, SIGN_IN_WINDOW)
        self.all_sign_ins = Limiter(SIGN_INS_IN_ALL, SIGN_IN_WINDOW)
        self.frame_origin = settings.frame_origin if settings is not None and activity else None

    def add_routes(self, app: web.Application) -> None:
        t = "{token:[A-Za-z0-9_-]{22}}"
        app.router.add_get("/", self._home)
        if self.settings is None:
            return
        app.router.add_get("/auth/login", self._login)
        app.router.add_get("/auth/callback", self._callback)
        app.router.add_post("/auth/signout", self._signout)
        app.router.add_post(f"/m/{t}/move", self._move)
        app.router.add_get(f"/m/{t}/mine/{{version:[0-9]{{1,9}}}}-{{lang:en|ja}}.png",
                           self._mine)
        if self.activity:
            app.router.add_post("/auth/activity", self._activity_sign_in)
            app.router.add_get("/activity/matches", self._activity_matches)
            app.router.add_get(f"/m/{t}/socket", self._socket)

    # -- sign-in -------------------------------------------------------------------------
    def _allowed(self, request: web.Request, limiter: Limiter | None = None) -> bool:
        """Within this address's sign-ins and everyone's (each costs a request to Discord)."""
        client = self.pages.client_of(request)
        # "" is a process on this machine that forwards no address: the gate's per-client
        # caps do not count it, nor does this one (everyone's still does)
        return (not client or (limiter or self.sign_ins).allow(client)) \
            and self.all_sign_ins.allow("all")

    async def close(self) -> None:
        if self.discord is not None:
            await self.discord.close()

    async def _login(self, request: web.Request) -> web.StreamResponse:
        assert self.discord is not None
        language = self.pages.language(request)
        going = local_path(request.query.get("next", "/"))
        if await signed_in(request) is not None:  # already: a link never signs anyone out
            raise web.HTTPSeeOther(going, headers={"Cache-Control": "no-store"})
        if not self._allowed(request):
            return self._problem(request, language, "busy", 429)
        address = await begin(request, self.discord, going)
        raise web.HTTPSeeOther(address, headers={"Cache-Control": "no-store"})

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        assert self.discord is not None
        language = self.pages.language(request)
        if not self._allowed(request):
            return self._problem(request, language, "busy", 429)
        try:
            going = await finish(request, self.discord)
        except SignInFailed as exc:
            return self._problem(request, language, exc.reason, 400)
        raise web.HTTPSeeOther(going, headers={"Cache-Control": "no-store"})

    async def _signout(self, request: web.Request) -> web.StreamResponse:
        user = await signed_in(request)
        form = await request.post()
        going = local_path(play.form_text(form, "next"))
        if user is not None:
            if not same_origin(request, self.pages.base_url, self.frame_origin) or not csrf_ok(
                    user, play.form_text(form, "csrf")):
                return self._refusal(request, self.pages.language(request), going,
                                     play.Refused(403, play.FORM_EXPIRED))
            request[FRAME_SIGN_OUT] = user.frame
            (await get_session(request)).invalidate()
        raise web.HTTPSeeOther(going)

    async def _activity_sign_in(self, request: web.Request) -> web.StreamResponse:
        """The Activity's code (from the SDK's `authorize`) exchanged here; the access token
        goes back for the SDK's `authenticate`, and the session starts (a frame's cookie)."""
        assert self.discord is not None
        language = self.pages.language(request)
        texts = Texts(language)
        if request.content_type != "application/json" or not same_origin(
                request, self.pages.base_url, self.frame_origin):
            return web.json_response({"error": texts(play.FORM_EXPIRED)}, status=403)
        if not self._allowed(request, self.frame_sign_ins):
            return web.json_response({"error": texts(SIGN_IN_REASONS["busy"])}, status=429)
        try:
            body = await request.json()
            code = body.get("code") if isinstance(body, dict) else None
            if not isinstance(code, str):
                raise SignInFailed("refused")
            access, user_id, name = await self.discord.exchange(code, redirect=False)
        except (ValueError, SignInFailed) as exc:
            reason = exc.reason if isinstance(exc, SignInFailed) else "refused"
            return web.json_response({"error": texts(SIGN_IN_REASONS[reason])}, status=400)
        csrf = start(await new_session(request), user_id, name, frame=True)
        return web.json_response(
            {"access_token": access, "user": {"id": str(user_id), "name": name},
             "csrf": csrf}, headers={"Cache-Control": "no-store"})

    async def _activity_matches(self, request: web.Request) -> web.StreamResponse:
        """The signed-in player's matches being played, those of the Activity's channel
        marked `here` (the page opens the one match there at once)."""
        user = await signed_in(request)
        if user is None:
            return web.json_response({"matches": []}, status=401)
        language = self.pages.language(request)
        channel = request.query.get("channel_id", "")[:20]
        listed = await self._matches_of(user.id, language)
        for item in listed:
            item["here"] = channel.isdigit() and int(channel) in item.pop("channels")
        return web.json_response({"matches": listed}, headers={"Cache-Control": "no-store"})

    async def _matches_of(self, user_id: int, language: str) -> list[dict[str, Any]]:
        from ..service.core import wrap

        store = self.pages.store()
        texts = Texts(language)
        listed = []
        for row in (await store.live_matches_of(user_id))[:MATCHES_LISTED]:
            if not row.web_token or not (await store.guild_settings(row.guild_id))["web_links"]:
                continue
            match = wrap(row)
            mover = match.to_move() if row.status == "active" else None
            listed.append({
                "id": row.id,
                "title": self.pages.title_of(row, texts),
                "url": f"/m/{row.web_token}?lang={language}",
                "your_turn": mover is not None and mover.user_id == user_id,
                "channels": list(row.channels)})
        return listed

    def _problem(self, request: web.Request, language: str, reason: str,
                 status: int) -> web.Response:
        texts = Texts(language)
        response = self.pages.page(
            "message.html", language, request.path, texts(SIGN_IN_PROBLEM),
            heading=texts(SIGN_IN_PROBLEM), message=texts(SIGN_IN_REASONS[reason]),
            back=(f"/?lang={language}", texts(BACK_HOME)))
        response.set_status(status)
        return response

    # -- the home page and the Activity's entry ------------------------------------------
    async def _home(self, request: web.Request) -> web.StreamResponse:
        language = self.pages.language(request)
        texts = Texts(language)
        if self.activity and "frame_id" in request.query:
            assert self.settings is not None
            return self.pages.page(
                "activity.html", language, "/", texts(ACTIVITY_TITLE), framed=True,
                client_id=self.settings.client_id,
                words={"signing_in": texts(ACTIVITY_SIGNING_IN),
                       "failed": texts(ACTIVITY_FAILED),
                       "none": texts(ACTIVITY_NONE).replace("`", ""),
                       "script": texts(ACTIVITY_NEEDS_SCRIPT),
                       "no_discord": texts(ACTIVITY_NO_DISCORD)})
        user = await signed_in(request) if self.settings is not None else None
        listed = await self._matches_of(user.id, language) if user is not None else []
        for item in listed:
            item.pop("channels")
            if item["your_turn"]:
                item["title"] += " — " + texts(YOUR_TURN)
        return self.pages.page(
            "home.html", language, "/", texts(HOME_TITLE), heading=texts(HOME_TITLE),
            account=await self.pages.account(request, language, "/"),
            intro=texts(HOME_SIGNED_OUT) if user is None else "",
            matches_title=texts(YOUR_MATCHES), matches=listed,
            none=texts(NO_MATCHES) if user is not None and not listed else "")

    # -- moves -------------------------------------------------------------------------
    async def _move(self, request: web.Request) -> web.StreamResponse:
        row = await self.pages.found(request)
        language = self.pages.language(request)
        _, service, _ = self.pages.parts()
        try:
            going = await play.move(request, row, service, self.pages.base_url, language,
                                    self.frame_origin)
        except play.Refused as exc:
            return self._refusal(request, language, f"/m/{row.web_token}?lang={language}", exc)
        raise web.HTTPSeeOther(going, headers={"Cache-Control": "no-store"})

    def _refusal(self, request: web.Request, language: str, back: str,
                 refused: play.Refused) -> web.Response:
        texts = Texts(language)
        response = self.pages.page(
            "message.html", language, request.path, texts(REFUSED_TITLE),
            heading=texts(REFUSED_TITLE), message=texts(refused.sentence),
            back=(back, texts(BACK_HOME)))
        response.set_status(refused.status)
        return response

    async def _mine(self, request: web.Request) -> web.StreamResponse:
        """A player's own view of a game that hides information, to that player only."""
        from ..pictures import board_picture
        from ..service.core import wrap

        row = await self.pages.found(request)
        user = await signed_in(request)
        seat = row.seat_of(user.id) if user is not None else None
        if seat is None or row.state is None or not wrap(row).game.info.hidden_information:
            raise web.HTTPNotFound()
        language = request.match_info["lang"]
        if int(request.match_info["version"]) != row.version:
            raise web.HTTPFound(f"/m/{row.web_token}/mine/{row.version}-{language}.png",
                                headers={"Cache-Control": "no-store"})
        _, _, workers = self.pages.parts()
        names, state = wrap(row).names(), row.state

        async def draw() -> bytes:
            png: bytes = await workers.run(board_picture, row.game, state, seat, names, None,
                                           language)
            return png

        png = await self.pages.pictures.get(("mine", row.id, row.version, seat, language), draw)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "private, no-store"})

    # -- live updates inside Discord -------------------------------------------------------
    async def _socket(self, request: web.Request) -> web.StreamResponse:
        """The live stream's events over a WebSocket (what Discord's proxy carries), under
        the same caps as the server-sent events."""
        row = await self.pages.found(request)
        language = self.pages.language(request)
        ws = web.WebSocketResponse(max_msg_size=SOCKET_MESSAGE, heartbeat=None,
                                   autoping=True, compress=False)  # 33 kB a socket, not 100
        if not ws.can_prepare(request).ok:
            raise web.HTTPBadRequest()
        # players inside Discord share the few addresses of Discord's proxy: a signed-in
        # player's sockets count as theirs, not the proxy's
        user = await signed_in(request)
        client = f"user:{user.id}" if user is not None else None
        return await self.pages.follow(request, row, language, _Socket(ws), ws, client)


class _Socket:
    """A WebSocket as a live stream's response: each event's data as one text message, a
    keep-alive as a ping."""

    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws

    async def write(self, data: bytes) -> None:
        if data.startswith(b":"):
            await self.ws.ping()
            return
        for line in data.split(b"\n"):
            if line.startswith(b"data: "):
                await self.ws.send_str(line[6:].decode())

    async def until_closed(self, stream: Any) -> None:
        """Reads (and drops) what the page sends, until it closes or the stream ends."""
        async def drain() -> None:
            async for message in self.ws:
                if message.type in (WSMsgType.CLOSE, WSMsgType.ERROR):
                    break

        reading = asyncio.ensure_future(drain())
        try:
            await asyncio.wait({reading, stream.closed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reading
            with contextlib.suppress(Exception):
                await self.ws.close()



def login_path(path: str) -> str:
    """The sign-in link of a page at `path` (which it comes back to)."""
    return "/auth/login?next=" + quote(path, safe="/?=&")

