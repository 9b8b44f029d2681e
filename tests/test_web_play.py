"""Sign in with Discord and move on the web page, over HTTP (the browser tests drive the same in
Chromium: tests/e2e/test_web_play_e2e.py): the OAuth2 code flow through the Discord
imitation, the page's move forms driven by the game's own entry steps, and every refusal a
hostile or confused request meets — signed out, without or with a forged CSRF token, from
another site, by someone who is not a player, by the wrong player, on a stale version,
posted again — each leaving the match as it was. Consequence's hidden tiles stay with their
owner on signed-in pages; the Activity's sign-in, its list of matches and its WebSocket."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import AsyncIterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from discord_fake import APP_ID, FakeDiscord

from bot.pool import Workers
from bot.service import Player
from bot.web import pages as webpages
from bot.web.server import WebServer, _Standalone
from bot.web.signin import COOKIE, SignInSettings
from bot.words.descriptions import alt_text, view_of
from bot.words.i18n import Texts
from games import get_game

pytestmark = pytest.mark.parametrize("store", ["sqlite"], indirect=True)
CHANNEL, GUILD = 830, 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def signed_site(store, service, fake):
    """The pages with sign-in and the Activity on, their OAuth2 at the imitation."""
    workers = Workers(1, "thread")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    fake.oauth_redirect_uris.add(base + "/auth/callback")
    settings = SignInSettings(str(APP_ID), fake.client_secret, fake.api_base, base)
    server = WebServer(_Standalone(store, service, workers), None, "127.0.0.1", port,  # type: ignore[arg-type]
                       base_url=base, sign_in=settings, activity=True,
                       frame_ancestors="http://localhost:*")
    await server.start()
    yield base, server
    await server.stop()
    workers.shutdown()


class Browser:
    """A browser: cookies kept, redirects seen one by one; `headers` on every request (a
    bench's X-Forwarded-For, so that each of its players is a client of its own)."""

    def __init__(self, base: str, headers: dict[str, str] | None = None):
        self.base = base
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                             headers=headers)

    async def get(self, path: str, **kw: Any) -> tuple[int, str, dict[str, str]]:
        url = path if path.startswith("http") else self.base + path
        async with self.session.get(url, allow_redirects=False, **kw) as r:
            return r.status, (await r.read()).decode("utf-8", "replace"), dict(r.headers)

    async def post(self, path: str, data: Any, **kw: Any) -> tuple[int, str, dict[str, str]]:
        async with self.session.post(self.base + path, data=data, allow_redirects=False,
                                     **kw) as r:
            return r.status, await r.text(), dict(r.headers)

    async def close(self) -> None:
        await self.session.close()


async def sign_in(fake: FakeDiscord, base: str, user_id: int, next_path: str = "/",
                  headers: dict[str, str] | None = None) -> Browser:
    """Through Discord's pages as a person would: logged in at Discord, Sign in, Authorize."""
    browser = Browser(base, headers)
    status, _, _ = await browser.get(fake.browser_login_url(user_id))
    assert status == 200
    status, _, headers = await browser.get(f"/auth/login?next={next_path}")
    assert status == 303
    where = urlsplit(headers["Location"])
    assert f"{where.scheme}://{where.netloc}{where.path}" == fake.authorize_url
    query = {k: v[0] for k, v in parse_qs(where.query).items()}
    assert query["scope"] == "identify" and query["redirect_uri"] == base + "/auth/callback"
    async with browser.session.post(fake.authorize_url, data={**query, "decision": "authorize"},
                                    allow_redirects=False) as r:
        assert r.status == 302
        callback = r.headers["Location"]
    status, _, headers = await browser.get(callback)
    assert status == 303 and headers["Location"] == next_path
    return browser


