"""A small imitation of the Discord API on 127.0.0.1, for end-to-end tests of the real bot.

Gateway (websocket, JSON text frames): HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeat ACK,
RESUME (replays what was missed, then RESUMED), and dispatches the tests send
(INTERACTION_CREATE). REST: the routes discord.py uses for users, command sync, interaction
callbacks and webhooks, channel messages (JSON or multipart with files), threads and DMs.

Test controls: users whose DMs are closed (50007), a 429 with `retry_after` on the next N
calls of a route, dropping the gateway connection. Everything the bot sends is recorded.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 900_000_000_000_000_001
BOT_USER_ID = APP_ID
EPHEMERAL = 1 << 6
MANAGE_GUILD = 1 << 5
ALL_PERMISSIONS = str((1 << 41) - 1)
MEMBER_PERMISSIONS = str((1 << 0) | (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15)
                         | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38))


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat()


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": bot, "public_flags": 0}


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with exactly `Content-Type: application/json`, as Discord sends (discord.py
    compares the header verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


@dataclass
class Request:
    method: str
    path: str
    json: Any
    files: dict[str, bytes]
    status: int = 200


@dataclass
class InteractionRecord:
    """One interaction the test sent, and everything the bot answered to it."""

    id: int
    token: str
    user_id: int
    channel_id: int
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    original: dict[str, Any] | None = None  # the message created by the response, if any
    followups: list[dict[str, Any]] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    source_message_id: int | None = None  # for component clicks: the message clicked on

    @property
    def kind(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def choices(self) -> list[dict[str, Any]]:
        for cb in self.callbacks:
            if cb["type"] == 8:
                return cb["data"]["choices"]
        raise AssertionError(f"no autocomplete answer in {self.callbacks}")

    def messages(self) -> list[dict[str, Any]]:
        """Messages this interaction produced: the response then the follow-ups."""
        return ([self.original] if self.original else []) + self.followups

    def ephemeral_texts(self) -> list[str]:
        return [m["content"] for m in self.messages() if m["flags"] & EPHEMERAL]


class FakeDiscord:
    def __init__(self) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.guild_id = self.new_id()
        self.channel_id = self.new_id()
        self.other_channel_id = self.new_id()
        self.users: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {
            self.channel_id: self._text_channel(self.channel_id, "games"),
            self.other_channel_id: self._text_channel(self.other_channel_id, "general"),
        }
        self.messages: dict[int, dict[str, Any]] = {}
        self.files: dict[int, bytes] = {}  # attachment id -> bytes
        self.notified: dict[int, set[int]] = {}  # message id -> users pinged when posted
        self.requests: list[Request] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}  # scope -> commands
        self.commands_synced = asyncio.Event()
        self.interactions: dict[str, InteractionRecord] = {}
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.closed_dms: set[int] = set()
        self.rate_limits: dict[str, list[float]] = {}  # route pattern -> retry_after per call
        self._sockets: list[web.WebSocketResponse] = []
        self._events: list[dict[str, Any]] = []  # every dispatch, for RESUME
        self._seq = 0
        self.session_id = "fake-session"
        self.identified = 0
        self.resumed = 0
        self.ready = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- set-up ---------------------------------------------------------------------------
    def new_id(self) -> int:
        return next(self._ids)

    def _text_channel(self, channel_id: int, name: str) -> dict[str, Any]:
        return {"id": str(channel_id), "type": 0, "guild_id": str(self.guild_id), "name": name,
                "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0}

    def add_user(self, name: str, *, bot: bool = False) -> int:
        user_id = self.new_id()
        self.users[user_id] = user_payload(user_id, name, bot=bot)
        return user_id

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- test controls --------------------------------------------------------------------
    def close_dms(self, user_id: int) -> None:
        self.closed_dms.add(user_id)

    def rate_limit(self, method: str, path_regex: str, times: int = 1,
                   retry_after: float = 0.3) -> None:
        """The next `times` calls matching METHOD + path answer 429 with `retry_after`."""
        self.rate_limits[f"{method} {path_regex}"] = [retry_after] * times

    async def drop_gateway(self) -> None:
        """Close the bot's websocket abruptly, as a network failure would."""
        self.ready.clear()
        for ws in list(self._sockets):
            await ws.close(code=4000, message=b"dropped by test")

    # -- gateway ------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    self.identified += 1
                    await self._identify(ws)
                elif op == 6:
                    self.resumed += 1
                    seq = payload["d"].get("seq") or 0
                    for event in self._events:
                        if event["s"] > seq:
                            await ws.send_str(json.dumps(event))
                    await self._send_event(ws, "RESUMED", {})
                    self.ready.set()
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
        return ws

    async def _identify(self, ws: web.WebSocketResponse) -> None:
        ready = {
            "v": 10, "user": {**user_payload(BOT_USER_ID, "Corral", bot=True), "verified": True,
                              "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": self.session_id, "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
            "relationships": [], "shard": [0, 1],
        }
        await self._send_event(ws, "READY", ready)
        await self._send_event(ws, "GUILD_CREATE", self.guild_payload())
        self.ready.set()

    def guild_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.guild_id), "name": "Test Server", "owner_id": str(self.new_id()),
            "unavailable": False, "member_count": len(self.users) + 1, "large": False,
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "threads": [c for c in self.channels.values() if c["type"] == 11],
            "roles": [{"id": str(self.guild_id), "name": "@everyone", "permissions": MEMBER_PERMISSIONS,
                       "position": 0, "color": 0, "hoist": False, "managed": False,
                       "mentionable": False, "flags": 0}],
            "members": [], "voice_states": [], "presences": [], "emojis": [], "stickers": [],
            "features": [], "joined_at": now_iso(), "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "preferred_locale": "en-US",
            "system_channel_flags": 0, "afk_timeout": 300, "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    async def _send_event(self, ws: web.WebSocketResponse | None, name: str,
                          data: dict[str, Any]) -> None:
        self._seq += 1
        event = {"op": 0, "t": name, "s": self._seq, "d": data}
        self._events.append(event)
        targets = [ws] if ws is not None else list(self._sockets)
        for sock in targets:
            if not sock.closed:
                await sock.send_str(json.dumps(event))

    async def dispatch(self, name: str, data: dict[str, Any]) -> None:
        await self._send_event(None, name, data)

    # -- interactions the tests send ------------------------------------------------------
    def member_payload(self, user_id: int, *, manager: bool = False) -> dict[str, Any]:
        return {"user": self.users[user_id], "roles": [], "joined_at": now_iso(), "deaf": False,
                "mute": False, "flags": 0, "nick": None, "avatar": None, "pending": False,
                "permissions": ALL_PERMISSIONS if manager else MEMBER_PERMISSIONS}

    def _interaction(self, kind: int, user_id: int, channel_id: int, data: dict[str, Any], *,
                     message: dict[str, Any] | None = None,
                     manager: bool = False) -> tuple[dict[str, Any], InteractionRecord]:
        interaction_id = self.new_id()
        token = f"itoken-{interaction_id}"
        record = InteractionRecord(interaction_id, token, user_id, channel_id)
        self.interactions[token] = record
        channel = self.channels[channel_id]
        payload = {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind,
            "token": token, "version": 1, "guild_id": str(self.guild_id),
            "channel_id": str(channel_id), "channel": channel,
            "member": self.member_payload(user_id, manager=manager),
            "app_permissions": ALL_PERMISSIONS, "locale": "en-US", "guild_locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0, "data": data, "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        return payload, record

    def _command_id(self, name: str) -> str:
        for commands in self.commands.values():
            for command in commands:
                if command["name"] == name:
                    return command["id"]
        raise AssertionError(f"command /{name} was never registered")

    def _options(self, options: dict[str, Any], focused: str | None = None):
        out, resolved = [], {"users": {}, "members": {}}
        for name, value in options.items():
            if value is None:
                continue
            if isinstance(value, bool):
                out.append({"name": name, "type": 5, "value": value})
            elif isinstance(value, UserRef):
                out.append({"name": name, "type": 6, "value": str(value.user_id)})
                resolved["users"][str(value.user_id)] = self.users[value.user_id]
                member = self.member_payload(value.user_id)
                member.pop("user")
                resolved["members"][str(value.user_id)] = member
            else:
                option = {"name": name, "type": 3, "value": str(value)}
                if name == focused:
                    option["focused"] = True
                out.append(option)
        return out, resolved

    async def slash(self, user_id: int, name: str, *, channel_id: int | None = None,
                    manager: bool = False, subcommand: str | None = None,
                    **options: Any) -> InteractionRecord:
        channel_id = channel_id or self.channel_id
        opts, resolved = self._options(options)
        if subcommand:
            opts = [{"name": subcommand, "type": 1, "options": opts}]
        data = {"id": self._command_id(name), "name": name, "type": 1, "options": opts,
                "resolved": resolved, "guild_id": str(self.guild_id)}
        payload, record = self._interaction(2, user_id, channel_id, data, manager=manager)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def autocomplete(self, user_id: int, name: str, focused: str, *,
                           channel_id: int | None = None, **options: Any) -> InteractionRecord:
        channel_id = channel_id or self.channel_id
        opts, resolved = self._options(options, focused=focused)
        data = {"id": self._command_id(name), "name": name, "type": 1, "options": opts,
                "resolved": resolved}
        payload, record = self._interaction(4, user_id, channel_id, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def click(self, user_id: int, message: dict[str, Any], custom_id: str, *,
                    manager: bool = False) -> InteractionRecord:
        channel_id = int(message["channel_id"])
        current = self.messages.get(int(message["id"]), message)
        assert custom_id in self.custom_ids(current), f"no button {custom_id!r} on that message"
        data = {"custom_id": custom_id, "component_type": 2}
        payload, record = self._interaction(3, user_id, channel_id, data, message=current,
                                            manager=manager)
        record.source_message_id = int(current["id"])
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def select(self, user_id: int, message: dict[str, Any], custom_id: str,
                     values: list[str]) -> InteractionRecord:
        """Choose `values` in a select menu of `message`."""
        current = self.messages.get(int(message["id"]), message)
        assert custom_id in self.custom_ids(current), f"no select {custom_id!r} on that message"
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload, record = self._interaction(3, user_id, int(current["channel_id"]), data,
                                            message=current)
        record.source_message_id = int(current["id"])
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def answered(self, record: InteractionRecord, timeout: float = 10.0) -> InteractionRecord:
        await asyncio.wait_for(record.answered.wait(), timeout)
        return record

    async def settle(self, seconds: float = 0.3) -> None:
        """Let the bot finish follow-ups after its first answer."""
        await asyncio.sleep(seconds)

    async def wait_for(self, condition, timeout: float = 10.0, what: str = "condition"):
        """Poll until `condition()` is truthy; returns its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = condition()
            if value:
                return value
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.02)

    # -- what was received ----------------------------------------------------------------
    def channel_messages(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        channel_id = channel_id or self.channel_id
        return [m for m in self.messages.values()
                if int(m["channel_id"]) == channel_id and not m["flags"] & EPHEMERAL]

    def dm_messages(self, user_id: int) -> list[dict[str, Any]]:
        channel = self.dms.get(user_id)
        return [] if channel is None else [m for m in self.messages.values()
                                           if int(m["channel_id"]) == channel]

    def attachment_bytes(self, message: dict[str, Any]) -> list[bytes]:
        return [self.files[int(a["id"])] for a in message.get("attachments", [])]

    def pinged(self, message: dict[str, Any]) -> set[int]:
        """Users notified when the message was posted (edits notify nobody, as on Discord)."""
        return self.notified.get(int(message["id"]), set())

    @staticmethod
    def _notified(message: dict[str, Any]) -> set[int]:
        """Mentioned in the text and allowed by allowed_mentions."""
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", message.get("content") or "")}
        allowed = message.get("allowed_mentions")
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users") or []}

    def custom_ids(self, message: dict[str, Any]) -> list[str]:
        return [c["custom_id"] for row in message.get("components", [])
                for c in row.get("components", []) if "custom_id" in c]

    # -- REST -----------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        record = Request(request.method, path, body, files)
        self.requests.append(record)
        for key, waits in self.rate_limits.items():
            method, pattern = key.split(" ", 1)
            if waits and method == request.method and re.fullmatch(pattern, path):
                retry = waits.pop(0)
                record.status = 429
                return _json(
                    {"message": "You are being rate limited.", "retry_after": retry,
                     "global": False, "code": 0}, status=429,
                    headers={"Retry-After": str(retry), "X-RateLimit-Scope": "user",
                             "X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5",
                             "X-RateLimit-Reset-After": str(retry),
                             "X-RateLimit-Bucket": "fake", "Via": "1.1 google"})
        for method, pattern, handler in self._routes():
            match = re.fullmatch(pattern, path)
            if method == request.method and match:
                result = await handler(body, files, request, **match.groupdict())
                if isinstance(result, web.StreamResponse):
                    record.status = result.status
                    return result
                if result is None:
                    record.status = 204
                    return web.Response(status=204)
                return _json(result)
        record.status = 404
        return _json({"message": f"Unknown route {request.method} {path}",
                                  "code": 0}, status=404)

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        files: dict[str, bytes] = {}
        if request.content_type.startswith("multipart/"):
            payload = None
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()
                if part.name == "payload_json":
                    payload = json.loads(data)
                else:
                    files[part.name or ""] = bytes(data)
            return payload, files
        text = await request.text()
        return (json.loads(text) if text else None), files

    def _routes(self):
        return [
            ("GET", r"/users/@me", self._me),
            ("GET", r"/gateway(/bot)?", self._gateway_info),
            ("GET", r"(/oauth2)?/applications/@me", self._application),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._sync_global),
            ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._sync_guild),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._list_commands),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._get_webhook_message),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._edit_webhook_message),
            ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._delete_webhook_message),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._channel_message),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_channel_message),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_channel_message),
            ("POST", r"/channels/(?P<cid>\d+)/threads", self._create_thread),
            ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", self._create_thread),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("GET", r"/users/(?P<uid>\d+)", self._get_user),
        ]

    async def _me(self, body, files, request):
        return {**user_payload(BOT_USER_ID, "Corral", bot=True), "verified": True,
                "mfa_enabled": False, "flags": 0}

    async def _gateway_info(self, body, files, request):
        return {"url": self.gateway_url, "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                        "max_concurrency": 1}}

    async def _application(self, body, files, request):
        return {"id": str(APP_ID), "name": "Corral", "icon": None, "description": "",
                "bot_public": True, "bot_require_code_grant": False, "verify_key": "0",
                "flags": 0, "owner": user_payload(self.new_id(), "owner")}

    def _store_commands(self, scope: str, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
        stored = [{**cmd, "id": str(self.new_id()), "application_id": str(APP_ID),
                   "version": str(self.new_id()), "default_member_permissions":
                       cmd.get("default_member_permissions")} for cmd in body]
        self.commands[scope] = stored
        self.commands_synced.set()
        return stored

    async def _sync_global(self, body, files, request, app):
        return self._store_commands("global", body)

    async def _sync_guild(self, body, files, request, app, guild):
        result = self._store_commands(f"guild:{guild}", body)
        for cmd in result:
            cmd["guild_id"] = guild
        return result

    async def _list_commands(self, body, files, request, app):
        return self.commands.get("global", [])

    def _make_message(self, channel_id: int, body: dict[str, Any], files: dict[str, bytes], *,
                      author_id: int = BOT_USER_ID, webhook: bool = False,
                      interaction: InteractionRecord | None = None) -> dict[str, Any]:
        message_id = self.new_id()
        attachments = []
        for index, meta in enumerate(body.get("attachments") or []):
            data = files.get(f"files[{meta.get('id', index)}]", b"")
            attachment_id = self.new_id()
            self.files[attachment_id] = data
            attachments.append({
                "id": str(attachment_id), "filename": meta.get("filename", "file"),
                "size": len(data), "content_type": "image/png",
                "url": f"http://127.0.0.1:{self.port}/attachments/{attachment_id}",
                "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{attachment_id}"})
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "type": 0 if not interaction else 20,
            "content": body.get("content") or "", "author": user_payload(author_id, "Corral", bot=True),
            "attachments": attachments, "embeds": body.get("embeds") or [], "mentions": [],
            "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
            "timestamp": now_iso(), "edited_timestamp": None, "flags": int(body.get("flags") or 0),
            "components": body.get("components") or [],
            "allowed_mentions": body.get("allowed_mentions"),
        }
        if channel_id in self.channels and self.channels[channel_id].get("guild_id"):
            message["guild_id"] = str(self.guild_id)
        if webhook:
            message["webhook_id"] = str(APP_ID)
            message["application_id"] = str(APP_ID)
        if interaction is not None:
            message["interaction_metadata"] = {"id": str(interaction.id), "type": 2,
                                               "user": self.users[interaction.user_id]}
        self.messages[message_id] = message
        self.notified[message_id] = self._notified(message)
        return message

    def _edit(self, message: dict[str, Any], body: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        for key in ("content", "embeds", "components", "flags", "allowed_mentions"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if "components" in body and body["components"] is None:
            message["components"] = []
        if body.get("attachments") is not None:
            kept = {str(a.get("id")) for a in body["attachments"]}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in kept]
            for index, meta in enumerate(body["attachments"]):
                if f"files[{meta.get('id', index)}]" in files:
                    data = files[f"files[{meta.get('id', index)}]"]
                    attachment_id = self.new_id()
                    self.files[attachment_id] = data
                    message["attachments"].append({"id": str(attachment_id),
                                                   "filename": meta.get("filename", "file"),
                                                   "size": len(data), "url": "", "proxy_url": "",
                                                   "content_type": "image/png"})
        message["edited_timestamp"] = now_iso()
        return message

    async def _callback(self, body, files, request, iid, token):
        record = self.interactions.get(token)
        if record is None:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        if record.callbacks and body["type"] != 8:
            return _json({"message": "Interaction has already been acknowledged.",
                                      "code": 40060}, status=400)
        record.callbacks.append(body)
        kind = body["type"]
        data = body.get("data") or {}
        message = None
        if kind == 4:  # channel message with source
            message = self._make_message(record.channel_id, data, files, webhook=True,
                                         interaction=record)
            record.original = message
        elif kind == 5:  # deferred: a loading message
            message = self._make_message(record.channel_id, {"flags": data.get("flags", 0)},
                                         files, webhook=True, interaction=record)
            record.original = message
        elif kind == 7:  # update the message the component was on
            source = self._component_message(record)
            if source is not None:
                message = self._edit(source, data, files)
        record.answered.set()
        response: dict[str, Any] = {"interaction": {
            "id": str(record.id), "type": 2,
            "response_message_id": message["id"] if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL)}}
        if message is not None and kind in (4, 5, 7):
            response["resource"] = {"type": kind, "message": message}
        return response

    def _component_message(self, record: InteractionRecord) -> dict[str, Any] | None:
        if record.source_message_id is None:
            return None
        return self.messages.get(record.source_message_id)

    async def _get_webhook_message(self, body, files, request, app, token, mid):
        message = self._webhook_message(token, mid)
        return message or _json({"message": "Unknown Message", "code": 10008}, status=404)

    async def _edit_webhook_message(self, body, files, request, app, token, mid):
        message = self._webhook_message(token, mid)
        if message is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        return self._edit(message, body or {}, files)

    async def _delete_webhook_message(self, body, files, request, app, token, mid):
        message = self._webhook_message(token, mid)
        if message is not None:
            self.messages.pop(int(message["id"]), None)
        return None

    def _webhook_message(self, token: str, mid: str) -> dict[str, Any] | None:
        record = self.interactions.get(token)
        if record is None:
            return None
        if mid == "@original":
            return record.original or self._component_message(record)
        return self.messages.get(int(mid))

    async def _followup(self, body, files, request, app, token):
        record = self.interactions.get(token)
        if record is None:
            return _json({"message": "Unknown Webhook", "code": 10015}, status=404)
        if not record.callbacks:
            return _json({"message": "Interaction not acknowledged",
                                      "code": 10015}, status=400)
        message = self._make_message(record.channel_id, body or {}, files, webhook=True,
                                     interaction=record)
        record.followups.append(message)
        return message

    async def _channel_message(self, body, files, request, cid):
        channel_id = int(cid)
        dm_owner = next((u for u, c in self.dms.items() if c == channel_id), None)
        if dm_owner is not None and dm_owner in self.closed_dms:
            return _json({"message": "Cannot send messages to this user",
                                      "code": 50007}, status=403)
        if channel_id not in self.channels:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        return self._make_message(channel_id, body or {}, files)

    async def _edit_channel_message(self, body, files, request, cid, mid):
        message = self.messages.get(int(mid))
        if message is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        return self._edit(message, body or {}, files)

    async def _get_channel_message(self, body, files, request, cid, mid):
        message = self.messages.get(int(mid))
        return message or _json({"message": "Unknown Message", "code": 10008}, status=404)

    async def _create_thread(self, body, files, request, cid, mid=None):
        thread_id = self.new_id()
        thread = {
            "id": str(thread_id), "type": body.get("type", 11), "guild_id": str(self.guild_id),
            "parent_id": cid, "name": body.get("name", "thread"), "owner_id": str(BOT_USER_ID),
            "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 1, "flags": 0, "total_message_sent": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration":
                                body.get("auto_archive_duration", 1440),
                                "archive_timestamp": now_iso(), "locked": False},
        }
        self.channels[thread_id] = thread
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _get_channel(self, body, files, request, cid):
        channel = self.channels.get(int(cid))
        return channel or _json({"message": "Unknown Channel", "code": 10003}, status=404)

    async def _open_dm(self, body, files, request):
        user_id = int(body["recipient_id"])
        if user_id not in self.dms:
            channel_id = self.new_id()
            self.dms[user_id] = channel_id
            self.channels[channel_id] = {"id": str(channel_id), "type": 1,
                                         "recipients": [self.users[user_id]],
                                         "last_message_id": None}
        return self.channels[self.dms[user_id]]

    async def _get_user(self, body, files, request, uid):
        user = self.users.get(int(uid))
        return user or _json({"message": "Unknown User", "code": 10013}, status=404)


@dataclass(frozen=True)
class UserRef:
    """A user-typed slash-command option."""

    user_id: int
