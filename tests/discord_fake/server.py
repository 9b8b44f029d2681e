"""A small imitation of the Discord API on 127.0.0.1, for end-to-end tests of the real bot.

It is strict where real Discord is: what Discord would refuse, it refuses with Discord's status,
code and message, so that a bot passing here does not fail there. Sources are named where a rule
is implemented (discord-api-docs pages, and issues for behaviour the docs leave out).

Gateway (websocket, JSON text frames): HELLO; IDENTIFY (with or without `shard: [id, count]`)
-> READY listing that shard's guilds, then GUILD_CREATE for each; heartbeat ACK; RESUME of a
session (replays what it missed, then RESUMED; an unknown session gets INVALID_SESSION). Each
event goes to the sessions of the shard Discord would pick, `(guild_id >> 22) % shard_count`,
events without a guild (DMs) to shard 0 (events/gateway#sharding), and only to sessions whose
intents ask for it: MESSAGE_* needs GUILD_MESSAGES (DIRECT_MESSAGES in DMs), THREAD_* needs
GUILDS; without MESSAGE_CONTENT, other people's guild messages arrive without content, embeds,
attachments or components unless they mention the bot (events/gateway#message-content-intent).
Events: INTERACTION_CREATE, MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE (not for ephemeral
messages, nor for channels the bot is not in), THREAD_CREATE, GUILD_CREATE (member guilds only).

REST: users, gateway info, command sync (validated), interaction callbacks and their webhooks
(followups, @original), channel messages (JSON or multipart with files: create, edit, get,
delete), threads, DMs. Every request is recorded in `requests` with the status answered
(429 for one refused by a rate limit).

Rules enforced (see errors.py, spec.py and limits.py for the 50035 details):
  - every request body (JSON, or a multipart body's `payload_json`) fits its route's schema in
    Discord's OpenAPI description (spec.py, from ../shared/discord-api-spec/openapi.json),
    else 400 50035 with the errors tree, checked before the route's own rules below (after
    authorization and the faults a test asked for) and before the request takes effect;
    `FakeDiscord(check_spec=False)` skips it, and so does an imitation without the
    description (one line in the test report's header; with CI=true it is required);
  - the first answer to an interaction within `response_deadline` seconds (3) of its creation,
    else 404 10062 Unknown interaction; a second answer: 400 40060
    (interactions/receiving-and-responding);
  - the interaction token for followups and @original: 404 10015 Unknown Webhook until the
    interaction is answered, 401 50027 Invalid Webhook Token after `token_lifetime` (15 min)
    (discord-api-docs issue #6851, and PR #2461 documenting 50027);
  - the rules the description cannot say (limits.py: message, component, embed,
    autocomplete, modal and command rules, Components V2's among them) -> 400 50035 Invalid
    Form Body with an `errors` tree, on every route a message body arrives by (channel
    create and edit, interaction answers 4 and 7, follow-ups, webhook edits and @original); an empty message -> 400 50006; a file over `attachment_size_limit` (10 MiB) or a
    request over 25 MiB -> 413 40005 (discord-api-docs issue #8572);
  - Components V2 messages (flag 1 << 15) are stored as Discord returns them: components
    numbered (`id`) in tree order, `attachment://` media resolved to the attachment (url,
    content type, size, attachment_id), the flag kept by every later edit; an edit may set it
    (a deferred answer's flags do not: its follow-up edit does). Uploaded files no component
    shows stay in `attachments` but are not shown. An interaction's webhook takes components
    with or without `with_components` (that query is for webhooks a channel owns; discord.py
    sends it with every view);
  - message nonces: with `enforce_nonce`, the same author, channel and nonce within
    `nonce_window` seconds returns the message already created (resources/message);
  - a channel message is sent to a closed DM -> 403 50007; an action the test denied in a
    channel -> 403 50013 Missing Permissions; editing someone else's message -> 403 50005;
    deleting someone else's DM -> 403 50003; a thread on a thread -> 400 50024; an edit that
    leaves a message empty -> 50006; ephemeral messages are not reachable by channel routes;
    a thread started from a message takes the message's id (topics/threads);
  - requests other than webhooks and interaction callbacks need `Authorization: Bot ...`;
  - rate limits (ratelimits.py names the sources, documented and observed): route buckets
    per major parameter with `X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket` on
    every answer of a limited route: a channel's messages 5 per 5 s (observed), its edits
    5 per 5 s and deletes 5 per 1 s (approximated), an interaction's callback and its
    follow-ups 5 per 2 s each; follow-ups 30 per 60 s per channel (shared scope); and 50
    requests a second per bot token, interaction callbacks and interaction webhooks not
    counted (documented). Over a limit: 429 with Discord's body and headers
    (`X-RateLimit-Scope` user / shared / global), and the request takes no effect;
  - tests cannot do what a Discord client cannot: options not declared, wrong option types,
    values outside the declared choices or bounds, missing required options, a guild-only
    command in DMs, clicking a disabled or absent button, another user's ephemeral message,
    or a deleted message all raise AssertionError in the test. (default_member_permissions
    is not enforced: server admins can open a command to everyone.)
  - user installs (interactions/receiving-and-responding.mdx, application-commands.mdx#
    contexts, change-log.mdx "User-Installed Apps General Availability", June 2024):
    interactions carry `context` (0 a server's channel, 1 the bot's DM, 2 a DM between users
    or a group DM: PRIVATE_CHANNEL) and `authorizing_integration_owners` ("0": the guild id
    where Corral is installed in the server, "0" in the bot's DM; "1": the invoking user's
    id where their own install applies; a command's key only if its `integration_types`,
    missing = [0], has it). A click or modal inherits the owners of the interaction that made
    the message (a message the bot posted itself: the server's); messages carry them in
    `interaction_metadata`. Outside servers: `user`, no `member` or `guild_id`, and
    `app_permissions` ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE (in the bot's DM also
    USE_EXTERNAL_EMOJIS, with `strict_bot_dm_permissions`: else all, as before); in a server
    without the bot, @everyone's limited to those four. A
    client offers a command where its `contexts` (missing: all) has the context and an
    install applies: in (G)DMs between users and servers without Corral only the user's own
    install (`integration_types` with 1); anyone in a (G)DM may click the app's buttons; a
    user acts only in (G)DMs they are in, and not in the bot's servers with in_server=False
    (all AssertionError in the test);
  - channels the bot is not in (DMs and group DMs between users, every channel of a server
    without the bot): every channel route (messages, history, threads, the channel) answers
    403 50001 Missing Access, a server's commands there too; the gateway sends no message
    events for them; interaction answers, follow-ups and @original edits work there;
  - the bot's DM with a user (topics/opcodes-and-status-codes: 50007, 50278): closed DMs
    -> 403 50007; a user who shares no server with the bot and has not installed Corral to
    their account -> 403 50278 (discord-api-docs #7666: user-installed apps DM their users;
    the code: PR #8212, its words: PR #8244);
  - an interaction only a user install authorized (owners "1" without "0") makes at most 5
    follow-ups: the sixth answers 400 40094 (edits are not limited);
  - in a server without Corral whose invoking member lacks USE_EXTERNAL_APPS (1 << 50,
    granted to @everyone by default), the interaction's answers (4, 5) and follow-ups are
    made ephemeral whatever the bot asked;

Test controls (everything below is a method or attribute of FakeDiscord):
  add_user(name, bot=False, installed=False, in_server=True) -> user id; `installed`: Corral
      installed to their account (USER_INSTALL); in_server=False: they share no server with
      the bot. install(user_id), uninstall(user_id); `installed` (set of user ids),
      `outsiders` (those with in_server=False)
  add_guild(name, locale="en-US", channel="games", shard=None, bot_member=True,
      external_apps=True) -> AddedGuild(guild_id, channel_id); shard=(i, n) draws an id that
      shard i of n receives; bot_member=False: Corral is not installed there (not in READY,
      no GUILD_CREATE, its members use Corral by user install); external_apps=False:
      @everyone lacks USE_EXTERNAL_APPS. The default guild is `guild_id` with channels
      `channel_id` ("games") and `other_channel_id` ("general").
  add_channel(guild_id, name) -> channel id;  announce_guild(guild_id): GUILD_CREATE (a
      guild with the bot only)
  add_dm(user_a, user_b) -> channel id: the DM (type 1) between two users, the bot not in it;
  add_group_dm(*users, name=None) -> channel id: a group DM (type 3, `recipients`,
      `owner_id` the first user, `name`), the bot not in it
  is_member_channel(channel_id): whether the bot is in it (its channel routes, its events);
      context_of(channel_id): 0, 1 or 2
  strict_bot_dm_permissions (False): interactions in the bot's DM carry Discord's
      app_permissions there (442368) instead of all permissions, as before
  await add_role(name, guild_id=None, permissions=0) -> role id (GUILD_ROLE_CREATE);
      give_role(user_id, role_id): interactions then carry `member.roles` and
      `member.permissions` (@everyone's and the roles', all of them for an ADMINISTRATOR
      role or the owner); a ROLE option takes a role id or RoleRef (resolved into
      `data.resolved.roles`; RoleRef(id, forged=True) for another server's or no role)
  set_locale(user_id, locale), set_guild_locale(guild_id, locale): interactions carry
      `locale` and `guild_locale`; guilds carry `preferred_locale`
  close_dms(user_id): DMs to that user answer 50007
  delete_channel(channel_id): the channel (or thread) is gone: its routes answer 404 10003
      Unknown Channel, and CHANNEL_DELETE / THREAD_DELETE is dispatched (where the bot is)
  archive_thread(thread_id, locked=False): the thread is archived, as after its inactivity
      period (topics/threads): a new message (a post, an interaction's answer or follow-up)
      opens it again unless it is locked; editing or deleting a message in it, or posting in
      it while locked, answers 400 50083 Thread is archived; PATCH /channels/{id} with
      `archived: false` opens it unless it is locked (the bot is no moderator)
  deny(channel_id, *actions) / allow(channel_id, *actions): actions are "send",
      "send_in_threads" (on the parent of a thread), "create_thread", "manage_messages";
      denied actions answer 50013 and are missing from the interactions' `app_permissions`
  rate_limit(method, path_regex, times=1, retry_after=0.3): 429 with Discord's headers
      (besides the rate limits themselves)
  global_rate_limit (50; None: off), route_limits ({name: (requests, seconds) or None},
      names in ratelimits.ROUTE_LIMITS): the rate limits, on the imitation's clock
  rate_limited() -> every 429 answered (Refusal: at, method, path, scope "global" / "user" /
      "shared" / "injected", retry_after, kind "callback" / "webhook" / "bot", route);
      ratelimits.summary(...) counts them
  fail(method, path_regex, status=500, times=1, processed=False): 5xx answers; with
      processed=True the request takes effect (the message is created) and the answer is lost
  slow(method, path_regex, seconds, times=1): the request is handled after a delay
  drop_gateway(shard_id=None): close the bot's websocket(s) abruptly (code 4000)
  advance(seconds): move the imitation's clock (answer deadline, token lifetime, nonce
      window, rate-limit windows; the bot's own clock is separate); `now()`
  response_deadline, token_lifetime, nonce_window, attachment_size_limit,
      recommended_shards (GET /gateway/bot): plain attributes
  dispatch(name, data): send any gateway event (routed by its guild)
OAuth2 and Activities (oauth.py says what Discord does there): oauth_redirect_uris (a set the
  test fills), client_secret, authorize_url, token_url, oauth_base; browser_login_url(user_id,
  next=None) and login_cookies(user_id) log a browser into the imitation; issue_code(user_id),
  issue_token(user_id); oauth_log (OAuthEvent: kind, detail, status, error); code_lifetime;
  activity_url(target, channel_id=None, guild_id=None, launch=None): the Discord client
  running an Activity; frame(frame_id=None) -> ActivityFrame (commands, answers, logs);
  activity_consent; activities_enabled (False: LAUNCH_ACTIVITY answers 400 50039);
  activity_launches (ActivityLaunch per interaction answered with type 12).
Acting as users (`channel_id` any channel: a server's with or without the bot, the bot's DM,
a DM or group DM between users):
  slash(user, name, channel_id=None, manager=False, subcommand=None, dm=False, **options),
  autocomplete(user, name, focused, ...), click(user, message, custom_id),
  select(user, message, custom_id, values), submit_modal(user, record, {custom_id: value}),
  click_in_every_session(user, message, custom_id): one click to every bot process at once,
  user_message(user, channel_id, content) (MESSAGE_CREATE), dm_channel(user)
  Option values: str, int, float, bool, UserRef(user_id), ChannelRef(channel_id) (or plain
  ids for user and channel options); the command's declared types decide what is sent.
Reading what the bot did:
  requests, messages, channels, commands, interactions, sessions, identified, resumed,
  ready, commands_synced; refused() (requests answered 50035: the e2e fixtures fail a test
  that caused one unless it called expect_refusals()); answered(record), settle(seconds),
  wait_for(condition), channel_messages(channel_id), dm_messages(user),
  attachment_bytes(message), pinged(message), custom_ids(message) and controls(message,
  kind=None) (nested ones too), text_of(message) (content, or a V2 message's text displays);
  pictures (every picture the bot showed: Picture(message_id, channel_id, filename, alt,
  route), an image attachment of a classic message or a V2 gallery item or thumbnail),
  pictures_without_alt(), pictures_of(message); InteractionRecord.kind
  (the answer's type) / original / followups / messages() / choices / modal / payload (the
  INTERACTION_CREATE data) / owners (its authorizing_integration_owners) / forced_ephemeral /
  answered_after (seconds); Session.events / names() (what a gateway session got).
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import datetime as dt
import json
import mimetypes
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import orjson
from aiohttp import WSMsgType, web

from . import limits, ratelimits, spec
from .errors import (
    ALREADY_ACKNOWLEDGED,
    CANNOT_DM,
    CANNOT_EDIT_OTHERS,
    EMPTY_MESSAGE,
    ENTITY_TOO_LARGE,
    INVALID_WEBHOOK_TOKEN,
    MAX_FOLLOWUPS,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    NO_MUTUAL_GUILDS,
    SERVER_ERRORS,
    THREAD_ARCHIVED,
    UNAUTHORIZED,
    UNKNOWN_CHANNEL,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    UNKNOWN_WEBHOOK,
    ApiError,
    Form,
)
from .forms import read_form
from .model import (
    ACTIONS,
    ALL_PERMISSIONS,
    ANNOUNCEMENT,
    APP_ID,
    AUTOCOMPLETE,
    BOT_DM_CONTEXT,
    BOT_DM_PERMISSIONS,
    BOT_USER,
    BOT_USER_ID,
    COMMAND,
    COMPONENT,
    DISCORD_EPOCH_MS,
    DM,
    EPHEMERAL,
    GROUP_DM,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    GUILD_TEXT,
    LOADING,
    MAX_REQUEST,
    MEMBER_PERMISSIONS,
    MESSAGE_CONTENT,
    MODAL_SUBMIT,
    PRIVATE_CHANNEL_CONTEXT,
    PRIVATE_CHANNEL_PERMISSIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    RESPONSE_PERMISSIONS,
    RESPONSES,
    SUPPRESS_EMBEDS,
    THREADS,
    USE_EXTERNAL_APPS,
    USER_INSTALL,
    USER_INSTALL_FOLLOWUPS,
    AddedGuild,
    Call,
    ChannelRef,
    Fault,
    Guild,
    InteractionRecord,
    Json,
    Picture,
    Request,
    Role,
    RoleRef,
    Session,
    UserRef,
    user_payload,
)
from .oauth import LAUNCH_ACTIVITY, LAUNCH_FROM, OAuthImitation

GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")  # the guild is `id`, not `guild_id`


def _dumps(data: Any) -> bytes:
    """JSON (UTF-8) by orjson; what orjson refuses and the json module writes (integers past 64
    bits, lone surrogates) by the json module, as before."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(data).encode()


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with exactly `Content-Type: application/json`, as Discord sends (discord.py
    compares the header verbatim)."""
    return web.Response(body=_dumps(data), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


class Messages(dict[int, Json]):
    """Every message by id, also indexed by channel (the channel a message had when stored
    here), so that a channel's messages are found without going through all of them. Order
    is the dict's: a message replaced under the same id keeps its place."""

    def __init__(self) -> None:
        super().__init__()
        self._where: dict[int, tuple[int, int]] = {}  # id -> (channel id, order)
        self._channels: dict[int, dict[int, int]] = {}  # channel id -> {id: order}
        self._order = 0

    def in_channel(self, channel_id: Any) -> list[Json]:
        ids = self._channels.get(channel_id)
        return [self[i] for i in ids] if ids else []

    def __setitem__(self, key: int, message: Json) -> None:
        channel = int(message["channel_id"])
        where = self._where.get(key)
        if where is None:  # a new id comes last
            self._order += 1
            self._where[key] = (channel, self._order)
            self._channels.setdefault(channel, {})[key] = self._order
        elif where[0] != channel:  # replaced by a message of another channel: same place
            del self._channels[where[0]][key]
            self._where[key] = (channel, where[1])
            ids = self._channels.setdefault(channel, {})
            ids[key] = where[1]
            self._channels[channel] = dict(sorted(ids.items(), key=lambda kv: kv[1]))
        super().__setitem__(key, message)

    def __delitem__(self, key: int) -> None:
        super().__delitem__(key)
        channel, _ = self._where.pop(key)
        del self._channels[channel][key]

    def pop(self, key: int, *default: Any) -> Any:
        if key not in self:
            return super().pop(key, *default)
        message = self[key]
        del self[key]
        return message

    def popitem(self) -> tuple[int, Json]:
        if not self:
            raise KeyError("popitem(): dictionary is empty")
        key = next(reversed(self))
        message = self[key]
        del self[key]
        return key, message

    def setdefault(self, key: int, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, message in dict(*args, **kwargs).items():
            self[key] = message

    def __ior__(self, other: Any) -> Messages:  # type: ignore[override,misc]
        self.update(other)
        return self

    def clear(self) -> None:
        super().clear()
        self._where.clear()
        self._channels.clear()


Handler = Callable[..., Awaitable[Any]]

# the route a request came by, for the pictures it shows (each request is its own task)
_ROUTE: contextvars.ContextVar[str] = contextvars.ContextVar("route", default="")
ROUTE_NAMES = {"_create_message": "channel message", "_edit_channel_message": "channel edit",
               "_followup": "follow-up", "_edit_webhook_message": "webhook edit"}


def _png_size(data: bytes) -> tuple[int | None, int | None]:
    """Width and height from a PNG's header, as Discord reports an image's."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None, None


class FakeDiscord(OAuthImitation):
    # the pictures of every imitation made, in order (the e2e suite checks those of a test)
    picture_logs: ClassVar[list[list[Picture]]] = []

    def __init__(self, *, check_spec: bool = True) -> None:
        """`check_spec=False`: request bodies are not checked against Discord's OpenAPI
        description (for load figures that should not count the imitation's validation)."""
        self._last_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS  # snowflake timestamps
        self._offset = 0.0
        # knobs
        self.response_deadline = 3.0
        self.token_lifetime = 15 * 60.0
        self.nonce_window = 5 * 60.0  # "the past few minutes"
        self.attachment_size_limit = 10 * 1024 * 1024
        self.recommended_shards = 1
        # the world
        self.users: dict[int, Json] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Json] = {}
        self.messages: Messages = Messages()
        self.files: dict[int, bytes] = {}  # attachment id -> bytes
        self.notified: dict[int, set[int]] = {}  # message id -> users pinged when posted
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.closed_dms: set[int] = set()
        # user installs (integration type 1): users who installed Corral to their account
        self.installed: set[int] = set()
        self.outsiders: set[int] = set()  # users who share no server with the bot
        # DMs between users and group DMs (the bot not there): channel id -> its users
        self.private: dict[int, set[int]] = {}
        self._user_dms: dict[frozenset[int], int] = {}
        self.strict_bot_dm_permissions = False  # see app_permissions
        self.denied: dict[int, set[str]] = {}  # channel id -> actions denied to the bot
        self.locales: dict[int, str] = {}  # user id -> locale
        # what the bot did
        self.requests: list[Request] = []
        self.pictures: list[Picture] = []  # every picture the bot showed, in order
        FakeDiscord.picture_logs.append(self.pictures)
        self.commands: dict[str, list[Json]] = {}  # "global" or "guild:<id>" -> commands
        self.commands_synced = asyncio.Event()
        self.interactions: dict[str, InteractionRecord] = {}
        self.nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        self.faults: list[Fault] = []
        # Discord's OpenAPI description (None where it is absent, outside CI): every request
        # body is checked against it, and a test's fixture can see what was refused
        self.spec = spec.load() if check_spec else None
        self.refusals_expected = False
        # rate limits (ratelimits.py: sources): None or 0 turns one off
        self.global_rate_limit: int | None = ratelimits.GLOBAL_PER_SECOND  # a bot token, a second
        self.route_limits = dict(ratelimits.ROUTE_LIMITS)  # name -> (requests, seconds)
        self.ratelimits = ratelimits.RateLimits(self.interactions)
        # gateway
        self.sessions: list[Session] = []
        self._sockets: list[web.WebSocketResponse] = []
        self.identified = 0
        self.resumed = 0
        # an outage (`gateway_outage`): connections dropped, new ones refused at the handshake
        self.gateway_down = False
        self.gateway_refused = 0
        self._transports: dict[web.WebSocketResponse, Any] = {}
        self.ready = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._compiled: list[tuple[str, re.Pattern[str], str]] | None = None
        self.port = 0
        self._init_oauth()  # OAuth2 and the Activity frame (oauth.py)
        self.guild_id, self.channel_id = self.add_guild("Test Server")
        self.other_channel_id = self.add_channel(self.guild_id, "general")

    # -- set-up ---------------------------------------------------------------------------
    def new_id(self) -> int:
        """A snowflake; each one a millisecond after the last, so shards differ."""
        self._last_ms += 1
        return self._last_ms << 22

    def now(self) -> float:
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the imitation's clock forward (nothing sleeps)."""
        self._offset += seconds

    def timestamp(self) -> str:
        return (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=self._offset)).isoformat()

    def add_user(self, name: str, *, bot: bool = False, installed: bool = False,
                 in_server: bool = True) -> int:
        """A user. `installed`: they installed Corral to their account (integration type 1,
        USER_INSTALL); `in_server=False`: they share no server with the bot (by default a
        user is in the test guild)."""
        user_id = self.new_id()
        self.users[user_id] = user_payload(user_id, name, bot=bot)
        if installed:
            self.installed.add(user_id)
        if not in_server:
            self.outsiders.add(user_id)
        return user_id

    def install(self, user_id: int) -> None:
        """The user installs Corral to their account (a user install)."""
        assert user_id in self.users, f"no user {user_id}"
        self.installed.add(user_id)

    def uninstall(self, user_id: int) -> None:
        self.installed.discard(user_id)

    def add_dm(self, user_a: int, user_b: int) -> int:
        """The DM (type 1) between two users: the bot is not in it (`dm_channel(user)` is the
        bot's own DM with a user). One per pair, as on Discord."""
        assert user_a != user_b and {user_a, user_b} <= set(self.users), (user_a, user_b)
        pair = frozenset((user_a, user_b))
        if pair not in self._user_dms:
            channel_id = self.new_id()
            self.channels[channel_id] = {
                "id": str(channel_id), "type": DM, "flags": 0, "last_message_id": None,
                "recipients": [self.users[user_a], self.users[user_b]]}
            self.private[channel_id] = set(pair)
            self._user_dms[pair] = channel_id
        return self._user_dms[pair]

    def add_group_dm(self, *users: int, name: str | None = None) -> int:
        """A group DM (type 3) of these users, the first its owner; the bot is not in it (a
        bot cannot be: resources/channel, group DMs). Up to 10 people."""
        assert 1 <= len(set(users)) == len(users) <= 10, users
        assert set(users) <= set(self.users), users
        channel_id = self.new_id()
        self.channels[channel_id] = {
            "id": str(channel_id), "type": GROUP_DM, "flags": 0, "last_message_id": None,
            "name": name, "icon": None, "owner_id": str(users[0]),
            "recipients": [self.users[u] for u in users]}
        self.private[channel_id] = set(users)
        return channel_id

    def add_guild(self, name: str = "Other Server", *, locale: str = "en-US",
                  channel: str = "games", shard: tuple[int, int] | None = None,
                  bot_member: bool = True, external_apps: bool = True) -> AddedGuild:
        """A guild with one text channel. Add it before the bot connects (it is then in READY),
        or call `announce_guild` afterwards. `bot_member=False`: Corral is not installed there
        (not in READY, no GUILD_CREATE, its channels refuse the bot 50001; its members use
        Corral by user install). `external_apps=False`: @everyone lacks USE_EXTERNAL_APPS."""
        assert locale in limits.LOCALES, locale
        guild_id = self.new_id()
        while shard is not None and (guild_id >> 22) % shard[1] != shard[0]:
            guild_id = self.new_id()
        self.guilds[guild_id] = Guild(guild_id, name, locale, self.new_id(),
                                      bot_member=bot_member)
        everyone = int(MEMBER_PERMISSIONS) | (USE_EXTERNAL_APPS if external_apps else 0)
        self.guilds[guild_id].roles[guild_id] = Role(guild_id, "@everyone", everyone, 0)
        return AddedGuild(guild_id, self.add_channel(guild_id, channel))

    def add_channel(self, guild_id: int, name: str) -> int:
        channel_id = self.new_id()
        self.channels[channel_id] = {
            "id": str(channel_id), "type": GUILD_TEXT, "guild_id": str(guild_id), "name": name,
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
            "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}
        return channel_id

    async def add_role(self, name: str, *, guild_id: int | None = None,
                       permissions: int = 0) -> int:
        """A role in a guild (default: the test guild), above the others; the bot is told
        (GUILD_ROLE_CREATE, as with the GUILDS intent)."""
        guild = self.guilds[guild_id or self.guild_id]
        role = Role(self.new_id(), name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        if guild.bot_member:
            await self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id),
                                                      "role": role.payload()})
        return role.id

    def give_role(self, user_id: int, role_id: int) -> None:
        """Make a user a member with this role (of the role's guild). Nothing is dispatched:
        GUILD_MEMBER_UPDATE needs the privileged GUILD_MEMBERS intent; interactions carry
        the member's roles and permissions."""
        assert user_id in self.users, f"no user {user_id}"
        guild = next((g for g in self.guilds.values() if role_id in g.roles), None)
        assert guild is not None and role_id != guild.id, f"no role {role_id} to give"
        guild.members.setdefault(user_id, set()).add(role_id)

    async def announce_guild(self, guild_id: int) -> None:
        assert self.guilds[guild_id].bot_member, "the bot is not in that guild"
        await self.dispatch("GUILD_CREATE", self.guild_payload(guild_id))

    async def start(self) -> None:
        app = web.Application(client_max_size=2 * MAX_REQUEST)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{aid}/{filename}", self._cdn)
        self._oauth_routes(app)  # before the REST routes: /api/v10/oauth2/token is form-encoded
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _cdn(self, request: web.Request) -> web.Response:
        """Attachment downloads, as from Discord's CDN."""
        data = self.files.get(int(request.match_info["aid"]))
        if data is None:
            return web.Response(status=404)
        kind = mimetypes.guess_type(request.match_info["filename"])[0]
        return web.Response(body=data, content_type=kind or "application/octet-stream")

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

    async def delete_channel(self, channel_id: int) -> None:
        seen = self.is_member_channel(channel_id)
        channel = self.channels.pop(channel_id)
        self.private.pop(channel_id, None)
        if not seen:  # the bot is not told about channels it is not in
            return
        event = "THREAD_DELETE" if channel["type"] in THREADS else "CHANNEL_DELETE"
        await self.dispatch(event, {k: channel[k] for k in ("id", "type", "guild_id",
                                                            "parent_id") if k in channel})

    def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        meta = self.channels[thread_id]["thread_metadata"]
        meta.update(archived=True, locked=locked, archive_timestamp=self.timestamp())

    def _archived(self, channel_id: int) -> Json | None:
        """The thread's metadata if it is an archived thread."""
        meta = self.channels[channel_id].get("thread_metadata")
        return meta if meta and meta.get("archived") else None

    async def _reopen_for_message(self, channel_id: int) -> None:
        """A new message in an archived thread opens it again, unless it is locked."""
        meta = self._archived(channel_id)
        if meta is None:
            return
        if meta.get("locked"):
            raise ApiError(*THREAD_ARCHIVED)
        meta["archived"] = False
        await self.dispatch("THREAD_UPDATE", self.channels[channel_id])

    def set_locale(self, user_id: int, locale: str) -> None:
        assert locale in limits.LOCALES, f"{locale!r} is not a Discord locale"
        self.locales[user_id] = locale

    def set_guild_locale(self, guild_id: int, locale: str) -> None:
        assert locale in limits.LOCALES, f"{locale!r} is not a Discord locale"
        self.guilds[guild_id].locale = locale

    def deny(self, channel_id: int, *actions: str) -> None:
        """Take permissions from the bot in one channel (not inherited by its threads: a thread
        checks "send" on itself and "send_in_threads" on its parent)."""
        assert set(actions) <= set(ACTIONS), f"actions are {sorted(ACTIONS)}"
        self.denied.setdefault(channel_id, set()).update(actions)

    def allow(self, channel_id: int, *actions: str) -> None:
        self.denied.get(channel_id, set()).difference_update(actions)

    def rate_limit(self, method: str, path_regex: str, times: int = 1,
                   retry_after: float = 0.3) -> None:
        """The next `times` calls matching METHOD + path answer 429 with `retry_after`."""
        self.faults.append(Fault(method, path_regex, times, status=429, retry_after=retry_after))

    def fail(self, method: str, path_regex: str, status: int = 500, times: int = 1, *,
             processed: bool = False) -> None:
        """The next `times` calls answer `status` (500, 502, 503, 504); with `processed` the
        request takes effect first, as when Discord did the work but the answer was lost."""
        assert status in SERVER_ERRORS, status
        self.faults.append(Fault(method, path_regex, times, status=status, processed=processed))

    def slow(self, method: str, path_regex: str, seconds: float, times: int = 1) -> None:
        """The next `times` calls are handled after `seconds` (deadlines count from then)."""
        self.faults.append(Fault(method, path_regex, times, delay=seconds))

    async def drop_gateway(self, shard_id: int | None = None) -> None:
        """Close the bot's websocket(s) abruptly, as a network failure would."""
        self.ready.clear()
        for session in self.sessions:
            if session.ws is not None and shard_id in (None, session.shard_id):
                await session.ws.close(code=4000, message=b"dropped by test")

    async def gateway_outage(self) -> None:
        """Discord's gateway becomes unreachable: the bot's connections are cut as a network
        failure cuts them (no close frame: the bot sees an abnormal closure, 1006), and every
        new connection is refused at its handshake with a 503, as Discord's edge answers
        while the gateway is down, until `gateway_restored`. Sessions stay resumable, as they
        do through a short outage."""
        self.gateway_down = True
        self.ready.clear()
        for ws in list(self._sockets):
            transport = self._transports.get(ws)
            if transport is not None:
                transport.abort()
            else:
                await ws.close(code=1001)

    def gateway_restored(self) -> None:
        self.gateway_down = False

    def app_permissions(self, channel_id: int) -> int:
        """The app's permissions in a channel, as interactions carry them: all but those the
        test denied where the bot is; in (G)DMs between users what the docs list; in a server
        without the bot, @everyone's limited to what interaction answers use. In the bot's DM
        Discord sends BOT_DM_PERMISSIONS (442368, no SEND_MESSAGES nor thread permissions);
        the imitation does so only with `strict_bot_dm_permissions` (the suite was written
        against all of them there, and /learn's closing click in a DM reads them)."""
        context = self.context_of(channel_id)
        if context == PRIVATE_CHANNEL_CONTEXT:
            return PRIVATE_CHANNEL_PERMISSIONS
        if context == BOT_DM_CONTEXT and self.strict_bot_dm_permissions:
            return BOT_DM_PERMISSIONS
        guild_id = self._guild_of(channel_id)
        if guild_id is not None and not self.guilds[guild_id].bot_member:
            return self.guilds[guild_id].roles[guild_id].permissions & RESPONSE_PERMISSIONS
        permissions = ALL_PERMISSIONS
        for action in self.denied.get(channel_id, ()):
            permissions &= ~ACTIONS[action]
        return permissions

    def context_of(self, channel_id: int) -> int:
        """The interaction context of a channel: 0 a server's, 1 the bot's DM with a user, 2 a
        DM between users or a group DM (PRIVATE_CHANNEL)."""
        if channel_id in self.private:
            return PRIVATE_CHANNEL_CONTEXT
        return GUILD_CONTEXT if self._guild_of(channel_id) is not None else BOT_DM_CONTEXT

    def is_member_channel(self, channel_id: int) -> bool:
        """Whether the bot is in this channel (may use its channel routes, gets its events):
        a channel of a server it is in, or its own DM with a user."""
        if channel_id in self.private:
            return False
        guild_id = self._guild_of(channel_id)
        return guild_id is None or self.guilds[guild_id].bot_member

    def _member_channel(self, cid: str | int) -> Json:
        """A channel for the channel routes: 404 10003 if it is gone, 403 50001 Missing Access
        where the bot is not (a DM or group DM between users, a server without the bot)."""
        channel = self._channel(cid)
        if not self.is_member_channel(int(cid)):
            raise ApiError(*MISSING_ACCESS)
        return channel

    def _require(self, channel_id: int, action: str) -> None:
        if action in self.denied.get(channel_id, ()):
            raise ApiError(*MISSING_PERMISSIONS)

    # -- gateway ------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_down:
            self.gateway_refused += 1
            return web.Response(status=503, text="upstream connect error or disconnect")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        self._transports[ws] = request.transport
        await ws.send_frame(_dumps({"op": 10, "d": {"heartbeat_interval": 41250}}),
                            WSMsgType.TEXT)
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:
                    await ws.send_frame(b'{"op":11}', WSMsgType.TEXT)
                elif op == 2:
                    session = await self._identify(ws, payload["d"])
                elif op == 6:
                    session = await self._resume(ws, payload["d"])
        finally:
            self._sockets.remove(ws)
            self._transports.pop(ws, None)
            if session is not None and session.ws is ws:
                session.ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await ws.close(code=4010, message=b"Invalid shard")
            return None
        self.identified += 1
        session = Session(f"fake-session-{len(self.sessions) + 1}", shard_id, shard_count,
                          int(data.get("intents") or 0), ws)
        self.sessions.append(session)
        guilds = [g for g, guild in self.guilds.items()
                  if guild.bot_member and session.receives(g)]
        await self._send(session, "READY", {
            "v": 10, "user": {**BOT_USER, "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.session_id, "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
            "relationships": [], "shard": [shard_id, shard_count]})
        for guild_id in guilds:
            await self._send(session, "GUILD_CREATE", self.guild_payload(guild_id))
        self.ready.set()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        session = next((s for s in self.sessions if s.session_id == data.get("session_id")),
                       None)
        if session is None:
            await ws.send_frame(b'{"op":9,"d":false}', WSMsgType.TEXT)
            return None
        self.resumed += 1
        seq, index = data.get("seq") or 0, 0
        while index < len(session.events):  # events dispatched meanwhile are replayed too
            if session.events[index]["s"] > seq:
                await ws.send_frame(_dumps(session.events[index]), WSMsgType.TEXT)
            index += 1
        session.ws = ws
        await self._send(session, "RESUMED", {})
        self.ready.set()
        return session

    def guild_payload(self, guild_id: int) -> Json:
        guild = self.guilds[guild_id]
        mine = [c for c in self.channels.values() if c.get("guild_id") == str(guild_id)]
        return {
            "id": str(guild_id), "name": guild.name, "owner_id": str(guild.owner_id),
            "unavailable": False, "member_count": len(self.users) + 1, "large": False,
            "channels": [c for c in mine if c["type"] in (GUILD_TEXT, ANNOUNCEMENT)],
            "threads": [c for c in mine if c["type"] in THREADS],
            "roles": [role.payload() for role in guild.roles.values()],
            "members": [], "voice_states": [], "presences": [], "emojis": [], "stickers": [],
            "features": [], "joined_at": self.timestamp(), "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "preferred_locale": guild.locale,
            "system_channel_flags": 0, "afk_timeout": 300, "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    async def _send(self, session: Session, name: str, data: Json) -> None:
        session.seq += 1
        event = {"op": 0, "t": name, "s": session.seq, "d": data}
        session.events.append(event)
        if session.ws is not None and not session.ws.closed:
            try:
                await session.ws.send_frame(_dumps(event), WSMsgType.TEXT)
            except ConnectionResetError:  # closing under us: RESUME will replay it
                pass

    async def dispatch(self, name: str, data: Json) -> None:
        """Send an event to every session of the shard its guild belongs to."""
        guild = data.get("id") if name in GUILD_EVENTS else data.get("guild_id")
        guild_id = int(guild) if guild else None
        for session in list(self.sessions):
            if session.receives(guild_id) and session.wants(name, guild_id):
                await self._send(session, name, self._shaped(session, name, data))

    @staticmethod
    def _shaped(session: Session, name: str, data: Json) -> Json:
        """Without the message content intent, others' guild messages lose their content."""
        if (name not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or session.intents & MESSAGE_CONTENT
                or "guild_id" not in data or int(data["author"]["id"]) == BOT_USER_ID
                or any(int(u["id"]) == BOT_USER_ID for u in data.get("mentions", []))):
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    # -- interactions the tests send ------------------------------------------------------
    def member_payload(self, user_id: int, guild_id: int, *, manager: bool = False) -> Json:
        """A guild member as interactions carry it: their role ids (not @everyone) and their
        permissions from @everyone and those roles (`manager`: all of them, as an owner)."""
        guild = self.guilds[guild_id]
        roles = sorted(guild.members.get(user_id, ()))
        permissions = ALL_PERMISSIONS if manager else guild.permissions(user_id)
        return {"user": self.users[user_id], "roles": [str(r) for r in roles],
                "joined_at": self.timestamp(), "deaf": False, "mute": False, "flags": 0,
                "nick": None, "avatar": None, "pending": False,
                "permissions": str(permissions)}

    def _guild_of(self, channel_id: int) -> int | None:
        guild = self.channels[channel_id].get("guild_id")
        return int(guild) if guild else None

    def dm_channel(self, user_id: int) -> int:
        """The DM channel between a user and the bot (opened if needed)."""
        if user_id not in self.dms:
            channel_id = self.new_id()
            self.dms[user_id] = channel_id
            self.channels[channel_id] = {"id": str(channel_id), "type": DM, "flags": 0,
                                         "recipients": [self.users[user_id]],
                                         "last_message_id": None}
        return self.dms[user_id]

    def _owners(self, user_id: int, channel_id: int,
                integration_types: list[int] | None = None) -> dict[str, str]:
        """authorizing_integration_owners of a command run here (receiving-and-responding#
        interaction-object-authorizing-integration-owners-object): "0" where the app is
        installed to the server (the guild id; "0" in the bot's DM), "1" the invoking user's id
        if they installed the app to their account; each only if the command's
        `integration_types` (missing: [0]) has it."""
        types = integration_types if integration_types is not None else [GUILD_INSTALL]
        context = self.context_of(channel_id)
        owners: dict[str, str] = {}
        if GUILD_INSTALL in types and context != PRIVATE_CHANNEL_CONTEXT:
            guild_id = self._guild_of(channel_id)
            if guild_id is None:
                owners["0"] = "0"
            elif self.guilds[guild_id].bot_member:
                owners["0"] = str(guild_id)
        if USER_INSTALL in types and user_id in self.installed:
            owners["1"] = str(user_id)
        return owners

    def _message_owners(self, message: Json) -> dict[str, str]:
        """The owners a click on a message inherits: those of the interaction that made it; a
        message the bot posted in a channel itself, the server's (the bot's DM: "0")."""
        meta = message.get("interaction_metadata")
        if meta is not None:
            return dict(meta["authorizing_integration_owners"])
        guild = message.get("guild_id") or self._guild_of(int(message["channel_id"]))
        return {"0": str(guild or 0)}

    def _check_present(self, user_id: int, channel_id: int) -> None:
        """A user acts only where they are: in a DM or group DM of theirs; in a server with the
        bot only if they share one with it."""
        assert user_id in self.users, f"no user {user_id}"
        if channel_id in self.private:
            assert user_id in self.private[channel_id], \
                f"user {user_id} is not in the (group) DM {channel_id}"
        elif self.is_member_channel(channel_id) and self._guild_of(channel_id) is not None:
            assert user_id not in self.outsiders, \
                f"user {user_id} shares no server with the bot (in_server=False)"

    def _interaction(self, kind: int, user_id: int, channel_id: int, data: Json, *,
                     message: Json | None = None, manager: bool = False,
                     owners: dict[str, str] | None = None) -> tuple[Json, InteractionRecord]:
        """The INTERACTION_CREATE data (receiving-and-responding#interaction-object): in a
        server `member`, `guild_id` and context 0; elsewhere `user`, context 1 in the bot's DM
        and 2 in (G)DMs between users. `owners` (default: a command that only guild installs
        take) becomes authorizing_integration_owners."""
        self._check_present(user_id, channel_id)
        interaction_id = self.new_id()
        token = f"itoken-{interaction_id}"
        guild_id = self._guild_of(channel_id)
        record = InteractionRecord(interaction_id, token, user_id, channel_id, guild_id=guild_id,
                                   interaction_type=kind, created=self.now())
        self.interactions[token] = record
        if owners is None:
            owners = self._owners(user_id, channel_id)
        payload: Json = {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind,
            "token": token, "version": 1, "channel_id": str(channel_id),
            "channel": self.channels[channel_id],
            "app_permissions": str(self.app_permissions(channel_id)),
            "locale": self.locales.get(user_id, "en-US"), "entitlements": [], "data": data,
            "attachment_size_limit": self.attachment_size_limit,
            "authorizing_integration_owners": owners, "context": self.context_of(channel_id),
        }
        if guild_id is not None:
            guild = self.guilds[guild_id]
            payload.update({"guild_id": str(guild_id), "guild_locale": guild.locale,
                            "guild": {"id": str(guild_id), "locale": guild.locale,
                                      "features": []},
                            "member": self.member_payload(user_id, guild_id, manager=manager)})
            # "If Use External Apps is disabled and your app is not installed to the server,
            # your app's responses will be ephemeral" (change-log.mdx, June 2024)
            record.forced_ephemeral = not guild.bot_member and not manager and not guild.allows(
                user_id, USE_EXTERNAL_APPS)
        else:
            payload["user"] = self.users[user_id]
        if message is not None:
            payload["message"] = message
        record.payload = payload
        return payload, record

    def _command(self, name: str, guild_id: int | None) -> Json:
        scopes = [f"guild:{guild_id}", "global"] if guild_id else ["global"]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        raise AssertionError(f"command /{name} was never registered")

    @staticmethod
    def _check_context(command: Json, guild_id: int | None) -> None:
        """A command's `contexts` in a server (0) or the bot's DM (1); `_check_offered` says
        all a client checks."""
        contexts = command.get("contexts")
        context = 0 if guild_id else 1
        if contexts is not None and context not in contexts:
            where = "in a server" if guild_id else "in DMs"
            raise AssertionError(f"/{command['name']} cannot be used {where}")

    def _check_offered(self, command: Json, user_id: int, channel_id: int) -> dict[str, str]:
        """What a Discord client offers (application-commands#contexts): the command's
        `contexts` (missing: all) have the channel's context, and an installation it is for
        (`integration_types`, missing: [0]) applies there: the server's or the bot DM's guild
        install, or the user's own install. In (G)DMs between users and in servers without the
        bot only a user install can apply. Returns the authorizing owners."""
        self._check_present(user_id, channel_id)
        context = self.context_of(channel_id)
        contexts = command.get("contexts")
        if contexts is not None and context not in contexts:
            where = {GUILD_CONTEXT: "in a server", BOT_DM_CONTEXT: "in DMs",
                     PRIVATE_CHANNEL_CONTEXT: "in DMs or group DMs between users"}[context]
            raise AssertionError(f"/{command['name']} cannot be used {where}")
        owners = self._owners(user_id, channel_id, command.get("integration_types"))
        if not owners:
            types = command.get("integration_types") or [GUILD_INSTALL]
            why = ("the user has not installed Corral" if user_id not in self.installed
                   else f"its integration_types are {types}")
            where = ("in a DM or group DM between users" if context == PRIVATE_CHANNEL_CONTEXT
                     else "in a server without Corral" if context == GUILD_CONTEXT
                     else "here")
            raise AssertionError(f"/{command['name']} is not offered {where}: {why}")
        return owners

    def _options(self, command: Json, values: dict[str, Any], *, subcommand: str | None,
                 focused: str | None, guild_id: int | None) -> tuple[list[Json], Json]:
        """The options Discord sends for these values, typed by the command's declaration."""
        schema: list[Json] = command.get("options") or []
        nested: list[tuple[str, int]] = []
        for part in (subcommand or "").split():
            option = next((o for o in schema if o["name"] == part and o["type"] in (1, 2)), None)
            assert option is not None, f"/{command['name']} has no sub-command {part!r}"
            nested.append((part, option["type"]))
            schema = option.get("options") or []
        assert not any(o["type"] in (1, 2) for o in schema), \
            f"/{command['name']} needs a sub-command ({[o['name'] for o in schema]})"
        resolved: Json = {}
        out = []
        for name, value in values.items():
            if value is None:
                continue
            option = next((o for o in schema if o["name"] == name), None)
            assert option is not None, f"/{command['name']} has no option {name!r}"
            out.append(self._option(option, value, name == focused, resolved, guild_id))
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and values.get(o["name"])
                       is None]
            assert not missing, f"/{command['name']} requires {missing}"
        for name, kind in reversed(nested):
            out = [{"name": name, "type": kind, "options": out}]
        return out, resolved

    def _option(self, option: Json, value: Any, focused: bool, resolved: Json,
                guild_id: int | None) -> Json:
        kind, name = option["type"], option["name"]
        if focused:  # what the user has typed so far, as text
            return {"name": name, "type": kind, "value": str(value), "focused": True}
        if kind == 3:
            value = str(value)
            assert option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000), \
                f"{name}: {value!r} has a length out of bounds"
        elif kind in (4, 10):
            assert isinstance(value, int | float) and not isinstance(value, bool), \
                f"{name} takes a number, not {value!r}"
            assert kind == 10 or isinstance(value, int), f"{name} takes an integer"
            low, high = option.get("min_value"), option.get("max_value")
            assert (low is None or value >= low) and (high is None or value <= high), \
                f"{name}: {value} is out of [{low}, {high}]"
        elif kind == 5:
            assert isinstance(value, bool), f"{name} takes a boolean, not {value!r}"
        elif kind == 6:
            user_id = value.user_id if isinstance(value, UserRef) else int(value)
            resolved.setdefault("users", {})[str(user_id)] = self.users[user_id]
            if guild_id is not None:
                member = self.member_payload(user_id, guild_id)
                member.pop("user")
                resolved.setdefault("members", {})[str(user_id)] = member
            value = str(user_id)
        elif kind == 7:
            channel_id = value.channel_id if isinstance(value, ChannelRef) else int(value)
            channel = self.channels[channel_id]
            allowed = option.get("channel_types")
            assert not allowed or channel["type"] in allowed, \
                f"{name} takes channels of types {allowed}"
            keys = ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")
            partial: Json = {k: channel[k] for k in keys if k in channel}
            partial["permissions"] = str(self.app_permissions(channel_id))
            resolved.setdefault("channels", {})[str(channel_id)] = partial
            value = str(channel_id)
        elif kind == 8:
            role_id = value.role_id if isinstance(value, RoleRef) else int(value)
            owner = next((g for g in self.guilds.values() if role_id in g.roles), None)
            role = owner.roles[role_id] if owner else None
            forged = isinstance(value, RoleRef) and value.forged
            assert forged or (owner is not None and owner.id == guild_id), \
                f"{name}: {role_id} is not a role of this server"
            if role is None:  # a forged id that is nobody's role
                role = Role(role_id, "forged", 0, 1)
            resolved.setdefault("roles", {})[str(role_id)] = role.payload()
            value = str(role_id)
        else:
            raise AssertionError(f"option type {kind} ({name}) is not imitated")
        choices = option.get("choices")
        assert not choices or value in [c["value"] for c in choices], \
            f"{name}: {value!r} is not one of the choices {[c['value'] for c in choices]}"
        return {"name": name, "type": kind, "value": value}

    async def slash(self, user_id: int, name: str, *, channel_id: int | None = None,
                    manager: bool = False, subcommand: str | None = None, dm: bool = False,
                    **options: Any) -> InteractionRecord:
        """Run /name (a sub-command as "sub" or "group sub") in a channel or in the user's DM
        with the bot."""
        channel_id = self.dm_channel(user_id) if dm else channel_id or self.channel_id
        guild_id = self._guild_of(channel_id)
        command = self._command(name, guild_id)
        owners = self._check_offered(command, user_id, channel_id)
        opts, resolved = self._options(command, options, subcommand=subcommand, focused=None,
                                       guild_id=guild_id)
        data: Json = {"id": command["id"], "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        payload, record = self._interaction(COMMAND, user_id, channel_id, data, manager=manager,
                                            owners=owners)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def autocomplete(self, user_id: int, name: str, focused: str, *,
                           channel_id: int | None = None, subcommand: str | None = None,
                           dm: bool = False, **options: Any) -> InteractionRecord:
        channel_id = self.dm_channel(user_id) if dm else channel_id or self.channel_id
        guild_id = self._guild_of(channel_id)
        command = self._command(name, guild_id)
        owners = self._check_offered(command, user_id, channel_id)
        opts, resolved = self._options(command, options, subcommand=subcommand, focused=focused,
                                       guild_id=guild_id)
        data: Json = {"id": command["id"], "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        payload, record = self._interaction(AUTOCOMPLETE, user_id, channel_id, data,
                                            owners=owners)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    def _clickable(self, user_id: int, message: Json, custom_id: str) -> tuple[Json, Json]:
        """The current message and its component: what a user can actually use."""
        current = self.messages.get(int(message["id"]))
        assert current is not None, f"message {message['id']} is gone"
        if current["flags"] & EPHEMERAL:
            viewer = int(current["interaction_metadata"]["user"]["id"])
            assert viewer == user_id, "only the user an ephemeral message was sent to sees it"
        component = next((c for _, c in limits.walk_components(current.get("components", []))
                          if c.get("custom_id") == custom_id), None)
        assert component is not None, f"no component {custom_id!r} on that message"
        assert not component.get("disabled"), f"{custom_id!r} is disabled"
        return current, component

    async def click(self, user_id: int, message: Json, custom_id: str, *,
                    manager: bool = False) -> InteractionRecord:
        current, button = self._clickable(user_id, message, custom_id)
        assert button["type"] == limits.BUTTON, f"{custom_id!r} is not a button"
        data = {"custom_id": custom_id, "component_type": limits.BUTTON}
        return await self._component_interaction(user_id, current, data, manager)

    async def click_in_every_session(self, user_id: int, message: Json,
                                     custom_id: str) -> list[InteractionRecord]:
        """The same click sent at once to every connected gateway session (each its own
        interaction), as if it reached several bot processes: what a store shared between
        processes must apply once."""
        current, button = self._clickable(user_id, message, custom_id)
        assert button["type"] == limits.BUTTON, f"{custom_id!r} is not a button"
        data = {"custom_id": custom_id, "component_type": limits.BUTTON}
        sends, records = [], []
        for session in [s for s in self.sessions if s.ws is not None]:
            payload, record = self._interaction(COMPONENT, user_id, int(current["channel_id"]),
                                                data, message=current,
                                                owners=self._message_owners(current))
            record.source_message_id = int(current["id"])
            records.append(record)
            sends.append(self._send(session, "INTERACTION_CREATE", payload))
        await asyncio.gather(*sends)
        return records

    async def select(self, user_id: int, message: Json, custom_id: str, values: list[str], *,
                     manager: bool = False) -> InteractionRecord:
        """Choose `values` in a select menu of `message`."""
        current, menu = self._clickable(user_id, message, custom_id)
        assert menu["type"] == limits.STRING_SELECT, f"{custom_id!r} is not a string select"
        offered = [o["value"] for o in menu.get("options", [])]
        assert set(values) <= set(offered), f"{values} not among {offered}"
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        assert low <= len(values) <= high, f"choose {low} to {high} values"
        data = {"custom_id": custom_id, "component_type": limits.STRING_SELECT,
                "values": values}
        return await self._component_interaction(user_id, current, data, manager)

    async def _component_interaction(self, user_id: int, message: Json, data: Json,
                                     manager: bool) -> InteractionRecord:
        payload, record = self._interaction(COMPONENT, user_id, int(message["channel_id"]),
                                            data, message=message, manager=manager,
                                            owners=self._message_owners(message))
        record.source_message_id = int(message["id"])
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def submit_modal(self, user_id: int, shown: InteractionRecord,
                           values: dict[str, str]) -> InteractionRecord:
        """Fill in and submit the modal the bot answered `shown` with."""
        modal = shown.modal
        assert modal is not None, "the bot did not answer with a modal"
        assert shown.user_id == user_id, "a modal is shown to the user who acted only"
        rows = []
        for row in modal["components"]:
            if row.get("type") == limits.LABEL:
                item = row["component"]
                rows.append({"type": limits.LABEL, "component": {
                    "type": item["type"], "custom_id": item["custom_id"],
                    "value": values.get(item["custom_id"], "")}})
            else:
                rows.append({"type": 1, "components": [
                    {"type": item["type"], "custom_id": item["custom_id"],
                     "value": values.get(item["custom_id"], "")} for item in row["components"]]})
        data = {"custom_id": modal["custom_id"], "components": rows}
        source = self.messages.get(shown.source_message_id or 0)
        payload, record = self._interaction(MODAL_SUBMIT, user_id, shown.channel_id, data,
                                            message=source, owners=shown.owners)
        record.source_message_id = shown.source_message_id
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def user_message(self, user_id: int, channel_id: int | None = None,
                           content: str = "") -> Json:
        """A user posts in a channel (or their DM with the bot: `dm_channel(user)`); where the
        bot is not (a DM or group DM between users, a server without it) it gets no event."""
        channel_id = channel_id or self.channel_id
        self._check_present(user_id, channel_id)
        message = self._new_message(channel_id, {"content": content}, {}, author_id=user_id)
        await self._dispatch_message("MESSAGE_CREATE", message)
        return message

    async def answered(self, record: InteractionRecord, timeout: float = 10.0
                       ) -> InteractionRecord:
        try:
            await asyncio.wait_for(record.answered.wait(), timeout)
        except TimeoutError:
            tried = [(r.method, r.path, r.status) for r in self.requests if record.token in r.path]
            raise AssertionError(f"interaction {record.id} was not answered within {timeout}s; "
                                 f"requests with its token: {tried}") from None
        return record

    async def settle(self, seconds: float = 0.3) -> None:
        """Let the bot finish follow-ups after its first answer."""
        await asyncio.sleep(seconds)

    async def wait_for(self, condition: Callable[[], Any], timeout: float = 10.0,
                       what: str = "condition") -> Any:
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
    def channel_messages(self, channel_id: int | None = None) -> list[Json]:
        channel_id = channel_id or self.channel_id
        return [m for m in self.messages.in_channel(channel_id) if not m["flags"] & EPHEMERAL]

    def dm_messages(self, user_id: int) -> list[Json]:
        channel = self.dms.get(user_id)
        return [] if channel is None else self.messages.in_channel(channel)

    def attachment_bytes(self, message: Json) -> list[bytes]:
        return [self.files[int(a["id"])] for a in message.get("attachments", [])]

    # what only a bot's mistake causes: a malformed body (50035), a second answer to an
    # interaction (40060), an empty message (50006), a file or request too large (40005)
    MISTAKES = frozenset({50035, 40060, 50006, 40005})

    def refused(self) -> list[Request]:
        """Requests Discord would refuse because the bot got them wrong (`MISTAKES`). The e2e
        fixtures fail a test that caused one, unless it called `expect_refusals()`."""
        return [r for r in self.requests
                if r.error is not None and r.error.get("code") in self.MISTAKES]

    def expect_refusals(self) -> None:
        """This test provokes 50035 answers on purpose."""
        self.refusals_expected = True

    def pinged(self, message: Json) -> set[int]:
        """Users notified when the message was posted (edits notify nobody, as on Discord)."""
        return self.notified.get(int(message["id"]), set())

    @staticmethod
    def _notified(message: Json) -> set[int]:
        """Mentioned in the text and allowed by allowed_mentions."""
        shown = [message.get("content") or ""] + [  # a V2 message's text displays ping too
            c.get("content") or "" for _, c in limits.walk_components(
                message.get("components") or []) if c.get("type") == 10]
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", "\n".join(shown))}
        allowed = message.get("allowed_mentions")
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users") or []}

    @staticmethod
    def text_of(message: Json) -> str:
        """What a message says in words: its content, or a V2 message's text displays (in
        order, one after another on their own lines)."""
        if not limits.is_v2(message):
            return str(message.get("content") or "")
        return "\n".join(str(c.get("content") or "") for _, c in limits.walk_components(
            message.get("components") or []) if c.get("type") == limits.TEXT_DISPLAY)

    @staticmethod
    def controls(message: Json, kind: int | None = None) -> list[Json]:
        """Its buttons and menus (of one type if given), nested ones too, in order."""
        return [c for _, c in limits.walk_components(message.get("components") or [])
                if (c.get("type") == kind if kind is not None
                    else c.get("type") in (limits.BUTTON, *limits.SELECTS))]

    @staticmethod
    def custom_ids(message: Json) -> list[str]:
        return [c["custom_id"] for _, c in limits.walk_components(message.get("components", []))
                if "custom_id" in c]

    # -- REST -----------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        record = Request(request.method, path, None, {})
        self.requests.append(record)
        refused, headers = self.ratelimits.take(
            request.method, path, request.headers.get("Authorization", ""), self.now(),
            self.global_rate_limit, self.route_limits)
        if refused is not None:  # refused: it takes no effect
            record.status = refused.status
            return refused
        try:
            response = await self._handle(request, path, record)
        except ApiError as exc:
            record.error = exc.body()
            response = _json(exc.body(), exc.status)
        if response.status == 429:  # FakeDiscord.rate_limit
            self.ratelimits.injected(request.method, path, self.now(),
                                     float(response.headers.get("Retry-After", 0)))
        elif headers:
            response.headers.update(headers)
        record.status = response.status
        return response

    def rate_limited(self) -> list[ratelimits.Refusal]:
        """Every 429 answered (by a limit or injected), oldest first;
        `ratelimits.summary(...)` counts them by scope and route."""
        return list(self.ratelimits.refused)

    async def _handle(self, request: web.Request, path: str,
                      record: Request) -> web.StreamResponse:
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer ") and request.method == "GET" and path == "/users/@me":
            user = self.bearer_me(authorization)  # a user's OAuth2 token (oauth.py)
            if user is None:
                raise ApiError(*UNAUTHORIZED)
            return _json(user)
        if not path.startswith(("/webhooks/", "/interactions/")) and not request.headers.get(
                "Authorization", "").startswith("Bot "):
            raise ApiError(*UNAUTHORIZED)
        record.json, record.files = await self._read_body(request)
        fault = next((f for f in self.faults if f.matches(request.method, path)), None)
        if fault is not None:
            fault.times -= 1
            await asyncio.sleep(fault.delay)
            if fault.status == 429:
                return self._too_many_requests(fault.retry_after)
            if fault.status and not fault.processed:
                return self._server_error(fault.status)
        handler, params = self._route(request.method, path)
        _ROUTE.set(ROUTE_NAMES.get(handler.__name__, ""))
        try:
            if self.spec is not None:  # the body as the description says, before any rule here
                self.spec.check(request.method, path, record.json)
            result = await handler(Call(record.json, record.files, request.query), **params)
        except ApiError:
            if fault is None or not fault.processed:
                raise
            result = None
        if fault is not None and fault.processed:
            return self._server_error(fault.status)
        return web.Response(status=204) if result is None else _json(result)

    @staticmethod
    def _too_many_requests(retry: float) -> web.Response:
        return _json({"message": "You are being rate limited.", "retry_after": retry,
                      "global": False, "code": 0}, status=429,
                     headers={"Retry-After": str(retry), "X-RateLimit-Scope": "user",
                              "X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5",
                              "X-RateLimit-Reset-After": str(retry),
                              "X-RateLimit-Bucket": "fake", "Via": "1.1 google"})

    @staticmethod
    def _server_error(status: int) -> web.Response:
        return _json({"message": SERVER_ERRORS[status], "code": 0}, status=status)

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        """The JSON body, or a multipart/form-data body's `payload_json` and files. The
        Content-Type header is read here: aiohttp's `content_type` and multipart reader parse
        headers with the slow `email` package."""
        files: dict[str, bytes] = {}
        content_type = request.headers.get("Content-Type", "")
        if content_type.partition(";")[0].strip(" \t").lower().startswith("multipart/"):
            payload = None
            for name, data in read_form(content_type, await request.read()):
                if name == "payload_json":
                    payload = json.loads(data)
                else:
                    files[name] = data
            if (any(len(d) > self.attachment_size_limit for d in files.values())
                    or sum(map(len, files.values())) > MAX_REQUEST):
                raise ApiError(*ENTITY_TOO_LARGE)
            return payload, files
        # with parameters (a charset), the text is decoded as aiohttp decodes it; else UTF-8
        text = await request.text() if ";" in content_type else (await request.read()).decode()
        return (json.loads(text) if text else None), files

    def _route(self, method: str, path: str) -> tuple[Handler, dict[str, str]]:
        if self._compiled is None:  # the patterns once; the handlers looked up at each call
            self._compiled = [(verb, re.compile(pattern), handler.__name__)
                              for verb, pattern, handler in self._routes()]
        for verb, pattern, name in self._compiled:
            if verb == method:
                match = pattern.fullmatch(path)
                if match:
                    return getattr(self, name), match.groupdict()
        raise ApiError(404, 0, "404: Not Found")

    def _routes(self) -> list[tuple[str, str, Handler]]:
        app = r"/applications/(?P<app>\d+)"
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        message = r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)"
        return [
            ("GET", r"/users/@me", self._me),
            ("GET", r"/gateway(/bot)?", self._gateway_info),
            ("GET", r"(/oauth2)?/applications/@me", self._application),
            ("PUT", app + r"/commands", self._sync_commands),
            ("PUT", app + r"/guilds/(?P<guild>\d+)/commands", self._sync_commands),
            ("GET", app + r"/commands", self._list_commands),
            ("GET", app + r"/guilds/(?P<guild>\d+)/commands", self._list_commands),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("GET", hook + r"/messages/(?P<mid>@original|\d+)", self._get_webhook_message),
            ("PATCH", hook + r"/messages/(?P<mid>@original|\d+)", self._edit_webhook_message),
            ("DELETE", hook + r"/messages/(?P<mid>@original|\d+)", self._delete_webhook_message),
            ("POST", hook, self._followup),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._create_message),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._channel_history),
            ("PATCH", message, self._edit_channel_message),
            ("GET", message, self._get_channel_message),
            ("DELETE", message, self._delete_channel_message),
            ("POST", r"/channels/(?P<cid>\d+)/threads", self._create_thread),
            ("POST", message + r"/threads", self._create_thread),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel),
            ("PATCH", r"/channels/(?P<cid>\d+)", self._edit_channel),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("GET", r"/users/(?P<uid>\d+)", self._get_user),
        ]

    async def _me(self, call: Call) -> Json:
        return {**BOT_USER, "verified": True, "mfa_enabled": False, "flags": 0}

    async def _gateway_info(self, call: Call) -> Json:
        return {"url": self.gateway_url, "shards": self.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                        "max_concurrency": 1}}

    async def _application(self, call: Call) -> Json:
        return {"id": str(APP_ID), "name": "Corral", "icon": None, "description": "",
                "bot_public": True, "bot_require_code_grant": False, "verify_key": "0",
                "flags": 0, "owner": user_payload(APP_ID + 1, "owner")}

    # -- application commands ---------------------------------------------------------------
    def _command_guild(self, guild: str | None) -> None:
        """A guild's commands only where the app is installed: 403 50001 Missing Access."""
        if guild is not None and int(guild) in self.guilds and not self.guilds[
                int(guild)].bot_member:
            raise ApiError(*MISSING_ACCESS)

    async def _sync_commands(self, call: Call, app: str, guild: str | None = None) -> list[Json]:
        self._command_guild(guild)
        commands = call.body or []  # null: no commands
        form = Form()
        limits.check_commands(form, commands)
        form.raise_if_any()
        stored = []
        for command in commands:
            entry = {**command, "id": str(self.new_id()), "application_id": app,
                     "version": str(self.new_id()), "type": command.get("type", 1),
                     "default_member_permissions": command.get("default_member_permissions")}
            if guild is not None:
                entry["guild_id"] = guild
            stored.append(entry)
        self.commands["global" if guild is None else f"guild:{guild}"] = stored
        self.commands_synced.set()
        return stored

    async def _list_commands(self, call: Call, app: str, guild: str | None = None) -> list[Json]:
        self._command_guild(guild)
        return self.commands.get("global" if guild is None else f"guild:{guild}", [])

    # -- messages -------------------------------------------------------------------------
    def _attachment(self, filename: str, data: bytes, description: str | None = None) -> Json:
        attachment_id = self.new_id()
        self.files[attachment_id] = data
        url = f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}"
        attachment = {"id": str(attachment_id), "filename": filename, "size": len(data),
                      "content_type": mimetypes.guess_type(filename)[0]
                      or "application/octet-stream", "url": url, "proxy_url": url}
        if description:
            attachment["description"] = description
        if str(attachment["content_type"]).startswith("image/"):
            attachment["width"], attachment["height"] = _png_size(data)
        return attachment

    @staticmethod
    def _upload_name(body: Json, name: str) -> tuple[str, str | None]:
        """An uploaded file's name and description (`files[n]`, described by `attachments`)."""
        index = name.removeprefix("files[").removesuffix("]")
        meta: Json = next((m for m in body.get("attachments") or []
                           if str(m.get("id")) == index), {})
        return meta.get("filename") or f"file{index}", meta.get("description")

    def _uploads(self, body: Json, files: dict[str, bytes]) -> list[Json]:
        """Attachments for the uploaded files."""
        out = []
        for name, data in files.items():
            filename, description = self._upload_name(body, name)
            out.append(self._attachment(filename, data, description))
        return out

    def _file_names(self, body: Json, files: dict[str, bytes], before: Json | None) -> set[str]:
        """The names of the attachments a message will have: kept ones (an edit's
        `attachments` lists them by id; without it, all stay) and those uploaded now."""
        kept = before["attachments"] if before is not None else []
        if before is not None and body.get("attachments") is not None:
            ids = {str(a.get("id")) for a in body["attachments"]}
            kept = [a for a in kept if a["id"] in ids]
        return ({a["filename"] for a in kept}
                | {self._upload_name(body, name)[0] for name in files})

    @staticmethod
    def _laid_out(components: list[Json], attachments: list[Json]) -> list[Json]:
        """A V2 message's components as Discord returns them: each numbered (an `id` the body
        left out, in tree order, skipping those taken), `attachment://` media resolved to the
        attachment (its url, type, size and id), a file component's name and size."""
        out = copy.deepcopy(components)
        found = [item for _, item in limits.walk_components(out)]
        taken = {item["id"] for item in found if item.get("id")}
        number = 0
        by_name = {a["filename"]: a for a in attachments}
        for item in found:
            if not item.get("id"):
                number += 1
                while number in taken:
                    number += 1
                item["id"] = number
            for _, media in limits.media_of(item):
                url = str(media.get("url") or "")
                attachment = by_name.get(url.removeprefix(limits.ATTACHMENT)) if url.startswith(
                    limits.ATTACHMENT) else None
                if attachment is None:
                    media.update(proxy_url=url, flags=0)
                    continue
                media.update(url=attachment["url"], proxy_url=attachment["proxy_url"],
                             content_type=attachment["content_type"],
                             attachment_id=attachment["id"], width=attachment.get("width"),
                             height=attachment.get("height"), flags=0)
                if item.get("type") == limits.FILE:
                    item.update(name=attachment["filename"], size=attachment["size"])
        return out

    def pictures_of(self, message: Json) -> list[tuple[str, str, str | None]]:
        """The pictures a message shows: (what, file name, alt text). A classic message shows
        its image attachments (alt text: the attachment's description); a V2 message only what
        its media galleries and thumbnails show (alt text: the item's description), its other
        attachments are not shown."""
        if not limits.is_v2(message):
            return [(a["id"], a["filename"], a.get("description"))
                    for a in message.get("attachments") or []
                    if str(a.get("content_type", "")).startswith("image/")]
        out = []
        for _, item in limits.walk_components(message.get("components") or []):
            if item.get("type") == limits.MEDIA_GALLERY:
                shown = [(e.get("media") or {}, e.get("description"))
                         for e in item.get("items") or []]
            elif item.get("type") == limits.THUMBNAIL:
                shown = [(item.get("media") or {}, item.get("description"))]
            else:
                continue
            for media, alt in shown:
                url = str(media.get("url") or "")
                name = url.split("?", 1)[0].rsplit("/", 1)[-1]
                out.append((str(media.get("attachment_id") or url), name, alt))
        return out

    def _shown(self, before: list[tuple[str, str, str | None]], message: Json) -> None:
        """Record the pictures a message shows now that it did not (with that alt text)."""
        route = _ROUTE.get() or "?"
        kind = self.channels.get(int(message["channel_id"]), {}).get("type")
        if kind == DM:
            route += " (DM)"
        elif kind == GROUP_DM:
            route += " (group DM)"
        for picture in self.pictures_of(message):
            if picture not in before:
                self.pictures.append(Picture(int(message["id"]), int(message["channel_id"]),
                                             picture[1], picture[2], route,
                                             self.text_of(message)))

    def pictures_without_alt(self) -> list[Picture]:
        """Every picture the bot showed without a text alternative."""
        return [p for p in self.pictures if not (p.alt or "").strip()]

    def _new_message(self, channel_id: int, body: Json, files: dict[str, bytes], *,
                     author_id: int = BOT_USER_ID,
                     interaction: InteractionRecord | None = None) -> Json:
        message_id = self.new_id()
        content = body.get("content") or ""
        attachments = self._uploads(body, files)
        mentioned = [BOT_USER if int(u) == BOT_USER_ID else self.users[int(u)]
                     for u in dict.fromkeys(re.findall(r"<@!?(\d+)>", content))
                     if int(u) == BOT_USER_ID or int(u) in self.users]
        message: Json = {
            "id": str(message_id), "channel_id": str(channel_id),
            "type": 20 if interaction and interaction.interaction_type == COMMAND else 0,
            "content": content,
            "author": BOT_USER if author_id == BOT_USER_ID else self.users[author_id],
            "attachments": attachments, "embeds": body.get("embeds") or [],
            "mentions": mentioned, "mention_roles": [], "mention_everyone": False,
            "pinned": False, "tts": False, "timestamp": self.timestamp(),
            "edited_timestamp": None, "flags": int(body.get("flags") or 0),
            "components": (self._laid_out(body.get("components") or [], attachments)
                           if limits.is_v2(body) else body.get("components") or []),
            "allowed_mentions": body.get("allowed_mentions"),
        }
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        guild_id = self._guild_of(channel_id)
        if guild_id is not None and not message["flags"] & EPHEMERAL:
            message["guild_id"] = str(guild_id)
        if interaction is not None:
            message["webhook_id"] = str(APP_ID)
            message["application_id"] = str(APP_ID)
            message["interaction_metadata"] = {
                "id": str(interaction.id), "type": interaction.interaction_type,
                "user": self.users[interaction.user_id],
                "authorizing_integration_owners": interaction.owners}
        self.messages[message_id] = message
        self.notified[message_id] = self._notified(message)
        self.channels[channel_id]["last_message_id"] = str(message_id)
        return message

    async def _dispatch_message(self, name: str, message: Json) -> None:
        if message["flags"] & EPHEMERAL or not self.is_member_channel(int(message["channel_id"])):
            return  # nobody else sees it / the bot is not in that channel
        data = dict(message)
        author = int(data["author"]["id"])
        if "guild_id" in data and "webhook_id" not in data:  # members: not for webhooks
            # the bot's own member object is as complete as a user's (discord.py reads flags)
            member = (self.member_payload(author, int(data["guild_id"])) if author in self.users
                      else {"roles": [], "joined_at": self.timestamp(), "deaf": False,
                            "mute": False, "flags": 0, "nick": None, "avatar": None,
                            "pending": False})
            member.pop("user", None)
            data["member"] = member
        await self.dispatch(name, data)

    async def _post(self, channel_id: int, body: Json, files: dict[str, bytes], *,
                    interaction: InteractionRecord | None = None, at: tuple[str, ...] = (),
                    allow_empty: bool = False) -> Json:
        """A new message from the bot, checked as Discord checks it."""
        form = Form()
        limits.check_message(form, body, at, attachments=self._file_names(body, files, None))
        form.raise_if_any()
        if not allow_empty and limits.is_empty(body, files=bool(files)):
            raise ApiError(*EMPTY_MESSAGE)
        message = self._new_message(channel_id, body, files, interaction=interaction)
        self._shown([], message)
        await self._dispatch_message("MESSAGE_CREATE", message)
        return message

    async def _update(self, message: Json, body: Json, files: dict[str, bytes],
                      at: tuple[str, ...] = ()) -> Json:
        """Edit a message in place, checked as Discord checks it (the result must not be
        empty)."""
        form = Form()
        limits.check_message(form, body, at, before=message,
                             attachments=self._file_names(body, files, message))
        form.raise_if_any()
        shown = self.pictures_of(message)
        edited = dict(message)
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in body:
                edited[key] = body[key] if body[key] is not None else (
                    "" if key == "content" else None if key == "allowed_mentions" else [])
        if body.get("flags") is not None:  # SUPPRESS_EMBEDS changes; IS_COMPONENTS_V2 is set
            flags = int(body["flags"])
            edited["flags"] = ((message["flags"] & ~SUPPRESS_EMBEDS)
                               | (flags & (SUPPRESS_EMBEDS | limits.IS_COMPONENTS_V2)))
        edited["flags"] &= ~LOADING
        if body.get("attachments") is not None:
            kept = {str(a.get("id")) for a in body["attachments"]}
            edited["attachments"] = [a for a in message["attachments"] if a["id"] in kept]
        if files:
            edited["attachments"] = list(edited["attachments"]) + self._uploads(body, files)
        if limits.is_v2(edited):  # the legacy fields were refused unless empty
            edited.update(content="", embeds=[])
            if "components" in body:
                edited["components"] = self._laid_out(edited["components"],
                                                      edited["attachments"])
        if limits.is_empty(edited):
            raise ApiError(*EMPTY_MESSAGE)
        edited["edited_timestamp"] = self.timestamp()
        message.clear()
        message.update(edited)
        self._shown(shown, message)
        await self._dispatch_message("MESSAGE_UPDATE", message)
        return message

    async def _delete(self, message: Json) -> None:
        del self.messages[int(message["id"])]
        if not message["flags"] & EPHEMERAL:
            event = {"id": message["id"], "channel_id": message["channel_id"]}
            if "guild_id" in message:
                event["guild_id"] = message["guild_id"]
            await self.dispatch("MESSAGE_DELETE", event)

    def _channel(self, cid: str | int) -> Json:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise ApiError(*UNKNOWN_CHANNEL)
        return channel

    def _channel_message(self, cid: str, mid: str) -> Json:
        """A message as the channel routes see it (ephemeral ones are not there)."""
        self._member_channel(cid)
        message = self.messages.get(int(mid))
        if message is None or message["channel_id"] != cid or message["flags"] & EPHEMERAL:
            raise ApiError(*UNKNOWN_MESSAGE)
        return message

    async def _create_message(self, call: Call, cid: str) -> Json:
        channel = self._member_channel(cid)
        channel_id = int(cid)
        if channel["type"] == DM:  # the bot's DM with a user: closed, or no way to reach them
            owner = int(channel["recipients"][0]["id"])
            if owner in self.closed_dms:
                raise ApiError(*CANNOT_DM)
            if owner in self.outsiders and owner not in self.installed:
                raise ApiError(*NO_MUTUAL_GUILDS)
        elif channel["type"] in THREADS:
            self._require(channel_id, "send")
            self._require(int(channel["parent_id"]), "send_in_threads")
        else:
            self._require(channel_id, "send")
        body = call.body or {}
        key = (BOT_USER_ID, channel_id, str(body.get("nonce")))
        if body.get("enforce_nonce") and body.get("nonce") is not None and key in self.nonces:
            message_id, when = self.nonces[key]
            if self.now() - when <= self.nonce_window and message_id in self.messages:
                return self.messages[message_id]
        await self._reopen_for_message(channel_id)
        message = await self._post(channel_id, body, call.files)
        if body.get("nonce") is not None:
            self.nonces[key] = (int(message["id"]), self.now())
        return message

    async def _edit_channel_message(self, call: Call, cid: str, mid: str) -> Json:
        message = self._channel_message(cid, mid)
        if int(message["author"]["id"]) != BOT_USER_ID:
            raise ApiError(*CANNOT_EDIT_OTHERS)
        if self._archived(int(cid)):
            raise ApiError(*THREAD_ARCHIVED)
        return await self._update(message, call.body or {}, call.files)

    async def _channel_history(self, call: Call, cid: str) -> list[Json]:
        """A channel's messages, newest first, as Discord answers (around is not imitated):
        `limit` 1-100 (default 50), and `before` or `after` a message id."""
        self._member_channel(cid)
        try:
            limit = int(call.query.get("limit", 50))
            before = int(call.query.get("before", 0)) or None
            after = int(call.query.get("after", 0))
        except ValueError:
            raise ApiError(400, 50035, "Invalid Form Body") from None
        if not 1 <= limit <= 100:
            form = Form()
            form.number_range(("limit",), limit, 1, 100)
            form.raise_if_any()
        found = [m for m in self.messages.in_channel(int(cid))
                 if not m["flags"] & EPHEMERAL and int(m["id"]) > after
                 and (before is None or int(m["id"]) < before)]
        found.sort(key=lambda m: int(m["id"]), reverse=True)
        return found[-limit:] if after and before is None else found[:limit]

    async def _get_channel_message(self, call: Call, cid: str, mid: str) -> Json:
        return self._channel_message(cid, mid)

    async def _delete_channel_message(self, call: Call, cid: str, mid: str) -> None:
        message = self._channel_message(cid, mid)
        if self._archived(int(cid)):
            raise ApiError(*THREAD_ARCHIVED)
        if int(message["author"]["id"]) != BOT_USER_ID:
            if self.channels[int(cid)]["type"] == DM:
                raise ApiError(403, 50003, "Cannot execute action on a DM channel")
            self._require(int(cid), "manage_messages")
        await self._delete(message)

    # -- interaction answers ----------------------------------------------------------------
    def _component_message(self, record: InteractionRecord) -> Json | None:
        if record.source_message_id is None:
            return None
        return self.messages.get(record.source_message_id)

    async def _callback(self, call: Call, iid: str, token: str) -> Json | None:
        record = self.interactions.get(token)
        if record is None or str(record.id) != iid:
            raise ApiError(*UNKNOWN_INTERACTION)
        if record.callbacks:
            raise ApiError(*ALREADY_ACKNOWLEDGED)
        if self.now() - record.created > self.response_deadline:
            raise ApiError(*UNKNOWN_INTERACTION)
        body = call.body or {}
        kind, data = body.get("type"), body.get("data") or {}
        if kind == LAUNCH_ACTIVITY and record.interaction_type in LAUNCH_FROM:
            launch = self.launch_activity(record)  # oauth.py: 50039 without Activities
            record.callbacks.append(body)
            record.answered_after = self.now() - record.created
            record.answered.set()
            if call.query.get("with_response") not in ("1", "true", "True"):
                return None
            return {"interaction": {"id": str(record.id), "type": record.interaction_type,
                                    "activity_instance_id": launch.instance_id},
                    "resource": {"type": LAUNCH_ACTIVITY,
                                 "activity_instance": {"id": launch.instance_id}}}
        allowed = RESPONSES[record.interaction_type]
        source = self._component_message(record)
        if source is None:  # nothing to update
            allowed = tuple(k for k in allowed if k not in (6, 7))
        form = Form()
        if kind not in allowed:
            form.choices(("type",), allowed)
        elif kind == 8:
            limits.check_choices(form, data.get("choices"), ("data", "choices"))
        elif kind == 9:
            limits.check_modal(form, data, ("data",))
        form.raise_if_any()
        message = None
        if kind in (4, 5, 7) and record.channel_id in self.channels:
            await self._reopen_for_message(record.channel_id)
        _ROUTE.set("interaction update" if kind == 7 else "interaction response")
        if kind == 4:
            message = await self._post(record.channel_id, self._forced(record, data), call.files,
                                       interaction=record, at=("data",))
            record.original = message
        elif kind == 5:
            flags = (int(self._forced(record, data).get("flags") or 0) & EPHEMERAL) | LOADING
            message = await self._post(record.channel_id, {"flags": flags}, {},
                                       interaction=record, allow_empty=True)
            record.original = message
        elif kind == 7 and source is not None:
            message = await self._update(source, data, call.files, at=("data",))
        elif kind == 9:
            record.modal = data
        record.callbacks.append(body)
        record.answered_after = self.now() - record.created
        record.answered.set()
        if call.query.get("with_response") not in ("1", "true", "True"):
            return None
        response: Json = {"interaction": {
            "id": str(record.id), "type": record.interaction_type,
            "response_message_id": message["id"] if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL)}}
        if message is not None:
            response["resource"] = {"type": kind, "message": message}
        return response

    @staticmethod
    def _forced(record: InteractionRecord, body: Json) -> Json:
        """The body with EPHEMERAL set where the interaction's messages must be ephemeral (a
        server without the app whose member lacks USE_EXTERNAL_APPS)."""
        if not record.forced_ephemeral:
            return body
        return {**body, "flags": int(body.get("flags") or 0) | EPHEMERAL}

    def _webhook_record(self, app: str, token: str) -> InteractionRecord:
        """The interaction behind a webhook token, while the token is valid."""
        record = self.interactions.get(token)
        if record is None or app != str(APP_ID):
            raise ApiError(*UNKNOWN_WEBHOOK)
        if self.now() - record.created > self.token_lifetime:
            raise ApiError(*INVALID_WEBHOOK_TOKEN)
        if not record.callbacks or record.kind == 8:
            raise ApiError(*UNKNOWN_WEBHOOK)
        return record

    def _webhook_message(self, record: InteractionRecord, mid: str) -> Json:
        if mid == "@original":
            message = record.original
            if message is None and record.kind in (6, 7):
                message = self._component_message(record)
        else:
            message = next((m for m in record.messages() if m["id"] == mid), None)
        if message is None or int(message["id"]) not in self.messages:
            raise ApiError(*UNKNOWN_MESSAGE)
        return message

    async def _get_webhook_message(self, call: Call, app: str, token: str, mid: str) -> Json:
        return self._webhook_message(self._webhook_record(app, token), mid)

    async def _edit_webhook_message(self, call: Call, app: str, token: str, mid: str) -> Json:
        message = self._webhook_message(self._webhook_record(app, token), mid)
        return await self._update(message, call.body or {}, call.files)

    async def _delete_webhook_message(self, call: Call, app: str, token: str, mid: str) -> None:
        await self._delete(self._webhook_message(self._webhook_record(app, token), mid))

    async def _followup(self, call: Call, app: str, token: str) -> Json:
        record = self._webhook_record(app, token)
        self._channel(record.channel_id)
        if record.user_installed_only and len(record.followups) >= USER_INSTALL_FOLLOWUPS:
            raise ApiError(*MAX_FOLLOWUPS)
        await self._reopen_for_message(record.channel_id)
        message = await self._post(record.channel_id, self._forced(record, call.body or {}),
                                   call.files, interaction=record)
        record.followups.append(message)
        return message

    # -- channels, threads, users -----------------------------------------------------------
    async def _create_thread(self, call: Call, cid: str, mid: str | None = None) -> Json:
        parent = self._member_channel(cid)
        if parent["type"] not in (GUILD_TEXT, ANNOUNCEMENT):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._require(int(cid), "create_thread")
        body = call.body or {}  # its fields: checked against the description
        if mid is not None:  # the thread shares the message's id (topics/threads)
            self._channel_message(cid, mid)
            thread_id, kind = int(mid), PUBLIC_THREAD if parent["type"] == GUILD_TEXT else 10
        else:  # without a message, the type defaults to a private thread
            thread_id, kind = self.new_id(), body.get("type", PRIVATE_THREAD)
        thread = {
            "id": str(thread_id), "type": kind, "guild_id": parent["guild_id"],
            "parent_id": cid, "name": body.get("name"), "owner_id": str(BOT_USER_ID),
            "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 1, "flags": 0, "total_message_sent": 0,
            "thread_metadata": {"archived": False, "locked": False,
                                "auto_archive_duration": body.get("auto_archive_duration",
                                                                  1440),
                                "archive_timestamp": self.timestamp()},
        }
        self.channels[thread_id] = thread
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _get_channel(self, call: Call, cid: str) -> Json:
        return self._member_channel(cid)

    async def _edit_channel(self, call: Call, cid: str) -> Json:
        """Only what the bot may do: open its archived (not locked) thread again."""
        channel = self._member_channel(cid)
        body = call.body or {}
        assert set(body) <= {"archived"}, f"the imitation does not edit {sorted(body)}"
        meta = channel.get("thread_metadata")
        if meta is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if body.get("archived") is False and meta.get("archived"):
            if meta.get("locked"):
                raise ApiError(*MISSING_PERMISSIONS)
            meta["archived"] = False
            await self.dispatch("THREAD_UPDATE", channel)
        return channel

    async def _open_dm(self, call: Call) -> Json:
        user_id = int((call.body or {}).get("recipient_id") or 0)
        if user_id not in self.users:
            raise ApiError(*UNKNOWN_USER)
        return self.channels[self.dm_channel(user_id)]

    async def _get_user(self, call: Call, uid: str) -> Json:
        user = self.users.get(int(uid))
        if user is None:
            raise ApiError(*UNKNOWN_USER)
        return user
