"""The ICO map: an azimuthal equidistant projection of the icosahedron centred on vertex 0, the
outer circle being vertex 11, as in the original. Edges are projected great-circle arcs; the
active face is black; markers sit along each rod in the seat colours (a number when a colour is
redoubled); antipodal faces share a number, in dark ink on every face. The black face's three
edges are labelled just beside their lines (in the face the triangle would roll onto where
there is room): those the player to move may use drawn and ringed in their colour, the others
on a grey pill; once the game is over, the last move's edge. The last move is marked: the face
the triangle rolled from is tinted in the mover's colour, the marker just placed ringed in
white (a roll without placing: the edge dashed), and the move written beneath.

What a text names, the map shows. At 360 px wide the map has room for one label a face and a
few edge labels, so it keeps the original's vocabulary, the faces' pair numbers (which level 1+
is played by), and the texts follow it: they name a face by its number ("rolls onto face 6",
`games.ico.game.FACE_NUMBERS`), never by its table index f0-f19, and name only edges the map
labels (the black face's, the last move's). Labelling all 30 edges, or f-indexes beside the
numbers, would crowd the inner faces past legibility.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from games.ico.game import EDGES, FACE_NUMBERS, FACES, VERTICES, IcoView

from .common import (
    BACKGROUND,
    MUTED,
    TEXT,
    Box,
    Canvas,
    Picture,
    Rgb,
    TextBox,
    fit_width,
    ink_on,
    min_size,
    mix,
    overlaps,
    readable,
    seat_boxes,
    seat_mark,
    seat_text_centre,
    status_lines,
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
    # around the south pole: the arc of the outer circle (the pole itself) between the two
    # lower-ring vertices, the short way round (their azimuths are 72 degrees apart, and
    # atan2 may put them on either side of the +-180 degree cut)
    start = _azimuth(b)
    turn = (_azimuth(a) - start + math.pi) % (2 * math.pi) - math.pi
    circle = [(CX + RADIUS * math.cos(start + turn * i / SAMPLES),
               CY - RADIUS * math.sin(start + turn * i / SAMPLES))
              for i in range(SAMPLES + 1)]
    return _arc(a, b) + circle


FACE_POLYGONS = tuple(_face_polygon(f) for f in range(len(FACES)))


@lru_cache(maxsize=32)
def _face_centre(face: int) -> tuple[float, float]:
    """Where the face's centre is drawn: its vertices' mean, put back on the sphere before it
    is projected (unscaled, an outer face's centre came out on its inner side)."""
    verts = FACES[face][0]
    centre = [sum(VERTICES[v][k] for v in verts) / 3 for k in range(3)]
    norm = math.sqrt(sum(c * c for c in centre))
    return _project(tuple(c / norm for c in centre))


PAIR_NUMBERS = FACE_NUMBERS  # drawn on each face; texts name faces by them


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
               you: int | None = None, hints: bool = True) -> bytes:
    """The map as PNG bytes; `last_move` False: the last move is not written under the map
    (still marked on it). `you`: the reader's seat, whose sentences are in the second
    person. `hints` False (a quiz: "Where may you place?"): the black face's edges all named
    alike, none ringed as one the mover may use."""
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
    legal = view.legal_edges if mover is not None and hints else ()
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
    for x, y, seat, _, colour in numbered:  # after every marker: no neighbour's rim crosses it
        seat_mark(canvas, seat, x, y, NUMBERED_R, colour, outline=(20, 20, 20), width=2)
    for x, y, seat, text, colour in numbered:  # a count on top of everything (two redoubled
        # markers near one corner of a small face may overlap: each count stays whole)
        x, y = seat_text_centre(seat, x, y, NUMBERED_R)
        box = canvas.text_box((x, y), text, size=SMALL_BOLD, bold=True, align="centre")
        canvas.rectangle((box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), fill=colour)
        canvas.text((x, y), text, size=SMALL_BOLD, fg=ink_on(colour), bg=colour, bold=True,
                    align="centre")
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


def _markers(canvas: Canvas, edge: int, counts,
             ringed) -> list[tuple[float, float, int, str, Rgb]]:
    """An edge's markers side by side along it, each in its seat's colour and shape
    (render.common.SEAT_SHAPES); the redoubled ones, to be drawn larger with their count."""
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
        if ringed == (seat, edge):  # the marker just placed: on a white halo of its shape
            seat_mark(canvas, seat, x, y, r + 7, (255, 255, 255), outline=(20, 20, 20),
                      width=2, record=False)
        seat_mark(canvas, seat, x, y, r, ICO_COLOURS[seat], outline=(20, 20, 20), width=2)
        for box in seat_boxes(seat, x, y, r):
            canvas.marker(box)
        if counts[seat] > 1:
            numbers.append((x, y, seat, str(counts[seat]), ICO_COLOURS[seat]))
    return numbers


