"""Consequence pictures, drawn only from a `ConsequenceView` (games.consequence.game.observe).

The public picture gets the public view, which carries no symbol before the final count, so it
cannot leak one: two positions that differ only in hidden symbols give identical PNG bytes
(tests/test_render.py checks this). A private picture adds the symbols its viewer knows and their
hand; the final picture shows every face, each scoring pair as a line in its player's colour,
and the tie-break line. The last action is drawn on the grid: a placed tile framed; a moved tile
as an arrow from where it stood; a push as the new tile sliding in from its entry square (left
as a dashed outline), with the pushed run's slide and, if a tile fell off, where it went.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from games.consequence.game import (
    DIRECTIONS,
    FILES,
    SIZE,
    ConsequenceEnding,
    ConsequenceView,
    TileView,
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
    min_size,
    mix,
    note_seat_mark,
    readable,
    wrap_width,
)

WIDTH = 760
SMALL = min_size(WIDTH)
SMALL_BOLD = min_size(WIDTH, True)
CELL = 150
GRID_LEFT = 100
GRID_TOP = 150
GRID_SIZE = SIZE * CELL
HAND_TOP = GRID_TOP + GRID_SIZE + 70
HAND_TILE = 76
TILE_COLOURS = {"B": (52, 104, 200), "R": (204, 66, 58)}
TILE_SEATS = {"B": 0, "R": 1}  # whose colour it is
SYMBOL_INK = (252, 244, 214)
SEAT_LINE = ((120, 190, 255), (255, 196, 70))  # moon player, sun player
BOARD = (70, 62, 54)
SQUARE = (122, 108, 92)
OUTLINE = (16, 14, 12)


@dataclass(frozen=True)
class ConsequenceLabels:
    first: str = "Moon player"
    second: str = "Sun player"
    hand: str = "hand {n}"
    points: str = "{n} pts"
    your_hand: str = "Your hand"
    to_move: str = "{name} to move"
    final_placements: str = "{name} places the last tiles"
    wins: str = "{name} wins {a}–{b}"
    wins_tie: str = "{name} wins the tie with four in a line"
    draw: str = "Draw {a}–{b}"
    draw_repetition: str = "Draw by repetition"
    last: str = "Last: {name} {move}"
    ejected: str = "a {colour} tile went to {name}'s hand"
    colour_names: tuple[str, str] = ("blue", "red")
    # the same sentences when the seat is the reader's (`you`: a lesson's learner)
    to_move_you: str = "Your turn"
    final_placements_you: str = "You place the last tiles"
    wins_you: str = "You win {a}–{b}"
    wins_tie_you: str = "You win the tie with four in a line"
    ejected_you: str = "a {colour} tile went to your hand"


def _height(hand: bool) -> int:
    return HAND_TOP + (HAND_TILE + 40 if hand else 0) + 150


def render_consequence(view: ConsequenceView, *, names: Sequence[str] | None = None,
                       labels: ConsequenceLabels = ConsequenceLabels(),
                       result: str | None = None,
                       layout: list[TextBox] | None = None, last_move: bool = True,
                       you: int | None = None, hints: bool = True) -> bytes:
    """The picture as PNG bytes; `last_move` False: the last action is not written under the
    grid (still drawn on it). `you`: the reader's seat, whose sentences are in the second
    person. `hints` False (a quiz: "Who wins?"): every face, but no points, no scoring pair or
    line and no winner's frame, so the reader counts."""
    if not hints:
        # the outcome too, when a result line stands for it (else the picture says it)
        view = replace(view, scores=None, pairs=(), lines=(),
                       outcome=None if result is not None else view.outcome)
    canvas = _static_layer(view.hand is not None).clone()
    who = (list(names or ()) + [labels.first, labels.second][len(names or ()):])[:2]
    over = result is not None or view.outcome is not None
    mover = None if over else view.to_move
    _header(canvas, view, who, labels, mover)
    if view.last is not None:
        _last_under(canvas, view)
    for square, tile in enumerate(view.grid):
        if tile is not None:
            _tile(canvas, *_centre(square), CELL * 0.38, tile)
    if view.scores is not None:
        for seat, a, b in view.pairs:
            canvas.line((*_centre(a), *_centre(b)), fill=SEAT_LINE[seat], width=10)
        for seat, line in view.lines:
            (x0, y0), (x1, y1) = _centre(line[0]), _centre(line[-1])
            canvas.line((x0, y0, x1, y1), fill=SEAT_LINE[seat], width=4)
            for square in line:
                x, y = _centre(square)
                canvas.rounded_rectangle((x - CELL / 2 + 6, y - CELL / 2 + 6, x + CELL / 2 - 6,
                                          y + CELL / 2 - 6), radius=14,
                                         outline=SEAT_LINE[seat], width=5)
    if view.last is not None:
        _last_over(canvas, view)
    if view.hand is not None:
        _hand(canvas, view.hand, labels)
    _footer(canvas, view, who, labels, result, mover, last_move, you)
    return canvas.png(layout)


