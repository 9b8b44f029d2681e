"""The Discord imitation's OAuth2 (issue 55): the authorization code grant with scope
`identify` as a browser and a web server go through it, driven over HTTP with aiohttp (no bot,
no browser), every refusal, LAUNCH_ACTIVITY, and the Activity client's answers to the Embedded
App SDK's messages (the browser test of the real SDK: test_discord_fake_activity.py).

Sources: topics/oauth2.mdx (URLs, the code grant, the token response, refresh, revocation,
form-encoded bodies only), the OpenAPI description (UserPIIResponse for GET /users/@me,
LaunchActivityInteractionCallbackRequest), interactions/receiving-and-responding.mdx and
change-log.mdx (LAUNCH_ACTIVITY for commands, components and modals), topics/rpc.mdx and
topics/opcodes-and-status-codes.mdx (RPC error and close codes), the SDK's Discord.mjs."""

from __future__ import annotations

import base64
import html
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from discord_fake import APP_ID, FakeDiscord
from discord_fake.oauth import LOGIN_COOKIE
from test_discord_fake import Api

REDIRECT = "http://127.0.0.1:9/auth/callback"
UNAUTHORIZED = {"message": "401: Unauthorized", "code": 0}
INVALID_CODE = {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    server.oauth_redirect_uris.add(REDIRECT)
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def browser(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A browser: it keeps cookies (the imitation's login) and does not follow redirects."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session


@pytest.fixture
async def api(fake: FakeDiscord) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        yield Api(fake, session)


def authorize_query(**changes: str) -> dict[str, str]:
    query = {"client_id": str(APP_ID), "response_type": "code", "scope": "identify",
             "redirect_uri": REDIRECT, "state": "s-123"}
    query.update(changes)
    return {k: v for k, v in query.items() if v != "-"}


async def login(fake: FakeDiscord, browser: aiohttp.ClientSession, user: int) -> None:
    async with browser.get(fake.browser_login_url(user)) as r:
        assert r.status == 200 and "Logged in as" in await r.text()


async def consent(fake: FakeDiscord, browser: aiohttp.ClientSession, decision: str = "authorize",
                  **changes: str) -> dict[str, list[str]]:
    """Open the authorize page, press a button; the query the browser is redirected with."""
    query = authorize_query(**changes)
    async with browser.get(fake.authorize_url, params=query) as r:
        page = await r.text()
        assert r.status == 200, page
        assert "Corral" in page and "<li>identify</li>" in page
        assert "Authorize</button>" in page and "Cancel</button>" in page
    async with browser.post(fake.authorize_url, data={**query, "decision": decision},
                            allow_redirects=False) as r:
        assert r.status == 302
        where = urlsplit(r.headers["Location"])
    assert f"{where.scheme}://{where.netloc}{where.path}" == REDIRECT
    return parse_qs(where.query)


async def token(session: aiohttp.ClientSession, fake: FakeDiscord, data: dict[str, str], *,
                basic: bool = True, secret: str | None = None) -> tuple[int, Any]:
    headers = {}
    if basic:
        raw = f"{APP_ID}:{secret or fake.client_secret}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(raw).decode()
    async with session.post(fake.token_url, data=data, headers=headers) as r:
        return r.status, await r.json()


async def me(session: aiohttp.ClientSession, fake: FakeDiscord, access: str) -> tuple[int, Any]:
    async with session.get(fake.api_base + "/users/@me",
                           headers={"Authorization": f"Bearer {access}"}) as r:
        return r.status, await r.json()


async def test_the_code_flow(fake: FakeDiscord, browser: aiohttp.ClientSession,
                             api: Api) -> None:
    alice = fake.add_user("alice")
    await login(fake, browser, alice)
    answer = await consent(fake, browser)
    assert answer["state"] == ["s-123"] and len(answer["code"]) == 1
    status, body = await token(api.session, fake, {
        "grant_type": "authorization_code", "code": answer["code"][0], "redirect_uri": REDIRECT})
    assert status == 200, body
    assert body["token_type"] == "Bearer" and body["expires_in"] == 604800
    assert body["scope"] == "identify" and body["access_token"] and body["refresh_token"]
    status, user = await me(api.session, fake, body["access_token"])
    assert status == 200
    assert user["id"] == str(alice) and user["username"] == "alice"
    assert user["discriminator"] == "0" and user["avatar"] is None and "email" not in user
    if fake.spec is not None:  # the answer fits the description's UserPIIResponse
        schema = fake.spec.validator("/components/schemas/UserPIIResponse")
        assert [e.message for e in schema.iter_errors(user)] == []
    # the bot's own token keeps its answer
    status, bot = await api.call("GET", "/users/@me")
    assert status == 200 and bot["bot"] is True
    # the client secret in the body works as well as Basic; a refresh gives a new pair
    status, again = await token(api.session, fake, {
        "grant_type": "refresh_token", "refresh_token": body["refresh_token"],
        "client_id": str(APP_ID), "client_secret": fake.client_secret}, basic=False)
    assert status == 200 and again["access_token"] != body["access_token"]
    assert (await me(api.session, fake, body["access_token"]))[0] == 401  # the old one spent
    assert (await me(api.session, fake, again["access_token"]))[0] == 200
    kinds = [e.kind for e in fake.oauth_log]
    assert kinds == ["authorize", "consent", "token", "me", "token", "me", "me"]
    assert all("client_secret" not in e.detail for e in fake.oauth_log)


async def test_cancel_and_prompt_none(fake: FakeDiscord, browser: aiohttp.ClientSession) -> None:
    alice = fake.add_user("alice")
    await login(fake, browser, alice)
    answer = await consent(fake, browser, decision="cancel")
    assert answer["error"] == ["access_denied"] and answer["state"] == ["s-123"]
    assert "code" not in answer and answer["error_description"]
    # prompt=none without a consent given: the consent page still shows
    query = authorize_query(prompt="none")
    async with browser.get(fake.authorize_url, params=query, allow_redirects=False) as r:
        assert r.status == 200 and "Authorize</button>" in await r.text()
    await consent(fake, browser)
    async with browser.get(fake.authorize_url, params=query, allow_redirects=False) as r:
        assert r.status == 302 and "code=" in r.headers["Location"]


@pytest.mark.parametrize(("changes", "words"), [
    ({"redirect_uri": "http://127.0.0.1:9/elsewhere"}, "Invalid OAuth2 redirect_uri"),
    ({"redirect_uri": "-"}, "Invalid OAuth2 redirect_uri"),
    ({"scope": "identify nonsense"}, "Invalid scope: nonsense"),
    ({"scope": "identify bot"}, "Invalid scope: bot"),
    ({"client_id": "1234"}, "Unknown Application"),
    ({"response_type": "token"}, "Invalid response_type"),
])
async def test_authorize_refusals(fake: FakeDiscord, browser: aiohttp.ClientSession,
                                  changes: dict[str, str], words: str) -> None:
    await login(fake, browser, fake.add_user("alice"))
    async with browser.get(fake.authorize_url, params=authorize_query(**changes),
                           allow_redirects=False) as r:
        assert r.status == 400 and words in await r.text()
    assert fake.oauth_log[-1].error is not None and words in fake.oauth_log[-1].error


async def test_not_logged_in(fake: FakeDiscord, browser: aiohttp.ClientSession) -> None:
    async with browser.get(fake.authorize_url, params=authorize_query()) as r:
        assert r.status == 401 and "Log in to Discord" in await r.text()
    cookies = fake.login_cookies(fake.add_user("bob"))
    assert {c["domain"] for c in cookies} == {"127.0.0.1", "localhost"}
    assert all(c["name"] == LOGIN_COOKIE for c in cookies)


async def test_token_refusals(fake: FakeDiscord, browser: aiohttp.ClientSession,
                              api: Api) -> None:
    await login(fake, browser, fake.add_user("alice"))
    code = (await consent(fake, browser))["code"][0]
    grant = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
    session = api.session
    assert await token(session, fake, grant, secret="wrong") == (401, {"error": "invalid_client"})
    assert await token(session, fake, grant, basic=False) == (401, {"error": "invalid_client"})
    status, body = await token(session, fake, {**grant, "redirect_uri": REDIRECT + "/x"})
    assert (status, body["error"]) == (400, "invalid_grant")
    status, body = await token(session, fake, {k: v for k, v in grant.items()
                                               if k != "redirect_uri"})
    assert (status, body["error"]) == (400, "invalid_request")
    status, body = await token(session, fake, {**grant, "grant_type": "password"})
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    # JSON is refused (topics/oauth2.mdx: form-encoded only)
    raw = base64.b64encode(f"{APP_ID}:{fake.client_secret}".encode()).decode()
    async with session.post(fake.token_url, json=grant,
                            headers={"Authorization": "Basic " + raw}) as r:
        assert r.status == 400 and (await r.json())["error"] == "unsupported_grant_type"
    # refusals did not spend the code; the exchange does
    assert (await token(session, fake, grant))[0] == 200
    assert await token(session, fake, grant) == (400, INVALID_CODE)  # reused
    assert await token(session, fake, {**grant, "code": "made-up"}) == (400, INVALID_CODE)
    # codes last 10 minutes on the imitation's clock
    late = (await consent(fake, browser))["code"][0]
    fake.advance(601)
    assert await token(session, fake, {**grant, "code": late}) == (400, INVALID_CODE)


async def test_bearer_refusals(fake: FakeDiscord, api: Api) -> None:
    alice = fake.add_user("alice")
    assert await me(api.session, fake, "nonsense") == (401, UNAUTHORIZED)
    access = fake.issue_token(alice)
    assert (await me(api.session, fake, access))[0] == 200
    fake.advance(604801)  # expired
    assert await me(api.session, fake, access) == (401, UNAUTHORIZED)
    # revoked: the whole authorization
    fresh = fake.issue_token(alice)
    async with api.session.post(fake.token_url + "/revoke", data={
            "token": fresh, "client_id": str(APP_ID), "client_secret": fake.client_secret}) as r:
        assert r.status == 200
    assert await me(api.session, fake, fresh) == (401, UNAUTHORIZED)
    # a code without redirect_uri (an Activity's) is exchanged without one
    code = fake.issue_code(alice)
    status, body = await token(api.session, fake, {"grant_type": "authorization_code",
                                                   "code": code})
    assert status == 200, body


async def test_launch_activity(fake: FakeDiscord, api: Api) -> None:
    alice = fake.add_user("alice")
    status, _ = await api.register({"name": "play", "description": "Play"})
    assert status == 200
    record = await fake.slash(alice, "play")
    status, body = await api.answer(record, 12)
    assert status == 200, body
    launch = fake.activity_launches[-1]
    assert body["resource"] == {"type": 12, "activity_instance": {"id": launch.instance_id}}
    assert body["interaction"]["activity_instance_id"] == launch.instance_id
    assert (launch.user_id, launch.channel_id, launch.guild_id) == (alice, fake.channel_id,
                                                                   fake.guild_id)
    assert f"channel_id={fake.channel_id}" in fake.activity_url("http://127.0.0.1:9/",
                                                                launch=launch)
    # an app without Activities
    fake.activities_enabled = False
    record = await fake.slash(alice, "play")
    status, body = await api.answer(record, 12)
    assert (status, body) == (400, {"message": "Invalid Activity Action", "code": 50039})
    assert not record.callbacks


async def test_activity_client_answers(fake: FakeDiscord, browser: aiohttp.ClientSession,
                                       api: Api) -> None:
    """The imitation's Discord client answers the SDK's messages (what the SDK sends, as in
    Discord.mjs), without a browser."""
    alice = fake.add_user("alice")
    async with browser.get(fake.activity_url("http://127.0.0.1:9/")) as r:
        assert r.status == 401  # nobody logged in
    await login(fake, browser, alice)
    url = fake.activity_url("http://127.0.0.1:9/?lang=en").replace("localhost", "127.0.0.1")
    async with browser.get(url) as r:  # the main window: an opaque origin opening the popout
        assert r.status == 200 and "window.open" in await r.text()
        assert r.headers["Content-Security-Policy"].startswith("sandbox allow-scripts")
    frame = fake.frame()
    async with browser.get(f"{fake.oauth_base}/__activity/popout",
                           params={"frame_id": frame.frame_id}) as r:
        page = await r.text()
        assert r.status == 200 and "referrerpolicy=no-referrer" in page
        assert html.escape(frame.url) in page
    query = parse_qs(urlsplit(frame.url).query)
    assert query["lang"] == ["en"] and query["platform"] == ["desktop"]
    assert query["frame_id"] == [frame.frame_id] and query["instance_id"] == [frame.instance_id]
    assert query["channel_id"] == [str(fake.channel_id)]
    assert query["guild_id"] == [str(fake.guild_id)]

    async def send(message: Any) -> list[Any]:
        async with browser.post(fake.oauth_base + "/__activity/rpc",
                                json={"frame_id": frame.frame_id, "message": message}) as r:
            assert r.status == 200
            return (await r.json())["replies"]

    early = await send([1, {"cmd": "AUTHORIZE", "args": {}, "nonce": "n0"}])
    assert early[0][1]["evt"] == "ERROR" and early[0][1]["data"]["code"] == 4006
    [[opcode, ready]] = await send([0, {"v": 1, "encoding": "json", "client_id": str(APP_ID),
                                        "frame_id": frame.frame_id, "sdk_version": "2.5.0"}])
    assert opcode == 1 and ready["cmd"] == "DISPATCH" and ready["evt"] == "READY"
    assert ready["data"]["user"]["id"] == str(alice) and ready["nonce"] is None

    def authorize(**changes: Any) -> list[Any]:
        args = {"client_id": str(APP_ID), "response_type": "code", "state": "",
                "prompt": "none", "scope": ["identify"], **changes}
        return [1, {"cmd": "AUTHORIZE", "args": args, "nonce": "n1"}]

    [[_, wrong]] = await send(authorize(client_id="1"))
    assert wrong["evt"] == "ERROR" and wrong["data"]["code"] == 4007 and wrong["nonce"] == "n1"
    [[_, bad_scope]] = await send(authorize(scope=["identify", "rpc"]))
    assert bad_scope["data"]["code"] == 5000
    fake.activity_consent = False  # the user declines the modal
    [[_, declined]] = await send(authorize())
    assert declined["data"]["code"] == 5000
    fake.activity_consent = True
    [[_, ok]] = await send(authorize())
    assert ok["evt"] is None and ok["cmd"] == "AUTHORIZE" and ok["nonce"] == "n1"
    status, body = await token(api.session, fake, {"grant_type": "authorization_code",
                                                   "code": ok["data"]["code"]})
    assert status == 200, body
    [[_, bad]] = await send([1, {"cmd": "AUTHENTICATE", "args": {"access_token": "x"},
                                 "nonce": "n2"}])
    assert bad["evt"] == "ERROR" and bad["data"]["code"] == 4009
    other = fake.issue_token(fake.add_user("bob"))
    [[_, bad]] = await send([1, {"cmd": "AUTHENTICATE", "args": {"access_token": other},
                                 "nonce": "n2"}])
    assert bad["data"]["code"] == 4009
    [[_, authed]] = await send([1, {"cmd": "AUTHENTICATE", "nonce": "n3",
                                    "args": {"access_token": body["access_token"]}}])
    assert authed["evt"] is None and authed["data"]["user"]["id"] == str(alice)
    assert authed["data"]["scopes"] == ["identify"]
    assert authed["data"]["application"]["id"] == str(APP_ID)
    [[_, log]] = await send([1, {"cmd": "CAPTURE_LOG", "nonce": "n4",
                                 "args": {"level": "log", "message": "hi"}}])
    assert log["data"] is None and frame.logs == [{"level": "log", "message": "hi"}]
    [[_, unknown]] = await send([1, {"cmd": "GET_CHANNEL", "nonce": "n5", "args": {}}])
    assert unknown["evt"] == "ERROR" and unknown["data"]["code"] == 4002
    assert frame.names() == ["AUTHORIZE", "AUTHORIZE", "AUTHORIZE", "AUTHORIZE", "AUTHORIZE",
                             "AUTHENTICATE", "AUTHENTICATE", "AUTHENTICATE", "CAPTURE_LOG",
                             "GET_CHANNEL"]


async def test_activity_handshake_refusals(fake: FakeDiscord,
                                           browser: aiohttp.ClientSession) -> None:
    await login(fake, browser, fake.add_user("alice"))
    cases = [({"v": 2}, 4004), ({"client_id": "1"}, 4000), ({"frame_id": "other"}, 4000),
             ({"encoding": "etf"}, 4005)]
    for change, code in cases:
        url = fake.activity_url("http://127.0.0.1:9/").replace("localhost", "127.0.0.1")
        async with browser.get(url) as r:
            assert r.status == 200
        frame = fake.frame()
        hello = {"v": 1, "encoding": "json", "client_id": str(APP_ID),
                 "frame_id": frame.frame_id, **change}
        async with browser.post(fake.oauth_base + "/__activity/rpc",
                                json={"frame_id": frame.frame_id, "message": [0, hello]}) as r:
            [[opcode, closed]] = (await r.json())["replies"]
        assert (opcode, closed["code"]) == (2, code), change
        assert frame.closed == closed and frame.handshake is None
