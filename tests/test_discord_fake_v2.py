"""Components V2 in the Discord imitation: what real Discord refuses of a V2 message (and
nothing is stored), what it takes (discord.py's LayoutView bodies), how V2 messages are stored
and clicked, edits that set the flag or keep and lose attachments, the pictures the bot showed
with or without alt text, and the transcripts' rendering of V2 messages."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import struct
import warnings
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from discord_fake import APP_ID, FakeDiscord, InteractionRecord, spec
from discord_fake.model import Picture
from transcript_recorder import Recorder

with warnings.catch_warnings():  # discord.player imports audioop, deprecated in 3.11
    warnings.simplefilter("ignore", DeprecationWarning)
    import discord
    from discord import ui
    from discord.http import HTTPClient, Route, handle_message_parameters

Json = dict[str, Any]
V2 = 1 << 15
PLAY = {"name": "play", "description": "Start a match"}
needs_spec = pytest.mark.skipif(not spec.spec_path().is_file() and not spec.required(),
                                reason=spec.status())


def png(width: int = 3, height: int = 2) -> bytes:
    """A real (tiny) PNG, so that the imitation can read its size."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    raw = b"".join(b"\x00" + b"\x00\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                               0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# -- fixtures and helpers ---------------------------------------------------------------------
@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


class Api:
    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake, self.session = fake, session

    async def call(self, method: str, path: str, body: Any = None, *,
                   files: dict[str, bytes] | None = None) -> tuple[int, Any]:
        form = None
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", discord.utils._to_json(body),
                           content_type="application/json")
            for index, (name, data) in enumerate(files.items()):
                form.add_field(f"files[{index}]", data, filename=name)
        async with self.session.request(
                method, self.fake.api_base + path, json=None if files else body, data=form,
                headers={"Authorization": "Bot fake-token"}) as response:
            return response.status, (await response.json() if response.status != 204 else None)

    async def slash(self) -> InteractionRecord:
        if not self.fake.commands:
            await self.call("PUT", f"/applications/{APP_ID}/commands", [PLAY])
        return await self.fake.slash(self.fake.add_user("Alice"), "play")

    async def answer(self, record: InteractionRecord, kind: int, data: Json | None = None, *,
                     files: dict[str, bytes] | None = None) -> tuple[int, Any]:
        body: Json = {"type": kind} if data is None else {"type": kind, "data": data}
        return await self.call("POST", f"/interactions/{record.id}/{record.token}/callback",
                               body, files=files)


@pytest.fixture
async def api(fake: FakeDiscord) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        yield Api(fake, session)


@pytest.fixture
async def http(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[HTTPClient]:
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    client = HTTPClient(asyncio.get_running_loop())
    await client.static_login("fake-token")
    yield client
    await client.close()


def inner(body: Json, *path: str | int) -> list[str]:
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body", body
    node = body["errors"]
    for key in path:
        node = node[str(key)]
    return [e["code"] for e in node["_errors"]]


def text(content: str) -> Json:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str = "go") -> Json:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def row(*items: Json) -> Json:
    return {"type": 1, "components": list(items)}


def gallery(*names: str, alt: str | None = "a board") -> Json:
    items: list[Json] = [{"media": {"url": f"attachment://{n}"}} for n in names]
    if alt is not None:
        for item in items:
            item["description"] = alt
    return {"type": 12, "items": items}


def board(*extra: Json, accent: int | None = 0x3366CC) -> Json:
    """A board message's body as the bot will send it (a container with text, the picture, a
    row of buttons)."""
    container: Json = {"type": 17, "components": [
        text("**Alice** to move"), gallery("board.png"), row(button("move:1"), button("move:2")),
        *extra]}
    if accent is not None:
        container["accent_color"] = accent
    return {"flags": V2, "components": [container],
            "attachments": [{"id": 0, "filename": "board.png", "description": "a board"}]}


BOARD = {"board.png": png()}

