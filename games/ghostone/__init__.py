"""Ghostone's kit (games/kit.py): the rules in `game`, the rules summaries in
`rules/<language>.md`; its picture is `render.ghostone`."""

from pathlib import Path

from ..kit import Kit
from .game import GAME

KIT = Kit(GAME, picture="render.ghostone", texts=Path(__file__).parent / "rules")
