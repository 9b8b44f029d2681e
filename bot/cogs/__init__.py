"""The Discord side, by concern: each module registers its slash commands, handed what they use
(the service, the one error handler, the picture workers). Components are classes (see
bot/ui.py), registered with the client bound to the same; a click whose custom id none of
them claims (forged, foreign, too long) gets a short answer here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from games import phrase

from .. import strings
from ..boards import BOARD_COMPONENTS
from ..interactions import Handling, Interaction, Tree, reply
from ..lobby import LobbyButton
from ..notices import NOTICE_COMPONENTS
from ..pool import Workers
from ..service import Service
from ..ui import STEP_COMPONENTS, Component, parse
from . import clocks, info, matches, moves, private, settings, stats

# every kind of component, each once (their templates never match the same id)
COMPONENTS: tuple[type[Component[Any]], ...] = (
    *STEP_COMPONENTS, *BOARD_COMPONENTS, LobbyButton, *NOTICE_COMPONENTS, *moves.COMPONENTS,
    *matches.COMPONENTS, *stats.COMPONENTS)


def parse_custom_id(custom_id: str) -> Component[Any] | None:
    """The component a custom id names, or None for a forged or foreign one."""
    return parse(COMPONENTS, custom_id)


def register_all(tree: Tree, client: discord.Client, *, service: Service,
                 handling: Handling, pictures: Workers) -> None:
    """The slash commands, on `tree`, and the components, with `client`."""
    matches.register(tree, service, handling)
    moves.register(tree, service, handling, pictures)
    private.register(tree, service, handling, pictures)
    clocks.register(tree, service, handling)
    settings.register(tree, service, handling)
    info.register(tree, service, handling)
    stats.register(tree, service, handling, pictures)
    client.add_dynamic_items(*(kind.bound(service=service, handling=handling, pictures=pictures)
                               for kind in COMPONENTS))


def carries(message: discord.Message | None, custom_id: str, component_type: Any) -> bool:
    """Whether `message` has this component (discord.py answers a click on a registered kind
    only then)."""
    if message is None:
        return False
    for row in message.components:
        for item in getattr(row, "children", (row,)):
            if (getattr(item, "custom_id", None) == custom_id
                    and item.type.value == component_type):
                return True
    return False


async def refuse_unknown(handling: Handling, interaction: Interaction) -> None:
    """A click discord.py passes to no component class: a custom id that names no kind (a
    forged one, another bot's, an older version's), or one its message does not carry."""
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if (parse_custom_id(custom_id) is not None
            and carries(interaction.message, custom_id, data.get("component_type"))):
        return  # answered by its class
    async with handling(interaction):
        await reply(interaction, phrase(strings.UNKNOWN_COMPONENT))
