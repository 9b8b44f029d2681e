"""The pieces of sign-in with Discord that need no server: the settings and their refusals,
the OAuth2 addresses derived from the API base, where a sign-in may send the browser back to,
the per-client limit, and the session cookie (sealed, refused quietly when forged, and with
the attributes Discord's frame needs)."""

from __future__ import annotations

import logging

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from aiohttp_session import Session

from bot.config import ConfigError, load_settings
from bot.web.signin import COOKIE, CookieStorage, Limiter, SignInSettings, local_path

BASE = {"DISCORD_TOKEN": "t", "CORRAL_WEB_URL": "https://corral.example.org"}


def test_sign_in_needs_both_halves_and_the_public_address():
    assert load_settings(BASE, env_file="/nonexistent").sign_in is None
    settings = load_settings({**BASE, "DISCORD_CLIENT_ID": "123",
                              "DISCORD_CLIENT_SECRET": "s3cret"}, env_file="/nonexistent")
    assert settings.sign_in == SignInSettings("123", "s3cret", "https://discord.com/api/v10",
                                              "https://corral.example.org")
    for bad, words in (({"DISCORD_CLIENT_ID": "123"}, "DISCORD_CLIENT_SECRET"),
                       ({"DISCORD_CLIENT_SECRET": "x"}, "DISCORD_CLIENT_ID"),
                       ({"DISCORD_CLIENT_ID": "12a", "DISCORD_CLIENT_SECRET": "x"},
                        "DISCORD_CLIENT_ID"),
                       ({"CORRAL_ACTIVITY": "on"}, "CORRAL_ACTIVITY"),
                       ({"CORRAL_ACTIVITY": "maybe", "DISCORD_CLIENT_ID": "1",
                         "DISCORD_CLIENT_SECRET": "x"}, "CORRAL_ACTIVITY")):
        with pytest.raises(ConfigError, match=words):
            load_settings({**BASE, **bad}, env_file="/nonexistent")
    with pytest.raises(ConfigError, match="CORRAL_WEB_URL"):
        load_settings({"DISCORD_TOKEN": "t", "DISCORD_CLIENT_ID": "1",
                       "DISCORD_CLIENT_SECRET": "x"}, env_file="/nonexistent")


def test_the_oauth2_addresses_come_from_the_api_base():
    real = SignInSettings("1", "s", "https://discord.com/api/v10", "https://c.example/x")
    assert real.authorize_url == "https://discord.com/oauth2/authorize"
    assert real.token_url == "https://discord.com/api/v10/oauth2/token"
    assert real.me_url == "https://discord.com/api/v10/users/@me"
    assert real.redirect_uri == "https://c.example/x/auth/callback" and real.secure
    fake = SignInSettings("1", "s", "http://127.0.0.1:5000/api/v10", "http://127.0.0.1:8")
    assert fake.authorize_url == "http://127.0.0.1:5000/oauth2/authorize"
    assert not fake.secure


@pytest.mark.parametrize("given, wanted", [
    ("/m/abc?lang=ja", "/m/abc?lang=ja"), (None, "/"), ("", "/"),
    ("https://evil.example/", "/"), ("//evil.example/x", "/"), ("/\\evil.example", "/"),
    ("/m/a b", "/"), ("/" + "x" * 300, "/"), ("javascript:alert(1)", "/")])
def test_a_sign_in_goes_back_to_this_site_only(given, wanted):
    assert local_path(given) == wanted


def test_the_limiter_counts_per_client_within_its_window_and_forgets_the_oldest():
    limiter = Limiter(2, 60.0, remembered=3)
    assert limiter.allow("a", 0) and limiter.allow("a", 1) and not limiter.allow("a", 2)
    assert limiter.allow("a", 61)  # the first two are out of the window
    for client in "bcde":
        assert limiter.allow(client, 62)
    assert "a" not in limiter._seen and len(limiter._seen) == 3


class _Store:
    """The store's meta table, as the cookie's key is kept there."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    async def meta(self, key: str) -> str | None:
        return self.values.get(key)

    def transaction(self, background: bool = False) -> _Store:
        return self

    async def __aenter__(self) -> _Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def set_meta(self, key: str, value: str) -> None:
        self.values[key] = value


async def test_the_session_cookie_is_sealed_and_a_forged_one_is_an_empty_session(caplog):
    store = _Store()
    storage = CookieStorage(lambda: store, secure=True)
    session = Session(None, data=None, new=True, max_age=storage.max_age)
    session["user"] = "42"
    response = web.Response()
    await storage.save_session(make_mocked_request("GET", "/"), response, session)
    cookie = response.cookies[COOKIE]
    assert "42" not in cookie.value  # sealed, not merely signed
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Lax"
    request = make_mocked_request("GET", "/", headers={"Cookie": f"{COOKIE}={cookie.value}"})
    assert (await storage.load_session(request))["user"] == "42"
    # another key (another Corral) or a changed byte: a new, empty session, and no log line
    with caplog.at_level(logging.DEBUG):
        for forged in (cookie.value[:-2] + "AA", "x" * 5000, "not-a-token"):
            request = make_mocked_request("GET", "/", headers={"Cookie": f"{COOKIE}={forged}"})
            loaded = await storage.load_session(request)
            assert loaded.new and "user" not in loaded
    assert not caplog.records


async def test_a_session_begun_in_discords_frame_gets_a_partitioned_cross_site_cookie():
    storage = CookieStorage(lambda: _Store(), secure=False)  # even behind plain http
    session = Session(None, data=None, new=True, max_age=storage.max_age)
    session.update({"user": "7", "frame": True})
    response = web.Response()
    await storage.save_session(make_mocked_request("GET", "/"), response, session)
    header = response.headers["Set-Cookie"]
    name, _, attributes = header.partition("; ")
    assert name.startswith(COOKIE + "=") and len(name) > 100
    assert set(attributes.split("; ")) == {"Path=/", f"Max-Age={storage.max_age}", "HttpOnly",
                                           "Secure", "SameSite=None", "Partitioned"}
