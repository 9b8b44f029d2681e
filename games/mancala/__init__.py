"""Progressive Mancala's kit (games/kit.py): the rules in `game`, what the AI knows of the game in
`ai`, the rules summaries in `rules/<language>.md`; its picture is `render.mancala`."""

from pathlib import Path

from ..kit import Kit
from .game import GAME

KIT = Kit(GAME, picture="render.mancala", ai=f"{__name__}.ai",
          texts=Path(__file__).parent / "rules")
