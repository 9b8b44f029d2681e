"""What the AI knows of Progressive Mancala: a cut playout is valued by the scores so far."""

from __future__ import annotations

from typing import Any

from ..search import Knowledge, Rewards, Tuning, share


def evaluate(state: Any, seats: int) -> Rewards:
    a, b = state.scores
    return share([a, b], max(2.0, state.target / 8))


KNOWLEDGE = Knowledge(Tuning(24, evaluate))
