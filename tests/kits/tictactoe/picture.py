"""Tic-tac-toe's picture (this test kit's, so it lives in the kit): the board and one line
saying whose turn it is or how the game ended."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from render.common import BACKGROUND, SEAT_COLOURS, TEXT, Canvas, Picture, TextBox

from .game import EMPTY, TicTacToeView

SIZE, CELL, LEFT, TOP = 480, 120, 60, 40


@dataclass(frozen=True)
class TicTacToeLabels:
    """Every word the picture shows."""

    first: str = "Crosses"
    second: str = "Noughts"
    to_move: str = "{name} to move"
    wins: str = "{name} wins"
    draw: str = "Drawn"


def render_tictactoe(view: TicTacToeView, *, names: Sequence[str] | None = None,
                     labels: TicTacToeLabels = TicTacToeLabels(), result: str | None = None,
                     layout: list[TextBox] | None = None) -> bytes:
    canvas = Canvas((SIZE, SIZE), BACKGROUND)
    for i in (1, 2):
        canvas.line((LEFT + i * CELL, TOP, LEFT + i * CELL, TOP + 3 * CELL), fill=TEXT, width=4)
        canvas.line((LEFT, TOP + i * CELL, LEFT + 3 * CELL, TOP + i * CELL), fill=TEXT, width=4)
    for square, seat in enumerate(view.board):
        if seat == EMPTY:
            continue
        x = LEFT + (square % 3) * CELL + CELL / 2
        y = TOP + (2 - square // 3) * CELL + CELL / 2
        colour = SEAT_COLOURS[seat]
        if seat == 0:
            canvas.line((x - 35, y - 35, x + 35, y + 35), fill=colour, width=10)
            canvas.line((x - 35, y + 35, x + 35, y - 35), fill=colour, width=10)
        else:
            canvas.circle(x, y, 38, outline=colour, width=10)
    who = (list(names or ()) + [labels.first, labels.second][len(names or ()):])[:2]
    if result is not None:
        status = result
    elif view.outcome is None:
        status = labels.to_move.format(name=who[view.to_move or 0])
    elif view.outcome.draw:
        status = labels.draw
    else:
        status = labels.wins.format(name=who[view.outcome.winners[0]])
    canvas.text((SIZE / 2, SIZE - 40), status, size=26, fg=TEXT, bg=BACKGROUND, align="centre")
    return canvas.png(layout)


# the tictactoe kit names this module as its picture (kits/tictactoe/__init__.py)
PICTURE = Picture(render_tictactoe, TicTacToeLabels)
