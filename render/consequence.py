"""Consequence pictures, drawn only from a `ConsequenceView` (games.consequence.observe).

The public picture gets the public view, which carries no symbol before the final count, so it
cannot leak one: two positions that differ only in hidden symbols give identical PNG bytes
(tests/test_render.py checks this). A private picture adds the symbols its viewer knows and their
hand; the final picture shows every face, each scoring pair as a line in its player's colour,
and the tie-break line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from games.consequence import DIRECTIONS, FILES, SIZE, ConsequenceView, TileView

from .common import BACKGROUND, MUTED, TEXT, font, mix, paste_text, to_png, wrap

WIDTH = 760
CELL = 150
GRID_LEFT = 92
GRID_TOP = 128
GRID_SIZE = SIZE * CELL
HAND_TOP = GRID_TOP + GRID_SIZE + 84
HAND_TILE = 76
HEIGHT = HAND_TOP + HAND_TILE + 120
TILE_COLOURS = {"B": (52, 104, 200), "R": (204, 66, 58)}
SYMBOL_INK = (252, 244, 214)
SEAT_LINE = ((120, 190, 255), (255, 196, 70))  # moon player, sun player
BOARD = (70, 62, 54)
SQUARE = (122, 108, 92)
ACCENT = (250, 250, 250)


@dataclass(frozen=True)
class ConsequenceLabels:
    first: str = "Moon player"
    second: str = "Sun player"
    hand: str = "hand {n}"
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


def render_consequence(view: ConsequenceView, *, names: Sequence[str] | None = None,
                       labels: ConsequenceLabels = ConsequenceLabels()) -> bytes:
    image = _static_layer().copy()
    draw = ImageDraw.Draw(image)
    who = (list(names or ()) + [labels.first, labels.second][len(names or ()):])[:2]
    _header(image, draw, view, who, labels)
    for square, tile in enumerate(view.grid):
        if tile is not None:
            _tile(draw, *_centre(square), CELL * 0.38, tile)
    if view.scores is not None:
        for seat, a, b in view.pairs:
            draw.line((*_centre(a), *_centre(b)), fill=SEAT_LINE[seat], width=10)
        for seat, line in view.lines:
            (x0, y0), (x1, y1) = _centre(line[0]), _centre(line[-1])
            draw.line((x0, y0, x1, y1), fill=SEAT_LINE[seat], width=4)
            for square in line:
                x, y = _centre(square)
                draw.rounded_rectangle((x - CELL / 2 + 6, y - CELL / 2 + 6, x + CELL / 2 - 6,
                                        y + CELL / 2 - 6), radius=14, outline=SEAT_LINE[seat],
                                       width=5)
    if view.last is not None:
        _last(draw, view)
    if view.hand is not None:
        _hand(image, draw, view.hand, labels)
    _footer(image, view, who, labels)
    return to_png(image)


def _centre(square: int) -> tuple[float, float]:
    file, rank = square % SIZE, square // SIZE
    return GRID_LEFT + file * CELL + CELL / 2, GRID_TOP + (SIZE - 1 - rank) * CELL + CELL / 2


@lru_cache(maxsize=1)
def _static_layer() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((GRID_LEFT - 12, GRID_TOP - 12, GRID_LEFT + GRID_SIZE + 12,
                            GRID_TOP + GRID_SIZE + 12), radius=18, fill=BOARD)
    for square in range(SIZE * SIZE):
        x, y = _centre(square)
        draw.rounded_rectangle((x - CELL / 2 + 5, y - CELL / 2 + 5, x + CELL / 2 - 5,
                                y + CELL / 2 - 5), radius=12, fill=SQUARE)
    coord = font(26, bold=True)
    for i in range(SIZE):
        x = GRID_LEFT + i * CELL + CELL / 2
        draw.text((x, GRID_TOP + GRID_SIZE + 30), FILES[i], font=coord, fill=MUTED, anchor="mm")
        y = GRID_TOP + (SIZE - 1 - i) * CELL + CELL / 2
        draw.text((GRID_LEFT - 40, y), str(i + 1), font=coord, fill=MUTED, anchor="mm")
    return image


def _tile(draw: ImageDraw.ImageDraw, x: float, y: float, half: float, tile: TileView) -> None:
    colour = TILE_COLOURS[tile.colour]
    draw.rounded_rectangle((x - half, y - half, x + half, y + half), radius=half * 0.25,
                           fill=colour, outline=mix(colour, (0, 0, 0), 0.45), width=3)
    inner = half * 0.78
    draw.rounded_rectangle((x - inner, y - inner, x + inner, y + inner), radius=half * 0.18,
                           outline=mix(colour, (255, 255, 255), 0.25), width=2)
    if tile.symbol is not None:
        _symbol(draw, x, y, half * 0.55, tile.symbol, colour)


def _symbol(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, symbol: str,
            back: tuple[int, int, int]) -> None:
    if symbol == "M":  # a crescent: a disc with a disc of the back colour bitten out
        draw.ellipse((x - r, y - r, x + r, y + r), fill=SYMBOL_INK)
        off = r * 0.45
        draw.ellipse((x - r + off, y - r - off * 0.3, x + r + off, y + r - off * 0.3), fill=back)
    elif symbol == "S":  # a disc with eight rays
        for i in range(8):
            angle = i * math.pi / 4
            draw.line((x + math.cos(angle) * r * 0.55, y + math.sin(angle) * r * 0.55,
                       x + math.cos(angle) * r * 1.05, y + math.sin(angle) * r * 1.05),
                      fill=SYMBOL_INK, width=max(2, int(r * 0.16)))
        draw.ellipse((x - r * 0.5, y - r * 0.5, x + r * 0.5, y + r * 0.5), fill=SYMBOL_INK)
    else:  # a dot
        d = r * 0.3
        draw.ellipse((x - d, y - d, x + d, y + d), fill=SYMBOL_INK)


def _arrow(draw: ImageDraw.ImageDraw, start, end, colour, width: int = 7) -> None:
    (x0, y0), (x1, y1) = start, end
    draw.line((x0, y0, x1, y1), fill=colour, width=width)
    angle = math.atan2(y1 - y0, x1 - x0)
    size = 22
    left = (x1 - size * math.cos(angle - 0.45), y1 - size * math.sin(angle - 0.45))
    right = (x1 - size * math.cos(angle + 0.45), y1 - size * math.sin(angle + 0.45))
    draw.polygon(((x1, y1), left, right), fill=colour)


def _last(draw: ImageDraw.ImageDraw, view: ConsequenceView) -> None:
    last = view.last
    assert last is not None
    colour = SEAT_LINE[last["seat"]]
    if last["kind"] == "move":
        _arrow(draw, _centre(last["origin"]), _centre(last["target"]), colour)
        return
    square = last["square"]
    x, y = _centre(square)
    if last["kind"] == "place":
        draw.rounded_rectangle((x - CELL / 2 + 4, y - CELL / 2 + 4, x + CELL / 2 - 4,
                                y + CELL / 2 - 4), radius=14, outline=colour, width=6)
        return
    df, dr = DIRECTIONS[last["direction"]]
    run = last["run"]
    end_square = run[-1]
    ex, ey = _centre(end_square)
    tip = (ex + df * CELL * (0.75 if last.get("ejected") else 0.5) + df * CELL * 0.25,
           ey - dr * CELL * (0.75 if last.get("ejected") else 0.5) - dr * CELL * 0.25)
    _arrow(draw, (x, y), tip, colour)
    draw.ellipse((x - 12, y - 12, x + 12, y + 12), fill=colour)


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: ConsequenceView, who,
            labels: ConsequenceLabels) -> None:
    winners = set(view.outcome.winners) if view.outcome and not view.outcome.draw else set()
    for seat in (0, 1):
        left = seat == 0
        box = (16, 10, WIDTH / 2 - 8, 100) if left else (WIDTH / 2 + 8, 10, WIDTH - 16, 100)
        if view.to_move == seat or seat in winners:
            draw.rounded_rectangle(box, radius=16, outline=SEAT_LINE[seat], width=4,
                                   fill=mix(BACKGROUND, SEAT_LINE[seat], 0.12))
        tile = TileView("B" if seat == 0 else "R", "M" if seat == 0 else "S")
        _tile(draw, box[0] + 44, 55, 26, tile)
        paste_text(image, (box[0] + 84, 38), _fit(who[seat], 14), size=28, fill=TEXT, bold=True)
        detail = labels.hand.format(n=view.hand_sizes[seat])
        if view.scores is not None:
            detail = f"{view.scores[seat]} pts · {detail}"
        paste_text(image, (box[0] + 84, 76), detail, size=22, fill=MUTED)


def _hand(image: Image.Image, draw: ImageDraw.ImageDraw, hand: tuple[str, ...],
          labels: ConsequenceLabels) -> None:
    paste_text(image, (GRID_LEFT - 12, HAND_TOP - 12), labels.your_hand, size=22, fill=MUTED,
               bold=True)
    for i, kind in enumerate(hand):
        x = GRID_LEFT + HAND_TILE / 2 + i * (HAND_TILE + 10)
        _tile(draw, x, HAND_TOP + HAND_TILE / 2 + 8, HAND_TILE / 2 - 4, TileView(kind[0], kind[1]))


def _footer(image: Image.Image, view: ConsequenceView, who, labels: ConsequenceLabels) -> None:
    y = HEIGHT - 86
    outcome = view.outcome
    if outcome is None:
        assert view.to_move is not None
        template = labels.final_placements if view.phase == "final" else labels.to_move
        status, colour = template.format(name=who[view.to_move]), SEAT_LINE[view.to_move]
    elif outcome.reason.value == "repetition":
        status, colour = labels.draw_repetition, TEXT
    else:
        a, b = view.scores if view.scores else (0, 0)
        if outcome.draw:
            status = labels.draw.format(a=a, b=b)
        elif outcome.reason.value == "tie-break":
            status = labels.wins_tie.format(name=who[outcome.winners[0]])
        else:
            w = outcome.winners[0]
            status = labels.wins.format(name=who[w], a=max(a, b), b=min(a, b))
        colour = SEAT_LINE[outcome.winners[0]] if not outcome.draw else TEXT
    paste_text(image, (24, y), status, size=30, fill=colour, bold=True)
    last = view.last
    if last is not None:
        text = labels.last.format(name=who[last["seat"]], move=last["notation"])
        if last.get("ejected"):
            colour_name = labels.colour_names[0 if last["ejected"][0] == "B" else 1]
            text += " · " + labels.ejected.format(colour=colour_name,
                                                  name=who[last["ejected_to"]])
        for row, line in enumerate(wrap(text, 60)[:2]):
            paste_text(image, (24, y + 42 + 28 * row), line, size=21, fill=MUTED)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
