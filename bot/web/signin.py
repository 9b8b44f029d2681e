"""Sign in with Discord on the web pages: OAuth2's authorization code flow, scope `identify`
only, and a session kept in an encrypted cookie.

- A browser: `/auth/login?next=/m/...` remembers a random `state` in the (new) session and
  sends the browser to Discord's authorize page; `/auth/callback` checks the state, exchanges
  the code on the server (the client secret never leaves it), reads `/users/@me` with the
  access token, and starts a fresh session: the user's id and name and a CSRF token. The
  access token is not kept: the pages need nothing more of Discord.
- The Activity (the page inside Discord): the Embedded App SDK's `authorize` gives the page a
  code, which it posts to `/auth/activity`; the server exchanges it the same way (with no
  redirect URI, as Discord's Activities do) and answers with the access token the SDK's
  `authenticate` needs. The cookie is then `SameSite=None; Secure; Partitioned`, as a cookie
  in Discord's cross-site frame must be.
- Sign-out is a POST with the CSRF token.

Libraries: Authlib's OAuth2 client (on httpx2) makes the authorize address and the token
request and reads OAuth2 errors; aiohttp-session keeps the session, in a cookie encrypted and
authenticated with Fernet (`cryptography`), so nothing is stored per visitor. The key is made
once and kept in the store's meta table, so the bot and `python -m bot.web` beside it read
each other's sessions. CSRF: aiohttp has no maintained CSRF package (aiohttp-csrf's last
release is from 2020), and the defence is short: a random token per session, compared in
constant time on every state-changing request, and the request's Origin, when the browser
sends one, must be this site's.

Caps: each sign-in costs a request to Discord, so the exchanges are few at a time
(`EXCHANGES_AT_ONCE`) and each client address gets `SIGN_INS_PER_CLIENT` in
`SIGN_IN_WINDOW` seconds; a cookie that does not decrypt is a new, empty session (never a
log line a stranger could repeat).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import time
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp_session import AbstractStorage, Session, get_session, new_session
from cryptography.fernet import Fernet, InvalidToken

if TYPE_CHECKING:
    from ..store import Store

log = logging.getLogger(__name__)
# aiohttp-session 2.12 keys each request with a string; aiohttp warns about it on stderr
warnings.filterwarnings("ignore", category=web.NotAppKeyWarning, module="aiohttp_session")

SESSION_KEY = "web_session_key"  # the store's meta entry holding the Fernet key
# a session begun in Discord's frame being ended: its cookie's deletion needs its attributes
FRAME_SIGN_OUT = web.RequestKey("frame_sign_out", bool)
COOKIE = "corral_session"
SESSION_DAYS = 30
STATE_SECONDS = 600  # a sign-in begun this long ago is stale (Discord's codes live 10 min)
EXCHANGE_TIMEOUT = 10.0  # seconds Discord has to answer a token exchange or /users/@me
EXCHANGES_AT_ONCE = 4
SIGN_INS_PER_CLIENT = 10
SIGN_IN_WINDOW = 600.0
# every player inside Discord comes through Discord's proxy, whose few addresses hide theirs:
# sign-ins from the frame have a larger budget per address, and all sign-ins one in all
FRAME_SIGN_INS_PER_CLIENT = 200
SIGN_INS_IN_ALL = 600  # per SIGN_IN_WINDOW
CLIENTS_REMEMBERED = 10_000
MAX_NAME = 64


@dataclass(frozen=True)
class SignInSettings:
    """What sign-in needs: the application's id and secret (DISCORD_CLIENT_ID,
    DISCORD_CLIENT_SECRET), the API base (DISCORD_API_BASE) and the pages' public address
    (CORRAL_WEB_URL, whose /auth/callback must be a redirect in the developer portal)."""

    client_id: str
    client_secret: str
    api_base: str
    base_url: str | None

    @property
    def authorize_url(self) -> str:
        """Discord's authorize page sits at the API's origin, outside /api."""
        parts = urlsplit(self.api_base)
        return f"{parts.scheme}://{parts.netloc}/oauth2/authorize"

    @property
    def token_url(self) -> str:
        return f"{self.api_base}/oauth2/token"

    @property
    def me_url(self) -> str:
        return f"{self.api_base}/users/@me"

    @property
    def redirect_uri(self) -> str | None:
        return f"{self.base_url}/auth/callback" if self.base_url else None

    @property
    def frame_origin(self) -> str:
        """Where Discord's proxy serves the pages inside Discord (the Activity's URL mapping)."""
        return f"https://{self.client_id}.discordsays.com"

    @property
    def secure(self) -> bool:
        return bool(self.base_url and self.base_url.startswith("https://"))


@dataclass(frozen=True)
class User:
    """Who is signed in: a Discord user id and the name Discord gave."""

    id: int
    name: str
    csrf: str
    frame: bool  # signed in through the Activity (Discord's frame)


class SignInFailed(Exception):
    """Discord did not confirm a sign-in; `reason` is one of the page's sentences' keys."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


