"""ICO's plain material for the strength bench's classical opponents (bench/strength.py).

Progress: over the level's winning patterns (faces, belts or big triangles, from the rules'
tables) the sum of the squares of the edges holding my colour in each, minus the most any other
seat has (every edge counts, one towards a nearly full pattern most); with two seats, also the
threats at the black face (`tempo`): 1000 times the share of the mover's allowed edges that
roll the face to where the other seat completes a pattern at once (against the mover), and at
levels 2 and 2+ the most the mover's placement there adds to its progress (for the mover).
Why: the balance rules leave one to three moves a turn, nearly alike in progress; what a move
decides is where the black face goes, so a player who looks one move ahead judges the face it
leaves the opponent. A pattern is never dead in ICO (an edge takes one marker of every
colour), so there is nothing to discount. Measured (greedy:random, 1,000 games a figure):
threats raise level 1 from 71% to 81% and level 2 from 70% to 75-76%, the mover's gain level 2
to 77-81%; at level 1 it lowers 81% to 78% (a seat's own edges around the face force its later
moves), so it is left out there. Nothing one-ply did better: 150 random weightings of 13 such
features (threat counts, faces where a seat wins or is stuck, the mover's choices) stayed at or
under 78% at level 1; a move-deeper blunder check makes 74% / 82% (levels 2 / 1), plain ab4
82% / 87% (200 games each, progress alone).
"""

from __future__ import annotations

from typing import Any

from ..search import Baseline, hands_over_a_win
from .ai import _PATTERNS
from .game import GAME


def progress(state: Any, seat: int) -> int:
    """Over the level's winning patterns, the sum of the squares of the edges holding `seat`'s
    colour in each: every edge counts, one towards a nearly full pattern most."""
    mine = sum(1 << e for e, counts in enumerate(state.markers) if counts[seat])
    return sum((mine & mask).bit_count() ** 2 for mask in _PATTERNS[(state.level, state.antipodal)])


# two seats: a move of the mover's that hands the other a win at once weighs this much (times
# the share of the mover's moves that do); the most the mover's next placement adds to its own
# progress weighs GAIN
THREAT = 1000.0
GAIN = 1.0


def material(state: Any, seat: int) -> float:
    """ICO's plain material for `seat` (see the docstring): progress towards the patterns,
    and with two seats what the black face offers the seat to move on it."""
    near = [progress(state, s) for s in range(state.seats)]
    value = float(near[seat] - max(h for s, h in enumerate(near) if s != seat))
    if state.seats == 2:
        value += tempo(state, seat)
    return value


def tempo(state: Any, seat: int) -> float:
    """Two seats: the threats at the black face, for `seat`. The seat to move must roll the
    face over one of the edges the balance rules allow it; each edge that sends the face to
    where the other seat completes a pattern at once is a threat it must step round (all of
    them: it is lost), and in levels 2 and 2+ the most its own placement there adds to its
    progress counts for it (in level 1 that figure misled: GAIN measured in the docstring)."""
    if GAME.outcome(state) is not None:
        return 0.0
    mover = state.to_move
    sign = 1.0 if mover == seat else -1.0
    moves = GAME.legal_moves(state)
    handed = sum(hands_over_a_win(GAME, GAME.apply(state, move), mover) for move in moves)
    value = -THREAT * handed / len(moves)
    if state.level in ("2", "2+") and moves[0].place:
        before = progress(state, mover)
        value += GAIN * max(progress(GAME.apply(state, move), mover) - before
                            for move in moves)
    return sign * value


BASELINE = Baseline(material)