@lru_cache(maxsize=20)
def _number_spots(face: int) -> tuple[tuple[float, float], ...]:
    """Where a face's number may go, best first: its centre, then ever further towards its
    corners and edges' middles (fixed geometry, worked out once)."""
    x, y = _face_centre(face)
    corners = [_project(VERTICES[v]) for v in FACES[face][0][:3]]
    corners = [(vx, vy) for vx, vy in corners if math.hypot(vx - x, vy - y) < RADIUS * 0.6]
    middles = [_point_on(EDGE_PATHS[e], 0.5) for e in _face_edges(face)]
    between = [((cx + mx) / 2, (cy + my) / 2) for cx, cy in corners for mx, my in middles]
    spots = [(x, y), *((x + (vx - x) * k, y + (vy - y) * k) for k in (0.2, 0.35, 0.5)
                       for vx, vy in corners + middles + between),
             *((x + (vx - x) * 0.62, y + (vy - y) * 0.62) for vx, vy in corners)]
    measure = Canvas((1, 1), BACKGROUND)
    polygon = FACE_POLYGONS[face]

    def within(spot: tuple[float, float]) -> bool:  # the number and its halo, in the face
        x0, y0, x1, y1 = measure.text_box(spot, str(PAIR_NUMBERS[face]), size=SMALL_BOLD,
                                          bold=True, align="centre")
        return all(_in_polygon(px, py, polygon) for px in (x0 - 6, x1 + 6)
                   for py in (y0 - 6, y1 + 6))

    return (spots[0], *(spot for spot in spots[1:] if within(spot)))


def _in_polygon(x: float, y: float, polygon: Sequence[tuple[float, float]]) -> bool:
    inside = False
    for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _face_number(canvas: Canvas, face: int, fill: Rgb) -> None:
    """The face's pair number at its centre, or nudged towards a corner if a marker is there."""
    x, y = _number_spot(canvas, face) or _number_spots(face)[0]
    canvas.text((x, y), str(PAIR_NUMBERS[face]), size=SMALL_BOLD, fg=ink_on(fill, dark=FACE_INK),
                bg=fill, bold=True, align="centre", halo=True)


def _number_spot(canvas: Canvas, face: int,
                 also: Sequence[Box] = ()) -> tuple[float, float] | None:
    """The first of the face's number spots clear of every label and marker drawn (and of
    the boxes `also`), or None."""
    x, y = _number_spots(face)[0]
    text = str(PAIR_NUMBERS[face])
    near: list[Box] = [box for box in [b.box for b in canvas.boxes] + canvas.markers + list(also)
                       if abs(box[0] - x) < 160 and abs(box[1] - y) < 160]
    for cx, cy in _number_spots(face):
        box = canvas.text_box((cx, cy), text, size=SMALL_BOLD, bold=True, align="centre")
        if not any(overlaps(box, other, 3) for other in near):
            return cx, cy
    return None


def _named_edges(view: IcoView, legal: Sequence[int],
                 mover: int | None) -> list[tuple[int, Rgb, Rgb, int]]:
    """The edges named on the map, as (edge, pill fill, pill outline, outline width), most
    important first. In a running game: the black face's three edges, those the player to
    move may use ringed in their colour and the others on a grey pill (a text may name any
    of them: the balance rules, an error, a lesson, the last move, which is always one of
    them). Once the game is over (or a result is given): the last move's edge, ringed in its
    mover's colour, which the footer names."""
    named = [(edge, LABEL_BACK, ICO_COLOURS[mover], 3) for edge in legal] if mover is not None \
        else []
    if mover is not None:
        named += [(edge, OTHER_BACK, EDGE_INK, 2) for edge in _face_edges(view.active)
                  if edge not in legal]
    elif view.last is not None:
        named.append((view.last[1], LABEL_BACK, ICO_COLOURS[view.last[0]], 3))
    return named


OTHER_BACK = (232, 228, 220)  # the pill of an edge of the black face the mover may not use
NEAR = 22  # at most this far from its edge's line is a label's pill (10 px at phone width)


