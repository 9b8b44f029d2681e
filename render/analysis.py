"""A finished match's analysis as one PNG that reads on a phone: each seat's estimated chance
of winning after every move as a line chart, the three biggest swings marked on it (①②③), and
for each swing two small boards side by side: the position after the move played, and after
the move the AI preferred.

720 px wide (shown about 360 px wide on a phone): every label is at least `SMALL` (digits 9 px
tall at phone width) on a plain background. The small boards are the games' own pictures
(`render_observation`) scaled down: they show the shape of the position; the moves are named
in the labels above them (and in the text that goes with the picture).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from .common import (
    BACKGROUND,
    MUTED,
    SEAT_COLOURS,
    TEXT,
    Canvas,
    TextBox,
    fit_width,
    min_size,
    mix,
    readable,
    to_png,
    translated,
)

WIDTH = 720
MARGIN = 20
SMALL = min_size(WIDTH)
TITLE_SIZE = SMALL + 6
PLOT_HEIGHT = 240
BOARD_GAP = 20
BOARD_WIDTH = (WIDTH - 2 * MARGIN - BOARD_GAP) // 2
MARK = (255, 99, 132)  # the swings' marks: a colour no seat uses
GRID = mix(BACKGROUND, MUTED, 0.28)
AXIS = mix(BACKGROUND, MUTED, 0.55)
NUMBERS = "①②③④⑤"


@dataclass(frozen=True)
class AnalysisLabels:
    """Every word the picture shows, so that a translation can replace them."""

    title: str = "Chance of winning after each move"
    move: str = "Move {n}"
    played: str = "Played {move}"
    preferred: str = "AI preferred {move}"
    calm: str = "No move gave away a noticeable chance of winning"


@dataclass(frozen=True)
class Swing:
    """One of the biggest swings: move `index` (1-based, among all entries), played by
    `seat`, lost `loss` of its chance; the observations after the move played and after the
    AI's preferred move (public views: nothing hidden is drawn)."""

    index: int
    seat: int
    move: str
    best: str
    loss: float
    played: Any
    preferred: Any