def _centre(square: int) -> tuple[float, float]:
    file, rank = square % SIZE, square // SIZE
    return GRID_LEFT + file * CELL + CELL / 2, GRID_TOP + (SIZE - 1 - rank) * CELL + CELL / 2


@lru_cache(maxsize=2)
def _static_layer(hand: bool) -> Canvas:
    canvas = Canvas((WIDTH, _height(hand)), BACKGROUND)
    canvas.rounded_rectangle((GRID_LEFT - 12, GRID_TOP - 12, GRID_LEFT + GRID_SIZE + 12,
                              GRID_TOP + GRID_SIZE + 12), radius=18, fill=BOARD)
    for square in range(SIZE * SIZE):
        x, y = _centre(square)
        canvas.rounded_rectangle((x - CELL / 2 + 5, y - CELL / 2 + 5, x + CELL / 2 - 5,
                                  y + CELL / 2 - 5), radius=12, fill=SQUARE)
    for i in range(SIZE):
        x = GRID_LEFT + i * CELL + CELL / 2
        canvas.text((x, GRID_TOP + GRID_SIZE + 36), FILES[i], size=SMALL_BOLD, fg=MUTED,
                    bg=BACKGROUND, bold=True, align="centre")
        y = GRID_TOP + (SIZE - 1 - i) * CELL + CELL / 2
        canvas.text((GRID_LEFT - 44, y), str(i + 1), size=SMALL_BOLD, fg=MUTED, bg=BACKGROUND,
                    bold=True, align="centre")
    return canvas


def _tile(canvas: Canvas, x: float, y: float, half: float, tile: TileView) -> None:
    """A tile: its colour is its seat's (blue the moon player's, red the sun player's), and so
    is the light line inside it, a ring on a blue tile and a square on a red one (the seats'
    disc and square, render.common.SEAT_SHAPES): a greyscale print makes the two colours one
    grey, and tile backs bear no symbol."""
    colour = TILE_COLOURS[tile.colour]
    canvas.rounded_rectangle((x - half, y - half, x + half, y + half), radius=half * 0.25,
                             fill=colour, outline=mix(colour, (0, 0, 0), 0.45), width=3)
    inner = half * 0.76
    line = max(3, round(half * 0.11))
    ink = mix(colour, (255, 255, 255), 0.5)
    seat = TILE_SEATS[tile.colour]
    if seat == 0:
        canvas.circle(x, y, inner, outline=ink, width=line)
    else:
        canvas.rounded_rectangle((x - inner, y - inner, x + inner, y + inner),
                                 radius=half * 0.18, outline=ink, width=line)
    note_seat_mark(SeatMark(seat, x, y, half, colour))
    if tile.symbol is not None:
        _symbol(canvas, x, y, half * 0.55, tile.symbol, colour)


def _symbol(canvas: Canvas, x: float, y: float, r: float, symbol: str, back: Rgb) -> None:
    if symbol == "M":  # a crescent: a disc with a disc of the back colour bitten out
        canvas.circle(x, y, r, fill=SYMBOL_INK)
        off = r * 0.45
        canvas.ellipse((x - r + off, y - r - off * 0.3, x + r + off, y + r - off * 0.3),
                       fill=back)
    elif symbol == "S":  # a disc with eight rays
        for i in range(8):
            angle = i * math.pi / 4
            canvas.line((x + math.cos(angle) * r * 0.55, y + math.sin(angle) * r * 0.55,
                         x + math.cos(angle) * r * 1.05, y + math.sin(angle) * r * 1.05),
                        fill=SYMBOL_INK, width=max(2, int(r * 0.16)))
        canvas.circle(x, y, r * 0.5, fill=SYMBOL_INK)
    else:  # a dot
        canvas.circle(x, y, r * 0.3, fill=SYMBOL_INK)


