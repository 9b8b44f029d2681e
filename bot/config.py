"""Settings from the environment, with a `.env` file in the working directory as a fallback."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from .web.gate import LimitError, WebLimits
from .web.signin import SignInSettings

DEFAULT_DATABASE = "data/corral.sqlite3"
DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_WEB_BIND = ("127.0.0.1", 8080)

MISSING_TOKEN = """DISCORD_TOKEN is not set, so Corral cannot log in to Discord.

Get a token: https://discord.com/developers/applications -> your application -> Bot ->
Reset Token, then put it in the environment or in a .env file in this folder:

    DISCORD_TOKEN=your-token-here

(.env.example lists every setting.)"""


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
ANALYSIS_LEVELS = ("easy", "normal", "hard")


class ConfigError(Exception):
    """A setting is missing or invalid; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database: str = DEFAULT_DATABASE
    guild_id: int | None = None  # sync commands to this server only (instant, for testing)
    api_base: str = DEFAULT_API_BASE
    gateway_url: str | None = None
    log_level: str = "INFO"
    tick_seconds: float = 60.0  # how often deadlines and reminders are checked
    clock_file: str | None = None  # tests only: read the current time from this file
    retry_seconds: float = 1.0  # first wait before a failed delivery is retried (doubles)
    workers: int | None = None  # picture worker processes (default: up to 4, one per core)
    worker_mode: str = "process"  # or "thread" (for comparisons)
    ai_pause: float = 1.0  # seconds an AI seat waits before it moves
    leaderboard_min_games: int = 5  # rated games a player needs to be on a leaderboard
    shard_count: int | None = None  # CORRAL_SHARDS: run as one of several shard processes
    shard_ids: tuple[int, ...] | None = None  # CORRAL_SHARD_IDS: the shards this process runs
    web_bind: tuple[str, int] | None = DEFAULT_WEB_BIND  # /healthz, /metrics, pages; None: off
    web_url: str | None = None  # CORRAL_WEB_URL: the pages' public base URL; None: no links
    # CORRAL_WEB_MAX_STREAMS, CORRAL_WEB_TRUSTED_PROXIES: the pages' caps (bot/web/gate.py)
    web_limits: WebLimits = WebLimits()
    backup_every: float | None = None  # CORRAL_BACKUP_EVERY: seconds between backups; None: off
    backup_keep: int = 7  # CORRAL_BACKUP_KEEP: scheduled backups kept (the oldest go first)
    backup_dir: str | None = None  # CORRAL_BACKUP_DIR; default: backups/ beside the database
    # CORRAL_ANALYSIS_LEVEL: the AI level post-game analyses search at (hard by default; a
    # host on a small machine may choose a cheaper one: an analysis searches every position)
    analysis_level: str = "hard"
    # DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET: sign in with Discord on the pages (moves
    # there); None: the pages are read-only
    sign_in: SignInSettings | None = None
    # CORRAL_ACTIVITY=on: boards carry an Open board button that launches the page inside
    # Discord (the application must have Activities enabled, with its URL mapping)
    activity: bool = False
    # CORRAL_ACTIVITY_FRAME_ANCESTORS: who may frame the pages (default: Discord's client)
    frame_ancestors: str | None = None


