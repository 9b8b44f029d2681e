"""Puzzles (/puzzle), Discord-free: each game's curated set entering the store, storing what
an analysis found, offering a puzzle to a player, and rating the answer.

A puzzle is rated like a player, as Lichess rates puzzles: the player and the puzzle are the
two parties of a game the player wins by finding the solution (Glicko-2, bot/glicko.py; every
answer a rating period of its own). Only the first answer of a player to a puzzle counts; a
puzzle is never offered again to someone who answered it, nor to anyone who has a seat in the
match it comes from, nor right after another one of its turn.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from games import KITS, GameError, Phrase, get_game
from games.analysis import replayed
from games.puzzles import Curated, curated

from ..glicko import Glicko, answered
from ..store import Tx
from ..store.puzzles import PuzzleRow, curated_content
from ..words import strings
from .core import BadRequest, Context, Forbidden, NotFound, StaleAction

log = logging.getLogger(__name__)

CURATED_LEVEL = "curated"  # a curated puzzle's `level`: checked by exhaustive search


@dataclass(frozen=True)
class PuzzleResult:
    puzzle: PuzzleRow
    answer: str
    solved: bool
    before: Glicko
    after: Glicko

    @property
    def refutation(self) -> list[str]:
        """The line that shows a wrong answer fails (the answer first), or nothing."""
        return [] if self.solved else list(self.puzzle.refutations.get(self.answer, []))


def puzzle_state(puzzle: PuzzleRow) -> Any:
    """The position of a puzzle, replayed from its record."""
    return line_states(puzzle, [])[0]


def line_states(puzzle: PuzzleRow, line: list[str]) -> list[Any]:
    """The puzzle's position and the positions after each ply of `line` (notations)."""
    game = get_game(puzzle.game)
    states, _ = replayed(game, game.new(puzzle.seats, puzzle.options), puzzle.entries)
    found = [states[-1]]
    for notation in line:
        found.append(game.play(found[-1], notation))
    return found


def _told(p: Curated) -> dict[str, Any]:
    """What the store keeps of a curated puzzle (besides its key, rating and answers)."""
    return {"seats": p.seats, "options": dict(p.options),
            "entries": [list(e) for e in p.entries], "seat": p.seat, "solution": p.solution,
            "goal": p.goal, "line": list(p.line),
            "refutations": {m: list(r) for m, r in p.refutations.items()},
            "themes": list(p.themes), "turn": p.turn,
            "gains": {m: float(g) for m, g in p.gains.items()}}


class Puzzles:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    async def import_curated(self) -> int:
        """Every kit's curated set into the store, at start: the puzzles not there yet, by key
        (a set an upgrade grew adds its new ones); returns how many were added."""
        added = 0
        for game_id in KITS:
            try:
                found = curated(game_id)
            except (OSError, ValueError, TypeError):  # a broken set: the others still come in
                log.exception("curated puzzles of %s not read", game_id)
                continue
            if not found.puzzles:
                continue
            have = await self.ctx.store.curated_keys(game_id)
            told = {p.key: _told(p) for p in found.puzzles}
            fresh = [p for p in found.puzzles if p.key not in have]
            corrected = [p for p in found.puzzles if p.key in have
                         and have[p.key] != curated_content(**told[p.key])]
            if not fresh and not corrected:
                continue
            async with self.ctx.store.transaction(background=True) as tx:
                for p in fresh:
                    await tx.add_puzzle(
                        key=p.key, game=game_id, guild_id=0, match_id=None,
                        ply=len(p.entries), level=CURATED_LEVEL, margin=0.0, rating=Glicko(),
                        now=self.ctx.clock(), **told[p.key])
                for p in corrected:  # a set that corrects a puzzle: the store follows it
                    await tx.correct_curated(p.key, **told[p.key])
            added += len(fresh)
            log.info("curated puzzles of %s: %s added, %s corrected", game_id, len(fresh),
                     len(corrected))
        return added

    @staticmethod
    async def store_found(tx: Tx, *, game: str, guild_id: int, match_id: int,
                          seats: int, options: dict[str, str], entries: list[list[str]],
                          found: list[dict[str, Any]], level: str, now: float) -> None:
        """The confirmed puzzles of an analysed match (`games.puzzles.puzzles_job`: "ply",
        "seat", "solution", and "margin" or "goal", "line", "refutations", "themes", "turn",
        "gains")."""
        for p in found:
            ply = int(p["ply"])
            await tx.add_puzzle(game=game, guild_id=guild_id, match_id=match_id, ply=ply,
                                seats=seats, options=options, entries=entries[:ply],
                                seat=int(p["seat"]), solution=str(p["solution"]), level=level,
                                margin=float(p.get("margin", 0.0)), rating=Glicko(), now=now,
                                goal=str(p.get("goal", "")),
                                line=[str(n) for n in p.get("line", [])],
                                refutations={str(m): [str(n) for n in r]
                                             for m, r in dict(p.get("refutations", {})).items()},
                                themes=[str(t) for t in p.get("themes", [])],
                                turn=f"match{match_id}:{p.get('turn', ply)}",
                                gains={str(m): float(g)
                                       for m, g in dict(p.get("gains", {})).items()})

    async def puzzle_rating(self, user_id: int, game: str) -> Glicko:
        found = await self.ctx.store.puzzle_rating(user_id, game)
        return Glicko() if found is None else found

    async def offer_puzzle(self, user_id: int, game_id: str, guild_id: int | None) -> PuzzleRow:
        from games import REGISTRY

        game = REGISTRY.get(game_id)
        if game is None:
            raise NotFound(strings.UNKNOWN_GAME, reason=game_id[:40])
        found = await self.ctx.store.next_puzzle(user_id, game_id, guild_id or 0)
        if found is None:
            raise NotFound(strings.NO_PUZZLE, game=Phrase(game.name))
        async with self.ctx.store.transaction() as tx:
            await tx.serve_puzzle(user_id, game_id, found.turn)
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
            before = await tx.puzzle_rating(user_id, puzzle.game) or Glicko()
            if not await tx.answer_puzzle(puzzle.id, user_id, answer, solved, self.ctx.clock()):
                raise StaleAction(strings.PUZZLE_STALE)
            fresh = await tx.puzzle(puzzle.id) or puzzle
            after, rated = answered(before, fresh.rating, solved)
            await tx.set_puzzle_ratings(puzzle.id, rated, user_id, puzzle.game, after, solved)
        return PuzzleResult(puzzle, answer, solved, before, after)
