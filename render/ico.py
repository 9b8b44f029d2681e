"""The ICO map: an azimuthal equidistant projection of the icosahedron centred on vertex 0, the
outer circle being vertex 11, as in the original. Edges are projected great-circle arcs; the
active face is black; markers sit along each rod in the seat colours (a number when a colour is
redoubled); antipodal faces share a number, in dark ink on every face. The edges the player to
move may use are drawn in their colour and labelled just across them, in the face the active
triangle would roll onto, each label placed clear of every marker and number. The last move is
marked: the face the triangle rolled from is tinted in the mover's colour, the marker just
placed ringed in white (a roll without placing: the edge dashed), and the move written beneath.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.ico.game import EDGES, FACES, VERTICES, IcoView

from .common import (
    BACKGROUND,
    MUTED,
    TEXT,
    Canvas,
    Picture,
    Rgb,
    TextBox,
    fit_size,
    fit_width,
    ink_on,
    min_size,
    mix,
    overlaps,
    readable,
)

WIDTH = 800
SMALL = min_size(WIDTH)
SMALL_BOLD = min_size(WIDTH, True)
RADIUS = 382
CX, CY = WIDTH / 2, 190 + RADIUS
HEIGHT = int(CY + RADIUS + 80)
# red, blue, yellow, green
ICO_COLOURS = ((208, 48, 42), (44, 104, 220), (240, 202, 40), (56, 172, 92))
FACE_FILL = (214, 206, 190)
FACE_INK = (52, 46, 40)
EDGE_INK = (90, 80, 70)
ACTIVE = (18, 18, 20)
LABEL_BACK = (250, 250, 250)
SAMPLES = 16
MARKER_R = 13  # a marker; one with a number (a redoubled colour) is larger
NUMBERED_R = 20


@dataclass(frozen=True)
class IcoLabels:
    seat_names: tuple[str, ...] = ("Red", "Blue", "Yellow", "Green")
    to_move: str = "{name} to move"
    wins: str = "{name} wins"
    draw: str = "Draw"
    left: str = "{n} left"
    level: str = "Level {level}"
    last: str = "Last: {name} {move}"
    # the same sentences when the seat is the reader's (`you`: a lesson's learner)
    to_move_you: str = "Your turn"
    wins_you: str = "You win"


def _project(point, azimuth_hint: float = 0.0) -> tuple[float, float]:
    x, y, z = point
    theta = math.acos(max(-1.0, min(1.0, z)))
    azimuth = math.atan2(y, x) if math.hypot(x, y) > 1e-9 else azimuth_hint
    r = RADIUS * theta / math.pi
    return CX + r * math.cos(azimuth), CY - r * math.sin(azimuth)


def _azimuth(vertex: int) -> float:
    x, y, _ = VERTICES[vertex]
    return math.atan2(y, x)


def _arc(a: int, b: int) -> list[tuple[float, float]]:
    """The projected great-circle arc from vertex a to vertex b."""
    pa, pb = VERTICES[a], VERTICES[b]
    omega = math.acos(max(-1.0, min(1.0, sum(p * q for p, q in zip(pa, pb, strict=True)))))
    hint = _azimuth(b if a in (0, 11) else a)
    points = []
    for i in range(SAMPLES + 1):
        t = i / SAMPLES
        wa, wb = math.sin((1 - t) * omega) / math.sin(omega), math.sin(t * omega) / math.sin(omega)
        points.append(_project(tuple(wa * p + wb * q for p, q in zip(pa, pb, strict=True)), hint))
    return points


EDGE_PATHS = tuple(_arc(a, b) for a, b in EDGES)


def _face_polygon(face: int) -> list[tuple[float, float]]:
    a, b, c = FACES[face][0]
    if c != 11:
        return _arc(a, b) + _arc(b, c) + _arc(c, a)
    # around the south pole: the outer circle between the two lower-ring vertices
    start, end = _azimuth(b), _azimuth(a)
    if end < start:
        end += 2 * math.pi
    circle = [(CX + RADIUS * math.cos(start + (end - start) * i / SAMPLES),
               CY - RADIUS * math.sin(start + (end - start) * i / SAMPLES))
              for i in range(SAMPLES + 1)]
    return _arc(a, b) + circle


FACE_POLYGONS = tuple(_face_polygon(f) for f in range(len(FACES)))


@lru_cache(maxsize=32)
def _face_centre(face: int) -> tuple[float, float]:
    verts = FACES[face][0]
    centre = [sum(VERTICES[v][k] for v in verts) / 3 for k in range(3)]
    return _project(centre)


def _pair_numbers() -> tuple[int, ...]:
    """Antipodal faces share a number 1-10."""
    numbers, next_number = [0] * len(FACES), 1
    for face in range(len(FACES)):
        if not numbers[face]:
            numbers[face] = numbers[FACES[face][2]] = next_number
            next_number += 1
    return tuple(numbers)


PAIR_NUMBERS = _pair_numbers()


def _point_on(path, t: float) -> tuple[float, float]:
    position = t * (len(path) - 1)
    i = min(int(position), len(path) - 2)
    frac = position - i
    (x0, y0), (x1, y1) = path[i], path[i + 1]
    return x0 + (x1 - x0) * frac, y0 + (y1 - y0) * frac


def _face_edges(face: int) -> tuple[int, ...]:
    return tuple(e for e, _ in FACES[face][1])


@lru_cache(maxsize=1)
def _static_layer() -> Canvas:
    canvas = Canvas((WIDTH, HEIGHT), BACKGROUND)
    canvas.circle(CX, CY, RADIUS + 6, fill=(58, 54, 50))
    for polygon in FACE_POLYGONS:
        canvas.polygon(polygon, fill=FACE_FILL)
    for path in EDGE_PATHS:
        canvas.line(path, fill=EDGE_INK, width=3)
    canvas.circle(CX, CY, RADIUS, outline=EDGE_INK, width=4)
    return canvas


def render_ico(view: IcoView, *, names: Sequence[str] | None = None,
               labels: IcoLabels = IcoLabels(), result: str | None = None,
               layout: list[TextBox] | None = None, last_move: bool = True,
               you: int | None = None) -> bytes:
    """The map as PNG bytes; `last_move` False: the last move is not written under the map
    (still marked on it). `you`: the reader's seat, whose sentences are in the second
    person."""
    canvas = _static_layer().clone()
    who = [names[i] if names and i < len(names) else labels.seat_names[i]
           for i in range(view.seats)]
    over = result is not None or view.outcome is not None
    mover = None if over else view.to_move
    winner = view.outcome.winners[0] if view.outcome and not view.outcome.draw else 0

    fills: dict[int, Rgb] = {}
    if view.last is not None and view.previous_active is not None:
        fills[view.previous_active] = mix(FACE_FILL, ICO_COLOURS[view.last[0]], 0.4)
    for face in view.winning_faces:
        fills[face] = mix(FACE_FILL, ICO_COLOURS[winner], 0.45)
    if view.outcome is None:  # once the game is over the black tile no longer matters
        fills[view.active] = ACTIVE
    for face, colour in sorted(fills.items()):
        canvas.polygon(FACE_POLYGONS[face], fill=colour)
    for face in sorted(fills):
        for edge in _face_edges(face):
            canvas.line(EDGE_PATHS[edge], fill=EDGE_INK, width=3)
    canvas.circle(CX, CY, RADIUS, outline=EDGE_INK, width=4)
    for edge in view.winning_edges:
        canvas.line(EDGE_PATHS[edge], fill=ICO_COLOURS[winner], width=9)
    legal = view.legal_edges if mover is not None else ()
    for edge in legal:
        canvas.line(EDGE_PATHS[edge], fill=ICO_COLOURS[mover or 0], width=8)
    if view.last is not None and not view.last[2]:  # rolled over without placing: dashed
        path = EDGE_PATHS[view.last[1]]
        for i in range(0, SAMPLES, 2):
            canvas.line((*path[i], *path[i + 1]), fill=ICO_COLOURS[view.last[0]], width=9)
    ringed = view.last[:2] if view.last is not None and view.last[2] else None
    numbered = []
    for edge, counts in enumerate(view.markers):
        numbered += _markers(canvas, edge, counts, ringed)
    for x, y, text, colour in numbered:  # numbers after every marker, so none is covered
        canvas.text((x, y), text, size=SMALL_BOLD, fg=ink_on(colour), bg=colour, bold=True,
                    align="centre")
    if mover is not None:
        reserved = [canvas.text_box(_face_centre(face), str(PAIR_NUMBERS[face]),
                                    size=SMALL_BOLD, bold=True, align="centre")
                    for face in range(len(FACES))]
        _edge_labels(canvas, view, legal, mover, reserved)
    for face in range(len(FACES)):
        _face_number(canvas, face, fills.get(face, FACE_FILL))
    _header(canvas, view, who, labels, result, mover, you)
    if view.last is not None and last_move:
        seat, edge, placed = view.last
        move = f"e{edge}" if placed else f"-e{edge}"
        text = fit_width(canvas, labels.last.format(name=who[seat], move=move), SMALL, False,
                         WIDTH - 48, who)
        canvas.text((24, HEIGHT - 36), text, size=SMALL, fg=MUTED, bg=BACKGROUND)
    return canvas.png(layout)


def _path_length(path) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False))


EDGE_LENGTHS = tuple(_path_length(path) for path in EDGE_PATHS)


def _markers(canvas: Canvas, edge: int, counts, ringed) -> list[tuple[float, float, str, Rgb]]:
    seats = [s for s, n in enumerate(counts) if n]
    if not seats:
        return []
    path = EDGE_PATHS[edge]
    length = EDGE_LENGTHS[edge]
    r = NUMBERED_R if max(counts) > 1 else MARKER_R
    spacing = min(2 * r + 3, (length - 2 * r - 8) / max(1, len(seats) - 1))
    numbers = []
    for i, seat in enumerate(seats):
        t = 0.5 + (i - (len(seats) - 1) / 2) * spacing / length
        x, y = _point_on(path, t)
        r = NUMBERED_R if counts[seat] > 1 else MARKER_R
        if ringed == (seat, edge):
            canvas.circle(x, y, r + 7, fill=(255, 255, 255), outline=(20, 20, 20), width=2)
        canvas.circle(x, y, r, fill=ICO_COLOURS[seat], outline=(20, 20, 20), width=2)
        canvas.marker((x - r, y - r, x + r, y + r))
        if counts[seat] > 1:
            numbers.append((x, y, str(counts[seat]), ICO_COLOURS[seat]))
    return numbers


@lru_cache(maxsize=20)
def _number_spots(face: int) -> tuple[tuple[float, float], ...]:
    """Where a face's number may go, best first: its centre, then ever further towards its
    corners and edges' middles (fixed geometry, worked out once)."""
    x, y = _face_centre(face)
    corners = [_project(VERTICES[v]) for v in FACES[face][0][:3]]
    corners = [(vx, vy) for vx, vy in corners if math.hypot(vx - x, vy - y) < RADIUS * 0.6]
    middles = [_point_on(EDGE_PATHS[e], 0.5) for e in _face_edges(face)]
    return ((x, y), *((x + (vx - x) * k, y + (vy - y) * k) for k in (0.2, 0.35, 0.5)
                      for vx, vy in corners + middles))


