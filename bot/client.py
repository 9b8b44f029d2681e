"""The discord.py client: the store, the service, the outbox worker (with the delivery worker
and the AI's), the picture and AI workers and the clock, started in `setup_hook` and stopped
in `close`; the commands and components are handed what they use there."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from games import phrase

from . import ai_turns, analysis_post, cogs, delivery
from .ai_turns import AiTurns
from .analysis_post import AnalysisPoster
from .analysis_runner import NICE, AnalysisRunner
from .collector import Refreezer, freeze_start_up_objects
from .config import Settings, make_clock
from .delivery import Delivery
from .interactions import Handling, Interaction, context, reply, texts_for
from .outbox_worker import OutboxWorker
from .pool import Workers
from .quick import ChannelHeads
from .service import Service
from .store import Moved, Store
from .store.backup import Scheduler, default_folder
from .web.server import Metrics, WebServer
from .words import strings
from .words.i18n import COMMAND_GROUPS, COMMAND_IDS, command_groups
from .words.translator import CatalogTranslator

log = logging.getLogger(__name__)


class CorralTree(app_commands.CommandTree[discord.Client]):
    async def on_error(self, interaction: Interaction,
                       error: app_commands.AppCommandError) -> None:
        """Errors the command handlers did not answer: a bad argument Discord let through,
        or a bug. Logged with the command and user; the user gets the bot's own words."""
        with context(interaction):
            if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
                log.info("refused a command: %s", error)
                text = texts_for(interaction)(phrase(strings.INTERNAL_ERROR))
            else:
                log.exception("command failed", exc_info=error)
                text = texts_for(interaction)(phrase(strings.INTERNAL_ERROR))
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, text)


