"""Ghostone's puzzle themes (games/puzzles.py): what the solution's step does, read from its
move effects, with their names (glossary: 駒, 岩)."""

from ..base import N_

GOALS = ("win", "safe", "most")
# what "most" counts, said in the goal (games.puzzles.goal_words)
GOAL_WORDS = {"most": N_("Gain the most points on the best of the other "
                          "players this turn.")}
EFFECTS = {
    "escaped: {n} rock + {bonus} bonus": "escape",
    "a rock went off the board": "rock-off",
}
THEMES = {
    "escape": {"en": "Escape", "ja": "脱出"},
    "rock-off": {"en": "A rock off the board", "ja": "岩を盤外へ"},
}
# self-play at easy only: a normal search of three or four seats without its time cap
# (self-play is seeded, so it runs uncapped) takes seconds a move over games of 40-80 moves
LEVELS = ("easy",)