def load_settings(environ: Mapping[str, str] | None = None,
                  env_file: str | Path = ".env") -> Settings:
    """The process environment wins over `.env`."""
    values = {k: v for k, v in dotenv_values(env_file).items() if v is not None} \
        if Path(env_file).is_file() else {}
    values.update(os.environ if environ is None else environ)
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(MISSING_TOKEN)
    guild = values.get("DISCORD_GUILD_ID", "").strip()
    if guild and not (guild.isascii() and guild.isdigit() and len(guild) <= 20):
        raise ConfigError(f"DISCORD_GUILD_ID={guild[:30]!r}: expected a server id (digits only)")
    level = values.get("CORRAL_LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"CORRAL_LOG_LEVEL={values.get('CORRAL_LOG_LEVEL', '')!r}: expected "
                          f"one of {', '.join(LOG_LEVELS)}")
    workers_text = values.get("CORRAL_WORKERS", "").strip().lower()
    workers, mode = None, "process"
    if workers_text.startswith("thread"):
        mode = "thread"
    elif workers_text:
        if not (workers_text.isascii() and workers_text.isdigit() and 1 <= len(workers_text) <= 2
                and 1 <= int(workers_text) <= 32):
            raise ConfigError(f"CORRAL_WORKERS={workers_text!r}: expected a number of worker "
                              "processes (1-32), or 'threads'")
        workers = int(workers_text)
    min_games_text = values.get("CORRAL_LEADERBOARD_MIN_GAMES", "").strip()
    if min_games_text and not (min_games_text.isascii() and min_games_text.isdigit()
                               and len(min_games_text) <= 4 and int(min_games_text) >= 1):
        raise ConfigError(f"CORRAL_LEADERBOARD_MIN_GAMES={min_games_text[:30]!r}: expected a "
                          "number of rated games (1-9999)")
    shard_count, shard_ids = _shards(values.get("CORRAL_SHARDS", "").strip(),
                                     values.get("CORRAL_SHARD_IDS", "").strip())
    database = values.get("CORRAL_DATABASE", "").strip() or DEFAULT_DATABASE
    if shard_ids is not None and shard_count is not None and len(shard_ids) < shard_count \
            and not database.startswith(("postgresql://", "postgres://")):
        raise ConfigError("CORRAL_SHARD_IDS: several processes need a shared PostgreSQL store "
                          "(CORRAL_DATABASE=postgresql://...); SQLite is for one process")
    try:
        limits = WebLimits.from_env(values)
    except LimitError as exc:
        raise ConfigError(str(exc)) from None
    analysis_level = values.get("CORRAL_ANALYSIS_LEVEL", "").strip().lower() or "hard"
    api_base = (values.get("DISCORD_API_BASE", "").strip() or DEFAULT_API_BASE).rstrip("/")
    site = web_url(values.get("CORRAL_WEB_URL", ""))
    signing = sign_in_settings(values, api_base, site)
    activity, ancestors = activity_settings(values, signing)
    if analysis_level not in ANALYSIS_LEVELS:
        raise ConfigError(f"CORRAL_ANALYSIS_LEVEL={analysis_level[:30]!r}: expected one of "
                          f"{', '.join(ANALYSIS_LEVELS)}")
    return Settings(
        token=token,
        database=database,
        guild_id=int(guild) if guild else None,
        api_base=api_base,
        gateway_url=values.get("DISCORD_GATEWAY_URL", "").strip() or None,
        log_level=level,
        tick_seconds=_positive(values.get("CORRAL_TICK_SECONDS", ""), "CORRAL_TICK_SECONDS", 60.0),
        clock_file=values.get("CORRAL_CLOCK_FILE", "").strip() or None,
        workers=workers, worker_mode=mode,
        retry_seconds=_positive(values.get("CORRAL_RETRY_SECONDS", ""), "CORRAL_RETRY_SECONDS",
                                1.0),
        ai_pause=_positive(values.get("CORRAL_AI_PAUSE", ""), "CORRAL_AI_PAUSE", 1.0),
        leaderboard_min_games=int(min_games_text) if min_games_text else 5,
        shard_count=shard_count, shard_ids=shard_ids,
        web_bind=web_bind(values.get("CORRAL_WEB_BIND", "")),
        web_url=site,
        web_limits=limits,
        backup_every=_duration(values.get("CORRAL_BACKUP_EVERY", ""), "CORRAL_BACKUP_EVERY"),
        backup_keep=_count(values.get("CORRAL_BACKUP_KEEP", ""), "CORRAL_BACKUP_KEEP", 7),
        backup_dir=values.get("CORRAL_BACKUP_DIR", "").strip() or None,
        analysis_level=analysis_level,
        sign_in=signing,
        activity=activity,
        frame_ancestors=ancestors,
    )


def database_setting(environ: Mapping[str, str] | None = None,
                     env_file: str | Path = ".env") -> str:
    """CORRAL_DATABASE alone, for the admin commands (backup, restore), which need no token."""
    values = {k: v for k, v in dotenv_values(env_file).items() if v is not None} \
        if Path(env_file).is_file() else {}
    values.update(os.environ if environ is None else environ)
    return values.get("CORRAL_DATABASE", "").strip() or DEFAULT_DATABASE


