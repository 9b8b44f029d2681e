"""The imitation's rate limits (tests/discord_fake/ratelimits.py): route buckets and their
headers, the per-channel limits, the global limit of the bot token and what it leaves out, the
429s, and discord.py (the bot's HTTP client and webhook adapter) waiting and retrying."""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from discord_fake import APP_ID, FakeDiscord, InteractionRecord
from discord_fake.ratelimits import ROUTE_LIMITS, route_kind, route_name, summary

with warnings.catch_warnings():  # discord.player imports audioop, deprecated in 3.11
    warnings.simplefilter("ignore", DeprecationWarning)
    import discord
    from discord.http import HTTPClient, Route, handle_message_parameters

Json = dict[str, Any]
PING = {"name": "ping", "description": "Ping"}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def frozen(fake: FakeDiscord) -> FakeDiscord:
    """The imitation's clock stands still but for `advance()` (windows close only then)."""
    base = fake.now()
    fake.now = lambda: base + fake._offset  # type: ignore[method-assign]
    return fake


class Api:
    """Raw requests: (status, JSON body, headers)."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake, self.session = fake, session

    async def call(self, method: str, path: str, body: Any = None, *,
                   bot: bool = True) -> tuple[int, Any, Any]:
        headers = {"Authorization": "Bot fake-token"} if bot else {}
        async with self.session.request(method, self.fake.api_base + path, json=body,
                                        headers=headers) as response:
            data = await response.json() if response.status != 204 else None
            return response.status, data, response.headers

    async def post(self, channel_id: int, content: str = "hi") -> tuple[int, Any, Any]:
        return await self.call("POST", f"/channels/{channel_id}/messages", {"content": content})

    async def answer(self, record: InteractionRecord) -> tuple[int, Any, Any]:
        return await self.call("POST", f"/interactions/{record.id}/{record.token}/callback",
                               {"type": 5}, bot=False)

    async def followup(self, record: InteractionRecord, text: str = "f", *,
                       bot: bool = False) -> tuple[int, Any, Any]:
        return await self.call("POST", f"/webhooks/{APP_ID}/{record.token}", {"content": text},
                               bot=bot)


@pytest.fixture
async def api(fake: FakeDiscord) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        status, _, _ = await Api(fake, session).call(
            "PUT", f"/applications/{APP_ID}/commands", [PING])
        assert status == 200
        yield Api(fake, session)


@pytest.fixture
async def http(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[HTTPClient]:
    """discord.py's HTTP client pointed at the imitation, as bot/__main__.py does."""
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    client = HTTPClient(asyncio.get_running_loop())
    await client.static_login("fake-token")
    yield client
    await client.close()


async def answered_interaction(fake: FakeDiscord, api: Api, channel_id: int | None = None
                               ) -> InteractionRecord:
    record = await fake.slash(fake.add_user("Alice"), "ping", channel_id=channel_id)
    assert (await api.answer(record))[0] == 204
    return record


# -- buckets ----------------------------------------------------------------------------------
async def test_a_limited_route_answers_with_its_bucket_headers(fake, api):
    assert fake.route_limits["channel_messages"] == (5, 5.0)
    status, _, headers = await api.post(fake.channel_id)
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert 4.5 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
    assert abs(float(headers["X-RateLimit-Reset"]) - (time.time() + 5)) < 0.5
    bucket = headers["X-RateLimit-Bucket"]
    # another channel: the same bucket name (top-level resources are not in it), its own count
    _, _, other = await api.post(fake.other_channel_id)
    assert (other["X-RateLimit-Bucket"], other["X-RateLimit-Remaining"]) == (bucket, "4")
    # edits are a bucket of their own; a route without a bucket has no headers
    message = fake.channel_messages()[0]
    _, _, edit = await api.call("PATCH", f"/channels/{fake.channel_id}/messages/{message['id']}",
                                {"content": "edited"})
    assert edit["X-RateLimit-Bucket"] != bucket and edit["X-RateLimit-Remaining"] == "4"
    _, _, me = await api.call("GET", "/users/@me")
    assert "X-RateLimit-Limit" not in me
    # errors count too: a refused form is still a request
    status, _, headers = await api.post(fake.channel_id, "x" * 2001)
    assert (status, headers["X-RateLimit-Remaining"]) == (400, "3")


