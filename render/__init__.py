"""Pure pictures: observation -> PNG bytes. No Discord, no I/O; call off the event loop."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .consequence import ConsequenceLabels, render_consequence
from .ghostone import GhostoneLabels, render_ghostone
from .mancala import MancalaLabels, render_mancala
from .pastoral import PastoralLabels, render_pastoral

RENDERERS: dict[str, Callable[..., bytes]] = {
    "progressive-mancala": render_mancala,
    "pastoral-square": render_pastoral,
    "consequence": render_consequence,
    "ghostone": render_ghostone,
}


def render_observation(game_id: str, observation: Any, *,
                       names: Sequence[str] | None = None) -> bytes:
    """The picture of one game's observation, by game id."""
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        raise ValueError(f"no picture for game '{game_id}'") from None
    return renderer(observation, names=names)


__all__ = ["ConsequenceLabels", "GhostoneLabels", "MancalaLabels", "PastoralLabels", "RENDERERS", "render_mancala", "render_observation",
           "render_consequence", "render_ghostone", "render_pastoral"]