def analysis_picture(game_id: str, *, names: Sequence[str], series: Sequence[Sequence[float]],
                     swings: Sequence[Swing], tr: Any = None,
                     layout: list[TextBox] | None = None) -> bytes:
    """The picture as PNG bytes. `series[i]` is each seat's chance of winning after `i`
    entries (the start first, the result last)."""
    from . import render_observation

    labels = translated(AnalysisLabels, tr)
    seats = len(names)
    legend_rows = 1 if seats <= 2 else 2
    top = MARGIN + 12
    title_y = top + TITLE_SIZE // 2
    legend_y = title_y + TITLE_SIZE + 10
    plot_top = legend_y + legend_rows * (SMALL + 18) + 26
    plot_bottom = plot_top + PLOT_HEIGHT
    axis_y = plot_bottom + SMALL // 2 + 16
    boards: list[tuple[Image.Image, Image.Image]] = []
    for swing in swings:
        pair = []
        for observation in (swing.played, swing.preferred):
            png = render_observation(game_id, observation, names=list(names), tr=tr)
            picture = Image.open(io.BytesIO(png)).convert("RGB")
            scale = BOARD_WIDTH / picture.width
            pair.append(picture.resize((BOARD_WIDTH, max(1, round(picture.height * scale))),
                                       Image.Resampling.LANCZOS))
        boards.append((pair[0], pair[1]))
    row_heights = [2 * (SMALL + 20) + 8 + max(a.height, b.height) + 24 for a, b in boards]
    swings_top = axis_y + SMALL + 28
    height = swings_top + (sum(row_heights) if swings else SMALL + 40) + MARGIN
    canvas = Canvas((WIDTH, height), BACKGROUND)

    canvas.text((MARGIN, title_y), fit_width(canvas, labels.title, TITLE_SIZE, True,
                                             WIDTH - 2 * MARGIN),
                size=TITLE_SIZE, fg=TEXT, bg=BACKGROUND, bold=True)
    _legend(canvas, names, legend_y)

    # the chart
    entries = max(1, len(series) - 1)
    left, right = MARGIN + canvas.measure("100%", SMALL)[0] + 14, WIDTH - MARGIN - 10

    def x_of(i: float) -> float:
        return left + (right - left) * i / entries

    def y_of(chance: float) -> float:
        return plot_bottom - max(0.0, min(1.0, chance)) * (plot_bottom - plot_top)

    for value in (0.0, 0.5, 1.0):
        y = y_of(value)
        canvas.line((left, y, right, y), fill=AXIS if value == 0 else GRID,
                    width=2 if value == 0 else 1)
        canvas.text((left - 10, y), f"{round(value * 100)}%", size=SMALL, fg=MUTED,
                    bg=BACKGROUND, align="right")
    marks: list[tuple[int, float]] = []
    for rank, swing in enumerate(swings):
        x = x_of(swing.index)
        canvas.line((x, plot_top - 4, x, plot_bottom), fill=MARK, width=2)
        marks.append((rank, x))
    for seat in range(seats):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        points = [(x_of(i), y_of(chances[seat] if seat < len(chances) else 0.0))
                  for i, chances in enumerate(series)]
        if len(points) > 1:
            canvas.line(points, fill=colour, width=4, joint="curve")
        else:
            canvas.circle(*points[0], 5, fill=colour)
    number_y = plot_top - SMALL // 2 - 14
    for rank, x in sorted(marks, key=lambda mark: mark[1]):  # above the plot, side by side
        x = min(max(x, left), right)
        while not canvas.free(canvas.text_box((x, number_y), NUMBERS[rank], size=SMALL,
                                              bold=True, align="centre"), 6) and x < WIDTH:
            x += 4
        canvas.text((min(x, WIDTH - MARGIN - SMALL), number_y), NUMBERS[rank], size=SMALL,
                    fg=readable(MARK, BACKGROUND), bg=BACKGROUND, bold=True, align="centre",
                    halo=True)
    canvas.text((left, axis_y), "0", size=SMALL, fg=MUTED, bg=BACKGROUND)
    canvas.text((right, axis_y), labels.move.format(n=entries), size=SMALL, fg=MUTED,
                bg=BACKGROUND, align="right")

    # the swings, each with its two boards
    y = swings_top
    spots: list[tuple[Image.Image, int, int]] = []
    if not swings:
        canvas.text((MARGIN, y + SMALL), fit_width(canvas, labels.calm, SMALL, False,
                                                   WIDTH - 2 * MARGIN),
                    size=SMALL, fg=TEXT, bg=BACKGROUND)
    for rank, (swing, (played, preferred), row) in enumerate(
            zip(swings, boards, row_heights, strict=True)):
        name = names[swing.seat] if 0 <= swing.seat < len(names) else "?"
        loss = f"−{round(swing.loss * 100)}%"
        head = f"{NUMBERS[rank]} {labels.move.format(n=swing.index)} · {loss} · {name}"
        canvas.text((MARGIN, y + SMALL // 2 + 4),
                    fit_width(canvas, head, SMALL, True, WIDTH - 2 * MARGIN, names),
                    size=SMALL, fg=TEXT, bg=BACKGROUND, bold=True)
        line_y = y + SMALL + 20 + SMALL // 2 + 4
        for column, (text, board) in enumerate((
                (labels.played.format(move=swing.move), played),
                (labels.preferred.format(move=swing.best), preferred))):
            x = MARGIN + column * (BOARD_WIDTH + BOARD_GAP)
            canvas.text((x, line_y), fit_width(canvas, text, SMALL, False, BOARD_WIDTH),
                        size=SMALL, fg=TEXT if column else readable(MARK, BACKGROUND),
                        bg=BACKGROUND)
            spots.append((board, x, y + 2 * (SMALL + 20) + 8))
        y += row
    image = Image.open(io.BytesIO(canvas.png(layout))).convert("RGB")
    for board, x, board_y in spots:
        image.paste(board, (x, board_y))
    return to_png(image)


def _legend(canvas: Canvas, names: Sequence[str], y: int) -> None:
    """A swatch and a name per seat, two a row."""
    column = (WIDTH - 2 * MARGIN) // 2
    for seat, name in enumerate(names):
        row, col = divmod(seat, 2)
        x = MARGIN + col * column
        line_y = y + row * (SMALL + 18)
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        canvas.rounded_rectangle((x, line_y - 8, x + 28, line_y + 8), 4, fill=colour)
        canvas.text((x + 40, line_y), fit_width(canvas, name, SMALL, False, column - 56, names),
                    size=SMALL, fg=TEXT, bg=BACKGROUND)
