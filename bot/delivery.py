"""The delivery worker: sends what the outbox holds, in order per lane, exactly once.

Every change writes its outbox rows in its own transaction; this worker posts them (boards with
their pictures, notices, lobbies, DMs), survives restarts (pending rows are simply still
pending), retries with backoff on 5xx, 429, timeouts and permission errors, and never posts a
row twice: each post carries the row's nonce (Discord returns the first message for a repeated
nonce) and the created message id is recorded before the row is marked done.

Fallbacks: a board that cannot go into a thread goes to its parent channel; a DM that cannot be
delivered is reported in the match's channel (or becomes a mention there for a turn notice).
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from games import Phrase, phrase

from . import strings
from .ai import ai_level, ai_move_job, is_ai, random_move, seed_for
from .boards import allowed, board_text, board_view, fit, names_of, phrase_text, result_text
from .followups import ChannelBudget, Unsent, edit_follow_up, send_follow_up
from .i18n import Texts, phrase_from_json, phrase_to_json
from .pictures import board_picture
from .service import ServiceError, Via, wrap
from .store import LiveMessage, OutboxRow, Store, Tx
from .ui import StaticView, button

if TYPE_CHECKING:
    from .client import CorralBot

log = logging.getLogger(__name__)

BATCH = 16
# rows delivered at once (each a different lane). A board's delivery waits on its picture and on
# Discord most of its time, so with 8 the deliveries, not the CPU, capped the boards per second
# (bench/load.py, saturated: ~150 moves/s with 8, ~200 with 32, fewer with 64)
CONCURRENCY = 32
LEASE = 120.0  # seconds a claimed row is ours before another worker may take it
MAX_ATTEMPTS = 60
PRUNE_AFTER = 7 * 86400.0
DM_NOTE_EVERY = 86400.0  # closed DMs are noted in the channel at most once a day per user
# Discord lets a bot make 50 requests a second outside interaction answers and follow-ups;
# the outbox keeps its own (channel posts, edits, DMs) under this, leaving the rest to the
# commands' own requests, so that a burst queues here in order instead of meeting 429s
GLOBAL_RATE = 40.0
ANSWER_WAIT = 3.5  # seconds a board waits for its move's interaction to be answered (Discord: 3)


class Retry(Exception):
    """Try this row again later (Discord or the network failed)."""


class Give(Exception):
    """This row can never be delivered (logged, then marked failed)."""


class Skip(Exception):
    """This row has nothing left to deliver to (its channel was deleted): marked done."""


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
    def __init__(self, bot: CorralBot, store: Store, clock: Callable[[], float] = time.time,
                 worker_id: str = "main", retry_seconds: float = 1.0):
        """`clock` is the wall clock of retries and leases, never the match clock (which tests
        and replays may set)."""
        self.retry_seconds = retry_seconds
        self.bot = bot
        self.store = store
        self.clock = clock
        self.worker_id = worker_id
        self._wake = asyncio.Event()
        self._stopping = False
        self._in_flight: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sem = asyncio.Semaphore(CONCURRENCY)
        self._session: aiohttp.ClientSession | None = None  # follow-ups (see followups.py)
        self._pacer = Pacer(GLOBAL_RATE, burst=GLOBAL_RATE / 4)
        self._follow_ups = ChannelBudget()

    def wake(self) -> None:
        self._wake.set()

    async def run(self) -> None:
        """Deliver until stopped; wakes when a change commits, or when a retry comes due."""
        async with self.store.transaction(background=True) as tx:
            await tx.release_claims(self.worker_id)  # rows a previous run of ours held
            await tx.prune_outbox(self.clock() - PRUNE_AFTER)
        while not self._stopping:
            self._wake.clear()
            try:
                started = await self.dispatch()
            except Exception:
                log.exception("outbox dispatch failed")
                started = 0
            if started:
                continue
            due = await self.store.next_outbox_due()
            timeout = 5.0 if due is None else max(0.05, min(5.0, due - self.clock()))
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except TimeoutError:
                pass

    async def dispatch(self) -> int:
        """Start the due head of every lane not already being delivered."""
        now = self.clock()
        started = 0
        rows = [row for row in await self.store.pending_outbox(now, BATCH)
                if row.lane not in self._in_flight]
        if not rows:
            return 0
        async with self.store.transaction(background=True) as tx:  # one lease for the batch
            claimed = await tx.claim_outbox_rows([row.id for row in rows], self.worker_id,
                                                 now + LEASE, now)
        for row in rows:
            if row.id not in claimed:
                continue
            self._in_flight.add(row.lane)
            task = asyncio.create_task(self._deliver(row), name=f"outbox-{row.id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            started += 1
        return started

    async def stop(self, grace: float = 3.0) -> None:
        """Let deliveries in flight finish for a moment; what is left stays pending."""
        self._stopping = True
        self._wake.set()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=grace)
        for task in list(self._tasks):
            task.cancel()
        if self._session is not None:
            await self._session.close()


    async def _deliver(self, row: OutboxRow) -> None:
        try:
            async with self._sem:
                handler = self._handlers().get(row.kind)
                if handler is None:
                    raise Give(f"unknown outbox kind {row.kind}")
                result = await handler(row)
            retired = result.get("retired", ()) if isinstance(result, dict) else ()
            now = self.clock()
            await self.store.together(
                lambda tx: tx.finish_outbox(row.id, now, result, retired=retired))
        except Retry as exc:
            await self._retry(row, str(exc))
        except Give as exc:
            log.error("outbox row %s (%s) given up: %s", row.id, row.kind, exc)
            async with self.store.transaction(background=True) as tx:
                await tx.finish_outbox(row.id, self.clock(), status="failed", error=str(exc))
        except Skip as exc:
            log.info("outbox row %s (%s) skipped: %s", row.id, row.kind, exc)
            async with self.store.transaction(background=True) as tx:
                await tx.finish_outbox(row.id, self.clock(), {"skipped": str(exc)})
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug: keep the row, retry later, log it
            log.exception("outbox row %s (%s) failed", row.id, row.kind)
            await self._retry(row, repr(exc))
        finally:
            self._in_flight.discard(row.lane)
            self.wake()

    async def _retry(self, row: OutboxRow, error: str) -> None:
        attempts = row.attempts + 1
        async with self.store.transaction(background=True) as tx:
            if attempts >= MAX_ATTEMPTS:
                log.error("outbox row %s (%s) failed %s times: %s", row.id, row.kind,
                          attempts, error)
                await tx.finish_outbox(row.id, self.clock(), status="failed", error=error)
                return
            delay = min(300.0, self.retry_seconds * 2 ** min(attempts - 1, 10))
            log.warning("outbox row %s (%s) will be retried in %.1fs: %s", row.id, row.kind,
                        delay, error)
            await tx.retry_outbox(row.id, self.clock() + delay, error)

    def _handlers(self) -> dict[str, Callable[[OutboxRow], Awaitable[Any]]]:
        return {"board": self._board, "notice": self._notice, "lobby": self._lobby,
                "retire": self._retire, "dm": self._dm, "digest": self._digest,
                "ai": self._ai_turn}

    async def _ai_turn(self, row: OutboxRow) -> dict[str, Any]:
        """An AI seat's move: a short pause (a move at once reads as a glitch), the search in
        an AI worker from the stored state, then the normal move path. A stale row (the
        match moved on, e.g. this row is a repeat after a restart) does nothing."""
        payload = row.payload
        # the pause, in which the AI's workers start if this is the first AI turn
        await asyncio.gather(asyncio.sleep(self.bot.settings.ai_pause),
                             self.bot.ai_workers.warm(), return_exceptions=True)
        match = await self.bot.service.get(payload["match_id"])
        mover = match.to_move()
        if (match.status != "active" or match.ply() != payload["ply"] or mover is None
                or mover.user_id != payload["user_id"] or match.row.state is None):
            return {"stale": True}
        level = ai_level(mover.user_id)
        seed = seed_for(match.id, match.ply())
        try:
            notation, searched = await self.bot.ai_workers.run(
                ai_move_job, match.game.id, match.row.state, mover.seat, level, seed)
        except Exception:  # the worker died: never let the match stall
            log.exception("AI worker failed in match %s; playing a random legal move", match.id)
            notation, searched = random_move(match.game.id, match.row.state, seed), False
        if not searched:
            log.warning("match %s: the AI played a random legal move (%s)", match.id, notation)
        try:
            await self.bot.service.play(match.id, mover.user_id, notation,
                                        expected_ply=payload["ply"],
                                        via=Via.from_json(payload.get("via")))
        except ServiceError as exc:  # e.g. a takeback or resignation meanwhile
            log.info("AI move in match %s not played: %s", match.id, exc)
            return {"stale": True}
        return {"played": notation, "searched": searched}

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
        channel = self.bot.get_partial_messageable(channel_id)
        nonce = f"o{row.id}{key}"[:25]
        return await self._call(lambda: channel.send(nonce=nonce, **kwargs))

    async def _send_with_fallback(self, row: OutboxRow, payload: dict[str, Any], **kwargs: Any
                                  ) -> discord.Message:
        """Post in the match's channel; if a thread refuses us (permissions, or it is locked),
        post in its parent channel instead. A deleted channel ends its match (see
        `Service.channel_gone`)."""
        try:
            return await self._send(row, payload["channel_id"], **kwargs)
        except (discord.Forbidden, ThreadArchived) as exc:
            parent = payload.get("parent_channel_id")
            if not parent:
                raise Retry(f"missing permissions in the channel: {exc}") from None
            log.warning("cannot post in thread %s (%s); posting in %s", payload["channel_id"],
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

    async def _channel_gone(self, payload: dict[str, Any], exc: discord.NotFound) -> None:
        """A match whose channel was deleted ends (its players are told by DM)."""
        if exc.code != UNKNOWN_CHANNEL:
            return
        match_id = payload.get("match_id")
        if match_id is not None and await self.bot.service.channel_gone(match_id):
            log.info("the channel of match %s was deleted; the match is ended", match_id)
        raise Skip(f"channel {payload['channel_id']} was deleted")

    async def _edit(self, channel_id: int, message_id: int, **kwargs: Any) -> bool:
        """Edit a message; False if it no longer exists, or sits in a locked thread. A thread
        that went quiet (archived) is opened again first, as a moderator's client does."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        for attempt in range(2):
            try:
                await self._call(lambda: message.edit(**kwargs))
                return True
            except discord.NotFound:
                return False
            except discord.Forbidden as exc:
                raise Retry(f"403 {exc.code}: cannot edit {message_id}") from None
            except ThreadArchived as exc:
                if attempt or not await self._unarchive(channel_id):
                    log.info("cannot edit message %s in archived thread %s: %s", message_id,
                             channel_id, exc)
                    return False
        return False

    async def _unarchive(self, thread_id: int) -> bool:
        try:
            await self._call(lambda: self.bot.http.edit_channel(thread_id, archived=False))
        except (discord.Forbidden, discord.NotFound, ThreadArchived, Give) as exc:
            log.info("cannot open archived thread %s again: %s", thread_id, exc)
            return False
        return True

    async def texts_for(self, guild_id: int | None) -> Texts:
        """Channel messages speak the server's language."""
        return Texts(await self.bot.service.channel_language(guild_id))

    # -- boards --------------------------------------------------------------------------
    async def _board(self, row: OutboxRow) -> dict[str, Any]:
        payload = row.payload
        match_row = await self.store.get_match(payload["match_id"])
        if match_row is None:
            raise Give("the match is gone")
        texts = await self.texts_for(match_row.guild_id)
        current = match_row.version == payload["version"] and match_row.status in (
            "active", "finished")
        message_id = payload.get("message_id")
        channel_id = payload.get("posted_in", payload["channel_id"])
        if message_id is None:
            content, mentions = board_text(payload, texts, current=current)
            picture = await self.bot.workers.run(
                board_picture, payload["game"], payload["state"], None, names_of(payload),
                result_text(payload, texts), texts.language)
            view = StaticView()
            if current:
                match = wrap(match_row)
                mover = match.to_move()
                humans_turn = mover is None or not is_ai(mover.user_id)
                view = board_view(match.game, match.state, match.id, match.ply(),
                                  running=match.status == "active", playable=humans_turn,
                                  finished=match.status == "finished", texts=texts)
            message_id, channel_id, via = await self._post_board(
                row, payload, picture, content=content, view=view,
                allowed_mentions=allowed(mentions))
            payload = {**payload, "message_id": message_id, "posted_in": channel_id}
            live = LiveMessage(message_id, channel_id, match_row.id, "board", payload["version"],
                               None, via.token if via else None,
                               via.expires_at if via else None) if current else None
            # not background work: a click on the new board can come at once, and its move
            # takes the board's buttons away without another request only once it is recorded
            await self.store.together(functools.partial(
                self._posted, row.id, payload, live, self.clock()), background=False)
        retired = await self._retire_older(match_row.id, payload["version"], keep=message_id)
        return {"message_id": message_id, "channel_id": channel_id, "retired": retired}

    async def _post_board(self, row: OutboxRow, payload: dict[str, Any], picture: bytes, *,
                          content: str, view: StaticView, allowed_mentions: discord.AllowedMentions
                          ) -> tuple[int, int, Via | None]:
        """A board answers its move's interaction with a follow-up where it can (Discord does
        not count follow-ups against the bot's 50 requests a second; channel posts count),
        else it is posted in the channel. Returns (message id, channel id, the interaction
        whose follow-up it is)."""
        via = Via.from_json(payload.get("via"))
        if via is not None and via.channel_id == payload["channel_id"]:
            posted = await self._follow_up(row, via, picture, {
                "content": content, "components": view.to_components(),
                "allowed_mentions": allowed_mentions.to_dict()})
            if posted is not None:
                return posted[0], posted[1], via
        message = await self._send_with_fallback(
            row, payload, files=_board_file(picture), content=content, view=view,
            allowed_mentions=allowed_mentions)
        return message.id, message.channel.id, None

    async def _follow_up(self, row: OutboxRow, via: Via, picture: bytes,
                         message: dict[str, Any]) -> tuple[int, int] | None:
        """The board as a follow-up of `via`; None when that cannot be (the token is old, the
        interaction was never answered, the channel had its share of follow-ups this minute,
        Discord refuses it), and the board goes to the channel instead. A follow-up carries
        no nonce, so a row tried before first looks for the board an earlier attempt may have
        posted with its answer lost."""
        application_id = self.bot.application_id
        if self.clock() >= via.expires_at or application_id is None:
            return None
        answered = await self.bot.answers.wait(via.interaction_id, ANSWER_WAIT)
        if answered is False:
            return None
        if row.tried:
            found = await self._call(lambda: self._find_follow_up(via))
            if found is not None:
                return found
        if not self._follow_ups.take(via.channel_id, time.monotonic()):
            return None
        try:
            data = await send_follow_up(self._http(), self.bot.settings.api_base,
                                        application_id, via.token, message, picture,
                                        "board.png")
        except Unsent as exc:
            if not exc.refused:
                raise Retry(f"follow-up: {exc}") from None
            log.info("board of outbox row %s not sent as a follow-up (%s); posting it",
                     row.id, exc)
            return None
        return int(data["id"]), int(data["channel_id"])

    def _http(self) -> aiohttp.ClientSession:
        """The session of requests made on an interaction's token (not discord.py's)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        return self._session

    async def _find_follow_up(self, via: Via) -> tuple[int, int] | None:
        """The board this interaction's follow-up posted, if there is one."""
        me = self.bot.user
        channel = self.bot.get_partial_messageable(via.channel_id)
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
    async def _posted(outbox_id: int, payload: dict[str, Any], live: LiveMessage | None,
                      now: float, tx: Tx) -> None:
        """A message is posted: the row remembers it, and a live one is recorded."""
        await tx.save_progress(outbox_id, payload)
        if live is not None:
            await tx.add_live_message(live, now)

    async def _retire_older(self, match_id: int, version: int,
                            text: Phrase | None = None, offer_ids: list[int] | None = None,
                            texts: Texts | None = None, keep: int | None = None) -> list[int]:
        """Remove the components of the match's live messages older than `version` (or of
        these offers); with `keep`, every other board too: only the newest board is live.
        Returns the messages retired; they stay recorded as live until the row is marked done
        (in that transaction), so a row cut short edits them again: an edit repeats safely."""
        if keep is not None:  # one read for both: what is older, and every other board
            live = [m for m in await self.store.live_messages(match_id)
                    if m.version < version or (m.kind == "board" and m.message_id != keep)]
        else:
            live = await self.store.live_messages(match_id, below_version=version)
        if offer_ids is not None:
            live = [m for m in await self.store.live_messages(match_id)
                    if m.offer_id in offer_ids]
        retired = []
        content = fit(texts(text)) if text is not None and texts is not None else None
        for message in live:
            if not await self._edit_through_token(message, content):
                kwargs: dict[str, Any] = {"view": None}
                if content is not None:
                    kwargs["content"] = content
                await self._edit(message.channel_id, message.message_id, **kwargs)
            retired.append(message.message_id)
        return retired

    async def _edit_through_token(self, message: LiveMessage, content: str | None) -> bool:
        """Take a follow-up's components away through its interaction's token while Discord
        keeps it (not counted against the global limit); False: edit it through the channel."""
        application_id = self.bot.application_id
        if (message.token is None or message.token_expires is None or application_id is None
                or self.clock() >= message.token_expires):
            return False
        body: dict[str, Any] = {"components": []}
        if content is not None:
            body["content"] = content
        try:
            await edit_follow_up(self._http(), self.bot.settings.api_base, application_id,
                                 message.token, message.message_id, body)
        except Unsent as exc:
            if not exc.refused:
                raise Retry(f"follow-up edit: {exc}") from None
            return False
        return True

    async def _retire(self, row: OutboxRow) -> dict[str, Any]:
        payload = row.payload
        match_row = await self.store.get_match(payload["match_id"])
        texts = await self.texts_for(match_row.guild_id if match_row else None)
        text = phrase_from_json(payload.get("text"))
        below = payload.get("below_version")
        offers = payload.get("offer_ids") or None
        retired = await self._retire_older(
            payload["match_id"], below if below is not None else 1 << 62,
            text=text if isinstance(text, Phrase) else None, offer_ids=offers, texts=texts)
        return {"retired": retired}

    # -- notices and lobbies ---------------------------------------------------------------
    async def _notice(self, row: OutboxRow) -> dict[str, Any]:
        payload = row.payload
        match_row = await self.store.get_match(payload["match_id"])
        if match_row is None:
            raise Give("the match is gone")
        texts = await self.texts_for(match_row.guild_id)
        content = fit(phrase_text(payload["text"], texts, names_of(payload)))
        stale = match_row.version != payload["version"] or match_row.status != "active"
        view = StaticView()
        if not stale:
            for spec in payload.get("buttons") or ():
                if spec["kind"] == "claim":
                    label = strings.BUTTON_SKIP if spec.get("skip") else strings.BUTTON_CLAIM
                    view.add_item(button(texts(label), f"c1:c:{match_row.id}:{spec['version']}",
                                         style=discord.ButtonStyle.danger))
                elif spec["kind"] == "offer":
                    view.add_item(button(texts(strings.BUTTON_ACCEPT),
                                         f"c1:o:{spec['offer_id']}:a",
                                         style=discord.ButtonStyle.success))
                    view.add_item(button(texts(strings.BUTTON_DECLINE),
                                         f"c1:o:{spec['offer_id']}:d",
                                         style=discord.ButtonStyle.secondary))
        message_id = payload.get("message_id")
        if message_id is None:
            message = await self._send_with_fallback(
                row, payload, content=content, view=view,
                allowed_mentions=allowed([] if stale else payload.get("mention") or []))
            message_id = message.id
            payload = {**payload, "message_id": message_id}
            live = LiveMessage(message_id, message.channel.id, match_row.id, payload["live"],
                               payload["version"], payload.get("offer_id")) \
                if payload.get("live") and len(view.children) else None
            await self.store.together(
                functools.partial(self._posted, row.id, payload, live, self.clock()))
        return {"message_id": message_id}

    async def _lobby(self, row: OutboxRow) -> dict[str, Any]:
        from .lobby import lobby_message

        payload = row.payload
        match_row = await self.store.get_match(payload["match_id"])
        if match_row is None or match_row.status not in ("open", "invited"):
            return {"skipped": "the lobby is closed"}
        texts = await self.texts_for(match_row.guild_id)
        match = wrap(match_row)
        content, view = lobby_message(match, texts)
        message = await self._send_with_fallback(
            row, payload, content=content, view=view,
            allowed_mentions=allowed(payload.get("mention") or []))
        async with self.store.transaction(background=True) as tx:
            await tx.add_live_message(LiveMessage(message.id, message.channel.id, match.id,
                                                  "lobby", payload["version"], None),
                                      self.clock())
        return {"message_id": message.id}

    # -- direct messages -----------------------------------------------------------------
    async def dm_channel(self, user_id: int) -> int:
        """The user's DM channel id: remembered in the database (a REST call saved per DM)."""
        user = await self.store.user(user_id)
        if user.dm_channel_id is not None:
            return user.dm_channel_id
        channel = await self._call(lambda: self.bot.create_dm(discord.Object(user_id)))
        async with self.store.transaction(background=True) as tx:
            await tx.set_user(user_id, dm_channel_id=channel.id)
        return int(channel.id)

    async def _dm(self, row: OutboxRow) -> dict[str, Any]:
        payload = row.payload
        texts = Texts(await self.bot.service.user_language(payload["user_id"]))
        names = names_of(payload)
        text = phrase_from_json(payload["text"])
        if isinstance(text, Phrase) and payload.get("board_version") is not None:
            text = _with_field(text, "board", await self._board_link(payload))
        content = fit(texts(text, names) if isinstance(text, Phrase) else str(text or ""))
        kwargs: dict[str, Any] = {"content": content,
                                  "allowed_mentions": discord.AllowedMentions.none()}
        picture = payload.get("picture")
        if picture is not None:
            png = await self.bot.workers.run(board_picture, payload["game"], picture["state"],
                                             picture["seat"], names, None, texts.language)
            kwargs["file"] = discord.File(io.BytesIO(png), filename="view.png")
        user = await self.store.user(payload["user_id"])
        try:
            channel_id = await self.dm_channel(payload["user_id"])
            message = await self._send(row, channel_id, **kwargs)
        except discord.Forbidden:  # 50007: DMs closed to the bot
            noted = (user.dm_closed_at is not None
                     and self.clock() - user.dm_closed_at < DM_NOTE_EVERY)
            if payload.get("fallback") == "mention" or (payload.get("fallback") and not noted):
                await self._dm_failed(payload)
            return {"undelivered": True}
        except discord.NotFound as exc:
            raise Give(f"no such user or channel ({exc.code})") from None
        if user.dm_closed_at is not None:  # open again: a later failure is noted again
            async with self.store.transaction(background=True) as tx:
                await tx.set_user(payload["user_id"], dm_closed_at=None)
        return {"message_id": message.id}

    async def _board_link(self, payload: dict[str, Any]) -> str:
        for message in await self.store.live_messages(payload["match_id"], kind="board"):
            if message.version == payload["board_version"]:
                match_row = await self.store.get_match(payload["match_id"])
                guild = match_row.guild_id if match_row else "@me"
                return (f"https://discord.com/channels/{guild}/{message.channel_id}/"
                        f"{message.message_id}")
        return f"<#{payload['channel_id']}>"

    async def _dm_failed(self, payload: dict[str, Any]) -> None:
        """A turn notice becomes a mention in the channel. Anything else (a private view, a
        turn card) is told to the user alone, once, at their next interaction (an ephemeral
        follow-up: see `interactions.handling`), with where to look instead."""
        fallback = payload.get("fallback")
        if fallback is None:
            return
        user_id = payload["user_id"]
        match_row = await self.store.get_match(payload["match_id"])
        if match_row is None:
            return
        async with self.store.transaction(background=True) as tx:
            if fallback == "mention":
                text = phrase(strings.DM_TURN_FALLBACK, mention=f"<@{user_id}>",
                              match_id=payload["match_id"])
                await tx.enqueue(f"m:{match_row.id}", "notice", {
                    "match_id": match_row.id, "channel_id": match_row.channel_id,
                    "parent_channel_id": match_row.parent_channel_id,
                    "seats": payload["seats"], "text": phrase_to_json(text),
                    "mention": [user_id], "buttons": [], "live": None,
                    "version": match_row.version, "offer_id": None}, self.clock())
            else:
                await tx.set_user(user_id, dm_closed_at=self.clock(),
                                  dm_note_match=match_row.id)
        if fallback == "mention":
            self.wake()
        else:
            self.bot.dm_notes.add(user_id)

    async def _digest(self, row: OutboxRow) -> dict[str, Any]:
        payload = row.payload
        texts = Texts(await self.bot.service.user_language(payload["user_id"]))
        lines = [texts(phrase_from_json(payload["header"]) or "")]
        lines += [texts(phrase_from_json(line) or "") for line in payload["lines"]]
        try:
            channel_id = await self.dm_channel(payload["user_id"])
            message = await self._send(row, channel_id, content=fit("\n".join(lines)),
                                       allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:
            return {"undelivered": True}
        return {"message_id": message.id}


def _board_file(picture: bytes) -> list[discord.File]:
    """A new file per request: discord.py leaves a sent file's stream at its end."""
    return [discord.File(io.BytesIO(picture), filename="board.png")]


def _with_field(text: Phrase, name: str, value: Any) -> Phrase:
    return replace(text, fields=tuple((k, value if k == name else v) for k, v in text.fields))


