"""The delivery worker: posts what outbox rows ask for in Discord (boards with their pictures,
notices, lobbies, DMs, digests), each exactly once.

The outbox worker (`bot/outbox_worker.py`) hands it the rows of its kinds, in order per lane,
and records how each went; this worker only talks to Discord. It sorts Discord's and the
network's failures into try again later (5xx, 429, timeouts, missing permissions: `Retry`)
and never (`Give`), and never posts a row twice: each post carries the row's nonce (Discord
returns the first message for a repeated nonce), a follow-up (which carries none) is looked
for before it is sent again, and the created message id is recorded before the row is done.

Fallbacks: a board that cannot go into a thread goes to its parent channel; a DM that cannot be
delivered is reported in the match's channel (or becomes a mention there for a turn notice); a
deleted channel ends its match.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
import orjson

from games import Phrase, get_game, phrase

from . import quick
from .ai import is_ai
from .boards import (
    allowed,
    board_buttons,
    board_controls,
    board_layout,
    board_text,
    link_button,
    result_text,
    text_of,
    tournament_button,
)
from .followups import ChannelBudget, Unsent, edit_follow_up, send_follow_up
from .interactions import Answers, fit
from .lobby import lobby_message
from .notices import notice_view
from .outbox import (
    Board,
    Digest,
    Dm,
    Lobby,
    Notice,
    Payload,
    Retire,
    TourMatch,
    TourPair,
    TourPost,
    Via,
    encode,
)
from .outbox_worker import Give, Result, Retry, Skip
from .pictures import board_card, board_picture, tournament_alt, tournament_picture
from .pool import Workers
from .quick import Bounded, ChannelHeads, Shown
from .service import Service, wrap
from .service.tournaments import link_games
from .store import LiveMessage, MatchRow, OutboxRow, Store, Tx
from .tournaments.formats import paired_json
from .ui import BOARD_FILE, IS_COMPONENTS_V2, StaticLayout, StaticView
from .web.pages import match_url, tournament_url
from .words import strings
from .words.descriptions import alt_text, view_of
from .words.i18n import Texts

log = logging.getLogger(__name__)

KINDS = ("board", "notice", "lobby", "retire", "dm", "digest", "tour", "tourmatch",
         "tourpair")
# rows delivered at once (each a different lane). A board's delivery waits on its picture and on
# Discord most of its time, so with 8 the deliveries, not the CPU, capped the boards per second
# (bench/load.py, saturated: ~150 moves/s with 8, ~200 with 32, fewer with 64)
CONCURRENCY = 32
DM_NOTE_EVERY = 86400.0  # closed DMs are noted in the channel at most once a day per user
# tries a round's pairing post waits for its games' threads (about two minutes with the
# default back-off of 1 s doubling) before it goes without the links of those not made yet
THREAD_WAITS = 7
# Discord lets a bot make 50 requests a second outside interaction answers and follow-ups;
# the outbox keeps its own (channel posts, edits, DMs) under this, leaving the rest to the
# commands' own requests, so that a burst queues here in order instead of meeting 429s
GLOBAL_RATE = 40.0
NOT_POSTED = 0  # `_retire_older(keep=...)` before the new board exists: every board goes
ANSWER_WAIT = 3.5  # seconds a board waits for its move's interaction to be answered (Discord: 3)
# follow-ups one interaction may make where Corral is not installed in the server (a DM, a
# group DM, a server that did not add it): interactions/receiving-and-responding, Create
# Followup Message
FOLLOW_UPS_PER_INTERACTION = 5


class ThreadArchived(Exception):
    """Discord refused a request in an archived thread (50083): a locked thread, which only a
    moderator can open again, or an edit in a thread that has gone quiet."""


UNKNOWN_CHANNEL = 10003
THREAD_ARCHIVED = 50083


class Pacer:
    """At most `rate` requests a second, with bursts of up to `burst`: a token bucket whose
    waiters are served in the order they came (an asyncio lock is first come, first served)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep):
        self.rate, self.burst, self.clock, self.sleep = rate, burst, clock, sleep
        self._tokens = burst
        self._at = clock()
        self._lock = asyncio.Lock()

    async def take(self) -> None:
        async with self._lock:
            self._refill()
            if self._tokens < 1:
                await self.sleep((1 - self._tokens) / self.rate)
                self._refill()
                self._tokens = max(self._tokens, 1.0)  # what accrued while we slept is ours
            self._tokens -= 1

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now