def _edge_labels(canvas: Canvas, view: IcoView, legal: Sequence[int], mover: int | None,
                 reserved: Sequence[tuple[int, int, int, int]]) -> None:
    """Each named edge's name on a pill beside its line, on the far side from the black face
    (in the face the triangle would roll onto, or in the face it came from), at the first spot
    along the edge clear of every marker, number and other label; failing that, on the near
    side, and at last on the line itself. Always within NEAR pixels of the line: a label
    further off was read as another edge's."""
    fx, fy = _face_centre(view.active)
    named = _named_edges(view, legal, mover)
    plan, crowded = _plan(canvas, named, reserved, fx, fy)
    for order in permutations(named) if crowded else ():  # another order may fit them all
        other, still = _plan(canvas, list(order), reserved, fx, fy)
        if not still:
            plan = other
            break
    for (edge, back, outline, width), (x, y, pill) in plan:
        canvas.rounded_rectangle(pill, radius=9, fill=back, outline=outline, width=width)
        canvas.marker(pill)
        canvas.text((x, y), f"e{edge}", size=SMALL_BOLD, fg=(20, 20, 20), bg=back, bold=True,
                    align="centre")


Named = tuple[int, Rgb, Rgb, int]
Spot = tuple[float, float, Box]


def _plan(canvas: Canvas, named: Sequence[Named], reserved: Sequence[Box], fx: float,
          fy: float) -> tuple[list[tuple[Named, Spot]], bool]:
    """Where each named edge's label goes, in this order, and whether one of them found no
    clear spot (then it goes on its own line, over what is least in the way)."""
    taken: list[Box] = []  # the pills placed, and where numbers they displaced will go
    plan = []
    crowded = False
    for item in named:
        edge = item[0]
        w, h = canvas.measure(f"e{edge}", SMALL_BOLD, True)
        spots = _spots(edge, fx, fy, w / 2 + 8, h / 2 + 7)
        beside, on_line = spots[:-len(ON_LINE)], spots[-len(ON_LINE):]
        placed = next((spot for numbers, lines in RULES for group in (beside, on_line)
                       for spot in group
                       if _clear(canvas, edge, spot, reserved, taken, numbers, lines)), None)
        if placed is None:
            crowded = True
            # on its line, or beside it where no other edge is nearer, over what least
            # hides what a player reads
            near = [spot for spot in beside if _nearest_edge(spot[0], spot[1]) == edge]
            placed = min([*on_line, *near], key=lambda spot: _crowding(canvas, spot[2]) + 10 * sum(
                overlaps(spot[2], box, 2) for box in (*taken, *reserved)))
        for face, box in enumerate(reserved):
            if overlaps(placed[2], box, 3):
                spot = _number_spot(canvas, face, (placed[2], *taken))
                if spot is not None:
                    taken.append(canvas.text_box(spot, str(PAIR_NUMBERS[face]),
                                                 size=SMALL_BOLD, bold=True, align="centre"))
        taken.append(placed[2])
        plan.append((item, placed))
    return plan, crowded


@lru_cache(maxsize=256)
def _spots(edge: int, fx: float, fy: float, half_w: float,
           half_h: float) -> tuple[tuple[float, float, Box], ...]:
    """Where a label of half-size (half_w, half_h) may go beside an edge, best first: its
    middle, then further towards its ends; a few pixels off the line on the far side from the
    point (fx, fy), then on the near side; the line's own middle last."""
    path = EDGE_PATHS[edge]
    found = []
    for side in (1, -1):
        for gap in (4, 10, 16, NEAR - 2):
            for t in (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82):
                (x0, y0), (x1, y1) = _point_on(path, t - 0.02), _point_on(path, t + 0.02)
                mx, my = _point_on(path, t)
                nx, ny = y0 - y1, x1 - x0
                norm = math.hypot(nx, ny) or 1.0
                nx, ny = nx / norm, ny / norm
                if (mx - fx) * nx + (my - fy) * ny < 0:
                    nx, ny = -nx, -ny
                reach = half_w * abs(nx) + half_h * abs(ny) + gap
                x, y = mx + side * nx * reach, my + side * ny * reach
                found.append((x, y, (x - half_w, y - half_h, x + half_w, y + half_h)))
    for t in ON_LINE:
        x, y = _point_on(path, t)
        found.append((x, y, (x - half_w, y - half_h, x + half_w, y + half_h)))
    return tuple(found)


ON_LINE = (0.5, 0.38, 0.62, 0.27, 0.73, 0.18, 0.82)


# what a label keeps clear of, relaxed in turn on a crowded map: (the faces' numbers, the
# other edges' lines); a label nearer another edge than its own is never drawn beside it
RULES = ((True, True), (False, True), (False, False))


