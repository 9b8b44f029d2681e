"""The Discord side, by concern: each module registers its slash commands, handed what they use
(the service, the one error handler, the picture workers). Components are classes (see
bot/ui.py), bound to the same; `Clicks` hands each click to its class, and a click whose
custom id none of them claims (forged, foreign, too long) gets a short answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import phrase

from ..analysis_ui import AnalysisButton
from ..boards import BOARD_COMPONENTS
from ..interactions import Handling, Interaction, Tree, reply
from ..lobby import LobbyButton
from ..notices import NOTICE_COMPONENTS
from ..pool import Workers
from ..service import Service
from ..textboard import TEXTBOARD_COMPONENTS
from ..ui import STEP_COMPONENTS, Component, parse
from ..words import strings
from . import (
    access,
    analysis,
    clocks,
    conditional,
    info,
    learn,
    matches,
    moves,
    private,
    puzzle,
    settings,
    stats,
    tournaments,
)

# every kind of component, each once (their templates never match the same id)
COMPONENTS: tuple[type[Component[Any]], ...] = (
    *STEP_COMPONENTS, *BOARD_COMPONENTS, LobbyButton, *NOTICE_COMPONENTS, *moves.COMPONENTS,
    *matches.COMPONENTS, *stats.COMPONENTS, AnalysisButton, *tournaments.COMPONENTS,
    *learn.COMPONENTS, *conditional.COMPONENTS, *puzzle.COMPONENTS, *TEXTBOARD_COMPONENTS)


def parse_custom_id(custom_id: str) -> Component[Any] | None:
    """The component a custom id names, or None for a forged or foreign one."""
    return parse(COMPONENTS, custom_id)


class Clicks:
    """Every kind of component, bound to what its handlers use, and where a click finds its
    kind: the first whose template reads the custom id (`from_match`), then its `callback`.

    discord.py can route clicks to DynamicItems itself (`Client.add_dynamic_items`), but it
    first rebuilds the clicked message's whole view (`View.from_message`) on every click, to
    find the item there: for a board's dozen buttons, half a millisecond or more of the event
    loop per move, on a path that costs about eight. Discord only sends a click for a
    component its message carries, so the custom id alone says what was clicked; a forged,
    foreign or too long one gets a short answer."""

    def __init__(self, handling: Handling, kinds: Sequence[type[Component[Any]]]):
        self.handling = handling
        self.kinds = tuple(kinds)

    async def __call__(self, interaction: Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        item = parse(self.kinds, str(data.get("custom_id", "")))
        if item is not None:
            await item.callback(interaction)
            return
        async with self.handling(interaction):
            await reply(interaction, phrase(strings.UNKNOWN_COMPONENT))


def register_all(tree: Tree, *, service: Service, handling: Handling,
                 pictures: Workers, activity: bool = False) -> Clicks:
    """The slash commands, on `tree`; returns what answers the components' clicks."""
    matches.register(tree, service, handling)
    moves.register(tree, service, handling, pictures)
    private.register(tree, service, handling, pictures)
    clocks.register(tree, service, handling)
    access.register(tree, service, handling)
    settings.register(tree, service, handling)
    info.register(tree, service, handling)
    stats.register(tree, service, handling, pictures)
    analysis.register(tree, service, handling)
    tournaments.register(tree, service, handling, pictures)
    learn.register(tree, service, handling, pictures)
    puzzle.register(tree, service, handling, pictures)
    conditional.register(tree, service, handling, pictures)
    return Clicks(handling, [kind.bound(service=service, handling=handling, pictures=pictures,
                                        activity=activity)
                             for kind in COMPONENTS])
