"""The Discord imitation itself: each rule it enforces, driven with aiohttp (raw requests and
websockets) and with discord.py's own HTTP client and sharded client, as the bot uses them."""

from __future__ import annotations

import asyncio
import io
import json
import time
import warnings
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from discord_fake import (
    APP_ID,
    EPHEMERAL,
    ChannelRef,
    FakeDiscord,
    InteractionRecord,
    RoleRef,
    UserRef,
    spec,
)
from discord_fake.forms import MalformedForm, read_form
from discord_fake.model import ADMINISTRATOR, MANAGE_GUILD

with warnings.catch_warnings():  # discord.player imports audioop, deprecated in 3.11
    warnings.simplefilter("ignore", DeprecationWarning)
    import discord
    from discord.http import HTTPClient, Route, handle_message_parameters

Json = dict[str, Any]
CHANNEL_MESSAGES = r"/channels/\d+/messages"
GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 12, 1 << 15

PLAY = {"name": "play", "description": "Start a match", "options": [
    {"type": 4, "name": "size", "description": "Board size", "required": True,
     "min_value": 3, "max_value": 9},
    {"type": 10, "name": "komi", "description": "Komi"},
    {"type": 5, "name": "public", "description": "Post it for everyone"},
    {"type": 6, "name": "opponent", "description": "Who"},
    {"type": 7, "name": "where", "description": "Where", "channel_types": [0]},
    {"type": 3, "name": "colour", "description": "Your colour", "autocomplete": False,
     "choices": [{"name": "black", "value": "b"}, {"name": "white", "value": "w"}]},
    {"type": 3, "name": "note", "description": "Anything", "autocomplete": True},
]}
ADMIN = {"name": "admin", "description": "Server settings", "contexts": [0], "options": [
    {"type": 2, "name": "clock", "description": "Clock settings", "options": [
        {"type": 1, "name": "reset", "description": "Reset clocks", "options": [
            {"type": 4, "name": "days", "description": "How many days"}]}]}]}


# -- fixtures and helpers ---------------------------------------------------------------------
@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


class Api:
    """Raw REST calls, as the bot's library would make them."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake, self.session = fake, session

    async def call(self, method: str, path: str, body: Any = None, *,
                   form: aiohttp.FormData | None = None) -> tuple[int, Any]:
        async with self.session.request(
                method, self.fake.api_base + path, json=body if form is None else None,
                data=form, headers={"Authorization": "Bot fake-token"}) as response:
            data = await response.json() if response.status != 204 else None
            return response.status, data

    async def post(self, channel_id: int, body: Json) -> tuple[int, Any]:
        return await self.call("POST", f"/channels/{channel_id}/messages", body)

    async def answer(self, record: InteractionRecord, kind: int,
                     data: Json | None = None) -> tuple[int, Any]:
        body: Json = {"type": kind} if data is None else {"type": kind, "data": data}
        return await self.call(
            "POST", f"/interactions/{record.id}/{record.token}/callback?with_response=true", body)

    async def followup(self, record: InteractionRecord, body: Json) -> tuple[int, Any]:
        return await self.call("POST", f"/webhooks/{APP_ID}/{record.token}", body)

    async def register(self, *commands: Json) -> tuple[int, Any]:
        return await self.call("PUT", f"/applications/{APP_ID}/commands", list(commands))


@pytest.fixture
async def api(fake: FakeDiscord) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        yield Api(fake, session)


@pytest.fixture
async def http(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[HTTPClient]:
    """discord.py's HTTP client pointed at the imitation, as bot/__main__.py does."""
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    client = HTTPClient(asyncio.get_running_loop())
    await client.static_login("fake-token")
    yield client
    await client.close()


class Gateway:
    """A raw gateway connection: IDENTIFY or RESUME, then read events."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0

    @classmethod
    async def connect(cls, session: aiohttp.ClientSession, fake: FakeDiscord,
                      *, op: int = 2, data: Json) -> Gateway:
        gateway = cls(await session.ws_connect(fake.gateway_url))
        hello = await gateway.ws.receive_json(timeout=2)
        assert hello["op"] == 10
        await gateway.ws.send_json({"op": op, "d": data})
        return gateway

    async def event(self, name: str) -> Json:
        """The next event called `name` (others are skipped)."""
        while True:
            payload = await self.ws.receive_json(timeout=2)
            self.seq = payload.get("s") or self.seq
            if payload.get("t") == name:
                return payload["d"]


def identify(intents: int = GUILDS | GUILD_MESSAGES, shard: list[int] | None = None) -> Json:
    data: Json = {"token": "fake-token", "intents": intents, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    return data


def inner(body: Json, *path: str | int) -> list[str]:
    """The 50035 error codes at a path of the `errors` tree."""
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body", body
    node = body["errors"]
    for key in path:
        node = node[str(key)]
    return [e["code"] for e in node["_errors"]]


def row(*items: Json) -> Json:
    return {"type": 1, "components": list(items)}


def button(custom_id: str, label: str = "go") -> Json:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def menu(custom_id: str, count: int = 3, **extra: Any) -> Json:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


# skipped where the description is absent, as the test report says; with CI=true, run (and
# failed by FakeDiscord: the description is required)
needs_spec = pytest.mark.skipif(not spec.spec_path().is_file() and not spec.required(),
                                reason=spec.status())


def hand(body: Json, path: tuple[str | int, ...], code: str) -> Any:
    """A case of limits.py's rules."""
    return pytest.param(body, path, code, id=f"{'.'.join(map(str, path))}-{code}")


def described(body: Json, path: tuple[str | int, ...], code: str) -> Any:
    """A case of the OpenAPI description's rules (spec.py)."""
    return pytest.param(body, path, code, id=f"{'.'.join(map(str, path))}-{code}",
                        marks=needs_spec)


# -- interaction deadlines ----------------------------------------------------------------------
async def test_an_answer_after_the_deadline_is_an_unknown_interaction(fake, api):
    assert fake.response_deadline == 3.0  # seconds, on the imitation's clock (real time + advance)
    await api.register(PLAY)
    user = fake.add_user("Alice")
    late = await fake.slash(user, "play", size=5)
    fake.advance(3.1)
    status, body = await api.answer(late, 4, {"content": "too late"})
    assert (status, body) == (404, {"message": "Unknown interaction", "code": 10062})
    assert fake.channel_messages() == [] and late.kind is None
    status, _ = await api.followup(late, {"content": "and no followup either"})
    assert status == 404  # the token died with the interaction

    on_time = await fake.slash(user, "play", size=5)
    status, body = await api.answer(on_time, 4, {"content": "in time"})
    assert status == 200 and body["resource"]["message"]["content"] == "in time"
    status, body = await api.answer(on_time, 4, {"content": "twice"})
    assert (status, body["code"]) == (400, 40060)


