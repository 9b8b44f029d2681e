"""The discord.py client: opens the store, registers commands and persistent buttons."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from . import strings
from .commands import register
from .components import DYNAMIC_ITEMS
from .config import Settings, make_clock
from .flows import Flows
from .service import MatchService
from .store import Store

log = logging.getLogger(__name__)


class CorralTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError) -> None:
        log.exception("command failed", exc_info=error)
        try:
            await Flows.tell(interaction, strings.INTERNAL_ERROR)
        except discord.HTTPException:
            pass


class CorralBot(discord.Client):
    def __init__(self, settings: Settings):
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads
        intents.guild_messages = True  # to keep spectators quiet in match threads (no content)
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.tree = CorralTree(self)
        self.store: Store | None = None
        self.flows: Flows | None = None
        self._ticker: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database)
        self.flows = Flows(self, MatchService(self.store, clock=make_clock(self.settings)))
        register(self.tree, self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.settings.guild_id:
            guild = discord.Object(self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("commands synced; database %s", self.settings.database)
        self._ticker = asyncio.create_task(self._tick_forever(), name="corral-clock")

    async def _tick_forever(self) -> None:
        """Deadlines, reminders and digests: checked at start (what came due while the bot was
        down) and then every CORRAL_TICK_SECONDS."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.flows.deliver(await self.flows.service.tick())
            except Exception:  # keep the clock running whatever one round does
                log.exception("clock tick failed")
            await asyncio.sleep(self.settings.tick_seconds)

    async def on_message(self, message: discord.Message) -> None:
        """Spectators' messages in match threads are removed when the server asks for it."""
        if message.guild is None or message.author.bot or not isinstance(message.channel,
                                                                          discord.Thread):
            return
        if not await self.flows.service.may_talk(message.channel.id, message.author.id,
                                                 message.guild.id):
            try:
                await message.delete()
            except discord.HTTPException as exc:
                log.warning("could not remove a spectator's message: %s", exc)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
