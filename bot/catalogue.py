"""The games the bot offers: those with both rules (games/) and a picture (render/)."""

from __future__ import annotations

from games import REGISTRY, Game
from render import RENDERERS

PLAYABLE: dict[str, Game] = {gid: game for gid, game in REGISTRY.items() if gid in RENDERERS}
