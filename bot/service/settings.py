"""Server settings: threads, default time per move, allowed channels, quiet spectators."""

from __future__ import annotations

from typing import Any

from games import Phrase, get_game, phrase

from ..words import strings
from ..words.i18n import LANGUAGES
from .clocks import parse_time
from .core import BadRequest, Context, Forbidden, result_phrase, wrap

CHANNEL_ACTIONS = ("allow", "disallow", "all")


class Settings:
    """A server's settings, and each user's language and DM notes."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        return await self.ctx.store.guild_settings(guild_id)

    async def update_settings(self, guild_id: int, *, is_manager: bool,
                              threads: bool | None = None, time_per_move: str | None = None,
                              spectators_talk: bool | None = None,
                              channel_id: int | None = None,
                              channel_action: str | None = None,
                              language: str | None = None,
                              web_links: bool | None = None) -> dict[str, Any]:
        """Change what was given (managers only) and return the settings as they are now."""
        if not is_manager:
            raise Forbidden(strings.SETTINGS_FORBIDDEN)
        changes: dict[str, Any] = {}
        if threads is not None:
            changes["use_threads"] = threads
        if time_per_move is not None:
            changes["move_seconds"] = parse_time(time_per_move)
        if spectators_talk is not None:
            changes["spectators_talk"] = spectators_talk
        if web_links is not None:
            changes["web_links"] = web_links
        if language is not None:
            if language not in LANGUAGES:
                raise BadRequest(strings.UNKNOWN_LANGUAGE, languages=_language_names())
            changes["language"] = language
        async with self.ctx.store.transaction() as tx:
            if channel_action == "all":
                changes["channels"] = None
            elif channel_id is not None:
                await tx.lock_guild_settings(guild_id)
                current = set((await tx.guild_settings(guild_id))["channels"] or [])
                if channel_action == "disallow":
                    current.discard(channel_id)
                else:
                    current.add(channel_id)
                changes["channels"] = sorted(current) or None
            if changes:
                await tx.update_guild_settings(guild_id, **changes)
            return await tx.guild_settings(guild_id)

    async def note_languages(self, user_id: int, user_language: str, guild_id: int | None,
                             guild_language: str | None) -> None:
        """Remember the language a user last used (their DMs follow it) and the server's
        preferred locale (its channel messages follow it unless a manager chose one)."""
        async with self.ctx.store.transaction() as tx:
            if (not await tx.language_chosen(user_id)
                    and (await tx.user(user_id)).language != user_language):
                await tx.set_user(user_id, language=user_language)
            if guild_id is not None and guild_language is not None:
                now = await tx.guild_settings(guild_id)
                if now["preferred_language"] != guild_language:
                    await tx.update_guild_settings(guild_id, preferred_language=guild_language)

    async def set_user_language(self, user_id: int, language: str) -> None:
        """A language chosen with /notify (it holds until the user's client says another)."""
        if language not in LANGUAGES:
            raise BadRequest(strings.UNKNOWN_LANGUAGE, languages=_language_names())
        async with self.ctx.store.transaction() as tx:
            await tx.set_user(user_id, language=language, language_chosen=1)

    async def take_dm_note(self, user_id: int) -> Phrase | None:
        """What to tell a user whose DMs were closed when a match tried to DM them (once: the
        first of their interactions that asks gets it), with where to look instead."""
        async with self.ctx.store.transaction() as tx:
            match_id = await tx.take_dm_note(user_id)
        if match_id is None:
            return None
        row = await self.ctx.store.get_match(match_id)
        if row is None:
            return None
        if row.by_interactions:  # nothing reached them: what they missed, as it is now
            link = row.url
            match = wrap(row)
            if match.status == "finished":
                result = result_phrase(match)
                if result is None:
                    return phrase(strings.MISSED_ENDED, match_id=match_id, link=link)
                return phrase(strings.MISSED_END, match_id=match_id, link=link, result=result)
            mover = match.to_move() if match.status == "active" else None
            if mover is not None and mover.user_id == user_id:
                hidden = match.game.info.hidden_information
                return phrase(strings.MISSED_TURN_PRIVATE if hidden else strings.MISSED_TURN,
                              match_id=match_id, link=link)
            if mover is not None:
                return phrase(strings.MISSED_MOVES, match_id=match_id, link=link,
                              name=mover.name)
        hidden = get_game(row.game).info.hidden_information
        return phrase(strings.DM_CLOSED_PRIVATE if hidden else strings.DM_CLOSED,
                      match_id=match_id, link=row.link)

    async def users_with_dm_notes(self) -> set[int]:
        return set(await self.ctx.store.users_with_dm_notes())

    async def channel_language(self, guild_id: int | None) -> str:
        now = await self.ctx.store.guild_settings(guild_id)
        return now["language"] or now["preferred_language"] or "en"

    async def user_language(self, user_id: int) -> str:
        return (await self.ctx.store.user(user_id)).language or "en"

    async def may_talk(self, channel_id: int, user_id: int, guild_id: int | None) -> bool:
        """In a match thread whose server keeps spectators quiet, only players may talk."""
        row = await self.ctx.store.live_match_in(channel_id)
        if row is None or not row.in_thread:
            return True
        if (await self.ctx.store.guild_settings(guild_id))["spectators_talk"]:
            return True
        return row.seat_of(user_id) is not None


def _language_names() -> tuple[Phrase, ...]:
    """The languages Corral speaks, by name ("English, Japanese"; 英語、日本語)."""
    return tuple(phrase(strings.LANGUAGE_NAMES[language]) for language in LANGUAGES)
