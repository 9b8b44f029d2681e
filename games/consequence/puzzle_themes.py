"""Consequence's puzzle goals and themes (games/puzzles.py). A "win" must hold whatever the
unseen tiles are, which the count almost never grants, so Consequence also asks "most" of a
score of its own (`material`): the pairs of the solver's symbol on the grid as it stands minus
the opponent's, the least over every deal the solver cannot tell apart: the pairs it is sure
to make. One pair is a clear margin there (MOST_MARGIN). Names from the glossary (押し出)."""

from typing import Any

from .game import GAME

GOALS = ("win", "safe", "most")
MOST_MARGIN = 1.0
EFFECTS = {
    "a {colour} tile was pushed off into {receiver}'s hand": "push-off",
}
THEMES = {
    "push-off": {"en": "Pushing a tile off", "ja": "押し出し"},
}


def material(state: Any, seat: int) -> float:
    """The seat's pairs minus the opponent's, on the grid as it stands (in one deal)."""
    pairs = GAME.final_scores(state)[0]
    return float(pairs[seat] - pairs[1 - seat])