def _arrow(canvas: Canvas, start, end, colour: Rgb, width: int = 8, head: float = 24) -> None:
    """An arrow with a dark rim, so it reads over tiles of either colour."""
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    back = (x1 - head * 0.8 * math.cos(angle), y1 - head * 0.8 * math.sin(angle))

    def tip(size: float) -> list[tuple[float, float]]:
        return [(x1 + (size - head) * 0.3 * math.cos(angle),
                 y1 + (size - head) * 0.3 * math.sin(angle)),
                (x1 - size * math.cos(angle - 0.5), y1 - size * math.sin(angle - 0.5)),
                (x1 - size * math.cos(angle + 0.5), y1 - size * math.sin(angle + 0.5))]

    canvas.line((x0, y0, *back), fill=OUTLINE, width=width + 6)
    canvas.polygon(tip(head + 7), fill=OUTLINE)
    canvas.line((x0, y0, *back), fill=colour, width=width)
    canvas.polygon(tip(head), fill=colour)


def _frame(canvas: Canvas, square: int, colour: Rgb, width: int = 6) -> None:
    x, y = _centre(square)
    canvas.rounded_rectangle((x - CELL / 2 + 3, y - CELL / 2 + 3, x + CELL / 2 - 3,
                              y + CELL / 2 - 3), radius=14, outline=colour, width=width)


def _last_under(canvas: Canvas, view: ConsequenceView) -> None:
    """What lies under the tiles: the frame of the last placed tile, the entry square of a
    push left as a dashed outline of the tile that slid in from it."""
    last = view.last
    assert last is not None
    colour = SEAT_LINE[last["seat"]]
    if last["kind"] == "move":
        _frame(canvas, last["target"], colour)
        return
    if last["kind"] == "place":
        _frame(canvas, last["square"], colour)
        return
    x, y = _centre(last["square"])
    half = CELL * 0.38
    corners = [(x - half, y - half), (x + half, y - half), (x + half, y + half),
               (x - half, y + half)]
    for i in range(4):  # a dashed outline: where the new tile came from
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        for k in range(0, 8):
            t0, t1 = k / 8 + 0.02, k / 8 + 0.085
            canvas.line((ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1,
                         ay + (by - ay) * t1), fill=colour, width=5)
    _frame(canvas, last["run"][0], colour)


def _last_over(canvas: Canvas, view: ConsequenceView) -> None:
    """The arrows, drawn over the tiles."""
    last = view.last
    assert last is not None
    colour = SEAT_LINE[last["seat"]]
    if last["kind"] == "move":
        (x0, y0), (x1, y1) = _centre(last["origin"]), _centre(last["target"])
        _arrow(canvas, (x0, y0), (x0 + (x1 - x0) * 0.72, y0 + (y1 - y0) * 0.72), colour)
        canvas.circle(x0, y0, 10, fill=colour, outline=OUTLINE, width=3)
        return
    if last["kind"] != "push":
        return
    df, dr = DIRECTIONS[last["direction"]]
    sx, sy = _centre(last["square"])
    ux, uy = df * CELL, -dr * CELL
    # the new tile's slide: from its entry square onto the first square of the run
    _arrow(canvas, (sx + ux * 0.1, sy + uy * 0.1), (sx + ux * 0.78, sy + uy * 0.78), colour)
    # the run slid one square on: a thinner arrow along it, past the edge if a tile fell off
    run = last["run"]
    if len(run) >= 1:
        ex, ey = _centre(run[-1])
        reach = 0.62 if last.get("ejected") else 0.7
        _arrow(canvas, (sx + ux * 1.25, sy + uy * 1.25), (ex + ux * reach, ey + uy * reach),
               mix(colour, (255, 255, 255), 0.4), width=4, head=16)