# Where a message body arrives; each sender makes the message (or its source) first if needed
# and returns (status, answer).
Sender = Callable[[FakeDiscord, Api, Json, dict[str, bytes]], Awaitable[tuple[int, Any]]]


async def _channel_create(fake: FakeDiscord, api: Api, body: Json,
                          files: dict[str, bytes]) -> tuple[int, Any]:
    return await api.call("POST", f"/channels/{fake.channel_id}/messages", body, files=files)


async def _channel_edit(fake: FakeDiscord, api: Api, body: Json,
                        files: dict[str, bytes]) -> tuple[int, Any]:
    status, made = await api.call("POST", f"/channels/{fake.channel_id}/messages",
                                  {"flags": V2, "components": [text("before")]})
    assert status == 200, made
    return await api.call("PATCH", f"/channels/{fake.channel_id}/messages/{made['id']}", body,
                          files=files)


async def _response(fake: FakeDiscord, api: Api, body: Json,
                    files: dict[str, bytes]) -> tuple[int, Any]:
    return await api.answer(await api.slash(), 4, body, files=files)


async def _update(fake: FakeDiscord, api: Api, body: Json,
                  files: dict[str, bytes]) -> tuple[int, Any]:
    status, made = await api.call("POST", f"/channels/{fake.channel_id}/messages",
                                  {"flags": V2, "components": [row(button("source"))]})
    assert status == 200, made
    record = await fake.click(fake.add_user("Bob"), made, "source")
    return await api.answer(record, 7, body, files=files)


async def _followup(fake: FakeDiscord, api: Api, body: Json,
                    files: dict[str, bytes]) -> tuple[int, Any]:
    record = await api.slash()
    assert (await api.answer(record, 5))[0] == 204
    return await api.call("POST", f"/webhooks/{APP_ID}/{record.token}?with_components=true",
                          body, files=files)


async def _original(fake: FakeDiscord, api: Api, body: Json,
                    files: dict[str, bytes]) -> tuple[int, Any]:
    record = await api.slash()
    assert (await api.answer(record, 5))[0] == 204
    return await api.call("PATCH", f"/webhooks/{APP_ID}/{record.token}/messages/@original",
                          body, files=files)


SENDERS: dict[str, Sender] = {
    "channel create": _channel_create, "channel edit": _channel_edit,
    "interaction response": _response, "interaction update": _update,
    "follow-up": _followup, "edit @original": _original}


def stored(fake: FakeDiscord) -> list[Json]:
    """Every message, as the channel and the interactions left them."""
    return [dict(m) for m in fake.messages.values()]


# -- refusals ---------------------------------------------------------------------------------
def _many(count: int) -> list[Json]:
    return [text(f"line {i}") for i in range(count)]


