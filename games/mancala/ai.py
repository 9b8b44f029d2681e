"""What the AI knows of Progressive Mancala, and why it searches with alpha-beta.

Mancala games are two-player, perfect-information and without chance: the strongest programs
for the family (Kalah, Awari) are alpha-beta searchers with iterative deepening and a
transposition table, ending in exact solving. Monte Carlo playouts are a poor fit: a random
sowing says little about a position where one move captures the whole goal, and the
ISMCTS of the first version lost to a depth-4 alpha-beta whose evaluation was the score
difference alone. So normal and hard search with `games.search.AlphaBeta` on the fast engine
below; easy keeps the shallow Monte Carlo search (a beginner's opponent that sees captures
but not their replies).

The engine plays on a plain tuple (pits, goal, scores, seat, moves left, owed, target) and
sows on a list: the rules' states keep a repetition history and a dataclass per ply, which is
many times slower. Repetition is not tracked inside the search (a third repetition needs a
long capture-free cycle; the rules still decide it in the match). The tests play the engine
against the rules on random games.

The evaluation counts what a player counts: the score difference; the goal, which the side to
move is more likely to empty (half of it is theirs); moves left in the turn and extra moves owed
to the opponent; and seeds the side to move can capture at once. It is squashed into (-1, 1)
with the target as its scale.
"""

from __future__ import annotations

import math
from typing import Any

from ..search import (
    Decision,
    Engine,
    Knowledge,
    Rewards,
    Tuning,
    alphabeta,
    alphabeta_estimate,
    ismcts,
    ismcts_estimate,
    share,
)
from .game import _NEXT, TARGETS, MancalaMove

_MOVES = tuple(MancalaMove(pit) for pit in range(max(TARGETS)))


def evaluate(state: Any, seats: int) -> Rewards:
    """A cut playout of the Monte Carlo search (easy): the scores so far."""
    a, b = state.scores
    return share([a, b], max(2.0, state.target / 8))


def sow(pits: tuple[int, ...], goal: int, seat: int, start: int) -> tuple | None:
    """The rules' sowing on a list: (pits, goal, captured, ended_empty), or None for a relay
    that would not end (the rules refuse such a pit; it cannot happen, see game.py)."""
    size = len(pits)
    nxt = _NEXT[(size, seat)]
    board = list(pits)
    pos = start
    hand = board[pos]
    board[pos] = 0
    for _ in range(4 * sum(pits) + 8):
        while hand:
            pos = nxt[pos]
            hand -= 1
            if pos == size:
                goal += 1
            else:
                board[pos] += 1
        if pos == size:
            return tuple(board), 0, goal, False
        if board[pos] == 1:
            return tuple(board), goal, 0, True
        hand = board[pos]
        board[pos] = 0
    return None


def enter(state: Any) -> tuple:
    return (state.pits, state.goal, state.scores[0], state.scores[1], state.to_move,
            state.moves_left, state.owed, state.target)


def moves(s: tuple) -> list[int]:
    """The pits that are not empty: first those whose seeds reach the goal exactly (a capture
    without relay), then the rest from the one with most seeds (a relay that goes round)."""
    pits, seat, target = s[0], s[4], s[7]
    if s[2] >= target or s[3] >= target:
        return []
    size = len(pits)
    exact = [p for p in range(size) if pits[p] == (p + 1 if seat == 0 else size - p)]
    rest = sorted((p for p in range(size) if pits[p] and p not in exact),
                  key=lambda p: -pits[p])
    return exact + rest


def play(s: tuple, pit: int) -> tuple | None:
    pits, goal, s0, s1, seat, left, owed, target = s
    sown = sow(pits, goal, seat, pit)
    if sown is None:
        return None
    board, pot, captured, empty = sown
    a, b = (s0 + captured, s1) if seat == 0 else (s0, s1 + captured)
    o = owed + empty
    if left > 1:
        return (board, pot, a, b, seat, left - 1, o, target)
    return (board, pot, a, b, 1 - seat, 1 + o, 0, target)


def result(s: tuple) -> float | None:
    target = s[7]
    return 1.0 if s[2] >= target else -1.0 if s[3] >= target else None


def value(s: tuple) -> float:
    """The evaluation for seat 0 (see the module's docstring)."""
    pits, goal, s0, s1, seat, left, owed, target = s
    sign = 1 if seat == 0 else -1
    x = s0 - s1 + sign * (0.3 * goal + 1.0 * (left - 1) - 1.0 * owed)
    # what the side to move captures at once: a pit whose seeds reach the goal exactly
    size = len(pits)
    best = 0
    for pit in range(size):
        n = pits[pit]
        if n and n == (pit + 1 if seat == 0 else size - pit):
            best = goal + 1
            break
    x += sign * 0.5 * best
    return math.tanh(x / target)


ENGINE = Engine(enter=enter, moves=moves, play=play, mover=lambda s: s[4], result=result,
                evaluate=value, key=lambda s: s, to_rules=lambda pit: _MOVES[pit],
                nodes_per_iteration=32.0)
TUNING = Tuning(24, evaluate)


def search(decision: Decision) -> Any:
    if decision.level == "easy":
        return ismcts(decision, TUNING)
    return alphabeta(decision, ENGINE)


def estimate(decision: Decision) -> tuple[Any, list[float]]:
    """The move `search` plays and each seat's chance of winning (post-game analysis)."""
    if decision.level == "easy":
        return ismcts_estimate(decision, TUNING)
    return alphabeta_estimate(decision, ENGINE)


# The search's own noise in a post-game analysis, per level (a smaller loss of chance is no
# mistake): `python bench/analysis_noise.py --positions 10 --seeds 3`, 2 shared cores,
# load 2 to 5 (the larger 95th percentile of two seeds' spread and of the drop after the
# move the search prefers).
KNOWLEDGE = Knowledge(TUNING, search=search, estimate=estimate,
                      noise={"easy": 0.12, "normal": 0.05, "hard": 0.01})