class CorralBot(discord.Client):
    store: Store
    service: Service
    handling: Handling
    clicks: cogs.Clicks
    outbox: OutboxWorker
    delivery: Delivery
    ai_turns: AiTurns
    workers: Workers
    ai_workers: Workers
    analysis_workers: Workers
    analyses: AnalysisRunner

    def __init__(self, settings: Settings):
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads
        intents.guild_messages = True  # to keep spectators quiet in match threads (no content)
        # no message cache: Corral reads messages by id from its store, never from memory,
        # and a cache of every message in every channel would only grow the process
        self.metrics = Metrics()  # its trace sees every request discord.py makes
        self.refreezer = Refreezer()
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                         max_messages=None, http_trace=self.metrics.trace_config(),
                         **self.shard_options(settings))
        self.settings = settings
        # installable to a server and to a user's own account, usable in servers, in the bot's
        # DM and in DMs and group DMs between users (commands that need Corral in a server say
        # so: settings, tournaments; lessons stay server-only)
        self.tree = CorralTree(
            self, allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                            private_channel=True))
        self.channel_heads = ChannelHeads()
        self._skip_unread_message_events()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._close_task: asyncio.Future[None] | None = None
        self.web: WebServer | None = None
        self.backups: Scheduler | None = None

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        return {}

    def _skip_unread_message_events(self) -> None:
        """The gateway sends a MESSAGE_CREATE for every message the bot posts and a
        MESSAGE_UPDATE for every edit; discord.py would build a Message object of each
        (a board's with all its components) only for Corral to ignore it. Corral reads
        people's new messages (`on_message`) and nothing else, so bots' and webhooks'
        messages and all edits are dropped before that."""
        parsers = self._connection.parsers
        message_create = parsers["MESSAGE_CREATE"]

        heads = self.channel_heads

        def people_only(data: Any) -> None:
            try:  # every message counts for a quick match's board (bot/quick.py)
                heads.saw(int(data["channel_id"]), int(data["id"]))
            except (KeyError, TypeError, ValueError):
                pass
            if (data.get("author") or {}).get("bot") or data.get("webhook_id"):
                return
            message_create(data)

        parsers["MESSAGE_CREATE"] = people_only
        parsers["MESSAGE_UPDATE"] = lambda data: None

    @property
    def worker_id(self) -> str:
        """Who holds an outbox row: stable across restarts of the same shard set, so a
        restarted process takes back its own rows at once and leaves other processes' be."""
        ids = self.settings.shard_ids
        return "main" if ids is None else "shards-" + ",".join(map(str, ids))

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database)
        await self._start_operations()
        clock = make_clock(self.settings)
        self.workers = Workers(self.settings.workers, self.settings.worker_mode)
        # AI searches get workers of their own, so a long search never delays a board
        self.ai_workers = Workers(max(1, (os.cpu_count() or 2) // 2), self.settings.worker_mode)
        # post-game analyses: one worker of their own, at a lower CPU priority
        self.analysis_workers = Workers(1, self.settings.worker_mode, nice=NICE)
        self.outbox = OutboxWorker(self.store, retry_seconds=self.settings.retry_seconds,
                                   worker_id=self.worker_id)
        self.service = Service(self.store, clock=clock, on_commit=self._committed)
        self.service.ctx.on_moved = self._moved
        self.service.analyses.level = self.settings.analysis_level
        self.service.leaderboard_min_games = self.settings.leaderboard_min_games
        # every kit's curated puzzle set: /puzzle serves puzzles from the first day
        await self.service.puzzles.import_curated()
        # the one error handler, which also says which interactions were answered (a board
        # follows one up) and whom to tell that a DM could not reach them
        self.handling = Handling(self.service)
        self.delivery = Delivery(self, self.store, self.service, self.workers,
                                 answers=self.handling.answers, api_base=self.settings.api_base,
                                 on_dm_closed=self.handling.dm_closed,
                                 web_url=self.settings.web_url, heads=self.channel_heads,
                                 activity=self.settings.activity)
        self.outbox.serve(delivery.KINDS, self.delivery.deliver, delivery.CONCURRENCY)
        self.ai_turns = AiTurns(self.service, self.ai_workers, self.settings.ai_pause)
        self.outbox.serve(ai_turns.KINDS, self.ai_turns.play, ai_turns.CONCURRENCY)
        poster = AnalysisPoster(self.store, self.service, self.delivery, self.workers)
        self.outbox.serve(analysis_post.KINDS, poster.deliver, analysis_post.CONCURRENCY)
        self.analyses = AnalysisRunner(
            self.store, self.service, self.analysis_workers, worker_id=self.worker_id,
            api_base=self.settings.api_base, application_id=lambda: self.application_id,
            busy=lambda: self.ai_workers.waiting > 0 or self.workers.waiting > 0,
            on_commit=self.outbox.wake)
        self.service.ctx.on_analysis_queued = self.analyses.wake
        self.register(self.tree)
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()
        await self.workers.warm()
        # the AI's workers start with the first AI turn (during its pause), so a bot that
        # hosts only people's matches never pays their memory
        fixed = await self.service.recover()
        if fixed:
            log.info("recovered %s matches at start", fixed)
        self._tasks += [asyncio.create_task(self.outbox.run(), name="corral-outbox"),
                        asyncio.create_task(self.analyses.run(), name="corral-analyses"),
                        asyncio.create_task(self._tick_forever(), name="corral-clock")]
        shards = ("" if self.settings.shard_count is None else
                  f"; shards {list(self.settings.shard_ids or range(self.settings.shard_count))}"
                  f" of {self.settings.shard_count}")
        frozen = freeze_start_up_objects()
        self.refreezer.install()  # and, from now on, what each full collection keeps
        log.info("ready to serve; database %s%s; %s start-up objects frozen", _redacted(
            self.settings.database), shards, frozen)

    def _committed(self) -> None:
        """A change was committed: the outbox delivers it, live web pages show it. (The
        analysis runner is woken only when an analysis is queued: `on_analysis_queued`.)"""
        self.outbox.wake()
        if self.web is not None:
            self.web.kick()

    def _moved(self, moved: Moved) -> None:
        """A move was committed: as `_committed`, but live pages are handed the match as the
        move wrote it (no read of every watched version, nor of the match or its log, per
        move)."""
        self.outbox.wake()
        if self.web is not None:
            self.web.moved(moved)

    async def _start_operations(self) -> None:
        """/healthz and /metrics (CORRAL_WEB_BIND), and scheduled backups
        (CORRAL_BACKUP_EVERY), before the gateway connects: a health check says "not
        connected yet" rather than nothing while the bot starts."""
        if self.settings.web_bind is not None:
            self.web = WebServer(self, self.metrics, *self.settings.web_bind,
                                 base_url=self.settings.web_url,
                                 limits=self.settings.web_limits,
                                 sign_in=self.settings.sign_in,
                                 activity=self.settings.activity,
                                 frame_ancestors=self.settings.frame_ancestors)
            await self.web.start()
        if self.settings.backup_every is not None:
            folder = (Path(self.settings.backup_dir) if self.settings.backup_dir
                      else default_folder(self.settings.database))
            self.backups = Scheduler(self.settings.database, folder, self.settings.backup_every,
                                     self.settings.backup_keep)
            self._tasks.append(asyncio.create_task(self.backups.run(log),
                                                   name="corral-backups"))

    def register(self, tree: app_commands.CommandTree[discord.Client]) -> None:
        """The commands on `tree` and the components' classes, each handed what it uses."""
        self.clicks = cogs.register_all(tree, service=self.service, handling=self.handling,
                                        pictures=self.workers, activity=self.settings.activity)
        COMMAND_GROUPS.update(command_groups(tree))

    async def sync_commands(self) -> None:
        """Register the commands with Discord only when they changed (a stored hash), since
        a start that re-syncs everything costs time and Discord's rate limits."""
        guild = discord.Object(self.settings.guild_id) if self.settings.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [await self._command_payload(c) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        scope = f"commands:{guild.id if guild else 'global'}:{self.settings.api_base}"
        ids_key = f"command-ids:{scope}"
        if await self.store.meta(scope) == digest:
            # the ids Discord gave at the last sync: texts mention commands by them
            COMMAND_IDS.update(_command_ids(await self.store.meta(ids_key)))
            log.info("commands unchanged; not syncing")
            return
        synced = await self.tree.sync(guild=guild)
        ids = {command.name: command.id for command in synced}
        COMMAND_IDS.clear()
        COMMAND_IDS.update(ids)
        async with self.store.transaction() as tx:
            await tx.set_meta(scope, digest)
            await tx.set_meta(ids_key, json.dumps(ids, sort_keys=True))
        log.info("commands synced (%s)", "guild" if guild else "global")

    async def _command_payload(self, command: Any) -> Any:
        translator = self.tree.translator
        if translator is not None:
            return await command.get_translated_payload(self.tree, translator)
        return command.to_dict(self.tree)

    async def _tick_forever(self) -> None:
        """Deadlines, reminders and digests: checked at start (what came due while the bot was
        down) and then every CORRAL_TICK_SECONDS."""
        while not self._closing:
            started = time.perf_counter()
            try:
                self.handling.dm_notes = set(await self.service.users_with_dm_notes())
                report = await self.service.tick()
                if report.reminders or report.expiries or report.digests:
                    log.info("clock: %s due, %s reminders, %s expiries, %s digests "
                             "(%.1f ms)", report.checked, report.reminders, report.expiries,
                             report.digests, (time.perf_counter() - started) * 1000)
            except Exception:  # keep the clock running whatever one round does
                log.exception("clock tick failed")
            await asyncio.sleep(self.settings.tick_seconds)

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        """Events arriving while the bot stops are dropped: discord.py's delayed `ready`
        (it waits ~2 s for guilds) could otherwise fire after the loop is gone."""
        if getattr(self, "_closing", False):
            return
        super().dispatch(event, *args, **kwargs)

    async def on_interaction(self, interaction: Interaction) -> None:
        """A click is answered by its component's class (see `cogs.Clicks`)."""
        if interaction.type == discord.InteractionType.component:
            await self.clicks(interaction)

    async def on_message(self, message: discord.Message) -> None:
        """Spectators' messages in match threads are removed when the server asks for it."""
        if message.guild is None or message.author.bot or not isinstance(message.channel,
                                                                          discord.Thread):
            return
        if not await self.service.may_talk(message.channel.id, message.author.id,
                                           message.guild.id):
            try:
                await message.delete()
            except discord.HTTPException as exc:
                log.warning("could not remove a spectator's message: %s", exc)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")

    async def close(self) -> None:
        """A clean stop: no new work, deliveries in flight finish or stay pending, the
        workers stop, the gateway closes, and SQLite is checkpointed and closed. Every caller
        (the signal handler, `async with`) waits for the same stop to finish."""
        if self._close_task is None:
            self._close_task = asyncio.ensure_future(self._close())
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        self._closing = True
        log.info("stopping")
        self.refreezer.uninstall()
        if hasattr(self, "analyses"):
            await self.analyses.stop()
        if hasattr(self, "outbox"):
            await self.outbox.stop()
        if hasattr(self, "delivery"):
            await self.delivery.close()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if hasattr(self, "workers"):
            await asyncio.to_thread(self.workers.shutdown)
        if hasattr(self, "ai_workers"):
            await asyncio.to_thread(self.ai_workers.shutdown)
        if hasattr(self, "analysis_workers"):
            await asyncio.to_thread(self.analysis_workers.shutdown)
        await super().close()
        if self.web is not None:
            await self.web.stop()
        if hasattr(self, "store"):
            await self.store.close()
        log.info("stopped")


def _redacted(url: str) -> str:
    """A database URL for the log, without its password."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if not parts.password:
        return url
    return url.replace(f":{parts.password}", ":***", 1)


class ShardedCorralBot(CorralBot, discord.AutoShardedClient):
    """Corral as one of several processes: the shards CORRAL_SHARD_IDS of CORRAL_SHARDS (all
    of them by default). Everything shared lives in the store, so any process may deliver
    any outbox row or tick any clock; the database makes each happen once."""

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        options: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
        return options


def make_bot(settings: Settings) -> CorralBot:
    """One process with every guild (the default), or a shard process."""
    return CorralBot(settings) if settings.shard_count is None else ShardedCorralBot(settings)


def _command_ids(stored: str | None) -> dict[str, int]:
    """The command ids kept with the last sync (a JSON object of name -> id), or none."""
    try:
        data = json.loads(stored or "{}")
        return {str(name): int(value) for name, value in data.items()}
    except (ValueError, TypeError, AttributeError):
        return {}
