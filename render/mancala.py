"""The Progressive Mancala board: a wooden row of pits with the goal beneath, as a PNG.

Drawn at 1000 px wide so that Discord's ~400 px phone preview still shows every count at a
readable size. The last move is traced on the board: its starting pit ringed thickly in the
mover's colour, each relay pit ringed thinly, the final landing ringed in white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.mancala import MancalaView, pit_letter

from .common import (BACKGROUND, MUTED, SEAT_COLOURS, TEXT, font, mix, paste_centred,
                     paste_text, text_stamp, to_png, wrap)

WIDTH = 1000
HEIGHT = 610
MARGIN = 24
BOARD_TOP, BOARD_BOTTOM = 128, 448
BOARD_PAD = 22
ROW_Y = 238  # centre line of the pits
LETTER_Y = 168
COUNT_Y = 296
ARROW_TOP_Y = 143
ARROW_BOTTOM_Y = 326
GOAL_Y = 392
GOAL_HALF_W, GOAL_HALF_H = 130, 40
FOOTER_Y = 470
SEED_CAP = 24  # seeds drawn per pit; the number beneath always gives the true count

WOOD = (181, 126, 76)
WOOD_EDGE = (112, 72, 40)
PIT = (96, 60, 34)
PIT_EDGE = (70, 42, 22)
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
    extra: str = "+{n} extra move"
    extras: str = "+{n} extra moves"
    owes: str = "{name} gets {n} extra next turn"
    wins: str = "{name} wins {a}–{b}"
    draw: str = "Draw ({reason})"
    last: str = "Last: {name}"
    empty_end: str = "empty pit"


def render_mancala(view: MancalaView, *, names: Sequence[str] | None = None,
                   labels: MancalaLabels = MancalaLabels()) -> bytes:
    """The board as PNG bytes."""
    size = len(view.pits)
    image = _static_layer(size, view.target, labels.goal, labels.target).copy()
    draw = ImageDraw.Draw(image)
    who = list(names or ()) + [labels.first, labels.second][len(names or ()):]
    who = who[:2]

    _header(image, draw, view, who, labels, size)
    centres, radius = _geometry(size)
    count_size = 28 if size <= 11 else 22
    for index, (cx, cy) in enumerate(centres):
        _seeds(draw, cx, cy, radius * 0.86, view.pits[index], radius * 0.2, salt=index)
        stamp = text_stamp(str(view.pits[index]), count_size, True, TEXT, 2, PIT_EDGE)
        paste_centred(image, stamp, cx, COUNT_Y)
    _goal_seeds(draw, view.goal)
    draw.text((WIDTH / 2 + GOAL_HALF_W + 16, GOAL_Y), f"{labels.goal} {view.goal}",
              font=font(26, bold=True), fill=(60, 36, 18), anchor="lm")
    if view.last is not None:
        _trace(draw, view, centres, radius, GOAL_BOX)
    _footer(draw, view, who, labels, size)
    return to_png(image)


GOAL_BOX = (WIDTH / 2 - GOAL_HALF_W, GOAL_Y - GOAL_HALF_H,
            WIDTH / 2 + GOAL_HALF_W, GOAL_Y + GOAL_HALF_H)


def _geometry(size: int) -> tuple[list[tuple[float, float]], float]:
    pitch = (WIDTH - 2 * (MARGIN + BOARD_PAD)) / size
    centres = [(MARGIN + BOARD_PAD + pitch * (i + 0.5), float(ROW_Y)) for i in range(size)]
    return centres, pitch * 0.42


@lru_cache(maxsize=8)
def _static_layer(size: int, target: int, goal_word: str, target_text: str) -> Image.Image:
    """Everything that never changes during a match, drawn once per board size."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((MARGIN, BOARD_TOP, WIDTH - MARGIN, BOARD_BOTTOM), radius=40,
                           fill=WOOD, outline=WOOD_EDGE, width=4)
    centres, radius = _geometry(size)
    _arrows(draw, centres, radius)
    letter_font = font(26 if size <= 11 else 20, bold=True)
    for index, (cx, cy) in enumerate(centres):
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PIT,
                     outline=PIT_EDGE, width=2)
        draw.text((cx, LETTER_Y), pit_letter(index), font=letter_font, fill=(60, 36, 18),
                  anchor="mm")
    draw.ellipse(GOAL_BOX, fill=PIT, outline=PIT_EDGE, width=3)
    draw.text((WIDTH / 2, 52), "–", font=font(40, bold=True), fill=MUTED, anchor="mm")
    draw.text((WIDTH / 2, 96), target_text.format(target=target), font=font(17),
              fill=MUTED, anchor="mm")
    return image


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: MancalaView, who: list[str],
            labels: MancalaLabels, size: int) -> None:
    last = pit_letter(size - 1)
    winners = set(view.outcome.winners) if view.outcome and not view.outcome.draw else set()
    for seat in (0, 1):
        colour = SEAT_COLOURS[seat]
        left = seat == 0
        x_edge = MARGIN if left else WIDTH - MARGIN
        box = (MARGIN, 10, WIDTH / 2 - 64, 112) if left else (WIDTH / 2 + 64, 10,
                                                              WIDTH - MARGIN, 112)
        if view.to_move == seat or seat in winners:
            draw.rounded_rectangle(box, radius=18, outline=colour, width=4,
                                   fill=mix(BACKGROUND, colour, 0.12))
        disc_x = x_edge + 30 if left else x_edge - 30
        draw.ellipse((disc_x - 14, 46 - 14, disc_x + 14, 46 + 14), fill=colour)
        name_x = disc_x + 26 if left else disc_x - 26
        align = "left" if left else "right"
        paste_text(image, (name_x, 46), _fit(who[seat], 14), size=30, fill=TEXT, bold=True,
                   align=align)
        sows = (labels.sows_first if left else labels.sows_second).format(last=last)
        paste_text(image, (name_x, 84), sows, size=20, fill=colour, align=align)
        score_x = WIDTH / 2 - 84 if left else WIDTH / 2 + 84
        paste_text(image, (score_x, 60), str(view.scores[seat]), size=58, fill=TEXT, bold=True,
                   align="right" if left else "left")


