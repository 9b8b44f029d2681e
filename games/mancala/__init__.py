"""Progressive Mancala's kit (games/kit.py): the rules in `game`, the rules summaries in
`rules/<language>.md`; its picture is `render.mancala`."""

from pathlib import Path

from ..kit import Kit
from .game import GAME

KIT = Kit(GAME, picture="render.mancala", texts=Path(__file__).parent / "rules")
