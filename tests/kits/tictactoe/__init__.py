"""Tic-tac-toe, a sixth game kept in the tests: proof that a game is its kit. Nothing outside
this folder and the tests names it; tests/conftest.py registers it for the whole suite with
CORRAL_EXTRA_KITS=kits.tictactoe, and the conformance suite, the pictures', the AI's and the
fuzz tests, and tests/e2e/test_kit_e2e.py (the real bot) then play it.

It has no `ai` module: the generic search's defaults play it. Its puzzle set (puzzles.json) is
four positions checked by hand and by tests/test_puzzles.py: two of them from one turn (the
same position, "win" and "safe"), for the rule that two of one turn never come in a row."""

from pathlib import Path

from games.kit import Kit

from .game import GAME

KIT = Kit(GAME, picture=f"{__name__}.picture", texts=Path(__file__).parent / "rules",
          puzzles=Path(__file__).parent / "puzzles.json")
