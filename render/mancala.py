"""The Progressive Mancala board: a wooden row of pits with the goal beneath, as a PNG.

Every count sits on a light chip under its pit, every pit letter above it, both sized to read on
a phone (the picture shown 360 px wide). The last move is traced on the board: its starting pit
ringed thickly in the mover's colour, each relay pit ringed thinly, the final landing ringed in
white, and its trail written under the board.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.mancala.game import MancalaView, pit_letter

from .common import (
    BACKGROUND,
    BODY_PHONE_PX,
    DARK_INK,
    MUTED,
    SEAT_COLOURS,
    TEXT,
    Canvas,
    Picture,
    Rgb,
    TextBox,
    body_size,
    fit_size,
    fit_width,
    min_size,
    mix,
    readable,
    seat_mark,
    wrap_width,
)

WIDTH = 1000
MARGIN = 20
SMALL = min_size(WIDTH)  # the smallest text: 9 px digits at phone width
SMALL_BOLD = min_size(WIDTH, True)
# The captions a player reads to play (which way each side sows, whose turn it is, the last
# move's trail) are body text (render.common.BODY_PHONE_PX), above the 9 px floor kept for
# labels that are glanced at.
CAPTION_PHONE_PX = BODY_PHONE_PX
CAPTION = body_size(WIDTH)
CAPTION_BOLD = body_size(WIDTH, True)
CAPTION_STEP = CAPTION + 10  # from one caption line to the next
HEADER_H = 150
BOARD_TOP, BOARD_BOTTOM = 166, 590
BOARD_PAD = 20
ARROW_TOP_Y = 186
LETTER_Y = 222
ROW_Y = 300  # centre line of the pits
ARROW_BOTTOM_Y = 418
GOAL_Y = 510
GOAL_HALF_W, GOAL_HALF_H = 150, 56
FOOTER_Y = 636  # the status line; the captions under it, CAPTION_STEP apart
FOOTER_ROWS = 4  # the status, then up to three lines of the last move and the bonus moves owed
BOTTOM_PAD = 44  # under the last line: its descenders and a margin
HEIGHT = FOOTER_Y + CAPTION_STEP * (FOOTER_ROWS - 1) + BOTTOM_PAD  # the tallest board
SEED_CAP = 24  # seeds drawn per pit; the number beneath always gives the true count

WOOD = (181, 126, 76)
WOOD_EDGE = (112, 72, 40)
PIT = (96, 60, 34)
PIT_EDGE = (70, 42, 22)
CHIP = (246, 236, 214)
SEED_TONES = ((236, 228, 208), (206, 170, 120), (150, 176, 160), (200, 150, 160), (170, 170, 205))
HIGHLIGHT_END = (255, 255, 255)


@dataclass(frozen=True)
class MancalaLabels:
    """Every word the picture shows, so that a translation can replace them."""

    first: str = "First player"
    second: str = "Second player"
    sows_first: str = "sows {last}→a→goal"
    sows_second: str = "sows a→{last}→goal"
    goal: str = "goal"
    target: str = "first to {target}"
    to_move: str = "{name} to move"
    extra: str = "+{n} bonus move"
    extras: str = "+{n} bonus moves"
    owes: str = "Bonus moves for {name} next turn: {n}"
    wins: str = "{name} wins {a}–{b}"
    draw: str = "Draw ({reason})"
    last: str = "Last: {name}"
    empty_end: str = "empty pit"
    repetition: str = "repetition"
    # the same sentences when the seat is the reader's (`you`: a lesson's learner)
    to_move_you: str = "Your turn"
    wins_you: str = "You win {a}–{b}"
    owes_you: str = "Bonus moves for you next turn: {n}"


def render_mancala(view: MancalaView, *, names: Sequence[str] | None = None,
                   labels: MancalaLabels = MancalaLabels(), result: str | None = None,
                   layout: list[TextBox] | None = None, last_move: bool = True,
                   you: int | None = None) -> bytes:
    """The board as PNG bytes; `layout`, when given, receives every label drawn;
    `last_move` False: its trail is not written under the board (still ringed on it).
    `you`: the reader's seat, whose sentences are in the second person.

    The picture is as tall as its footer's lines need, and no taller."""
    size = len(view.pits)
    who = (list(names or ()) + [labels.first, labels.second][len(names or ()):])[:2]
    over = result is not None or view.outcome is not None
    mover = None if over else view.to_move
    footer = _footer_lines(view, who, labels, result, mover, last_move, you)
    height = FOOTER_Y + CAPTION_STEP * (len(footer) - 1) + BOTTOM_PAD
    canvas = _static_layer(size, labels.goal, height).clone()

    _header(canvas, view, who, labels, size, mover)
    centres, radius = _geometry(size)
    count_size = SMALL_BOLD + (6 if size <= 11 else 0)
    for index, (cx, cy) in enumerate(centres):
        _seeds(canvas, cx, cy, radius * 0.86, view.pits[index], radius * 0.2, salt=index)
        stagger = 0 if size <= 11 or index % 2 == 0 else 40  # 17 pits: two rows of counts
        _chip(canvas, cx, cy + radius + 30 + stagger, str(view.pits[index]), count_size)
    _goal_seeds(canvas, view.goal)
    canvas.text((WIDTH / 2 + GOAL_HALF_W + 20, GOAL_Y), f"{labels.goal} {view.goal}",
                size=SMALL_BOLD + 4, fg=DARK_INK, bg=WOOD, bold=True)
    if view.last is not None:
        _trace(canvas, view, centres, radius)
    for row, (line, line_size, bold, colour) in enumerate(footer):
        canvas.text((MARGIN, FOOTER_Y + CAPTION_STEP * row), line, size=line_size,
                    fg=readable(colour, BACKGROUND), bg=BACKGROUND, bold=bold)
    return canvas.png(layout)