async def test_a_channel_takes_five_messages_in_five_seconds(frozen, api):
    fake = frozen
    for left in (4, 3, 2, 1, 0):
        status, _, headers = await api.post(fake.channel_id, f"m{left}")
        assert (status, headers["X-RateLimit-Remaining"]) == (200, str(left))
    fake.advance(1.5)
    status, body, headers = await api.post(fake.channel_id, "sixth")
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 3.5,
                    "global": False}
    assert headers["Retry-After"] == "4"  # whole seconds, rounded up
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert (headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]) == ("5", "0")
    assert headers["X-RateLimit-Reset-After"] == "3.500" and headers["Via"]
    assert headers["Content-Type"] == "application/json"  # exactly, as discord.py expects
    # refused: nothing posted, nothing dispatched
    assert [m["content"] for m in fake.channel_messages()] == ["m4", "m3", "m2", "m1", "m0"]
    assert [r.status for r in fake.requests][-1] == 429
    assert (await api.post(fake.other_channel_id))[0] == 200  # per channel
    fake.advance(3.4)
    assert (await api.post(fake.channel_id))[0] == 429  # the window is still open
    fake.advance(0.1)
    status, _, headers = await api.post(fake.channel_id, "after")
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")
    assert float(headers["X-RateLimit-Reset-After"]) == 5.0  # a new window from this request
    assert len(fake.channel_messages()) == 6
    refusals = fake.rate_limited()
    assert [(r.scope, r.route, r.kind) for r in refusals] == [
        ("user", "POST /channels/{id}/messages", "bot")] * 2
    assert summary(refusals)["user POST /channels/{id}/messages"] == 2


async def test_edits_and_deletes_have_their_own_limits(frozen, api):
    fake = frozen
    ids = [(await api.post(fake.channel_id, str(i)))[1]["id"] for i in range(5)]
    path = f"/channels/{fake.channel_id}/messages/"
    for i in range(5):
        assert (await api.call("PATCH", path + ids[i], {"content": f"e{i}"}))[0] == 200
    status, _, _ = await api.call("PATCH", path + ids[0], {"content": "again"})
    assert status == 429 and fake.messages[int(ids[0])]["content"] == "e0"  # not edited
    for i in range(5):
        assert (await api.call("DELETE", path + ids[i]))[0] == 204
    assert fake.channel_messages() == []
    assert ROUTE_LIMITS["channel_message_deletes"] == (5, 1.0)


async def test_limits_can_be_changed_or_turned_off(frozen, api):
    fake = frozen
    fake.route_limits["channel_messages"] = (2, 1.0)
    assert [(await api.post(fake.channel_id))[0] for _ in range(3)] == [200, 200, 429]
    fake.route_limits["channel_messages"] = None
    fake.global_rate_limit = None
    statuses = [(await api.post(fake.channel_id))[0] for _ in range(60)]
    assert set(statuses) == {200}


# -- the global limit ---------------------------------------------------------------------------
async def test_fifty_bot_requests_a_second_but_interactions_are_not_counted(frozen, api):
    fake = frozen
    assert fake.global_rate_limit == 50
    fake.advance(1.0)  # past the second of the set-up's command sync
    records = [await fake.slash(fake.add_user(f"U{i}"), "ping") for i in range(12)]
    for record in records:  # interaction answers and their webhooks: not counted
        assert (await api.answer(record))[0] == 204
        assert (await api.followup(record))[0] == 200
    # (answers and follow-ups sent with the bot's token are not counted either)
    status, _, _ = await api.call("PATCH", f"/webhooks/{APP_ID}/{records[0].token}/messages/"
                                  "@original", {"content": "done"})
    assert status == 200
    for _ in range(49):
        assert (await api.call("GET", "/users/@me"))[0] == 200
    assert (await api.call("GET", f"/channels/{fake.channel_id}"))[0] == 200  # the 50th
    fake.advance(0.25)
    status, body, headers = await api.call("GET", "/users/@me")
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 0.75,
                    "global": True}
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1" and "X-RateLimit-Bucket" not in headers
    status, _, _ = await api.post(fake.channel_id, "refused")  # its bucket is not full: global
    assert status == 429 and "refused" not in [m["content"] for m in fake.channel_messages()]
    # an interaction is still answered while the bot token is limited
    record = await fake.slash(fake.add_user("Late"), "ping")
    assert (await api.answer(record))[0] == 204
    assert (await api.followup(record, "still"))[0] == 200
    fake.advance(0.75)
    assert (await api.post(fake.channel_id, "later"))[0] == 200
    counts = summary(fake.rate_limited())
    assert (counts["global"], counts["bot"], counts["user"], counts["webhook"]) == (2, 2, 0, 0)


async def test_the_global_limit_is_per_bot_token(frozen, api):
    fake = frozen
    fake.global_rate_limit = 3
    fake.advance(1.0)
    for _ in range(3):
        assert (await api.call("GET", "/users/@me"))[0] == 200
    assert (await api.call("GET", "/users/@me"))[0] == 429
    async with api.session.get(fake.api_base + "/users/@me",
                               headers={"Authorization": "Bot other-token"}) as response:
        assert response.status == 200


# -- interaction follow-ups -------------------------------------------------------------------
async def test_followups_five_per_two_seconds_per_interaction(frozen, api):
    fake = frozen
    record = await answered_interaction(fake, api)
    for left in (4, 3, 2, 1, 0):  # with or without the bot's token: the interaction's bucket
        status, _, headers = await api.followup(record, bot=left % 2 == 0)
        assert (status, headers["X-RateLimit-Remaining"]) == (200, str(left))
    assert headers["X-RateLimit-Reset-After"] == "2.000"
    status, body, headers = await api.followup(record, "sixth")
    assert (status, body["global"], headers["X-RateLimit-Scope"]) == (429, False, "user")
    assert len(record.followups) == 5  # the sixth was not posted
    other = await answered_interaction(fake, api)  # another interaction: its own bucket
    assert (await api.followup(other))[0] == 200
    fake.advance(2.0)
    assert (await api.followup(record))[0] == 200
    assert route_kind(fake.rate_limited()[0].path) == "webhook"


