"""Private views of games with hidden information: /hand. (My view, under the board, is
bot/boards.py's.)"""

from __future__ import annotations

from ..boards import private_view
from ..interactions import Handling, Interaction, Tree
from ..pool import Workers
from ..service import Service


def register(tree: Tree, service: Service, handling: Handling, pictures: Workers) -> None:
    @tree.command(name="hand", description="Your private view of this channel's match (only "
                                            "you see it)")
    async def hand(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            await private_view(pictures, interaction, match)
