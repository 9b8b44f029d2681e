"""The imitation's vocabulary: Discord's constants, the records it keeps of what happened, and
the handles tests pass in (UserRef, ChannelRef)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from aiohttp import web

Json = dict[str, Any]

APP_ID = 900_000_000_000_000_001
BOT_USER_ID = APP_ID

# message flags (resources/message#message-object-message-flags)
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
IS_COMPONENTS_V2 = 1 << 15

# permissions (topics/permissions)
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
# "lets modmins control whether user-installed apps can post public replies in a server";
# enabled for servers by default (change-log.mdx, User-Installed Apps General Availability)
USE_EXTERNAL_APPS = 1 << 50
ALL_PERMISSIONS = (1 << 41) - 1
MEMBER_PERMISSIONS = str((1 << 0) | (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15)
                         | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38))
# app_permissions where the app has no bot in the channel (receiving-and-responding.mdx,
# interaction structure, note ***): "ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE permissions
# for (G)DMs with other users, and additionally ... USE_EXTERNAL_EMOJIS for DMs with the app's
# bot user"; in a server without the bot, @everyone's permissions limited to those four, as for
# "apps without a bot user" (change-log.mdx, app_permissions in interactions; 442368 in the
# user-installable app tutorial)
PRIVATE_CHANNEL_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_PERMISSIONS = PRIVATE_CHANNEL_PERMISSIONS | USE_EXTERNAL_EMOJIS
RESPONSE_PERMISSIONS = BOT_DM_PERMISSIONS
ACTIONS = {"send": SEND_MESSAGES, "send_in_threads": SEND_MESSAGES_IN_THREADS,
           "create_thread": CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS,
           "manage_messages": MANAGE_MESSAGES}

# gateway intents (events/gateway#gateway-intents)
GUILDS = 1 << 0
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

# channel types
GUILD_TEXT, DM, GROUP_DM, PUBLIC_THREAD, PRIVATE_THREAD, ANNOUNCEMENT = 0, 1, 3, 11, 12, 5
THREADS = (10, PUBLIC_THREAD, PRIVATE_THREAD)

# interaction types -> the response types Discord accepts for them
# (interactions/receiving-and-responding#interaction-response-object-interaction-callback-type)
COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# interaction context types (receiving-and-responding#interaction-object-interaction-context-
# types) and application integration types (resources/application)
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
# "Apps are limited to 5 followup messages per interaction if it was initiated from a
# user-installed app and isn't installed in the server" (receiving-and-responding.mdx)
USER_INSTALL_FOLLOWUPS = 5
RESPONSES = {COMMAND: (4, 5, 9), COMPONENT: (4, 5, 6, 7, 9), AUTOCOMPLETE: (8,),
             MODAL_SUBMIT: (4, 5, 6, 7)}

MAX_REQUEST = 25 * 1024 * 1024
DISCORD_EPOCH_MS = 1_420_070_400_000


def user_payload(user_id: int, name: str, *, bot: bool = False) -> Json:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": bot, "public_flags": 0}


BOT_USER = user_payload(BOT_USER_ID, "Corral", bot=True)


@dataclass
class Request:
    method: str
    path: str
    json: Any
    files: dict[str, bytes]
    status: int = 200
    error: Json | None = None  # the answer's body when it is an error Discord would send


@dataclass(frozen=True)
class Picture:
    """A picture the bot showed: an image attachment of a classic message, or a media
    gallery item or thumbnail of a V2 message; `alt` its text alternative (None: none).
    `route` is how it came: "channel message", "channel edit", "interaction response",
    "interaction update", "follow-up", "webhook edit" (a DM's routes say "DM")."""

    message_id: int
    channel_id: int
    filename: str
    alt: str | None
    route: str
    # what the message said when it showed the picture (a board edited in place says more
    # later): for tests that follow every position a channel was shown
    text: str = field(default="", compare=False)


@dataclass
class Call:
    """What a route handler gets: the JSON body (or payload_json), files and query."""

    body: Any
    files: dict[str, bytes]
    query: Mapping[str, str]


@dataclass
class Fault:
    """A misbehaviour the test asked for, on the next `times` matching requests."""

    method: str
    pattern: str
    times: int
    status: int = 0  # 429 or 5xx; 0: answer normally
    retry_after: float = 0.0
    delay: float = 0.0
    processed: bool = False  # the request takes effect before the 5xx

    def matches(self, method: str, path: str) -> bool:
        return self.times > 0 and method == self.method and bool(re.fullmatch(self.pattern,
                                                                              path))


@dataclass(frozen=True)
class UserRef:
    """A user-typed slash-command option."""

    user_id: int


@dataclass(frozen=True)
class ChannelRef:
    """A channel-typed slash-command option."""

    channel_id: int


@dataclass(frozen=True)
class RoleRef:
    """A role-typed slash-command option. A Discord client offers only the roles of the server
    the command runs in; `forged=True` sends any id anyway (a role of another server, or none),
    as a tampered payload would."""

    role_id: int
    forged: bool = False


@dataclass
class Role:
    """A guild role (topics/permissions#role-object); @everyone's id is the guild's."""

    id: int
    name: str
    permissions: int
    position: int

    def payload(self) -> Json:
        return {"id": str(self.id), "name": self.name, "permissions": str(self.permissions),
                "position": self.position, "color": 0, "hoist": False, "icon": None,
                "colors": {"primary_color": 0, "secondary_color": None,
                           "tertiary_color": None},
                "unicode_emoji": None, "managed": False, "mentionable": False, "flags": 0}


class AddedGuild(NamedTuple):
    guild_id: int
    channel_id: int


@dataclass
class Guild:
    id: int
    name: str
    locale: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)  # @everyone first, by position
    members: dict[int, set[int]] = field(default_factory=dict)  # user id -> role ids
    bot_member: bool = True  # Corral is installed in it (its bot is a member)

    def permissions(self, user_id: int) -> int:
        """A member's guild permissions: @everyone's and their roles' (topics/permissions#
        permission-hierarchy); the owner and administrators have them all."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        granted = self.roles[self.id].permissions
        for role_id in self.members.get(user_id, ()):
            granted |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if granted & ADMINISTRATOR else granted

    def allows(self, user_id: int, permission: int) -> bool:
        """Whether a member has a permission (ALL_PERMISSIONS stops at bit 40: the owner and
        administrators have the later ones too)."""
        granted = self.roles[self.id].permissions
        for role_id in self.members.get(user_id, ()):
            granted |= self.roles[role_id].permissions
        return user_id == self.owner_id or bool(granted & (ADMINISTRATOR | permission))


@dataclass
class Session:
    """One IDENTIFYed gateway session: what it asked for, and every event sent to it."""

    session_id: str
    shard_id: int
    shard_count: int
    intents: int
    ws: web.WebSocketResponse | None
    seq: int = 0
    events: list[Json] = field(default_factory=list)

    def receives(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id

    def wants(self, name: str, guild_id: int | None) -> bool:
        if name.startswith("MESSAGE_"):
            return bool(self.intents & (GUILD_MESSAGES if guild_id else DIRECT_MESSAGES))
        if name.startswith(("THREAD_", "CHANNEL_")):
            return bool(self.intents & GUILDS)
        return True

    def names(self) -> list[str]:
        return [e["t"] for e in self.events]


@dataclass
class InteractionRecord:
    """One interaction the test sent, and everything the bot answered to it."""

    id: int
    token: str
    user_id: int
    channel_id: int
    guild_id: int | None = None
    interaction_type: int = COMMAND
    created: float = 0.0  # on the imitation's clock
    answered_after: float | None = None  # seconds from creation to the first answer
    callbacks: list[Json] = field(default_factory=list)
    original: Json | None = None  # the message created by the response, if any
    followups: list[Json] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    source_message_id: int | None = None  # for component clicks: the message clicked on
    modal: Json | None = None  # the modal the bot answered with
    payload: Json = field(default_factory=dict)  # the INTERACTION_CREATE data
    # a server without the app whose members lack USE_EXTERNAL_APPS: every message the
    # interaction makes is ephemeral (change-log.mdx, User-Installed Apps GA)
    forced_ephemeral: bool = False

    @property
    def owners(self) -> dict[str, str]:
        """Its authorizing_integration_owners: "0" the guild (or "0" in the bot's DM) where the
        app is installed there, "1" the user who installed it to their account."""
        return dict(self.payload.get("authorizing_integration_owners") or {})

    @property
    def user_installed_only(self) -> bool:
        return set(self.owners) == {"1"}

    @property
    def kind(self) -> int | None:
        """The type of the bot's answer (4 message, 5 deferred, 6 deferred update, 7 update,
        8 autocomplete, 9 modal)."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def choices(self) -> list[Json]:
        for cb in self.callbacks:
            if cb["type"] == 8:
                return cb["data"]["choices"]
        raise AssertionError(f"no autocomplete answer in {self.callbacks}")

    def messages(self) -> list[Json]:
        """Messages this interaction produced: the response then the follow-ups."""
        return ([self.original] if self.original else []) + self.followups

    def ephemeral_texts(self) -> list[str]:
        return [m["content"] for m in self.messages() if m["flags"] & EPHEMERAL]
