"""Puzzles from real games (/puzzle), Discord-free: storing what an analysis found, offering a
puzzle to a player, and rating the answer.

A puzzle is rated like a player: the player and the puzzle are the two parties of a game the
player wins by finding the solution (OpenSkill, as bot/ratings.py). Only the first answer of a
player to a puzzle counts; a puzzle is never offered again to someone who answered it, nor to
anyone who has a seat in the match it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import GameError, Phrase, get_game
from games.analysis import replayed

from .. import strings
from ..ratings import Skill, rate
from ..store import Tx
from ..store_puzzles import PuzzleRow
from .core import BadRequest, Context, Forbidden, NotFound, StaleAction


@dataclass(frozen=True)
class PuzzleResult:
    puzzle: PuzzleRow
    answer: str
    solved: bool
    before: Skill
    after: Skill


def puzzle_state(puzzle: PuzzleRow) -> Any:
    """The position of a puzzle, replayed from its record."""
    game = get_game(puzzle.game)
    states, _ = replayed(game, game.new(puzzle.seats, puzzle.options), puzzle.entries)
    return states[-1]


class Puzzles:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    @staticmethod
    async def store_found(tx: Tx, *, game: str, guild_id: int, match_id: int,
                          seats: int, options: dict[str, str], entries: list[list[str]],
                          found: list[dict[str, Any]], level: str, now: float) -> None:
        """The confirmed puzzles of an analysed match (`games.puzzles.puzzles_job`)."""
        fresh = Skill.new()
        for p in found:
            await tx.add_puzzle(game=game, guild_id=guild_id, match_id=match_id,
                                ply=int(p["ply"]), seats=seats, options=options,
                                entries=entries[:int(p["ply"])], seat=int(p["seat"]),
                                solution=str(p["solution"]), level=level,
                                margin=float(p["margin"]), mu=fresh.mu, sigma=fresh.sigma,
                                now=now)

    async def puzzle_rating(self, user_id: int, game: str) -> Skill:
        found = await self.ctx.store.puzzle_rating(user_id, game)
        return Skill.new() if found is None else Skill(*found)

    async def offer_puzzle(self, user_id: int, game_id: str, guild_id: int | None) -> PuzzleRow:
        from games import REGISTRY

        game = REGISTRY.get(game_id)
        if game is None:
            raise NotFound(strings.UNKNOWN_GAME, reason=game_id[:40])
        found = await self.ctx.store.next_puzzle(user_id, game_id, guild_id or 0)
        if found is None:
            raise NotFound(strings.NO_PUZZLE, game=Phrase(game.name))
        return found

    async def puzzle_for(self, user_id: int, owner: int, puzzle_id: int) -> PuzzleRow:
        """The puzzle a component names, if it is still the clicking player's to answer."""
        if user_id != owner:
            raise Forbidden(strings.PUZZLE_NOT_YOURS)
        found = await self.ctx.store.puzzle(puzzle_id)
        if found is None or await self.ctx.store.puzzle_attempt(puzzle_id, user_id):
            raise StaleAction(strings.PUZZLE_STALE)
        return found

    async def answer_puzzle(self, user_id: int, owner: int, puzzle_id: int,
                            answer: str) -> PuzzleResult:
        """Check the answer (a legal move's notation) and rate it, once."""
        puzzle = await self.puzzle_for(user_id, owner, puzzle_id)
        game = get_game(puzzle.game)
        state = puzzle_state(puzzle)
        try:
            move = game.parse_move(state, answer)
        except GameError:
            raise BadRequest(strings.PUZZLE_BAD_ANSWER) from None
        answer = game.format_move(state, move)
        solved = answer == puzzle.solution
        async with self.ctx.store.transaction() as tx:
            stored = await tx.puzzle_rating(user_id, puzzle.game)
            before = Skill.new() if stored is None else Skill(*stored)
            if not await tx.answer_puzzle(puzzle.id, user_id, answer, solved, self.ctx.clock()):
                raise StaleAction(strings.PUZZLE_STALE)
            fresh = await tx.puzzle(puzzle.id) or puzzle
            after, rated = rate([before, Skill(fresh.mu, fresh.sigma)],
                                [1, 2] if solved else [2, 1])
            await tx.set_puzzle_ratings(puzzle.id, rated.mu, rated.sigma, user_id,
                                        puzzle.game, after.mu, after.sigma, solved)
        return PuzzleResult(puzzle, answer, solved, before, after)
