"""Private views of games with hidden information: /hand and the My view button."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from games import phrase

from .. import strings
from ..interactions import Interaction, handling, note_match, reply, texts_for
from ..pictures import board_picture
from ..service import Match, ServiceError
from ..ui import Custom

if TYPE_CHECKING:
    from ..client import CorralBot


def register(tree: app_commands.CommandTree[CorralBot], bot: CorralBot) -> None:
    @tree.command(name="hand", description="Your private view of this channel's match (only "
                                            "you see it)")
    @app_commands.guild_only()
    async def hand(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await bot.service.in_channel(interaction.channel_id or 0)
            await private_view(bot, interaction, match)


async def on_view(bot: CorralBot, interaction: Interaction, custom: Custom) -> None:
    assert custom.match_id is not None
    await private_view(bot, interaction, await bot.service.get(custom.match_id))


async def private_view(bot: CorralBot, interaction: Interaction, match: Match) -> None:
    """The caller's own view, ephemerally: the picture `observe` gives their seat, and their
    private notes (a hand) in words."""
    note_match(match.id)
    seat = match.row.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError(strings.NOT_A_PLAYER, match_id=match.id)
    if not match.game.info.hidden_information:
        raise ServiceError(strings.NO_PRIVATE_VIEW, game=match.game.name)
    if match.state is None:
        raise ServiceError(strings.NOT_STARTED, match_id=match.id)
    texts = texts_for(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    picture = await bot.workers.run(board_picture, match.game.id, match.row.state, seat,
                                    match.names(), None, texts.language)
    lines = [texts(phrase(strings.PRIVATE_VIEW, match_id=match.id, game=match.game.name,
                          link=f"<#{match.row.channel_id}>"))]
    card = match.game.turn_card(match.state, seat)
    if card is not None:
        lines.append(texts(card, match.names()))
    await reply(interaction, "\n".join(lines),
                file=discord.File(io.BytesIO(picture), filename="view.png"))
