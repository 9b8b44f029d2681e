"""A board posted as a follow-up of the interaction that made its move, in one request.

Discord does not count interaction follow-ups against a bot's global limit of 50 requests a
second (topics/rate-limits, "Interaction endpoints are not bound to the bot's Global Rate
Limit"), which every channel post shares. So a move made through a button or `/move` gets its
board this way while the interaction's token lives (15 minutes).

A follow-up carries no nonce, and discord.py's webhook client retries a 5xx answer by itself:
when Discord did the work and only the answer was lost, that retry posts the board twice. So
it is sent here with one request per attempt; a 5xx or a timeout is left to the outbox's own
retry, whose next attempt first looks in the channel for the board it may have posted
(`Delivery._find_follow_up`). A 429 (nothing was done) is waited out and sent again.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

import aiohttp
import orjson

MAX_WAIT = 5.0  # seconds of 429s a follow-up waits out; longer, and it goes another way
# Discord also limits follow-ups by channel (about 30 a minute, reported, not documented: a
# "shared" 429 with a retry_after of up to a minute); the outbox keeps under this and posts
# the rest in the channel, whose own limit (5 messages in 5 s) is separate
CHANNEL_BUDGET = (28, 60.0)


class Unsent(Exception):
    """Discord answered without posting: `refused` (the token is gone, 10015 or 50027, the
    request is refused, or rate-limited for longer than is worth waiting) means the board
    should go another way (the channel); otherwise try again later (a 5xx, a timeout: the
    board may have been posted)."""

    def __init__(self, reason: str, *, refused: bool):
        super().__init__(reason)
        self.refused = refused


async def send_follow_up(session: aiohttp.ClientSession, api_base: str, application_id: int,
                         token: str, payload: dict[str, Any], picture: bytes | None,
                         filename: str = "board.png", description: str | None = None
                         ) -> dict[str, Any]:
    """POST the message (`payload`, as Discord's JSON, with one PNG attached if `picture`,
    `description` its alt text) as a follow-up; returns the created message. Raises
    `Unsent`."""
    body = dict(payload)
    if picture is not None:
        attachment: dict[str, Any] = {"id": 0, "filename": filename}
        if description:
            attachment["description"] = description
        body["attachments"] = [attachment]
    url = f"{api_base}/webhooks/{application_id}/{token}"
    waited = 0.0
    while True:
        data: Any = orjson.dumps(body)
        headers = {"Content-Type": "application/json"}
        if picture is not None:  # a FormData is sent once
            data, headers = aiohttp.FormData(quote_fields=False), {}
            data.add_field("payload_json", orjson.dumps(body).decode(),
                           content_type="application/json")
            data.add_field("files[0]", picture, filename=filename, content_type="image/png")
        try:
            async with session.post(url, data=data, headers=headers, params={"wait": "true"},
                                    timeout=aiohttp.ClientTimeout(total=30)) as response:
                text = await response.text()
                status = response.status
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise Unsent(f"network: {exc!r}", refused=False) from None
        if 200 <= status < 300:
            created: dict[str, Any] = orjson.loads(text)
            return created
        if status == 429:
            retry_after = _retry_after(text)
            if waited + retry_after > MAX_WAIT:  # nothing was done: another way, now
                raise Unsent(f"429 for {retry_after:.1f}s", refused=True)
            waited += retry_after
            await asyncio.sleep(retry_after)
            continue
        raise Unsent(f"{status}: {text[:300]}", refused=status < 500)


async def edit_follow_up(session: aiohttp.ClientSession, api_base: str, application_id: int,
                         token: str, message_id: int | str, body: dict[str, Any], *,
                         picture: bytes | None = None, filename: str = "board.png",
                         description: str | None = None) -> None:
    """PATCH a message the interaction `token` posted (as Discord's JSON); with `picture`,
    that PNG (`description` its alt text) replaces the message's attachments. Raises
    `Unsent` (an edit repeats safely, so a 5xx is simply retried later)."""
    url = f"{api_base}/webhooks/{application_id}/{token}/messages/{message_id}"
    data: Any = orjson.dumps(body)
    headers = {"Content-Type": "application/json"} if picture is None else {}
    waited = 0.0
    while True:
        if picture is not None:  # a FormData is sent once
            data = aiohttp.FormData(quote_fields=False)
            attachment: dict[str, Any] = {"id": 0, "filename": filename}
            if description:
                attachment["description"] = description
            data.add_field("payload_json", orjson.dumps(
                {**body, "attachments": [attachment]}).decode(),
                content_type="application/json")
            data.add_field("files[0]", picture, filename=filename, content_type="image/png")
        try:
            async with session.patch(url, data=data, headers=headers,
                                     timeout=aiohttp.ClientTimeout(total=30)) as response:
                text = await response.text()
                status = response.status
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise Unsent(f"network: {exc!r}", refused=False) from None
        if status == 429:  # nothing was done: a short wait, else another way
            retry_after = _retry_after(text)
            if waited + retry_after > MAX_WAIT:
                raise Unsent(f"429 for {retry_after:.1f}s", refused=True)
            waited += retry_after
            await asyncio.sleep(retry_after)
            continue
        if not 200 <= status < 300:
            raise Unsent(f"{status}: {text[:300]}", refused=status < 500)
        return


def _retry_after(text: str) -> float:
    try:
        return float(orjson.loads(text).get("retry_after", 1.0))
    except (orjson.JSONDecodeError, AttributeError, TypeError, ValueError):
        return 1.0


class ChannelBudget:
    """Follow-ups sent per channel in the last `window` seconds, kept under `limit`."""

    def __init__(self, limit: int = CHANNEL_BUDGET[0], window: float = CHANNEL_BUDGET[1]):
        self.limit, self.window = limit, window
        self._sent: dict[int, collections.deque[float]] = {}

    def opens_in(self, channel_id: int, now: float) -> float:
        """Seconds until the channel has room for one more follow-up (0: now)."""
        sent = self._sent.get(channel_id)
        if not sent or len(sent) < self.limit:
            return 0.0
        return max(0.0, sent[len(sent) - self.limit] + self.window - now)

    def take(self, channel_id: int, now: float) -> bool:
        """Room for one more follow-up in this channel now (and it is counted)?"""
        sent = self._sent.setdefault(channel_id, collections.deque())
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.limit:
            return False
        sent.append(now)
        if len(self._sent) > 10_000:  # forget quiet channels
            for key in [k for k, v in self._sent.items() if not v or v[-1] <= now - self.window]:
                del self._sent[key]
        return True
