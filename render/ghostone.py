"""The Ghostone cave as a PNG: 4x4 plates, rocks with their counts, pawns in seat colours with
their seat number, flipped plates as dark holes, the ghost. A compass beside the cave gives
N/E/S/W (rocks and the die use them) and shows the last die roll; the ghost's path for that roll
is drawn as it went, round the board's edges where it wrapped. The last pawn move and rock push
are arrows. Under the cave, a score table: each seat's escapes (rocks scored + bonus) and total.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from games.ghostone.game import (
    DIRECTIONS,
    FILES,
    NO_PAWN,
    SIZE,
    GhostoneView,
    GhostPlacement,
    PawnMove,
    Roll,
    step,
    wrap_step,
)

from .common import (
    BACKGROUND,
    DARK_INK,
    MUTED,
    SEAT_COLOURS,
    TEXT,
    Canvas,
    Picture,
    Rgb,
    TextBox,
    fit_width,
    min_size,
    mix,
    readable,
    seat_mark,
    seat_text_centre,
    status_lines,
    wrap_width,
)

WIDTH = 760
SMALL = min_size(WIDTH)
SMALL_BOLD = min_size(WIDTH, True)
CELL = 136
GRID_LEFT = 70
GRID_TOP = 128
GRID_SIZE = SIZE * CELL
COMPASS_Y, COMPASS_R = GRID_TOP + 90, 28
CAVE_RIGHT = GRID_LEFT + GRID_SIZE + 12
LETTER_GAP = 5  # between the compass's circle and its letters
TABLE_TOP = GRID_TOP + GRID_SIZE + 104
ROW = 50
CAVE = (46, 40, 36)
PLATE = (150, 142, 128)
PLATE_EDGE = (96, 88, 78)
HOLE = (24, 20, 18)
ROCK = (112, 98, 84)
ROCK_LIGHT = (150, 134, 116)
GHOST = (240, 244, 255)
OUTLINE = (16, 14, 12)
ARROW_ROCK = (230, 230, 230)


ROLL_FACES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # the die's faces, as notation


@dataclass(frozen=True)
class GhostoneLabels:
    seat: str = "Seat {n}"
    to_move: str = "{name} to move"
    setup: str = "Set-up: {name} places a pawn and 3 rocks"
    ghost_place: str = "{name} places the ghost"
    roll_due: str = "The host rolls the die"
    wins: str = "{names} wins"
    wins_many: str = "{names} win"  # several winners (a grammar of its own in translations)
    roll: str = "Die: {direction}"
    die: str = "Die"
    removed: str = "{n} rocks gone"
    escapes: str = "Escapes: rocks+bonus"
    score: str = "Score"
    compass: tuple[str, str, str, str] = ("N", "E", "S", "W")
    # the die's eight faces as words (the notation's N, NE ...: 北, 北東 ... in Japanese),
    # in the order of ROLL_FACES; the same messages as games.grid.COMPASS
    rolled: tuple[str, ...] = ROLL_FACES
    # the same sentences when the seat is the reader's (`you`: a lesson's learner)
    to_move_you: str = "Your turn"
    setup_you: str = "Set-up: you place a pawn and 3 rocks"
    ghost_place_you: str = "You place the ghost"
    wins_you: str = "You win"

    CONTEXTS: ClassVar[dict[str, str]] = {"compass": "compass", "rolled": "compass"}


def _height(seats: int) -> int:
    return TABLE_TOP + 40 + seats * ROW + 60


def render_ghostone(view: GhostoneView, *, names: Sequence[str] | None = None,
                    labels: GhostoneLabels = GhostoneLabels(), result: str | None = None,
                    layout: list[TextBox] | None = None, last_move: bool = True,
                    you: int | None = None) -> bytes:
    """The cave as PNG bytes. `last_move` is for the pictures' common call: the last move is
    only ever drawn as arrows here, never written, so there is nothing to leave out. `you`:
    the reader's seat, whose sentences are in the second person."""
    canvas = _static_layer(view.seats, labels.compass).clone()
    compass_x, compass_r = _compass(labels.compass)
    who = [(names[i] if names and i < len(names) else labels.seat.format(n=i + 1))
           for i in range(view.seats)]
    over = result is not None or view.outcome is not None
    mover = None if over else view.to_move
    if view.last is not None and isinstance(view.last.move, GhostPlacement):
        x0, y0, x1, y1 = _box(view.last.move.plate, 3)
        canvas.rounded_rectangle((x0, y0, x1, y1), radius=14, outline=GHOST, width=5)
    for plate in range(SIZE * SIZE):
        x, y = _centre(plate)
        if plate in view.flipped:
            canvas.rounded_rectangle(_box(plate, 8), radius=14, fill=HOLE)
            continue
        _rocks(canvas, x, y, view.rocks[plate])
    if view.last_roll is not None and view.ghost is not None:
        _ghost_path(canvas, view)
    if view.ghost is not None:  # lower left of its plate: the pawn stands lower right
        gx, gy = _centre(view.ghost)
        _ghost(canvas, gx - CELL * 0.2, gy + CELL * 0.14)
    if view.last is not None:
        _last(canvas, view)
    for plate in range(SIZE * SIZE):  # pawns over the arrows
        if plate not in view.flipped and view.pawns[plate] != NO_PAWN:
            x, y = _centre(plate)
            _pawn(canvas, x + CELL * 0.2, y + CELL * 0.2, view.pawns[plate])
    for plate in range(SIZE * SIZE):  # counts last, on a patch of plate over any arrow
        if plate not in view.flipped and view.rocks[plate]:
            x, y = _centre(plate)
            canvas.text((x - CELL / 2 + 16, y - CELL / 2 + 28), str(view.rocks[plate]),
                        size=SMALL_BOLD + 2, fg=DARK_INK, bg=PLATE, bold=True, halo=True)
    _die(canvas, view, labels, compass_x, compass_r)
    _header(canvas, view, who, labels, result, mover, you)
    _table(canvas, view, who, labels, mover)
    return canvas.png(layout)


