"""Server settings: /corral settings (server managers)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from games import phrase

from ..clocks import Duration
from ..interactions import Handling, Interaction, Tree, is_manager, reply, texts_for
from ..service import CHANNEL_ACTIONS, Service, ServiceError
from ..words import strings
from ..words.i18n import LANGUAGES, Texts


def register(tree: Tree, service: Service, handling: Handling) -> None:
    corral = app_commands.Group(name="corral", description="Corral server settings",
                                guild_only=True,
                                default_permissions=discord.Permissions(manage_guild=True))

    @corral.command(name="settings", description="Show or change Corral's settings for this "
                                                  "server")
    @app_commands.describe(threads="Open each new match in a thread of its own",
                           time="Default time per move, e.g. 3d, 12h, or none",
                           spectators="May spectators talk in match threads?",
                           channel="A channel to allow or disallow for matches",
                           channels="allow or disallow the channel above; all: allow every "
                                    "channel",
                           language="The language of boards and notices in this server",
                           organisers="A role whose members may create tournaments",
                           web_links="Link boards to their match's web page (off: no links "
                                     "and no pages)")
    @app_commands.choices(channels=[app_commands.Choice(name=c, value=c)
                                    for c in CHANNEL_ACTIONS],
                          language=[app_commands.Choice(name=n, value=n) for n in LANGUAGES])
    async def settings(interaction: Interaction, threads: bool | None = None,
                       time: str | None = None, spectators: bool | None = None,
                       channel: discord.TextChannel | None = None,
                       channels: str | None = None, language: str | None = None,
                       organisers: discord.Role | None = None,
                       web_links: bool | None = None) -> None:
        async with handling(interaction):
            if interaction.guild is None or not interaction.is_guild_integration():
                raise ServiceError(strings.NEEDS_SERVER_INSTALL)
            if organisers is not None and interaction.guild.get_role(organisers.id) is None:
                raise ServiceError(strings.SETTINGS_ROLE_NOT_HERE)  # a forged payload
            now = await service.update_settings(
                interaction.guild.id, is_manager=is_manager(interaction), threads=threads,
                time_per_move=time, spectators_talk=spectators,
                channel_id=channel.id if channel else None, channel_action=channels,
                language=language, web_links=web_links)
            if organisers is not None:
                await service.tournaments.set_organiser_role(
                    interaction.guild.id, organisers.id, is_manager=is_manager(interaction))
            role = await service.store.organiser_role(interaction.guild.id)
            texts = texts_for(interaction)
            await reply(interaction, settings_text(now, texts) + "\n" + texts(
                phrase(strings.SETTINGS_ORGANISERS, role=f"<@&{role}>") if role is not None
                else phrase(strings.SETTINGS_ORGANISERS_NONE)))

    tree.add_command(corral)


def settings_text(now: dict[str, Any], texts: Texts) -> str:
    return texts(phrase(
        strings.SETTINGS_LINES,
        threads=phrase(strings.SETTINGS_THREADS_ON if now["use_threads"]
                       else strings.SETTINGS_THREADS_OFF),
        time=Duration(now["move_seconds"]) if now["move_seconds"]
        else phrase(strings.NO_LIMIT),
        channels=tuple(f"<#{c}>" for c in now["channels"]) if now["channels"]
        else phrase(strings.SETTINGS_ALL_CHANNELS),
        spectators=phrase(strings.SPECTATORS_TALK if now["spectators_talk"]
                          else strings.SPECTATORS_QUIET))) + "\n" + texts(phrase(
        strings.SETTINGS_LANGUAGE, language=phrase(strings.LANGUAGE_NAMES[
            now["language"] or now["preferred_language"] or "en"]))) + "\n" + texts(
        strings.SETTINGS_WEB_ON if now["web_links"] else strings.SETTINGS_WEB_OFF)
