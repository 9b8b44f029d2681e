"""The store's part for post-game analyses (migration 0008): the durable, fair job queue and
its results. Mixed into `store.Queries` and `store.Tx` (bot/store/__init__.py), so that every caller
still reaches all of Corral's SQL through the store.

A job is one row per match: a second request finds it (the primary key) and never starts a
second analysis. A worker takes a job by a lease (`claimed_by`, `claimed_until`) for one slice
of positions, saves each position's judgement as it comes (a crash loses at most the position
in hand), and gives the job back after the slice; the next slice goes to the server whose jobs
were served longest ago, so one server's many requests never starve another's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from .db import Conn, Row


@dataclass(frozen=True)
class AnalysisRow:
    match_id: int
    guild_id: int
    status: str  # queued, done, failed
    level: str
    total: int  # positions to judge (the entries of the match's effective log)
    judged: list[Any]  # the judgements so far, in order ([best, chances] or None each)
    result: dict[str, Any] | None
    channel_id: int  # where the result is posted
    token: str | None  # the reply that shows the progress, while Discord keeps it
    token_expires: float | None
    language: str | None  # of the reply that shows the progress
    requested_by: int
    requested_at: float
    served_at: float | None
    attempts: int
    finished_at: float | None


def _analysis_row(row: Row) -> AnalysisRow:
    return AnalysisRow(
        match_id=int(row["match_id"]), guild_id=int(row["guild_id"]), status=row["status"],
        level=row["level"], total=int(row["total"]), judged=orjson.loads(row["judged"]),
        result=None if row["result"] is None else orjson.loads(row["result"]),
        channel_id=int(row["channel_id"]), token=row["token"],
        token_expires=row["token_expires"], language=row["language"],
        requested_by=int(row["requested_by"]),
        requested_at=float(row["requested_at"]), served_at=row["served_at"],
        attempts=int(row["attempts"]), finished_at=row["finished_at"])


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


class AnalysisQueries:
    conn: Conn

    async def analysis(self, match_id: int) -> AnalysisRow | None:
        row = await self.conn.fetchrow("SELECT * FROM analyses WHERE match_id = $1", match_id)
        return None if row is None else _analysis_row(row)

    async def analyses_ahead(self, match_id: int) -> int:
        """Queued jobs requested before this one (what waits in front of it, roughly)."""
        return int(await self.conn.fetchval(
            "SELECT COUNT(*) FROM analyses a WHERE a.status = 'queued' AND a.requested_at <"
            " (SELECT b.requested_at FROM analyses b WHERE b.match_id = $1)", match_id) or 0)


class AnalysisWrites:
    conn: Conn

    async def add_analysis(self, *, match_id: int, guild_id: int | None, level: str, total: int,
                           channel_id: int, token: str | None, token_expires: float | None,
                           language: str, requested_by: int, now: float) -> bool:
        """Queue the analysis of a match; False if it was requested before (nothing changes)."""
        return await self.conn.execute(
            "INSERT INTO analyses (match_id, guild_id, level, total, channel_id, token,"
            " token_expires, language, requested_by, requested_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (match_id) DO NOTHING",
            match_id, guild_id or 0, level, total, channel_id, token, token_expires, language,
            requested_by, now) == 1

    async def claim_analysis(self, worker: str, now: float, until: float) -> AnalysisRow | None:
        """Lease the next slice of work: the oldest queued job of the server whose jobs were
        served longest ago (a job another worker holds is left alone)."""
        row = await self.conn.fetchrow(
            "SELECT a.match_id FROM analyses a WHERE a.status = 'queued'"
            " AND (a.claimed_until IS NULL OR a.claimed_until < $1)"
            " ORDER BY (SELECT COALESCE(MAX(b.served_at), 0) FROM analyses b"
            " WHERE b.guild_id = a.guild_id), a.requested_at, a.match_id LIMIT 1", now)
        if row is None:
            return None
        taken = await self.conn.returning(
            "UPDATE analyses SET claimed_by = $1, claimed_until = $2, served_at = $3"
            " WHERE match_id = $4 AND status = 'queued'"
            " AND (claimed_until IS NULL OR claimed_until < $5) RETURNING *",
            worker, until, now, row["match_id"], now)
        return _analysis_row(taken[0]) if taken else None

    async def save_judged(self, match_id: int, judged: list[Any], worker: str,
                          until: float) -> bool:
        """One more position judged (and the lease extended); False if the job is no longer
        this worker's."""
        return await self.conn.execute(
            "UPDATE analyses SET judged = $1, claimed_until = $2"
            " WHERE match_id = $3 AND claimed_by = $4 AND status = 'queued'",
            _dumps(judged), until, match_id, worker) == 1

    async def release_analysis(self, match_id: int, worker: str) -> None:
        """Give the job back after a slice (the next slice goes where fairness says)."""
        await self.conn.execute(
            "UPDATE analyses SET claimed_until = NULL WHERE match_id = $1 AND claimed_by = $2",
            match_id, worker)

    async def release_analysis_claims(self, worker: str) -> None:
        """Jobs an earlier run of this worker held when it stopped or crashed."""
        await self.conn.execute(
            "UPDATE analyses SET claimed_until = NULL WHERE claimed_by = $1"
            " AND status = 'queued'", worker)

    async def finish_analysis(self, match_id: int, result: dict[str, Any], now: float) -> None:
        await self.conn.execute(
            "UPDATE analyses SET status = 'done', result = $1, finished_at = $2,"
            " claimed_until = NULL WHERE match_id = $3", _dumps(result), now, match_id)

    async def analysis_failed(self, match_id: int, error: str, now: float, *,
                              give_up: bool) -> None:
        """A slice failed: tried again later, or given up (`give_up`)."""
        await self.conn.execute(
            "UPDATE analyses SET attempts = attempts + 1, error = $1, claimed_until = NULL,"
            " status = $2, finished_at = $3 WHERE match_id = $4",
            error[:500], "failed" if give_up else "queued", now if give_up else None, match_id)

    async def requeue_analysis(self, match_id: int, channel_id: int, token: str | None,
                               token_expires: float | None, language: str) -> None:
        """A failed job asked for again: queued afresh (what it judged is kept), its
        progress shown in the new request's reply."""
        await self.conn.execute(
            "UPDATE analyses SET status = 'queued', attempts = 0, error = NULL,"
            " finished_at = NULL, channel_id = $1, token = $2, token_expires = $3,"
            " language = $4 WHERE match_id = $5 AND status = 'failed'",
            channel_id, token, token_expires, language, match_id)