def _centre(plate: int) -> tuple[float, float]:
    file, rank = plate % SIZE, plate // SIZE
    return GRID_LEFT + file * CELL + CELL / 2, GRID_TOP + (SIZE - 1 - rank) * CELL + CELL / 2


def _box(plate: int, inset: float) -> tuple[float, float, float, float]:
    x, y = _centre(plate)
    half = CELL / 2 - inset
    return x - half, y - half, x + half, y + half


@lru_cache(maxsize=4)
def _static_layer(seats: int, compass: tuple[str, ...]) -> Canvas:
    canvas = Canvas((WIDTH, _height(seats)), BACKGROUND)
    canvas.rounded_rectangle((GRID_LEFT - 12, GRID_TOP - 12, GRID_LEFT + GRID_SIZE + 12,
                              GRID_TOP + GRID_SIZE + 12), radius=20, fill=CAVE)
    for plate in range(SIZE * SIZE):
        canvas.rounded_rectangle(_box(plate, 5), radius=14, fill=PLATE, outline=PLATE_EDGE,
                                 width=3)
    for i in range(SIZE):
        x = GRID_LEFT + i * CELL + CELL / 2
        canvas.text((x, GRID_TOP + GRID_SIZE + 38), FILES[i], size=SMALL_BOLD, fg=MUTED,
                    bg=BACKGROUND, bold=True, align="centre")
        y = GRID_TOP + (SIZE - 1 - i) * CELL + CELL / 2
        canvas.text((GRID_LEFT - 38, y), str(i + 1), size=SMALL_BOLD, fg=MUTED, bg=BACKGROUND,
                    bold=True, align="centre")
    # the compass: N up, as the board's ranks
    (cx, r), cy = _compass(compass), COMPASS_Y
    canvas.circle(cx, cy, r, outline=MUTED, width=2)
    for (dx, dy), letter in zip(((0, -1), (1, 0), (0, 1), (-1, 0)), compass, strict=True):
        canvas.line((cx, cy, cx + dx * r, cy + dy * r), fill=MUTED, width=3)
        w, h = canvas.measure(letter, SMALL_BOLD, True)
        canvas.text((cx + dx * (r + w / 2 + LETTER_GAP), cy + dy * (r + h / 2 + 9)), letter,
                    size=SMALL_BOLD, fg=TEXT, bg=BACKGROUND, bold=True, align="centre")
    return canvas


ROCK_SPOTS = ((0.02, -0.22), (0.26, -0.2), (-0.05, 0.02), (0.24, 0.04), (-0.3, 0.1),
              (0.08, 0.22))


