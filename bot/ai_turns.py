"""The AI's worker: plays the turns of AI seats, one outbox row (`outbox.AiTurn`) each.

A turn is a row like any other (`bot/outbox_worker.py`): written with the change that made it
the AI's turn, so it survives a restart, and claimed, so that one process plays it. Its search
runs in the AI's own worker processes, never on the event loop, and its move goes through the
service like a person's; its board answers the interaction of the person whose move made it
the AI's turn (`Via`), as a follow-up. Its rows are in hand apart from the delivery worker's:
a long search never holds a board back.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .ai import ai_level, ai_move_job, random_move, seed_for
from .outbox import AiTurn
from .pool import Workers
from .service import Service, ServiceError
from .store import OutboxRow

log = logging.getLogger(__name__)

KINDS = ("ai",)
CONCURRENCY = 32  # turns in hand at once (mostly pausing, or waiting for a worker process)


class AiTurns:
    def __init__(self, service: Service, workers: Workers, pause: float):
        """`workers`: the AI's processes (not the pictures'); `pause`: seconds an AI player
        waits before it moves (a move at once reads as a glitch)."""
        self.service = service
        self.workers = workers
        self.pause = pause

    async def play(self, row: OutboxRow, turn: AiTurn) -> dict[str, Any]:
        """An AI seat's move: the pause, the search in an AI worker from the stored state,
        then the normal move path. A stale row (the match moved on, e.g. this row is a repeat
        after a restart) does nothing."""
        # the pause, in which the AI's workers start if this is the first AI turn
        await asyncio.gather(asyncio.sleep(self.pause), self.workers.warm(),
                             return_exceptions=True)
        match = await self.service.get(turn.match_id)
        mover = match.to_move()
        if (match.status != "active" or match.ply() != turn.ply or mover is None
                or mover.user_id != turn.user_id or match.row.state is None):
            return {"stale": True}
        level = ai_level(mover.user_id)
        seed = seed_for(match.id, match.ply())
        try:
            notation, searched = await self.workers.run(
                ai_move_job, match.game.id, match.row.state, mover.seat, level, seed)
        except Exception:  # the worker died: never let the match stall
            log.exception("AI worker failed in match %s; playing a random legal move", match.id)
            notation, searched = random_move(match.game.id, match.row.state, seed), False
        if not searched:
            log.warning("match %s: the AI played a random legal move (%s)", match.id, notation)
        try:
            await self.service.play(match.id, mover.user_id, notation, expected_ply=turn.ply,
                                    via=turn.via)
        except ServiceError as exc:  # e.g. a takeback or resignation meanwhile
            log.info("AI move in match %s not played: %s", match.id, exc)
            return {"stale": True}
        return {"played": notation, "searched": searched}
