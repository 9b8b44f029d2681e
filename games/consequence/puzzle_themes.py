"""Consequence's puzzle goals and themes (games/puzzles.py). A "win" must hold whatever the
unseen tiles are, which the count almost never grants, so Consequence also asks "most" of a
score of its own (`material`): the pairs of the solver's symbol on the grid as it stands minus
the opponent's, the least over every deal the solver cannot tell apart: the pairs it is sure
to make. One pair is a clear margin there (MOST_MARGIN). Names from the glossary (押し出)."""

from typing import Any

from ..base import N_
from .game import EMPTY, KINDS, SQUARES, SYMBOL_OF_SEAT, neighbours

GOALS = ("win", "safe", "most")
# what "most" counts, said in the goal (games.puzzles.goal_words)
GOAL_WORDS = {"most": N_("Gain the most sure points this turn: pairs of your "
                          "symbol that no hidden tile can undo, against "
                          "theirs.")}
MOST_MARGIN = 1.0
# every move is searched in every deal: a smaller budget keeps to the positions with few deals
# and moves, which the shipped set's test re-checks in a fraction of a second each
BUDGET = 1500
# self-play at easy only: a normal search without its time cap (self-play is seeded, so it
# runs uncapped) takes seconds a move, and the few positions that pass the budget come as
# often from easy games
LEVELS = ("easy",)
EFFECTS = {
    "a {colour} tile was pushed off into {receiver}'s hand": "push-off",
}
THEMES = {
    "push-off": {"en": "Pushing a tile off", "ja": "押し出し"},
}


# every pair of neighbouring squares once (the count's pairs, without the tie-break lines)
PAIRS = tuple((a, b) for a in range(SQUARES) for b in neighbours(a) if a < b)


def material(state: Any, seat: int) -> float:
    """The seat's pairs minus the opponent's, on the grid as it stands (in one deal): the
    count's pairs (`GAME.final_scores`), counted fast since every deal is counted."""
    symbols = [KINDS[t][1] if t != EMPTY else "" for t in state.grid]
    mine, theirs = SYMBOL_OF_SEAT[seat], SYMBOL_OF_SEAT[1 - seat]
    score = 0
    for a, b in PAIRS:
        if symbols[a] == symbols[b]:
            score += (symbols[a] == mine) - (symbols[a] == theirs)
    return float(score)