GOAL_BOX = (WIDTH / 2 - GOAL_HALF_W, GOAL_Y - GOAL_HALF_H,
            WIDTH / 2 + GOAL_HALF_W, GOAL_Y + GOAL_HALF_H)


def _geometry(size: int) -> tuple[list[tuple[float, float]], float]:
    pitch = (WIDTH - 2 * (MARGIN + BOARD_PAD)) / size
    centres = [(MARGIN + BOARD_PAD + pitch * (i + 0.5), float(ROW_Y)) for i in range(size)]
    return centres, min(40.0, pitch * 0.44)


def _chip(canvas: Canvas, x: float, y: float, text: str, size: int) -> None:
    w, h = canvas.measure(text, size, True)
    half = max(w / 2 + 6, h / 2 + 6)
    canvas.rounded_rectangle((x - half, y - h / 2 - 7, x + half, y + h / 2 + 7), radius=8,
                             fill=CHIP, outline=PIT_EDGE, width=2)
    canvas.text((x, y), text, size=size, fg=DARK_INK, bg=CHIP, bold=True, align="centre")


@lru_cache(maxsize=16)
def _static_layer(size: int, goal_word: str, height: int) -> Canvas:
    """Everything that never changes during a match, drawn once per board size and height
    (a board is one to four footer lines tall)."""
    canvas = Canvas((WIDTH, height), BACKGROUND)
    canvas.rounded_rectangle((MARGIN, BOARD_TOP, WIDTH - MARGIN, BOARD_BOTTOM), radius=40,
                             fill=WOOD, outline=WOOD_EDGE, width=4)
    centres, radius = _geometry(size)
    _arrows(canvas, centres, radius)
    letter_size = SMALL_BOLD + (6 if size <= 11 else 0)
    for index, (cx, cy) in enumerate(centres):
        canvas.circle(cx, cy, radius, fill=PIT, outline=PIT_EDGE, width=2)
        canvas.text((cx, LETTER_Y), pit_letter(index), size=letter_size, fg=DARK_INK, bg=WOOD,
                    bold=True, align="centre")
    canvas.ellipse(GOAL_BOX, fill=PIT, outline=PIT_EDGE, width=3)
    return canvas


