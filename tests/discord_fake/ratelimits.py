"""Discord's rate limits, as the imitation applies them: per-route buckets, a per-channel limit
on interaction follow-ups, and the global limit of a bot token.

Documented (discord-api-docs, docs/topics/rate-limits.md, "Rate Limits", and
docs/topics/Rate_Limits.md before it):
  - limits are per route and per bot, and count "top-level resources" (major parameters) of
    the path apart: `channel_id`, `guild_id`, `webhook_id` (+ `webhook_token`); the bucket is
    named by `X-RateLimit-Bucket` without them; every answer of a limited route carries
    `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds), `-Reset-After` (seconds, with
    decimals) and `-Bucket`;
  - a refused request is a 429 with `{"message": "You are being rate limited.", "retry_after":
    <seconds, float>, "global": <bool>}`, a `Retry-After` header (whole seconds, rounded up in
    the docs' examples), the bucket's headers and `X-RateLimit-Scope: user`; a shared
    (per-resource) limit answers `X-RateLimit-Scope: shared` and "The resource is being rate
    limited."; the global limit answers `"global": true`, `X-RateLimit-Global: true`,
    `X-RateLimit-Scope: global` and no bucket headers;
  - "All bots can make up to 50 requests per second to our API" (per bot token), and
    "Interaction endpoints are not bound to the bot's Global Rate Limit": the interaction
    callback and the webhook routes of an interaction token (interactions/receiving-and-
    responding#endpoints: the original response and follow-ups). Documented in PR #4416;
  - deleting messages "falls under a separate, higher rate limit" (the older page).

Observed, not documented (Discord says not to hard-code limits and does not publish them):
  - POST /channels/{id}/messages: 5 per 5 s per channel. discord.js reports it as "Limit: 5"
    with waits of ~4.4-4.6 s on `/channels/:id/messages` (alexemanuelol/rustplusplus issue
    #475, 2025); 5/5 s is the message limit Discord announced for bots in 2016
    (discord-api-docs issue #20). Edits (PATCH) get a bucket of their own (a separate bucket
    hash in discord-net/Discord.Net issue #2375); 5 per 5 s per channel is an approximation.
    Deletes: 5 per 1 s per channel, an approximation of "higher".
  - Interaction follow-ups: "5/2s per interaction" and "30/60s per guild/global" (JDA's author
    measuring, discord-api-docs issue #2701; a Discord engineer answered that the limits are
    webhook limits keyed by the interaction). Follow-ups, ephemeral ones included, are counted
    by a channel-level webhook limit (issue #3763), and its 429s are `shared` ones (issue
    #7243). Chosen here: every follow-up POST counts against 30 per 60 s per channel (shared
    scope), besides 5 per 2 s per interaction token. The answer to the interaction itself (the
    callback, even a message) counts against no channel limit: no report says it does.
  - Interaction callbacks: a bucket per interaction (5 per 2 s, like its webhook routes: an
    approximation; an interaction takes one answer anyway, 40060 after).
  - Not limited here beyond the global limit (no figure found): command sync, GET routes,
    threads, opening DMs. Not imitated: the channel-wide write limit shared by all senders
    (issue #5312, code 20028), the invalid-request limit (10,000 401/403/429 per 10 min per
    IP: `summary()` counts the 429s), gateway send limits.

discord.py (Rapptz/discord.py, discord/http.py and discord/webhook/async_.py) reads
`X-Ratelimit-Remaining` and `-Reset-After` (or `-Reset` with `use_clock`) and
`X-Ratelimit-Bucket` to share a bucket between routes, queues requests of an exhausted bucket
itself, treats a 429 without a `Via` header as a Cloudflare ban (so every 429 here has one),
sleeps `retry_after` from the body, holds every request while a `"global": true` one passes,
and gives up after five tries; it has no global limiter of its own, so a bot learns the global
limit only from 429s. Its webhook adapter sends one request at a time per token.

Windows are fixed: a bucket's window opens with its first request and closes `per` seconds
later, on the imitation's clock (`FakeDiscord.now()`, which `advance()` moves). A request is
counted when it is answered by its route (errors included); a refused one counts nowhere.
Buckets of bot-token routes are per token (`Authorization: Bot ...`); an interaction's routes
are keyed by the interaction alone (sent with or without the bot's token), the shared
follow-up limit by the channel alone.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

GLOBAL_PER_SECOND = 50  # documented

# limit name -> (requests, seconds); FakeDiscord.route_limits holds a copy a test may change
ROUTE_LIMITS: dict[str, tuple[int, float] | None] = {
    "channel_messages": (5, 5.0),  # observed
    "channel_message_edits": (5, 5.0),  # approximated
    "channel_message_deletes": (5, 1.0),  # approximated ("higher")
    "interaction_callback": (5, 2.0),  # approximated
    "interaction_followups": (5, 2.0),  # observed (issue #2701)
    "interaction_messages": (5, 2.0),  # @original and follow-up edits: approximated
    "channel_followups": (30, 60.0),  # observed (issues #2701, #3763), shared scope
}

_ID = r"(?P<major>\d+)"
_HOOK = r"/webhooks/\d+/(?P<major>[^/]+)"
# (methods, path, limit name); the first match decides the route's own bucket
ROUTES: list[tuple[tuple[str, ...], re.Pattern[str], str]] = [
    (("POST",), re.compile(rf"/channels/{_ID}/messages"), "channel_messages"),
    (("PATCH",), re.compile(rf"/channels/{_ID}/messages/\d+"), "channel_message_edits"),
    (("DELETE",), re.compile(rf"/channels/{_ID}/messages/\d+"), "channel_message_deletes"),
    (("POST",), re.compile(r"/interactions/(?P<major>\d+)/[^/]+/callback"),
     "interaction_callback"),
    (("POST",), re.compile(_HOOK), "interaction_followups"),
    (("GET", "PATCH", "DELETE"), re.compile(_HOOK + r"/messages/(@original|\d+)"),
     "interaction_messages"),
]
INTERACTION_ROUTE = re.compile(r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+(/.*)?")


def route_kind(path: str) -> str:
    """"callback" (an interaction's answer), "webhook" (its follow-ups and @original: both
    free of the global limit) or "bot" (everything sent with the bot token)."""
    if path.startswith("/interactions/"):
        return "callback"
    return "webhook" if path.startswith("/webhooks/") else "bot"


def route_name(method: str, path: str) -> str:
    """The route with its ids replaced, e.g. "POST /channels/{id}/messages"."""
    path = re.sub(r"/webhooks/\d+/[^/?]+", "/webhooks/{app}/{token}", path.partition("?")[0])
    path = re.sub(r"/interactions/\d+/[^/]+", "/interactions/{id}/{token}", path)
    return method + " " + re.sub(r"/\d+", "/{id}", path)


@dataclass
class Window:
    limit: int
    per: float
    opened: float
    used: int = 0

    def closes(self) -> float:
        return self.opened + self.per


@dataclass
class Refusal:
    """One 429: when, what, and which limit ("global", "user": a route bucket, "shared": the
    channel's follow-up limit, "injected": FakeDiscord.rate_limit)."""

    at: float
    method: str
    path: str
    scope: str
    retry_after: float

    @property
    def kind(self) -> str:
        return route_kind(self.path)

    @property
    def route(self) -> str:
        return route_name(self.method, self.path)


def _bucket_hash(name: str) -> str:
    return hashlib.md5(name.encode()).hexdigest()[:16]  # stable, opaque, like Discord's


def _seconds(value: float) -> str:
    return f"{value:.3f}"


class RateLimits:
    """The windows of every bucket, and every 429 answered. `interactions` (token -> a record
    with `channel_id`) tells which channel a follow-up posts in."""

    def __init__(self, interactions: Mapping[str, Any]) -> None:
        self.interactions = interactions
        # (bot token, or "" for an interaction's routes and shared limits; limit name; major)
        self.windows: dict[tuple[str, str, str], Window] = {}
        self.global_windows: dict[str, Window] = {}  # bot token -> its current second
        self.refused: list[Refusal] = []

    def _window(self, key: tuple[str, str, str], limit: tuple[int, float],
                now: float) -> Window:
        window = self.windows.get(key)
        if window is None or now >= window.closes():
            if len(self.windows) > 50_000:  # per-interaction buckets: drop the closed ones
                self.windows = {k: w for k, w in self.windows.items() if now < w.closes()}
            window = self.windows[key] = Window(limit[0], limit[1], now)
        window.limit = limit[0]  # a changed knob applies at once
        return window

    def take(self, method: str, path: str, authorization: str, now: float,
             global_limit: int | None, limits: dict[str, tuple[int, float] | None]
             ) -> tuple[web.Response | None, dict[str, str]]:
        """Count a request: (None, the headers for its answer) when it may proceed, or (the
        429 to answer, {}) when a limit refuses it."""
        path = path.partition("?")[0]
        interaction = bool(INTERACTION_ROUTE.fullmatch(path))
        token = authorization if authorization.startswith("Bot ") else ""
        owner = "" if interaction else token  # an interaction's routes: keyed by it alone
        own: tuple[str, Window] | None = None  # the route's bucket
        counted: list[Window] = []
        for methods, pattern, name in ROUTES:
            limit = limits.get(name)
            match = pattern.fullmatch(path) if method in methods else None
            if match and limit:
                own = name, self._window((owner, name, match["major"]), limit, now)
                counted.append(own[1])
                break
        shared: Window | None = None
        limit = limits.get("channel_followups")
        channel = self.followup_channel(method, path)
        if channel is not None and limit:
            shared = self._window(("", "channel_followups", channel), limit, now)
            counted.append(shared)
        second: Window | None = None
        if token and global_limit and not interaction:
            second = self.global_windows.get(token)
            if second is None or now >= second.closes():
                second = self.global_windows[token] = Window(global_limit, 1.0, now)
            second.limit = global_limit
        headers = self.headers(own, now) if own else {}
        if second is not None and second.used >= second.limit:
            return self.refuse(method, path, "global", second.closes() - now, now, {}), {}
        if own is not None and own[1].used >= own[1].limit:
            return self.refuse(method, path, "user", own[1].closes() - now, now, headers), {}
        if shared is not None and shared.used >= shared.limit:
            return self.refuse(method, path, "shared", shared.closes() - now, now, headers), {}
        for window in [*counted, *([second] if second else [])]:
            window.used += 1
        return None, self.headers(own, now) if own else {}

    def followup_channel(self, method: str, path: str) -> str | None:
        """The channel a follow-up (POST /webhooks/{app}/{token}) posts in, if known."""
        match = re.fullmatch(_HOOK, path) if method == "POST" else None
        record = self.interactions.get(match["major"]) if match else None
        return None if record is None else str(record.channel_id)

    @staticmethod
    def headers(own: tuple[str, Window], now: float) -> dict[str, str]:
        name, window = own
        after = max(0.0, window.closes() - now)
        return {"X-RateLimit-Limit": str(window.limit),
                "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
                "X-RateLimit-Reset": _seconds(time.time() + after),
                "X-RateLimit-Reset-After": _seconds(after),
                "X-RateLimit-Bucket": _bucket_hash(name)}

    def refuse(self, method: str, path: str, scope: str, retry_after: float, now: float,
               headers: dict[str, str]) -> web.Response:
        retry_after = round(max(retry_after, 0.001), 3)
        self.refused.append(Refusal(now, method, path, scope, retry_after))
        message = ("The resource is being rate limited." if scope == "shared"
                   else "You are being rate limited.")
        headers = {**headers, "Retry-After": str(math.ceil(retry_after)),
                   "X-RateLimit-Scope": scope, "Via": "1.1 google"}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        body = {"message": message, "retry_after": retry_after, "global": scope == "global"}
        # exactly `application/json`: discord.py reads any other body as text (a Cloudflare ban)
        return web.Response(body=json.dumps(body).encode(), status=429,
                            headers={"Content-Type": "application/json", **headers})

    def injected(self, method: str, path: str, now: float, retry_after: float) -> None:
        self.refused.append(Refusal(now, method, path.partition("?")[0], "injected",
                                    retry_after))


def summary(refusals: list[Refusal]) -> Counter[str]:
    """429s counted by scope, by route kind, and by "<scope> <route>"."""
    counts: Counter[str] = Counter()
    for refusal in refusals:
        counts[refusal.scope] += 1
        counts[refusal.kind] += 1
        counts[f"{refusal.scope} {refusal.route}"] += 1
    return counts
