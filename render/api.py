"""Every renderer by game id, and `render_observation`, which picks one (see `render/__init__`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .chart import ChartLabels, rating_chart
from .common import TextBox, cjk_font_available, translated
from .consequence import ConsequenceLabels, render_consequence
from .ghostone import GhostoneLabels, render_ghostone
from .ico import IcoLabels, render_ico
from .mancala import MancalaLabels, render_mancala
from .pastoral import PastoralLabels, render_pastoral
from .replay import animate

RENDERERS: dict[str, Callable[..., bytes]] = {
    "progressive-mancala": render_mancala,
    "pastoral-square": render_pastoral,
    "consequence": render_consequence,
    "ghostone": render_ghostone,
    "ico": render_ico,
}

LABELS: dict[str, type] = {
    "progressive-mancala": MancalaLabels,
    "pastoral-square": PastoralLabels,
    "consequence": ConsequenceLabels,
    "ghostone": GhostoneLabels,
    "ico": IcoLabels,
}


def render_observation(game_id: str, observation: Any, *,
                       names: Sequence[str] | None = None, result: str | None = None,
                       tr: Any = None, layout: list[TextBox] | None = None) -> bytes:
    """The picture of one game's observation, by game id.

    `result`: a sentence saying how the match ended; drawn instead of the "to move" line (and
    then nothing is drawn as if a player were to move). `tr`: a gettext-like object every word
    on the picture goes through (None: English). `layout`: a list that receives a `TextBox` for
    every label drawn (for tests of legibility and overlap)."""
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        raise ValueError(f"no picture for game '{game_id}'") from None
    labels: Any = translated(LABELS[game_id], tr)
    return renderer(observation, names=names, labels=labels, result=result, layout=layout)


__all__ = ["LABELS", "RENDERERS", "ChartLabels", "ConsequenceLabels", "GhostoneLabels",
           "IcoLabels", "MancalaLabels", "PastoralLabels", "TextBox", "animate",
           "cjk_font_available", "rating_chart", "render_consequence", "render_ghostone",
           "render_ico", "render_mancala", "render_observation", "render_pastoral"]
