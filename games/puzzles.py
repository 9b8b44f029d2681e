"""Puzzles from real games: positions of a finished, analysed match where the mover's best move
is clearly best, confirmed by a search at a higher budget than the one that found them.

Pure and standard library only (run in a worker process, plain data in and out).

- Candidates: positions the analysis judged (a judgement, not a die roll or a skipped turn)
  where the mover had a choice and the finding level gave the mover a good chance
  (`FOUND_AT_LEAST`).
- Confirmation: every legal move of the candidate is searched again at the next level up
  (`CONFIRM`; the hardest level with a larger iteration budget), from the position it leads
  to (a finished game counts its exact result). The puzzle is kept only when the confirming
  search's best move is the one the analysis preferred and it beats every other legal move by
  `MARGIN` of the mover's chance of winning.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import KITS, get_game
from .analysis import replayed, result_shares
from .base import N_, Game

# What a curated puzzle asks, in words a newcomer understands. Every puzzle states one goal,
# and exhaustive search checked that exactly one legal move reaches it (whatever is rolled or
# hidden where chance or hidden information reaches it).
GOALS: dict[str, str] = {
    "win": N_("Win this turn."),
    "safe": N_("Do not hand over the win: one move only keeps the next player from winning "
               "at once."),
    "most": N_("Gain the most this turn."),
}


@dataclass(frozen=True)
class Curated:
    """One puzzle of a kit's shipped set (`Kit.puzzles`), as `curated(game_id)` loads it."""

    key: str  # stable and unique in the set: "<game>:<source>:<ply>"
    game: str
    seats: int
    options: dict[str, str]
    entries: list[list[str]]  # [kind, notation] from the start to the puzzle's position
    seat: int  # 0-based seat to move: the solver's
    goal: str  # a key of GOALS
    solution: str  # the one move (notation) that reaches the goal
    line: list[str]  # the point of the solution: it and the plies after it (2-3 plies)
    refutations: dict[str, list[str]]  # each other legal move: the line that shows it fails
    themes: list[str]  # theme ids of the set's "themes"
    turn: str  # the turn it comes from ("<source>:<turn>"): two of one turn never in a row


@dataclass(frozen=True)
class PuzzleSet:
    puzzles: list[Curated]
    themes: dict[str, dict[str, str]]  # theme id -> its name in every language


@cache
def curated(game_id: str) -> PuzzleSet:
    """A kit's shipped puzzle set (empty for a kit without one). The file is
    {"format": 1, "game": id, "themes": {id: {"en": .., "ja": ..}}, "puzzles": [Curated as a
    JSON object, without "game"]}."""
    kit = KITS[game_id]
    if kit.puzzles is None or not kit.puzzles.exists():
        return PuzzleSet([], {})
    data = json.loads(kit.puzzles.read_text(encoding="utf-8"))
    if data.get("format") != 1 or data.get("game") != game_id:
        raise ValueError(f"{kit.puzzles}: not a format 1 puzzle set of {game_id}")
    themes: Mapping[str, dict[str, str]] = data.get("themes", {})
    found = [Curated(game=game_id, **p) for p in data["puzzles"]]
    for p in found:
        if p.goal not in GOALS or any(t not in themes for t in p.themes):
            raise ValueError(f"{kit.puzzles}: {p.key} has an unknown goal or theme")
    return PuzzleSet(found, dict(themes))

FOUND_AT_LEAST = 0.6  # the mover's chance at the finding level, for a candidate
MARGIN = 0.3  # how much better the solution must be than every other move, when confirmed
CONFIRM = {"easy": "normal", "normal": "hard", "hard": "hard"}
HARD_FACTOR = 2  # the hardest level is confirmed with this many times its iterations
MAX_PER_MATCH = 3  # puzzles kept from one match at most
MAX_CANDIDATES = 4  # positions confirmed per match at most (the mover's best chances first)


def candidates(game: Game, states: Sequence[Any], judged: Sequence[Any]) -> list[int]:
    """Indexes of the positions worth confirming (judged[i] as `judge_job` gives it)."""
    found = []
    for i, note in enumerate(judged):
        if note is None or i >= len(states) - 1:
            continue
        state = states[i]
        seat = game.to_move(state)
        if seat is None or game.is_chance(state) or len(game.legal_moves(state)) < 2:
            continue
        if float(note[1][seat]) >= FOUND_AT_LEAST:
            found.append((float(note[1][seat]), i))
    found.sort(key=lambda c: (-c[0], -c[1]))
    return sorted(i for _, i in found[:MAX_CANDIDATES])


def move_values(game: Game, state: Any, *, level: str, seed: int,
                iterations: int | None = None) -> dict[str, float] | None:
    """The mover's chance after each legal move, by a search at `level` (None where a move
    leads to a die roll: not a puzzle)."""
    from .ai import LEVELS, estimate, knowledge_for

    seat = game.to_move(state)
    assert seat is not None
    values: dict[str, float] = {}
    for k, move in enumerate(game.legal_moves(state)):
        after = game.apply(state, move)
        if game.outcome(after) is not None:
            chance = result_shares(game, after)[seat]
        elif game.is_chance(after):
            return None
        else:
            budget = iterations
            if budget is None and level == "hard":
                budget = round(LEVELS[level].iterations * knowledge_for(game).tuning.budget
                               * HARD_FACTOR)
            chance = float(estimate(game, after, level=level, seed=seed + k,
                                    iterations=budget, time_cap=None)[1][seat])
        values[game.format_move(state, move)] = chance
    return values


def confirm(game: Game, state: Any, best: str, *, level: str, seed: int) -> float | None:
    """The margin by which `best` beats every other move at the confirming level, or None if
    it is not clearly best there."""
    values = move_values(game, state, level=CONFIRM[level], seed=seed)
    if not values or best not in values or len(values) < 2:
        return None
    others = max(v for m, v in values.items() if m != best)
    margin = values[best] - others
    return margin if margin >= MARGIN and values[best] == max(values.values()) else None


def puzzles_job(game_id: str, seat_count: int, options: dict[str, str],
                entries: Sequence[Sequence[str]], judged: Sequence[Any], level: str,
                seed: int = 0) -> list[dict[str, Any]]:
    """For a process pool: the confirmed puzzles of an analysed match, each
    {"ply", "seat", "solution", "margin"} (ply: the entries played before it)."""
    game = get_game(game_id)
    states, _ = replayed(game, game.new(seat_count, options), entries)
    kept: list[dict[str, Any]] = []
    for i in candidates(game, states, judged):
        best = str(judged[i][0])
        margin = confirm(game, states[i], best, level=level, seed=seed + i)
        if margin is None:
            continue
        kept.append({"ply": i, "seat": game.to_move(states[i]), "solution": best,
                     "margin": round(margin, 3)})
    kept.sort(key=lambda p: (-p["margin"], p["ply"]))
    return sorted(kept[:MAX_PER_MATCH], key=lambda p: p["ply"])
