"""What the bot sends a player, written down as a conversation (tests/test_transcripts.py).

A `Recorder` watches the Discord imitation: every message the bot creates, edits or deletes.
The test acts as a player (a command, a click, a choice in a menu) through `Recorder.act`, which
waits until the bot has finished answering (its deferred answers completed, its outbox empty,
no request for a moment) and writes the action and then every message it touched, each in the
state the action left it, as a player would see them: the text, the embeds, the picture's file
name and alt text, then each button and menu on a line of its own. A Components V2 message is
written in its components' order, as a screen reader reads it: a container's accent colour
(`[accent #RRGGBB]`), each text display's lines, each media gallery item or thumbnail as
`(picture name: alt text)`, a file as `(file name)`, buttons and menus as above; separators
are not written, nor attachments no component shows (Discord does not show them).

What changes from run to run is written in stable words: user and channel mentions become
@Name and #channel; messages are numbered in the order the transcript first shows them
("message 3"). Custom ids, tokens and snowflakes never appear.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord_fake import EPHEMERAL
from discord_fake.model import IS_COMPONENTS_V2, LOADING

Json = dict[str, Any]
IDLE = 0.08  # seconds without a request to Discord before an action counts as answered
BUTTON_STYLES = {1: "", 2: "", 3: "", 4: "", 5: "link"}


@dataclass
class Block:
    """One action and the messages it touched (ids, in the order they were first touched)."""

    action: str
    touched: dict[int, str] = field(default_factory=dict)  # id -> "new" / "edited" / "deleted"
    written: bool = False


class Recorder:
    def __init__(self, fake: Any, database: Path) -> None:
        self.fake, self.database = fake, database
        self.names: dict[int, str] = {}  # user id -> the name a transcript uses
        self.channel_names: dict[int, str] = {}
        self.blocks: list[Block] = []
        self.numbers: dict[int, int] = {}  # message id -> its number in the transcript
        self.snapshots: dict[int, Json] = {}
        self.lines: list[str] = []
        self._current: Block | None = None
        self.late: list[str] = []  # what arrived outside an action, or after it was written
        self._wrap()

    # -- watching the imitation -------------------------------------------------------------
    def _wrap(self) -> None:
        fake = self.fake
        new_message, update, delete = fake._new_message, fake._update, fake._delete

        def _new_message(channel_id: int, body: Json, files: dict[str, bytes], **kw: Any) -> Json:
            message = new_message(channel_id, body, files, **kw)
            self._touch(int(message["id"]), "new")
            return message

        async def _update(message: Json, body: Json, files: dict[str, bytes],
                          at: tuple[str, ...] = ()) -> Json:
            result = await update(message, body, files, at)
            self._touch(int(message["id"]), "edited")
            return result

        async def _delete(message: Json) -> None:
            await delete(message)
            self._touch(int(message["id"]), "deleted")

        fake._new_message, fake._update, fake._delete = _new_message, _update, _delete

    def _touch(self, message_id: int, how: str) -> None:
        message = self.fake.messages.get(message_id)
        if message is not None and int(message["author"]["id"]) in self.names:
            return  # a player's own message: the action line says it
        block = self._current
        if block is None or block.written:
            self.late.append(f"{how}: {(message or {}).get('content', '')[:200]!r}")
            return
        if block.touched.get(message_id) == "new" and how == "edited":
            return  # created in this action: it is shown as new, in its last state
        block.touched[message_id] = how

    # -- acting ---------------------------------------------------------------------------
    def user(self, name: str, locale: str) -> int:
        user_id = self.fake.add_user(name)
        self.fake.set_locale(user_id, locale)
        self.names[user_id] = name
        return user_id

    async def act(self, action: str, send: Any) -> Any:
        """Do `send` (a coroutine giving the interaction record, or None), wait until the bot
        has answered it and gone quiet, and write the action and what it changed."""
        block = Block(action)
        self._current = block
        self.blocks.append(block)
        record = await send
        if record is not None:
            await self.fake.answered(record)
            if record.kind in (5, 6):  # deferred: the real answer follows through the webhook
                await self.fake.wait_for(lambda: any(
                    record.token in r.path and r.method in ("PATCH", "POST", "DELETE")
                    and "/callback" not in r.path for r in self.fake.requests),
                    what=f"the answer to {action}", timeout=20)
        await self.quiet()
        self._write(block)
        return record

    async def quiet(self) -> None:
        """Until the outbox is empty, no message is still loading and Discord has had no
        request for IDLE seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        seen, since = -1, loop.time()
        while True:
            count = len(self.fake.requests)
            now = loop.time()
            if count != seen:
                seen, since = count, now
            elif (now - since >= IDLE and not self._pending()
                  and not any(m["flags"] & LOADING for m in self.fake.messages.values())):
                return
            if now > deadline:
                raise AssertionError("the bot never went quiet")
            await asyncio.sleep(0.03)

    def _pending(self) -> int:
        db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT count(*) FROM outbox WHERE status = 'pending'"
                              ).fetchone()[0]
        except sqlite3.OperationalError:  # locked for a moment, or not created yet
            return 1
        finally:
            db.close()

    # -- writing --------------------------------------------------------------------------
    def _write(self, block: Block) -> None:
        block.written = True
        self.lines.append(f"> {block.action}")
        order = sorted(block.touched.items(), key=lambda item: self._order(*item))
        for message_id, how in order:
            self.lines.extend(self._message(message_id, how))
        self.lines.append("")

    def _order(self, message_id: int, how: str) -> tuple[int, int, int]:
        """Edits of messages already shown first (by their number), then new ones: what only
        the actor sees, the channel's, then direct messages, each in the order created (the
        bot's answer and its posts can reach Discord in either order)."""
        if message_id in self.numbers:
            return (0, self.numbers[message_id], 0)
        message = self.fake.messages.get(message_id) or self.snapshots.get(message_id) or {}
        channel = self.fake.channels.get(int(message.get("channel_id", 0)), {})
        bots_dm = channel.get("type") == 1 and len(channel.get("recipients") or ()) == 1
        where = 0 if int(message.get("flags", 0)) & EPHEMERAL else 2 if bots_dm else 1
        return (1, where, message_id)

    def _message(self, message_id: int, how: str) -> list[str]:
        number = self.numbers.setdefault(message_id, len(self.numbers) + 1)
        message = self.fake.messages.get(message_id)
        if message is None or how == "deleted":
            return [f"[message {number} deleted]"]
        before = self.snapshots.get(message_id)
        self.snapshots[message_id] = json.loads(json.dumps(message))
        channel = self.fake.channels.get(int(message["channel_id"]), {})
        if int(message["flags"]) & EPHEMERAL:
            viewer = int(message["interaction_metadata"]["user"]["id"])
            where = f"only {self.names.get(viewer, '?')} sees it"
        elif channel.get("type") in (1, 3) and len(channel.get("recipients") or ()) > 1:
            people = " and ".join(self.names.get(int(u["id"]), "?")
                                  for u in channel["recipients"])
            where = f"the DM of {people}" if channel["type"] == 1 else f"group DM of {people}"
        elif channel.get("type") == 1:
            where = f"DM to {self.names.get(int(channel['recipients'][0]['id']), '?')}"
        else:
            where = f"#{channel.get('name', '?')}"
        verb = "edited" if how == "edited" else "new"
        if int(message["flags"]) & IS_COMPONENTS_V2:
            return self._v2_message(number, where, verb, before, message)
        if before is not None and all(before.get(k) == message.get(k) for k in (
                "content", "embeds")) and [a["filename"] for a in before["attachments"]] == [
                    a["filename"] for a in message["attachments"]]:
            # the same words: only its buttons and menus changed (e.g. retired)
            return [f"[message {number}, {where}, edited: only its buttons]",
                    *(self._components(message.get("components") or [], controls=True)
                      or ["  (none now)"])]
        out = [f"[message {number}, {where}, {verb}]"]
        if message.get("content"):
            out.extend("  " + line for line in self.text(message["content"]).split("\n"))
        for embed in message.get("embeds") or []:
            out.extend(self._embed(embed))
        shown = {url.removeprefix("attachment://") for url in self._media(message)}
        for attachment in message.get("attachments") or []:
            if attachment["filename"] in shown:
                continue  # a V2 message shows it where its media item is
            alt = attachment.get("description")
            out.append(f"  (picture {attachment['filename']}" + (f": {self.text(alt)})"
                                                                  if alt else ")"))
        out.extend(self._components(message.get("components") or []))
        return out

    def _v2_message(self, number: int, where: str, verb: str, before: Json | None,
                    message: Json) -> list[str]:
        lines = self._v2_lines(message.get("components") or [])
        words = [line for control, line in lines if not control]
        if before is not None and verb == "edited" and int(before["flags"]) & IS_COMPONENTS_V2 \
                and [line for control, line in self._v2_lines(before.get("components") or [])
                     if not control] == words:
            controls = [line for control, line in lines if control]
            return [f"[message {number}, {where}, edited: only its buttons]",
                    *(controls or ["  (none now)"])]
        return [f"[message {number}, {where}, {verb}]", *(line for _, line in lines)]

    def _v2_lines(self, components: list[Json]) -> list[tuple[bool, str]]:
        """(is it a button or menu, the line) for V2 components, in a reader's order."""
        out: list[tuple[bool, str]] = []
        for item in components:
            kind = item.get("type")
            if kind == 17:  # container
                if item.get("accent_color") is not None:
                    out.append((False, f"  [accent #{int(item['accent_color']):06X}]"))
                out.extend(self._v2_lines(item.get("components") or []))
            elif kind == 9:  # section: its texts, then its button or thumbnail
                out.extend(self._v2_lines(item.get("components") or []))
                out.extend(self._v2_lines([item["accessory"]] if item.get("accessory") else []))
            elif kind == 10:
                out.extend((False, "  " + line)
                           for line in self.text(item.get("content") or "").split("\n"))
            elif kind == 12:
                out.extend((False, self._picture(entry.get("media") or {},
                                                 entry.get("description")))
                           for entry in item.get("items") or [])
            elif kind == 11:
                out.append((False, self._picture(item.get("media") or {},
                                                 item.get("description"))))
            elif kind == 13:
                out.append((False, f"  (file {item.get('name') or self._name(item['file'])})"))
            elif kind == 1:
                out.extend((True, line) for line in self._components([item]))
            elif kind in (2, 3):
                out.extend((True, line) for line in self._components([{"type": 1, "components": [item]}]))
        return out

    @staticmethod
    def _media(message: Json) -> list[str]:
        """The pictures a V2 message's media galleries show (their URLs)."""
        found: list[str] = []
        stack = list(message.get("components") or [])
        while stack:
            item = stack.pop(0)
            if item.get("type") == 12:
                found += [i["media"]["url"] for i in item.get("items", [])]
            stack = list(item.get("components") or []) + stack
        return found

    @staticmethod
    def _name(media: Json) -> str:
        return str(media.get("url") or "").split("?", 1)[0].rsplit("/", 1)[-1]

    def _picture(self, media: Json, alt: str | None) -> str:
        return f"  (picture {self._name(media)}" + (f": {self.text(alt)})" if alt else ")")

    def _embed(self, embed: Json) -> list[str]:
        out = []
        for key in ("author", "title", "description"):
            value = embed.get(key)
            if isinstance(value, dict):
                value = value.get("name")
            if value:
                out.extend(f"  | {line}" for line in self.text(str(value)).split("\n"))
        for item in embed.get("fields") or []:
            out.append(f"  | {self.text(item.get('name', ''))}:")
            out.extend(f"  |   {line}" for line in self.text(item.get("value", "")).split("\n"))
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            out.append(f"  | ({self.text(footer)})")
        if (embed.get("image") or {}).get("url"):
            out.append(f"  | (picture {embed['image']['url'].rsplit('/', 1)[-1]})")
        return out

    def _components(self, items: list[Json], *, controls: bool | None = None,
                    indent: str = "  ") -> list[str]:
        """Components in reading order, a V2 container's children indented under it.
        `controls`: True, only buttons and menus; False, only the rest; None, all."""
        out = []
        for item in items:
            kind = item.get("type")
            disabled = " (disabled)" if item.get("disabled") else ""
            if kind == 1:
                out.extend(self._components(item.get("components", []), controls=controls,
                                            indent=indent))
            elif kind == 17:
                inner = self._components(item.get("components", []), controls=controls,
                                         indent=indent + "| ")
                colour = item.get("accent_color")
                if controls is not True:
                    out.append(f"{indent}(box" + (f", accent #{colour:06X})" if colour
                                                   is not None else ")"))
                out.extend(inner)
            elif kind == 10 and controls is not True:
                out.extend(indent + line for line in self.text(item["content"]).split("\n"))
            elif kind == 12 and controls is not True:
                for media in item.get("items", []):
                    name = media["media"]["url"].removeprefix("attachment://")
                    alt = media.get("description")
                    out.append(f"{indent}(picture {name}"
                               + (f": {self.text(alt)})" if alt else ")"))
            elif kind == 2 and controls is not False:
                label = self.text(item.get("label") or "")
                emoji = (item.get("emoji") or {}).get("name") or ""
                link = " (link)" if item.get("style") == 5 else ""
                out.append(f"{indent}[{' '.join(p for p in (emoji, label) if p)}]{link}{disabled}")
            elif kind == 3 and controls is not False:
                out.append(f"{indent}[menu: {self.text(item.get('placeholder') or '')}]{disabled}")
                for option in item.get("options", []):
                    note = option.get("description")
                    out.append(f"{indent}  - {self.text(option['label'])}"
                               + (f" ({self.text(note)})" if note else ""))
        return out

    def text(self, text: str) -> str:
        """Mentions as the player's client shows them (a command's as /name)."""
        text = re.sub(r"</([^:>]+):\d+>", r"/\1", text)
        text = re.sub(r"https://discord\.com/channels/(?:\d+|@me)/(\d+)/(\d+)",
                      lambda m: f"(link to {self.channel_name(int(m[1]))}, message "
                      f"{self.numbers.get(int(m[2]), '?')})", text)
        text = re.sub(r"https://discord\.com/channels/(?:\d+|@me)/(\d+)",
                      lambda m: f"(link to {self.channel_name(int(m[1]))})", text)
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.names.get(int(m[1]), "someone"), text)
        return re.sub(r"<#(\d+)>", lambda m: "#" + self.channel_names.get(
            int(m[1]), self.fake.channels.get(int(m[1]), {}).get("name", "channel")), text)

    def channel_name(self, channel_id: int) -> str:
        """A channel as a player knows it: #name, or the DM of its people."""
        channel = self.fake.channels.get(channel_id, {})
        people = channel.get("recipients") or ()
        if channel.get("type") in (1, 3) and len(people) > 1:
            return "the DM of " + " and ".join(self.names.get(int(u["id"]), "?")
                                               for u in people)
        return "#" + channel.get("name", "channel")

    def transcript(self, title: str) -> str:
        return "\n".join([f"# {title}", "", *self.lines]).rstrip() + "\n"
