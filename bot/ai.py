"""AI seats: who they are in the store, and the job that picks their move.

An AI seat is a seat whose user id is negative: `-(10 * k + level + 1)` for the k-th AI seat
of a match (ids stay unique within a match) at level 0 easy, 1 normal, 2 hard. Nothing else is
stored: the level is read back from the id, and such a seat is never mentioned, DMed, reminded
or timed. Its move comes from `games.ai`, which sees only the seat's observation; it runs in
the worker pool, never on the event loop.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from games import get_game

LEVELS = ("easy", "normal", "hard")
log = logging.getLogger(__name__)


def ai_user_id(level: str, index: int) -> int:
    return -(10 * index + LEVELS.index(level) + 1)


def is_ai(user_id: int) -> bool:
    return user_id < 0


def ai_level(user_id: int) -> str:
    return LEVELS[(-user_id - 1) % 10]


def ai_name(level: str) -> str:
    return f"Corral ({level})"


def ai_index(user_id: int) -> int:
    """Which AI seat of its match (0, 1, 2...) an AI seat's id is."""
    return (-user_id - 1) // 10


def ai_names(user_ids: Sequence[int]) -> dict[int, str]:
    """The names of a match's AI seats, by user id: one alone is "Corral (easy)"; two or
    more are told apart by a number, "AI 1", "AI 2": three "Corral (easy)" could not be, and
    a four-seat picture's name column at phone width cut them ("Corral…"); with the level
    too ("AI 2 (normal)") it still would."""
    ais = [user_id for user_id in user_ids if is_ai(user_id)]
    if len(ais) == 1:
        return {ais[0]: ai_name(ai_level(ais[0]))}
    return {user_id: f"AI {ai_index(user_id) + 1}" for user_id in ais}


def seed_for(match_id: int, ply: int) -> int:
    """The same position in the same match gets the same move (a retried search after a
    restart plays what the first would have)."""
    return match_id * 100_003 + ply


def ai_move_job(game_id: str, state: dict[str, Any], seat: int, level: str,
                seed: int) -> tuple[str, bool]:
    """In a worker: (notation, searched). Any failure of the search falls back to a random
    legal move (searched False), so an AI seat never stalls its match."""
    try:
        from games.ai import choose_move_job

        return choose_move_job(game_id, state, seat, level, seed), True
    except Exception:
        log.exception("AI search failed for %s; playing a random legal move", game_id)
        return random_move(game_id, state, seed), False


def random_move(game_id: str, state: dict[str, Any], seed: int) -> str:
    game = get_game(game_id)
    decoded = game.from_json(state)
    return random.Random(seed).choice(game.legal_notations(decoded))