def _header(canvas: Canvas, view: MancalaView, who: list[str], labels: MancalaLabels,
            size: int, mover: int | None) -> None:
    last = pit_letter(size - 1)
    winners = set(view.outcome.winners) if view.outcome and not view.outcome.draw else set()
    for seat in (0, 1):
        colour = SEAT_COLOURS[seat]
        left = seat == 0
        box = (MARGIN, 8, WIDTH / 2 - 8, HEADER_H) if left else (WIDTH / 2 + 8, 8,
                                                                 WIDTH - MARGIN, HEADER_H)
        back = BACKGROUND
        if mover == seat or seat in winners:
            back = mix(BACKGROUND, colour, 0.12)
            canvas.rounded_rectangle(box, radius=18, outline=colour, width=4, fill=back)
        x_edge = box[0] + 16 if left else box[2] - 16
        disc_x = x_edge + 16 if left else x_edge - 16
        seat_mark(canvas, seat, disc_x, 50, 16, colour)  # a disc, a square: not colour alone
        name_x = disc_x + 28 if left else disc_x - 28
        align = "left" if left else "right"
        score = str(view.scores[seat])
        score_x = box[2] - 18 if left else box[0] + 18
        score_w = canvas.measure(score, 64, True)[0]
        room = abs(score_x - name_x) - score_w - 20
        name, name_size = fit_size(canvas, who[seat], (SMALL_BOLD + 6, SMALL_BOLD + 3,
                                                       SMALL_BOLD), True, room)
        canvas.text((name_x, 50), name, size=name_size, fg=TEXT, bg=back, bold=True,
                    align=align)
        # under the name and the score (whose digits end at y 86), across the whole box
        sows = (labels.sows_first if left else labels.sows_second).format(last=last)
        sows, sows_size = fit_size(canvas, sows, (CAPTION, SMALL), False,
                                   box[2] - box[0] - 32)
        canvas.text((x_edge, 114), sows, size=sows_size, fg=mix(colour, TEXT, 0.3), bg=back,
                    align=align)
        canvas.text((score_x, 62), score, size=64, fg=TEXT, bg=back, bold=True,
                    align="right" if left else "left")
    target = labels.target.format(target=view.target)
    canvas.text((WIDTH / 2 - GOAL_HALF_W - 20, GOAL_Y), target, size=SMALL_BOLD, fg=DARK_INK,
                bg=WOOD, bold=True, align="right")


def _arrows(canvas: Canvas, centres, radius: float) -> None:
    """Sowing directions: seat 1 leftwards above the pits, seat 2 rightwards beneath."""
    left, right = centres[0][0] - radius, centres[-1][0] + radius
    for y, colour, towards_left in ((ARROW_TOP_Y, SEAT_COLOURS[0], True),
                                    (ARROW_BOTTOM_Y, SEAT_COLOURS[1], False)):
        ink = mix(colour, (0, 0, 0), 0.25)
        canvas.line((left, y, right, y), fill=ink, width=5)
        tip = left if towards_left else right
        back = 16 if towards_left else -16
        canvas.polygon(((tip, y), (tip + back, y - 10), (tip + back, y + 10)), fill=ink)


def _seeds(canvas: Canvas, cx: float, cy: float, reach: float, count: int,
           seed_r: float, salt: int) -> None:
    """Seeds on a sunflower spiral, so any count packs evenly inside the pit."""
    shown = min(count, SEED_CAP)
    if not shown:
        return
    # densest packing that fits: shrink the seeds only when the spiral would leave the pit
    spacing = seed_r * 1.05
    outer = spacing * math.sqrt(shown - 0.5) + seed_r
    if outer > reach:
        scale = reach / outer
        seed_r, spacing = seed_r * scale, spacing * scale
    for i in range(shown):
        dist = spacing * math.sqrt(i + 0.5) if shown > 1 else 0
        angle = i * 2.39996 + salt
        x, y = cx + dist * math.cos(angle), cy + dist * math.sin(angle)
        tone = SEED_TONES[(i * 7 + salt * 3) % len(SEED_TONES)]
        canvas.circle(x, y, seed_r, fill=tone, outline=mix(tone, (0, 0, 0), 0.45))
        hr = seed_r * 0.35
        canvas.circle(x - seed_r * 0.3, y - seed_r * 0.3, hr, fill=mix(tone, (255, 255, 255), 0.6))


