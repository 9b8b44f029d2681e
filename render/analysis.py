"""A finished match's analysis as PNG pictures that read on a phone, posted together in one
message: the chart of each seat's estimated chance of winning after every move, the three
biggest swings marked on it (①②③), then one picture per swing with two boards, one above the
other: the position at the end of the refutation (the move played, then the replies that punish
it), and at the end of the better line (the move the AI preferred, then its replies), each
under a label that writes its line out ("Played d → Bob g → Alice c").

Separate pictures, not one: Discord previews an attachment scaled into about 550 x 350 px,
and the whole analysis in one picture was 720 x 4,000-6,500 px, a sliver nobody could read
before opening it. The chart alone is about 720 x 470 (3:2, the shape of that box); a swing's
picture is 720 x 1,100-2,200 and is opened to be read, one swipe per swing.

720 px wide (shown about 360 px wide on a phone): every label is at least `SMALL` (digits 9 px
tall at phone width) on a plain background. The boards are the games' own pictures
(`render_observation`), each scaled to the picture's whole width. A board picture is drawn so
that its smallest label reads at 360 px wide, so a board only reads here when it is shown as
wide as that, as in its own message: side by side (each half as wide) every count, coordinate
and status line came out 4 to 5 px tall (cutting the boards down to their board area would
not help: the counts and coordinates on a board are as small as the lines under it, and a
Mancala board is its picture's whole width). Stacked, the two boards stay easy to compare: the
same size, square above square, with only a label between them. They are drawn without the
line that writes the last move out (the labels above them name the move played and the move
preferred; the board still marks it), and cut below their last ink (5 to 13% off). The
status line stays: it carries state (extra moves, stones picked up, whose turn).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageDraw

from .common import (
    BACKGROUND,
    MUTED,
    SEAT_COLOURS,
    TEXT,
    Canvas,
    Rgb,
    TextBox,
    fit_width,
    min_size,
    mix,
    readable,
    seat_mark,
    to_png,
    translated,
    wrap_width,
)

WIDTH = 720
MARGIN = 20
SMALL = min_size(WIDTH)
TITLE_SIZE = SMALL + 6
PLOT_HEIGHT = 240
BOARD_WIDTH = WIDTH  # as wide as the picture: a board's labels read as in its own message
BOARD_PAD = 12  # kept under a board's last ink (board pixels)
LABEL_ROW = SMALL + 20  # a line of text above a board, with its gap
LABEL_LINE = SMALL + 10  # a label's second row
STRIPE = 5  # the bar beside a board (the boards keep 10 px clear at their left edge)
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
    `seat`, lost `loss` of its chance; `move` and `best` label the two boards (the move played
    and the move preferred, or their lines, `line_label`); the observations at the end of the
    refutation and of the better line (public views: nothing hidden is drawn)."""

    index: int
    seat: int
    move: str
    best: str
    loss: float
    played: Any
    preferred: Any


