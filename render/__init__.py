"""Pure pictures: observation -> PNG bytes. No Discord, no I/O; call off the event loop."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .consequence import ConsequenceLabels, render_consequence
from .ghostone import GhostoneLabels, render_ghostone
from .ico import IcoLabels, render_ico
from .mancala import MancalaLabels, render_mancala
from .pastoral import PastoralLabels, render_pastoral

RENDERERS: dict[str, Callable[..., bytes]] = {
    "progressive-mancala": render_mancala,
    "pastoral-square": render_pastoral,
    "consequence": render_consequence,
    "ghostone": render_ghostone,
    "ico": render_ico,
}


def render_observation(game_id: str, observation: Any, *,
                       names: Sequence[str] | None = None) -> bytes:
    """The picture of one game's observation, by game id."""
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        raise ValueError(f"no picture for game '{game_id}'") from None
    return renderer(observation, names=names)


__all__ = ["ConsequenceLabels", "GhostoneLabels", "IcoLabels", "MancalaLabels", "PastoralLabels", "RENDERERS", "render_mancala", "render_observation",
           "render_consequence", "render_ghostone", "render_ico", "render_pastoral"]