def _goal_seeds(canvas: Canvas, count: int) -> None:
    shown = min(count, 40)
    seed_r = 9
    per_row = 10
    rows = max(1, math.ceil(shown / per_row))
    for i in range(shown):
        row, col = divmod(i, per_row)
        in_row = min(per_row, shown - row * per_row)
        x = WIDTH / 2 + (col - (in_row - 1) / 2) * (seed_r * 2.2)
        y = GOAL_Y + (row - (rows - 1) / 2) * (seed_r * 2.1)
        tone = SEED_TONES[i % len(SEED_TONES)]
        canvas.circle(x, y, seed_r, fill=tone, outline=mix(tone, (0, 0, 0), 0.45))


def _trace(canvas: Canvas, view: MancalaView, centres, radius: float) -> None:
    last = view.last
    assert last is not None
    size = len(view.pits)
    colour = SEAT_COLOURS[last.seat]

    def ring(pos: int, width: int, fill) -> None:
        if pos == size:
            x0, y0, x1, y1 = GOAL_BOX
            canvas.ellipse((x0 - 6, y0 - 6, x1 + 6, y1 + 6), outline=fill, width=width)
        else:
            cx, cy = centres[pos]
            canvas.circle(cx, cy, radius + 6, outline=fill, width=width)

    for pos in sorted(set(last.path[1:-1]) - {last.path[0], last.path[-1]}):
        ring(pos, 3, colour)
    ring(last.path[-1], 5, HIGHLIGHT_END)
    ring(last.path[0], 7, colour)


_MEASURE = Canvas((1, 1), BACKGROUND)  # measures lines before the board's height is known


def _footer_lines(view: MancalaView, who: list[str], labels: MancalaLabels,
                  result: str | None, mover: int | None, last_move: bool,
                  you: int | None = None
                  ) -> list[tuple[str, int, bool, Rgb]]:
    """The footer's lines (text, size, bold, colour): the status, then the last move's
    trail and the bonus moves owed, all at caption size."""
    pits = len(view.pits)  # (not `size`: a line's font size is not the board's pit count)
    if result is not None:
        status, colour = result, TEXT
    elif view.outcome is not None:
        if view.outcome.draw:
            status = labels.draw.format(reason=labels.repetition)
            colour = TEXT
        else:
            winner = view.outcome.winners[0]
            wins = labels.wins_you if winner == you else labels.wins
            status = wins.format(name=who[winner], a=view.scores[winner],
                                 b=view.scores[1 - winner])
            colour = SEAT_COLOURS[winner]
    else:
        assert mover is not None
        status = (labels.to_move_you if mover == you else labels.to_move).format(
            name=who[mover])
        if view.extra_moves:
            status += "  " + (labels.extra if view.extra_moves == 1 else labels.extras).format(
                n=view.extra_moves)
        colour = SEAT_COLOURS[mover]
    room = WIDTH - 2 * MARGIN
    status, status_size = fit_size(_MEASURE, status, (CAPTION_BOLD,), True, room,
                                   who)
    lines = [(status, status_size, True, colour)]

    last = view.last if last_move else None
    owed = 1 if mover is not None and view.owed else 0
    if last is not None:
        trail = " → ".join(labels.goal if p == pits else pit_letter(p) for p in last.path)
        if last.captured:
            trail += f"  (+{last.captured})"
        elif last.ended_empty:
            trail += f"  ({labels.empty_end})"
        # the mover's name takes at most half a line: a long one is cut whole-line-first,
        # never broken across two lines
        name = fit_width(_MEASURE, who[last.seat], CAPTION, False, room / 2)
        text = f"{labels.last.format(name=name)}:  {trail}"
        trail_colour = mix(SEAT_COLOURS[last.seat], TEXT, 0.35)
        lines += [(fit_width(_MEASURE, line, CAPTION, False, room, who), CAPTION, False,
                   trail_colour)
                  for line in wrap_width(_MEASURE, text, CAPTION, False, room,
                                         FOOTER_ROWS - 1 - owed, who)]
    if owed:
        assert mover is not None
        owes = labels.owes_you if 1 - mover == you else labels.owes
        text = owes.format(name=who[1 - mover], n=view.owed)
        lines.append((fit_width(_MEASURE, text, CAPTION, False, room, who), CAPTION, False,
                      MUTED))
    return lines


# the mancala kit names this module as its picture (games/mancala/__init__.py)
PICTURE = Picture(render_mancala, MancalaLabels)
