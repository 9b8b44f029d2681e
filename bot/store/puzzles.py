"""The store's part for puzzles (migrations 0009 and 0014): each game's curated set and the
puzzles analyses found, who answered which, and each player's puzzle rating (Glicko-2,
bot/glicko.py). Mixed into `store.Queries` and `store.Tx` (bot/store/__init__.py), so that
every caller still reaches all of Corral's SQL through the store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from ..glicko import Glicko
from .db import Conn, Row

PUZZLE_IDS_LOCK = 0x70757A7A  # "puzz": one new puzzle id at a time (PostgreSQL advisory lock)


@dataclass(frozen=True)
class PuzzleRow:
    id: int
    game: str
    guild_id: int
    match_id: int | None  # None: a curated puzzle (`key` names it in its set)
    ply: int
    seats: int
    options: dict[str, str]
    entries: list[list[str]]  # the record up to the puzzle: [kind, notation] each
    seat: int  # 0-based seat to move: the solver's
    solution: str
    level: str  # the level that confirmed it ("curated": exhaustive search)
    margin: float
    rating: Glicko
    key: str | None = None
    goal: str = ""  # a key of games.puzzles.GOALS; "": find the best move (found before 0014)
    line: list[str] = field(default_factory=list)  # the solution and the plies that show it
    refutations: dict[str, list[str]] = field(default_factory=dict)  # move -> its refutation
    themes: list[str] = field(default_factory=list)
    turn: str = ""  # the turn it comes from: two of one turn are never served in a row
    gains: dict[str, float] = field(default_factory=dict)  # goal "most": each move's gain


def _puzzle_row(row: Row) -> PuzzleRow:
    return PuzzleRow(
        id=int(row["id"]), game=row["game"], guild_id=int(row["guild_id"]),
        match_id=None if row["match_id"] is None else int(row["match_id"]), ply=int(row["ply"]),
        seats=int(row["seats"]), options=orjson.loads(row["options"]),
        entries=orjson.loads(row["entries"]), seat=int(row["seat"]), solution=row["solution"],
        level=row["level"], margin=float(row["margin"]),
        rating=Glicko(float(row["rating"]), float(row["deviation"]), float(row["volatility"])),
        key=row["key"], goal=row["goal"], line=orjson.loads(row["line"]),
        refutations=orjson.loads(row["refutations"]), themes=orjson.loads(row["themes"]),
        turn=row["turn"], gains=orjson.loads(row["gains"]))


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _content(*fields: Any) -> str:
    return _dumps(list(fields))


def curated_content(*, seats: int, options: dict[str, str], entries: list[list[str]],
                    seat: int, solution: str, goal: str, line: list[str],
                    refutations: dict[str, list[str]], themes: list[str], turn: str,
                    gains: dict[str, float]) -> str:
    """What a curated puzzle says, as the store keeps it: two equal only if nothing of the
    puzzle changed (its rating and answers aside)."""
    return _content(seats, _dumps(options), _dumps(entries), seat, solution, goal,
                    _dumps(line), _dumps(refutations), _dumps(themes), turn, _dumps(gains))


class PuzzleQueries:
    conn: Conn

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        row = await self.conn.fetchrow("SELECT * FROM puzzles WHERE id = $1", puzzle_id)
        return None if row is None else _puzzle_row(row)

    async def puzzles_of_match(self, match_id: int) -> list[PuzzleRow]:
        rows = await self.conn.fetch("SELECT * FROM puzzles WHERE match_id = $1 ORDER BY ply",
                                     match_id)
        return [_puzzle_row(r) for r in rows]

    async def curated_keys(self, game: str) -> dict[str, str]:
        """The game's curated puzzles already in the store: key -> `curated_content` of what
        is stored (a puzzle corrected by a new set differs)."""
        rows = await self.conn.fetch(
            "SELECT key, seats, options, entries, seat, solution, goal, line, refutations,"
            " themes, turn, gains FROM puzzles WHERE game = $1 AND key IS NOT NULL", game)
        return {str(r["key"]): _content(
            int(r["seats"]), str(r["options"]), str(r["entries"]), int(r["seat"]),
            str(r["solution"]), str(r["goal"]), str(r["line"]), str(r["refutations"]),
            str(r["themes"]), str(r["turn"]), str(r["gains"])) for r in rows}

    async def next_puzzle(self, user_id: int, game: str, guild_id: int) -> PuzzleRow | None:
        """A puzzle of `game` for the player: never one they answered, never from a match
        they have a seat in (playing it or played it); never from the turn of the last one
        served to them while another is left (only a puzzle of that turn left: it, rather
        than none ever again); their own server's first, then the nearest to their rating (a
        newcomer's is 1500), then the oldest."""
        row = await self.conn.fetchrow(
            "SELECT * FROM puzzles p WHERE p.game = $1"
            " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id"
            " AND a.user_id = $2)"
            " AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.match_id = p.match_id"
            " AND s.user_id = $2)"
            " ORDER BY CASE WHEN p.turn = COALESCE((SELECT r.last_turn FROM puzzle_ratings r"
            " WHERE r.user_id = $2 AND r.game = $1), '') THEN 1 ELSE 0 END,"
            " CASE WHEN p.guild_id = $3 AND p.match_id IS NOT NULL THEN 0 ELSE 1 END,"
            " ABS(p.rating - COALESCE((SELECT r.rating FROM puzzle_ratings r"
            " WHERE r.user_id = $2 AND r.game = $1), 1500)), p.id LIMIT 1",
            game, user_id, guild_id)
        return None if row is None else _puzzle_row(row)

    async def puzzle_attempt(self, puzzle_id: int, user_id: int) -> bool:
        return await self.conn.fetchval(
            "SELECT 1 FROM puzzle_attempts WHERE puzzle_id = $1 AND user_id = $2",
            puzzle_id, user_id) is not None

    async def puzzle_rating(self, user_id: int, game: str) -> Glicko | None:
        row = await self.conn.fetchrow(
            "SELECT rating, deviation, volatility FROM puzzle_ratings"
            " WHERE user_id = $1 AND game = $2", user_id, game)
        return None if row is None else Glicko(float(row["rating"]), float(row["deviation"]),
                                                float(row["volatility"]))