def _header(canvas: Canvas, view: ConsequenceView, who, labels: ConsequenceLabels,
            mover: int | None) -> None:
    winners = set(view.outcome.winners) if view.outcome and not view.outcome.draw else set()
    for seat in (0, 1):
        left = seat == 0
        box = (12, 8, WIDTH / 2 - 6, 124) if left else (WIDTH / 2 + 6, 8, WIDTH - 12, 124)
        back = BACKGROUND
        if mover == seat or seat in winners:
            back = mix(BACKGROUND, SEAT_LINE[seat], 0.12)
            canvas.rounded_rectangle(box, radius=16, outline=SEAT_LINE[seat], width=4,
                                     fill=back)
        tile = TileView("B" if seat == 0 else "R", "M" if seat == 0 else "S")
        _tile(canvas, box[0] + 38, 46, 22, tile)
        room = box[2] - box[0] - 90
        name, name_size = fit_size(canvas, who[seat], (SMALL_BOLD + 2, SMALL_BOLD), True,
                                   room)
        canvas.text((box[0] + 72, 46), name, size=name_size, fg=TEXT, bg=back, bold=True)
        detail = labels.hand.format(n=view.hand_sizes[seat])
        if view.scores is not None:
            detail = f"{labels.points.format(n=view.scores[seat])} · {detail}"
        detail = fit_width(canvas, detail, SMALL, False, box[2] - box[0] - 32)
        canvas.text((box[0] + 16, 98), detail, size=SMALL, fg=TEXT if back != BACKGROUND
                    else MUTED, bg=back)


def _hand(canvas: Canvas, hand: tuple[str, ...], labels: ConsequenceLabels) -> None:
    canvas.text((GRID_LEFT - 12, HAND_TOP), labels.your_hand, size=SMALL, fg=MUTED,
                bg=BACKGROUND, bold=True)
    for i, kind in enumerate(hand):
        x = GRID_LEFT + HAND_TILE / 2 + i * (HAND_TILE + 10)
        _tile(canvas, x, HAND_TOP + 30 + HAND_TILE / 2, HAND_TILE / 2 - 4,
              TileView(kind[0], kind[1]))


def _footer(canvas: Canvas, view: ConsequenceView, who, labels: ConsequenceLabels,
            result: str | None, mover: int | None, last_move: bool,
            you: int | None = None) -> None:
    y = canvas.image.height - 120
    room = WIDTH - 48
    outcome = view.outcome
    if result is not None:
        status, colour = result, TEXT
    elif outcome is None:
        assert mover is not None
        if mover == you:
            template = labels.final_placements_you if view.phase == "final" \
                else labels.to_move_you
        else:
            template = labels.final_placements if view.phase == "final" else labels.to_move
        status, colour = template.format(name=who[mover]), SEAT_LINE[mover]
    elif outcome.ending == ConsequenceEnding.REPETITION:
        status, colour = labels.draw_repetition, TEXT
    else:
        a, b = view.scores if view.scores else (0, 0)
        if outcome.draw:
            status = labels.draw.format(a=a, b=b)
        elif outcome.ending == ConsequenceEnding.TIE_BREAK:
            w = outcome.winners[0]
            status = (labels.wins_tie_you if w == you else labels.wins_tie).format(name=who[w])
        else:
            w = outcome.winners[0]
            status = (labels.wins_you if w == you else labels.wins).format(
                name=who[w], a=max(a, b), b=min(a, b))
        colour = SEAT_LINE[outcome.winners[0]] if not outcome.draw else TEXT
    big = SMALL_BOLD + 4
    status, size = fit_size(canvas, status, (big, SMALL_BOLD), True, room, who)
    canvas.text((24, y), status, size=size,
                fg=readable(colour, BACKGROUND),
                bg=BACKGROUND, bold=True)
    last = view.last if last_move else None
    if last is not None:
        text = labels.last.format(name=who[last["seat"]], move=last["notation"])
        if last.get("ejected"):
            colour_name = labels.colour_names[0 if last["ejected"][0] == "B" else 1]
            ejected = labels.ejected_you if last["ejected_to"] == you else labels.ejected
            text += " · " + ejected.format(colour=colour_name, name=who[last["ejected_to"]])
        for row, line in enumerate(wrap_width(canvas, text, SMALL, False, room, 2, who)):
            canvas.text((24, y + 46 + 36 * row), line, size=SMALL, fg=MUTED, bg=BACKGROUND)


# the consequence kit names this module as its picture (games/consequence/__init__.py)
PICTURE = Picture(render_consequence, ConsequenceLabels,
                  seat_colour=lambda view, seat: SEAT_LINE[seat % len(SEAT_LINE)])
