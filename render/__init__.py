"""Pure pictures: observation -> PNG bytes. No Discord, no I/O; call off the event loop.

Each game's picture is a module here that its kit names (`Kit.picture`, e.g. `render.ico`) and
that declares `PICTURE = Picture(draw, Labels)`; `render_observation(game_id, ...)` finds it
through the kit. Nothing in `render` lists the games.

The names below (`render_observation`, `animate`...) come from `render.api`, which is imported,
with Pillow, the first time one of them is asked for; a game's picture module is imported the
first time that game is drawn. So a process that draws nothing, such as the bot's main process
(its pictures are drawn in worker processes), can import `render` and read `RENDERED_GAMES`
without paying for them (~14 MB).

`python -m render FILE -o board.png [--animate]` draws a game record (render/__main__.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from games import KITS

# the games with a picture: those whose kit names one
RENDERED_GAMES = frozenset(game_id for game_id, kit in KITS.items() if kit.picture is not None)

if TYPE_CHECKING:
    from .api import (
        LABELS,
        RENDERERS,
        AnalysisLabels,
        ChartLabels,
        Picture,
        Swing,
        TextBox,
        analysis_chart,
        analysis_pictures,
        animate,
        cjk_font_available,
        picture,
        rating_chart,
        render_observation,
        seat_colour,
        swing_picture,
        without_last_move,
    )


def __getattr__(name: str) -> Any:
    api = importlib.import_module("render.api")
    if name not in api.__all__:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    value = getattr(api, name)
    globals()[name] = value
    return value


__all__ = ["LABELS", "RENDERED_GAMES", "RENDERERS", "AnalysisLabels", "ChartLabels", "Swing",
           "analysis_chart", "analysis_pictures", "Picture", "TextBox", "animate",
           "cjk_font_available", "picture", "rating_chart", "render_observation", "seat_colour",
           "swing_picture", "without_last_move"]
