"""The Pastoral Square board: an 8x8 pasture with the corral in its middle, as a PNG.

Regions read at a glance: the corral in light grass with each cell's value in its top-left
corner (stacks stand clear of it, lower right), the cattle area in deeper green, the four
holding areas in sand. The first player's holding areas are the two on ranks 1-2 (held stones
on the left, the stock on the right), the second player's those on ranks 7-8; each stock is a
counter in its owner's stone colour. Stacks are drawn as piles of stones with their count. The
last action is framed; a mutilation is drawn as its square A-B-C-D with ghosts of what was
removed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import ClassVar

from games.base import NC_
from games.pastoral.game import (
    CORRAL,
    EMPTY,
    FILES,
    HOLDING,
    VALUE,
    PastoralEnding,
    PastoralView,
    cell_name,
)

from .common import (
    BACKGROUND,
    MUTED,
    TEXT,
    Canvas,
    Picture,
    Rgb,
    SeatMark,
    TextBox,
    fit_size,
    fit_width,
    ink_on,
    min_size,
    mix,
    note_seat_mark,
    status_lines,
    wrap_width,
)

WIDTH = 800
SMALL = min_size(WIDTH)
SMALL_BOLD = min_size(WIDTH, True)
CELL = 92
BOARD_LEFT = 44
BOARD_TOP = 150
BOARD_SIZE = 8 * CELL
FOOTER_Y = BOARD_TOP + BOARD_SIZE + 70
HEIGHT = FOOTER_Y + 204  # the status line (two for a long result) and three more: the last
# move (two lines at most, with what a mutilation removed) and the cells where a place is not
# allowed
CORRAL_FILL = (150, 196, 110)
CATTLE_FILL = (88, 140, 72)
HOLDING_FILL = (214, 190, 140)
GRID_INK = (52, 82, 44)
VALUE_INK = (28, 58, 22)
BLACK_STONE = (34, 34, 38)
WHITE_STONE = (240, 238, 230)
ACCENT = (240, 180, 40)  # whose turn, the last action
MUTILATION = (230, 60, 60)
BLOCKED = (200, 80, 70)
STONE_R = 26


# Pastoral Square's seats have words of their own (先攻 / 後攻, where Mancala says 先手 / 後手):
# marked here for the catalogs, looked up through PastoralLabels.CONTEXTS
_SEAT_WORDS = (NC_("pastoral", "First player"), NC_("pastoral", "Second player"))


@dataclass(frozen=True)
class PastoralLabels:
    CONTEXTS: ClassVar[dict[str, str]] = {"first": "pastoral", "second": "pastoral"}

    first: str = "First player"
    second: str = "Second player"
    held: str = "held {n}"
    stock: str = "stock {n}"
    stock_word: str = "stock"
    to_move: str = "{name} to move"
    picked: str = "(picked up {n})"
    wins_bingo: str = "{name} wins with a bingo"
    wins_pickup: str = "{name} wins: {loser} cannot pick up"
    draw: str = "Draw ({reason})"
    repetition: str = "repetition"
    last: str = "Last: {name} {move}"
    save: str = "save"
    removed: str = "mutilation removed {cells}"
    no_place: str = "no place"
    # the same sentences when the seat is the reader's (`you`: a lesson's learner)
    to_move_you: str = "Your turn"
    wins_bingo_you: str = "You win with a bingo"
    wins_pickup_you: str = "You win: {loser} cannot pick up"
    loses_pickup_you: str = "{name} wins: you cannot pick up"


def render_pastoral(view: PastoralView, *, names: Sequence[str] | None = None,
                    labels: PastoralLabels = PastoralLabels(), result: str | None = None,
                    layout: list[TextBox] | None = None, last_move: bool = True,
                    you: int | None = None, hints: bool = True) -> bytes:
    """The board as PNG bytes; `last_move` False: the last action is not written under the
    board (still framed on it). `you`: the reader's seat, whose sentences are in the second
    person. `hints` False (a quiz: "May they place on d4?"): no cell marked or named as
    closed to the mover."""
    if not hints:
        view = replace(view, blocked=frozenset())
    canvas = _static_layer().clone()
    who = (list(names or ()) + [labels.first, labels.second][len(names or ()):])[:2]
    colours = _stone_colours(view.first_colour)
    over = result is not None or view.outcome is not None
    mover = None if over else view.to_move

    _header(canvas, view, who, colours, labels, mover)
    if view.last is not None and view.last.cell is not None:
        x0, y0, x1, y1 = _box(view.last.cell)
        canvas.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=ACCENT, width=6)
    if view.last is not None and view.last.mutilation is not None:
        _mutilation_square(canvas, view)
    if view.bingo is not None:
        start, end = _centre(view.bingo[0]), _centre(view.bingo[-1])
        canvas.line((*start, *end), fill=ACCENT, width=10)
        for cell in view.bingo:
            x0, y0, x1, y1 = _box(cell)
            canvas.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=ACCENT, width=6)
    for seat, (held_corner, stock_corner) in enumerate((((0, 0), (6, 0)), ((6, 6), (0, 6)))):
        _held(canvas, held_corner, view.held[seat], colours[seat], seat)
        _stock(canvas, stock_corner, view.stock[seat], colours[seat], labels)
    for cell in range(64):
        if view.owner[cell] != EMPTY:
            _pile(canvas, cell, view.count[cell], colours[view.owner[cell]], view.owner[cell])
    if mover is not None:
        for cell in view.blocked:
            _blocked(canvas, cell)
    if view.last is not None and view.last.mutilation is not None:
        _mutilation(canvas, view, colours)
    _footer(canvas, view, who, labels, result, mover, last_move, you)
    return canvas.png(layout)


def _stone_colours(first_colour: str) -> tuple[Rgb, Rgb]:
    return (BLACK_STONE, WHITE_STONE) if first_colour == "black" else (WHITE_STONE, BLACK_STONE)


def _box(cell: int) -> tuple[int, int, int, int]:
    file, rank = cell % 8, cell // 8
    x0 = BOARD_LEFT + file * CELL
    y0 = BOARD_TOP + (7 - rank) * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def _centre(cell: int) -> tuple[float, float]:
    x0, y0, x1, y1 = _box(cell)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _fill(cell: int) -> Rgb:
    return CORRAL_FILL if cell in CORRAL else HOLDING_FILL if cell in HOLDING else CATTLE_FILL


@lru_cache(maxsize=1)
def _static_layer() -> Canvas:
    canvas = Canvas((WIDTH, HEIGHT), BACKGROUND)
    for cell in range(64):
        canvas.rectangle(_box(cell), fill=_fill(cell), outline=GRID_INK, width=2)
    for cell in sorted(CORRAL):
        x0, y0, _, _ = _box(cell)
        canvas.text((x0 + 12, y0 + 25), str(VALUE[cell]), size=SMALL_BOLD, fg=VALUE_INK,
                    bg=CORRAL_FILL, bold=True)
    canvas.rectangle((BOARD_LEFT + 2 * CELL, BOARD_TOP + 2 * CELL, BOARD_LEFT + 6 * CELL,
                      BOARD_TOP + 6 * CELL), outline=(40, 70, 30), width=5)
    canvas.rectangle((BOARD_LEFT, BOARD_TOP, BOARD_LEFT + BOARD_SIZE, BOARD_TOP + BOARD_SIZE),
                     outline=(30, 50, 25), width=4)
    for i in range(8):
        x = BOARD_LEFT + i * CELL + CELL / 2
        canvas.text((x, BOARD_TOP + BOARD_SIZE + 22), FILES[i], size=SMALL_BOLD, fg=MUTED,
                    bg=BACKGROUND, bold=True, align="centre")
        y = BOARD_TOP + (7 - i) * CELL + CELL / 2
        canvas.text((BOARD_LEFT - 22, y), str(i + 1), size=SMALL_BOLD, fg=MUTED, bg=BACKGROUND,
                    bold=True, align="centre")
    return canvas


def _disc(canvas: Canvas, x: float, y: float, r: float, colour: Rgb,
          seat: int | None = None) -> None:
    """A stone; a seat's (not a ghost's) is told to `recording_seat_marks`. The seats' stones
    are black and white, which every simulated colour vision and a greyscale print keep
    apart by lightness alone (tests/test_colour_vision.py): they keep the game's own look."""
    edge = mix(colour, (0, 0, 0), 0.5) if colour == WHITE_STONE else (150, 150, 160)
    canvas.circle(x, y, r, fill=colour, outline=edge, width=2)
    if seat is not None:
        note_seat_mark(SeatMark(seat, x, y, r, colour))