async def test_the_token_lives_fifteen_minutes(fake, api):
    await api.register(PLAY)
    record = await fake.slash(fake.add_user("Alice"), "play", size=5)
    status, body = await api.followup(record, {"content": "before the answer"})
    assert (status, body["code"]) == (404, 10015)  # nothing to follow up yet
    assert (await api.answer(record, 5))[0] == 200  # deferred: "thinking..."
    assert record.original["flags"] & 128  # LOADING
    status, edited = await api.call("PATCH", f"/webhooks/{APP_ID}/{record.token}/messages/"
                                    "@original", {"content": "done"})
    assert status == 200 and edited["content"] == "done" and not edited["flags"] & 128
    fake.advance(14 * 60)
    assert (await api.followup(record, {"content": "still fine"}))[0] == 200
    fake.advance(61)
    expired = {"message": "Invalid Webhook Token", "code": 50027}
    assert await api.followup(record, {"content": "too late"}) == (401, expired)
    path = f"/webhooks/{APP_ID}/{record.token}/messages/@original"
    assert await api.call("PATCH", path, {"content": "too late"}) == (401, expired)
    assert await api.call("DELETE", path) == (401, expired)


# -- limits -----------------------------------------------------------------------------------
LIMITS = [  # (message body, path of the error, inner code): limits.py's rules, and the
    # description's (skipped without it)
    hand({"content": "x" * 2001}, ("content",), "BASE_TYPE_MAX_LENGTH"),
    described({"embeds": [{"title": "t"}] * 11}, ("embeds",), "BASE_TYPE_MAX_LENGTH"),
    described({"embeds": [{"title": "t" * 257}]}, ("embeds", 0, "title"),
              "BASE_TYPE_MAX_LENGTH"),
    described({"embeds": [{"description": "d" * 4097}]}, ("embeds", 0, "description"),
              "BASE_TYPE_MAX_LENGTH"),
    described({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
              ("embeds", 0, "fields"), "BASE_TYPE_MAX_LENGTH"),
    described({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
              ("embeds", 0, "fields", 0, "value"), "BASE_TYPE_MAX_LENGTH"),  # as Discord says
    hand({"embeds": [{"fields": [{"name": "n", "value": " "}]}]},
         ("embeds", 0, "fields", 0, "value"), "BASE_TYPE_REQUIRED"),
    hand({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, ("embeds",),
         "MAX_EMBED_SIZE_EXCEEDED"),
    hand({"components": [row(button(f"b{i}")) for i in range(6)]}, ("components",),
         "BASE_TYPE_MAX_LENGTH"),
    described({"components": [row(*(button(f"b{i}") for i in range(6)))]},
              ("components", 0, "components"), "BASE_TYPE_BAD_LENGTH"),
    hand({"components": [row(menu("m"), button("b"))]}, ("components", 0, "components", 1),
         "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    described({"components": [row(menu("m", 26))]},
              ("components", 0, "components", 0, "options"), "BASE_TYPE_BAD_LENGTH"),
    described({"components": [row(menu("m", max_values=26))]},
              ("components", 0, "components", 0, "max_values"), "NUMBER_TYPE_MAX"),
    described({"components": [row(menu("m", min_values=-1))]},
              ("components", 0, "components", 0, "min_values"), "NUMBER_TYPE_MIN"),
    hand({"components": [row(menu("m", 2, max_values=3))]},
         ("components", 0, "components", 0, "options"), "BASE_TYPE_MIN_LENGTH"),
    described({"components": [row(button("c" * 101))]},
              ("components", 0, "components", 0, "custom_id"), "BASE_TYPE_BAD_LENGTH"),
    hand({"components": [row({"type": 2, "style": 5, "label": "web"})]},
         ("components", 0, "components", 0, "url"), "BUTTON_COMPONENT_URL_REQUIRED"),
    hand({"components": [row({"type": 2, "style": 5, "label": "web", "url": "javascript:x"})]},
         ("components", 0, "components", 0, "url"), "URL_TYPE_INVALID_URL"),
    hand({"components": [row({"type": 2, "style": 5, "label": "web", "url": "https://a.b/c",
                              "custom_id": "x"})]},
         ("components", 0, "components", 0, "custom_id"), "BUTTON_COMPONENT_INVALID_FIELDS"),
    hand({"components": [row(button("same")), row(button("same"))]},
         ("components", 1, "components", 0, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED"),
    described({"components": [row(button("b", "l" * 81))]},
              ("components", 0, "components", 0, "label"), "BASE_TYPE_MAX_LENGTH"),
    described({"components": [row(menu("m", placeholder="p" * 151))]},
              ("components", 0, "components", 0, "placeholder"), "BASE_TYPE_MAX_LENGTH"),
    described({"components": [row({**menu("m"), "options": [{"label": "l" * 101,
                                                             "value": "v"}]})]},
              ("components", 0, "components", 0, "options", 0, "label"), "BASE_TYPE_BAD_LENGTH"),
    described({"components": [row({**menu("m"), "options": [{"label": "l",
                                                             "value": "v" * 101}]})]},
              ("components", 0, "components", 0, "options", 0, "value"), "BASE_TYPE_BAD_LENGTH"),
    described({"components": [row({**menu("m"), "options": [{"label": "l", "value": "v",
                                                             "description": "d" * 101}]})]},
              ("components", 0, "components", 0, "options", 0, "description"),
              "BASE_TYPE_MAX_LENGTH"),
    described({"content": "x", "nonce": "n" * 26}, ("nonce",), "NONCE_TYPE_TOO_LONG"),
    hand({"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
         ("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"),
    described({"content": "x", "allowed_mentions": {"users": [str(i) for i in range(101)]}},
              ("allowed_mentions", "users"), "BASE_TYPE_MAX_LENGTH"),
]


@pytest.mark.parametrize(("body", "path", "code"), LIMITS)
async def test_each_limit_is_an_invalid_form_body(fake, api, body, path, code):
    status, answer = await api.post(fake.channel_id, body)
    assert status == 400 and code in inner(answer, *path)
    assert fake.channel_messages() == []


@pytest.mark.parametrize("body", [{}, {"content": ""}, {"content": "   "},
                                  {"content": None, "embeds": [], "components": []}])
async def test_an_empty_message_is_refused(fake, api, body):
    empty = {"message": "Cannot send an empty message", "code": 50006}
    assert await api.post(fake.channel_id, body) == (400, empty)


async def test_limits_apply_to_answers_followups_and_edits(fake, api):
    await api.register(PLAY)
    too_long = {"content": "x" * 2001}
    record = await fake.slash(fake.add_user("Alice"), "play", size=5)
    status, body = await api.answer(record, 4, too_long)
    assert status == 400 and inner(body, "data", "content") == ["BASE_TYPE_MAX_LENGTH"]
    assert (await api.answer(record, 4, {"content": "   "}))[1]["code"] == 50006
    assert record.kind is None  # refused answers do not acknowledge
    assert (await api.answer(record, 4, {"content": "ok", "components": [row(button("a"))]}))[0] \
        == 200
    status, body = await api.followup(record, too_long)
    assert status == 400 and inner(body, "content") == ["BASE_TYPE_MAX_LENGTH"]
    assert (await api.followup(record, {}))[1]["code"] == 50006
    hook = f"/webhooks/{APP_ID}/{record.token}/messages/@original"
    status, body = await api.call("PATCH", hook, too_long)
    assert status == 400 and inner(body, "content") == ["BASE_TYPE_MAX_LENGTH"]
    # an edit may drop fields, but not leave the message empty
    assert (await api.call("PATCH", hook, {"components": []}))[0] == 200
    assert (await api.call("PATCH", hook, {"content": ""}))[1]["code"] == 50006

    status, posted = await api.post(fake.channel_id, {"content": "board",
                                                      "components": [row(button("k"))]})
    path = f"/channels/{fake.channel_id}/messages/{posted['id']}"
    status, body = await api.call("PATCH", path, {"components": [row(button("k"), button("k"))]})
    assert status == 400 and "COMPONENT_CUSTOM_ID_DUPLICATED" in inner(
        body, "components", 0, "components", 1, "custom_id")
    click = await fake.click(fake.add_user("Bob"), posted, "k")
    status, body = await api.answer(click, 7, too_long)
    assert status == 400 and inner(body, "data", "content") == ["BASE_TYPE_MAX_LENGTH"]
    assert (await api.answer(click, 7, {"content": "", "components": []}))[1]["code"] == 50006
    assert (await api.answer(click, 7, {"components": []}))[0] == 200
    assert fake.messages[int(posted["id"])]["content"] == "board"


@needs_spec
async def test_autocomplete_choices_are_limited(fake, api):
    await api.register(PLAY)
    user = fake.add_user("Alice")
    choices = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    record = await fake.autocomplete(user, "play", "note", note="")
    status, body = await api.answer(record, 8, {"choices": choices})
    assert status == 400 and inner(body, "data", "choices") == ["BASE_TYPE_MAX_LENGTH"]
    status, body = await api.answer(record, 8, {"choices": [{"name": "n" * 101, "value": "v"}]})
    assert inner(body, "data", "choices", 0, "name") == ["BASE_TYPE_BAD_LENGTH"]
    status, body = await api.answer(record, 8, {"choices": [{"name": "n", "value": "v" * 101}]})
    assert inner(body, "data", "choices", 0, "value") == ["BASE_TYPE_MAX_LENGTH"]
    status, body = await api.answer(record, 4, {"content": "not an autocomplete answer"})
    assert inner(body, "type") == ["BASE_TYPE_CHOICES"]
    assert (await api.answer(record, 8, {"choices": choices[:25]}))[0] == 200
    assert len(record.choices) == 25


@needs_spec
async def test_thread_names_are_limited(fake, http):
    with pytest.raises(discord.HTTPException) as refused:
        await http.start_thread_without_message(fake.channel_id, name="n" * 101,
                                                auto_archive_duration=1440, type=11)
    assert refused.value.code == 50035 and "name" in str(refused.value)
    thread = await http.start_thread_without_message(fake.channel_id, name="n" * 100,
                                                     auto_archive_duration=1440, type=11)
    assert fake.channels[int(thread["id"])]["parent_id"] == str(fake.channel_id)


async def test_files_over_the_upload_limit_are_too_large(fake, http):
    assert fake.attachment_size_limit == 10 * 1024 * 1024
    fake.attachment_size_limit = 1000
    small = discord.File(io.BytesIO(b"x" * 1000), filename="ok.png")
    with handle_message_parameters(content="fits", file=small) as params:
        sent = await http.send_message(fake.channel_id, params=params)
    assert fake.attachment_bytes(sent) == [b"x" * 1000]
    assert sent["attachments"][0]["filename"] == "ok.png"
    assert await http.get_from_cdn(sent["attachments"][0]["url"]) == b"x" * 1000
    big = discord.File(io.BytesIO(b"x" * 1001), filename="big.png")
    with handle_message_parameters(content="too big", file=big) as params, \
            pytest.raises(discord.HTTPException) as refused:
        await http.send_message(fake.channel_id, params=params)
    assert (refused.value.status, refused.value.code) == (413, 40005)
    assert refused.value.text == "Request entity too large"
    assert len(fake.channel_messages()) == 1


BOUNDARY = "a7c0de--b0undary"
FILES = (b"\x89PNG\r\n--a7c0de--b0und\r\n\x00", b"")  # CRLF, a near-boundary, an empty file


def form_body(*parts: tuple[str, bytes], boundary: str = BOUNDARY, end: bytes = b"--\r\n"
              ) -> bytes:
    """A multipart/form-data body as aiohttp writes it, from (headers, data) parts."""
    out = b""
    for headers, data in parts:
        out += f"--{boundary}\r\n{headers}\r\n\r\n".encode() + data + b"\r\n"
    return out + f"--{boundary}".encode() + end


def message_form(content: str = "two files") -> list[tuple[str, bytes]]:
    payload = {"content": content, "attachments": [
        {"id": 0, "filename": "board.png", "description": "the board"},
        {"id": 1, "filename": "empty.txt"}]}
    return [
        ('Content-Type: text/plain; charset=utf-8\r\n'
         'Content-Disposition: form-data; name="payload_json"', json.dumps(payload).encode()),
        ('Content-Type: application/octet-stream\r\n'
         'Content-Disposition: form-data; name="files[0]"; filename="board.png"', FILES[0]),
        ('Content-Disposition: form-data; name="files[1]"; filename="\u65e5\u672c.txt"',
         FILES[1])]


async def post_form(fake: FakeDiscord, api: Api, body: bytes,
                    content_type: str = f"multipart/form-data; boundary={BOUNDARY}") -> int:
    async with api.session.post(
            f"{fake.api_base}/channels/{fake.channel_id}/messages", data=body,
            headers={"Content-Type": content_type, "Authorization": "Bot fake-token"}) as answer:
        return answer.status


def test_multipart_reader_reads_payload_json_and_files_exactly():
    body = form_body(*message_form())
    parts = read_form(f"Multipart/Form-Data; boundary=\"{BOUNDARY}\"", body)
    assert [name for name, _ in parts] == ["payload_json", "files[0]", "files[1]"]
    assert json.loads(parts[0][1])["content"] == "two files"
    assert [data for _, data in parts[1:]] == list(FILES)
    assert read_form(f"multipart/form-data; boundary={BOUNDARY}", body[:-2]) == parts
    assert read_form(f"multipart/form-data; boundary={BOUNDARY}",
                     f"--{BOUNDARY}--\r\n".encode()) == []


MALFORMED = {
    "no closing boundary": form_body(*message_form(), end=b"\r\n"),
    "truncated": form_body(*message_form())[:-40],
    "another boundary": form_body(*message_form(), boundary="other"),
    "not at the start": b"preamble\r\n" + form_body(*message_form()),
    "after the close": form_body(*message_form()) + b"epilogue",
    "a boundary with more": form_body(*message_form()).replace(
        f"--{BOUNDARY}\r\nContent-Disposition".encode(),
        f"--{BOUNDARY}x\r\nContent-Disposition".encode()),
    "no blank line": f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"x\"\r\n"
                     f"--{BOUNDARY}--\r\n".encode(),
    "no disposition": form_body(("Content-Type: text/plain", b"x")),
    "no name": form_body(("Content-Disposition: form-data", b"x")),
    "bad disposition": form_body(('Content-Disposition: form-data; name="x', b"x")),
    "bare LF": form_body(*message_form()).replace(b"\r\n", b"\n"),
    "wrong length": form_body(('Content-Disposition: form-data; name="files[0]"\r\n'
                               'Content-Length: 5', b"four")),
    "nested": form_body(('Content-Disposition: form-data; name="files[0]"\r\n'
                         'Content-Type: multipart/mixed; boundary=in', b"--in--")),
}


@pytest.mark.parametrize("case", MALFORMED)
async def test_malformed_multipart_bodies_are_refused(fake, api, case):
    with pytest.raises(MalformedForm):
        read_form(f"multipart/form-data; boundary={BOUNDARY}", MALFORMED[case])
    # 500, as when aiohttp's reader failed (it read a preamble, an epilogue, a nested form and
    # parts without a name; this reader refuses them too)
    assert await post_form(fake, api, MALFORMED[case]) == 500
    assert fake.channel_messages() == []


@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary=",
                                          "multipart/mixed; boundary=" + BOUNDARY,
                                          f"multipart/form-data; boundary={BOUNDARY}; x"])
async def test_multipart_needs_form_data_with_a_boundary(fake, api, content_type):
    assert await post_form(fake, api, form_body(*message_form()), content_type) == 500
    assert fake.channel_messages() == []


async def test_a_multipart_message_with_two_files(fake, api):
    assert await post_form(fake, api, form_body(*message_form())) == 200
    (message,) = fake.channel_messages()
    assert message["content"] == "two files"
    assert [(a["filename"], a["size"], a.get("description")) for a in message["attachments"]] \
        == [("board.png", len(FILES[0]), "the board"), ("empty.txt", 0, None)]
    assert fake.attachment_bytes(message) == list(FILES)
    assert fake.requests[-1].files == {"files[0]": FILES[0], "files[1]": FILES[1]}
    fake.attachment_size_limit = len(FILES[0]) - 1
    assert await post_form(fake, api, form_body(*message_form("too big"))) == 413


async def test_discord_py_reports_the_error_tree(fake, http):
    with handle_message_parameters(content="x" * 2001) as params, \
            pytest.raises(discord.HTTPException) as refused:
        await http.send_message(fake.channel_id, params=params)
    assert refused.value.code == 50035
    assert "In content: Must be 2000 or fewer in length." in str(refused.value)


# -- faults -----------------------------------------------------------------------------------
async def test_server_errors_the_test_asks_for(fake, api, http):
    fake.fail("POST", CHANNEL_MESSAGES, status=503)
    status, body = await api.post(fake.channel_id, {"content": "hello"})
    assert (status, body["message"]) == (503, "503: Service Unavailable")
    assert fake.channel_messages() == []  # not processed
    fake.fail("POST", CHANNEL_MESSAGES, status=500)
    with handle_message_parameters(content="retried") as params:
        sent = await http.send_message(fake.channel_id, params=params)  # discord.py retries
    assert [r.status for r in fake.requests if r.method == "POST"] == [503, 500, 200]
    assert [m["id"] for m in fake.channel_messages()] == [sent["id"]]


async def test_processed_then_502_is_not_doubled_thanks_to_the_nonce(fake, http):
    fake.fail("POST", CHANNEL_MESSAGES, status=502, processed=True)
    with handle_message_parameters(content="board", nonce=1234) as params:
        assert params.payload is not None and params.payload["enforce_nonce"] is True
        sent = await http.send_message(fake.channel_id, params=params)  # retried after 1 s
    posts = [r for r in fake.requests if r.method == "POST"]
    assert [r.status for r in posts] == [502, 200]
    assert posts[0].json["nonce"] == posts[1].json["nonce"] == "1234"
    (stored,) = fake.channel_messages()
    assert stored["id"] == sent["id"] and stored["nonce"] == "1234"
    fake.fail("POST", CHANNEL_MESSAGES, status=502, processed=True)
    with handle_message_parameters(content="no nonce") as params:  # what a nonce prevents
        await http.send_message(fake.channel_id, params=params)
    assert [m["content"] for m in fake.channel_messages()] == ["board", "no nonce", "no nonce"]


async def test_nonces_are_enforced_only_when_asked_and_for_a_few_minutes(fake, api):
    first = await api.post(fake.channel_id, {"content": "a", "nonce": "n1",
                                             "enforce_nonce": True})
    again = await api.post(fake.channel_id, {"content": "a", "nonce": "n1",
                                             "enforce_nonce": True})
    assert first == again and len(fake.channel_messages()) == 1
    other = await api.post(fake.other_channel_id, {"content": "a", "nonce": "n1",
                                                   "enforce_nonce": True})
    assert other[1]["id"] != first[1]["id"]  # another channel
    await api.post(fake.channel_id, {"content": "a", "nonce": "n1"})  # not enforced
    assert len(fake.channel_messages()) == 2
    fake.advance(fake.nonce_window + 1)
    await api.post(fake.channel_id, {"content": "a", "nonce": "n1", "enforce_nonce": True})
    assert len(fake.channel_messages()) == 3


async def test_slow_answers(fake, api):
    fake.slow("GET", "/users/@me", 0.3)
    started = time.monotonic()
    assert (await api.call("GET", "/users/@me"))[0] == 200
    assert time.monotonic() - started >= 0.3
    await api.register(PLAY)
    fake.response_deadline = 0.2
    record = await fake.slash(fake.add_user("Alice"), "play", size=5)
    fake.slow("POST", r"/interactions/.*", 0.3)
    assert (await api.answer(record, 4, {"content": "slow"}))[1]["code"] == 10062


async def test_missing_permissions_per_channel(fake, http, api):
    fake.deny(fake.channel_id, "send", "create_thread")
    with handle_message_parameters(content="hello") as params, \
            pytest.raises(discord.Forbidden) as refused:
        await http.send_message(fake.channel_id, params=params)
    assert (refused.value.code, refused.value.text) == (50013, "Missing Permissions")
    with pytest.raises(discord.Forbidden):
        await http.start_thread_without_message(fake.channel_id, name="match",
                                                auto_archive_duration=1440, type=11)
    with handle_message_parameters(content="elsewhere") as params:
        await http.send_message(fake.other_channel_id, params=params)  # only that channel
    await api.register(PLAY)
    record = await fake.slash(fake.add_user("Alice"), "play", size=5)
    permissions = int(record.payload["app_permissions"])
    assert not permissions & (1 << 11) and not permissions & (1 << 35)  # SEND, CREATE_THREADS
    assert (await api.answer(record, 4, {"content": "an answer is not a channel send"}))[0] == 200
    fake.allow(fake.channel_id, "send")
    with handle_message_parameters(content="hello again") as params:
        await http.send_message(fake.channel_id, params=params)


# -- messages on the gateway ------------------------------------------------------------------
async def test_message_create_update_and_delete_reach_the_gateway(fake, api, http):
    async with aiohttp.ClientSession() as session:
        gateway = await Gateway.connect(session, fake, data=identify())
        await gateway.event("READY")
        alice = fake.add_user("Alice")
        await fake.user_message(alice, fake.channel_id, "hello everyone")
        seen = await gateway.event("MESSAGE_CREATE")
        assert seen["author"]["id"] == str(alice) and seen["content"] == ""  # no content intent
        assert seen["guild_id"] == str(fake.guild_id) and "member" in seen
        await fake.user_message(alice, fake.channel_id, f"<@{APP_ID}> hi")
        assert (await gateway.event("MESSAGE_CREATE"))["content"] == f"<@{APP_ID}> hi"
        await fake.user_message(alice, fake.dm_channel(alice), "a DM")  # no DM intent

        with handle_message_parameters(content="the bot's own") as params:
            sent = await http.send_message(fake.channel_id, params=params)
        assert (await gateway.event("MESSAGE_CREATE"))["content"] == "the bot's own"
        await http.edit_message(fake.channel_id, sent["id"],
                                params=handle_message_parameters(content="edited"))
        assert (await gateway.event("MESSAGE_UPDATE"))["content"] == "edited"
        await http.delete_message(fake.channel_id, sent["id"])
        assert await gateway.event("MESSAGE_DELETE") == {
            "id": sent["id"], "channel_id": str(fake.channel_id), "guild_id": str(fake.guild_id)}
        assert int(sent["id"]) not in fake.messages
    assert fake.sessions[0].names().count("MESSAGE_CREATE") == 3  # not the DM


async def test_deleting_messages(fake, api, http):
    alice = fake.add_user("Alice")
    theirs = await fake.user_message(alice, fake.channel_id, "spectator talk")
    fake.deny(fake.channel_id, "manage_messages")
    with pytest.raises(discord.Forbidden) as refused:
        await http.delete_message(fake.channel_id, theirs["id"])
    assert refused.value.code == 50013
    fake.allow(fake.channel_id, "manage_messages")
    await http.delete_message(fake.channel_id, theirs["id"])
    with pytest.raises(discord.NotFound) as gone:
        await http.delete_message(fake.channel_id, theirs["id"])
    assert gone.value.code == 10008
    other = await fake.user_message(alice, fake.channel_id, "mine")
    status, body = await api.call("PATCH", f"/channels/{fake.channel_id}/messages/{other['id']}",
                                  {"content": "not yours"})
    assert (status, body["code"]) == (403, 50005)


async def test_channel_messages_in_order_without_ephemeral_or_deleted_ones(fake, api):
    alice = fake.add_user("Alice")
    first = await fake.user_message(alice, fake.channel_id, "first")
    elsewhere = await fake.user_message(alice, fake.other_channel_id, "elsewhere")
    second = (await api.post(fake.channel_id, {"content": "second"}))[1]
    await api.register(PLAY)
    record = await fake.slash(alice, "play", size=5)
    assert (await api.answer(record, 4, {"content": "secret", "flags": EPHEMERAL}))[0] == 200
    third = await fake.user_message(alice, fake.channel_id, "third")
    await api.call("DELETE", f"/channels/{fake.channel_id}/messages/{second['id']}")
    assert fake.channel_messages() == [first, third]
    assert fake.channel_messages(fake.other_channel_id) == [elsewhere]
    # what a test stores itself counts too; a message replaced under its id keeps its place
    fake.messages[int(first["id"])] = moved = dict(first, channel_id=str(fake.other_channel_id))
    assert fake.channel_messages() == [third]
    assert fake.channel_messages(fake.other_channel_id) == [moved, elsewhere]
    del fake.messages[int(third["id"])]
    assert fake.channel_messages() == [] and fake.dm_messages(alice) == []


async def test_content_intent_and_ephemeral_messages(fake, api):
    async with aiohttp.ClientSession() as session:
        gateway = await Gateway.connect(session, fake,
                                        data=identify(GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT))
        await gateway.event("READY")
        await api.register(PLAY)
        alice = fake.add_user("Alice")
        await fake.user_message(alice, fake.channel_id, "visible with the intent")
        assert (await gateway.event("MESSAGE_CREATE"))["content"] == "visible with the intent"
        record = await fake.slash(alice, "play", size=5)
        await gateway.event("INTERACTION_CREATE")
        await api.answer(record, 4, {"content": "only for Alice", "flags": EPHEMERAL})
        await api.followup(record, {"content": "for all"})
        assert (await gateway.event("MESSAGE_CREATE"))["content"] == "for all"
    assert record.ephemeral_texts() == ["only for Alice"]


# -- interactions ---------------------------------------------------------------------------
async def test_slash_options_are_typed_by_the_command(fake, api):
    await api.register(PLAY, ADMIN)
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    async with aiohttp.ClientSession() as session:
        gateway = await Gateway.connect(session, fake, data=identify())
        await gateway.event("READY")
        await fake.slash(alice, "play", size=7, komi=6.5, public=True, opponent=UserRef(bob),
                         where=ChannelRef(fake.other_channel_id), colour="w")
        data = (await gateway.event("INTERACTION_CREATE"))["data"]
        options = {o["name"]: (o["type"], o["value"]) for o in data["options"]}
        assert options == {"size": (4, 7), "komi": (10, 6.5), "public": (5, True),
                           "opponent": (6, str(bob)), "where": (7, str(fake.other_channel_id)),
                           "colour": (3, "w")}
        assert data["resolved"]["users"][str(bob)]["username"] == "Bob"
        assert str(bob) in data["resolved"]["members"]
        channel = data["resolved"]["channels"][str(fake.other_channel_id)]
        assert channel["name"] == "general" and channel["type"] == 0 and "permissions" in channel
        record = await fake.slash(alice, "admin", subcommand="clock reset", days=3)
        data = record.payload["data"]
        assert data["options"] == [{"name": "clock", "type": 2, "options": [
            {"name": "reset", "type": 1, "options": [{"name": "days", "type": 4, "value": 3}]}]}]
    for wrong in ({"size": 2}, {"size": "7"}, {"size": 5, "colour": "red"},
                  {"size": 5, "public": "yes"}, {"size": 5, "unknown": 1}, {}):
        with pytest.raises(AssertionError):
            await fake.slash(alice, "play", **wrong)
    with pytest.raises(AssertionError):  # guild only
        await fake.slash(alice, "admin", subcommand="clock reset", dm=True)



async def test_roles_members_permissions_and_role_options(fake, api):
    """Roles as Discord has them: in the guild, GUILD_ROLE_CREATE, a member's role ids and the
    permissions they add to @everyone's, ROLE options resolved; others' roles only forged."""
    await api.register({"name": "grant", "description": "Name a role", "options": [
        {"type": 8, "name": "role", "description": "Which role", "required": True}]})
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    async with aiohttp.ClientSession() as session:
        gateway = await Gateway.connect(session, fake, data=identify())
        guild = await gateway.event("GUILD_CREATE")
        assert [r["name"] for r in guild["roles"]] == ["@everyone"]
        assert guild["roles"][0]["id"] == str(fake.guild_id)
        mods = await fake.add_role("Mods", permissions=MANAGE_GUILD)
        created = await gateway.event("GUILD_ROLE_CREATE")
        assert created["guild_id"] == str(fake.guild_id)
        assert created["role"]["id"] == str(mods) and created["role"]["permissions"] == "32"
        admins = await fake.add_role("Admins", permissions=ADMINISTRATOR)
        fake.give_role(alice, mods)
        record = await fake.slash(alice, "grant", role=RoleRef(mods))
        member = record.payload["member"]
        assert member["roles"] == [str(mods)]
        everyone = int(guild["roles"][0]["permissions"])
        assert int(member["permissions"]) == everyone | MANAGE_GUILD
        assert record.payload["data"]["options"] == [{"name": "role", "type": 8,
                                                      "value": str(mods)}]
        assert record.payload["data"]["resolved"]["roles"][str(mods)]["name"] == "Mods"
        plain = await fake.slash(bob, "grant", role=mods)
        assert plain.payload["member"]["roles"] == []
        assert int(plain.payload["member"]["permissions"]) == everyone
        fake.give_role(bob, admins)
        assert int((await fake.slash(bob, "grant", role=mods)).payload["member"]
                   ["permissions"]) == (1 << 41) - 1  # an administrator has them all
    other = fake.add_guild("Elsewhere")
    theirs = await fake.add_role("Theirs", guild_id=other.guild_id)
    for wrong in (theirs, fake.new_id(), RoleRef(theirs), fake.guild_id + 1):
        with pytest.raises(AssertionError):  # a client offers only this server's roles
            await fake.slash(alice, "grant", role=wrong)
    forged = await fake.slash(alice, "grant", role=RoleRef(theirs, forged=True))
    assert str(theirs) in forged.payload["data"]["resolved"]["roles"]
    with pytest.raises(AssertionError):
        fake.give_role(alice, fake.guild_id)  # @everyone is nobody's to give


async def test_components_on_ephemeral_messages_deferred_updates_and_modals(fake, api):
    await api.register(PLAY)
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    record = await fake.slash(alice, "play", size=5)
    await api.answer(record, 4, {"content": "your private step", "flags": EPHEMERAL,
                                 "components": [row(button("step"), button("form"))]})
    step = record.original
    with pytest.raises(AssertionError):
        await fake.click(bob, step, "step")  # Bob cannot see Alice's ephemeral message
    click = await fake.click(alice, step, "step")
    assert click.payload["message"]["flags"] & EPHEMERAL
    assert click.source_message_id == int(step["id"])
    assert (await api.answer(click, 6))[0] == 200  # deferred update: nothing visible yet
    assert click.kind == 6 and click.original is None
    status, edited = await api.call("PATCH", f"/webhooks/{APP_ID}/{click.token}/messages/"
                                    "@original", {"content": "step done", "components": []})
    assert status == 200 and edited["id"] == step["id"] and edited["flags"] & EPHEMERAL
    with pytest.raises(AssertionError):  # its buttons are gone
        await fake.click(alice, step, "form")

    record2 = await fake.slash(alice, "play", size=5)
    await api.answer(record2, 4, {"content": "board", "components": [row(button("name"))]})
    ask = await fake.click(alice, record2.original, "name")
    modal = {"custom_id": "naming", "title": "Name your match", "components": [row(
        {"type": 4, "custom_id": "title", "label": "Title", "style": 1})]}
    if fake.spec is not None:  # the description's rule
        status, body = await api.answer(ask, 9, {**modal, "title": "t" * 46})
        assert inner(body, "data", "title") == ["BASE_TYPE_BAD_LENGTH"]
    assert (await api.answer(ask, 9, modal))[0] == 200 and ask.modal == modal
    submitted = await fake.submit_modal(alice, ask, {"title": "Friday game"})
    assert submitted.interaction_type == 5
    assert (await api.answer(submitted, 7, {"content": "Friday game"}))[0] == 200
    assert fake.messages[int(record2.original["id"])]["content"] == "Friday game"


# -- shards -------------------------------------------------------------------------------------
async def test_two_shards_each_get_their_guilds_and_dms_go_to_shard_zero(fake, api):
    second = fake.add_guild("Second Server", shard=(1, 2))
    first = fake.add_guild("First Server", shard=(0, 2))  # the default guild: either shard
    fake.recommended_shards = 2
    assert (await api.call("GET", "/gateway/bot"))[1]["shards"] == 2
    await api.register(PLAY)
    alice = fake.add_user("Alice")
    async with aiohttp.ClientSession() as session:
        zero = await Gateway.connect(session, fake, data=identify(shard=[0, 2]))
        one = await Gateway.connect(session, fake, data=identify(shard=[1, 2]))
        ready0, ready1 = await zero.event("READY"), await one.event("READY")
        guilds0 = {int(g["id"]) for g in ready0["guilds"]}
        guilds1 = {int(g["id"]) for g in ready1["guilds"]}
        assert first.guild_id in guilds0 and second.guild_id in guilds1
        assert guilds0 | guilds1 == set(fake.guilds) and not guilds0 & guilds1
        assert all((g >> 22) % 2 == 1 for g in guilds1)
        assert ready0["shard"] == [0, 2] and ready0["session_id"] != ready1["session_id"]

        await fake.slash(alice, "play", channel_id=second.channel_id, size=5)
        assert (await one.event("INTERACTION_CREATE"))["guild_id"] == str(second.guild_id)
        await fake.slash(alice, "play", channel_id=first.channel_id, size=5)
        assert (await zero.event("INTERACTION_CREATE"))["guild_id"] == str(first.guild_id)
        await fake.slash(alice, "play", dm=True, size=5)
        dm = await zero.event("INTERACTION_CREATE")
        assert "guild_id" not in dm and dm["user"]["id"] == str(alice) and dm["context"] == 1
        sessions = {s.shard_id: s for s in fake.sessions}
        assert sessions[1].names().count("INTERACTION_CREATE") == 1
        assert sessions[0].names().count("INTERACTION_CREATE") == 2

        # shard 1 drops; what it missed is replayed on RESUME, on its own session
        await fake.drop_gateway(shard_id=1)
        await fake.wait_for(lambda: sessions[1].ws is None, what="shard 1 closed")
        missed = await fake.slash(alice, "play", channel_id=second.channel_id, size=6)
        again = await Gateway.connect(session, fake, op=6, data={
            "token": "fake-token", "session_id": ready1["session_id"], "seq": one.seq})
        replayed = await again.event("INTERACTION_CREATE")
        assert replayed["id"] == str(missed.id)
        await again.event("RESUMED")
        assert fake.resumed == 1 and fake.identified == 2
        unknown = await Gateway.connect(session, fake, op=6, data={
            "token": "fake-token", "session_id": "nope", "seq": 0})
        assert (await unknown.ws.receive_json(timeout=2)) == {"op": 9, "d": False}


async def test_one_unsharded_session_gets_every_guild_and_bad_shards_are_refused(fake):
    second = fake.add_guild("Second Server")
    async with aiohttp.ClientSession() as session:
        gateway = await Gateway.connect(session, fake, data=identify())  # no "shard"
        ready = await gateway.event("READY")
        assert ready["shard"] == [0, 1]
        assert {int(g["id"]) for g in ready["guilds"]} == {fake.guild_id, second.guild_id}
        bad = await Gateway.connect(session, fake, data=identify(shard=[2, 2]))
        closed = await bad.ws.receive(timeout=2)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010


async def test_discord_py_sharded_client_connects_every_shard(fake, monkeypatch):
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    other = fake.add_guild("Second Server", shard=(1, 2))
    fake.recommended_shards = 2

    class Sharded(discord.AutoShardedClient):
        async def before_identify_hook(self, shard_id: int | None, *,
                                       initial: bool = False) -> None:
            pass  # no 5-second pause between shards

    client = Sharded(intents=discord.Intents(guilds=True, guild_messages=True))
    runner = asyncio.create_task(client.start("fake-token"))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 15)
        assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
        for guild_id in fake.guilds:
            guild = client.get_guild(guild_id)
            assert guild is not None and guild.shard_id == (guild_id >> 22) % 2
        assert getattr(client.get_guild(other.guild_id), "shard_id", None) == 1
        assert sorted(s.shard_id for s in fake.sessions) == [0, 1]
    finally:
        await client.close()
        await asyncio.wait_for(runner, 5)


# -- locales and commands ---------------------------------------------------------------------
async def test_locales_of_users_and_guilds(fake, api):
    fake.set_guild_locale(fake.guild_id, "fr")
    french = fake.add_guild("Serveur", locale="fr")
    await api.register(PLAY)
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.set_locale(alice, "ja")
    async with aiohttp.ClientSession() as session:
        gateway = await Gateway.connect(session, fake, data=identify())
        await gateway.event("READY")
        created = {(await gateway.event("GUILD_CREATE"))["id"] for _ in fake.guilds}
        assert created == {str(g) for g in fake.guilds}
        assert fake.guild_payload(french.guild_id)["preferred_locale"] == "fr"
        await fake.slash(alice, "play", size=5)
        seen = await gateway.event("INTERACTION_CREATE")
        assert (seen["locale"], seen["guild_locale"]) == ("ja", "fr")
        await fake.autocomplete(bob, "play", "note", note="")
        seen = await gateway.event("INTERACTION_CREATE")
        assert (seen["locale"], seen["guild_locale"]) == ("en-US", "fr")
        await fake.slash(alice, "play", dm=True, size=5)
        seen = await gateway.event("INTERACTION_CREATE")
        assert seen["locale"] == "ja" and "guild_locale" not in seen
    with pytest.raises(AssertionError):
        fake.set_locale(alice, "jp")


async def test_command_localizations_are_stored_as_sent(fake, api):
    command = {"name": "play", "description": "Start a match",
               "name_localizations": {"fr": "jouer", "ja": "プレイ"},
               "description_localizations": {"fr": "Commencer une partie"},
               "options": [{"type": 3, "name": "game", "description": "Which game",
                            "name_localizations": {"de": "spiel"},
                            "description_localizations": {"de": "Welches Spiel"},
                            "choices": [{"name": "Mancala", "value": "mancala",
                                         "name_localizations": {"fr": "Mancala (fr)"}}]}]}
    status, stored = await api.register(command)
    assert status == 200
    assert stored[0]["name_localizations"] == {"fr": "jouer", "ja": "プレイ"}
    assert fake.commands["global"][0]["options"][0]["name_localizations"] == {"de": "spiel"}
    assert fake.commands["global"][0]["options"][0]["choices"][0]["name_localizations"] == {
        "fr": "Mancala (fr)"}
    status, body = await api.register({**command, "name_localizations": {"jp": "play"}})
    assert status == 400 and inner(body, 0, "name_localizations", "jp") == ["BASE_TYPE_CHOICES"]
    status, body = await api.register({**command, "name_localizations": {"fr": "Jouer"}})
    assert inner(body, 0, "name_localizations", "fr") == ["APPLICATION_COMMAND_INVALID_NAME"]


NAMES_OK = ["play", "my-game", "under_score", "l'heure", "日本語", "привет", "हिन्दी", "เล่น",
            "x" * 32, "42"]
NAMES_BAD = ["Play", "ПРИВЕТ", "two words", "emoji🙂", "dot.ted"]


@pytest.mark.parametrize("name", NAMES_OK)
async def test_valid_command_names(api, name):
    status, body = await api.register({"name": name, "description": "d"})
    assert status == 200, body


@pytest.mark.parametrize("name", NAMES_BAD)
async def test_invalid_command_names(api, name):
    status, body = await api.register({"name": name, "description": "d"})
    assert status == 400 and inner(body, 0, "name") == ["APPLICATION_COMMAND_INVALID_NAME"]


@needs_spec
@pytest.mark.parametrize("name", ["x" * 33, ""])
async def test_command_names_of_1_to_32_characters(api, name):
    """The length is the description's rule, checked before the pattern."""
    status, body = await api.register({"name": name, "description": "d"})
    assert status == 400 and inner(body, 0, "name") == ["BASE_TYPE_BAD_LENGTH"]


async def test_command_rules(fake, api):
    def option(i: int, **extra: Any) -> Json:
        return {"type": 3, "name": f"o{i}", "description": "d", **extra}

    described = [  # (command, path of the error, inner code): the description's rules
        ({"name": "c", "description": "d" * 101}, (0, "description"), "BASE_TYPE_MAX_LENGTH"),
        ({"name": "c", "description": "d", "options": [option(i) for i in range(26)]},
         (0, "options"), "BASE_TYPE_MAX_LENGTH"),
        ({"name": "c", "description": "d", "options": [option(0, choices=[
            {"name": f"n{i}", "value": f"v{i}"} for i in range(26)])]},
         (0, "options", 0, "choices"), "BASE_TYPE_MAX_LENGTH"),
    ]
    cases = [  # limits.py's
        ({"name": "c", "description": ""}, (0, "description"), "BASE_TYPE_BAD_LENGTH"),
        ({"name": "c", "description": "d", "options": [option(0), option(1, required=True)]},
         (0, "options", 1, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
        ({"name": "c", "description": "d", "options": [option(0, name="Bad")]},
         (0, "options", 0, "name"), "APPLICATION_COMMAND_INVALID_NAME"),
        ({"name": "c", "description": "d", "options": [option(0, choices=[
            {"name": "n", "value": "v" * 101}])]},
         (0, "options", 0, "choices", 0, "value"), "BASE_TYPE_MAX_LENGTH"),
    ]
    for command, path, code in cases + (described if fake.spec is not None else []):
        status, body = await api.register(command)
        assert status == 400 and code in inner(body, *path), (command, body)
    status, body = await api.register({"name": "c", "description": "d"},
                                      {"name": "c", "description": "again"})
    assert inner(body, 1) == ["APPLICATION_COMMANDS_DUPLICATE_NAME"]
    assert "global" not in fake.commands  # nothing stored from refused syncs
    user = {"name": "Show Board", "type": 2, "description": ""}  # user commands: any case
    assert (await api.register(user))[0] == 200


# -- Discord's OpenAPI description ------------------------------------------------------------

@needs_spec
async def test_snowflakes_are_digits_or_integers_never_negative(fake, api):
    alice = fake.add_user("Alice")
    for wrong in (-1, "-1", "abc", 2**64, 1.5, True):
        fake.advance(5.0)  # the channel's 5 messages in 5 s
        status, body = await api.post(fake.channel_id, {
            "content": f"<@{alice}>", "allowed_mentions": {"users": [str(alice), wrong]}})
        assert status == 400 and inner(body, "allowed_mentions", "users", 1) == [
            "NUMBER_TYPE_COERCE"], wrong
        assert "is not snowflake" in body["errors"]["allowed_mentions"]["users"]["1"][
            "_errors"][0]["message"]
    status, body = await api.call("POST", "/users/@me/channels", {"recipient_id": "-5"})
    assert status == 400 and inner(body, "recipient_id") == ["NUMBER_TYPE_COERCE"]
    status, sent = await api.post(fake.channel_id, {  # as a string or as an integer
        "content": f"<@{alice}>", "allowed_mentions": {"users": [alice]}})
    assert status == 200 and fake.pinged(sent) == {alice}
    assert (await api.call("POST", "/users/@me/channels", {"recipient_id": alice}))[0] == 200
    assert [r.path for r in fake.refused()] == [f"/channels/{fake.channel_id}/messages"] * 6 + [
        "/users/@me/channels"]


@needs_spec
async def test_every_route_checks_its_body_against_the_description(fake, api, http):
    await api.register(PLAY)
    record = await fake.slash(fake.add_user("Alice"), "play", size=5)
    status, body = await api.answer(record, 10, {"content": "no such answer"})
    assert status == 400 and inner(body, "type") == ["BASE_TYPE_CHOICES"]
    text_input = {"type": 4, "custom_id": "t", "style": 1, "label": "in a message"}
    status, body = await api.answer(record, 4, {"content": "x", "components": [row(text_input)]})
    assert inner(body, "data", "components", 0, "components", 0, "type") == ["BASE_TYPE_CHOICES"]
    assert record.kind is None
    assert (await api.answer(record, 4, {"content": "ok"}))[0] == 200
    status, body = await api.followup(record, {"content": "x", "embeds": [{"color": -1}]})
    assert inner(body, "embeds", 0, "color") == ["NUMBER_TYPE_MIN"]
    hook = f"/webhooks/{APP_ID}/{record.token}/messages/@original"
    status, body = await api.call("PATCH", hook, {"content": "x", "flags": "ephemeral"})
    assert inner(body, "flags") == ["NUMBER_TYPE_COERCE"]
    status, body = await api.call("POST", f"/channels/{fake.channel_id}/threads",
                                  {"name": "match", "auto_archive_duration": 5, "type": 11})
    assert inner(body, "auto_archive_duration") == ["BASE_TYPE_CHOICES"]
    status, body = await api.call(
        "POST", f"/channels/{fake.channel_id}/messages/{record.original['id']}/threads", {})
    assert inner(body, "name") == ["BASE_TYPE_REQUIRED"]
    assert [c["type"] for c in fake.channels.values()].count(11) == 0
    option = {"type": 4, "name": "match", "description": "d", "min_value": 1}
    status, body = await api.register({**PLAY, "options": [{**option, "max_value": 2**53}]})
    assert inner(body, 0, "options", 0, "max_value") == ["NUMBER_TYPE_MAX"]
    assert (await api.register({**PLAY, "options": [{**option, "max_value": 2**53 - 1}]}))[0] \
        == 200
    status, body = await api.call("PUT", f"/applications/{APP_ID}/guilds/{fake.guild_id}/commands",
                                  [{**ADMIN, "contexts": [7]}])
    assert inner(body, 0, "contexts", 0) == ["BASE_TYPE_CHOICES"]
    form = aiohttp.FormData()  # multipart: payload_json is checked like a JSON body
    form.add_field("payload_json", json.dumps({"content": 5}), content_type="application/json")
    form.add_field("files[0]", b"png", filename="board.png")
    status, body = await api.call("POST", f"/channels/{fake.channel_id}/messages", form=form)
    assert status == 400 and inner(body, "content") == ["STRING_TYPE_CONVERT"]
    with handle_message_parameters(content="x", nonce="n" * 26) as params, \
            pytest.raises(discord.HTTPException) as refused:
        await http.send_message(fake.channel_id, params=params)
    assert refused.value.code == 50035 and "In nonce: Must be 25 or fewer" in str(refused.value)


def test_routes_are_found_among_the_templates_literal_segments_first():
    described = spec.load()
    if described is None:
        pytest.skip(spec.status())
    found = {path: described.operation(method, path).template for method, path in [
        ("PATCH", "/webhooks/1/token/messages/@original"),
        ("PATCH", "/webhooks/1/token/messages/2"),
        ("POST", "/users/@me/channels"), ("GET", "/users/@me"), ("GET", "/users/5"),
        ("PUT", "/applications/1/guilds/2/commands")]}
    assert list(found.values()) == [
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", "/users/@me/channels",
        "/users/@me", "/users/{user_id}",
        "/applications/{application_id}/guilds/{guild_id}/commands"]
    assert described.operation("POST", "/no/such/route") is None
    assert described.operation("GET", "/users//x") is None


def test_without_the_description_the_check_is_skipped_but_not_in_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(spec, "_loaded", None)
    monkeypatch.setattr(spec, "_absent", False)
    monkeypatch.setenv(spec.ENV, str(tmp_path / "nowhere.json"))
    monkeypatch.delenv("CI", raising=False)
    assert spec.load() is None and spec.load() is None
    assert "not found at" in spec.status() and "not checked" in spec.status()
    assert FakeDiscord().spec is None
    monkeypatch.setenv("CI", "true")
    with pytest.raises(spec.SpecMissing, match="CI=true requires it"):
        FakeDiscord()


async def test_a_gateway_outage_cuts_the_connection_and_refuses_new_ones_until_it_ends(fake):
    async with aiohttp.ClientSession() as session:
        gateway = await Gateway.connect(session, fake, data=identify())
        ready = await gateway.event("READY")
        await fake.gateway_outage()
        cut = await gateway.ws.receive(timeout=2)
        while cut.type == aiohttp.WSMsgType.TEXT:  # events sent before the cut
            cut = await gateway.ws.receive(timeout=2)
        assert cut.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)  # no close frame
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(fake.gateway_url)
        assert refused.value.status == 503 and fake.gateway_refused == 1
        fake.gateway_restored()
        again = await Gateway.connect(session, fake, op=6, data={
            "token": "fake-token", "session_id": ready["session_id"], "seq": gateway.seq})
        await again.event("RESUMED")  # the session outlived the outage
        assert fake.resumed == 1 and fake.identified == 1
