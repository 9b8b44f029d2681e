"""The games the bot offers: those with rules (games/), a picture (render/) and the Discord
flow they need."""

from __future__ import annotations

from games import REGISTRY, Game
from render import RENDERERS

# games whose Discord flow is not ready yet (none at the moment)
AWAITING_DISCORD_FLOW: frozenset[str] = frozenset()

PLAYABLE: dict[str, Game] = {gid: game for gid, game in REGISTRY.items()
                             if gid in RENDERERS and gid not in AWAITING_DISCORD_FLOW}