def _pile(canvas: Canvas, cell: int, count: int, colour: Rgb, seat: int) -> None:
    """A stack seen slightly from the side: one disc per stone, the count on top. In the
    corral it stands lower right, clear of the cell's value."""
    x0, y0, x1, y1 = _box(cell)
    cx = x0 + CELL - STONE_R - 6 if cell in CORRAL else x0 + CELL / 2
    base = y1 - STONE_R - 8
    for i in range(count):
        _disc(canvas, cx, base - i * 6, STONE_R, colour, seat if i == count - 1 else None)
    top = base - (count - 1) * 6
    canvas.text((cx, top), str(count), size=SMALL_BOLD + 2, fg=ink_on(colour), bg=colour,
                bold=True, align="centre")


def _held(canvas: Canvas, corner: tuple[int, int], n: int, colour: Rgb, seat: int) -> None:
    """Held stones inside a 2x2 holding area, in a small cluster."""
    file, rank = corner
    x0 = BOARD_LEFT + file * CELL
    y0 = BOARD_TOP + (6 - rank) * CELL
    spots = ((0.55, 0.6), (1.45, 0.6), (1.0, 1.0), (0.55, 1.4), (1.45, 1.4))
    for fx, fy in spots[:n]:
        _disc(canvas, x0 + fx * CELL, y0 + fy * CELL, 26, colour, seat)


