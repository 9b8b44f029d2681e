"""ICO's kit (games/kit.py): the rules in `game`, what the AI knows of the game in
`ai`, the rules summaries in `rules/<language>.md`; its picture is `render.ico`."""

from pathlib import Path

from ..kit import Kit, Setup
from .game import GAME

# level 2 first: two-player level 1 is a second-seat win from every start face (solve.py), so
# the benchmarks' head-to-head of two AI levels plays the first set-up, level 2
KIT = Kit(GAME, picture="render.ico", ai=f"{__name__}.ai",
          baseline=f"{__name__}.baseline",
          texts=Path(__file__).parent / "rules",
          lessons=Path(__file__).parent / "lessons.json",
          puzzles=Path(__file__).parent / "puzzles.json",
          setups=(Setup("level 2, 2 seats", 2, {"level": "2"}),
                  Setup("level 1, 2 seats", 2, {"level": "1"}),
                  Setup("level 1+, 3 seats", 3, {"level": "1+"}),
                  Setup("level 2, 3 seats", 3, {"level": "2"}),
                  Setup("level 2+ antipodal, 4 seats", 4, {"level": "2+", "antipodal": "yes"})))
