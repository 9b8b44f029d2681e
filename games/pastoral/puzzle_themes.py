"""Pastoral Square's puzzle themes (games/puzzles.py): what the solution does, read from its
move effects, with their names (glossary: キャトルミューティレーション)."""

GOALS = ("win", "safe", "most")
EFFECTS = {
    "mutilation: {cells} removed, {n} stone back to each stock": "mutilation",
}
THEMES = {
    "mutilation": {"en": "Cattle mutilation", "ja": "キャトルミューティレーション"},
}
