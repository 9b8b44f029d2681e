"""Picture jobs for the worker processes: a stored state in, PNG bytes out.

Top-level functions with plain arguments (picklable); the state is decoded and observed in the
worker, so that neither the JSON decoding nor the drawing runs on the bot's event loop. The
observation is the only thing drawn: `viewer` None is the public view.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from games import get_game

from .i18n import translations

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _cjk_ready() -> bool:
    import render

    if render.cjk_font_available():
        return True
    log.warning("no Japanese font found (install fonts-ipafont-gothic or fonts-noto-cjk): "
                "Japanese pictures are drawn with English labels")
    return False


def picture_language(language: str) -> str:
    """Japanese labels need a CJK font; without one the picture keeps English labels."""
    if language == "ja" and not _cjk_ready():
        return "en"
    return language


def board_picture(game_id: str, state: dict[str, Any], viewer: int | None,
                  names: Sequence[str], result: str | None = None,
                  language: str = "en") -> bytes:
    from render import render_observation

    game = get_game(game_id)
    observation = game.observe(game.from_json(state), viewer)
    return render_observation(game_id, observation, names=list(names), result=result,
                              tr=translations(picture_language(language)))