async def test_followups_share_thirty_a_minute_in_a_channel(frozen, api):
    fake = frozen
    assert fake.route_limits["channel_followups"] == (30, 60.0)
    records = [await answered_interaction(fake, api) for _ in range(7)]
    statuses = [(await api.followup(r))[0] for r in records for _ in range(5)]
    assert statuses == [200] * 30 + [429] * 5
    status, body, headers = await api.followup(records[-1])
    assert body == {"message": "The resource is being rate limited.", "retry_after": 60.0,
                    "global": False}
    assert headers["X-RateLimit-Scope"] == "shared"
    assert headers["X-RateLimit-Remaining"] == "5"  # its own bucket had room (the docs' example)
    assert sum(len(r.followups) for r in records) == 30
    elsewhere = await answered_interaction(fake, api, fake.other_channel_id)
    assert (await api.followup(elsewhere))[0] == 200  # another channel
    fake.advance(60)
    assert (await api.followup(records[-1]))[0] == 200
    assert {r.scope for r in fake.rate_limited()} == {"shared"}


# -- injected 429s ----------------------------------------------------------------------------
async def test_injected_429s_still_work_and_are_counted(fake, api):
    fake.rate_limit("POST", r"/channels/\d+/messages", retry_after=0.3)
    status, body, headers = await api.post(fake.channel_id)
    assert (status, body["retry_after"], headers["X-RateLimit-Bucket"]) == (429, 0.3, "fake")
    assert fake.channel_messages() == []
    assert [r.scope for r in fake.rate_limited()] == ["injected"]


def test_route_names_and_kinds():
    assert route_name("POST", "/channels/12/messages") == "POST /channels/{id}/messages"
    assert route_name("PATCH", "/webhooks/9/itoken-3/messages/@original?x=1") == \
        "PATCH /webhooks/{app}/{token}/messages/@original"
    assert route_name("POST", "/interactions/5/tok/callback") == \
        "POST /interactions/{id}/{token}/callback"
    assert [route_kind(p) for p in ("/interactions/1/t/callback", "/webhooks/1/t",
                                    "/channels/1/messages")] == ["callback", "webhook", "bot"]


# -- discord.py against the limits --------------------------------------------------------------
async def test_discord_py_queues_on_the_headers_and_posts_everything(fake, http):
    fake.route_limits["channel_messages"] = (2, 0.5)
    started = time.monotonic()

    async def send(i: int) -> Json:
        with handle_message_parameters(content=f"m{i}") as params:
            return await http.send_message(fake.channel_id, params=params)

    sent = await asyncio.gather(*(send(i) for i in range(7)))
    took = time.monotonic() - started
    assert len({m["id"] for m in sent}) == len(fake.channel_messages()) == 7
    assert took >= 1.0  # four windows of two
    # it learns the bucket from the first answer and waits on its own: at most the first
    # window's concurrent requests can meet a full bucket
    assert len(fake.rate_limited()) <= 1


async def test_discord_py_waits_out_a_429_and_retries(fake, http, api):
    fake.route_limits["channel_messages"] = (2, 0.6)
    for _ in range(2):  # the bucket filled behind discord.py's back
        assert (await api.post(fake.channel_id))[0] == 200
    with handle_message_parameters(content="retried", nonce=77) as params:
        sent = await http.send_message(fake.channel_id, params=params)
    (refusal,) = fake.rate_limited()
    assert refusal.scope == "user" and 0 < refusal.retry_after <= 0.6
    assert [m["content"] for m in fake.channel_messages()][-1] == "retried"
    assert sent["id"] == fake.channel_messages()[-1]["id"]
    assert [r.status for r in fake.requests if r.method == "POST"][-2:] == [429, 200]


async def test_discord_py_holds_everything_during_a_global_429(fake, http):
    fake.global_rate_limit = 3
    channels = [fake.add_channel(fake.guild_id, f"c{i}") for i in range(6)]

    async def send(channel_id: int) -> Json:
        with handle_message_parameters(content="x") as params:
            return await http.send_message(channel_id, params=params)

    await asyncio.gather(*(send(c) for c in channels))
    assert all(len(fake.channel_messages(c)) == 1 for c in channels)
    assert {r.scope for r in fake.rate_limited()} == {"global"}


async def test_discord_py_webhooks_wait_on_the_followup_bucket(fake, api, monkeypatch):
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    fake.route_limits["interaction_followups"] = (2, 0.5)
    record = await answered_interaction(fake, api)
    webhook = discord.Webhook.partial(APP_ID, record.token, session=api.session)
    await asyncio.gather(*(webhook.send(f"f{i}", wait=True) for i in range(5)))
    assert len(record.followups) == 5
    assert fake.rate_limited() == []  # one at a time per token, delayed on Remaining 0
