"""The games the bot offers: those with rules (games/), a picture (render/) and the Discord
flow they need."""

from __future__ import annotations

from games import REGISTRY, Game
from render import RENDERERS

# Consequence needs its private flow (ephemeral tile choice, public notation only in the
# channel, DMs of each player's view) before it may be offered: without it, symbols would leak.
AWAITING_DISCORD_FLOW = frozenset({"consequence"})

PLAYABLE: dict[str, Game] = {gid: game for gid, game in REGISTRY.items()
                             if gid in RENDERERS and gid not in AWAITING_DISCORD_FLOW}
