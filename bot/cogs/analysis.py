"""/analysis: a finished match's post-game analysis (bot/analysis_ui.py does the asking)."""

from __future__ import annotations

from discord import app_commands

from ..analysis_ui import ask_analysis
from ..interactions import MAX_MATCH_ID, Handling, Interaction, Tree
from ..service import Service


def register(tree: Tree, service: Service, handling: Handling) -> None:
    @tree.command(name="analysis", description="A finished match's analysis: each player's "
                                               "chance of winning and the biggest swings")
    @app_commands.describe(match="The number of a finished match")
    async def analysis(interaction: Interaction,
                       match: app_commands.Range[int, 1, MAX_MATCH_ID]) -> None:
        async with handling(interaction):
            await ask_analysis(service, interaction, match)