def _face_number(canvas: Canvas, face: int, fill: Rgb) -> None:
    """The face's pair number at its centre, or nudged towards a corner if a marker is there."""
    candidates = _number_spots(face)
    x, y = candidates[0]
    text = str(PAIR_NUMBERS[face])
    ink = ink_on(fill, dark=FACE_INK)
    near: list[tuple[float, float, float, float]] = [
        box for box in [b.box for b in canvas.boxes] + canvas.markers
        if abs(box[0] - x) < 160 and abs(box[1] - y) < 160]
    for cx, cy in candidates:
        box = canvas.text_box((cx, cy), text, size=SMALL_BOLD, bold=True, align="centre")
        if not any(overlaps(box, other, 3) for other in near):
            break
    else:
        cx, cy = x, y
    canvas.text((cx, cy), text, size=SMALL_BOLD, fg=ink, bg=fill, bold=True, align="centre",
                halo=True)


def _edge_labels(canvas: Canvas, view: IcoView, legal, mover: int, reserved) -> None:
    """Each usable edge's name on a white pill just across the edge (in the face the triangle
    would roll onto), at the first spot clear of every marker, number and other label."""
    fx, fy = _face_centre(view.active)
    for edge in legal:
        path = EDGE_PATHS[edge]
        text = f"e{edge}"
        w, h = canvas.measure(text, SMALL_BOLD, True)
        placed = None
        for t in (0.5, 0.38, 0.62, 0.26, 0.74, 0.15, 0.85):
            mx, my = _point_on(path, t)
            dx, dy = mx - fx, my - fy
            norm = math.hypot(dx, dy) or 1.0
            for dist in (h / 2 + 16, h / 2 + 28, h / 2 + 42, h / 2 + 58, h / 2 + 76,
                         -h / 2 - 14, -h / 2 - 26, -h / 2 - 40, -h / 2 - 56):
                x, y = mx + dx / norm * (dist + w / 2 * abs(dx / norm)), my + dy / norm * dist
                pill = (x - w / 2 - 8, y - h / 2 - 7, x + w / 2 + 8, y + h / 2 + 7)
                if canvas.free(pill, gap=2) and _inside(pill) and \
                        not any(overlaps(pill, box, 3) for box in reserved):
                    placed = (x, y, pill)
                    break
            if placed:
                break
        if placed is None:  # a crowded map: the nearest free spot around the edge's middle
            mx, my = _point_on(path, 0.5)
            for radius in range(20, 220, 10):
                for step in range(24):
                    angle = step * math.pi / 12
                    x, y = mx + radius * math.cos(angle), my + radius * math.sin(angle)
                    pill = (x - w / 2 - 8, y - h / 2 - 7, x + w / 2 + 8, y + h / 2 + 7)
                    if canvas.free(pill, gap=2) and _inside(pill) and \
                            not any(overlaps(pill, box, 3) for box in reserved):
                        placed = (x, y, pill)
                        break
                if placed:
                    break
        if placed is None:
            mx, my = _point_on(path, 0.5)
            x, y = mx + (mx - fx) * 0.4, my + (my - fy) * 0.4
            placed = (x, y, (x - w / 2 - 8, y - h / 2 - 7, x + w / 2 + 8, y + h / 2 + 7))
        x, y, pill = placed
        canvas.rounded_rectangle(pill, radius=9, fill=LABEL_BACK, outline=ICO_COLOURS[mover],
                                 width=3)
        canvas.marker(pill)
        canvas.text((x, y), text, size=SMALL_BOLD, fg=(20, 20, 20), bg=LABEL_BACK, bold=True,
                    align="centre")


