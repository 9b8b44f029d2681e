"""Ghostone's plain material for the strength bench's greedy opponent (bench/strength.py):
my escaped score minus the best other seat's."""

from __future__ import annotations

from typing import Any

from ..search import Baseline
from .game import GAME


def material(state: Any, seat: int) -> float:
    scores = GAME.scores(state)
    return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)


BASELINE = Baseline(material)