def _stock(canvas: Canvas, corner: tuple[int, int], n: int, colour: Rgb,
           labels: PastoralLabels) -> None:
    """The stock: a counter in the owner's stone colour, its word beneath."""
    file, rank = corner
    x = BOARD_LEFT + (file + 1) * CELL
    y = BOARD_TOP + (7 - rank) * CELL
    ink = ink_on(colour)
    canvas.rounded_rectangle((x - 62, y - 58, x + 62, y + 58), radius=16, fill=colour,
                             outline=mix(colour, ink, 0.5), width=3)
    canvas.text((x, y - 14), str(n), size=50, fg=ink, bg=colour, bold=True, align="centre")
    word = fit_width(canvas, labels.stock_word, SMALL, False, 116)
    canvas.text((x, y + 34), word, size=SMALL, fg=ink, bg=colour, align="centre")


def _blocked(canvas: Canvas, cell: int) -> None:
    """A corral cell the player to move may not place on: hatched (explained beneath)."""
    x0, y0, x1, y1 = _box(cell)
    x0, y0 = x0 + 38, y0 + 2  # clear of the value in the corner
    x1, y1 = x1 - 2, y1 - 2
    w, h = x1 - x0, y1 - y0
    for c in range(10, w + h, 16):  # lines x + y = c across the rectangle
        ax, bx = min(c, w), c - min(c, h)
        canvas.line((x0 + ax, y0 + c - ax, x0 + bx, y0 + min(c, h)), fill=BLOCKED, width=3)


def _mutilation_square(canvas: Canvas, view: PastoralView) -> None:
    """The fired squares A-B-D-C, under the stones and counters; the corral values they
    cross are drawn again on a patch."""
    assert view.last is not None and view.last.mutilation is not None
    for square in view.last.mutilation.squares:
        corners = [_centre(c) for c in (square.a, square.b, square.d, square.c)]
        canvas.line(corners + [corners[0]], fill=MUTILATION, width=5)
        dx, dy = _centre(square.d)
        canvas.circle(dx, dy, 9, fill=MUTILATION)
    for cell in sorted(CORRAL):
        x0, y0, _, _ = _box(cell)
        canvas.text((x0 + 12, y0 + 25), str(VALUE[cell]), size=SMALL_BOLD, fg=VALUE_INK,
                    bg=CORRAL_FILL, bold=True, halo=True, record=False)


def _mutilation(canvas: Canvas, view: PastoralView, colours) -> None:
    last = view.last
    assert last is not None and last.mutilation is not None
    mut = last.mutilation
    for cell, owner, n in mut.removed:
        x0, y0, x1, y1 = _box(cell)
        cx = x0 + CELL - STONE_R - 6 if cell in CORRAL else x0 + CELL / 2
        cy = y1 - STONE_R - 8
        ghost = mix(colours[owner], _fill(cell), 0.6)
        _disc(canvas, cx, cy, STONE_R - 4, ghost)
        canvas.line((cx - 18, cy - 18, cx + 18, cy + 18), fill=MUTILATION, width=5)
        canvas.line((cx - 18, cy + 18, cx + 18, cy - 18), fill=MUTILATION, width=5)
        back = (252, 236, 232)
        label = f"−{n}"
        w, h = canvas.measure(label, SMALL_BOLD, True)
        canvas.rounded_rectangle((x1 - w - 12, y0 + 4, x1 - 4, y0 + h + 14), radius=6,
                                 fill=back)
        canvas.text((x1 - 8, y0 + 9 + h / 2), label, size=SMALL_BOLD, fg=(150, 10, 10), bg=back,
                    bold=True, align="right")


