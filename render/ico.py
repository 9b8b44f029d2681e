"""The ICO map: an azimuthal equidistant projection of the icosahedron centred on vertex 0, the
outer circle being vertex 11, as in the original. Edges are projected great-circle arcs; the
active face is black; markers sit along each rod in the seat colours (a number when a colour is
redoubled); the edges the player to move may use are labelled; antipodal faces share a number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.ico import EDGES, FACES, VERTICES, IcoView

from .common import BACKGROUND, MUTED, TEXT, font, mix, paste_centred, paste_text, text_stamp, to_png

WIDTH = 800
RADIUS = 350
CX, CY = WIDTH / 2, 150 + RADIUS
HEIGHT = CY + RADIUS + 110
ICO_COLOURS = ((226, 64, 58), (64, 124, 232), (240, 202, 40), (56, 172, 92))  # red blue yellow green
FACE_FILL = (214, 206, 190)
EDGE_INK = (90, 80, 70)
ACTIVE = (18, 18, 20)
SAMPLES = 16


@dataclass(frozen=True)
class IcoLabels:
    seat_names: tuple[str, ...] = ("Red", "Blue", "Yellow", "Green")
    to_move: str = "{name} to move"
    wins: str = "{name} wins"
    draw: str = "Draw"
    left: str = "{n} left"
    level: str = "Level {level}"




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
    omega = math.acos(max(-1.0, min(1.0, sum(p * q for p, q in zip(pa, pb)))))
    hint = _azimuth(b if a in (0, 11) else a)
    points = []
    for i in range(SAMPLES + 1):
        t = i / SAMPLES
        wa, wb = math.sin((1 - t) * omega) / math.sin(omega), math.sin(t * omega) / math.sin(omega)
        points.append(_project(tuple(wa * p + wb * q for p, q in zip(pa, pb)), hint))
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


@lru_cache(maxsize=1)
def _static_layer() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.ellipse((CX - RADIUS - 6, CY - RADIUS - 6, CX + RADIUS + 6, CY + RADIUS + 6),
                 fill=(58, 54, 50))
    for polygon in FACE_POLYGONS:
        draw.polygon(polygon, fill=FACE_FILL)
    for face in range(len(FACES)):
        x, y = _face_centre(face)
        paste_centred(image, text_stamp(str(PAIR_NUMBERS[face]), 20, True, (120, 110, 96)), x, y)
    for path in EDGE_PATHS:
        draw.line(path, fill=EDGE_INK, width=3)
    draw.ellipse((CX - RADIUS, CY - RADIUS, CX + RADIUS, CY + RADIUS), outline=EDGE_INK, width=4)
    return image


def render_ico(view: IcoView, *, names: Sequence[str] | None = None,
               labels: IcoLabels = IcoLabels()) -> bytes:
    image = _static_layer().copy()
    draw = ImageDraw.Draw(image)
    who = [names[i] if names and i < len(names) else labels.seat_names[i]
           for i in range(view.seats)]
    winner = view.outcome.winners[0] if view.outcome and not view.outcome.draw else None
    for face in view.winning_faces:
        draw.polygon(FACE_POLYGONS[face], fill=mix(FACE_FILL, ICO_COLOURS[winner], 0.45))
    if view.outcome is None:  # once the game is over the black tile no longer matters
        draw.polygon(FACE_POLYGONS[view.active], fill=ACTIVE)
    for edge in view.winning_edges:
        draw.line(EDGE_PATHS[edge], fill=ICO_COLOURS[winner], width=9)
    if view.to_move is not None:
        for edge in view.legal_edges:
            draw.line(EDGE_PATHS[edge], fill=ICO_COLOURS[view.to_move], width=7)
    for edge, counts in enumerate(view.markers):
        _markers(image, draw, edge, counts)
    if view.to_move is not None:
        fx, fy = _face_centre(view.active)
        for edge in view.legal_edges:  # the label sits just inside the black face
            x, y = _point_on(EDGE_PATHS[edge], 0.5)
            length = math.hypot(fx - x, fy - y) or 1.0
            shift = min(28.0, length * 0.5)
            x, y = x + (fx - x) / length * shift, y + (fy - y) / length * shift
            stamp = text_stamp(f"e{edge}", 22, True, (20, 20, 20))
            draw.rounded_rectangle((x - stamp.width / 2 - 6, y - stamp.height / 2 - 4,
                                    x + stamp.width / 2 + 6, y + stamp.height / 2 + 4),
                                   radius=8, fill=(250, 250, 250),
                                   outline=ICO_COLOURS[view.to_move], width=3)
            paste_centred(image, stamp, x, y)
    _header(image, draw, view, who, labels)
    return to_png(image)


def _markers(image: Image.Image, draw: ImageDraw.ImageDraw, edge: int, counts) -> None:
    seats = [s for s, n in enumerate(counts) if n]
    if not seats:
        return
    path = EDGE_PATHS[edge]
    spread = 0.16
    for i, seat in enumerate(seats):
        t = 0.5 + (i - (len(seats) - 1) / 2) * spread
        x, y = _point_on(path, min(0.85, max(0.15, t)))
        r = 11
        draw.ellipse((x - r, y - r, x + r, y + r), fill=ICO_COLOURS[seat], outline=(20, 20, 20),
                     width=2)
        if counts[seat] > 1:
            paste_centred(image, text_stamp(str(counts[seat]), 16, True, (20, 20, 20)), x, y)


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: IcoView, who,
            labels: IcoLabels) -> None:
    if view.outcome is not None:
        status = (labels.draw if view.outcome.draw
                  else labels.wins.format(name=who[view.outcome.winners[0]]))
        colour = TEXT if view.outcome.draw else ICO_COLOURS[view.outcome.winners[0]]
    else:
        assert view.to_move is not None
        status, colour = labels.to_move.format(name=who[view.to_move]), ICO_COLOURS[view.to_move]
    paste_text(image, (24, 36), status, size=30, fill=colour, bold=True)
    paste_text(image, (WIDTH - 24, 36), labels.level.format(level=view.level), size=24,
               fill=MUTED, align="right")
    width = (WIDTH - 48) / view.seats
    for seat in range(view.seats):
        x = 24 + seat * width
        draw.ellipse((x, 76, x + 26, 102), fill=ICO_COLOURS[seat], outline=(20, 20, 20), width=2)
        paste_text(image, (x + 34, 89), _fit(who[seat], 10), size=22, fill=TEXT, bold=True)
        paste_text(image, (x + 34, 118), labels.left.format(n=view.left[seat]), size=18,
                   fill=MUTED)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
