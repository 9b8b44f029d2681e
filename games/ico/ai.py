"""What the AI knows of ICO: nothing beyond the rules yet. Random playouts run to the end
(a game is at most a few hundred plies), and the search proves wins and losses on its own."""

from __future__ import annotations

from ..search import Knowledge, Tuning

KNOWLEDGE = Knowledge(Tuning(400))
