"""The store's part for puzzles from real games (migration 0009): the puzzles an analysis
found, who answered which, and each player's puzzle rating. Mixed into `store.Queries` and
`store.Tx` (bot/store.py), so that every caller still reaches all of Corral's SQL through the
store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from .db import Conn, Row

PUZZLE_IDS_LOCK = 0x70757A7A  # "puzz": one new puzzle id at a time (PostgreSQL advisory lock)


@dataclass(frozen=True)
class PuzzleRow:
    id: int
    game: str
    guild_id: int
    match_id: int
    ply: int
    seats: int
    options: dict[str, str]
    entries: list[list[str]]  # the record up to the puzzle: [kind, notation] each
    seat: int  # 0-based seat to move
    solution: str
    level: str  # the level that confirmed it
    margin: float
    mu: float
    sigma: float


def _puzzle_row(row: Row) -> PuzzleRow:
    return PuzzleRow(
        id=int(row["id"]), game=row["game"], guild_id=int(row["guild_id"]),
        match_id=int(row["match_id"]), ply=int(row["ply"]), seats=int(row["seats"]),
        options=orjson.loads(row["options"]), entries=orjson.loads(row["entries"]),
        seat=int(row["seat"]), solution=row["solution"], level=row["level"],
        margin=float(row["margin"]), mu=float(row["mu"]), sigma=float(row["sigma"]))


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


class PuzzleQueries:
    conn: Conn

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        row = await self.conn.fetchrow("SELECT * FROM puzzles WHERE id = $1", puzzle_id)
        return None if row is None else _puzzle_row(row)

    async def puzzles_of_match(self, match_id: int) -> list[PuzzleRow]:
        rows = await self.conn.fetch("SELECT * FROM puzzles WHERE match_id = $1 ORDER BY ply",
                                     match_id)
        return [_puzzle_row(r) for r in rows]

    async def next_puzzle(self, user_id: int, game: str, guild_id: int) -> PuzzleRow | None:
        """A puzzle of `game` for the player: never one they answered, never from a match
        they have a seat in (playing it or played it); their own server's first."""
        row = await self.conn.fetchrow(
            "SELECT * FROM puzzles p WHERE p.game = $1"
            " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id"
            " AND a.user_id = $2)"
            " AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.match_id = p.match_id"
            " AND s.user_id = $3)"
            " ORDER BY CASE WHEN p.guild_id = $4 THEN 0 ELSE 1 END, p.id LIMIT 1",
            game, user_id, user_id, guild_id)
        return None if row is None else _puzzle_row(row)

    async def puzzle_attempt(self, puzzle_id: int, user_id: int) -> bool:
        return await self.conn.fetchval(
            "SELECT 1 FROM puzzle_attempts WHERE puzzle_id = $1 AND user_id = $2",
            puzzle_id, user_id) is not None

    async def puzzle_rating(self, user_id: int, game: str) -> tuple[float, float] | None:
        row = await self.conn.fetchrow(
            "SELECT mu, sigma FROM puzzle_ratings WHERE user_id = $1 AND game = $2",
            user_id, game)
        return None if row is None else (float(row["mu"]), float(row["sigma"]))


class PuzzleWrites:
    conn: Conn

    async def add_puzzle(self, *, game: str, guild_id: int, match_id: int, ply: int,
                         seats: int, options: dict[str, str], entries: list[list[str]],
                         seat: int, solution: str, level: str, margin: float, mu: float,
                         sigma: float, now: float) -> None:
        """Store a confirmed puzzle (once per match and ply). Its id is the next number: one
        transaction at a time takes one (on PostgreSQL, shards analyse side by side)."""
        await self.conn.serialize(PUZZLE_IDS_LOCK)
        await self.conn.execute(
            "INSERT INTO puzzles (id, game, guild_id, match_id, ply, seats, options, entries,"
            " seat, solution, level, margin, mu, sigma, created_at)"
            " SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
            " $12, $13, $14 FROM puzzles WHERE TRUE ON CONFLICT (match_id, ply) DO NOTHING",
            game, guild_id, match_id, ply, seats, _dumps(options), _dumps(entries), seat,
            solution, level, margin, mu, sigma, now)

    async def answer_puzzle(self, puzzle_id: int, user_id: int, answer: str, solved: bool,
                            now: float) -> bool:
        """The player's answer; False if they had answered it already (nothing changes)."""
        return await self.conn.execute(
            "INSERT INTO puzzle_attempts (puzzle_id, user_id, answer, solved, at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (puzzle_id, user_id) DO NOTHING",
            puzzle_id, user_id, answer[:40], int(solved), now) == 1

    async def set_puzzle_ratings(self, puzzle_id: int, mu: float, sigma: float, user_id: int,
                                 game: str, user_mu: float, user_sigma: float,
                                 solved: bool) -> None:
        await self.conn.execute("UPDATE puzzles SET mu = $1, sigma = $2 WHERE id = $3",
                                mu, sigma, puzzle_id)
        await self.conn.execute(
            "INSERT INTO puzzle_ratings (user_id, game, mu, sigma, solved, failed)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, game) DO UPDATE SET"
            " mu = $7, sigma = $8, solved = puzzle_ratings.solved + $9,"
            " failed = puzzle_ratings.failed + $10",
            user_id, game, user_mu, user_sigma, int(solved), int(not solved), user_mu,
            user_sigma, int(solved), int(not solved))