REFUSED = [
    pytest.param({"flags": V2, "content": "hello", "components": [text("x")]}, ("content",),
                 "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", id="content"),
    pytest.param({"flags": V2, "embeds": [{"title": "t"}], "components": [text("x")]},
                 ("embeds",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", id="embeds"),
    pytest.param({"flags": V2, "sticker_ids": ["1234567890123456"], "components": [text("x")]},
                 ("sticker_ids",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                 id="stickers"),
    pytest.param({"flags": V2, "components": [text("x")], "poll": {
        "question": {"text": "q"}, "answers": [{"poll_media": {"text": "a"}}]}}, ("poll",),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", id="poll"),
    pytest.param({"flags": V2, "components": [{"type": 17, "components": _many(40)}]},
                 ("components",), "BASE_TYPE_MAX_LENGTH", id="41-components"),
    pytest.param({"flags": V2, "components": [{"type": 17, "components": _many(20)},
                                              {"type": 17, "components": _many(19)},
                                              row(button("b"))]},
                 ("components",), "BASE_TYPE_MAX_LENGTH", id="41-components-nested"),
    pytest.param({"flags": V2, "components": [text("x" * 2000), text("y" * 2001)]},
                 ("components",), "BASE_TYPE_MAX_LENGTH", id="4001-characters"),
    pytest.param({"components": [{"type": 17, "components": [text("no flag")]}]},
                 ("components", 0, "type"), "UNION_TYPE_CHOICES", id="no-flag"),
    pytest.param({"flags": V2, "components": [{"type": 17, "components": [
        row(button("same")), {"type": 9, "components": [text("t")],
                              "accessory": button("same")}]}]},
        ("components", 0, "components", 1, "accessory", "custom_id"),
        "COMPONENT_CUSTOM_ID_DUPLICATED", id="custom-id-twice"),
    pytest.param({"flags": V2, "components": [{"type": 17, "components": [row(
        {"type": 3, "custom_id": "m", "options": [{"label": "a", "value": "a"}]},
        button("b"))]}]},
        ("components", 0, "components", 0, "components", 1), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        id="select-and-button-in-a-row"),
    pytest.param({"flags": V2, "components": [{"type": 9, "components": [text("t")],
                                              "accessory": {"type": 2, "style": 1}}]},
                 ("components", 0, "accessory", "custom_id"),
                 "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", id="accessory-without-custom-id"),
    pytest.param({"flags": V2, "components": [gallery("missing.png")]},
                 ("components", 0, "items", 0, "media", "url"),
                 "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", id="picture-not-uploaded"),
    pytest.param({"flags": V2, "components": [{"type": 9, "components": [text("t")],
                                              "accessory": {"type": 11, "media": {
                                                  "url": "attachment://nope.png"}}}]},
                 ("components", 0, "accessory", "media", "url"),
                 "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", id="thumbnail-not-uploaded"),
    pytest.param({"flags": V2, "components": [{"type": 13, "file": {
        "url": "https://example.com/a.zip"}}]}, ("components", 0, "file", "url"),
        "FILE_COMPONENT_ATTACHMENT_REQUIRED", id="file-by-url"),
    pytest.param({"flags": V2, "components": [{**text("a"), "id": 7}, {**text("b"), "id": 7}]},
                 ("components", 1, "id"), "COMPONENT_ID_DUPLICATED", id="id-twice"),
    pytest.param({"flags": V2, "components": [{"type": 17, "accent_color": 0x1000000,
                                              "components": [text("x")]}]},
                 ("components", 0, "accent_color"), "NUMBER_TYPE_MAX", id="accent-colour",
                 marks=needs_spec),
    pytest.param({"flags": V2, "components": [{"type": 12, "items": [
        {"media": {"url": "https://example.com/a.png"}, "description": "d" * 1025}]}]},
        ("components", 0, "items", 0, "description"), "BASE_TYPE_BAD_LENGTH",
        id="alt-text-1025", marks=needs_spec),
]


@pytest.mark.parametrize(("body", "path", "code"), REFUSED)
async def test_what_discord_refuses_of_a_v2_message_is_refused_and_not_stored(
        fake, api, body, path, code):
    status, answer = await api.call("POST", f"/channels/{fake.channel_id}/messages", body)
    assert status == 400 and code in inner(answer, *path)
    assert fake.channel_messages() == []


@pytest.mark.parametrize("route", list(SENDERS))
async def test_every_route_refuses_what_a_v2_message_cannot_have(fake, api, route):
    sender = SENDERS[route]
    prefix = ("data",) if route in ("interaction response", "interaction update") else ()
    for body, path, code in [
            ({"flags": V2, "content": "hi", "components": [text("x")]}, ("content",),
             "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
            ({"flags": V2, "components": [{"type": 17, "components": _many(40)}]},
             ("components",), "BASE_TYPE_MAX_LENGTH"),
            ({"flags": V2, "components": [gallery("board.png")]},
             ("components", 0, "items", 0, "media", "url"),
             "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND")]:
        status, answer = await sender(fake, api, body, {})
        assert status == 400 and code in inner(answer, *prefix, *path), (route, answer)
    # nothing of it is stored: only what the senders made first, unchanged
    assert all(not any(c.get("type") == 17 for c in m["components"]) for m in stored(fake))
    assert not fake.pictures


@pytest.mark.parametrize("route", list(SENDERS))
async def test_every_route_takes_a_board_and_shows_its_picture(fake, api, route):
    status, answer = await SENDERS[route](fake, api, board(), BOARD)
    assert status in (200, 204), answer
    message = next(m for m in fake.messages.values()
                   if any(c.get("type") == 17 for c in m["components"]))
    assert message["flags"] & V2 and message["content"] == "" and message["embeds"] == []
    assert message["attachments"][0]["description"] == "a board"
    assert [(p.filename, p.alt) for p in fake.pictures] == [("board.png", "a board")]
    assert fake.pictures[0].route == {"channel create": "channel message",
                                      "edit @original": "webhook edit"}.get(route, route)
    assert fake.pictures_without_alt() == []


async def test_limits_are_inclusive(fake, api):
    post = f"/channels/{fake.channel_id}/messages"
    forty = {"flags": V2, "components": [{"type": 17, "components": _many(39)}]}
    assert (await api.call("POST", post, forty))[0] == 200
    four_thousand = {"flags": V2, "components": [text("x" * 2000), text("y" * 2000)]}
    assert (await api.call("POST", post, four_thousand))[0] == 200
    empty_legacy = {"flags": V2, "content": None, "embeds": [], "components": [text("x")]}
    assert (await api.call("POST", post, empty_legacy))[0] == 200
    rows_at_the_top = {"flags": V2, "components": [row(button(f"b{i}")) for i in range(6)]}
    assert (await api.call("POST", post, rows_at_the_top))[0] == 200  # no 5-row limit in V2
    assert len(fake.channel_messages()) == 4


# -- discord.py's LayoutView ------------------------------------------------------------------
class Board(ui.LayoutView):
    def __init__(self, alt: str | None) -> None:
        super().__init__()
        gallery = ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png",
                                                           description=alt))
        section = ui.Section(ui.TextDisplay("Clocks: 5:00 each"),
                             accessory=ui.Button(label="Describe", custom_id="describe"))
        choose = ui.Select(custom_id="pit", options=[discord.SelectOption(label="Pit a"),
                                                     discord.SelectOption(label="Pit b")])
        self.add_item(ui.Container(
            ui.TextDisplay("**Alice** to move\nLast move: b3"), gallery, ui.Separator(),
            section, ui.ActionRow(ui.Button(label="Resign", custom_id="resign")),
            ui.ActionRow(choose), accent_colour=discord.Colour(0xD04040)))


async def test_discord_py_layout_view_is_stored_as_discord_returns_it(fake, http):
    picture = discord.File(io.BytesIO(png(3, 2)), filename="board.png",
                           description="attachment alt")
    stray = discord.File(io.BytesIO(png()), filename="stray.png")
    with handle_message_parameters(view=Board("Mancala: 4 seeds in each pit"),
                                   files=[picture, stray]) as params:
        sent = await http.send_message(fake.channel_id, params=params)
    message = fake.messages[int(sent["id"])]
    assert message == sent and message["flags"] & V2
    container = message["components"][0]
    assert container["accent_color"] == 0xD04040
    ids = [c["id"] for c in _walk(message["components"])]
    assert ids == list(range(1, len(ids) + 1))  # numbered in tree order
    media = container["components"][1]["items"][0]["media"]
    board_attachment = message["attachments"][0]
    assert board_attachment["description"] == "attachment alt"
    assert (board_attachment["width"], board_attachment["height"]) == (3, 2)
    assert media["attachment_id"] == board_attachment["id"]
    assert media["url"] == board_attachment["url"] and (media["width"], media["height"]) == (3, 2)
    # the stray upload is kept but not shown: only the gallery's picture counts
    assert [a["filename"] for a in message["attachments"]] == ["board.png", "stray.png"]
    assert fake.pictures == [Picture(int(sent["id"]), fake.channel_id, "board.png",
                                     "Mancala: 4 seeds in each pit", "channel message")]
    # discord.py reads it back as it reads Discord's
    parsed = discord.components._component_factory(container)
    assert isinstance(parsed, discord.Container) and parsed.accent_colour.value == 0xD04040
    assert parsed.children[1].items[0].media.attachment_id == int(board_attachment["id"])


def _walk(components: list[Json]) -> list[Json]:
    out = []
    for item in components:
        out.append(item)
        out.extend(_walk(item.get("components") or []))
        if item.get("accessory"):
            out.append(item["accessory"])
    return out


async def test_nested_buttons_and_menus_are_clicked_like_top_level_ones(fake, http):
    with handle_message_parameters(view=Board("alt"), file=discord.File(
            io.BytesIO(png()), filename="board.png")) as params:
        sent = await http.send_message(fake.channel_id, params=params)
    alice = fake.add_user("Alice")
    for custom_id in ("resign", "describe"):  # in a container's row; a section's accessory
        record = await fake.click(alice, sent, custom_id)
        data = record.payload["data"]
        assert (data["custom_id"], data["component_type"]) == (custom_id, 2)
        assert record.source_message_id == int(sent["id"])
        assert record.payload["message"]["flags"] & V2
    record = await fake.select(alice, sent, "pit", ["Pit b"])
    assert record.payload["data"]["values"] == ["Pit b"]
    with pytest.raises(AssertionError, match="not a button"):
        await fake.click(alice, sent, "pit")
    assert "describe" in fake.custom_ids(sent) and "resign" in fake.custom_ids(sent)
    assert [c.get("label") for c in fake.controls(sent, 2)] == ["Describe", "Resign"]
    assert [c["custom_id"] for c in fake.controls(sent)] == ["describe", "resign", "pit"]
    assert fake.text_of(sent) == "**Alice** to move\nLast move: b3\nClocks: 5:00 each"
    assert fake.text_of({"content": "classic", "flags": 0}) == "classic"


# -- edits ------------------------------------------------------------------------------------
async def test_the_flag_cannot_be_removed_by_an_edit(fake, api):
    post = f"/channels/{fake.channel_id}/messages"
    status, made = await api.call("POST", post, board(), files=BOARD)
    assert status == 200
    edit = f"{post}/{made['id']}"
    before = dict(fake.messages[int(made["id"])])
    status, answer = await api.call("PATCH", edit, {"flags": 0, "components": board()[
        "components"]})  # read as a classic body: a container is not an action row
    assert status == 400 and inner(answer, "components", 0, "type") == ["UNION_TYPE_CHOICES"]
    status, answer = await api.call("PATCH", edit, {"flags": 0, "content": "classic again"})
    assert inner(answer, "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    status, answer = await api.call("PATCH", edit, {"content": "without flags"})
    assert inner(answer, "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    assert fake.messages[int(made["id"])] == before
    status, edited = await api.call("PATCH", edit, {"flags": 0, "components": [
        row(button("rows are fine"))]})
    assert status == 200 and edited["flags"] & V2  # the flag stays
    status, edited = await api.call("PATCH", edit, {"components": [text("still V2")]})
    assert status == 200 and edited["flags"] & V2  # read by the message's flags


async def test_a_classic_message_becomes_v2_only_with_its_legacy_fields_reset(fake, api):
    post = f"/channels/{fake.channel_id}/messages"
    status, made = await api.call("POST", post, {"content": "classic", "embeds": [
        {"title": "t"}]})
    edit = f"{post}/{made['id']}"
    status, answer = await api.call("PATCH", edit, {"flags": V2, "components": [text("x")]})
    assert status == 400 and set(answer["errors"]) == {"content", "embeds"}
    assert fake.messages[int(made["id"])]["content"] == "classic"
    status, edited = await api.call("PATCH", edit, {"flags": V2, "content": None, "embeds": [],
                                                    "components": [text("now V2")]})
    assert status == 200 and edited["flags"] & V2 and edited["content"] == ""
    assert edited["components"][0] == {"type": 10, "content": "now V2", "id": 1}


async def test_a_deferred_answer_ignores_the_flag_and_the_edit_sets_it(fake, api):
    record = await api.slash()
    assert (await api.answer(record, 5, {"flags": V2}))[0] == 204
    assert not record.original["flags"] & V2  # discord-api-docs issue #7910
    status, edited = await api.call(
        "PATCH", f"/webhooks/{APP_ID}/{record.token}/messages/@original", board(), files=BOARD)
    assert status == 200 and edited["flags"] & V2 and not edited["flags"] & (1 << 7)


async def test_edits_keep_or_lose_the_attachments_a_gallery_shows(fake, api):
    post = f"/channels/{fake.channel_id}/messages"
    status, made = await api.call("POST", post, board(), files=BOARD)
    edit, mid = f"{post}/{made['id']}", int(made["id"])
    old = made["attachments"][0]
    body = {"flags": V2, "components": board()["components"]}
    # dropping the attachment the gallery still shows: refused, nothing changes
    status, answer = await api.call("PATCH", edit, {**body, "attachments": []})
    assert status == 400 and inner(answer, "components", 0, "components", 1, "items", 0,
                                   "media", "url") == ["UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"]
    assert fake.messages[mid]["attachments"] == [old]
    # keeping it (by id, as discord.py sends a kept attachment): the same picture, not again
    status, edited = await api.call("PATCH", edit, {**body, "attachments": [{"id": old["id"]}]})
    assert status == 200 and edited["attachments"] == [old]
    assert len(fake.pictures) == 1
    # a new picture replaces it: shown, and counted once more (without alt text this time)
    status, edited = await api.call("PATCH", edit, {
        "flags": V2, "components": [gallery("next.png", alt=None)],
        "attachments": [{"id": 0, "filename": "next.png"}]}, files={"next.png": png()})
    assert status == 200 and [a["filename"] for a in edited["attachments"]] == ["next.png"]
    assert [(p.filename, p.alt, p.route) for p in fake.pictures] == [
        ("board.png", "a board", "channel message"), ("next.png", None, "channel edit")]
    assert [p.filename for p in fake.pictures_without_alt()] == ["next.png"]


# -- alt text accounting ----------------------------------------------------------------------
async def test_classic_pictures_are_counted_with_their_attachment_description(fake, api, http):
    files = [discord.File(io.BytesIO(png()), filename="chart.png", description="Ratings rise"),
             discord.File(io.BytesIO(png()), filename="bare.png"),
             discord.File(io.BytesIO(b"moves"), filename="game.txt")]  # not a picture
    with handle_message_parameters(content="charts", files=files) as params:
        sent = await http.send_message(fake.channel_id, params=params)
    assert [(p.filename, p.alt) for p in fake.pictures] == [("chart.png", "Ratings rise"),
                                                            ("bare.png", None)]
    assert fake.pictures_without_alt() == [Picture(int(sent["id"]), fake.channel_id, "bare.png",
                                                   None, "channel message")]
    user = fake.add_user("Dee")
    dm = fake.dm_channel(user)
    with handle_message_parameters(content="your replay", file=discord.File(
            io.BytesIO(png()), filename="replay.png")) as params:
        await http.send_message(dm, params=params)
    assert fake.pictures[-1].route == "channel message (DM)"
    record = await api.slash()  # an ephemeral answer and a follow-up count too
    await api.answer(record, 4, {"flags": 1 << 6, "content": "private", "attachments": [
        {"id": 0, "filename": "mine.png", "description": "Your hand"}]},
        files={"mine.png": png()})
    await api.call("POST", f"/webhooks/{APP_ID}/{record.token}", {
        "content": "more", "attachments": [{"id": 0, "filename": "f.png"}]},
        files={"f.png": png()})
    assert [(p.filename, p.alt, p.route) for p in fake.pictures[-2:]] == [
        ("mine.png", "Your hand", "interaction response"), ("f.png", None, "follow-up")]


async def test_a_thumbnail_without_description_has_no_alt_text(fake, api):
    body = {"flags": V2, "components": [{"type": 9, "components": [text("Standings")],
                                         "accessory": {"type": 11, "media": {
                                             "url": "attachment://top.png"}}}],
            "attachments": [{"id": 0, "filename": "top.png", "description": "ignored in V2"}]}
    status, _ = await api.call("POST", f"/channels/{fake.channel_id}/messages", body,
                               files={"top.png": png()})
    assert status == 200
    assert [(p.filename, p.alt) for p in fake.pictures_without_alt()] == [("top.png", None)]


def _e2e_conftest() -> Any:
    path = Path(__file__).parent / "e2e" / "conftest.py"
    loaded = importlib.util.spec_from_file_location("e2e_conftest_for_alt_text", path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return module


def test_the_e2e_alt_text_check_fails_a_test_that_posted_a_picture_without_it():
    conftest = _e2e_conftest()
    described = Picture(1, 2, "board.png", "A board", "channel message")
    bare = Picture(3, 2, "chart.png", None, "follow-up")
    blank = Picture(4, 2, "replay.png", "  ", "webhook edit")
    conftest.check_alt_text([described], True)  # passes
    conftest.check_alt_text([described, bare], False)  # not required yet
    with pytest.raises(pytest.fail.Exception, match="2 picture") as failed:
        conftest.check_alt_text([described, bare, blank], True)
    assert "chart.png in message 3 (channel 2, follow-up)" in str(failed.value)
    assert "replay.png" in str(failed.value) and "board.png" not in str(failed.value)


# -- transcripts ------------------------------------------------------------------------------
async def test_the_recorder_writes_a_v2_message_as_a_reader_meets_it(fake, http, tmp_path):
    recorder = Recorder(fake, tmp_path / "db.sqlite3")
    with handle_message_parameters(view=Board("Mancala: 4 seeds in each pit"), files=[
            discord.File(io.BytesIO(png()), filename="board.png"),
            discord.File(io.BytesIO(png()), filename="hidden.png")]) as params:
        sent = await http.send_message(fake.channel_id, params=params)
    assert recorder._message(int(sent["id"]), "new") == [
        "[message 1, #games, new]",
        "  [accent #D04040]",
        "  **Alice** to move",
        "  Last move: b3",
        "  (picture board.png: Mancala: 4 seeds in each pit)",
        "  Clocks: 5:00 each",
        "  [Describe]",
        "  [Resign]",
        "  [menu: ]",
        "    - Pit a",
        "    - Pit b",
    ]
    retired = Board("Mancala: 4 seeds in each pit")
    for item in retired.walk_children():
        if isinstance(item, ui.Button | ui.Select):
            item.disabled = True
    with handle_message_parameters(view=retired) as params:
        await http.edit_message(fake.channel_id, int(sent["id"]), params=params)
    assert recorder._message(int(sent["id"]), "edited") == [
        "[message 1, #games, edited: only its buttons]",
        "  [Describe] (disabled)", "  [Resign] (disabled)", "  [menu: ] (disabled)",
        "    - Pit a", "    - Pit b"]
    with handle_message_parameters(view=Board("Mancala: the last seed is sown")) as params:
        await http.edit_message(fake.channel_id, int(sent["id"]), params=params)
    assert "  (picture board.png: Mancala: the last seed is sown)" in recorder._message(
        int(sent["id"]), "edited")


async def test_history_refuses_a_limit_out_of_range(fake, api):
    """(Form.number_range was missing: such a request answered 500.)"""
    status, answer = await api.call("GET", f"/channels/{fake.channel_id}/messages?limit=101")
    assert status == 400 and inner(answer, "limit") == ["NUMBER_TYPE_MAX"]
    status, answer = await api.call("GET", f"/channels/{fake.channel_id}/messages?limit=0")
    assert status == 400 and inner(answer, "limit") == ["NUMBER_TYPE_MIN"]