def _clear(canvas: Canvas, edge: int, spot, reserved, moved, numbers: bool,
           lines: bool) -> bool:
    """Whether a label's pill keeps clear of every label and marker and of the map's rim,
    lies nearer its own edge's line than any other; with `lines`, keeps clear
    of every other edge's line (a pill over another edge was read as naming it); with
    `numbers`, of the faces' numbers (else of those that could not move aside)."""
    x, y, pill = spot
    if not (canvas.free(pill, gap=2) and _inside(pill) and _nearest_edge(x, y) == edge
            and not any(overlaps(pill, box, 3) for box in moved)
            and not (lines and _edges_under(pill) - {edge})):
        return False
    covered = [face for face, box in enumerate(reserved) if overlaps(pill, box, 3)]
    # a face's number may give way only if it has somewhere else to go
    return not covered or not numbers and all(
        _number_spot(canvas, face, (pill, *moved)) is not None for face in covered)


def _crowding(canvas: Canvas, pill: Box) -> int:
    """What a pill would cover: a label or a marker's count (a number) weighs ten markers, so
    a crowded map's label covers a disc rather than what a player reads."""
    return 10 * sum(overlaps(pill, box.box, 2) for box in canvas.boxes) + \
        sum(overlaps(pill, box, 2) for box in canvas.markers)


CELL = 40  # the grid the edges' points are filed in, to find those under a pill quickly


@lru_cache(maxsize=1)
def _edge_grid() -> dict[tuple[int, int], tuple[tuple[float, float, int], ...]]:
    """Points every 3 px along every edge's line, filed by grid cell."""
    cells: dict[tuple[int, int], list[tuple[float, float, int]]] = {}
    for edge, path in enumerate(EDGE_PATHS):
        steps = max(2, int(EDGE_LENGTHS[edge] / 3))
        for i in range(steps + 1):
            x, y = _point_on(path, i / steps)
            cells.setdefault((int(x // CELL), int(y // CELL)), []).append((x, y, edge))
    return {cell: tuple(points) for cell, points in cells.items()}


@lru_cache(maxsize=8192)  # asked of the same fixed spots picture after picture
def _nearest_edge(x: float, y: float) -> int | None:
    """The edge whose line passes nearest a point (within two grid cells)."""
    cx, cy = int(x // CELL), int(y // CELL)
    points = [p for i in range(cx - 2, cx + 3) for j in range(cy - 2, cy + 3)
              for p in _edge_grid().get((i, j), ())]
    if not points:
        return None
    return min(points, key=lambda p: (p[0] - x) ** 2 + (p[1] - y) ** 2)[2]


def _edges_under(pill: Box, gap: float = 3) -> set[int]:
    """The edges whose lines pass under a pill (or within `gap` pixels of it)."""
    x0, y0, x1, y1 = pill[0] - gap, pill[1] - gap, pill[2] + gap, pill[3] + gap
    grid = _edge_grid()
    found = {edge for cx in range(int(x0 // CELL), int(x1 // CELL) + 1)
             for cy in range(int(y0 // CELL), int(y1 // CELL) + 1)
             for x, y, edge in grid.get((cx, cy), ()) if x0 <= x <= x1 and y0 <= y <= y1}
    return found


def _inside(box) -> bool:
    x0, y0, x1, y1 = box
    return all(math.hypot(x - CX, y - CY) < RADIUS - 4 for x, y in
               ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


STATUS_LEADING = 37  # between the two lines of a long status (CJK and descenders)


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
    lines, size = status_lines(canvas, status, (SMALL_BOLD + 4, SMALL_BOLD), who,
                               WIDTH - 72 - level_w)
    top = 36 if len(lines) == 1 else 28
    for i, line in enumerate(lines):
        canvas.text((24, top + i * STATUS_LEADING), line, size=size,
                    fg=readable(colour, BACKGROUND), bg=BACKGROUND, bold=True)
    canvas.text((WIDTH - 24, top), level, size=SMALL, fg=MUTED, bg=BACKGROUND, align="right")
    below = 30 * (len(lines) - 1)  # the seats move down under two lines
    width = (WIDTH - 48) / view.seats
    for seat in range(view.seats):
        x = 24 + seat * width
        seat_mark(canvas, seat, x + 13, 89 + below, 13, ICO_COLOURS[seat],
                  outline=(20, 20, 20), width=2)
        name = fit_width(canvas, who[seat], SMALL_BOLD, True, width - 44)
        canvas.text((x + 34, 89 + below), name, size=SMALL_BOLD, fg=TEXT, bg=BACKGROUND,
                    bold=True)
        canvas.text((x + 34, 132 + below), labels.left.format(n=view.left[seat]), size=SMALL,
                    fg=MUTED, bg=BACKGROUND)




# the ico kit names this module as its picture (games/ico/__init__.py)
PICTURE = Picture(render_ico, IcoLabels,
                  seat_colour=lambda view, seat: ICO_COLOURS[seat % len(ICO_COLOURS)])
