"""A player's rating over time, as a small PNG line chart that reads on a phone.

720 x 360 (each further line of a long title adds a line), shown about 360 px wide on a
phone: every label is at least `SMALL` (digits 9 px tall at phone width). The y axis has a
few round rating ticks, the x axis two to four dates (YYYY-MM-DD, UTC), each point gets a dot
while there are few, and the last rating is written beside the last point. One point is a
dot in the middle; no point at all is an empty chart with a sentence saying so.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
    translated,
    wrap_to,
    wrap_width,
)

WIDTH, HEIGHT = 720, 360
MARGIN = 20
SMALL = min_size(WIDTH)  # 26: digits 9.5 px at phone width
TITLE_SIZE = SMALL + 6
TITLE_Y = 32
TITLE_STEP = TITLE_SIZE + 12  # a title's next line, under the one before: the chart moves down
TITLE_ROWS = 3  # a 32-character Japanese display name and a game's Japanese name take three
PLOT_TOP, PLOT_BOTTOM = 84, 284
DATE_Y = 322
DOTS_UP_TO = 40  # points drawn as dots while there are at most this many
MIN_SPAN = 20.0  # rating points the y axis spans at least
LINE = SEAT_COLOURS[1]
GRID = mix(BACKGROUND, MUTED, 0.28)
AXIS = mix(BACKGROUND, MUTED, 0.55)


@dataclass(frozen=True)
class ChartLabels:
    """Every word the chart shows, so that a translation can replace them."""

    empty: str = "No rated games yet"


def rating_chart(points: Sequence[tuple[float, float]], *, title: str, tr: Any = None,
                 layout: list[TextBox] | None = None, names: Sequence[str] = ()) -> bytes:
    """The chart of `points` (unix time, rating) as PNG bytes, under `title`. `tr`: a
    gettext-like object for the chart's words (None: English); `layout` receives every label
    drawn (for tests of legibility and overlap).

    A title too long for one line (a long display name and a game's Japanese name) is set
    on more, the chart moved down under it, rather than cut or shrunk; only past
    `TITLE_ROWS` lines are the players' `names` in it shortened, then the title cut."""
    labels = translated(ChartLabels, tr)
    lines = _title_lines(title, names)
    down = TITLE_STEP * (len(lines) - 1)
    canvas = Canvas((WIDTH, HEIGHT + down), BACKGROUND)
    for row, line in enumerate(lines):
        canvas.text((MARGIN, TITLE_Y + TITLE_STEP * row), line, size=TITLE_SIZE, fg=TEXT,
                    bg=BACKGROUND, bold=True)
    plot_top, plot_bottom = PLOT_TOP + down, PLOT_BOTTOM + down
    series = sorted((float(t), float(r)) for t, r in points)
    if not series:
        canvas.line((MARGIN, plot_bottom, WIDTH - MARGIN, plot_bottom), fill=AXIS, width=2)
        text = fit_width(canvas, labels.empty, SMALL, False, WIDTH - 2 * MARGIN)
        canvas.text((WIDTH / 2, (plot_top + plot_bottom) / 2), text, size=SMALL, fg=MUTED,
                    bg=BACKGROUND, align="centre")
        return canvas.png(layout)

    ticks = rating_ticks(min(r for _, r in series), max(r for _, r in series))
    tick_texts = [_number(v, ticks[1] - ticks[0]) for v in ticks]
    last_text = _number(series[-1][1], 1.0)
    left = MARGIN + max(canvas.measure(t, SMALL)[0] for t in tick_texts) + 14
    right = WIDTH - MARGIN - canvas.measure(last_text, SMALL, True)[0] - 18
    low, high = ticks[0], ticks[-1]

    def y_of(rating: float) -> float:
        return plot_bottom - (rating - low) / (high - low) * (plot_bottom - plot_top)

    first, last = series[0][0], series[-1][0]
    spread = last - first

    def x_of(time: float) -> float:
        if spread <= 0:
            return (left + right) / 2
        return left + (time - first) / spread * (right - left)

    for value, text in zip(ticks, tick_texts, strict=True):
        y = y_of(value)
        canvas.line((left, y, right, y), fill=GRID if value != low else AXIS,
                    width=2 if value == low else 1)
        canvas.text((left - 12, y), text, size=SMALL, fg=MUTED, bg=BACKGROUND, align="right")
    _dates(canvas, first, last, x_of, plot_bottom)

    xy = [(x_of(t), y_of(r)) for t, r in series]
    if len(xy) > 1:
        canvas.line(xy, fill=LINE, width=4, joint="curve")
    if len(xy) <= DOTS_UP_TO:
        for x, y in xy[:-1]:
            canvas.circle(x, y, 5, fill=LINE)
    x, y = xy[-1]
    canvas.circle(x, y, 8, fill=LINE, outline=TEXT, width=2)
    label_y = min(max(y, plot_top), plot_bottom - 4)
    canvas.text((x + 16, label_y), last_text, size=SMALL, fg=TEXT, bg=BACKGROUND, bold=True,
                halo=True)
    return canvas.png(layout)


def _title_lines(title: str, names: Sequence[str]) -> list[str]:
    """The title on one line if it fits, else on up to `TITLE_ROWS`: the player up to its
    " · " first, then the game, each wrapped between words (a name without spaces, as a
    Japanese one, between characters); the players' names are shortened only when even that
    takes more lines."""
    measure = Canvas((1, 1), BACKGROUND)
    room = WIDTH - 2 * MARGIN

    def fits(line: str) -> bool:
        return measure.measure(line, TITLE_SIZE, True)[0] <= room

    if fits(title):
        return [title]
    head, dot, tail = title.rpartition(" · ")
    if dot:
        lines = wrap_to(head + " ·", fits) + wrap_to(tail, fits)
        if len(lines) <= TITLE_ROWS:
            return [line.strip() for line in lines]
    return [line.strip() for line in wrap_width(measure, title, TITLE_SIZE, True, room,
                                                TITLE_ROWS, names)]


def rating_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round values from at or below `low` to at or above `high`: at most `most` of them, at
    least three, a step of 1, 2 or 5 times a power of ten, over at least `MIN_SPAN`."""
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    power = 10.0 ** math.floor(math.log10((high - low) / (most - 1)))
    for step in (power * m for m in (1, 2, 5, 10, 20, 50)):
        start, end = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
        if end - start + 1 <= most:
            return [(start + i) * step for i in range(max(end - start, 2) + 1)]
    raise AssertionError("unreachable: a step of 50 powers always fits")  # pragma: no cover


def _number(value: float, step: float) -> str:
    digits = max(0, -math.floor(math.log10(step))) if step > 0 else 0
    text = f"{value:.{digits}f}"
    return "0" if text.strip("-0.") == "" else text


def _dates(canvas: Canvas, first: float, last: float, x_of: Any,
           plot_bottom: float) -> None:
    """Two to four date labels under the plot (one when every point falls on one date), the
    first left-aligned, the last right-aligned, none overlapping another."""
    date_y = plot_bottom + DATE_Y - PLOT_BOTTOM

    def day(time: float) -> str:
        return dt.datetime.fromtimestamp(time, tz=dt.UTC).date().isoformat()

    if day(first) == day(last):
        canvas.text((x_of((first + last) / 2), date_y), day(first), size=SMALL, fg=MUTED,
                    bg=BACKGROUND, align="centre")
        return
    for count in (4, 3, 2):
        times = [first + (last - first) * i / (count - 1) for i in range(count)]
        texts = [day(t) for t in times]
        if len(set(texts)) < count:
            continue
        aligns = ["left", *["centre"] * (count - 2), "right"]
        boxes = [canvas.text_box((x_of(t), date_y), text, size=SMALL, align=align)
                 for t, text, align in zip(times, texts, aligns, strict=True)]
        if all(a[2] + 24 < b[0] for a, b in zip(boxes, boxes[1:], strict=False)):
            break
    for t, text, align in zip(times, texts, aligns, strict=True):
        x = x_of(t)
        canvas.line((x, plot_bottom + 1, x, plot_bottom + 10), fill=AXIS, width=2)
        canvas.text((x, date_y), text, size=SMALL, fg=MUTED, bg=BACKGROUND, align=align)