async def session_key(store: Store) -> bytes:
    """The Fernet key sessions are sealed with (made once, kept in the store)."""
    value = await store.meta(SESSION_KEY)
    if value is None:
        async with store.transaction(background=True) as tx:
            value = await tx.meta(SESSION_KEY)
            if value is None:
                value = Fernet.generate_key().decode()
                await tx.set_meta(SESSION_KEY, value)
    return value.encode()


class CookieStorage(AbstractStorage):
    """aiohttp-session's storage, sealed with Fernet like its EncryptedCookieStorage, with
    three differences: the key comes from the store when first needed (the store opens after
    the server starts); a cookie that does not open is a new session without a warning in the
    log (anyone can send one); and a session begun in Discord's frame gets the cookie
    attributes a cross-site frame needs (SameSite=None; Secure; Partitioned), others Lax."""

    def __init__(self, store: Any, *, secure: bool):
        super().__init__(cookie_name=COOKIE, max_age=SESSION_DAYS * 86400, httponly=True,
                         secure=secure, samesite="Lax")
        self._store = store  # a callable giving the store, or None while it is not open
        self._secure = secure
        self._fernet: Fernet | None = None

    async def _sealer(self) -> Fernet:
        if self._fernet is None:
            store = self._store()
            if store is None:
                raise web.HTTPServiceUnavailable()
            self._fernet = Fernet(await session_key(store))
        return self._fernet

    def forget_key(self) -> None:
        """The database was replaced (a restore): read the key again."""
        self._fernet = None

    async def load_session(self, request: web.Request) -> Session:
        cookie = self.load_cookie(request)
        if cookie is None or len(cookie) > 4096:
            return Session(None, data=None, new=True, max_age=self.max_age)
        fernet = await self._sealer()
        try:
            data = json.loads(fernet.decrypt(cookie.encode("ascii"), ttl=self.max_age))
        except (InvalidToken, ValueError):  # (a cookie that is no ASCII: a ValueError too)
            return Session(None, data=None, new=True, max_age=self.max_age)
        return Session(None, data=data, new=False, max_age=self.max_age)

    async def save_session(self, request: web.Request, response: web.StreamResponse,
                           session: Session) -> None:
        frame = bool(session.get("frame")) or request.get(FRAME_SIGN_OUT, False)
        if session.empty:
            sealed, max_age = "", 0
        else:
            fernet = await self._sealer()
            sealed = fernet.encrypt(json.dumps(self._get_session_data(session)).encode()).decode()
            max_age = session.max_age or self.max_age or 0
        if frame:
            # written by hand: Python's cookie module knows no Partitioned before 3.14
            response.headers.add("Set-Cookie", f"{COOKIE}={sealed}; Path=/; Max-Age={max_age}; "
                                 "HttpOnly; Secure; SameSite=None; Partitioned")
        elif session.empty:
            response.del_cookie(COOKIE, path="/", secure=self._secure, httponly=True,
                                samesite="Lax")
        else:
            response.set_cookie(COOKIE, sealed, path="/", max_age=max_age, httponly=True,
                                secure=self._secure, samesite="Lax")


