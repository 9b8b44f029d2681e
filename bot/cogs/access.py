"""Play without sight: /last (each player's last move) and /clocks (everyone's time), both
private and open to anyone in the channel. (The text board, `/board text:True` and `at:`, is
bot/cogs/moves.py's /board; the words are bot/textboard.py's.)"""

from __future__ import annotations

from ..interactions import Handling, Interaction, Tree, note_match, reply, texts_for
from ..service import Service
from ..textboard import clocks_text, last_text


def register(tree: Tree, service: Service, handling: Handling) -> None:
    @tree.command(name="last", description="The last move of each player in this channel's "
                                            "match (only you see it)")
    async def last(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            await reply(interaction, await last_text(service, match, texts_for(interaction)))

    @tree.command(name="clocks", description="Each player's time in this channel's match (only "
                                              "you see it)")
    async def clocks(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            await reply(interaction, await clocks_text(service, match, texts_for(interaction)))