def web_url(text: str) -> str | None:
    """CORRAL_WEB_URL: the public base URL of the match pages (https://corral.example.org,
    or with a path prefix); empty: no links are posted."""
    text = text.strip()
    if not text:
        return None
    scheme, sep, rest = text.partition("://")
    if not (sep and scheme.lower() in ("http", "https") and rest and text.isascii()
            and len(text) <= 200 and not any(c in text for c in " \t\"'<>?#")):
        raise ConfigError(f"CORRAL_WEB_URL={text[:40]!r}: expected the pages' public base URL, "
                          "such as https://corral.example.org")
    return text.rstrip("/")


@dataclass(frozen=True)
class WebSettings:
    """What `python -m bot.web` reads (it needs no Discord token)."""

    database: str
    bind: tuple[str, int]
    url: str | None
    limits: WebLimits
    sign_in: SignInSettings | None
    activity: bool
    frame_ancestors: str | None


def web_settings(environ: Mapping[str, str] | None = None,
                 env_file: str | Path = ".env") -> WebSettings:
    """CORRAL_DATABASE, CORRAL_WEB_BIND, CORRAL_WEB_URL, the pages' caps, sign-in and the
    Activity, for `python -m bot.web`."""
    values = {k: v for k, v in dotenv_values(env_file).items() if v is not None} \
        if Path(env_file).is_file() else {}
    values.update(os.environ if environ is None else environ)
    bind = web_bind(values.get("CORRAL_WEB_BIND", "")) or DEFAULT_WEB_BIND
    try:
        limits = WebLimits.from_env(values)
    except LimitError as exc:
        raise ConfigError(str(exc)) from None
    site = web_url(values.get("CORRAL_WEB_URL", ""))
    api_base = (values.get("DISCORD_API_BASE", "").strip() or DEFAULT_API_BASE).rstrip("/")
    signing = sign_in_settings(values, api_base, site)
    activity, ancestors = activity_settings(values, signing)
    return WebSettings(values.get("CORRAL_DATABASE", "").strip() or DEFAULT_DATABASE, bind, site,
                       limits, signing, activity, ancestors)


def activity_settings(values: Mapping[str, str],
                      signing: SignInSettings | None) -> tuple[bool, str | None]:
    """CORRAL_ACTIVITY (needs sign-in) and CORRAL_ACTIVITY_FRAME_ANCESTORS."""
    activity = _switch(values.get("CORRAL_ACTIVITY", ""), "CORRAL_ACTIVITY")
    ancestors = values.get("CORRAL_ACTIVITY_FRAME_ANCESTORS", "").strip() or None
    if ancestors is not None and not re.fullmatch(r"[A-Za-z0-9:/*.\- ]{1,300}", ancestors):
        raise ConfigError("CORRAL_ACTIVITY_FRAME_ANCESTORS: expected a CSP source list, such as "
                          "https://discord.com https://*.discord.com")
    if activity and signing is None:
        raise ConfigError("CORRAL_ACTIVITY=on needs sign-in: set DISCORD_CLIENT_ID and "
                          "DISCORD_CLIENT_SECRET (the Activity signs its players in)")
    return activity, ancestors


def sign_in_settings(values: Mapping[str, str], api_base: str,
                     site: str | None) -> SignInSettings | None:
    """DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (both, or neither): sign in with Discord on
    the pages, whose public address (CORRAL_WEB_URL) holds the OAuth2 redirect."""
    client_id = values.get("DISCORD_CLIENT_ID", "").strip()
    secret = values.get("DISCORD_CLIENT_SECRET", "").strip()
    if not client_id and not secret:
        return None
    if not (client_id.isascii() and client_id.isdigit() and len(client_id) <= 20):
        raise ConfigError(f"DISCORD_CLIENT_ID={client_id[:30]!r}: expected the application's id "
                          "(digits: developer portal -> your application -> General Information)")
    if not secret or not secret.isascii() or len(secret) > 200 or " " in secret:
        raise ConfigError("DISCORD_CLIENT_SECRET: expected the application's client secret "
                          "(developer portal -> your application -> OAuth2 -> Reset Secret)")
    if site is None:
        raise ConfigError("DISCORD_CLIENT_SECRET needs CORRAL_WEB_URL: sign-in comes back to "
                          "<CORRAL_WEB_URL>/auth/callback (a redirect set in the developer portal)")
    return SignInSettings(client_id, secret, api_base, site)


