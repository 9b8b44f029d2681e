"""The Discord side, by concern: each module registers its slash commands; components are
routed here by the kind their custom id names (see bot/ui.py), under one error handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from discord import app_commands

from games import phrase

from .. import strings
from ..interactions import Interaction, handling, reply
from ..ui import Custom, parse_custom_id
from . import clocks, info, matches, moves, private, settings, stats

if TYPE_CHECKING:
    from ..client import CorralBot

MODULES = (matches, moves, private, clocks, settings, info, stats)

Handler = Callable[["CorralBot", Interaction, Custom], Awaitable[None]]
HANDLERS: dict[str, Handler] = {
    "s": moves.on_step, "b": moves.on_step, "p": moves.on_step,
    "legacy": moves.on_legacy_move, "y": moves.on_repeat,
    "v": private.on_view, "h": info.on_moves,
    "l": matches.on_lobby, "r": matches.on_resign, "m": matches.on_rematch,
    "c": clocks.on_claim, "o": clocks.on_offer, "R": stats.on_replay_step,
}


def register_all(tree: app_commands.CommandTree[CorralBot], bot: CorralBot) -> None:
    for module in MODULES:
        module.register(tree, bot)


async def on_component(bot: CorralBot, interaction: Interaction) -> None:
    """Every button and menu click: parsed from its custom id alone (forged or foreign ids
    get a clear answer), then handed to its module."""
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    async with handling(interaction):
        custom = parse_custom_id(custom_id)
        if custom is None:
            await reply(interaction, phrase(strings.UNKNOWN_COMPONENT))
            return
        if custom.kind == "S":
            raw = data.get("values")
            values = [str(v)[:16] for v in raw][:25] if isinstance(raw, list) else []
            await moves.on_step(bot, interaction, custom, values)
            return
        await HANDLERS[custom.kind](bot, interaction, custom)
