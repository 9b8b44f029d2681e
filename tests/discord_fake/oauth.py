"""Discord's OAuth2 (authorization code grant, scope `identify`) and the Activity frame, in the
imitation (a mixin of FakeDiscord; not part of the product).

OAuth2 (developers/topics/oauth2.mdx: OAuth2 URLs, Authorization Code Grant, scopes):
  - GET /oauth2/authorize at the imitation's origin (Discord's is https://discord.com/oauth2/
    authorize, outside /api): client_id must be the app's (APP_ID), response_type `code`,
    scope space-separated known scopes, redirect_uri exactly one of `oauth_redirect_uris`
    (else an error page "Invalid OAuth2 redirect_uri", 400), state echoed, prompt `consent`
    (default) or `none`. The browser's Discord user is the `fake_discord_user` cookie on the
    imitation's origin (`browser_login_url`, `login_cookies`); none: a page asking to log in
    (401). Then a consent page (the app's name, the scopes, Authorize and Cancel, a form
    POSTed back) -> 302 to `redirect_uri?code=...&state=...`, or on Cancel
    `?error=access_denied&error_description=...&state=...`. prompt=none when the user
    already consented to those scopes: redirected at once.
  - POST /api/v10/oauth2/token (and /api/oauth2/token): form-encoded only (JSON: 400
    unsupported_grant_type, as the parameters are not read), client authentication by
    client_id + client_secret in the body or HTTP Basic (else 401 invalid_client);
    grant_type authorization_code (code single use, `code_lifetime` 10 minutes on the
    imitation's clock; redirect_uri must equal the authorize request's when it had one:
    Activity codes have none) or refresh_token (the old refresh token is spent); errors in
    RFC 6749's shape. Answers access_token, token_type Bearer, expires_in 604800,
    refresh_token, scope.
  - POST /api/v10/oauth2/token/revoke: the token's whole grant is revoked (RFC 7009: 200).
  - GET /api/v10/users/@me with `Authorization: Bearer <token>`: the user (UserPIIResponse of
    the OpenAPI description, without email); a bad, revoked or expired token: 401
    {"message": "401: Unauthorized", "code": 0}. `Bot` tokens keep their own answer.
  Every OAuth2 request is recorded in `oauth_log` (OAuthEvent: kind, detail, status).

The Activity frame (the Embedded App SDK 2.5.0's postMessage protocol, read in
node_modules/@discord/embedded-app-sdk/output/Discord.mjs and schema/*.mjs):
  GET /__activity?target=URL&channel_id=..&guild_id=.. (a logged-in user) is the Discord
  client: it embeds the target with the query parameters Discord adds (frame_id, instance_id,
  platform=desktop, guild_id, channel_id, location_id, launch_id) and answers the SDK:
  HANDSHAKE [0, {v: 1, encoding: "json", client_id, frame_id}] (v != 1: CLOSE 4004,
  encoding: 4005, client_id not the app's: CLOSE 4000 Invalid Client ID, a foreign frame_id:
  CLOSE 4000) -> DISPATCH READY; then FRAME commands: AUTHORIZE (client_id the app's else
  ERROR 4007, response_type code, known scopes else ERROR 4000 / 5000; a code for the
  logged-in user valid at the token endpoint with no redirect_uri; the user declines when
  `activity_consent` is False and they had not consented: ERROR 5000), AUTHENTICATE (the
  access token must be the frame user's and valid, else ERROR 4009), CAPTURE_LOG (the SDK
  sends the page's console output once ready: kept in `ActivityFrame.logs`), anything else
  ERROR 4002 Invalid command. Commands before the handshake: ERROR 4006.
  The SDK accepts messages only from its own page's origin, Discord's origins,
  http://localhost:3333 and "null" (ALLOWED_ORIGINS in Discord.mjs), and talks to
  `window.parent.opener ?? window.parent` (Discord's popout: "The RPC server is always running
  in the main Discord client window"). So the imitation runs as Discord's popout does: the
  main window (/__activity) has an opaque origin ("null", by `Content-Security-Policy:
  sandbox`; its popups escape the sandbox) and opens the popout (/__activity/popout, at
  http://localhost:PORT), which holds the Activity in an iframe; the SDK's messages go to the
  main window, which relays them to the popout, which asks the imitation (POST
  /__activity/rpc) and sends the answers back the same way. The Activity's only ancestor is
  the popout (so a `frame-ancestors` source list naming http://localhost:* accepts it), and
  it is cross-site (localhost embedding 127.0.0.1), as Discord's is (discord.com embedding
  <app>.discordsays.com). Tests open the main window and take the popout
  (`open_activity(page, url)`).
  `activity_frames` records every frame (its commands and answers).
LAUNCH_ACTIVITY (interaction callback type 12, receiving-and-responding.mdx: "Only available
for apps with Activities enabled"): see server.py's `_callback`; `activities_enabled`.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from aiohttp import web

from .errors import ApiError
from .model import APP_ID, COMMAND, COMPONENT, MODAL_SUBMIT, InteractionRecord, Json

CLIENT_SECRET = "fake-client-secret-for-tests"
LOGIN_COOKIE = "fake_discord_user"
CODE_LIFETIME = 10 * 60.0
TOKEN_LIFETIME = 604800  # expires_in in the token response (topics/oauth2.mdx)
APP_NAME = "Corral"
# the OAuth2 scopes of topics/oauth2.mdx's table
SCOPES = frozenset({
    "activities.read", "activities.write", "applications.builds.read",
    "applications.builds.upload", "applications.commands", "applications.commands.update",
    "applications.commands.permissions.update", "applications.entitlements",
    "applications.store.update", "bot", "connections", "dm_channels.read", "email", "gdm.join",
    "guilds", "guilds.join", "guilds.members.read", "identify", "identify.premium",
    "messages.read", "relationships.read", "role_connections.write", "rpc",
    "rpc.activities.write", "rpc.notifications.read", "rpc.voice.read", "rpc.voice.write",
    "voice", "webhook.incoming"})
# what the imitation grants codes for (the others need Discord's approval or other flows)
GRANTABLE = frozenset({"identify", "email", "guilds", "connections", "guilds.members.read"})

# the SDK's opcodes (Discord.mjs) and RPC codes (topics/opcodes-and-status-codes.mdx)
HANDSHAKE, FRAME, CLOSE = 0, 1, 2
RPC_INVALID_PAYLOAD, RPC_INVALID_COMMAND, RPC_INVALID_PERMISSIONS = 4000, 4002, 4006
RPC_INVALID_CLIENTID, RPC_INVALID_TOKEN, RPC_OAUTH2_ERROR = 4007, 4009, 5000
CLOSE_INVALID_CLIENTID, CLOSE_INVALID_VERSION, CLOSE_INVALID_ENCODING = 4000, 4004, 4005
# interaction callback type 12, for commands, components and modal submissions (change-log.mdx,
# "Activities can now be launched ... LAUNCH_ACTIVITY (type 12)")
LAUNCH_ACTIVITY = 12
LAUNCH_FROM = (COMMAND, COMPONENT, MODAL_SUBMIT)
# the answer to type 12 from an app without Activities: the docs name no code; 50039 "Invalid
# Activity Action" (topics/opcodes-and-status-codes.mdx) is the imitation's choice
INVALID_ACTIVITY_ACTION = (400, 50039, "Invalid Activity Action")


@dataclass
class OAuthEvent:
    """One OAuth2 request: kind "authorize" (the page), "consent" (the form's answer),
    "token", "revoke", "me" (users/@me with a Bearer token), "rpc" (an SDK message);
    `detail` the parameters (the secret left out), `status` what was answered."""
    kind: str
    detail: Json
    status: int = 200
    error: str | None = None


@dataclass
class Grant:
    code: str
    user_id: int
    scopes: tuple[str, ...]
    redirect_uri: str | None
    created: float
    used: bool = False


@dataclass
class Token:
    access_token: str
    refresh_token: str
    user_id: int
    scopes: tuple[str, ...]
    created: float
    revoked: bool = False


@dataclass
class ActivityLaunch:
    """An interaction answered with LAUNCH_ACTIVITY: the Activity opens for its user there."""
    interaction_id: int
    user_id: int
    channel_id: int
    guild_id: int | None
    instance_id: str
    launch_id: str


@dataclass
class ActivityFrame:
    """An Activity the imitation's client runs: its ids, where, who, and what the SDK said."""
    frame_id: str
    instance_id: str
    launch_id: str
    user_id: int
    channel_id: int
    guild_id: int | None
    target: str
    url: str  # the target with Discord's query parameters
    handshake: Json | None = None
    closed: Json | None = None
    commands: list[Json] = field(default_factory=list)  # FRAME payloads, in order
    answers: list[Json] = field(default_factory=list)  # what the client answered
    logs: list[Json] = field(default_factory=list)  # CAPTURE_LOG args

    def names(self) -> list[str]:
        return [c.get("cmd", "") for c in self.commands]


def _oauth_error(status: int, error: str, description: str | None = None) -> web.Response:
    body = {"error": error}
    if description is not None:
        body["error_description"] = description
    return web.json_response(body, status=status)


def _with_query(url: str, params: dict[str, str]) -> str:
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True) + list(params.items())
    return urlunsplit(parts._replace(query=urlencode(query)))


