"""Pastoral Square's kit (games/kit.py): the rules in `game`, what the AI knows of the game in
`ai`, the rules summaries in `rules/<language>.md`; its picture is `render.pastoral`."""

from pathlib import Path

from ..kit import Kit, Setup
from .game import GAME

KIT = Kit(GAME, picture="render.pastoral", ai=f"{__name__}.ai",
          texts=Path(__file__).parent / "rules", setups=(Setup("8x8", 2),),
          lessons=Path(__file__).parent / "lessons.json",
          puzzles=Path(__file__).parent / "puzzles.json",
          baseline=f"{__name__}.baseline")