class PuzzleWrites:
    conn: Conn

    async def correct_curated(self, key: str, *, seats: int, options: dict[str, str],
                              entries: list[list[str]], seat: int, solution: str, goal: str,
                              line: list[str], refutations: dict[str, list[str]],
                              themes: list[str], turn: str, gains: dict[str, float]) -> None:
        """A curated puzzle a new set corrects (same key): its words and position are the
        set's; its rating and the answers given stay."""
        await self.conn.execute(
            "UPDATE puzzles SET seats = $1, options = $2, entries = $3, seat = $4,"
            " solution = $5, goal = $6, line = $7, refutations = $8, themes = $9, turn = $10,"
            " gains = $11, ply = $12 WHERE key = $13",
            seats, _dumps(options), _dumps(entries), seat, solution, goal, _dumps(line),
            _dumps(refutations), _dumps(themes), turn, _dumps(gains), len(entries), key)

    async def add_puzzle(self, *, game: str, guild_id: int, match_id: int | None, ply: int,
                         seats: int, options: dict[str, str], entries: list[list[str]],
                         seat: int, solution: str, level: str, margin: float, rating: Glicko,
                         now: float, key: str | None = None, goal: str = "",
                         line: list[str] | None = None,
                         refutations: dict[str, list[str]] | None = None,
                         themes: list[str] | None = None, turn: str = "",
                         gains: dict[str, float] | None = None) -> None:
        """Store a puzzle (a found one once per match and ply, a curated one once per key). Its
        id is the next number: one transaction at a time takes one (on PostgreSQL, shards
        analyse side by side)."""
        await self.conn.serialize(PUZZLE_IDS_LOCK)
        await self.conn.execute(
            "INSERT INTO puzzles (id, key, game, guild_id, match_id, ply, seats, options,"
            " entries, seat, solution, level, margin, goal, line, refutations, themes, turn,"
            " gains, rating, deviation, volatility, created_at)"
            " SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
            " $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22 FROM puzzles WHERE TRUE"
            " ON CONFLICT DO NOTHING",
            key, game, guild_id, match_id, ply, seats, _dumps(options), _dumps(entries), seat,
            solution, level, margin, goal, _dumps(line or []), _dumps(refutations or {}),
            _dumps(themes or []), turn, _dumps(gains or {}), rating.rating, rating.deviation,
            rating.volatility, now)

    async def serve_puzzle(self, user_id: int, game: str, turn: str) -> None:
        """Remember the turn of the puzzle served to the player (the next never comes from
        it); a newcomer gets the starting rating."""
        fresh = Glicko()
        await self.conn.execute(
            "INSERT INTO puzzle_ratings (user_id, game, rating, deviation, volatility,"
            " last_turn) VALUES ($1, $2, $3, $4, $5, $6)"
            " ON CONFLICT (user_id, game) DO UPDATE SET last_turn = $6",
            user_id, game, fresh.rating, fresh.deviation, fresh.volatility, turn)

    async def answer_puzzle(self, puzzle_id: int, user_id: int, answer: str, solved: bool,
                            now: float) -> bool:
        """The player's answer; False if they had answered it already (nothing changes)."""
        return await self.conn.execute(
            "INSERT INTO puzzle_attempts (puzzle_id, user_id, answer, solved, at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (puzzle_id, user_id) DO NOTHING",
            puzzle_id, user_id, answer[:40], int(solved), now) == 1

    async def set_puzzle_ratings(self, puzzle_id: int, puzzle: Glicko, user_id: int,
                                 game: str, player: Glicko, solved: bool) -> None:
        await self.conn.execute(
            "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3 WHERE id = $4",
            puzzle.rating, puzzle.deviation, puzzle.volatility, puzzle_id)
        await self.conn.execute(
            "INSERT INTO puzzle_ratings (user_id, game, rating, deviation, volatility, solved,"
            " failed) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, game) DO UPDATE"
            " SET rating = $3, deviation = $4, volatility = $5,"
            " solved = puzzle_ratings.solved + $6, failed = puzzle_ratings.failed + $7",
            user_id, game, player.rating, player.deviation, player.volatility, int(solved),
            int(not solved))
