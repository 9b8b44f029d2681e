"""The imitation's Activity frame in Chromium (issue 55): the real Embedded App SDK, in the
committed bundle (bot/web/static/activity.js), goes through the handshake, READY, AUTHORIZE,
the exchange of its code at the imitation's token endpoint, and AUTHENTICATE, then reaches its
match, inside the imitation's Discord client (discord_fake/oauth.py: an opaque-origin main
window and its popout), as a cross-site iframe (the popout at http://localhost:PORT, the
Activity at http://127.0.0.1:PORT2, as discord.com embeds <app>.discordsays.com) whose page
may say `frame-ancestors` (here http://localhost:*).

The Activity's server here is a stand-in written for this test (Corral's own routes are the
lead's): it serves the entry page as the contract of the issue says (its markup, its CSP,
/static/activity.js), exchanges the code, keeps a session in a `SameSite=None; Secure;
Partitioned` cookie, and lists matches. What Chromium does with that cookie in the
cross-site frame on loopback is asserted: it is kept and sent back.

One browser for the module's one test (a few seconds). Without /usr/bin/chromium or Playwright
this skips with one line; with CI=true it fails."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from discord_fake import APP_ID, FakeDiscord
from discord_fake.oauth import open_activity
from support import chromium

BUNDLE = Path(__file__).resolve().parent.parent / "bot" / "web" / "static" / "activity.js"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors http://localhost:*; base-uri 'none'; form-action 'self'")
ENTRY = f"""<!doctype html><html lang=en><meta charset=utf-8><title>Corral</title>
<script src="/static/activity.js" defer></script>
<main id="activity" data-client-id="{APP_ID}" data-signin="/auth/activity"
 data-where="/activity/matches" data-signing-in="Signing you in…"
 data-failed="Could not sign you in." data-none="No match in this channel.">
<p id="activity-status" aria-live="polite"></p><ul id="activity-matches"></ul></main>"""
COOKIE = "corral_session"


class Corral:
    """A stand-in for Corral's Activity routes, on 127.0.0.1."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Json] = {}
        self.matches: list[Json] = []
        self.refuse: str | None = None  # the sign-in answers 403 with this sentence
        self.cookies_seen: list[str | None] = []  # the session cookie on each matches request
        self.runner: web.AppRunner | None = None
        self.port = 0

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/", self.entry)
        app.router.add_get("/static/activity.js", self.script)
        app.router.add_post("/auth/activity", self.sign_in)
        app.router.add_get("/activity/matches", self.where)
        app.router.add_get("/m/{token}", self.match)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def entry(self, request: web.Request) -> web.Response:
        return web.Response(text=ENTRY, content_type="text/html",
                            headers={"Content-Security-Policy": CSP})

    async def script(self, request: web.Request) -> web.Response:
        return web.Response(body=BUNDLE.read_bytes(), content_type="text/javascript")

    async def sign_in(self, request: web.Request) -> web.Response:
        code = (await request.json())["code"]
        if self.refuse is not None:
            return web.json_response({"error": self.refuse}, status=403)
        async with aiohttp.ClientSession() as http:
            async with http.post(self.fake.token_url, data={
                    "grant_type": "authorization_code", "code": code,
                    "client_id": str(APP_ID), "client_secret": self.fake.client_secret}) as r:
                grant = await r.json()
                assert r.status == 200, grant
            async with http.get(self.fake.api_base + "/users/@me", headers={
                    "Authorization": f"Bearer {grant['access_token']}"}) as r:
                user = await r.json()
                assert r.status == 200, user
        session = secrets.token_urlsafe(16)
        self.sessions[session] = user
        response = web.json_response({"access_token": grant["access_token"],
                                      "user": {"id": user["id"], "name": user["username"]},
                                      "csrf": "c"})
        response.headers["Set-Cookie"] = (f"{COOKIE}={session}; Path=/; HttpOnly; "
                                          "SameSite=None; Secure; Partitioned")
        return response

    async def where(self, request: web.Request) -> web.Response:
        self.cookies_seen.append(request.cookies.get(COOKIE))
        if request.cookies.get(COOKIE) not in self.sessions:
            return web.json_response({"error": "Not signed in."}, status=401)
        assert request.query["channel_id"] == str(self.fake.channel_id)
        return web.json_response({"matches": self.matches})

    async def match(self, request: web.Request) -> web.Response:
        user = self.sessions.get(request.cookies.get(COOKIE, ""))
        name = user["username"] if user else "nobody"
        return web.Response(text=f"<!doctype html><title>Match</title><h1 id=who>{name}</h1>",
                            content_type="text/html")


Json = dict[str, Any]