def _header(canvas: Canvas, view: PastoralView, who, colours, labels: PastoralLabels,
            mover: int | None) -> None:
    winners = set(view.outcome.winners) if view.outcome and not view.outcome.draw else set()
    for seat in (0, 1):
        left = seat == 0
        box = (12, 8, WIDTH / 2 - 6, 132) if left else (WIDTH / 2 + 6, 8, WIDTH - 12, 132)
        back = BACKGROUND
        if mover == seat or seat in winners:
            back = mix(BACKGROUND, ACCENT, 0.12)
            canvas.rounded_rectangle(box, radius=16, outline=ACCENT, width=4, fill=back)
        disc_x = box[0] + 34
        _disc(canvas, disc_x, 46, 20, colours[seat], seat)
        room = box[2] - disc_x - 30 - 12
        name, name_size = fit_size(canvas, who[seat], (SMALL_BOLD + 4, SMALL_BOLD + 2,
                                                       SMALL_BOLD), True, room)
        canvas.text((disc_x + 30, 46), name, size=name_size, fg=TEXT, bg=back, bold=True)
        counts = (f"{labels.held.format(n=view.held[seat])} · "
                  f"{labels.stock.format(n=view.stock[seat])}")
        counts = fit_width(canvas, counts, SMALL, False, box[2] - box[0] - 28)
        canvas.text((box[0] + 16, 100), counts, size=SMALL, fg=MUTED if back == BACKGROUND
                    else TEXT, bg=back)


STATUS_LEADING = 38  # between the two lines of a long result


def _footer(canvas: Canvas, view: PastoralView, who, labels: PastoralLabels,
            result: str | None, mover: int | None, last_move: bool,
            you: int | None = None) -> None:
    y = FOOTER_Y
    room = WIDTH - 48
    if result is not None:
        status, colour = result, TEXT
    elif view.outcome is not None:
        outcome = view.outcome
        if outcome.draw:
            status = labels.draw.format(reason=labels.repetition)
        elif outcome.ending == PastoralEnding.PICKUP_FAILURE:
            winner = outcome.winners[0]
            template = labels.wins_pickup_you if winner == you else \
                labels.loses_pickup_you if 1 - winner == you else labels.wins_pickup
            status = template.format(name=who[winner], loser=who[1 - winner])
        else:
            winner = outcome.winners[0]
            template = labels.wins_bingo_you if winner == you else labels.wins_bingo
            status = template.format(name=who[winner])
        colour = TEXT
    else:
        assert mover is not None
        to_move = labels.to_move_you if mover == you else labels.to_move
        status = f"{to_move.format(name=who[mover])} " \
                 f"{labels.picked.format(n=view.picked)}"
        colour = ACCENT
    big = SMALL_BOLD + 4
    # a long result takes two lines (the picture keeps room for them)
    heading, size = status_lines(canvas, status, (big, SMALL_BOLD), who, room)
    for row, line in enumerate(heading):
        canvas.text((24, y + STATUS_LEADING * row), line, size=size, fg=colour,
                    bg=BACKGROUND, bold=True)
    y += STATUS_LEADING * (len(heading) - 1)
    spare = 3
    lines: list[str] = []
    blocked = mover is not None and bool(view.blocked)
    last = view.last if last_move else None
    if last is not None:
        move = labels.save if last.cell is None else f"{cell_name(last.cell)}:{last.stones}"
        text = labels.last.format(name=who[last.seat], move=move)
        if last.mutilation is not None:
            cells = ", ".join(f"{cell_name(c)} ({n})" for c, _, n in last.mutilation.removed)
            text += " · " + labels.removed.format(cells=cells)
        lines += wrap_width(canvas, text, SMALL, False, room, spare - 1 if blocked else spare,
                            who)
    if blocked:
        cells = ", ".join(cell_name(c) for c in sorted(view.blocked))
        lines += wrap_width(canvas, f"{labels.no_place}: {cells}", SMALL, False, room,
                            spare - len(lines))
    for row, line in enumerate(lines):
        canvas.text((24, y + 44 + 36 * row), line, size=SMALL, fg=MUTED, bg=BACKGROUND)


# the pastoral kit names this module as its picture (games/pastoral/__init__.py)
PICTURE = Picture(render_pastoral, PastoralLabels,
                  seat_colour=lambda view, seat: _stone_colours(view.first_colour)[seat % 2])