class Forms(HTMLParser):
    """The move form's hidden fields and the values of its buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden: dict[str, str] = {}
        self.choices: list[str] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and (a.get("action") or "").startswith("/m/"):
            self.inside = True
        if not self.inside:
            return
        if tag == "input" and a.get("type") == "hidden":
            self.hidden[a["name"] or ""] = a.get("value") or ""
        if tag in ("button", "option", "input") and a.get("name", "choice") == "choice" \
                and a.get("value") and tag != "input" or (tag == "input"
                                                          and a.get("type") == "checkbox"):
            self.choices.append(a.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def form_of(page: str) -> Forms:
    forms = Forms()
    forms.feed(page)
    return forms


async def mancala(service, alice: Player, bob: Player):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=alice, opponent=bob,
                                     guild_id=GUILD, channel_id=CHANNEL, first="me")
    return await service.accept(match.id, bob.user_id)


async def users(fake: FakeDiscord, *names: str) -> list[Player]:
    return [Player(fake.add_user(name), name) for name in names]


async def test_a_player_signs_in_and_moves_with_the_pages_forms(signed_site, service, store,
                                                                fake):
    base, _ = signed_site
    alice, bob = await users(fake, "Alice", "Bob")
    match = await mancala(service, alice, bob)
    page = f"/m/{match.row.web_token}"
    # signed out: the page offers sign-in and no move
    anonymous = Browser(base)
    status, html_text, headers = await anonymous.get(page)
    assert status == 200 and 'id="sign-in"' in html_text and 'id="move"' not in html_text
    assert "form-action 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors http://localhost:*" in headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in headers
    await anonymous.close()
    browser = await sign_in(fake, base, alice.user_id, page)
    try:
        cookie = next(c for c in browser.session.cookie_jar if c.key == COOKIE)
        assert cookie["httponly"] and cookie["samesite"] == "Lax"
        status, html_text, headers = await browser.get(page)
        assert "Signed in as Alice" in html_text and 'id="sign-out"' in html_text
        assert headers["Cache-Control"] == "private, no-store"
        # a sign-in link followed while signed in goes back at once, still signed in
        status, _, headers = await browser.get(f"/auth/login?next={page}")
        assert status == 303 and headers["Location"] == page
        assert "Signed in as Alice" in (await browser.get(page))[1]
        form = form_of(html_text)
        game = get_game("progressive-mancala")
        legal = game.legal_notations(match.state)
        assert sorted(form.choices) == sorted(legal)  # the game's own step, as buttons
        before = (await store.get_match(match.id)).version
        status, _, headers = await browser.post(
            f"{page}/move?lang=en", {**form.hidden, "choice": form.choices[0]})
        assert status == 303 and headers["Location"].startswith(page)
        after = await service.get(match.id)
        assert after.row.version > before and after.ply() == 1
        entries = await store.moves(match.id)
        assert [(e.actor_id, e.notation) for e in entries if e.kind == "move"] == [
            (alice.user_id, form.choices[0])]
        status, html_text, _ = await browser.get(headers["Location"])
        assert "Played: " in html_text and 'id="move"' not in html_text  # Bob's turn now
        # the home page lists the match, and sign-out ends the session
        status, home, _ = await browser.get("/")
        assert f'href="{page}?lang=en"' in home
        status, text, _ = await browser.post("/auth/signout", {"csrf": "stale", "next": page})
        assert status == 403 and "was not accepted" in text  # a page, not a server error
        status, _, headers = await browser.post(
            "/auth/signout", {"csrf": form.hidden["csrf"], "next": page})
        assert status == 303 and headers["Location"] == page
        status, html_text, _ = await browser.get(page)
        assert 'id="sign-in"' in html_text
    finally:
        await browser.close()


async def test_every_refused_move_changes_nothing(signed_site, service, store, fake):
    base, _ = signed_site
    alice, bob, carol = await users(fake, "Alice", "Bob", "Carol")
    match = await mancala(service, alice, bob)
    page = f"/m/{match.row.web_token}"
    move = f"{page}/move?lang=en"
    browsers = {p.name: await sign_in(fake, base, p.user_id, page) for p in (alice, bob, carol)}
    try:
        _, html_text, _ = await browsers["Alice"].get(page)
        good = form_of(html_text)
        choice = good.choices[0]
        version = (await store.get_match(match.id)).version

        async def unchanged() -> None:
            assert (await store.get_match(match.id)).version == version

        # signed out
        anonymous = Browser(base)
        status, text, _ = await anonymous.post(move, {**good.hidden, "choice": choice})
        assert status == 403 and "Sign in with Discord to move" in text
        await anonymous.close()
        await unchanged()
        # no CSRF token, a forged one, and another site's form with the right one
        for fields, extra in (({k: v for k, v in good.hidden.items() if k != "csrf"}, {}),
                              ({**good.hidden, "csrf": "forged" * 4}, {}),
                              (good.hidden, {"headers": {"Origin": "https://evil.example"}})):
            status, text, _ = await browsers["Alice"].post(move, {**fields, "choice": choice},
                                                           **extra)
            assert status == 403 and "was not accepted" in text
            await unchanged()
        # Alice's token in Bob's session is still not Bob's
        status, _, _ = await browsers["Bob"].post(move, {**good.hidden, "choice": choice})
        assert status == 403
        await unchanged()
        # Carol is no player
        _, carol_page, _ = await browsers["Carol"].get(page)
        assert 'id="move"' not in carol_page
        carol_csrf = re.search(r'name="csrf" value="([^"]+)"', carol_page)[1]  # sign-out's
        status, text, _ = await browsers["Carol"].post(
            move, {**good.hidden, "csrf": carol_csrf, "choice": choice})
        assert status == 403 and "Only the match&#39;s players can move" in text
        await unchanged()
        # Bob, whose turn it is not, with his own token: the service's refusal, said on the page
        _, bob_page, _ = await browsers["Bob"].get(page)
        assert 'id="move"' not in bob_page
        bob_csrf = re.search(r'name="csrf" value="([^"]+)"', bob_page)[1]
        status, _, headers = await browsers["Bob"].post(
            move, {**good.hidden, "csrf": bob_csrf, "choice": choice})
        assert status == 303
        _, bob_page, _ = await browsers["Bob"].get(headers["Location"])
        assert "not your turn" in bob_page.lower()
        await unchanged()
        # a choice that is no option of the step
        status, _, headers = await browsers["Alice"].post(move, {**good.hidden, "choice": "zz"})
        assert status == 303
        _, text, _ = await browsers["Alice"].get(headers["Location"])
        assert 'id="flash"' in text
        await unchanged()
        # the real move, then the same form again (replayed): the version has moved
        status, _, _ = await browsers["Alice"].post(move, {**good.hidden, "choice": choice})
        assert status == 303
        version = (await store.get_match(match.id)).version
        status, _, headers = await browsers["Alice"].post(move, {**good.hidden,
                                                                 "choice": choice})
        assert status == 303 and "stale=1" in headers["Location"]
        _, text, _ = await browsers["Alice"].get(headers["Location"])
        assert "moved on since this page was loaded" in text
        await unchanged()
        assert len([e for e in await store.moves(match.id) if e.kind == "move"]) == 1
        # Back (or anything) on a match that has not started: said, not a server error
        waiting = await service.open_match(game_id="progressive-mancala", options={},
                                           host=alice, opponent=bob, guild_id=GUILD,
                                           channel_id=CHANNEL + 5, first="me")
        waiting_page = f"/m/{waiting.row.web_token}"
        status, _, headers = await browsers["Alice"].post(
            f"{waiting_page}/move?lang=en", {**good.hidden, "version": str(waiting.row.version),
                                             "back": "1", "answers": "1"})
        assert status == 303
        assert "has not started" in (await browsers["Alice"].get(headers["Location"]))[1]
        # only POST moves; a GET is not allowed
        status, _, _ = await browsers["Alice"].get(move)
        assert status == 405
    finally:
        for browser in browsers.values():
            await browser.close()


async def test_consequence_hidden_tiles_stay_with_their_owner_on_signed_in_pages(
        signed_site, service, store, fake):
    base, _ = signed_site
    alice, bob, carol = await users(fake, "Alice", "Bob", "Carol")
    match = await service.open_match(game_id="consequence", options={}, host=alice,
                                     opponent=bob, guild_id=GUILD, channel_id=CHANNEL,
                                     first="me")
    match = await service.accept(match.id, bob.user_id)
    page = f"/m/{match.row.web_token}"
    game = get_game("consequence")
    texts = Texts("en")
    browsers = {p.name: await sign_in(fake, base, p.user_id, page) for p in (alice, bob, carol)}
    anonymous = Browser(base)
    try:
        for _ in range(4):  # moves from the web, whoever's turn it is
            match = await service.get(match.id)
            mover = match.to_move()
            _, html_text, _ = await browsers[mover.name].get(page)
            while True:
                form = form_of(html_text)
                status, _, headers = await browsers[mover.name].post(
                    f"{page}/move?lang=en", {**form.hidden, "choice": form.choices[0]})
                assert status == 303
                # a private answer is never in an address (history, logs, Referer)
                assert "answers" not in headers["Location"]
                if not headers["Location"].endswith("#move"):
                    break
                _, html_text, _ = await browsers[mover.name].get(headers["Location"])
        match = await service.get(match.id)
        own = {p.name: alt_text(game, view_of(game, match.state, seat), texts, match.names())
               for seat, p in enumerate((alice, bob))}
        public = alt_text(game, view_of(game, match.state, None), texts, match.names())
        assert own["Alice"] != public and own["Bob"] != public
        pages = {name: (await b.get(page))[1] for name, b in browsers.items()}
        pages["nobody"] = (await anonymous.get(page))[1]
        for name, html_text in pages.items():
            for owner, alt in own.items():
                seen = alt.replace("'", "&#39;").replace('"', "&#34;")
                assert (seen in html_text) == (name == owner), (name, owner)
        # the own view's picture (the player's board): to its owner only, never cached
        mine = re.search(r'id="board" src="(/m/[^"]+/mine/[^"]+)"', pages["Alice"])[1]
        async with browsers["Alice"].session.get(base + mine) as r:
            assert r.status == 200 and r.headers["Cache-Control"] == "private, no-store"
            alices = await r.read()
        for other in (browsers["Carol"], anonymous):
            status, _, _ = await other.get(mine)
            assert status == 404
        # Bob asking for the same address gets his own view, not Alice's
        async with browsers["Bob"].session.get(base + mine) as r:
            assert r.status == 200 and await r.read() != alices
        for name in ("Carol", "nobody"):
            assert "/mine/" not in pages[name] and 'id="own-view"' not in pages[name]
    finally:
        for browser in (*browsers.values(), anonymous):
            await browser.close()


async def test_sign_in_problems_are_said_and_change_nothing(signed_site, fake):
    base, _ = signed_site
    alice, = await users(fake, "Alice")
    browser = Browser(base)
    try:
        await browser.get(fake.browser_login_url(alice.user_id))
        # a callback with no sign-in begun, or another state
        status, text, _ = await browser.get("/auth/callback?code=abc&state=nope")
        assert status == 400 and "expired or was already used" in text
        status, _, headers = await browser.get("/auth/login?next=https://evil.example/")
        query = {k: v[0] for k, v in parse_qs(urlsplit(headers["Location"]).query).items()}
        status, text, _ = await browser.get(
            f"/auth/callback?code=abc&state={query['state']}x")
        assert status == 400
        # Cancel on Discord's page
        async with browser.session.post(fake.authorize_url, data={**query, "decision": "cancel"},
                                        allow_redirects=False) as r:
            cancelled = r.headers["Location"]
        status, text, _ = await browser.get(cancelled)
        assert status == 400 and "cancelled" in text
        # a code Discord refuses (made up)
        status, _, headers = await browser.get("/auth/login")
        query = {k: v[0] for k, v in parse_qs(urlsplit(headers["Location"]).query).items()}
        status, text, _ = await browser.get(f"/auth/callback?code=made-up&state={query['state']}")
        assert status == 400 and "did not confirm" in text
        assert not any(c.key == COOKIE and "user" in c.value for c in browser.session.cookie_jar)
        # a callback sent again with the same cookie and state: refused, Discord not asked
        signed = Browser(base)
        await signed.get(fake.browser_login_url(alice.user_id))
        _, _, headers = await signed.get("/auth/login?next=/")
        query = {k: v[0] for k, v in parse_qs(urlsplit(headers["Location"]).query).items()}
        jar = [(c.key, c.value) for c in signed.session.cookie_jar if c.key == COOKIE]
        async with signed.session.post(fake.authorize_url, data={**query, "decision": "authorize"},
                                       allow_redirects=False) as r:
            callback = r.headers["Location"]
        status, _, _ = await signed.get(callback)
        assert status == 303
        exchanges = len([e for e in fake.oauth_log if e.kind == "token"])
        signed.session.cookie_jar.update_cookies(dict(jar))  # the old cookie, state and all
        status, text, _ = await signed.get(callback)
        assert status == 400 and "expired or was already used" in text
        assert len([e for e in fake.oauth_log if e.kind == "token"]) == exchanges
        await signed.close()
        # and too many sign-ins from one address are refused for a while
        # (a client behind the trusted local proxy: its address in X-Forwarded-For)
        away = {"X-Forwarded-For": "203.0.113.7"}
        statuses = [(await browser.get("/auth/login", headers=away))[0] for _ in range(12)]
        assert statuses[:10] == [303] * 10 and statuses[10:] == [429, 429]
    finally:
        await browser.close()


async def test_the_activity_signs_in_by_code_lists_the_channels_match_and_follows_it_live(
        signed_site, service, store, fake):
    base, _ = signed_site
    alice, bob = await users(fake, "Alice", "Bob")
    match = await mancala(service, alice, bob)
    browser = Browser(base)
    try:
        status, shell, headers = await browser.get(
            "/?frame_id=f1&instance_id=i1&platform=desktop&channel_id=830")
        assert status == 200 and 'id="activity"' in shell and "/static/activity.js" in shell
        assert f'data-client-id="{APP_ID}"' in shell
        # refused: not JSON, another site, a made-up code
        status, _, _ = await browser.post("/auth/activity", {"code": "x"})
        assert status == 403
        status, _, _ = await browser.post(
            "/auth/activity", json.dumps({"code": fake.issue_code(alice.user_id)}),
            headers={"Content-Type": "application/json", "Origin": "https://evil.example"})
        assert status == 403
        status, text, _ = await browser.post("/auth/activity", json.dumps({"code": "nope"}),
                                             headers={"Content-Type": "application/json"})
        assert status == 400 and "error" in json.loads(text)
        # Discord's proxy serves the page at https://<application id>.discordsays.com
        status, text, headers = await browser.post(
            "/auth/activity", json.dumps({"code": fake.issue_code(alice.user_id)}),
            headers={"Content-Type": "application/json",
                     "Origin": f"https://{APP_ID}.discordsays.com"})
        assert status == 200, text
        answer = json.loads(text)
        assert answer["user"] == {"id": str(alice.user_id), "name": "Alice"}
        assert answer["access_token"] and answer["csrf"]
        assert "Partitioned" in headers["Set-Cookie"] and "SameSite=None" in headers["Set-Cookie"]
        # a Secure cookie over plain http: aiohttp's jar keeps it back (Chromium sends it on
        # loopback: the browser test), so it goes by hand here
        sealed = headers["Set-Cookie"].split(";")[0]
        browser.session.cookie_jar.update_cookies({COOKIE: sealed.split("=", 1)[1]})
        status, text, _ = await browser.get(f"/activity/matches?channel_id={CHANNEL}")
        assert status == 200
        listed = json.loads(text)["matches"]
        assert [(m["id"], m["here"], m["your_turn"]) for m in listed] == [(match.id, True, True)]
        status, text, _ = await browser.get("/activity/matches?channel_id=1")
        assert json.loads(text)["matches"][0]["here"] is False
        # the match page in the frame follows the match over a WebSocket
        page = listed[0]["url"]
        status, html_text, _ = await browser.get(page)
        assert 'data-socket="/m/' in html_text and 'data-live=""' in html_text
        socket_url = re.search(r'data-socket="([^"]+)"', html_text)[1].replace("&amp;", "&")
        async with browser.session.ws_connect(base + socket_url) as ws:
            first = json.loads((await ws.receive(timeout=10)).data)
            assert first["version"] == match.row.version
            notation = get_game("progressive-mancala").legal_notations(match.state)[0]
            await service.play(match.id, alice.user_id, notation)
            server = signed_site[1]
            server.kick()
            nxt = json.loads((await ws.receive(timeout=10)).data)
            assert nxt["version"] > first["version"] and len(nxt["moves"]) == 1
        # sign-out inside the frame deletes the partitioned cookie (attributes and all)
        csrf = re.search(r'name="csrf" value="([^"]+)"', html_text)[1]
        status, _, headers = await browser.post("/auth/signout", {"csrf": csrf, "next": "/"})
        assert status == 303
        deleted = headers["Set-Cookie"]
        assert deleted.startswith(COOKIE + "=;") and "Max-Age=0" in deleted
        assert "Partitioned" in deleted and "SameSite=None" in deleted
        # without a session there is nothing to list
        anonymous = Browser(base)
        status, _, _ = await anonymous.get("/activity/matches?channel_id=830")
        assert status == 401
        await anonymous.close()
    finally:
        await browser.close()


async def test_every_template_is_used_by_a_page(signed_site, service, store, fake, monkeypatch):
    """With test_web_templates' pages (match, replay, player, tournament), the signed-in ones:
    the home page, a refusal or sign-in problem, the Activity's entry."""
    base, _ = signed_site
    used: set[str] = set()
    real = webpages.TEMPLATES.get_template

    def recorded(name, *args, **kwargs):
        used.add(str(name))
        return real(name, *args, **kwargs)

    monkeypatch.setattr(webpages.TEMPLATES, "get_template", recorded)
    browser = Browser(base)
    await browser.get("/")
    await browser.get("/?frame_id=f&instance_id=i&platform=desktop")
    await browser.get("/auth/callback?state=x")
    await browser.close()
    assert {"home.html", "activity.html", "message.html", "layout.html"} <= used

