"""Post-game analyses, Discord-free: who may ask for one, the durable job it queues (once per
match), and the result posted through the outbox. The search itself runs in the bot's
analysis runner (bot/analysis_runner.py), in worker processes, never here.

Only a finished match is analysed, and only what was public at its end goes into it: a game
with hidden information is analysed only when its end showed everything
(`games.analysis.public_at_end`), and each position is searched from the observation of the
seat to move, as the AI always is.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.analysis import public_at_end

from .. import outbox
from ..store import Tx
from ..store.analyses import AnalysisRow
from ..words import strings
from .core import BadRequest, Context, Match, WrongPhase
from .moves import effective_log

LEVEL_NAMES = {"easy": strings.AI_LEVEL_EASY, "normal": strings.AI_LEVEL_NORMAL,
               "hard": strings.AI_LEVEL_HARD}


@dataclass(frozen=True)
class AnalysisRequest:
    """What a request did: `queued` a new job, found one `running` (queued or in hand), or
    found it `done` (its result is posted again in the asker's channel)."""

    outcome: str
    match: Match
    job: AnalysisRow
    ahead: int = 0


class Analyses:
    def __init__(self, ctx: Context, level: str = "hard"):
        self.ctx = ctx
        self.level = level  # the AI level new analyses search at

    async def analysable(self, match_id: int) -> tuple[Match, list[list[str]]]:
        """The match and its effective log as [kind, notation], or the reason it cannot be
        analysed (not over, aborted, no moves, hidden information left hidden)."""
        match = await self.ctx.get(match_id)
        if match.status == "aborted":
            raise WrongPhase(strings.ANALYSIS_ABORTED, match_id=match.id)
        if match.status != "finished" or match.state is None:
            raise WrongPhase(strings.ANALYSIS_NOT_OVER, match_id=match.id)
        log = effective_log(await self.ctx.store.moves(match.id))
        entries = [[e.kind, e.notation] for e in log]
        if not entries:
            raise BadRequest(strings.ANALYSIS_NO_MOVES, match_id=match.id)
        if not public_at_end(match.game, match.state):
            raise BadRequest(strings.ANALYSIS_HIDDEN, match_id=match.id)
        return match, entries

    async def request_analysis(self, match_id: int, user_id: int, *, channel_id: int,
                               guild_id: int | None, token: str | None,
                               token_expires: float | None, language: str) -> AnalysisRequest:
        """Queue the analysis of a finished match (once: a second request finds the job).
        `token`: the interaction whose reply shows the progress; the result is posted in
        `channel_id`."""
        match, entries = await self.analysable(match_id)
        now = self.ctx.clock()

        async with self.ctx.store.transaction() as tx:
            found = await self._request(tx, match, len(entries), user_id, channel_id=channel_id,
                                        guild_id=guild_id, token=token,
                                        token_expires=token_expires, language=language,
                                        now=now)
        self.ctx.on_commit()
        if found.outcome == "queued":
            self.ctx.on_analysis_queued()
        return found

    async def _request(self, tx: Tx, match: Match, total: int, user_id: int, *,
                       channel_id: int, guild_id: int | None, token: str | None,
                       token_expires: float | None, language: str,
                       now: float) -> AnalysisRequest:
        added = await tx.add_analysis(
            match_id=match.id, guild_id=match.row.guild_id, level=self.level,
            total=total, channel_id=channel_id, token=token,
            token_expires=token_expires, language=language, requested_by=user_id, now=now)
        job = await tx.analysis(match.id)
        if job is None:  # another process's request, not committed yet
            raise BadRequest(strings.ANALYSIS_BUSY, match_id=match.id)
        if added:
            return AnalysisRequest("queued", match, job, await tx.analyses_ahead(match.id))
        if job.status == "failed":  # asked again: try again
            await tx.requeue_analysis(match.id, channel_id, token, token_expires, language)
            job = await tx.analysis(match.id) or job
            return AnalysisRequest("queued", match, job, await tx.analyses_ahead(match.id))
        if job.status == "done":
            await self.post(tx, match.id, channel_id, guild_id, now)
            return AnalysisRequest("done", match, job)
        return AnalysisRequest("running", match, job)

    @staticmethod
    async def post(tx: Tx, match_id: int, channel_id: int, guild_id: int | None,
                   now: float) -> None:
        """The stored analysis, posted in `channel_id` (through the outbox)."""
        payload = outbox.AnalysisPost(match_id=match_id, channel_id=channel_id,
                                      guild_id=guild_id)
        kind, data = outbox.encode(payload)
        await tx.enqueue(payload.lane, kind, data, now)
