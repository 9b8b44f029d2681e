"""A player's conditional moves as one picture: a heading, then for each queued pair the line
that says it ("1. if they play b, I play e") above the board after that pair (and the pair
being entered last, the same way: the position its next move is entered on).

Drawn like an analysis's swings (render/analysis.py, whose module says why): 720 px wide,
shown about 360 px wide on a phone, every board as wide as the picture, stacked, cut below its
last ink and drawn without the line that writes the last move out (the line above names the
moves; the board still marks the last one). A bar down the left edge runs from each line to
the foot of its board, so that a board is never read as another pair's while scrolling.
The captions come translated from the caller (the bot's sentences), the boards through `tr`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from .analysis import LABEL_ROW, MARGIN, SMALL, STRIPE, WIDTH, _board, _moved
from .common import BACKGROUND, MUTED, TEXT, Canvas, TextBox, fit_width, to_png, wrap_width

MOST_PAIRS = 12  # a queue holds at most 24 plies: never more pairs than this


def queue_picture(game_id: str, heading: str, pairs: Sequence[tuple[str, Any]], *,
                  names: Sequence[str], tr: Any = None, layout: list[TextBox] | None = None,
                  board_layout: list[TextBox] | None = None) -> bytes:
    """`pairs`: (caption, observation after the pair), in queue order. `layout` receives the
    picture's own labels, `board_layout` the boards' labels as they land in it (scaled)."""
    boards = [(caption, *_board(game_id, observation, names, tr))
              for caption, observation in pairs[:MOST_PAIRS]]
    probe = Canvas((WIDTH, 10), BACKGROUND)
    room = WIDTH - 2 * MARGIN
    captions = [wrap_width(probe, caption, SMALL, False, room, 2, names)
                for caption, _, _ in boards]
    height = MARGIN + LABEL_ROW + MARGIN
    for lines, (_, board, _) in zip(captions, boards, strict=True):
        height += 8 + len(lines) * LABEL_ROW + board.height + 8
    canvas = Canvas((WIDTH, height), BACKGROUND)
    y = MARGIN
    canvas.text((MARGIN, y + SMALL // 2 + 4), fit_width(canvas, heading, SMALL, True, room),
                size=SMALL, fg=TEXT, bg=BACKGROUND, bold=True)
    y += LABEL_ROW
    spots = []
    for lines, (_, board, boxes) in zip(captions, boards, strict=True):
        top = y + 8
        for row, line in enumerate(lines):
            canvas.text((MARGIN, top + row * LABEL_ROW + SMALL // 2 + 4), line, size=SMALL,
                        fg=TEXT, bg=BACKGROUND)
        board_y = top + len(lines) * LABEL_ROW
        x = (WIDTH - board.width) // 2
        spots.append((board, x, board_y, top))
        if board_layout is not None:
            board_layout.extend(_moved(box, x, board_y) for box in boxes)
        y = board_y + board.height + 8
    image = canvas.rgb(layout)
    draw = ImageDraw.Draw(image)
    for board, x, board_y, top in spots:
        image.paste(board, (x, board_y))
        draw.rectangle((0, top + 2, STRIPE - 1, board_y + board.height - 1), fill=MUTED)
    return to_png(image)