def _arrows(draw: ImageDraw.ImageDraw, centres, radius: float) -> None:
    """Sowing directions: seat 1 leftwards above the pits, seat 2 rightwards beneath."""
    left, right = centres[0][0] - radius, centres[-1][0] + radius
    for y, colour, towards_left in ((ARROW_TOP_Y, SEAT_COLOURS[0], True),
                                    (ARROW_BOTTOM_Y, SEAT_COLOURS[1], False)):
        draw.line((left, y, right, y), fill=colour, width=4)
        tip = left if towards_left else right
        back = 14 if towards_left else -14
        draw.polygon(((tip, y), (tip + back, y - 9), (tip + back, y + 9)), fill=colour)


def _seeds(draw: ImageDraw.ImageDraw, cx: float, cy: float, reach: float, count: int,
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
        draw.ellipse((x - seed_r, y - seed_r, x + seed_r, y + seed_r), fill=tone,
                     outline=mix(tone, (0, 0, 0), 0.45))
        hr = seed_r * 0.35
        hx, hy = x - seed_r * 0.3, y - seed_r * 0.3
        draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=mix(tone, (255, 255, 255), 0.6))


def _goal_seeds(draw: ImageDraw.ImageDraw, count: int) -> None:
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
        draw.ellipse((x - seed_r, y - seed_r, x + seed_r, y + seed_r), fill=tone,
                     outline=mix(tone, (0, 0, 0), 0.45))


def _trace(draw: ImageDraw.ImageDraw, view: MancalaView, centres, radius: float,
           goal_box) -> None:
    last = view.last
    assert last is not None
    size = len(view.pits)
    colour = SEAT_COLOURS[last.seat]

    def ring(pos: int, width: int, fill) -> None:
        if pos == size:
            x0, y0, x1, y1 = goal_box
            draw.ellipse((x0 - 5, y0 - 5, x1 + 5, y1 + 5), outline=fill, width=width)
        else:
            cx, cy = centres[pos]
            r = radius + 5
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill, width=width)

    for pos in set(last.path[1:-1]) - {last.path[0], last.path[-1]}:
        ring(pos, 3, colour)
    ring(last.path[-1], 5, HIGHLIGHT_END)
    ring(last.path[0], 7, colour)


def _footer(draw: ImageDraw.ImageDraw, view: MancalaView, who: list[str],
            labels: MancalaLabels, size: int) -> None:
    big, small = font(30, bold=True), font(22)
    if view.outcome is not None:
        if view.outcome.draw:
            status = labels.draw.format(reason=view.outcome.reason.value)
            colour = TEXT
        else:
            winner = view.outcome.winners[0]
            status = labels.wins.format(name=who[winner], a=view.scores[winner],
                                        b=view.scores[1 - winner])
            colour = SEAT_COLOURS[winner]
    else:
        seat = view.to_move
        assert seat is not None
        status = labels.to_move.format(name=who[seat])
        if view.extra_moves:
            status += "  " + (labels.extra if view.extra_moves == 1 else labels.extras).format(
                n=view.extra_moves)
        colour = SEAT_COLOURS[seat]
        if view.owed:
            draw.text((WIDTH - MARGIN, FOOTER_Y + 20),
                      labels.owes.format(name=who[1 - seat], n=view.owed), font=small,
                      fill=MUTED, anchor="rm")
    draw.text((MARGIN, FOOTER_Y + 20), status, font=big, fill=colour, anchor="lm")

    last = view.last
    if last is not None:
        trail = " → ".join(labels.goal if p == size else pit_letter(p) for p in last.path)
        if last.captured:
            trail += f"  (+{last.captured})"
        elif last.ended_empty:
            trail += f"  ({labels.empty_end})"
        text = f"{labels.last.format(name=who[last.seat])}:  {trail}"
        colour = mix(SEAT_COLOURS[last.seat], TEXT, 0.35)
        for row, line in enumerate(wrap(text, 78)[:2]):
            draw.text((MARGIN, FOOTER_Y + 68 + 32 * row), line, font=small, fill=colour,
                      anchor="lm")


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