def _rocks(canvas: Canvas, x: float, y: float, n: int) -> None:
    """Up to six rocks drawn as lumpy stones, the count in the plate's corner."""
    for i in range(min(n, len(ROCK_SPOTS))):
        points, light = _rock(x, y, i)
        canvas.polygon(points, fill=ROCK, outline=(70, 60, 50))
        canvas.ellipse(light, fill=ROCK_LIGHT)


@lru_cache(maxsize=6 * SIZE * SIZE)
def _rock(x: float, y: float, i: int) -> tuple[tuple[tuple[float, float], ...],
                                               tuple[float, float, float, float]]:
    """The i-th rock of the plate centred on (x, y): its outline and its light spot (fixed
    geometry, worked out once)."""
    fx, fy = ROCK_SPOTS[i]
    cx, cy = x + fx * CELL, y + fy * CELL
    r = CELL * 0.1
    points = tuple((cx + r * (1 + 0.18 * math.sin(3 * a + i)) * math.cos(a),
                    cy + r * 0.8 * (1 + 0.18 * math.cos(2 * a + i)) * math.sin(a))
                   for a in (k * math.pi / 5 for k in range(10)))
    return points, (cx - r * 0.45, cy - r * 0.5, cx - r * 0.05, cy - r * 0.15)



def _pawn(canvas: Canvas, x: float, y: float, seat: int) -> None:
    """A pawn in its seat's colour and shape (render.common.SEAT_SHAPES), its number on it."""
    colour = SEAT_COLOURS[seat]
    r = CELL * 0.18
    seat_mark(canvas, seat, x, y, r, colour, outline=OUTLINE, width=3)
    canvas.text(seat_text_centre(seat, x, y, r), str(seat + 1), size=SMALL_BOLD, fg=DARK_INK,
                bg=colour, bold=True, align="centre")


def _ghost(canvas: Canvas, x: float, y: float) -> None:
    w, h = CELL * 0.22, CELL * 0.3
    top = y - h * 0.6
    canvas.pieslice((x - w, top - w * 0.2, x + w, top + w * 1.8), 180, 360, fill=GHOST)
    canvas.rectangle((x - w, top + w * 0.8, x + w, y + h * 0.4), fill=GHOST)
    for i in range(3):  # the wavy hem
        cx = x - w + w * (2 * i + 1) / 3
        canvas.ellipse((cx - w / 3, y + h * 0.25, cx + w / 3, y + h * 0.55), fill=GHOST)
    for dx in (-0.35, 0.35):
        ex = x + dx * w
        canvas.ellipse((ex - 5, top + w * 0.55, ex + 5, top + w * 0.55 + 12), fill=(30, 30, 40))


def _head(canvas: Canvas, x1: float, y1: float, angle: float, colour: Rgb, size: float) -> None:
    left = (x1 - size * math.cos(angle - 0.5), y1 - size * math.sin(angle - 0.5))
    right = (x1 - size * math.cos(angle + 0.5), y1 - size * math.sin(angle + 0.5))
    canvas.polygon(((x1, y1), left, right), fill=colour)


def _arrow(canvas: Canvas, start, end, colour: Rgb, *, width: int = 6) -> None:
    """An arrow with a dark rim, so it reads on plates and holes alike."""
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    bx, by = x1 - 14 * math.cos(angle), y1 - 14 * math.sin(angle)
    canvas.line((x0, y0, bx, by), fill=OUTLINE, width=width + 6)
    _head(canvas, x1 + 4 * math.cos(angle), y1 + 4 * math.sin(angle), angle, OUTLINE, 28)
    canvas.line((x0, y0, bx, by), fill=colour, width=width)
    _head(canvas, x1, y1, angle, colour, 22)