class Delivery:
    def __init__(self, client: discord.Client, store: Store, service: Service,
                 pictures: Workers, *, answers: Answers, api_base: str,
                 on_dm_closed: Callable[[int], None], clock: Callable[[], float] = time.time,
                 web_url: str | None = None, heads: ChannelHeads | None = None,
                 activity: bool = False):
        """`client` makes the requests (its REST session and rate limits); `answers` says
        whether this process answered an interaction (a board follows it up);
        `on_dm_closed(user)`: a DM could not reach this user, who is told at their next
        interaction. `clock` is the wall clock, never the match clock."""
        self.client = client
        self.store = store
        self.service = service
        self.pictures = pictures
        self.answers = answers
        self.api_base = api_base
        self.on_dm_closed = on_dm_closed
        self.clock = clock
        self.web_url = web_url  # CORRAL_WEB_URL: boards link to their match's page
        self.activity = activity  # CORRAL_ACTIVITY: running boards open it in Discord
        self._session: aiohttp.ClientSession | None = None  # follow-ups (see followups.py)
        self._pacer = Pacer(GLOBAL_RATE, burst=GLOBAL_RATE / 4)
        self._follow_ups = ChannelBudget()
        self.heads = heads  # the channels' newest messages: may a board be shown in place?
        self._shown: Bounded[int, Shown] = Bounded()  # each match's last board, by match
        # follow-ups sent per interaction token (a user-installed app may send five)
        self._spent: Bounded[str, int] = Bounded()

    async def deliver(self, row: OutboxRow, payload: Payload) -> Result:
        """Post what `row` asks for (raises `Retry`, `Give` or `Skip`)."""
        if isinstance(payload, Board):
            return await self._board(row, payload)
        if isinstance(payload, Notice):
            return await self._notice(row, payload)
        if isinstance(payload, Lobby):
            return await self._lobby(row, payload)
        if isinstance(payload, Retire):
            return await self._retire(payload)
        if isinstance(payload, Dm):
            return await self._dm(row, payload)
        if isinstance(payload, Digest):
            return await self._digest(row, payload)
        if isinstance(payload, TourPost):
            return await self._tour_post(row, payload)
        if isinstance(payload, TourMatch):
            return await self._tour_match(row, payload)
        if isinstance(payload, TourPair):
            done = await self.service.tournaments.pair_job(
                payload.tournament_id, payload.number,
                lambda data: self.pictures.run(paired_json, data))
            return {"paired": done}
        raise Give(f"not a row to deliver: {row.kind}")

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    # -- Discord calls -------------------------------------------------------------------
    async def _call(self, make: Callable[[], Awaitable[Any]]) -> Any:
        """One REST call, with Discord's and the network's failures sorted into Retry
        (5xx, 429, timeouts), Give (a request Discord will never accept) or re-raised
        (Forbidden, NotFound: the caller decides). Every such call counts against the bot's
        global limit: it waits its turn at the pacer first."""
        await self._pacer.take()
        try:
            return await asyncio.wait_for(make(), 30)
        except (discord.Forbidden, discord.NotFound):
            raise
        except discord.HTTPException as exc:
            if exc.code == THREAD_ARCHIVED:
                raise ThreadArchived(f"{exc.status} {exc.code}: {exc.text[:200]}") from None
            if exc.status >= 500 or exc.status == 429:
                raise Retry(f"{exc.status} {exc.code}: {exc.text[:200]}") from None
            raise Give(f"{exc.status} {exc.code}: {exc.text[:300]}") from None
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise Retry(f"network: {exc!r}") from None

    async def _send(self, row: OutboxRow, channel_id: int, *, key: str = "", **kwargs: Any
                    ) -> discord.Message:
        channel = self.client.get_partial_messageable(channel_id)
        nonce = f"o{row.id}{key}"[:25]
        return await self._call(lambda: channel.send(nonce=nonce, **kwargs))

    async def _send_with_fallback(self, row: OutboxRow, payload: Board | Notice | Lobby,
                                  **kwargs: Any) -> discord.Message:
        """Post in the match's channel; if a thread refuses us (permissions, or it is locked),
        post in its parent channel instead. A deleted channel ends its match (see
        `Service.channel_gone`)."""
        try:
            return await self._send(row, payload.channel_id, **kwargs)
        except (discord.Forbidden, ThreadArchived) as exc:
            parent = payload.parent_channel_id
            if not parent:
                raise Retry(f"missing permissions in the channel: {exc}") from None
            log.warning("cannot post in thread %s (%s); posting in %s", payload.channel_id,
                        exc, parent)
            for file in kwargs.get("files") or ():
                file.reset()  # the failed request read it to its end
            try:
                return await self._send(row, parent, key="p", **kwargs)
            except (discord.Forbidden, ThreadArchived) as again:
                raise Retry(f"missing permissions: {again}") from None
            except discord.NotFound as again:
                await self._channel_gone(payload, again)
                raise Give(f"not found ({again.code})") from None
        except discord.NotFound as exc:
            await self._channel_gone(payload, exc)
            raise Give(f"not found ({exc.code})") from None

    async def _channel_gone(self, payload: Board | Notice | Lobby,
                            exc: discord.NotFound) -> None:
        """A match whose channel was deleted ends (its players are told by DM)."""
        if exc.code != UNKNOWN_CHANNEL:
            return
        if await self.service.channel_gone(payload.match_id):
            log.info("the channel of match %s was deleted; the match is ended",
                     payload.match_id)
        raise Skip(f"channel {payload.channel_id} was deleted")

    async def _edit(self, channel_id: int, message_id: int, *, raw: dict[str, Any] | None = None,
                    refused_is_gone: bool = False, **kwargs: Any) -> bool:
        """Edit a message (with discord.py's `kwargs`, or a `raw` body as Discord's JSON);
        False if it no longer exists, or sits in a locked thread (or, `refused_is_gone`,
        Discord refuses it: 403). A thread that went quiet (archived) is opened again first,
        as a moderator's client does."""
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)

        def edit() -> Awaitable[Any]:
            if raw is None:
                return message.edit(**kwargs)
            return self.client.http.request(discord.http.Route(
                "PATCH", "/channels/{channel_id}/messages/{message_id}",
                channel_id=channel_id, message_id=message_id), json=raw)

        for attempt in range(2):
            try:
                await self._call(edit)
                return True
            except discord.NotFound:
                return False
            except discord.Forbidden as exc:
                if refused_is_gone:
                    log.info("cannot edit message %s in %s: 403 %s", message_id, channel_id,
                             exc.code)
                    return False
                raise Retry(f"403 {exc.code}: cannot edit {message_id}") from None
            except ThreadArchived as exc:
                if attempt or not await self._unarchive(channel_id):
                    log.info("cannot edit message %s in archived thread %s: %s", message_id,
                             channel_id, exc)
                    return False
        return False

    async def _unarchive(self, thread_id: int) -> bool:
        try:
            await self._call(lambda: self.client.http.edit_channel(thread_id, archived=False))
        except (discord.Forbidden, discord.NotFound, ThreadArchived, Give) as exc:
            log.info("cannot open archived thread %s again: %s", thread_id, exc)
            return False
        return True

    async def post(self, row: OutboxRow, channel_id: int, *, key: str = "",
                   **kwargs: Any) -> discord.Message:
        """A message another part of the bot composed (an analysis), paced and posted with
        the row's nonce (`key` tells apart the row's posts); Discord's failures sorted as for
        boards (`Retry`, `Give`; Forbidden and NotFound re-raised for the caller to decide)."""
        return await self._send(row, channel_id, key=key, **kwargs)

    async def edit_reply(self, token: str, content: str) -> bool:
        """Edit the original reply of an interaction through its token (not counted against
        the bot's global limit); False if Discord refused (the token is gone)."""
        application_id = self.client.application_id
        if application_id is None:
            return False
        try:
            await edit_follow_up(self._http(), self.api_base, application_id, token,
                                 "@original", {"content": content})
        except Unsent as exc:
            log.info("reply not edited: %s", exc)
            return False
        return True

    async def texts_for(self, guild_id: int | None) -> Texts:
        """Channel messages speak the server's language."""
        return Texts(await self.service.channel_language(guild_id))

    async def texts_and_link(self, match_row: MatchRow) -> tuple[Texts, str | None]:
        """The server's language, and the match page's URL when CORRAL_WEB_URL is set and
        the server has not turned links off (one read of the server's settings)."""
        now = await self.store.guild_settings(match_row.guild_id)
        texts = Texts(now["language"] or now["preferred_language"] or "en")
        if match_row.guild_id is None:  # a DM or group DM: the language of who opened it
            texts = Texts(await self.service.user_language(match_row.host_id))
        if self.web_url is None or not now["web_links"] or not match_row.web_token:
            return texts, None
        return texts, match_url(self.web_url, match_row.web_token)

    async def tournament_link(self, tournament_id: int, guild_id: int) -> str | None:
        """The tournament page's URL when CORRAL_WEB_URL is set and the server has not turned
        links off."""
        if self.web_url is None or not (await self.store.guild_settings(guild_id))["web_links"]:
            return None
        return await tournament_url(self.store, self.web_url, tournament_id)

    # -- boards --------------------------------------------------------------------------
    async def _board(self, row: OutboxRow, board: Board) -> Result:
        match_row = await self.store.get_match(board.match_id)
        if match_row is None:
            raise Give("the match is gone")
        texts, link = await self.texts_and_link(match_row)
        current = match_row.version == board.version and match_row.status in (
            "active", "finished")
        message_id = board.message_id
        channel_id = board.posted_in if board.posted_in is not None else board.channel_id
        unreachable = match_row.channel_id if match_row.by_interactions else None
        if message_id is not None:  # posted by an earlier try: what it was to retire, again
            retired = await self._retire_older(match_row.id, board.version, keep=message_id,
                                               unreachable=unreachable)
            return {"message_id": message_id, "channel_id": channel_id, "retired": retired}
        # a quick match shows its board again in place (bot/quick.py); the choice is written
        # down first, so that a retry edits the same message and never posts a second board.
        # Not where only interactions reach the channel: the bot sees none of its messages
        shown = self._shown.get(board.match_id)
        if (board.edits is None and current and unreachable is not None and shown is not None
                and board.via is not None and shown.token == board.via.token
                and shown.version < board.version and shown.channel_id == board.channel_id):
            # where only interactions reach, the boards one click brings (an AI's replies, a
            # die roll) replace each other: a click may make only five follow-ups
            board = dataclasses.replace(board, edits=shown.message_id)
            await self.store.together(lambda tx: tx.save_progress(row.id, encode(board)[1]),
                                      background=False)
        elif (board.edits is None and current and unreachable is None
                and await self._in_place(match_row, board, shown)):
            assert shown is not None
            board = dataclasses.replace(board, edits=shown.message_id)
            await self.store.together(lambda tx: tx.save_progress(row.id, encode(board)[1]),
                                      background=False)
        # the older boards lose their components before this one is posted, not after: else
        # a player sees the new board beside an old one still offering Play… (until the edits
        # go out, seconds when the channel's edits are rate limited). They are out of date
        # already (this row exists because the match moved on), and at most one board is live.
        retired = await self._retire_older(match_row.id, board.version,
                                           keep=board.edits or NOT_POSTED,
                                           unreachable=unreachable)
        text, mentions = board_text(board, texts, current=current)
        picture, alt, accent = await self.pictures.run(
            board_card, board.game, board.state, board.names(), result_text(board, texts),
            texts.language, board.final)
        # what the board keeps once a newer one retires it: its text and picture (and the
        # web link, which sends no click); a board out of date already is posted so
        kept = board_layout(text, alt, accent=accent,
                            buttons=[link_button(link, texts)] if link is not None else [])

        def laid_out(text: str, texts: Texts = texts, alt: str = alt,
                     live: bool = current) -> StaticLayout:
            """The board in `texts`' language; not `live`: as it stays once retired."""
            if not live:
                return board_layout(text, alt, accent=accent, buttons=[
                    link_button(link, texts)] if link is not None else [])
            match = wrap(match_row)
            mover = match.to_move()
            humans_turn = mover is None or not is_ai(mover.user_id)
            running, finished = match.status == "active", match.status == "finished"
            return board_layout(text, alt, accent=accent, controls=board_controls(
                match.game, match.state, match.id, match.ply(), running=running,
                playable=humans_turn, texts=texts), buttons=board_buttons(
                match.game, match.state, match.id, match.ply(), running=running,
                finished=finished, texts=texts, link=link, activity=self.activity))

        layout = laid_out(text)
        placed = None
        if board.edits is not None:
            placed = await self._edit_board(board, shown, picture, alt, layout=layout,
                                            allowed_mentions=allowed(mentions),
                                            through_channel=unreachable is None)
        if placed is None and unreachable is not None:
            placed = await self._board_follow_up(row, board, picture, alt, layout,
                                                 allowed(mentions))
            if placed is None:  # no interaction can carry it: the players' DMs
                result = await self._board_by_dm(row, board, match_row, texts, picture, alt,
                                                 laid_out, current)
                return {**result, "retired": retired}
        if placed is None:
            placed = await self._post_board(row, board, picture, alt, layout=layout,
                                            allowed_mentions=allowed(mentions))
        message_id, channel_id, via = placed
        board = dataclasses.replace(board, message_id=message_id, posted_in=channel_id)
        token = via.token if via else None
        token_expires = via.expires_at if via else None
        if board.edits is not None and shown is not None and shown.message_id == message_id:
            token, token_expires = shown.token, shown.token_expires  # the message's own
        live = LiveMessage(message_id, channel_id, match_row.id, "board", board.version,
                           None, token, token_expires,
                           retired=orjson.dumps(kept.to_components()).decode()) \
            if current else None
        self._shown[board.match_id] = Shown(message_id, channel_id, board.version,
                                            self.clock(), token, token_expires)
        # not background work: a click on the new board can come at once, and its move
        # takes the board's buttons away without another request only once it is recorded
        await self.store.together(functools.partial(
            self._posted, row.id, board, live, self.clock()), background=False)
        return {"message_id": message_id, "channel_id": channel_id, "retired": retired}

    async def _in_place(self, match_row: MatchRow, board: Board, shown: Shown | None) -> bool:
        """Whether this board replaces the match's last one in place (bot/quick.py): it is in
        the same channel, recent, nothing was posted after it, and everyone it is for is
        there (the player to move; every player for the final board)."""
        if (shown is None or self.heads is None or board.reposted or board.lead is not None
                or shown.channel_id != board.channel_id or shown.version >= board.version
                or self.clock() - shown.at > quick.WINDOW
                or not self.heads.quiet_since(board.channel_id, shown.message_id)):
            return False
        if board.final:
            wanted = [uid for uid, _ in board.seats]
        elif board.turn is not None:
            wanted = [board.turn]
        else:
            return False
        moved_at = await self.store.last_moves_at(match_row.id)
        now = self.service.clock()
        return all(quick.there(uid, moved_at, now) for uid in wanted)

    async def _edit_board(self, board: Board, shown: Shown | None, picture: bytes, alt: str,
                          *, layout: StaticLayout, allowed_mentions: discord.AllowedMentions,
                          through_channel: bool = True) -> tuple[int, int, Via | None] | None:
        """Show the board in place of `board.edits`: through the interaction's token where
        one still reaches the message (the clicked board is the click's @original; a board
        that was a follow-up has its own token), else as a channel edit. None: the message
        is gone, and the board is posted instead."""
        assert board.edits is not None
        message_id, channel_id = board.edits, board.channel_id
        body = {"flags": IS_COMPONENTS_V2, "components": layout.to_components(),
                "allowed_mentions": allowed_mentions.to_dict()}
        application_id = self.client.application_id
        tokens: list[tuple[str, int | str]] = []
        via = board.via
        if via is not None and via.message_id == message_id and self.clock() < via.expires_at:
            tokens.append((via.token, "@original"))
        if (shown is not None and shown.message_id == message_id and shown.token is not None
                and shown.token_expires is not None and self.clock() < shown.token_expires):
            tokens.append((shown.token, message_id))
        for token, target in tokens if application_id is not None else ():
            assert application_id is not None
            try:
                await edit_follow_up(self._http(), self.api_base, application_id, token,
                                     target, body, picture=picture, filename=BOARD_FILE,
                                     description=alt)
                return message_id, channel_id, None
            except Unsent as exc:
                if not exc.refused:
                    raise Retry(f"board edit: {exc}") from None
        if through_channel and await self._edit(channel_id, message_id, view=layout,
                                                attachments=_board_file(picture, alt),
                                                allowed_mentions=allowed_mentions):
            return message_id, channel_id, None
        return None

    async def _board_follow_up(self, row: OutboxRow, board: Board, picture: bytes, alt: str,
                               layout: StaticLayout, allowed_mentions: discord.AllowedMentions
                               ) -> tuple[int, int, Via | None] | None:
        """Where only interactions reach the channel: the board as a follow-up of its
        interaction, within Discord's five follow-ups an interaction of a user-installed app
        may make; None when it cannot go so."""
        via = board.via
        if via is None or via.channel_id != board.channel_id:
            return None
        posted = await self._follow_up(row, via, picture, alt, {
            "flags": IS_COMPONENTS_V2, "components": layout.to_components(),
            "allowed_mentions": allowed_mentions.to_dict()}, limited=True)
        return None if posted is None else (posted[0], posted[1], via)

    async def _board_by_dm(self, row: OutboxRow, board: Board, match_row: MatchRow,
                           texts: Texts, picture: bytes, alt: str,
                           laid_out: Callable[..., StaticLayout], current: bool) -> Result:
        """No interaction can carry the board to its channel (none lives, or its follow-ups
        are spent): it goes to the players' own DMs with the bot (the one to move; everyone
        at the end), playable there. A player the bot may not DM is told what they missed at
        their next interaction; the channel's board is brought up to date by the next click
        or /board there. Each in their own language."""
        recipients = ([uid for uid, _ in board.seats] if board.final
                      else [board.turn] if board.turn is not None
                      else [uid for uid, _ in board.seats])
        first: tuple[int, int] | None = None
        lives: list[LiveMessage] = []
        for index, user_id in enumerate(dict.fromkeys(u for u in recipients if not is_ai(u))):
            own = Texts(await self.service.user_language(user_id))
            png, own_alt = picture, alt
            if own.language != texts.language:
                png, own_alt, _ = await self.pictures.run(
                    board_card, board.game, board.state, board.names(),
                    result_text(board, own), own.language, board.final)
            header = own(phrase(strings.BOARD_BY_DM, match_id=board.match_id,
                                link=match_row.url))
            text = f"{header}\n{board_text(board, own, current=current)[0]}"
            kept_json = orjson.dumps(laid_out(text, own, own_alt, False).to_components()).decode()
            try:
                channel_id = await self.dm_channel(user_id)
                message = await self._send(row, channel_id, key=f"d{index}",
                                           files=_board_file(png, own_alt),
                                           view=laid_out(text, own, own_alt),
                                           allowed_mentions=discord.AllowedMentions.none())
            except discord.Forbidden:  # 50007 DMs closed, 50278 no way to DM them
                await self._missed(user_id, match_row.id)
                continue
            except discord.NotFound as exc:
                log.info("no DM for user %s: %s", user_id, exc.code)
                continue
            first = first or (message.id, message.channel.id)
            if current:
                lives.append(LiveMessage(message.id, message.channel.id, match_row.id,
                                         "board", board.version, None, retired=kept_json))
        message_id, channel_id = first or (0, match_row.channel_id)
        board = dataclasses.replace(board, message_id=message_id, posted_in=channel_id)
        now = self.clock()

        async def posted(tx: Tx) -> None:  # the row knows they are sent, with their records
            await tx.save_progress(row.id, encode(board)[1])
            for live in lives:
                await tx.add_live_message(live, now)

        await self.store.together(posted, background=False)
        return {"message_id": message_id, "channel_id": channel_id, "by_dm": first is not None}

    async def _missed(self, user_id: int, match_id: int) -> None:
        """A player the bot could not reach at all: told privately at their next interaction
        what happened in the match (`Service.take_dm_note`)."""
        async with self.store.transaction(background=True) as tx:
            await tx.set_user(user_id, dm_closed_at=self.clock(), dm_note_match=match_id)
        self.on_dm_closed(user_id)

    async def _post_board(self, row: OutboxRow, board: Board, picture: bytes, alt: str, *,
                          layout: StaticLayout, allowed_mentions: discord.AllowedMentions
                          ) -> tuple[int, int, Via | None]:
        """A board answers its move's interaction with a follow-up where it can (Discord does
        not count follow-ups against the bot's 50 requests a second; channel posts count),
        else it is posted in the channel. Returns (message id, channel id, the interaction
        whose follow-up it is)."""
        via = board.via
        if via is not None and via.channel_id == board.channel_id:
            posted = await self._follow_up(row, via, picture, alt, {
                "flags": IS_COMPONENTS_V2, "components": layout.to_components(),
                "allowed_mentions": allowed_mentions.to_dict()})
            if posted is not None:
                return posted[0], posted[1], via
        message = await self._send_with_fallback(
            row, board, files=_board_file(picture, alt), view=layout,
            allowed_mentions=allowed_mentions)
        return message.id, message.channel.id, None

    async def _follow_up(self, row: OutboxRow, via: Via, picture: bytes | None, alt: str,
                         message: dict[str, Any], *, limited: bool = False
                         ) -> tuple[int, int] | None:
        """The board as a follow-up of `via`; None when that cannot be (the token is old, the
        interaction was never answered, the channel had its share of follow-ups this minute,
        Discord refuses it), and the board goes to the channel instead. A follow-up carries
        no nonce, so a row tried before first looks for the board an earlier attempt may have
        posted with its answer lost."""
        application_id = self.client.application_id
        if self.clock() >= via.expires_at or application_id is None:
            return None
        if limited and self._spent.get(via.token, 0) >= FOLLOW_UPS_PER_INTERACTION:
            return None
        answered = await self.answers.wait(via.interaction_id, ANSWER_WAIT)
        if answered is False:
            return None
        if row.tried and not limited:  # (where only interactions reach, nothing can be read)
            found = await self._call(lambda: self._find_follow_up(via))
            if found is not None:
                return found
        if not self._follow_ups.take(via.channel_id, time.monotonic()):
            if limited:  # no other way into that channel: wait for the budget, not the DMs
                raise Retry(f"follow-ups of channel {via.channel_id} spent for this minute",
                            after=self._follow_ups.opens_in(via.channel_id,
                                                            time.monotonic()) + 0.1)
            return None
        try:
            data = await send_follow_up(self._http(), self.api_base, application_id, via.token,
                                        message, picture, BOARD_FILE, description=alt or None)
        except Unsent as exc:
            if not exc.refused:
                raise Retry(f"follow-up: {exc}") from None
            log.info("outbox row %s not sent as a follow-up (%s); sending it another way",
                     row.id, exc)
            return None
        self._spent[via.token] = self._spent.get(via.token, 0) + 1
        return int(data["id"]), int(data["channel_id"])

    def _http(self) -> aiohttp.ClientSession:
        """The session of requests made on an interaction's token (not discord.py's)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        return self._session

    async def _find_follow_up(self, via: Via) -> tuple[int, int] | None:
        """The board this interaction's follow-up posted, if there is one."""
        me = self.client.user
        channel = self.client.get_partial_messageable(via.channel_id)
        try:
            async for message in channel.history(limit=25,
                                                 after=discord.Object(via.interaction_id)):
                meta = message.interaction_metadata
                if (me is not None and message.author.id == me.id and meta is not None
                        and meta.id == via.interaction_id
                        and any(a.filename == "board.png" for a in message.attachments)):
                    return message.id, via.channel_id
        except discord.Forbidden:  # no Read Message History: better twice than never
            log.warning("cannot read channel %s to look for a board already posted",
                        via.channel_id)
        return None

    @staticmethod
    async def _posted(outbox_id: int, payload: Board | Notice, live: LiveMessage | None,
                      now: float, tx: Tx) -> None:
        """A message is posted: the row remembers it, and a live one is recorded (a board
        shown in place replaces its message's record: its version, token and what it keeps
        once retired are the new board's; a board already out of date leaves none)."""
        await tx.save_progress(outbox_id, encode(payload)[1])
        if isinstance(payload, Board) and payload.edits is not None:
            # the message shows this board now: what was recorded of the one before (its
            # version, what to keep once retired) would bring the old board back
            await tx.forget_live_message(payload.match_id, payload.edits)
        if live is not None:
            await tx.add_live_message(live, now)

    async def _retire_older(self, match_id: int, version: int,
                            text: Phrase | None = None, offer_ids: list[int] | None = None,
                            texts: Texts | None = None, keep: int | None = None,
                            unreachable: int | None = None) -> list[int]:
        """Remove the components of the match's live messages older than `version` (or of
        these offers); with `keep`, every other board too: only the newest board is live.
        Returns the messages retired; they stay recorded as live until the row is marked done
        (in that transaction), so a row cut short edits them again: an edit repeats safely.
        In the `unreachable` channel (only interactions reach it) a message whose token is
        gone keeps its components: a click on it is answered with the current board."""
        if keep is not None:  # one read for both: what is older, and every other board
            live = [m for m in await self.store.live_messages(match_id)
                    if m.message_id != keep and (m.version < version or m.kind == "board")]
        else:
            live = await self.store.live_messages(match_id, below_version=version)
        if offer_ids is not None:
            live = [m for m in await self.store.live_messages(match_id)
                    if m.offer_id in offer_ids]
        retired = []
        content = fit(texts(text)) if text is not None and texts is not None else None
        for message in live:
            body = _retired_body(message, content)
            if await self._edit_through_token(message, body):
                retired.append(message.message_id)
            elif message.channel_id != unreachable and message.message_id:
                # a board sent to a player's DM that Discord no longer lets us edit (they
                # closed their DMs) has nothing more to do
                await self._edit(message.channel_id, message.message_id, raw=body,
                                 refused_is_gone=unreachable is not None)
                retired.append(message.message_id)
        return retired

    async def _edit_through_token(self, message: LiveMessage, body: dict[str, Any]) -> bool:
        """Retire a follow-up (`body`, as Discord's JSON) through its interaction's token while
        Discord keeps it (not counted against the global limit); False: edit it through the
        channel."""
        application_id = self.client.application_id
        if (message.token is None or message.token_expires is None or application_id is None
                or self.clock() >= message.token_expires):
            return False
        try:
            await edit_follow_up(self._http(), self.api_base, application_id,
                                 message.token, message.message_id, body)
        except Unsent as exc:
            if not exc.refused:
                raise Retry(f"follow-up edit: {exc}") from None
            return False
        return True

    async def _retire(self, retire: Retire) -> Result:
        match_row = await self.store.get_match(retire.match_id)
        texts = (await self.texts_and_link(match_row))[0] if match_row else Texts("en")
        below = retire.below_version
        retired = await self._retire_older(
            retire.match_id, below if below is not None else 1 << 62,
            text=retire.text if isinstance(retire.text, Phrase) else None,
            offer_ids=list(retire.offer_ids) or None, texts=texts,
            unreachable=match_row.channel_id if match_row and match_row.by_interactions
            else None)
        return {"retired": retired}

    # -- where only interactions reach the channel ----------------------------------------
    async def _send_reaching(self, row: OutboxRow, payload: Notice | Lobby, match_row: MatchRow,
                             texts: Texts, compose: Callable[[Texts], tuple[str, Any]], *,
                             allowed_mentions: discord.AllowedMentions
                             ) -> tuple[int, int, Via | None] | None:
        """A notice or lobby of a match whose channel only interactions reach: a follow-up of
        the interaction that caused it while its token lives, else a DM to each player it is
        for (the ones it mentions, else every player), with its buttons, which work there too.
        Returns the (message id, channel id, the interaction it follows up) of the follow-up,
        or of the first DM (no interaction); None if nobody could be reached (each is told at
        their next interaction). `compose(texts)` is the message (content, view) in a
        language: the channel's, or each player's."""
        via = payload.via
        content, view = compose(texts)
        if via is not None and via.channel_id == match_row.channel_id:
            posted = await self._follow_up(row, via, None, "", {
                "content": content, "components": view.to_components(),
                "allowed_mentions": allowed_mentions.to_dict()}, limited=True)
            if posted is not None:
                return posted[0], posted[1], via
        people = list(payload.mention) or [s.user_id for s in match_row.seats]
        first = None
        for index, user_id in enumerate(dict.fromkeys(u for u in people if not is_ai(u))):
            own = Texts(await self.service.user_language(user_id))
            header = own(phrase(strings.NOTICE_BY_DM, match_id=match_row.id,
                                link=match_row.url))
            content, view = compose(own)
            try:
                channel_id = await self.dm_channel(user_id)
                message = await self._send(row, channel_id, key=f"d{index}",
                                           content=fit(f"{header}\n{content}"), view=view,
                                           allowed_mentions=discord.AllowedMentions.none())
            except discord.Forbidden:
                await self._missed(user_id, match_row.id)
                continue
            except discord.NotFound as exc:
                log.info("no DM for user %s: %s", user_id, exc.code)
                continue
            first = first or (message.id, message.channel.id, None)
        return first

    # -- notices and lobbies ---------------------------------------------------------------
    async def _notice(self, row: OutboxRow, notice: Notice) -> Result:
        match_row = await self.store.get_match(notice.match_id)
        if match_row is None:
            raise Give("the match is gone")
        texts, link = await self.texts_and_link(match_row)
        stale = match_row.version != notice.version or match_row.status != "active"

        def compose(texts: Texts) -> tuple[str, StaticView]:
            view = StaticView() if stale else notice_view(match_row.id, notice.buttons, texts)
            if link is not None and match_row.status == "finished":  # an end notice
                view.add_item(link_button(link, texts))
            return fit(text_of(notice.text, texts, notice.names())), view

        content, view = compose(texts)
        message_id = notice.message_id
        if message_id is None:
            mentions = allowed([] if stale else notice.mention)
            if match_row.by_interactions:
                sent = await self._send_reaching(row, notice, match_row, texts, compose,
                                                 allowed_mentions=mentions)
            else:
                message = await self._send_with_fallback(row, notice, content=content,
                                                         view=view, allowed_mentions=mentions)
                sent = (message.id, message.channel.id, None)
            message_id, channel_id, via = sent or (0, match_row.channel_id, None)
            notice = dataclasses.replace(notice, message_id=message_id)
            # a follow-up keeps its interaction's token: it is retired through it
            live = LiveMessage(message_id, channel_id, match_row.id, notice.live,
                               notice.version, notice.offer_id,
                               via.token if via else None, via.expires_at if via else None) \
                if notice.live and len(view.children) and message_id else None
            await self.store.together(
                functools.partial(self._posted, row.id, notice, live, self.clock()))
        return {"message_id": message_id}

    async def _lobby(self, row: OutboxRow, lobby: Lobby) -> Result:
        match_row = await self.store.get_match(lobby.match_id)
        if match_row is None or match_row.status not in ("open", "invited"):
            return {"skipped": "the lobby is closed"}
        if lobby.message_id is not None:  # posted by an earlier try
            return {"message_id": lobby.message_id}
        texts = (await self.texts_and_link(match_row))[0]
        match = wrap(match_row)
        content, view = lobby_message(match, texts)
        if match_row.by_interactions:
            sent = await self._send_reaching(row, lobby, match_row, texts,
                                             lambda texts: lobby_message(match, texts),
                                             allowed_mentions=allowed(lobby.mention))
        else:
            message = await self._send_with_fallback(
                row, lobby, content=content, view=view, allowed_mentions=allowed(lobby.mention))
            sent = (message.id, message.channel.id, None)
        if sent is None:
            return {"undelivered": True}
        via = sent[2]
        posted = dataclasses.replace(lobby, message_id=sent[0])
        async with self.store.transaction(background=True) as tx:
            await tx.save_progress(row.id, encode(posted)[1])
            await tx.add_live_message(LiveMessage(
                sent[0], sent[1], match.id, "lobby", lobby.version, None,
                via.token if via else None, via.expires_at if via else None), self.clock())
        return {"message_id": sent[0]}

    # -- direct messages -----------------------------------------------------------------
    async def dm_channel(self, user_id: int) -> int:
        """The user's DM channel id: remembered in the database (a REST call saved per DM)."""
        user = await self.store.user(user_id)
        if user.dm_channel_id is not None:
            return user.dm_channel_id
        channel = await self._call(lambda: self.client.create_dm(discord.Object(user_id)))
        async with self.store.transaction(background=True) as tx:
            await tx.set_user(user_id, dm_channel_id=channel.id)
        return int(channel.id)

    async def _dm(self, row: OutboxRow, dm: Dm) -> Result:
        texts = Texts(await self.service.user_language(dm.user_id))
        names = dm.names()
        text = dm.text
        if isinstance(text, Phrase) and dm.board_version is not None:
            text = _with_field(text, "board", await self._board_link(dm))
        content = fit(texts(text, names) if isinstance(text, Phrase) else str(text or ""))
        kwargs: dict[str, Any] = {"content": content,
                                  "allowed_mentions": discord.AllowedMentions.none()}
        if dm.picture is not None:
            png = await self.pictures.run(board_picture, dm.game, dm.picture.state,
                                          dm.picture.seat, names, None, texts.language)
            # the seat's own view in words (a DM is the seat's alone)
            alt = alt_text(dm.game, view_of(get_game(dm.game), dm.picture.state,
                                            dm.picture.seat), texts, names)
            kwargs["file"] = discord.File(io.BytesIO(png), filename="view.png",
                                          description=alt or None)
        user = await self.store.user(dm.user_id)
        try:
            channel_id = await self.dm_channel(dm.user_id)
            message = await self._send(row, channel_id, **kwargs)
        except discord.Forbidden:  # 50007 DMs closed to the bot, 50278 no way to DM them
            match_row = await self.store.get_match(dm.match_id)
            if match_row is not None and match_row.by_interactions:
                # no channel to fall back on: what they missed waits for their next click
                await self._missed(dm.user_id, match_row.id)
                return {"undelivered": True}
            noted = (user.dm_closed_at is not None
                     and self.clock() - user.dm_closed_at < DM_NOTE_EVERY)
            if dm.fallback == "mention" or (dm.fallback and not noted):
                await self._dm_failed(dm)
            return {"undelivered": True}
        except discord.NotFound as exc:
            raise Give(f"no such user or channel ({exc.code})") from None
        if user.dm_closed_at is not None:  # open again: a later failure is noted again
            async with self.store.transaction(background=True) as tx:
                await tx.set_user(dm.user_id, dm_closed_at=None)
        return {"message_id": message.id}

    async def _board_link(self, dm: Dm) -> str:
        for message in await self.store.live_messages(dm.match_id, kind="board"):
            if message.version == dm.board_version:
                match_row = await self.store.get_match(dm.match_id)
                guild = (match_row.guild_id if match_row else None) or "@me"
                return (f"https://discord.com/channels/{guild}/{message.channel_id}/"
                        f"{message.message_id}")
        return f"<#{dm.channel_id}>"

    async def _dm_failed(self, dm: Dm) -> None:
        """A turn notice becomes a mention in the channel (the outbox worker looks for it
        once this row is done). Anything else (a private view, a turn card) is told to the
        user alone, once, at their next interaction (an ephemeral follow-up: see
        `interactions.Handling`), with where to look instead."""
        if dm.fallback is None:
            return
        match_row = await self.store.get_match(dm.match_id)
        if match_row is None:
            return
        async with self.store.transaction(background=True) as tx:
            if dm.fallback == "mention":
                notice = Notice(
                    match_id=match_row.id, channel_id=match_row.channel_id,
                    parent_channel_id=match_row.parent_channel_id, seats=dm.seats,
                    text=phrase(strings.DM_TURN_FALLBACK, mention=f"<@{dm.user_id}>",
                                match_id=dm.match_id),
                    mention=(dm.user_id,), version=match_row.version)
                kind, data = encode(notice)
                await tx.enqueue(notice.lane, kind, data, self.clock())
            else:
                await tx.set_user(dm.user_id, dm_closed_at=self.clock(),
                                  dm_note_match=match_row.id)
        if dm.fallback != "mention":
            self.on_dm_closed(dm.user_id)

    async def _digest(self, row: OutboxRow, digest: Digest) -> Result:
        texts = Texts(await self.service.user_language(digest.user_id))
        lines = [texts(digest.header or "")]
        lines += [texts(line or "") for line in digest.lines]
        try:
            channel_id = await self.dm_channel(digest.user_id)
            message = await self._send(row, channel_id, content=fit("\n".join(lines)),
                                       allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:
            return {"undelivered": True}
        return {"message_id": message.id}


    # -- tournaments ---------------------------------------------------------------------
    async def _tour_post(self, row: OutboxRow, post: TourPost) -> Result:
        """A message in the tournament's thread (the sign-up message is posted once, then
        edited to the list as it is now)."""
        found = await self.store.tournament(post.tournament_id)
        if found is None:
            raise Give("the tournament is gone")
        texts = await self.texts_for(found.guild_id)
        if post.signup:
            return await self._signup(row, found.id, texts)
        content = texts(post.text) if isinstance(post.text, Phrase) else str(post.text or "")
        if post.games:
            content = link_games(content, await self._game_links(row, post, found.guild_id))
        kwargs: dict[str, Any] = {"content": fit(content),
                                  "allowed_mentions": allowed(post.mention)}
        link = await self.tournament_link(found.id, found.guild_id)
        if link is not None:
            view = StaticView()
            view.add_item(tournament_button(link, texts))
            kwargs["view"] = view
        if post.picture is not None and post.data is not None:
            png = await self.pictures.run(tournament_picture, post.picture, post.data,
                                          texts.language)
            alt = tournament_alt(post.picture, post.data, texts)
            kwargs["files"] = [discord.File(io.BytesIO(png), filename=f"{post.picture}.png",
                                            description=alt or None)]
        try:
            message = await self._send(row, post.channel_id, **kwargs)
        except discord.Forbidden as exc:
            raise Retry(f"missing permissions in the tournament thread: {exc}") from None
        except discord.NotFound as exc:
            raise Give(f"the tournament thread is gone ({exc.code})") from None
        except ThreadArchived:
            if not await self._unarchive(post.channel_id):
                raise Give("the tournament thread is locked") from None
            raise Retry("the tournament thread was archived") from None
        return {"message_id": message.id}

    async def _game_links(self, row: OutboxRow, post: TourPost, guild_id: int) -> dict[int, str]:
        """A jump link to each game's thread, by match id. The threads are made by rows of
        their own (`TourMatch`, in the matches' lanes): while some are not made yet the post
        waits for them, `THREAD_WAITS` tries at most, then goes without those links."""
        links: dict[int, str] = {}
        games = post.games or ()
        for match_id in games:
            match_row = await self.store.get_match(match_id)
            if match_row is not None and match_row.channel_id >= 0:
                links[match_id] = (f"https://discord.com/channels/{guild_id}/"
                                   f"{match_row.channel_id}")
        if len(links) < len(games) and row.attempts < THREAD_WAITS:
            raise Retry(f"{len(games) - len(links)} of its games have no thread yet")
        return links

    async def _signup(self, row: OutboxRow, tournament_id: int, texts: Texts) -> Result:
        t = await self.service.tournaments.get(tournament_id)
        content = fit(texts(self.service.tournaments.signup_text(t)))
        view = StaticView()
        if t.row.status == "signup" or (t.row.status == "running"
                                        and t.row.format in ("swiss", "pods")):
            from .cogs.tournaments import signup_buttons

            view = signup_buttons(t.id, texts)
        link = await self.tournament_link(t.id, t.row.guild_id)
        if link is not None:
            view.add_item(tournament_button(link, texts))
        none = discord.AllowedMentions.none()
        message_id = t.row.signup_message_id
        if message_id is not None and await self._edit(t.row.channel_id, message_id,
                                                       content=content, view=view):
            return {"edited": message_id}
        try:
            message = await self._send(row, t.row.channel_id, content=content, view=view,
                                       allowed_mentions=none)
        except discord.Forbidden as exc:
            raise Retry(f"missing permissions in the tournament thread: {exc}") from None
        except discord.NotFound as exc:
            raise Give(f"the tournament thread is gone ({exc.code})") from None
        async with self.store.transaction(background=True) as tx:
            await tx.set_signup_message(t.id, message.id)
        return {"message_id": message.id}

    async def _tour_match(self, row: OutboxRow, job: TourMatch) -> Result:
        """A tournament match gets its thread, then starts there (once: a match placed
        already, or ended unplaced, is left alone). The thread is remembered in the row as
        soon as it is made, so that a retry (the bot stopped before the match started, or
        starting it failed) starts the match in that thread instead of making another."""
        match_row = await self.store.get_match(job.match_id)
        if match_row is None or match_row.channel_id >= 0 or match_row.status != "open":
            return {"skipped": "placed already"}
        thread_id = job.thread_id
        if thread_id is None:
            texts = await self.texts_for(match_row.guild_id)
            name = (texts(job.name) if isinstance(job.name, Phrase)
                    else str(job.name or ""))[:100]
            try:
                thread = await self._call(lambda: self.client.http.start_thread_without_message(
                    job.parent_channel_id, name=name or "…", auto_archive_duration=10080,
                    type=discord.ChannelType.public_thread.value))
            except discord.Forbidden as exc:
                raise Retry(f"cannot create a thread: {exc}") from None
            except discord.NotFound as exc:
                raise Give(f"the tournament's channel is gone ({exc.code})") from None
            thread_id = int(thread["id"])
            made = dataclasses.replace(job, thread_id=thread_id)
            await self.store.together(lambda tx: tx.save_progress(row.id, encode(made)[1]))
        placed = await self.service.tournaments.place(job.match_id, thread_id)
        return {"thread_id": thread_id, "placed": placed}


def _board_file(picture: bytes, alt: str) -> list[discord.File]:
    """A new file per request: discord.py leaves a sent file's stream at its end."""
    return [discord.File(io.BytesIO(picture), filename=BOARD_FILE, description=alt or None)]


def _retired_body(message: LiveMessage, content: str | None) -> dict[str, Any]:
    """The edit that retires a live message: a V2 board keeps its text and picture (the
    components stored when it was posted) and loses its controls; a classic message (a notice,
    a board posted before boards were V2) loses every component, and `content`, if given,
    replaces its text (a V2 message has no content to replace)."""
    if message.retired is not None:
        return {"flags": IS_COMPONENTS_V2, "components": orjson.loads(message.retired)}
    body: dict[str, Any] = {"components": []}
    if content is not None:
        body["content"] = content
    return body


def _with_field(text: Phrase, name: str, value: Any) -> Phrase:
    return dataclasses.replace(
        text, fields=tuple((k, value if k == name else v) for k, v in text.fields))


