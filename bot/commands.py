"""The slash commands: thin wrappers that resolve arguments and hand over to `Flows`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from .catalogue import PLAYABLE

if TYPE_CHECKING:
    from .client import CorralBot

GAME_CHOICES = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]
FIRST_CHOICES = [app_commands.Choice(name="random", value="random"),
                 app_commands.Choice(name="me", value="me"),
                 app_commands.Choice(name="my opponent", value="opponent")]


def register(tree: app_commands.CommandTree, bot: "CorralBot") -> None:
    @tree.command(name="play", description="Start a match here: challenge someone, or open a lobby")
    @app_commands.describe(game="Which game", opponent="Challenge this person (leave empty for an open lobby)",
                           options="Match options as name=value, e.g. pits=17",
                           first="Who moves first (default: random)",
                           time="Time per move, e.g. 3d, 12h, or none (default: the server's)")
    @app_commands.choices(game=GAME_CHOICES, first=FIRST_CHOICES)
    @app_commands.guild_only()
    async def play(interaction: discord.Interaction, game: str,
                   opponent: discord.User | None = None, options: str | None = None,
                   first: str = "random", time: str | None = None) -> None:
        await bot.flows.open(interaction, game, opponent, options, first, time)

    @play.autocomplete("options")
    async def play_options(interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        game = PLAYABLE.get(getattr(interaction.namespace, "game", None) or "")
        if game is None:
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        offers = [f"{spec.name}={value}" for spec in game.info.options for value in spec.choices]
        return [app_commands.Choice(name=f"{prefix}{o}  ({_help(game, o)})"[:100],
                                    value=f"{prefix}{o}"[:100])
                for o in offers if o.startswith(last.lower())][:25]

    @tree.command(name="move", description="Play a move in this channel's match")
    @app_commands.describe(notation="Your move (the list shows your legal moves)")
    @app_commands.guild_only()
    async def move(interaction: discord.Interaction, notation: str) -> None:
        await bot.flows.move(interaction, None, notation)

    @move.autocomplete("notation")
    async def move_notation(interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await bot.flows.move_choices(interaction, current)

    @tree.command(name="board", description="Show this channel's match")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    @app_commands.guild_only()
    async def board(interaction: discord.Interaction, public: bool = False) -> None:
        await bot.flows.board(interaction, public)

    @tree.command(name="hand", description="Your private view of this channel's match (only you see it)")
    @app_commands.guild_only()
    async def hand(interaction: discord.Interaction) -> None:
        await bot.flows.private_view(interaction, None)

    @tree.command(name="draw", description="Offer a draw in this channel's match")
    @app_commands.guild_only()
    async def draw(interaction: discord.Interaction) -> None:
        await bot.flows.offer(interaction, "draw")

    @tree.command(name="takeback", description="Ask to take back your last move (before your opponent moves)")
    @app_commands.guild_only()
    async def takeback(interaction: discord.Interaction) -> None:
        await bot.flows.offer(interaction, "takeback")

    @tree.command(name="vacation", description="Pause your clocks while you are away")
    @app_commands.describe(days="How many days (1-30; 30 days a year)", end="End your vacation now")
    async def vacation(interaction: discord.Interaction,
                       days: app_commands.Range[int, 1, 30] | None = None,
                       end: bool = False) -> None:
        await bot.flows.vacation(interaction, days, end)

    @tree.command(name="reminders", description="How Corral reminds you of your turns")
    @app_commands.describe(mode="on: when half and nearly all your time is gone; digest: one DM a day; off")
    @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in ("on", "digest", "off")])
    async def reminders(interaction: discord.Interaction, mode: str) -> None:
        await bot.flows.reminders(interaction, mode)

    @tree.command(name="resign", description="Give up this channel's match")
    @app_commands.guild_only()
    async def resign(interaction: discord.Interaction) -> None:
        await bot.flows.resign(interaction)

    @tree.command(name="abort", description="Cancel this channel's match (host before it starts, server managers any time)")
    @app_commands.guild_only()
    async def abort(interaction: discord.Interaction) -> None:
        await bot.flows.abort(interaction)

    @tree.command(name="matches", description="Your matches and whose turn it is")
    async def matches(interaction: discord.Interaction) -> None:
        await bot.flows.list_matches(interaction)

    @tree.command(name="rules", description="How a game is played")
    @app_commands.describe(game="Which game (default: all)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(interaction: discord.Interaction, game: str | None = None) -> None:
        await bot.flows.rules(interaction, game)

    @tree.command(name="help", description="What Corral can do")
    async def help_(interaction: discord.Interaction) -> None:
        await bot.flows.help(interaction)

    corral = app_commands.Group(name="corral", description="Corral server settings",
                                guild_only=True,
                                default_permissions=discord.Permissions(manage_guild=True))

    @corral.command(name="settings", description="Show or change Corral's settings for this server")
    @app_commands.describe(threads="Open each new match in a thread of its own",
                           time="Default time per move, e.g. 3d, 12h, or none",
                           spectators="May spectators talk in match threads?",
                           channel="A channel to allow or disallow for matches",
                           channels="allow or disallow the channel above; all: allow every channel")
    @app_commands.choices(channels=[app_commands.Choice(name=c, value=c)
                                    for c in ("allow", "disallow", "all")])
    async def settings(interaction: discord.Interaction, threads: bool | None = None,
                       time: str | None = None, spectators: bool | None = None,
                       channel: discord.TextChannel | None = None,
                       channels: str | None = None) -> None:
        await bot.flows.settings(interaction, threads, time, spectators, channel, channels)

    tree.add_command(corral)


def _help(game, offer: str) -> str:
    name = offer.split("=", 1)[0]
    for spec in game.info.options:
        if spec.name == name:
            return spec.help
    return ""
