"""ICO's kit (games/kit.py): the rules in `game`, the rules summaries in
`rules/<language>.md`; its picture is `render.ico`."""

from pathlib import Path

from ..kit import Kit
from .game import GAME

KIT = Kit(GAME, picture="render.ico", texts=Path(__file__).parent / "rules")