def _ghost_path(canvas: Canvas, view: GhostoneView) -> None:
    """The ghost's last roll as it went: one plate at a time in the rolled direction, over
    flipped plates, wrapping round the edges (a dashed line, cut where it wraps)."""
    roll = view.last_roll
    assert roll is not None and view.ghost is not None
    origin = roll.ghost_from
    if origin is None or not isinstance(roll.move, Roll):
        return
    direction = roll.move.direction
    steps, here = 0, origin
    while True:
        here = wrap_step(here, direction)
        steps += 1
        if here == view.ghost or steps >= SIZE:
            break
    df, dr = DIRECTIONS[direction]
    u0, v0 = origin % SIZE + 0.5, origin // SIZE + 0.5
    length = steps * math.hypot(df, dr)
    total = length - 0.3  # stop short of the landing plate's centre

    def screen(u: float, v: float) -> tuple[float, float]:
        return GRID_LEFT + (u % SIZE) * CELL, GRID_TOP + (SIZE - v % SIZE) * CELL

    dash, gap = 0.13, 0.09
    t = 0.12
    norm = math.hypot(df, dr)
    while t < total - 0.02:
        t1 = min(t + dash, total)
        ua, va = u0 + df * t / norm, v0 + dr * t / norm
        ub, vb = u0 + df * t1 / norm, v0 + dr * t1 / norm
        if math.floor(ua / SIZE) == math.floor(ub / SIZE) and \
                math.floor(va / SIZE) == math.floor(vb / SIZE):
            canvas.line((*screen(ua, va), *screen(ub, vb)), fill=OUTLINE, width=9)
            canvas.line((*screen(ua, va), *screen(ub, vb)), fill=GHOST, width=4)
        t = t1 + gap
    ue, ve = u0 + df * total / norm, v0 + dr * total / norm
    angle = math.atan2(-dr, df)
    x1, y1 = screen(ue, ve)
    _head(canvas, x1 + 3 * math.cos(angle), y1 + 3 * math.sin(angle), angle, OUTLINE, 26)
    _head(canvas, x1, y1, angle, GHOST, 20)


def _last(canvas: Canvas, view: GhostoneView) -> None:
    last = view.last
    assert last is not None
    move = last.move
    if not isinstance(move, PawnMove) or last.seat is None:
        return
    colour = SEAT_COLOURS[last.seat]
    (x0, y0), (x1, y1) = _centre(move.origin), _centre(move.target)
    _arrow(canvas, (x0 + CELL * 0.2, y0 + CELL * 0.2),
           (x0 + CELL * 0.2 + (x1 - x0) * 0.8, y0 + CELL * 0.2 + (y1 - y0) * 0.8), colour,
           width=7)
    if move.rock is not None:
        df, dr = DIRECTIONS[move.rock]
        target = step(move.origin, move.rock)
        reach = 0.55 if target is None else 0.85
        _arrow(canvas, (x0 - CELL * 0.05 + df * CELL * 0.12, y0 - dr * CELL * 0.12),
               (x0 - CELL * 0.05 + df * CELL * reach, y0 - dr * CELL * reach), ARROW_ROCK,
               width=4)


@lru_cache(maxsize=8)
def _compass(compass: tuple[str, ...]) -> tuple[float, float]:
    """The compass's centre and radius: in the middle of the room between the cave and the
    picture's right edge, counting its west and east letters (東 and 西 are twice as wide as
    E and W, and 東 was cut by the edge when the compass stood where E left room for); the
    circle gives up a few pixels when the letters need them."""
    ruler = Canvas((1, 1), BACKGROUND)
    west = ruler.measure(compass[3], SMALL_BOLD, True)[0]
    east = ruler.measure(compass[1], SMALL_BOLD, True)[0]
    room = WIDTH - 4 - (CAVE_RIGHT + 4)
    radius = max(16.0, min(COMPASS_R, (room - west - east - 2 * LETTER_GAP) / 2))
    span = west + LETTER_GAP + 2 * radius + LETTER_GAP + east
    left = CAVE_RIGHT + 4 + max(0.0, (room - span) / 2)
    return left + west + LETTER_GAP + radius, radius


def _die(canvas: Canvas, view: GhostoneView, labels: GhostoneLabels, compass_x: float,
         compass_r: float) -> None:
    """The last roll: an arrow on the compass, and its letters beneath."""
    roll = view.last_roll
    if roll is None or not isinstance(roll.move, Roll):
        return
    df, dr = DIRECTIONS[roll.move.direction]
    norm = math.hypot(df, dr)
    tip = (compass_x + df / norm * (compass_r - 2), COMPASS_Y - dr / norm * (compass_r - 2))
    _arrow(canvas, (compass_x - df / norm * 16, COMPASS_Y + dr / norm * 16), tip, GHOST, width=5)
    y = COMPASS_Y + COMPASS_R + 72
    canvas.text((compass_x, y), labels.die, size=SMALL, fg=MUTED, bg=BACKGROUND, align="centre")
    rolled = labels.rolled[ROLL_FACES.index(roll.move.direction)]
    canvas.text((compass_x, y + 40), rolled, size=SMALL_BOLD + 8, fg=GHOST, bg=BACKGROUND,
                bold=True, align="centre")


