"""The Ghostone cave as a PNG: 4x4 plates, rocks with their counts, pawns in seat colours with
their seat number, flipped plates as dark holes, the ghost, the last pawn move and rock push as
arrows, the last die roll and the ghost's path, and a score table under the board."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.ghostone import (DIRECTIONS, FILES, NO_PAWN, SIZE, GhostoneView, PawnMove,
                            GhostPlacement, step)

from .common import (BACKGROUND, MUTED, SEAT_COLOURS, TEXT, font, mix, paste_centred,
                     paste_text, text_stamp, to_png)

WIDTH = 760
CELL = 146
GRID_LEFT = 88
GRID_TOP = 92
GRID_SIZE = SIZE * CELL
TABLE_TOP = GRID_TOP + GRID_SIZE + 58
ROW = 46
HEIGHT = TABLE_TOP + 4 * ROW + 96
CAVE = (46, 40, 36)
PLATE = (150, 142, 128)
PLATE_EDGE = (96, 88, 78)
HOLE = (24, 20, 18)
ROCK = (112, 98, 84)
ROCK_LIGHT = (150, 134, 116)
GHOST = (240, 244, 255)
ARROW_ROCK = (230, 230, 230)


@dataclass(frozen=True)
class GhostoneLabels:
    seat: str = "Seat {n}"
    to_move: str = "{name} to move"
    setup: str = "Set-up: {name} places a pawn and 3 rocks"
    ghost_place: str = "{name} places the ghost"
    roll_due: str = "The host rolls the die"
    wins: str = "{names} win{s}"
    roll: str = "Die: {direction}"
    removed: str = "{n} rocks gone"


def render_ghostone(view: GhostoneView, *, names: Sequence[str] | None = None,
                    labels: GhostoneLabels = GhostoneLabels()) -> bytes:
    image = _static_layer().copy()
    draw = ImageDraw.Draw(image)
    who = [(names[i] if names and i < len(names) else labels.seat.format(n=i + 1))
           for i in range(view.seats)]
    for plate in range(SIZE * SIZE):
        x, y = _centre(plate)
        if plate in view.flipped:
            draw.rounded_rectangle(_box(plate, 8), radius=14, fill=HOLE)
            continue
        _rocks(image, draw, x, y, view.rocks[plate])
        if view.pawns[plate] != NO_PAWN:
            _pawn(image, draw, x + CELL * 0.2, y + CELL * 0.2, view.pawns[plate])
    if view.last_roll is not None and view.ghost is not None:
        origin = view.last_roll.ghost_from
        if origin is not None and origin != view.ghost:
            _arrow(draw, _centre(origin), _centre(view.ghost), GHOST, width=3, dash=True)
    if view.ghost is not None:  # lower left of its plate: the pawn stands lower right
        gx, gy = _centre(view.ghost)
        _ghost(draw, gx - CELL * 0.2, gy + CELL * 0.14)
    if view.last is not None:
        _last(draw, view)
    _header(image, draw, view, who, labels)
    _table(image, draw, view, who, labels)
    return to_png(image)


def _centre(plate: int) -> tuple[float, float]:
    file, rank = plate % SIZE, plate // SIZE
    return GRID_LEFT + file * CELL + CELL / 2, GRID_TOP + (SIZE - 1 - rank) * CELL + CELL / 2


def _box(plate: int, inset: float) -> tuple[float, float, float, float]:
    x, y = _centre(plate)
    half = CELL / 2 - inset
    return x - half, y - half, x + half, y + half


@lru_cache(maxsize=1)
def _static_layer() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((GRID_LEFT - 14, GRID_TOP - 14, GRID_LEFT + GRID_SIZE + 14,
                            GRID_TOP + GRID_SIZE + 14), radius=22, fill=CAVE)
    for plate in range(SIZE * SIZE):
        draw.rounded_rectangle(_box(plate, 6), radius=14, fill=PLATE, outline=PLATE_EDGE,
                               width=3)
    coord = font(26, bold=True)
    for i in range(SIZE):
        x = GRID_LEFT + i * CELL + CELL / 2
        draw.text((x, GRID_TOP + GRID_SIZE + 32), FILES[i], font=coord, fill=MUTED, anchor="mm")
        y = GRID_TOP + (SIZE - 1 - i) * CELL + CELL / 2
        draw.text((GRID_LEFT - 42, y), str(i + 1), font=coord, fill=MUTED, anchor="mm")
    return image


def _rocks(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, n: int) -> None:
    """Up to six rocks drawn as lumpy stones, the count beside them."""
    spots = ((-0.22, -0.18), (0.05, -0.24), (-0.05, 0.0), (0.24, -0.04), (-0.28, 0.08),
             (0.12, 0.12))
    for i, (fx, fy) in enumerate(spots[:min(n, 6)]):
        cx, cy = x + fx * CELL, y + fy * CELL
        r = CELL * 0.1
        points = [(cx + r * (1 + 0.18 * math.sin(3 * a + i)) * math.cos(a),
                   cy + r * 0.8 * (1 + 0.18 * math.cos(2 * a + i)) * math.sin(a))
                  for a in (k * math.pi / 5 for k in range(10))]
        draw.polygon(points, fill=ROCK, outline=(70, 60, 50))
        draw.ellipse((cx - r * 0.45, cy - r * 0.5, cx - r * 0.05, cy - r * 0.15), fill=ROCK_LIGHT)
    if n:
        paste_text(image, (x - CELL / 2 + 14, y - CELL / 2 + 22), str(n), size=26,
                   fill=(40, 34, 28), bold=True)


def _pawn(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, seat: int) -> None:
    colour = SEAT_COLOURS[seat]
    r = CELL * 0.17
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=(20, 20, 20), width=3)
    paste_centred(image, text_stamp(str(seat + 1), 28, True, (20, 20, 20)), x, y)


def _ghost(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    w, h = CELL * 0.22, CELL * 0.3
    top = y - h * 0.6
    draw.pieslice((x - w, top - w * 0.2, x + w, top + w * 1.8), 180, 360, fill=GHOST)
    draw.rectangle((x - w, top + w * 0.8, x + w, y + h * 0.4), fill=GHOST)
    for i in range(3):  # the wavy hem
        cx = x - w + w * (2 * i + 1) / 3
        draw.ellipse((cx - w / 3, y + h * 0.25, cx + w / 3, y + h * 0.55), fill=GHOST)
    for dx in (-0.35, 0.35):
        ex = x + dx * w
        draw.ellipse((ex - 5, top + w * 0.55, ex + 5, top + w * 0.55 + 12), fill=(30, 30, 40))


def _arrow(draw: ImageDraw.ImageDraw, start, end, colour, *, width: int = 6,
           dash: bool = False) -> None:
    (x0, y0), (x1, y1) = start, end
    if dash:
        length = math.hypot(x1 - x0, y1 - y0)
        steps = max(1, int(length // 18))
        for i in range(0, steps, 2):
            a, b = i / steps, min(1.0, (i + 1) / steps)
            draw.line((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b,
                       y0 + (y1 - y0) * b), fill=colour, width=width)
    else:
        draw.line((x0, y0, x1, y1), fill=colour, width=width)
    angle = math.atan2(y1 - y0, x1 - x0)
    size = 18
    draw.polygon(((x1, y1), (x1 - size * math.cos(angle - 0.5), y1 - size * math.sin(angle - 0.5)),
                  (x1 - size * math.cos(angle + 0.5), y1 - size * math.sin(angle + 0.5))),
                 fill=colour)


def _last(draw: ImageDraw.ImageDraw, view: GhostoneView) -> None:
    last = view.last
    assert last is not None
    move = last.move
    if isinstance(move, GhostPlacement):
        x0, y0, x1, y1 = _box(move.plate, 4)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=14, outline=GHOST, width=5)
        return
    if not isinstance(move, PawnMove) or last.seat is None:
        return
    colour = SEAT_COLOURS[last.seat]
    _arrow(draw, _centre(move.origin), _centre(move.target), colour, width=8)
    if move.rock is not None:
        ox, oy = _centre(move.origin)
        df, dr = DIRECTIONS[move.rock]
        target = step(move.origin, move.rock)
        reach = 0.5 if target is None else 0.8
        _arrow(draw, (ox + df * CELL * 0.1, oy - dr * CELL * 0.1),
               (ox + df * CELL * reach, oy - dr * CELL * reach), ARROW_ROCK, width=4)


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: GhostoneView, who,
            labels: GhostoneLabels) -> None:
    if view.outcome is not None:
        names = " & ".join(who[w] for w in view.outcome.winners)
        text = labels.wins.format(names=names, s="" if len(view.outcome.winners) > 1 else "s")
        colour = TEXT
    elif view.phase == "roll":
        text, colour = labels.roll_due, GHOST
    else:
        seat = view.to_move
        assert seat is not None
        template = {"setup": labels.setup, "ghost": labels.ghost_place}.get(view.phase,
                                                                             labels.to_move)
        text, colour = template.format(name=who[seat]), SEAT_COLOURS[seat]
    paste_text(image, (24, 40), text, size=30, fill=colour, bold=True)
    if view.last_roll is not None:
        roll = labels.roll.format(direction=view.last_roll.move.direction)  # type: ignore[union-attr]
        paste_text(image, (WIDTH - 24, 40), roll, size=24, fill=GHOST, bold=True, align="right")


def _table(image: Image.Image, draw: ImageDraw.ImageDraw, view: GhostoneView, who,
           labels: GhostoneLabels) -> None:
    winners = set(view.outcome.winners) if view.outcome else set()
    for seat in range(view.seats):
        y = TABLE_TOP + seat * ROW
        colour = SEAT_COLOURS[seat]
        if view.to_move == seat or seat in winners:
            draw.rounded_rectangle((16, y - ROW / 2 + 3, WIDTH - 16, y + ROW / 2 - 3),
                                   radius=12, fill=mix(BACKGROUND, colour, 0.18))
        draw.ellipse((30, y - 14, 58, y + 14), fill=colour)
        paste_centred(image, text_stamp(str(seat + 1), 20, True, (20, 20, 20)), 44, y)
        paste_text(image, (72, y), _fit(who[seat], 16), size=24, fill=TEXT, bold=True)
        escapes = "  ".join(f"{p}+{b}" if b else str(p) for p, b in view.escaped[seat]) or "–"
        paste_text(image, (340, y), escapes, size=22, fill=MUTED)
        paste_text(image, (WIDTH - 30, y), str(view.scores[seat]), size=28, fill=TEXT,
                   bold=True, align="right")
    y = TABLE_TOP + view.seats * ROW + 8
    paste_text(image, (72, y), labels.removed.format(n=view.removed), size=20, fill=MUTED)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
