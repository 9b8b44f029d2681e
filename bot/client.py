"""The discord.py client: opens the store, registers commands and persistent buttons."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from . import strings
from .commands import register
from .components import DYNAMIC_ITEMS
from .config import Settings
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
        intents.guilds = True  # channels and threads; no privileged intent is needed
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.tree = CorralTree(self)
        self.store: Store | None = None
        self.flows: Flows | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database)
        self.flows = Flows(self, MatchService(self.store))
        register(self.tree, self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.settings.guild_id:
            guild = discord.Object(self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("commands synced; database %s", self.settings.database)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