def _inside(box) -> bool:
    x0, y0, x1, y1 = box
    return all(math.hypot(x - CX, y - CY) < RADIUS - 4 for x, y in
               ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def _header(canvas: Canvas, view: IcoView, who, labels: IcoLabels, result: str | None,
            mover: int | None, you: int | None = None) -> None:
    if result is not None:
        status, colour = result, TEXT
    elif view.outcome is not None:
        winner = view.outcome.winners[0] if view.outcome.winners else -1
        wins = labels.wins_you if winner == you else labels.wins
        status = labels.draw if view.outcome.draw else wins.format(name=who[winner])
        colour = TEXT if view.outcome.draw else ICO_COLOURS[view.outcome.winners[0]]
    else:
        assert mover is not None
        to_move = labels.to_move_you if mover == you else labels.to_move
        status, colour = to_move.format(name=who[mover]), ICO_COLOURS[mover]
    level = labels.level.format(level=view.level)
    level_w = canvas.measure(level, SMALL, False)[0]
    big = SMALL_BOLD + 4
    status, size = fit_size(canvas, status, (big, SMALL_BOLD), True, WIDTH - 72 - level_w,
                            who)
    canvas.text((24, 36), status, size=size,
                fg=readable(colour, BACKGROUND), bg=BACKGROUND, bold=True)
    canvas.text((WIDTH - 24, 36), level, size=SMALL, fg=MUTED, bg=BACKGROUND, align="right")
    width = (WIDTH - 48) / view.seats
    for seat in range(view.seats):
        x = 24 + seat * width
        canvas.circle(x + 13, 89, 13, fill=ICO_COLOURS[seat], outline=(20, 20, 20), width=2)
        name = fit_width(canvas, who[seat], SMALL_BOLD, True, width - 44)
        canvas.text((x + 34, 89), name, size=SMALL_BOLD, fg=TEXT, bg=BACKGROUND, bold=True)
        canvas.text((x + 34, 132), labels.left.format(n=view.left[seat]), size=SMALL,
                    fg=MUTED, bg=BACKGROUND)


# the ico kit names this module as its picture (games/ico/__init__.py)
PICTURE = Picture(render_ico, IcoLabels)