async def signed_in(request: web.Request) -> User | None:
    """The user this request's session names, if any (the session is read, never made)."""
    if COOKIE not in request.cookies:
        return None
    session = await get_session(request)
    user_id, name, csrf = session.get("user"), session.get("name"), session.get("csrf")
    if not (isinstance(user_id, str) and user_id.isdigit() and isinstance(name, str)
            and isinstance(csrf, str)):
        return None
    return User(int(user_id), name, csrf, bool(session.get("frame")))


def same_origin(request: web.Request, base_url: str | None,
                frame_origin: str | None = None) -> bool:
    """A state-changing request's Origin (or, without one, its Referer) is this site: the
    public address when set, else the Host the request came to; or, with the Activity on, the
    address Discord's proxy serves the pages at (`frame_origin`,
    https://<application id>.discordsays.com)."""
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if not source:
        return True  # browsers send Origin on every cross-site POST; a tool sends neither
    found = urlsplit(source[:512])
    if frame_origin and f"{found.scheme}://{found.netloc}" == frame_origin:
        return True
    if base_url:
        wanted = urlsplit(base_url)
        return (found.scheme, found.netloc) == (wanted.scheme, wanted.netloc)
    return found.netloc == request.host


def csrf_ok(user: User, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(user.csrf.encode(), (given or "")[:128].encode())


def local_path(text: str | None) -> str:
    """Where a sign-in goes back to: a path on this site only (never another site)."""
    if not text or not text.startswith("/") or text.startswith("//") or "\\" in text \
            or len(text) > 256 or any(ord(ch) < 33 for ch in text):
        return "/"
    return text


class Limiter:
    """At most `count` events per `window` seconds per client, remembering a bounded number
    of clients (the oldest forgotten first)."""

    def __init__(self, count: int, window: float, remembered: int = CLIENTS_REMEMBERED):
        self.count, self.window, self.remembered = count, window, remembered
        self._seen: OrderedDict[str, list[float]] = OrderedDict()

    def allow(self, client: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        times = [t for t in self._seen.pop(client, []) if now - t < self.window]
        allowed = len(times) < self.count
        if allowed:
            times.append(now)
        self._seen[client] = times
        while len(self._seen) > self.remembered:
            self._seen.popitem(last=False)
        return allowed


class Discord:
    """The server's side of Discord's OAuth2: the authorize address, the code exchange, and
    who the token belongs to. Its HTTP clients are made once (making one costs a TLS context:
    a tenth of a second of the event loop) and closed with the server (`close`)."""

    def __init__(self, settings: SignInSettings):
        self.settings = settings
        self._at_once = asyncio.Semaphore(EXCHANGES_AT_ONCE)
        self._clients: dict[bool, Any] = {}  # with the redirect (a browser) or without (the frame)
        self._reader: Any = None  # reads /users/@me with the token just given
        # states whose callback came (a cookie sent again still holds its state), until stale
        self._used: OrderedDict[str, float] = OrderedDict()

    def _client(self, redirect: bool) -> Any:
        from authlib.integrations.httpx_client import AsyncOAuth2Client

        client = self._clients.get(redirect)
        if client is None:
            s = self.settings
            client = self._clients[redirect] = AsyncOAuth2Client(
                s.client_id, s.client_secret, scope="identify",
                redirect_uri=s.redirect_uri if redirect else None,
                token_endpoint_auth_method="client_secret_post",
                timeout=EXCHANGE_TIMEOUT, trust_env=False, follow_redirects=False)
        return client

    def authorize_address(self, state: str) -> str:
        """Discord's authorize page for this sign-in (Authlib's grant URI: no client made)."""
        from authlib.oauth2.rfc6749.parameters import prepare_grant_uri

        s = self.settings
        url: str = prepare_grant_uri(s.authorize_url, s.client_id, "code",
                                     redirect_uri=s.redirect_uri, scope="identify",
                                     state=state)
        return url

    def spend(self, state: str, now: float | None = None) -> bool:
        """A callback's state, good once: False if it came before (within STATE_SECONDS)."""
        now = time.time() if now is None else now
        while self._used and next(iter(self._used.values())) < now - STATE_SECONDS:
            self._used.popitem(last=False)
        if state in self._used:
            return False
        self._used[state] = now
        while len(self._used) > CLIENTS_REMEMBERED:
            self._used.popitem(last=False)
        return True

    async def exchange(self, code: str, *, redirect: bool) -> tuple[str, int, str]:
        """(access token, user id, name) for an authorization code; SignInFailed if Discord
        refuses or does not answer."""
        from authlib.integrations.base_client import OAuthError
        from httpx2 import AsyncClient, HTTPError

        if not code or len(code) > 128 or not code.isascii():
            raise SignInFailed("refused")
        async with self._at_once:
            try:
                token = await self._client(redirect).fetch_token(
                    self.settings.token_url, code=code, grant_type="authorization_code")
                access = str(token["access_token"])
                if self._reader is None:
                    self._reader = AsyncClient(timeout=EXCHANGE_TIMEOUT, trust_env=False,
                                               follow_redirects=False)
                answer = await self._reader.get(self.settings.me_url,
                                                headers={"Authorization": f"Bearer {access}"})
            except (OAuthError, KeyError):
                raise SignInFailed("refused") from None
            except (HTTPError, ValueError, TimeoutError) as exc:
                log.warning("sign-in: Discord did not answer (%s)", type(exc).__name__)
                raise SignInFailed("unreachable") from None
        if answer.status_code != 200:
            raise SignInFailed("refused")
        try:
            me = answer.json()
            user_id = int(me["id"])
            name = str(me.get("global_name") or me.get("username") or user_id)[:MAX_NAME]
        except (ValueError, KeyError, TypeError):
            raise SignInFailed("refused") from None
        return access, user_id, name

    async def close(self) -> None:
        for client in (*self._clients.values(), self._reader):
            if client is not None:
                await client.aclose()
        self._clients.clear()
        self._reader = None


async def begin(request: web.Request, discord: Discord, next_path: str) -> str:
    """A fresh session holding the sign-in's state; the address of Discord's page."""
    session = await new_session(request)
    state = secrets.token_urlsafe(24)
    session["oauth"] = {"state": state, "next": local_path(next_path), "at": time.time()}
    return discord.authorize_address(state)


async def finish(request: web.Request, discord: Discord) -> str:
    """The callback: the state checked (and spent), the code exchanged, the session started;
    returns where the browser goes next. SignInFailed says why not."""
    session = await get_session(request)
    begun = session.get("oauth")
    if request.query.get("error"):
        raise SignInFailed("cancelled")
    state = request.query.get("state", "")[:64]
    if not isinstance(begun, dict) or not isinstance(begun.get("state"), str) \
            or not hmac.compare_digest(begun["state"].encode(), state.encode()) \
            or time.time() - float(begun.get("at", 0)) > STATE_SECONDS \
            or not discord.spend(state):
        raise SignInFailed("stale")
    session.pop("oauth", None)
    _, user_id, name = await discord.exchange(request.query.get("code", ""), redirect=True)
    start(await new_session(request), user_id, name, frame=False)
    return local_path(str(begun.get("next", "/")))


def start(session: Session, user_id: int, name: str, *, frame: bool) -> str:
    """A signed-in session (always a new one: no session fixation); returns its CSRF token."""
    csrf = secrets.token_urlsafe(24)
    session.update({"user": str(user_id), "name": name, "csrf": csrf, "since": time.time()})
    if frame:
        session["frame"] = True
    return csrf