async def test_the_sdk_in_the_imitations_frame() -> None:
    fake = FakeDiscord(check_spec=False)
    await fake.start()
    corral = Corral(fake)
    await corral.start()
    alice = fake.add_user("alice")
    try:
        async with chromium("the Activity frame test") as browser:
            context = await browser.new_context()
            await context.add_cookies(fake.login_cookies(alice))  # type: ignore[arg-type]
            await run_scenarios(fake, corral, context, watch(context))
    finally:
        await corral.stop()
        await fake.stop()


class Opened:
    """The imitation's main window, its popout, and the Activity's frame in it."""

    def __init__(self, main: Any, popout: Any, frame: Any) -> None:
        self.main, self.popout, self.frame = main, popout, frame

    async def close(self) -> None:
        await self.popout.close()
        await self.main.close()


def watch(context: Any) -> list[str]:
    """Script errors and failed loads in every page of the context (the browser's favicon
    requests left out; failed loads are told by the responses)."""
    problems: list[str] = []
    context.on("console", lambda m: problems.append(m.text) if m.type == "error" and not
               m.text.startswith("Failed to load resource") else None)
    context.on("weberror", lambda e: problems.append(str(e.error)))
    context.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400
               and not r.url.endswith("/favicon.ico") else None)
    return problems


async def open_frame(fake: FakeDiscord, corral: Corral, context: Any) -> Opened:
    main = await context.new_page()
    popout, frame = await open_activity(main, fake.activity_url(corral.origin + "/"))
    assert frame is not None and frame.url.startswith(corral.origin), popout.frames
    return Opened(main, popout, frame)


async def run_scenarios(fake: FakeDiscord, corral: Corral, context: Any,
                        problems: list[str]) -> None:
    # 1. one match here: the Activity goes to it, signed in by its cookie
    corral.matches = [
        {"id": 7, "title": "Match #7: Mancala", "url": "/m/tok7?lang=en", "here": True,
         "your_turn": True},
        {"id": 8, "title": "Match #8: Ico", "url": "/m/tok8?lang=en", "here": False,
         "your_turn": False}]
    opened = await open_frame(fake, corral, context)
    frame = opened.frame
    for _ in range(200):
        if frame.url.startswith(corral.origin + "/m/"):
            break
        await opened.popout.wait_for_timeout(50)
    assert frame.url.startswith(corral.origin + "/m/"), (
        problems, frame.url, fake.frame().commands, fake.frame().answers)
    await frame.wait_for_selector("#who")
    assert await frame.text_content("#who") == "alice"
    client = fake.frame()
    assert client.handshake is not None and client.handshake["client_id"] == str(APP_ID)
    assert client.handshake["frame_id"] == client.frame_id
    assert client.handshake.get("sdk_version") == "2.5.0"
    commands = [c for c in client.names() if c != "CAPTURE_LOG"]
    assert commands == ["AUTHORIZE", "AUTHENTICATE"], client.names()
    authorize = client.commands[client.names().index("AUTHORIZE")]["args"]
    assert authorize == {"client_id": str(APP_ID), "response_type": "code", "state": "",
                         "prompt": "none", "scope": ["identify"]}
    assert all(a[1].get("evt") != "ERROR" for a in client.answers), client.answers
    # the session cookie (SameSite=None; Secure; Partitioned) came back in the cross-site frame
    assert corral.cookies_seen and corral.cookies_seen[-1] in corral.sessions
    # kept partitioned under the top site (Chromium 156 refuses the same cookie without
    # Partitioned in this cross-site frame, and any SameSite=Lax or unmarked one)
    [kept] = [c for c in await context.cookies() if c["name"] == COOKIE]
    assert kept.get("partitionKey") == "http://localhost", kept
    assert [e.kind for e in fake.oauth_log if e.kind in ("token", "me")] == ["token", "me"]
    assert not problems, problems
    await opened.close()

    # 2. no match here: the channel's matches as links; none: the sentence
    corral.matches[0]["here"] = False
    opened = await open_frame(fake, corral, context)
    frame = opened.frame
    await frame.wait_for_selector("#activity-matches a")
    links = await frame.eval_on_selector_all(
        "#activity-matches a", "as => as.map(a => [a.textContent, a.getAttribute('href')])")
    assert links == [["Match #7: Mancala", "/m/tok7?lang=en"], ["Match #8: Ico", "/m/tok8?lang=en"]]
    await opened.close()
    corral.matches = []
    opened = await open_frame(fake, corral, context)
    frame = opened.frame
    await frame.wait_for_function(
        "() => document.getElementById('activity-status').textContent.includes('No match')")
    await opened.close()

    # 3. the sign-in refused: the page says so with the server's sentence
    corral.refuse = "Sign-in is closed <b>today</b>."
    opened = await open_frame(fake, corral, context)
    frame = opened.frame
    await frame.wait_for_function(
        "() => document.getElementById('activity-status').textContent.startsWith('Could')")
    assert await frame.text_content("#activity-status") == (
        "Could not sign you in. Sign-in is closed <b>today</b>.")  # textContent, not markup
    await opened.close()
