"""Progressive Mancala's plain material for the strength bench's classical opponents
(bench/strength.py): my store minus yours."""

from __future__ import annotations

from typing import Any

from ..search import Baseline


def material(state: Any, seat: int) -> float:
    return state.scores[seat] - state.scores[1 - seat]


def engine_material(s: Any) -> float:
    """Seat 0's material on a position of the kit's engine (games.mancala.ai.ENGINE)."""
    return s[2] - s[3]


BASELINE = Baseline(material, engine_material)