def _header(canvas: Canvas, view: GhostoneView, who, labels: GhostoneLabels,
            result: str | None, mover: int | None, you: int | None = None) -> None:
    if result is not None:
        text, colour = result, TEXT
    elif view.outcome is not None:
        names = " & ".join(who[w] for w in view.outcome.winners)
        template = labels.wins_many if len(view.outcome.winners) > 1 else labels.wins
        if list(view.outcome.winners) == [you]:
            template = labels.wins_you
        text = template.format(names=names)
        colour = TEXT
    elif view.phase == "roll":
        text, colour = labels.roll_due, GHOST
    else:
        assert mover is not None
        template = {"setup": labels.setup, "ghost": labels.ghost_place}.get(view.phase,
                                                                             labels.to_move)
        if mover == you:
            template = {"setup": labels.setup_you, "ghost": labels.ghost_place_you}.get(
                view.phase, labels.to_move_you)
        text, colour = template.format(name=who[mover]), SEAT_COLOURS[mover]
    big = SMALL_BOLD + 4
    # a long result ("A escaped last: A, B share the lead with 9 points") takes two lines
    lines, size = status_lines(canvas, text, (big, SMALL_BOLD), who, WIDTH - 48)
    top = 40 if len(lines) == 1 else 24
    for row, line in enumerate(lines):
        canvas.text((24, top + 34 * row), line, size=size, fg=readable(colour, BACKGROUND),
                    bg=BACKGROUND, bold=True)
    canvas.text((24, 86 + 8 * (len(lines) - 1)), labels.removed.format(n=view.removed),
                size=SMALL, fg=MUTED, bg=BACKGROUND)


def _table(canvas: Canvas, view: GhostoneView, who, labels: GhostoneLabels,
           mover: int | None) -> None:
    winners = set(view.outcome.winners) if view.outcome and not view.outcome.draw else set()
    column = 270
    score_w = canvas.measure(labels.score, SMALL, False)[0]
    heading = wrap_width(canvas, labels.escapes, SMALL, False, WIDTH - 24 - score_w - 16 - column,
                         2)
    for row, line in enumerate(heading):
        canvas.text((column, TABLE_TOP - 16 * (len(heading) - 1) + 32 * row), line.strip(),
                    size=SMALL, fg=MUTED, bg=BACKGROUND)
    canvas.text((WIDTH - 24, TABLE_TOP), labels.score, size=SMALL, fg=MUTED, bg=BACKGROUND,
                align="right")
    for seat in range(view.seats):
        y = TABLE_TOP + 50 + seat * ROW
        colour = SEAT_COLOURS[seat]
        back = BACKGROUND
        if mover == seat or seat in winners:
            back = mix(BACKGROUND, colour, 0.2)
            canvas.rounded_rectangle((12, y - ROW / 2 + 2, WIDTH - 12, y + ROW / 2 - 2),
                                     radius=12, fill=back)
        seat_mark(canvas, seat, 44, y, 22, colour)  # (its number fits whole in every shape)
        canvas.text(seat_text_centre(seat, 44, y, 22), str(seat + 1), size=SMALL_BOLD,
                    fg=DARK_INK, bg=colour, bold=True, align="centre")
        name = fit_width(canvas, who[seat], SMALL_BOLD, True, column - 94)
        canvas.text((78, y), name, size=SMALL_BOLD, fg=TEXT, bg=back, bold=True)
        escapes = ", ".join(f"{p}+{b}" if b else str(p) for p, b in view.escaped[seat]) or "–"
        escapes = fit_width(canvas, escapes, SMALL, False, WIDTH - 24 - 80 - column)
        canvas.text((column, y), escapes, size=SMALL, fg=TEXT, bg=back)
        canvas.text((WIDTH - 24, y), str(view.scores[seat]), size=SMALL_BOLD + 4, fg=TEXT,
                    bg=back, bold=True, align="right")


# the ghostone kit names this module as its picture (games/ghostone/__init__.py)
PICTURE = Picture(render_ghostone, GhostoneLabels)