def _redirect(url: str) -> web.Response:
    return web.Response(status=302, headers={"Location": url})


def _page(title: str, body: str, status: int = 200) -> web.Response:
    return web.Response(
        text=f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}"
             f"</title><body><main><h1>{html.escape(title)}</h1>{body}</main></body></html>",
        status=status, content_type="text/html")


async def open_activity(page: Any, url: str) -> tuple[Any, Any]:
    """Open the imitation's Discord client (`activity_url(...)`) in a Playwright page (its
    context logged in with `login_cookies`); the popout page and the Activity's frame."""
    async with page.expect_popup() as popup_info:
        await page.goto(url)
    popout = await popup_info.value
    await popout.wait_for_load_state()
    return popout, popout.frames[1] if len(popout.frames) > 1 else None


class OAuthImitation:
    """Mixed into FakeDiscord. Public: client_secret, oauth_redirect_uris, oauth_log,
    activities_enabled, activity_consent, code_lifetime, activity_frames, oauth_base,
    authorize_url, token_url, browser_login_url(user_id, next), login_cookies(user_id),
    activity_url(target, channel_id, guild_id), frame(frame_id), issue_code(...),
    issue_token(user_id)."""

    users: dict[int, Json]
    port: int
    channel_id: int

    def now(self) -> float:
        raise NotImplementedError

    def new_id(self) -> int:
        raise NotImplementedError

    def _guild_of(self, channel_id: int) -> int | None:
        raise NotImplementedError

    def _init_oauth(self) -> None:
        self.client_secret = CLIENT_SECRET
        self.oauth_redirect_uris: set[str] = set()
        self.oauth_log: list[OAuthEvent] = []
        self.code_lifetime = CODE_LIFETIME
        self.activities_enabled = True
        self.activity_consent = True  # the user accepts the Activity's authorization modal
        self.activity_frames: dict[str, ActivityFrame] = {}
        self.activity_launches: list[ActivityLaunch] = []
        self.consents: set[tuple[int, frozenset[str]]] = set()
        self._grants: dict[str, Grant] = {}
        self._tokens: dict[str, Token] = {}  # access token -> token
        self._refresh: dict[str, Token] = {}  # refresh token -> token
        self._browser_sessions: dict[str, int] = {}  # cookie value -> user id

    def _oauth_routes(self, app: web.Application) -> None:
        app.router.add_get("/oauth2/authorize", self._authorize_page)
        app.router.add_post("/oauth2/authorize", self._authorize_answer)
        app.router.add_get("/__login", self._login)
        app.router.add_get("/__activity", self._activity_page)
        app.router.add_get("/__activity/popout", self._activity_popout)
        app.router.add_post("/__activity/rpc", self._activity_rpc)
        for base in ("/api/v10", "/api"):  # the documented URL has no version
            app.router.add_post(base + "/oauth2/token", self._token)
            app.router.add_post(base + "/oauth2/token/revoke", self._revoke)

    # -- URLs and test helpers ------------------------------------------------------------
    @property
    def oauth_base(self) -> str:
        """The imitation's origin; the bot derives the OAuth2 URLs from its API base
        (http://127.0.0.1:PORT/api/v10) as from https://discord.com/api/v10: authorize at the
        origin + /oauth2/authorize, the token at the API base + /oauth2/token."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def authorize_url(self) -> str:
        return self.oauth_base + "/oauth2/authorize"

    @property
    def token_url(self) -> str:
        return self.oauth_base + "/api/v10/oauth2/token"

    def _session_for(self, user_id: int) -> str:
        assert user_id in self.users, f"no user {user_id}"
        value = next((k for k, v in self._browser_sessions.items() if v == user_id), None)
        if value is None:
            value = secrets.token_urlsafe(16)
            self._browser_sessions[value] = user_id
        return value

    def browser_login_url(self, user_id: int, next: str | None = None) -> str:
        """Opening it in a browser logs the user into the imitation (a cookie on its origin,
        127.0.0.1) and redirects to `next` (else a page saying who is logged in)."""
        query = {"session": self._session_for(user_id)}
        if next:
            query["next"] = next
        return f"{self.oauth_base}/__login?{urlencode(query)}"

    def login_cookies(self, user_id: int) -> list[dict[str, Any]]:
        """The login cookie for Playwright's `context.add_cookies`, on both hosts the
        imitation answers (127.0.0.1 for OAuth2, localhost for the Activity frame)."""
        value = self._session_for(user_id)
        return [{"name": LOGIN_COOKIE, "value": value, "domain": host, "path": "/",
                 "httpOnly": True, "sameSite": "Lax"} for host in ("127.0.0.1", "localhost")]

    def launch_activity(self, record: InteractionRecord) -> ActivityLaunch:
        """The interaction was answered with LAUNCH_ACTIVITY (type 12)."""
        if not self.activities_enabled:
            raise ApiError(*INVALID_ACTIVITY_ACTION)
        launch_id = str(self.new_id())
        location = (f"gc-{record.guild_id}-{record.channel_id}" if record.guild_id is not None
                    else f"pc-{record.channel_id}")
        launch = ActivityLaunch(record.id, record.user_id, record.channel_id, record.guild_id,
                                f"i-{launch_id}-{location}", launch_id)
        self.activity_launches.append(launch)
        return launch

    def activity_url(self, target: str, channel_id: int | None = None,
                     guild_id: int | None = None, launch: ActivityLaunch | None = None) -> str:
        """The imitation's Discord client running the Activity at `target` (Corral's entry
        page) in a channel (default: the test channel; the guild: the channel's), or where an
        interaction launched it (`launch`, from `activity_launches`: its channel and
        instance). Served from http://localhost:PORT so that a target on 127.0.0.1 is
        cross-site. The browser must be logged in (`login_cookies`) as the user; the
        Activity runs in a popout (`open_activity(page, url)` returns it and the frame)."""
        if launch is not None:
            channel_id, guild_id = launch.channel_id, launch.guild_id
        query = {"target": target, "channel_id": str(channel_id or self.channel_id)}
        if guild_id is not None:
            query["guild_id"] = str(guild_id)
        if launch is not None:
            query["launch_id"] = launch.launch_id
        return f"http://localhost:{self.port}/__activity?{urlencode(query)}"

    def frame(self, frame_id: str | None = None) -> ActivityFrame:
        """A frame by id (default: the latest opened)."""
        if frame_id is None:
            assert self.activity_frames, "no Activity frame was opened"
            return list(self.activity_frames.values())[-1]
        return self.activity_frames[frame_id]

    def issue_code(self, user_id: int, scopes: tuple[str, ...] = ("identify",),
                   redirect_uri: str | None = None) -> str:
        """A code as if the user had authorized (for tests of the exchange alone)."""
        code = secrets.token_urlsafe(22)
        self._grants[code] = Grant(code, user_id, scopes, redirect_uri, self.now())
        self.consents.add((user_id, frozenset(scopes)))
        return code

    def issue_token(self, user_id: int, scopes: tuple[str, ...] = ("identify",)) -> str:
        """An access token for the user (as after an exchange)."""
        return self._new_token(user_id, scopes).access_token

    def _new_token(self, user_id: int, scopes: tuple[str, ...]) -> Token:
        token = Token(secrets.token_urlsafe(22), secrets.token_urlsafe(22), user_id, scopes,
                      self.now())
        self._tokens[token.access_token] = token
        self._refresh[token.refresh_token] = token
        return token

    def _valid_token(self, access_token: str) -> Token | None:
        token = self._tokens.get(access_token)
        if token is None or token.revoked or self.now() - token.created > TOKEN_LIFETIME:
            return None
        return token

    def _browser_user(self, request: web.Request) -> int | None:
        user = self._browser_sessions.get(request.cookies.get(LOGIN_COOKIE, ""))
        return user if user in self.users else None

    def oauth_user_payload(self, user_id: int) -> Json:
        """GET /users/@me for a user token (identify: no email)."""
        user = self.users[user_id]
        return {"id": user["id"], "username": user["username"], "avatar": None,
                "discriminator": "0", "public_flags": 0, "flags": 0, "banner": None,
                "accent_color": None, "global_name": user["global_name"],
                "avatar_decoration_data": None, "collectibles": None, "primary_guild": None,
                "mfa_enabled": False, "locale": "en-US", "premium_type": 0}

    # -- the browser's side -----------------------------------------------------------------
    async def _login(self, request: web.Request) -> web.Response:
        value = request.query.get("session", "")
        if value not in self._browser_sessions:
            return _page("Unknown test session", "", 400)
        target = request.query.get("next")
        response: web.Response
        if target:
            response = _redirect(target)
        else:
            name = self.users[self._browser_sessions[value]]["username"]
            response = _page(f"Logged in as {name}", "")
        response.set_cookie(LOGIN_COOKIE, value, path="/", httponly=True, samesite="Lax")
        return response

    def _authorize_refusal(self, params: Any) -> str | None:
        """Why Discord would show an error page instead of the consent screen."""
        if params.get("client_id") != str(APP_ID):
            return "Unknown Application"
        if params.get("response_type") != "code":
            return "Invalid response_type (the imitation knows the code grant only)"
        scopes = params.get("scope", "").split()
        if not scopes:
            return "No scopes were provided."
        unknown = [s for s in scopes if s not in SCOPES]
        if unknown:
            return f"Invalid scope: {unknown[0]}"
        if any(s not in GRANTABLE for s in scopes):
            return f"Invalid scope: {next(s for s in scopes if s not in GRANTABLE)}"
        if params.get("redirect_uri") not in self.oauth_redirect_uris:
            return "Invalid OAuth2 redirect_uri"
        if params.get("prompt", "consent") not in ("consent", "none"):
            return "Invalid prompt"
        return None

    async def _authorize_page(self, request: web.Request) -> web.Response:
        params = request.query
        event = OAuthEvent("authorize", dict(params))
        self.oauth_log.append(event)
        refusal = self._authorize_refusal(params)
        if refusal is not None:
            event.status, event.error = 400, refusal
            return _page(refusal, "<p>The application sent an invalid request.</p>", 400)
        user_id = self._browser_user(request)
        if user_id is None:
            event.status, event.error = 401, "not logged in"
            return _page("Log in to Discord", "<p>You need to log in to continue to "
                         f"{APP_NAME}.</p>", 401)
        scopes = tuple(params["scope"].split())
        if params.get("prompt") == "none" and (user_id, frozenset(scopes)) in self.consents:
            event.status = 302
            return self._code_redirect(user_id, scopes, params)
        keep = "".join(f'<input type=hidden name="{html.escape(k)}" value="{html.escape(v)}">'
                       for k, v in params.items())
        items = "".join(f"<li>{html.escape(s)}</li>" for s in scopes)
        name = html.escape(self.users[user_id]["username"])
        return _page(f"{APP_NAME} wants to access your account",
                     f"<p>Signed in as {name}.</p><p>This will allow the developer of "
                     f"{APP_NAME} to:</p><ul id=scopes>{items}</ul>"
                     f"<form method=post action=/oauth2/authorize>{keep}"
                     "<button type=submit name=decision value=cancel>Cancel</button> "
                     "<button type=submit name=decision value=authorize>Authorize</button>"
                     "</form>")

    def _code_redirect(self, user_id: int, scopes: tuple[str, ...], params: Any) -> web.Response:
        code = secrets.token_urlsafe(22)
        self._grants[code] = Grant(code, user_id, scopes, params["redirect_uri"], self.now())
        self.consents.add((user_id, frozenset(scopes)))
        answer = {"code": code}
        if "state" in params:
            answer["state"] = params["state"]
        return _redirect(_with_query(params["redirect_uri"], answer))

    async def _authorize_answer(self, request: web.Request) -> web.Response:
        form = await request.post()
        params = {k: str(v) for k, v in form.items()}
        decision = params.pop("decision", "")
        event = OAuthEvent("consent", {**params, "decision": decision})
        self.oauth_log.append(event)
        refusal = self._authorize_refusal(params)
        user_id = self._browser_user(request)
        if refusal is not None or user_id is None:
            event.status, event.error = 400, refusal or "not logged in"
            return _page(refusal or "Log in to Discord", "", 400)
        event.status = 302
        if decision != "authorize":
            answer = {"error": "access_denied",
                      "error_description": "The resource owner or authorization server denied "
                                           "the request"}
            if "state" in params:
                answer["state"] = params["state"]
            return _redirect(_with_query(params["redirect_uri"], answer))
        return self._code_redirect(user_id, tuple(params["scope"].split()), params)

    # -- the token endpoint ---------------------------------------------------------------
    async def _client_params(self, request: web.Request,
                             event: OAuthEvent) -> tuple[dict[str, str], web.Response | None]:
        """The form's parameters and the client's authentication (None: authenticated)."""
        content_type = request.headers.get("Content-Type", "").partition(";")[0].strip()
        params: dict[str, str] = {}
        if content_type == "application/x-www-form-urlencoded":
            params = {k: str(v) for k, v in (await request.post()).items()}
        event.detail = {k: v for k, v in params.items() if k != "client_secret"}
        client_id, secret = params.get("client_id"), params.get("client_secret")
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(auth[6:]).decode().partition(":")
            except ValueError:
                client_id = secret = None
        if not params.get("grant_type") and content_type != "application/x-www-form-urlencoded":
            # JSON is not read (topics/oauth2.mdx: only form-encoded)
            return params, _oauth_error(400, "unsupported_grant_type",
                                        "Grant type None is not supported")
        if client_id != str(APP_ID) or secret != self.client_secret:
            return params, _oauth_error(401, "invalid_client")
        return params, None

    def _token_response(self, token: Token) -> Json:
        return {"access_token": token.access_token, "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME, "refresh_token": token.refresh_token,
                "scope": " ".join(token.scopes)}

    async def _token(self, request: web.Request) -> web.Response:
        event = OAuthEvent("token", {})
        self.oauth_log.append(event)
        response = await self._exchange(request, event)
        event.status = response.status
        if response.status != 200 and response.body is not None:
            event.error = json.loads(response.body)["error"]  # type: ignore[arg-type]
        return response

    async def _exchange(self, request: web.Request, event: OAuthEvent) -> web.Response:
        params, refused = await self._client_params(request, event)
        if refused is not None:
            return refused
        grant_type = params.get("grant_type")
        if grant_type == "authorization_code":
            code = params.get("code")
            if not code:
                return _oauth_error(400, "invalid_request", 'Missing "code" in request.')
            grant = self._grants.get(code)
            if (grant is None or grant.used
                    or self.now() - grant.created > self.code_lifetime):
                return _oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
            if grant.redirect_uri is not None:
                given = params.get("redirect_uri")
                if not given:
                    return _oauth_error(400, "invalid_request",
                                        'Missing "redirect_uri" in request.')
                if given != grant.redirect_uri:
                    return _oauth_error(400, "invalid_grant",
                                        'Invalid "redirect_uri" in request.')
            grant.used = True
            return web.json_response(self._token_response(
                self._new_token(grant.user_id, grant.scopes)))
        if grant_type == "refresh_token":
            old = self._refresh.pop(params.get("refresh_token", ""), None)
            if old is None or old.revoked:
                return _oauth_error(400, "invalid_grant", 'Invalid "refresh_token" in request.')
            old.revoked = True
            return web.json_response(self._token_response(self._new_token(old.user_id,
                                                                          old.scopes)))
        return _oauth_error(400, "unsupported_grant_type",
                            f"Grant type {grant_type or 'None'} is not supported")

    async def _revoke(self, request: web.Request) -> web.Response:
        event = OAuthEvent("revoke", {})
        self.oauth_log.append(event)
        params, refused = await self._client_params(request, event)
        if refused is not None:
            event.status = refused.status
            return refused
        value = params.get("token", "")
        token = self._tokens.get(value) or self._refresh.get(value)
        if token is not None:  # the whole authorization
            for t in self._tokens.values():
                if t.user_id == token.user_id:
                    t.revoked = True
        return web.json_response({})

    def bearer_me(self, authorization: str) -> Json | None:
        """GET /users/@me for `Bearer <token>`: the user, or None (401)."""
        token = self._valid_token(authorization.removeprefix("Bearer ").strip())
        event = OAuthEvent("me", {}, 200 if token else 401)
        self.oauth_log.append(event)
        if token is None or "identify" not in token.scopes:
            event.status = 401
            return None
        event.detail = {"user_id": token.user_id}
        return self.oauth_user_payload(token.user_id)

    # -- the Activity frame -----------------------------------------------------------------
    async def _activity_page(self, request: web.Request) -> web.Response:
        """The Discord client's main window (the RPC server): an opaque origin ("null", by a
        CSP sandbox) that opens the popout holding the Activity and relays the messages."""
        user_id = self._browser_user(request)
        if user_id is None:
            return _page("Log in to Discord", "<p>No test user is logged in.</p>", 401)
        target = request.query.get("target", "")
        if not target.startswith(("http://", "https://")):
            return _page("No target", "<p>target=URL is required.</p>", 400)
        channel_id = int(request.query.get("channel_id") or self.channel_id)
        guild = request.query.get("guild_id")
        guild_id = int(guild) if guild else self._guild_of(channel_id)
        frame_id = str(uuid.uuid4())
        launch_id = request.query.get("launch_id") or str(self.new_id())
        location = (f"gc-{guild_id}-{channel_id}" if guild_id is not None
                    else f"pc-{channel_id}")
        instance_id = f"i-{launch_id}-{location}"
        params = {"frame_id": frame_id, "instance_id": instance_id, "platform": "desktop"}
        if guild_id is not None:
            params["guild_id"] = str(guild_id)
        params.update(channel_id=str(channel_id), location_id=location, launch_id=launch_id)
        url = _with_query(target, params)
        self.activity_frames[frame_id] = ActivityFrame(
            frame_id, instance_id, launch_id, user_id, channel_id, guild_id, target, url)
        popout = f"/__activity/popout?{urlencode({'frame_id': frame_id})}"
        # from the Activity (its window is the popout's first frame) up to the popout, which
        # asks the imitation; the popout's answers down to the Activity
        script = (
            f"const popout=window.open({json.dumps(popout)},'_blank');"
            "addEventListener('message',e=>{"
            "if(e.source===popout){if(e.data&&'down' in e.data)"
            "popout.frames[0].postMessage(e.data.down,'*');return;}"
            "if(popout.frames.length&&e.source===popout.frames[0])"
            "popout.postMessage({up:e.data},'*');});")
        return web.Response(
            text="<!doctype html><html lang=en><meta charset=utf-8><title>Discord (imitation)"
                 f"</title><p>The Activity runs in the popout.</p><script>{script}</script>",
            content_type="text/html", headers={
                "Content-Security-Policy": "sandbox allow-scripts allow-popups "
                                           "allow-popups-to-escape-sandbox"})

    async def _activity_popout(self, request: web.Request) -> web.Response:
        """The popout window: the Activity in an iframe (cross-site: this page is on
        localhost, the Activity where its URL says); the SDK talks to this window's opener.
        The iframe sends no referrer, so that the SDK posts to "*" (it posts to
        document.referrer's origin when there is one)."""
        frame = self.activity_frames.get(request.query.get("frame_id", ""))
        if frame is None or self._browser_user(request) != frame.user_id:
            return _page("Unknown Activity", "", 404)
        script = (
            "let queue=Promise.resolve();window.rpcErrors=[];"
            "addEventListener('message',e=>{"
            "if(e.source!==window.opener||!e.data||!('up' in e.data))return;"
            "const message=e.data.up;"
            "queue=queue.then(async()=>{"
            "const r=await fetch('/__activity/rpc',{method:'POST',headers:{'Content-Type':"
            f"'application/json'}},body:JSON.stringify({{frame_id:{json.dumps(frame.frame_id)},"
            "message})});const answer=await r.json();"
            "for(const down of answer.replies)window.opener.postMessage({down},'*');"
            "}).catch(err=>window.rpcErrors.push(String(err)));});")
        name = html.escape(self.users[frame.user_id]["username"])
        return web.Response(
            text="<!doctype html><html lang=en><meta charset=utf-8><title>Discord (imitation)"
                 "</title><style>body{margin:0}iframe{border:0;width:100vw;height:95vh}"
                 f"</style><body><p id=who>Discord: {name}</p><script>{script}</script>"
                 f"<iframe id=activity src=\"{html.escape(frame.url)}\" "
                 "referrerpolicy=no-referrer></iframe></body></html>",
            content_type="text/html")

    async def _activity_rpc(self, request: web.Request) -> web.Response:
        body = await request.json()
        frame = self.activity_frames.get(str(body.get("frame_id")))
        if frame is None or self._browser_user(request) != frame.user_id:
            return web.json_response({"replies": []}, status=403)
        replies = self._answer(frame, body.get("message"))
        self.oauth_log.append(OAuthEvent("rpc", {"frame_id": frame.frame_id,
                                                 "message": body.get("message")}))
        frame.answers.extend(replies)
        return web.json_response({"replies": replies})

    def _answer(self, frame: ActivityFrame, message: Any) -> list[Any]:
        if frame.closed is not None or not isinstance(message, list) or len(message) != 2:
            return []
        opcode, payload = message
        if not isinstance(payload, dict):
            return []
        if opcode == HANDSHAKE:
            return [self._handshake(frame, payload)]
        if opcode == CLOSE:
            frame.closed = payload
            return []
        if opcode != FRAME:
            return []
        frame.commands.append(payload)
        cmd, nonce, args = payload.get("cmd"), payload.get("nonce"), payload.get("args") or {}

        def error(code: int, text: str) -> list[Any]:
            return [[FRAME, {"cmd": cmd, "evt": "ERROR", "nonce": nonce,
                             "data": {"code": code, "message": text}}]]

        def ok(data: Any) -> list[Any]:
            return [[FRAME, {"cmd": cmd, "evt": None, "nonce": nonce, "data": data}]]

        if not isinstance(nonce, str):
            return []  # nothing could carry the answer
        if frame.handshake is None:
            return error(RPC_INVALID_PERMISSIONS, "Not connected")
        if cmd == "CAPTURE_LOG":
            frame.logs.append(args)
            return ok(None)
        if cmd == "AUTHORIZE":
            if str(args.get("client_id")) != str(APP_ID):
                return error(RPC_INVALID_CLIENTID, "Invalid client id")
            if args.get("response_type", "code") != "code":
                return error(RPC_INVALID_PAYLOAD, "Invalid response_type")
            scopes = args.get("scope")
            if isinstance(scopes, str):
                scopes = scopes.split()
            if not isinstance(scopes, list) or not scopes:
                return error(RPC_INVALID_PAYLOAD, "Invalid scope")
            bad = [s for s in scopes if s not in GRANTABLE]
            if bad:
                return error(RPC_OAUTH2_ERROR, f"Invalid scope: {bad[0]}")
            consented = (frame.user_id, frozenset(scopes)) in self.consents
            if not consented and not self.activity_consent:
                return error(RPC_OAUTH2_ERROR, "User cancelled the authorization")
            return ok({"code": self.issue_code(frame.user_id, tuple(scopes))})
        if cmd == "AUTHENTICATE":
            token = self._valid_token(str(args.get("access_token") or ""))
            if token is None or token.user_id != frame.user_id:
                return error(RPC_INVALID_TOKEN, "Invalid access token")
            user = self.users[frame.user_id]
            expires = (dt.datetime.now(dt.UTC) + dt.timedelta(
                seconds=TOKEN_LIFETIME - (self.now() - token.created))).isoformat()
            return ok({"access_token": token.access_token,
                       "user": {"username": user["username"], "discriminator": "0",
                                "id": user["id"], "avatar": None, "public_flags": 0,
                                "global_name": user["global_name"]},
                       "scopes": list(token.scopes), "expires": expires,
                       "application": {"description": "", "icon": None, "id": str(APP_ID),
                                       "name": APP_NAME}})
        return error(RPC_INVALID_COMMAND, f"Invalid command: {cmd}")

    def _handshake(self, frame: ActivityFrame, payload: Json) -> list[Any]:
        def close(code: int, text: str) -> list[Any]:
            frame.closed = {"code": code, "message": text}
            return [CLOSE, frame.closed]

        if payload.get("v") != 1:
            return close(CLOSE_INVALID_VERSION, "Invalid Version")
        if payload.get("encoding", "json") != "json":
            return close(CLOSE_INVALID_ENCODING, "Invalid Encoding")
        if str(payload.get("client_id")) != str(APP_ID):
            return close(CLOSE_INVALID_CLIENTID, "Invalid Client ID")
        if payload.get("frame_id") != frame.frame_id:
            return close(CLOSE_INVALID_CLIENTID, "Invalid Frame ID")
        frame.handshake = payload
        user = self.users[frame.user_id]
        return [FRAME, {"cmd": "DISPATCH", "evt": "READY", "nonce": None, "data": {
            "v": 1, "config": {"cdn_host": f"127.0.0.1:{self.port}",
                               "api_endpoint": f"//127.0.0.1:{self.port}/api",
                               "environment": "production"},
            "user": {"id": user["id"], "username": user["username"], "discriminator": "0"}}}]