def line_label(line: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    """A line ([seat, notation] a ply) as a swing's label writes it: its first move, then each
    reply with its player's name ("d → Bob g → Alice c")."""
    out = [str(line[0][1])]
    for seat, move in line[1:]:
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        out.append(f"{name} {move}")
    return " → ".join(out)


def analysis_pictures(game_id: str, *, names: Sequence[str],
                      series: Sequence[Sequence[float]], swings: Sequence[Swing],
                      tr: Any = None, layouts: list[list[TextBox]] | None = None,
                      board_layouts: list[list[TextBox]] | None = None) -> list[bytes]:
    """The pictures as PNG bytes: the chart, then one picture per swing, in rank order.
    `series[i]` is each seat's chance of winning after `i` entries (the start first, the
    result last). `layouts` and `board_layouts` (for tests of legibility) receive one list
    per picture: its own labels, and its boards' labels as they land in it (scaled)."""

    def collect(into: list[list[TextBox]] | None) -> list[TextBox] | None:
        if into is None:
            return None
        into.append([])
        return into[-1]

    pictures = [analysis_chart(names=names, series=series, swings=swings, tr=tr,
                               layout=collect(layouts))]
    collect(board_layouts)  # the chart has no board
    for rank, swing in enumerate(swings):
        pictures.append(swing_picture(game_id, swing, rank, names=names, tr=tr,
                                      layout=collect(layouts),
                                      board_layout=collect(board_layouts)))
    return pictures


def analysis_chart(*, names: Sequence[str], series: Sequence[Sequence[float]],
                   swings: Sequence[Swing], tr: Any = None,
                   layout: list[TextBox] | None = None) -> bytes:
    """The title, the legend and the chart with the swings marked (①②③), or under it the
    line that says no move was a swing. About 720 x 470, 3:2 (see the module)."""

    labels = translated(AnalysisLabels, tr)
    seats = len(names)
    legend_rows = 1 if seats <= 2 else 2
    top = MARGIN + 12
    title_y = top + TITLE_SIZE // 2
    legend_y = title_y + TITLE_SIZE + 10
    plot_top = legend_y + legend_rows * (SMALL + 18) + 26
    plot_bottom = plot_top + PLOT_HEIGHT
    axis_y = plot_bottom + SMALL // 2 + 16
    calm_y = axis_y + SMALL + 28
    height = (calm_y + SMALL + 12 if not swings else axis_y + SMALL // 2 + 10) + MARGIN
    canvas = Canvas((WIDTH, height), BACKGROUND)

    canvas.text((MARGIN, title_y), fit_width(canvas, labels.title, TITLE_SIZE, True,
                                             WIDTH - 2 * MARGIN),
                size=TITLE_SIZE, fg=TEXT, bg=BACKGROUND, bold=True)
    _legend(canvas, names, legend_y)

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
        # the seat's shape at the line's end, as in its legend (render.common.SEAT_SHAPES)
        seat_mark(canvas, seat, *points[-1], 7, colour, outline=BACKGROUND, width=2)
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
    if not swings:
        canvas.text((MARGIN, calm_y + SMALL // 2), fit_width(canvas, labels.calm, SMALL, False,
                                                             WIDTH - 2 * MARGIN),
                    size=SMALL, fg=TEXT, bg=BACKGROUND)
    return to_png(canvas.rgb(layout))


def swing_picture(game_id: str, swing: Swing, rank: int, *, names: Sequence[str],
                  tr: Any = None, layout: list[TextBox] | None = None,
                  board_layout: list[TextBox] | None = None) -> bytes:
    """One swing (`rank` 0 is ①): its heading, then the move played above its board and the
    move the AI preferred above its board. `layout` receives the picture's own labels,
    `board_layout` the boards' labels as they land in it (scaled)."""

    labels = translated(AnalysisLabels, tr)
    pair = (_board(game_id, swing.played, names, tr), _board(game_id, swing.preferred, names, tr))
    # a line's label wraps to a second row rather than lose its last moves
    measure = Canvas((WIDTH, 1), BACKGROUND)
    texts = [wrap_width(measure, text, SMALL, True, WIDTH - 2 * MARGIN, 2, names)
             for text in (labels.played.format(move=swing.move),
                          labels.preferred.format(move=swing.best))]
    extra = sum(len(rows) - 1 for rows in texts) * LABEL_LINE
    height = (MARGIN + 3 * LABEL_ROW + extra + pair[0][0].height + pair[1][0].height + 24
              + MARGIN)
    canvas = Canvas((WIDTH, height), BACKGROUND)
    name = names[swing.seat] if 0 <= swing.seat < len(names) else "?"
    loss = f"−{round(swing.loss * 100)}%"
    head = f"{NUMBERS[rank]} {labels.move.format(n=swing.index)} · {loss} · {name}"
    y = MARGIN
    canvas.text((MARGIN, y + SMALL // 2 + 4),
                fit_width(canvas, head, SMALL, True, WIDTH - 2 * MARGIN, names),
                size=SMALL, fg=TEXT, bg=BACKGROUND, bold=True)
    y += LABEL_ROW
    spots: list[tuple[Image.Image, int, int]] = []
    bars: list[tuple[tuple[int, int, int, int], Rgb]] = []
    for column, (rows, (board, boxes)) in enumerate(zip(texts, pair, strict=True)):
        top = y + (8 if column else 0)
        for row, text in enumerate(rows):
            canvas.text((MARGIN, top + row * LABEL_LINE + SMALL // 2 + 4), text,
                        size=SMALL, fg=TEXT if column else readable(MARK, BACKGROUND),
                        bg=BACKGROUND, bold=True)
        board_y = top + LABEL_ROW + (len(rows) - 1) * LABEL_LINE
        x = (WIDTH - board.width) // 2
        spots.append((board, x, board_y))
        # a bar down the left edge, from the label to the board's foot: which board is which,
        # while scrolling through it
        bars.append(((0, top + 2, STRIPE - 1, board_y + board.height - 1),
                     MUTED if column else readable(MARK, BACKGROUND)))
        if board_layout is not None:
            board_layout.extend(_moved(box, x, board_y) for box in boxes)
        y = board_y + board.height + 8
    image = canvas.rgb(layout)
    for board, x, board_y in spots:
        image.paste(board, (x, board_y))
    draw = ImageDraw.Draw(image)
    for box, colour in bars:
        draw.rectangle(box, fill=colour)
    return to_png(image)


def _board(game_id: str, observation: Any, names: Sequence[str],
           tr: Any) -> tuple[Image.Image, list[TextBox]]:
    """A board as wide as the picture (never enlarged), cut below its last ink, and its labels
    as they land on it."""
    from . import render_observation

    boxes: list[TextBox] = []
    png = render_observation(game_id, observation, names=list(names), tr=tr, layout=boxes,
                             last_move=False)
    picture: Image.Image = Image.open(io.BytesIO(png))
    bottom = picture.height
    palette = picture.getpalette() if picture.mode == "P" else None
    if palette is not None and tuple(palette[:3]) == BACKGROUND:  # index 0 is the background
        found = picture.getbbox()
        if found is not None:
            bottom = min(picture.height, found[3] + BOARD_PAD)
    picture = picture.convert("RGB").crop((0, 0, picture.width, bottom))
    scale = min(1.0, BOARD_WIDTH / picture.width)
    # Hamming, not Lanczos: at these scales (0.72 to 0.95) the two look the same at phone
    # width, and Hamming takes half the time (six boards a picture)
    if scale < 1:
        picture = picture.resize((BOARD_WIDTH, max(1, round(picture.height * scale))),
                                 Image.Resampling.HAMMING)
    return picture, [_scaled(box, scale) for box in boxes]


def _scaled(box: TextBox, scale: float) -> TextBox:
    x0, y0, x1, y1 = box.box
    return replace(box, box=(math.floor(x0 * scale), math.floor(y0 * scale),
                             math.ceil(x1 * scale), math.ceil(y1 * scale)),
                   height=round(box.height * scale))


def _moved(box: TextBox, dx: int, dy: int) -> TextBox:
    x0, y0, x1, y1 = box.box
    return replace(box, box=(x0 + dx, y0 + dy, x1 + dx, y1 + dy))


def _legend(canvas: Canvas, names: Sequence[str], y: int) -> None:
    """A swatch and a name per seat, two a row; a name alone on its row (the third of three)
    takes the whole row, not cut to a column it shares with no one."""
    column = (WIDTH - 2 * MARGIN) // 2
    for seat, name in enumerate(names):
        row, col = divmod(seat, 2)
        x = MARGIN + col * column
        line_y = y + row * (SMALL + 18)
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        room = column if col or seat + 1 < len(names) else WIDTH - 2 * MARGIN
        canvas.line((x, line_y, x + 28, line_y), fill=colour, width=4)
        seat_mark(canvas, seat, x + 14, line_y, 7, colour, outline=BACKGROUND, width=2)
        canvas.text((x + 40, line_y), fit_width(canvas, name, SMALL, False, room - 56, names),
                    size=SMALL, fg=TEXT, bg=BACKGROUND)