def _switch(text: str, name: str) -> bool:
    value = text.strip().lower()
    if value in ("", "off", "no", "false", "0"):
        return False
    if value in ("on", "yes", "true", "1"):
        return True
    raise ConfigError(f"{name}={text[:20]!r}: expected on or off")


def web_bind(text: str) -> tuple[str, int] | None:
    """CORRAL_WEB_BIND: `host:port` (`[::1]:8080` for IPv6), or `off`."""
    text = text.strip()
    if not text:
        return DEFAULT_WEB_BIND
    if text.lower() in ("off", "none", "no"):
        return None
    host, colon, port = text.rpartition(":")
    host = host.strip("[]")
    if not (colon and host and port.isascii() and port.isdigit() and len(port) <= 5
            and int(port) <= 65535):
        raise ConfigError(f"CORRAL_WEB_BIND={text[:40]!r}: expected host:port (such as "
                          "127.0.0.1:8080), or off")
    return host, int(port)


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _duration(text: str, name: str) -> float | None:
    """`6h`, `30m`, `1d`, or seconds; empty, `0` or `off`: None."""
    text = text.strip().lower()
    if not text or text in ("0", "off", "no", "none"):
        return None
    unit = _UNITS.get(text[-1], 0)
    number = text[:-1] if unit else text
    unit = unit or 1
    try:
        value = float(number) * unit if len(number) <= 12 and number.isascii() else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value < 1e8:
        raise ConfigError(f"{name}={text[:30]!r}: expected a duration such as 6h, 30m, 1d "
                          "(or seconds), or off")
    return value


def _count(text: str, name: str, default: int) -> int:
    text = text.strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and int(text) >= 1):
        raise ConfigError(f"{name}={text[:30]!r}: expected a number (1-9999)")
    return int(text)


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """CORRAL_SHARDS=<count> and CORRAL_SHARD_IDS=<ids> ("0,2" or "0-3"; default: all)."""
    if not count_text:
        if ids_text:
            raise ConfigError("CORRAL_SHARD_IDS needs CORRAL_SHARDS (the total shard count)")
        return None, None
    if not (count_text.isascii() and count_text.isdigit() and len(count_text) <= 4
            and int(count_text) >= 1):
        raise ConfigError(f"CORRAL_SHARDS={count_text[:30]!r}: expected the total number of "
                          "shards (1-9999)")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        low, dash, high = part.strip().partition("-")
        numbers = [low] + ([high] if dash else [])
        if not all(n.isascii() and n.isdigit() and len(n) <= 4 for n in numbers):
            raise ConfigError(f"CORRAL_SHARD_IDS={ids_text[:40]!r}: expected shard numbers "
                              "like 0,1 or 0-3")
        first, last = int(numbers[0]), int(numbers[-1])
        if first > last or last >= count:
            raise ConfigError(f"CORRAL_SHARD_IDS={ids_text[:40]!r}: shards are numbered 0 to "
                              f"{count - 1}")
        ids.extend(range(first, last + 1))
    return count, tuple(sorted(set(ids)))


def _positive(text: str, name: str, default: float) -> float:
    if not text.strip():
        return default
    try:
        # ASCII only: float() also reads other scripts' digits ("٣"), which no admin means
        value = float(text) if len(text) <= 20 and text.isascii() else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value < 1e7:
        raise ConfigError(f"{name}={text!r}: expected a positive number of seconds")
    return value


def make_clock(settings: Settings) -> Callable[[], float]:
    """The wall clock, or (for end-to-end tests) the time written in CORRAL_CLOCK_FILE."""
    if settings.clock_file is None:
        import time

        return time.time
    path = Path(settings.clock_file)
    return lambda: float(path.read_text().strip())
