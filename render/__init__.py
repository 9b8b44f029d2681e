"""Pure pictures: observation -> PNG bytes. No Discord, no I/O; call off the event loop.

The names below (`render_observation`, `RENDERERS`, `animate`...) come from `render.api`, which
is imported, with Pillow and every renderer, the first time one of them is asked for. So a
process that draws nothing, such as the bot's main process (its pictures are drawn in worker
processes), can import `render` and read `RENDERED_GAMES` without paying for them (~14 MB).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# the games with a picture; tests/test_render.py checks that this is `api.RENDERERS`'s keys
RENDERED_GAMES = frozenset({"progressive-mancala", "pastoral-square", "consequence", "ghostone",
                            "ico"})

if TYPE_CHECKING:
    from .api import (
        LABELS,
        RENDERERS,
        ChartLabels,
        ConsequenceLabels,
        GhostoneLabels,
        IcoLabels,
        MancalaLabels,
        PastoralLabels,
        TextBox,
        animate,
        cjk_font_available,
        rating_chart,
        render_consequence,
        render_ghostone,
        render_ico,
        render_mancala,
        render_observation,
        render_pastoral,
    )


def __getattr__(name: str) -> Any:
    api = importlib.import_module("render.api")
    if name not in api.__all__:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    value = getattr(api, name)
    globals()[name] = value
    return value


__all__ = ["LABELS", "RENDERED_GAMES", "RENDERERS", "ChartLabels", "ConsequenceLabels",
           "GhostoneLabels", "IcoLabels", "MancalaLabels", "PastoralLabels", "TextBox",
           "animate", "cjk_font_available", "rating_chart", "render_consequence",
           "render_ghostone", "render_ico", "render_mancala", "render_observation",
           "render_pastoral"]
