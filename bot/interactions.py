"""Answering interactions: one error handler for commands and components (`Handling`),
replies that fit Discord's limits, and logs that say which command, user and match they are
about.

A refusal (`ServiceError`) becomes a short ephemeral answer in the user's language and changes
nothing; an unexpected error is logged with its context and answered with the bot's own
message, never Discord's "This interaction failed".
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

import discord
from discord import app_commands

from games import Phrase

from .outbox import ANSWERING, Via
from .service import Player, Service, ServiceError
from .words import strings
from .words.i18n import Texts, language_of

# the handlers need nothing of the client but what discord.py gives every client: what they
# use is handed to them when they are registered (see bot/cogs/__init__.py)
Interaction = discord.Interaction[discord.Client]
Tree = app_commands.CommandTree[discord.Client]

log = logging.getLogger("bot.interactions")
# the largest integer Discord takes as an option's max_value (2^53 - 1): one more and the whole
# command sync is refused with 50035, and no command appears on any server
MAX_MATCH_ID = 2**53 - 1
CONTEXT: contextvars.ContextVar[str] = contextvars.ContextVar("corral_context", default="-")


class ContextFilter(logging.Filter):
    """Adds `ctx` (command, user, match) to every log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.ctx = CONTEXT.get()
        return True


# Discord keeps an interaction's token for 15 minutes; a follow-up is sent only within 14
TOKEN_LIFETIME = 14 * 60.0
MAX_CONTENT = 2000  # characters in a message's content


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """Discord refuses longer messages: cut at a line end where possible."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 1)
    return (text[:cut] if cut > limit // 2 else text[:limit - 1]) + "…"


def via(interaction: Interaction) -> Via | None:
    """The interaction as the change it causes may answer it (see `Via`); None where its
    answers would be seen by its author alone (a server that keeps external apps private):
    what the change shows then goes another way."""
    if interaction.channel_id is None or not may_post_publicly(interaction):
        return None
    message = interaction.message
    clicked = message.id if message is not None and not message.flags.ephemeral else None
    return Via(interaction.id, interaction.token, interaction.channel_id,
               time.time() + TOKEN_LIFETIME, clicked)


def reach_of(interaction: Interaction) -> str:
    """How the bot reaches the channel the interaction came from (`MatchRow.reach`): a DM or
    group DM between users, or a server that did not install Corral (its users did), can be
    answered only through interactions; elsewhere (a server with Corral in it, the bot's own
    DM) the bot posts itself. Discord says which in `context` and
    `authorizing_integration_owners` (interactions/receiving-and-responding)."""
    if interaction.context.private_channel:
        return "interactions"
    if interaction.guild_id is not None and not interaction.is_guild_integration():
        return "interactions"
    return "channel"


def may_post_publicly(interaction: Interaction) -> bool:
    """Whether Discord shows the app's answers here to everyone: in a server that did not
    install Corral, only while the server lets its members use external apps
    (USE_EXTERNAL_APPS, 1 << 50); else every answer is ephemeral to the one who asked
    (change-log, June 2024: user-installed apps' general availability)."""
    if interaction.guild_id is None or interaction.is_guild_integration():
        return True
    return bool(interaction.permissions.use_external_apps)


class Answers:
    """Whether this process answered an interaction. Discord refuses a follow-up (10015)
    until the interaction's first answer is in, and the delivery worker may be ready to post
    a move's board before the command that made the move has answered; it waits here."""

    KEEP = 1000  # entries kept for interactions nobody asked about (a command with no board)

    def __init__(self) -> None:
        self._events: dict[int, asyncio.Event] = {}
        self._answered: dict[int, bool] = {}

    def begin(self, interaction_id: int) -> None:
        if len(self._events) >= self.KEEP:  # the oldest first: dicts keep insertion order
            for old in list(self._events)[: self.KEEP // 2]:
                self._events.pop(old, None)
                self._answered.pop(old, None)
        self._events[interaction_id] = asyncio.Event()

    def end(self, interaction_id: int, answered: bool) -> None:
        event = self._events.get(interaction_id)
        if event is not None:
            self._answered[interaction_id] = answered
            event.set()

    async def wait(self, interaction_id: int, within: float) -> bool | None:
        """True once answered, False if the handler finished without an answer (or took
        longer than `within` seconds), None if this process never saw the interaction
        (another shard process handled it, or a restart came between)."""
        event = self._events.get(interaction_id)
        if event is None:
            return None
        try:
            await asyncio.wait_for(event.wait(), within)
        except TimeoutError:
            return False
        return self._answered.get(interaction_id, False)


def texts_for(interaction: Interaction) -> Texts:
    """The language of the user's Discord client."""
    locale = getattr(interaction, "locale", None)
    return Texts(language_of(getattr(locale, "value", None) or str(locale or "")))


def describe(interaction: Interaction) -> str:
    data: Mapping[str, Any] = interaction.data or {}
    if interaction.type == discord.InteractionType.application_command:
        return f"/{data.get('name', '?')}"
    if interaction.type == discord.InteractionType.autocomplete:
        return f"/{data.get('name', '?')} (autocomplete)"
    return f"component {str(data.get('custom_id', '?'))[:100]}"


@contextlib.contextmanager
def context(interaction: Interaction, what: str | None = None,
            match_id: int | None = None) -> Any:
    token = CONTEXT.set(f"{what or describe(interaction)} user={interaction.user.id}"
                        f" channel={interaction.channel_id} match={match_id or '-'}")
    try:
        yield
    finally:
        CONTEXT.reset(token)


def note_match(match_id: int) -> None:
    """Add the match to the log context once it is known."""
    current = CONTEXT.get()
    if "match=-" in current:
        CONTEXT.set(current.replace("match=-", f"match={match_id}"))


async def reply(interaction: Interaction, text: str | Phrase, *, ephemeral: bool = True,
                **kwargs: Any) -> None:
    """Answer (or follow up on) an interaction, within Discord's limits; mentions in a reply
    never ping unless the caller says so."""
    content = fit(texts_for(interaction)(text) if isinstance(text, Phrase) else text)
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
    elif (interaction.response.type == discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get("answered")):
        # the answer to a deferred command replaces its "thinking…" message
        interaction.extras["answered"] = True
        file = kwargs.pop("file", None)
        files = kwargs.pop("files", None)
        if file is not None or files:
            kwargs["attachments"] = [file] if file is not None else files
        await interaction.edit_original_response(content=content, **kwargs)
    else:
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)


class Handling:
    """The one error handler, as `async with handling(interaction):` around every command's
    and component's work; it also notes the languages the user and the server speak, says
    which interactions were answered (`answers`: a board may follow one up), and tells a
    user whose DMs are closed to the bot where to look instead, once (`dm_notes`)."""

    def __init__(self, service: Service, answers: Answers | None = None):
        self.service = service
        self.answers = answers or Answers()
        # users to tell privately, at their next interaction, that a DM could not reach them
        # (the store has the truth; the client refreshes this copy with every clock tick)
        self.dm_notes: set[int] = set()
        self._seen_languages: dict[tuple[int, int | None], tuple[str, str | None]] = {}

    @contextlib.asynccontextmanager
    async def __call__(self, interaction: Interaction,
                       what: str | None = None) -> AsyncIterator[None]:
        """The refusals answered in the user's terms, failures logged with their context and
        answered with the bot's own message."""
        self.answers.begin(interaction.id)
        # where only interactions reach the channel, what this change posts there follows
        # this interaction up (outbox.ANSWERING)
        answering = ANSWERING.set(via(interaction) if reach_of(interaction) == "interactions"
                                  else None)
        with context(interaction, what):
            try:
                # first, what the channel and the DMs will speak (a board may be posted before
                # this interaction is answered); read once per user and server in this process
                await self._note_languages(interaction)
                yield
            except ServiceError as exc:
                log.info("refused: %s", exc)
                await _safe_reply(interaction, texts_for(interaction)(exc.phrase))
            except discord.NotFound as exc:
                if exc.code in (10062, 10015):  # answered too late: Discord forgot it
                    log.warning("interaction expired before it was answered (%s)", exc.code)
                else:
                    log.exception("Discord refused a request")
                    await _safe_reply(interaction,
                                      texts_for(interaction)(strings.INTERNAL_ERROR))
            except Exception:
                log.exception("interaction failed")
                await _safe_reply(interaction, texts_for(interaction)(strings.INTERNAL_ERROR))
            finally:
                self.answers.end(interaction.id, interaction.response.is_done())
                ANSWERING.reset(answering)
            if interaction.user.id in self.dm_notes and interaction.response.is_done():
                await self._tell_dm_note(interaction)

    def dm_closed(self, user_id: int) -> None:
        """A DM could not reach this user: they are told at their next interaction."""
        self.dm_notes.add(user_id)

    async def _tell_dm_note(self, interaction: Interaction) -> None:
        """A DM could not reach this user (their DMs are closed to the bot): say so to them
        alone, once, with where to look instead."""
        self.dm_notes.discard(interaction.user.id)
        try:
            note = await self.service.take_dm_note(interaction.user.id)
            if note is not None:
                await interaction.followup.send(
                    fit(texts_for(interaction)(note)), ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())
        except Exception:  # a note lost costs little; it must not turn into an error answer
            log.warning("could not tell user %s that their DMs are closed",
                        interaction.user.id, exc_info=True)

    async def _note_languages(self, interaction: Interaction) -> None:
        """Remember the user's language (their DMs) and the server's preferred
        locale (its channel messages). Written only when it changed since this process last
        looked; a failure here costs nothing but a stale language."""
        user_language = texts_for(interaction).language
        guild_locale = getattr(interaction, "guild_locale", None)
        guild_language = (language_of(getattr(guild_locale, "value", None) or str(guild_locale))
                          if guild_locale is not None else None)
        key = (interaction.user.id, interaction.guild_id)
        if self._seen_languages.get(key) == (user_language, guild_language):
            return
        try:
            await self.service.note_languages(
                interaction.user.id, user_language, interaction.guild_id, guild_language)
            if len(self._seen_languages) > 10_000:
                self._seen_languages.clear()
            self._seen_languages[key] = (user_language, guild_language)
        except Exception:
            log.warning("could not store the languages of user %s", interaction.user.id)


async def _safe_reply(interaction: Interaction, text: str) -> None:
    try:
        await reply(interaction, text)
    except discord.HTTPException as exc:
        log.warning("could not answer the interaction: %s", exc)


def is_manager(interaction: Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def player(user: discord.abc.User) -> Player:
    """The service's name for a Discord user."""
    return Player(user.id, display_name(user))


def display_name(user: discord.abc.User) -> str:
    """A name to show; control characters removed, at most 64 characters."""
    name = getattr(user, "display_name", None) or user.name
    clean = "".join(ch for ch in str(name) if ch.isprintable())
    return (clean or str(user.id))[:64]
