"""Consequence's kit (games/kit.py): the rules in `game`, what the AI knows of the game in
`ai`, the rules summaries in `rules/<language>.md`; its picture is `render.consequence`."""

from pathlib import Path

from ..kit import Kit
from .game import GAME

KIT = Kit(GAME, picture="render.consequence", ai=f"{__name__}.ai",
          texts=Path(__file__).parent / "rules",
          lessons=Path(__file__).parent / "lessons.json",
          puzzles=Path(__file__).parent / "puzzles.json")
