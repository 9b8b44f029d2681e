"""The Pastoral Square board: an 8x8 pasture with the corral in its middle, as a PNG.

Regions read at a glance: the corral in light grass with each cell's value, the cattle area in
deeper green, the four holding areas in sand. The first player's holding areas are the two on
rank 1-2 (held stones on the left, the stock on the right), the second player's those on rank
7-8. Stacks are drawn as piles of stones with their count. The last action is ringed; a
mutilation is drawn as its square A-B-C-D with ghosts of what was removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.pastoral import CORRAL, EMPTY, FILES, HOLDING, VALUE, PastoralView, cell_name

from .common import (BACKGROUND, MUTED, TEXT, font, mix, paste_centred, paste_text, text_stamp,
                     to_png, wrap)

WIDTH = 790
CELL = 86
BOARD_LEFT = 60
BOARD_TOP = 124
BOARD_SIZE = 8 * CELL
HEIGHT = BOARD_TOP + BOARD_SIZE + 170
CORRAL_FILL = (150, 196, 110)
CATTLE_FILL = (88, 140, 72)
HOLDING_FILL = (214, 190, 140)
GRID = (52, 82, 44)
BLACK_STONE = (34, 34, 38)
WHITE_STONE = (240, 238, 230)
ACCENT = (240, 180, 40)  # whose turn, the last action
MUTILATION = (230, 60, 60)
STONE_R = 27


@dataclass(frozen=True)
class PastoralLabels:
    first: str = "First player"
    second: str = "Second player"
    held: str = "held {n}"
    stock: str = "stock {n}"
    to_move: str = "{name} to move"
    picked: str = "(picked up {n})"
    wins_bingo: str = "{name} wins with a bingo"
    wins_pickup: str = "{name} wins: {loser} cannot pick up"
    draw: str = "Draw ({reason})"
    last: str = "Last: {name} {move}"
    removed: str = "mutilation removed {cells}"
    no_place: str = "no place"


def render_pastoral(view: PastoralView, *, names: Sequence[str] | None = None,
                    labels: PastoralLabels = PastoralLabels()) -> bytes:
    image = _static_layer().copy()
    draw = ImageDraw.Draw(image)
    who = (list(names or ()) + [labels.first, labels.second][len(names or ()):])[:2]
    colours = _stone_colours(view.first_colour)

    _header(image, draw, view, who, colours, labels)
    for seat, (held_corner, stock_corner) in enumerate((((0, 0), (6, 0)), ((6, 6), (0, 6)))):
        _held(draw, held_corner, view.held[seat], colours[seat])
        _stock(image, stock_corner, view.stock[seat], colours[seat], labels)
    for cell in range(64):
        if view.owner[cell] != EMPTY:
            _pile(image, draw, cell, view.count[cell], colours[view.owner[cell]])
    for cell in view.blocked:
        _blocked(image, draw, cell, labels)
    if view.last is not None:
        _last(image, draw, view, colours)
    if view.bingo is not None:
        start, end = _centre(view.bingo[0]), _centre(view.bingo[-1])
        draw.line((*start, *end), fill=ACCENT, width=12)
    _footer(image, view, who, labels)
    return to_png(image)


def _stone_colours(first_colour: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    return (BLACK_STONE, WHITE_STONE) if first_colour == "black" else (WHITE_STONE, BLACK_STONE)


def _box(cell: int) -> tuple[int, int, int, int]:
    file, rank = cell % 8, cell // 8
    x0 = BOARD_LEFT + file * CELL
    y0 = BOARD_TOP + (7 - rank) * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def _centre(cell: int) -> tuple[float, float]:
    x0, y0, x1, y1 = _box(cell)
    return (x0 + x1) / 2, (y0 + y1) / 2


@lru_cache(maxsize=1)
def _static_layer() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for cell in range(64):
        fill = CORRAL_FILL if cell in CORRAL else HOLDING_FILL if cell in HOLDING else CATTLE_FILL
        draw.rectangle(_box(cell), fill=fill, outline=GRID, width=2)
        if cell in CORRAL:
            x0, y0, _, _ = _box(cell)
            draw.text((x0 + 8, y0 + 4), str(VALUE[cell]), font=font(22, bold=True),
                      fill=mix(CORRAL_FILL, (20, 60, 20), 0.55))
    draw.rectangle((BOARD_LEFT + 2 * CELL, BOARD_TOP + 2 * CELL, BOARD_LEFT + 6 * CELL,
                    BOARD_TOP + 6 * CELL), outline=(40, 70, 30), width=5)
    draw.rectangle((BOARD_LEFT, BOARD_TOP, BOARD_LEFT + BOARD_SIZE, BOARD_TOP + BOARD_SIZE),
                   outline=(30, 50, 25), width=4)
    coord = font(24, bold=True)
    for i in range(8):
        x = BOARD_LEFT + i * CELL + CELL / 2
        draw.text((x, BOARD_TOP + BOARD_SIZE + 18), FILES[i], font=coord, fill=MUTED, anchor="mm")
        y = BOARD_TOP + (7 - i) * CELL + CELL / 2
        draw.text((BOARD_LEFT - 22, y), str(i + 1), font=coord, fill=MUTED, anchor="mm")
    return image


def _disc(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour) -> None:
    edge = mix(colour, (0, 0, 0), 0.5) if colour == WHITE_STONE else (150, 150, 160)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=edge, width=2)


def _pile(image: Image.Image, draw: ImageDraw.ImageDraw, cell: int, count: int, colour) -> None:
    """A stack seen slightly from the side: one disc per stone, the count on top."""
    cx, cy = _centre(cell)
    base = cy + (count - 1) * 4
    for i in range(count):
        _disc(draw, cx, base - i * 8, STONE_R, colour)
    ink = TEXT if colour == BLACK_STONE else (30, 30, 30)
    paste_centred(image, text_stamp(str(count), 30, True, ink), cx, base - (count - 1) * 8)


def _held(draw: ImageDraw.ImageDraw, corner: tuple[int, int], n: int, colour) -> None:
    """Held stones inside a 2x2 holding area, in a small cluster."""
    file, rank = corner
    x0 = BOARD_LEFT + file * CELL
    y0 = BOARD_TOP + (6 - rank) * CELL
    spots = ((0.55, 0.6), (1.45, 0.6), (1.0, 1.0), (0.55, 1.4), (1.45, 1.4))
    for fx, fy in spots[:n]:
        _disc(draw, x0 + fx * CELL, y0 + fy * CELL, 26, colour)


def _stock(image: Image.Image, corner: tuple[int, int], n: int, colour,
           labels: PastoralLabels) -> None:
    file, rank = corner
    x = BOARD_LEFT + (file + 1) * CELL
    y = BOARD_TOP + (7 - rank) * CELL
    paste_text(image, (x, y - 18), str(n), size=46, fill=(60, 45, 20), bold=True, align="centre")
    paste_text(image, (x, y + 28), labels.stock.format(n="").strip(), size=20,
               fill=(90, 70, 40), align="centre")


def _blocked(image: Image.Image, draw: ImageDraw.ImageDraw, cell: int,
             labels: PastoralLabels) -> None:
    x0, y0, x1, y1 = _box(cell)
    for offset in range(-CELL, CELL, 16):
        draw.line((x0 + max(0, offset), y0 + max(0, -offset), x0 + min(CELL, CELL + offset),
                   y0 + min(CELL, CELL - offset)), fill=(200, 80, 70), width=2)
    paste_text(image, ((x0 + x1) / 2, y1 - 14), labels.no_place, size=16, fill=(120, 20, 20),
               bold=True, align="centre")


def _last(image: Image.Image, draw: ImageDraw.ImageDraw, view: PastoralView, colours) -> None:
    last = view.last
    assert last is not None
    mut = last.mutilation
    if mut is not None:
        for square in mut.squares:
            corners = [_centre(c) for c in (square.a, square.b, square.d, square.c)]
            draw.line(corners + [corners[0]], fill=MUTILATION, width=5)
            dx, dy = _centre(square.d)
            draw.ellipse((dx - 9, dy - 9, dx + 9, dy + 9), fill=MUTILATION)
        for cell, owner, n in mut.removed:
            cx, cy = _centre(cell)
            ghost = mix(colours[owner], CORRAL_FILL if cell in CORRAL else CATTLE_FILL, 0.6)
            _disc(draw, cx, cy, STONE_R - 4, ghost)
            draw.line((cx - 20, cy - 20, cx + 20, cy + 20), fill=MUTILATION, width=5)
            draw.line((cx - 20, cy + 20, cx + 20, cy - 20), fill=MUTILATION, width=5)
            x1, y0 = _box(cell)[2], _box(cell)[1]
            paste_text(image, (x1 - 8, y0 + 16), f"−{n}", size=20, fill=(150, 10, 10), bold=True,
                       align="right")
    if last.cell is not None:
        x0, y0, x1, y1 = _box(last.cell)
        draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=ACCENT, width=6)


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: PastoralView, who, colours,
            labels: PastoralLabels) -> None:
    winners = set(view.outcome.winners) if view.outcome and not view.outcome.draw else set()
    for seat in (0, 1):
        left = seat == 0
        box = (16, 10, WIDTH / 2 - 8, 104) if left else (WIDTH / 2 + 8, 10, WIDTH - 16, 104)
        if view.to_move == seat or seat in winners:
            draw.rounded_rectangle(box, radius=16, outline=ACCENT, width=4,
                                   fill=mix(BACKGROUND, ACCENT, 0.12))
        disc_x = box[0] + 38
        _disc(draw, disc_x, 57, 22, colours[seat])
        paste_text(image, (disc_x + 34, 40), _fit(who[seat], 16), size=28, fill=TEXT, bold=True)
        counts = f"{labels.held.format(n=view.held[seat])} · {labels.stock.format(n=view.stock[seat])}"
        paste_text(image, (disc_x + 34, 78), counts, size=22, fill=MUTED)


def _footer(image: Image.Image, view: PastoralView, who, labels: PastoralLabels) -> None:
    y = BOARD_TOP + BOARD_SIZE + 62
    if view.outcome is not None:
        outcome = view.outcome
        if outcome.draw:
            status = labels.draw.format(reason=outcome.reason.value)
        elif outcome.reason.value == "pickup-failure":
            winner = outcome.winners[0]
            status = labels.wins_pickup.format(name=who[winner], loser=who[1 - winner])
        else:
            status = labels.wins_bingo.format(name=who[outcome.winners[0]])
    else:
        assert view.to_move is not None
        status = f"{labels.to_move.format(name=who[view.to_move])} {labels.picked.format(n=view.picked)}"
    paste_text(image, (24, y), status, size=30, fill=ACCENT if view.outcome is None else TEXT,
               bold=True)
    last = view.last
    if last is not None:
        move = "save" if last.cell is None else f"{cell_name(last.cell)}:{last.stones}"
        text = labels.last.format(name=who[last.seat], move=move)
        if last.mutilation is not None:
            cells = ", ".join(f"{cell_name(c)} ({n})" for c, _, n in last.mutilation.removed)
            text += " · " + labels.removed.format(cells=cells)
        for row, line in enumerate(wrap(text, 72)[:2]):
            paste_text(image, (24, y + 44 + 30 * row), line, size=21, fill=MUTED)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


