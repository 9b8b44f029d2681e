"""ICO's puzzle goals (games/puzzles.py): win and safe. Its plain material (the bench's
Baseline) weighs threats at the black face by the thousand, no gain a player would count:
no "most" puzzles."""

GOALS = ("win", "safe")
EFFECTS: dict[str, str] = {}
THEMES: dict[str, dict[str, str]] = {}
