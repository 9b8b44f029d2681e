"""Progressive Mancala's puzzle themes (games/puzzles.py): what the solution's sowings do, read
from their move effects, with their names (glossary: ラップ, ボーナス手番)."""

from ..base import N_

GOALS = ("win", "safe", "most")
# what "most" counts, said in the goal (games.puzzles.goal_words)
GOAL_WORDS = {"most": N_("Gain the most points on your opponent this turn.")}
EFFECTS = {
    "relayed from {pits}": "lap",
    "scored {n} seed from the goal": "goal",
    "ended in an empty pit: {opponent} gets a bonus move": "bonus",
}
THEMES = {
    "lap": {"en": "Lap", "ja": "ラップ"},
    "goal": {"en": "Scoring from the goal", "ja": "ゴールで得点"},
    "bonus": {"en": "Giving a bonus move", "ja": "相手にボーナス手番"},
}
# the 11-pit board only: on 17 pits a turn of bonus moves branches so much that most positions
# pass the exhaustive search's budget, and those that do not take seconds to re-check
SETUPS = ("11 pits",)
