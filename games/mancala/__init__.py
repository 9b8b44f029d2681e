"""Progressive Mancala's kit (games/kit.py): the rules in `game`, what the AI knows of the game in
`ai`, the rules summaries in `rules/<language>.md`; its picture is `render.mancala`."""

from pathlib import Path

from ..kit import Kit, Setup
from .game import GAME

KIT = Kit(GAME, picture="render.mancala", ai=f"{__name__}.ai",
          baseline=f"{__name__}.baseline",
          texts=Path(__file__).parent / "rules",
          lessons=Path(__file__).parent / "lessons.json",
          puzzles=Path(__file__).parent / "puzzles.json",
          setups=(Setup("11 pits", 2, {"pits": "11"}), Setup("17 pits", 2, {"pits": "17"})))
