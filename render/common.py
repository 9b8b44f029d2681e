"""Shared drawing: a palette canvas, fonts (with a CJK fallback), labels, PNG encoding.

Every picture is drawn straight into a palette ("P") image: shapes take a palette index, and
text is pasted from cached stamps whose antialiasing is quantised into two in-between shades of
the text colour over its known background. Nothing is quantised afterwards, so colours are
exact, and the PNG holds one byte per pixel, which makes encoding several times cheaper than
for an RGB picture. Every label drawn is recorded as a `TextBox` (its ink box, the height of a
digit in its font, its colour and its background) so that tests can check legibility at phone
width and that no label overlaps another label or a marker.
"""

from __future__ import annotations

import dataclasses
import math
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, ImageChops, ImageDraw, ImageFont

from games.base import CONTEXT_SEPARATOR, translate_template

Rgb = tuple[int, int, int]

# Seat colours, in seat order; chosen to read on both Discord themes and for colour-blind eyes
# (amber / sky blue / vermilion / bluish green, after Okabe & Ito).
SEAT_COLOURS: tuple[Rgb, ...] = ((240, 180, 40), (86, 180, 233), (213, 94, 0), (0, 158, 115))
BACKGROUND: Rgb = (43, 45, 49)
TEXT: Rgb = (236, 237, 240)
MUTED: Rgb = (178, 182, 190)  # 7:1 on BACKGROUND
DARK_INK: Rgb = (24, 22, 20)

# A phone shows the picture 360 px wide: a digit must be at least this tall there.
PHONE_WIDTH = 360
MIN_PHONE_PX = 9.0
# What a player reads rather than glances at (a caption to play by, a table's names and
# results) is set as a phone's body text, 16 CSS px, whose digits stand about 11.5 px tall:
# 11 px digits at phone width, in the CJK font too (whose digits are smaller).
BODY_PHONE_PX = 11.0

_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
)
# CJK-capable fonts, by the same kind of search: IPA P Gothic first (fonts-ipafont-gothic; its
# proportional kana and Latin take a fifth less room than the fixed-pitch IPAGothic's, which
# set running Japanese text as a monospaced grid and cut labels short), then IPAGothic, Noto CJK.
_CJK_FONTS = (
    Path("/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf"),
    Path("/usr/share/fonts/truetype/ipafont-gothic/ipagp.ttf"),
    Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"),
    Path("/usr/share/fonts/truetype/fonts-japanese-gothic.ttf"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/ipafont-gothic/ipag.ttf"),
    Path("/usr/local/share/fonts/ipag.ttf"),
)

FontT = ImageFont.ImageFont | ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> FontT:
    """DejaVu Sans if the system has it, else Pillow's bundled scalable font."""
    return _load_font(size, bold)


def _load_font(size: int, bold: bool) -> FontT:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _FONT_DIRS:
        path = folder / name
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=1)
def _cjk_path() -> Path | None:
    return next((path for path in _CJK_FONTS if path.exists()), None)


def cjk_font_available() -> bool:
    """True when a CJK-capable font (IPAGothic, Noto CJK) is installed."""
    return _cjk_path() is not None


@lru_cache(maxsize=32)
def cjk_font(size: int) -> FontT | None:
    path = _cjk_path()
    return None if path is None else ImageFont.truetype(str(path), size)


@lru_cache(maxsize=4096)
def has_cjk(text: str) -> bool:
    if text.isascii():
        return False
    return any(0x2E80 <= ord(ch) <= 0x9FFF or 0xF900 <= ord(ch) <= 0xFAFF
               or 0xFF00 <= ord(ch) <= 0xFFEF or 0xAC00 <= ord(ch) <= 0xD7AF for ch in text)


@lru_cache(maxsize=128)
def digit_height(size: int, bold: bool = False, cjk: bool = False) -> int:
    """How tall a digit is, in pixels, in the font a label of this size is drawn with."""
    face = (cjk_font(size) if cjk else None) or font(size, bold)
    _, top, _, bottom = face.getbbox("0", anchor="ls")
    return int(bottom - top)


@lru_cache(maxsize=64)
def min_size(width: int, bold: bool = False) -> int:
    """The smallest font size whose digits are 9 px tall once the picture is 360 px wide.

    Measured with fonts loaded for the occasion and let go (each renderer asks at import;
    keeping a face for every size tried cost every process ~15 MB)."""
    size = 8
    while True:
        _, top, _, bottom = _load_font(size, bold).getbbox("0", anchor="ls")
        if int(bottom - top) * PHONE_WIDTH / width >= MIN_PHONE_PX + 0.2:
            return size
        size += 1


def body_size(width: int, bold: bool = False) -> int:
    """The smallest font size whose digits are BODY_PHONE_PX tall at phone width, in both the
    Latin and the CJK font, for a picture `width` pixels wide."""
    size = min_size(width, bold)
    while min(digit_height(size, bold), digit_height(size, bold, True)) * PHONE_WIDTH / width \
            < BODY_PHONE_PX:
        size += 1
    return size


# -- colour ---------------------------------------------------------------------------------
# Pure functions of a few colours, asked again and again for the same ones (a board's fixed
# colours, its seats'): each kept once worked out.
@lru_cache(maxsize=1024)
def mix(colour: Rgb, other: Rgb, t: float) -> Rgb:
    r, g, b = (round(a + (z - a) * t) for a, z in zip(colour, other, strict=True))
    return r, g, b


@lru_cache(maxsize=1024)
def luminance(colour: Rgb) -> float:
    """WCAG relative luminance."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = colour
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Rgb, b: Rgb) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=256)
def readable(colour: Rgb, back: Rgb, ratio: float = 4.6) -> Rgb:
    """`colour`, lightened (on a dark back) or darkened (on a light one) just enough to reach
    the contrast ratio on `back`."""
    target = (255, 255, 255) if luminance(back) < 0.2 else (0, 0, 0)
    for step in range(21):
        candidate = mix(colour, target, step / 20)
        if contrast(candidate, back) >= ratio:
            return candidate
    return target


@lru_cache(maxsize=256)
def ink_on(back: Rgb, dark: Rgb = DARK_INK, light: Rgb = (250, 250, 250)) -> Rgb:
    """Dark or light text, whichever reads better on `back`."""
    return dark if contrast(dark, back) >= contrast(light, back) else light


# -- what a game's picture module declares ------------------------------------------------
@dataclass(frozen=True)
class Picture:
    """A game's picture: its module (named by the game's kit, `Kit.picture`) sets
    `PICTURE = Picture(draw, Labels)`, and `render_observation` finds it there."""

    # (observation, *, names, labels, result, layout, last_move=True) -> PNG bytes; last_move
    # False: the last move is not written under the board (it may still be marked on it)
    draw: Callable[..., bytes]
    # a dataclass whose defaults are every English word drawn (translated through `tr`, and
    # extracted for the catalogs: its name ends in "Labels")
    labels: type
    # (observation, seat) -> the colour the picture gives that seat (a board message's accent);
    # None: SEAT_COLOURS in seat order
    seat_colour: Callable[[Any, int], Rgb] | None = None

    def colour_of(self, observation: Any, seat: int) -> int:
        """The seat's colour as 0xRRGGBB, without drawing anything."""
        r, g, b = (self.seat_colour(observation, seat) if self.seat_colour is not None
                   else SEAT_COLOURS[seat % len(SEAT_COLOURS)])
        return (r << 16) | (g << 8) | b


# -- labels ---------------------------------------------------------------------------------
L = TypeVar("L")


def translated(cls: type[L], tr: Any) -> L:
    """A Labels dataclass with every default English string passed through `tr.gettext`.

    A Labels class may name a gettext context per field (`CONTEXTS = {"first": <context>}`, a
    ClassVar): that field is looked up with it first ("First player" is 先攻 in Pastoral
    Square and 先手 in Mancala), and as the bare message when the context has no translation
    of its own. The context's messages are marked for the catalogs with `NC_` in the picture's
    module."""
    if tr is None:
        return cls()
    return _translated(cls, tr)  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _translated(cls: Any, tr: Any) -> Any:
    contexts: dict[str, str] = getattr(cls, "CONTEXTS", {})
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        default = field.default
        context = contexts.get(field.name)

        def word(text: str, context: str | None = context) -> str:
            if context is None:
                return str(tr.gettext(text))
            return translate_template(f"{context}{CONTEXT_SEPARATOR}{text}", tr.gettext)

        if isinstance(default, str):
            values[field.name] = word(default)
        elif isinstance(default, tuple):
            values[field.name] = tuple(word(v) if isinstance(v, str) else v for v in default)
    return cls(**values)


# -- layout records ---------------------------------------------------------------------------
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TextBox:
    """One label as drawn: `box` is its ink (x0, y0, x1, y1) in picture pixels, `height` the
    height of a digit in its font, `fg` its colour and `bg` the colour it is drawn on."""

    text: str
    box: tuple[int, int, int, int]
    height: int
    fg: Rgb
    bg: Rgb


def overlaps(a: Box, b: Box, gap: float = 0) -> bool:
    return a[0] - gap < b[2] and b[0] - gap < a[2] and a[1] - gap < b[3] and b[1] - gap < a[3]


# -- seats told apart by shape ----------------------------------------------------------------
# Colour alone does not tell seats apart: through a deuteranope's or protanope's eyes ICO's red
# and green markers, or Ghostone's amber, vermilion and green pawns, are all olive, and a
# greyscale print makes Consequence's blue and red tiles one grey. So a seat's piece has an
# outline of its own too, the same in every game: seat 1 a disc, seat 2 a square, seat 3 a
# diamond, seat 4 a triangle (what tests/test_colour_vision.py checks through simulated colour
# vision). Each looks about as large as a disc of radius r, so no seat's pieces stand out.
SEAT_SHAPES = ("disc", "square", "diamond", "triangle")
# sizes in units of r: the square's half side, the diamond's half diagonal, the triangle's
# circumradius (a triangle as large as a disc, so that a number fits in it whole)
SQUARE_HALF = 0.9
DIAMOND_HALF = 1.12
TRIANGLE_R = 1.55


@dataclass(frozen=True)
class SeatMark:
    """A seat's piece as drawn: its seat, its centre, its size r and its fill colour."""

    seat: int
    x: float
    y: float
    r: float
    fill: Rgb


_seat_marks = threading.local()  # a list while `recording_seat_marks` runs in this thread


@contextmanager
def recording_seat_marks() -> Iterator[list[SeatMark]]:
    """Collects every `SeatMark` drawn in this thread meanwhile (what a test crops)."""
    outer = getattr(_seat_marks, "marks", None)
    marks: list[SeatMark] = []
    _seat_marks.marks = marks
    try:
        yield marks
    finally:
        _seat_marks.marks = outer


def seat_polygon(seat: int, x: float, y: float, r: float) -> list[tuple[float, float]] | None:
    """The outline of seat `seat`'s piece centred on (x, y), or None for the disc."""
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    if shape == "diamond":
        d = r * DIAMOND_HALF
        return [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
    if shape == "triangle":  # its box centred on (x, y): the centroid a quarter R below
        big = r * TRIANGLE_R
        top, base = y - big * 0.75, y + big * 0.75
        half = big * math.sqrt(3) / 2
        return [(x, top), (x + half, base), (x - half, base)]
    return None


def seat_extent(seat: int, x: float, y: float, r: float) -> Box:
    """The box seat `seat`'s piece of size r covers (labels keep clear of it)."""
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    if shape == "square":
        r = r * SQUARE_HALF
    points = seat_polygon(seat, x, y, r)
    if points is None:
        return x - r, y - r, x + r, y + r
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def seat_boxes(seat: int, x: float, y: float, r: float, bands: int = 4) -> list[Box]:
    """Boxes that together cover seat `seat`'s piece closely (a diamond or a triangle as a
    stack of horizontal bands): what labels keep clear of, no more (the box around a
    triangle would keep them off its empty top corners)."""
    points = seat_polygon(seat, x, y, r)
    if points is None:
        return [seat_extent(seat, x, y, r)]
    top, bottom = min(p[1] for p in points), max(p[1] for p in points)
    boxes = []
    for i in range(bands):
        y0, y1 = top + (bottom - top) * i / bands, top + (bottom - top) * (i + 1) / bands
        xs = [cx for edge_y in (y0, y1) for cx in _crossings(points, edge_y)]
        xs += [px for px, py in points if y0 <= py <= y1]
        boxes.append((min(xs), y0, max(xs), y1))
    return boxes


def _crossings(points: Sequence[tuple[float, float]], y: float) -> list[float]:
    """Where the horizontal line at y crosses a polygon's edges."""
    found = []
    for (ax, ay), (bx, by) in zip(points, [*points[1:], points[0]], strict=True):
        if min(ay, by) <= y <= max(ay, by) and ay != by:
            found.append(ax + (bx - ax) * (y - ay) / (by - ay))
    return found


def seat_text_centre(seat: int, x: float, y: float, r: float) -> tuple[float, float]:
    """Where a number on the piece goes: its centre, or just under a triangle's centroid
    (where it has room)."""
    if SEAT_SHAPES[seat % len(SEAT_SHAPES)] == "triangle":
        return x, y + r * (TRIANGLE_R * 0.25 + 0.08)
    return x, y


def seat_mark(canvas: Canvas, seat: int, x: float, y: float, r: float, fill: Rgb,
              outline: Rgb | None = None, width: int = 1, record: bool = True) -> Box:
    """Draw seat `seat`'s piece (its own shape, see SEAT_SHAPES) centred on (x, y); returns
    the box it covers. `record` False: a halo, not a piece (not given to
    `recording_seat_marks`)."""
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    box = seat_extent(seat, x, y, r)
    if shape == "disc":
        canvas.circle(x, y, r, fill=fill, outline=outline, width=width)
    elif shape == "square":
        canvas.rounded_rectangle(box, radius=max(2.0, r * 0.22), fill=fill, outline=outline,
                                 width=width)
    else:
        points = seat_polygon(seat, x, y, r)
        canvas.polygon(points, fill=fill, outline=outline, width=width)
    if record:
        note_seat_mark(SeatMark(seat, x, y, r, fill))
    return box


def note_seat_mark(mark: SeatMark) -> None:
    """Tell `recording_seat_marks` of a seat's piece drawn otherwise than by `seat_mark` (a
    Consequence tile)."""
    marks = getattr(_seat_marks, "marks", None)
    if marks is not None:
        marks.append(mark)


# -- the canvas -------------------------------------------------------------------------------
SHADES = (0.34, 0.67)  # antialiasing: two shades between background and text colour
_CUTS = (48, 128, 200)  # coverage levels: below the first is background
# labels kept drawn, per process: the digits, coordinates and words every board repeats fit
# many times over; players' names change with every match, so a larger cache only holds
# names of matches long gone. Each label kept costs ~40 KB (its stamp, levels, mask, painted
# image and words) in every picture worker: 768 labels grew a worker by ~70 MB after a few
# thousand matches' boards, 256 by ~25 MB, with no change in the boards per second drawn
# for 100 matches at once (bench/load.py)
STAMPS = 256


class Canvas:
    """A palette image with colours given as RGB, and every label recorded."""

    def __init__(self, size: tuple[int, int], background: Rgb):
        self.colours: list[Rgb] = [background]
        self.index: dict[Rgb, int] = {background: 0}
        # the PNG's scanlines the image draws into (see `_map_scanlines`); read them only
        self.rows, self._image = _scanline_image(size)
        self._draw = ImageDraw.Draw(self._image)
        self.boxes: list[TextBox] = []
        self.markers: list[Box] = []  # what labels must keep clear of (tests check it)
        self._version = 0  # counts the times the image was handed out to be drawn on
        self._base: Canvas | None = None  # the canvas this one is a clone of
        self._keys: tuple[int, list[tuple[int, int]]] | None = None  # (version, band keys)

    @property
    def image(self) -> Image.Image:
        """The picture; whoever takes it may draw on it."""
        self._version += 1
        return self._image

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        self._version += 1
        return self._draw

    @property
    def width(self) -> int:
        return self._image.width

    def clone(self) -> Canvas:
        """A copy to draw one picture on (a cached base layer stays untouched)."""
        other: Canvas = Canvas.__new__(Canvas)  # (annotated: its private parts are ours)
        other.colours = list(self.colours)
        other.index = dict(self.index)
        if self.rows is None:
            other.rows, other._image = None, self._image.copy()
        else:
            other.rows = bytearray(self.rows)
            other._image = _map_scanlines(self._image.size, other.rows)
        other._draw = ImageDraw.Draw(other._image)
        other.boxes = list(self.boxes)
        other.markers = list(self.markers)
        other._version, other._base, other._keys = 0, self, None
        return other

    def ink(self, colour: Rgb) -> int:
        found = self.index.get(colour)
        if found is not None:
            return found
        if len(self.colours) >= 256:
            raise ValueError("a picture may use at most 256 colours")
        self.index[colour] = len(self.colours)
        self.colours.append(colour)
        return self.index[colour]

    def _opt(self, colour: Rgb | None) -> int | None:
        return None if colour is None else self.ink(colour)

    # shapes: the ImageDraw calls, with RGB colours
    def rectangle(self, xy: Any, fill: Rgb | None = None, outline: Rgb | None = None,
                  width: int = 1) -> None:
        self.draw.rectangle(xy, fill=self._opt(fill), outline=self._opt(outline), width=width)

    def rounded_rectangle(self, xy: Any, radius: float, fill: Rgb | None = None,
                          outline: Rgb | None = None, width: int = 1) -> None:
        fill_ink, outline_ink = self._opt(fill), self._opt(outline)
        placed = _rounded_piece(xy, radius, fill_ink, outline_ink, width)
        if placed is None:
            self.draw.rounded_rectangle(xy, radius=radius, fill=fill_ink, outline=outline_ink,
                                        width=width)
        else:
            (painted, mask), corner = placed
            self.image.paste(painted, corner, mask)

    def ellipse(self, xy: Any, fill: Rgb | None = None, outline: Rgb | None = None,
                width: int = 1) -> None:
        self.draw.ellipse(xy, fill=self._opt(fill), outline=self._opt(outline), width=width)

    def circle(self, x: float, y: float, r: float, fill: Rgb | None = None,
               outline: Rgb | None = None, width: int = 1) -> None:
        self.ellipse((x - r, y - r, x + r, y + r), fill, outline, width)

    def polygon(self, xy: Any, fill: Rgb | None = None, outline: Rgb | None = None,
                width: int = 1) -> None:
        self.draw.polygon(xy, fill=self._opt(fill), outline=self._opt(outline), width=width)

    def line(self, xy: Any, fill: Rgb, width: int = 1, joint: str | None = None) -> None:
        self.draw.line(xy, fill=self.ink(fill), width=width, joint=joint)

    def pieslice(self, xy: Any, start: float, end: float, fill: Rgb) -> None:
        self.draw.pieslice(xy, start, end, fill=self.ink(fill))

    def marker(self, box: Box) -> None:
        """Record a marker's box: labels placed later keep clear of it."""
        self.markers.append(box)

    # text
    def measure(self, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        """Ink width and digit height of a label (from the font's layout alone: measuring a
        line to wrap or cut it draws no glyphs, which cost most of a board before)."""
        return _ink_width(text, size, bold), digit_height(size, bold,
                                                          has_cjk(text) and cjk_font_available())

    def text(self, xy: tuple[float, float], text: str, *, size: int, fg: Rgb, bg: Rgb,
             bold: bool = False, align: str = "left",
             halo: bool = False, record: bool = True) -> tuple[int, int, int, int]:
        """Draw a label on a plain `bg` area: its digits centred vertically on y, its left,
        centre or right edge on x. Returns (and records) its ink box. `halo` first paints the
        box (and 3 px around) in `bg`, hiding lines that pass under the label."""
        stamp = _stamp(text, size, bold)
        x, y = xy
        digit = stamp.digit
        width = stamp.width
        left = round(x if align == "left" else x - width / 2 if align == "centre"
                     else x - _right(align, width))
        top = round(y + digit / 2) + stamp.top
        box = (left, top, left + width, top + stamp.height)
        if halo:
            self.rectangle((left - 3, top - 3, left + width + 3, top + stamp.height + 3),
                           fill=bg)
        if width and stamp.height:
            shade, deeper = _shades(bg, fg)
            inks = (self.ink(shade), self.ink(deeper), self.ink(fg))
            self.image.paste(_painted(text, size, bold, inks), (left, top), stamp.mask)
        if record:
            self.boxes.append(TextBox(text, box, digit, fg, bg))
        return box

    def text_box(self, xy: tuple[float, float], text: str, *, size: int, bold: bool = False,
                 align: str = "left") -> tuple[int, int, int, int]:
        """The ink box `text` would get, without drawing it."""
        stamp = _stamp(text, size, bold)
        x, y = xy
        baseline = round(y + stamp.digit / 2)
        left = round(x if align == "left" else x - stamp.width / 2 if align == "centre"
                     else x - _right(align, stamp.width))
        top = baseline + stamp.top
        return left, top, left + stamp.width, top + stamp.height

    def free(self, box: Box, gap: float = 3) -> bool:
        """Whether a box keeps clear of every label and marker drawn so far."""
        return not any(overlaps(box, other.box, gap) for other in self.boxes) and \
            not any(overlaps(box, other, gap) for other in self.markers)

    def rgb(self, layout: list[TextBox] | None = None) -> Image.Image:
        """The picture as an RGB image, for one that other pictures are pasted into (the
        analysis picture's boards): no PNG encoded and decoded on the way."""
        if layout is not None:
            layout.extend(self.boxes)
        image = self._image.copy()
        image.putpalette([channel for colour in self.colours for channel in colour])
        return image.convert("RGB")

    def png(self, layout: list[TextBox] | None = None) -> bytes:
        if layout is not None:
            layout.extend(self.boxes)
        if self.rows is None:
            return encode_png(self._image, self.colours)
        width, height = self._image.size
        if self._base is None or self._base.rows is None:
            return _encode_scanlines(self.rows, width, height, self.colours)
        base: Canvas = self._base  # a canvas's private parts are its class's to read
        return _encode_scanlines(self.rows, width, height, self.colours, base.rows,
                                 base._band_keys())

    def _band_keys(self) -> list[tuple[int, int]]:
        """The cache keys of this canvas's bands as they are now (kept while its image is not
        handed out again: a base layer's, for the bands its clones left as they were)."""
        keys = self._keys
        if keys is None or keys[0] != self._version:
            assert self.rows is not None
            width, height = self._image.size
            end = (width + 1) * height
            view = memoryview(self.rows)
            bands = [bytes(view[start:min(start + (width + 1) * BAND_ROWS, end)])
                     for start in range(0, end, (width + 1) * BAND_ROWS)]
            keys = self._keys = (self._version, [(hash(band), len(band)) for band in bands])
        return keys[1]


# A canvas draws straight into the bytes of its PNG's scanlines: a bytearray holding each row
# behind its filter byte 0 (no filter), which Pillow maps as the image's pixels (a row every
# width + 1 bytes, starting one byte in). Encoding then reads the bands from it as they are,
# instead of copying the picture into a framed image and that image into bytes (an 800 KB
# copy and allocation each for a board: a fifth of the encoding, up to half when the memory
# came fresh from the system and was faulted in page by page). Pillow maps such a buffer
# read-only and would copy the image on the first drawing; the image is marked writable, as
# the buffer is. Checked once per process; if Pillow does not draw into the buffer, a canvas
# is a plain image and is framed as before.
def _map_scanlines(size: tuple[int, int], rows: bytearray) -> Image.Image:
    width, height = size
    data: Any = memoryview(rows)[1:]  # any buffer (Pillow's hint names bytes only)
    image = Image.frombuffer("P", size, data, "raw", "P", width + 1, 1)
    image.readonly = 0
    return image


@lru_cache(maxsize=1)
def _scanlines_work() -> bool:
    try:
        rows = bytearray(3 * 2 + 1)
        image = _map_scanlines((2, 2), rows)
        ImageDraw.Draw(image).point((1, 1), fill=7)
        image.paste(5, (0, 0, 1, 1))
        return bytes(rows) == b"\x00\x05\x00\x00\x00\x07\x00"
    except (ValueError, TypeError, AttributeError):
        return False


def _scanline_image(size: tuple[int, int]) -> tuple[bytearray | None, Image.Image]:
    """A new image of `size`, all index 0, and the scanlines it draws into (None when the
    image is a plain one)."""
    if not _scanlines_work():
        return None, Image.new("P", size, 0)
    width, height = size
    rows = bytearray((width + 1) * height + 1)  # one byte more: the mapping's last row ends
    return rows, _map_scanlines(size, rows)     # a byte past the scanlines


def _right(align: str, width: int) -> int:
    if align != "right":
        raise KeyError(align)
    return width


@dataclass(frozen=True)
class _Stamp:
    levels: bytes  # a byte a pixel, row by row: 0 = background, 1-2 = the shades, 3 = the text
    mask: Image.Image  # "1": set where the label paints
    top: int  # of the ink, relative to the baseline
    width: int
    height: int
    digit: int  # the height of a digit in the label's font


# A label is laid out word by word: each word is drawn once per process and cached, and a new
# label (a player's name in "Alice to move", a move's trail) is put together from words met
# before instead of being drawn whole, which cost half a board's time. A word starts at its
# pen position rounded to the pixel, so a word looks the same wherever it stands.
def _face(size: int, bold: bool, cjk: bool) -> tuple[FontT, int]:
    """The font and its stroke: a label with CJK text uses the CJK font for all its words.
    The CJK fonts have no bold, and faking one by a stroke fills the counters of dense kanji
    (賽, 準備 smudged to blots at phone width): a bold CJK label is drawn regular, and stands
    out by its size and colour as the headers do."""
    if cjk:
        face = cjk_font(size)
        if face is not None:
            return face, 0
    return font(size, bold), 0


@lru_cache(maxsize=4 * STAMPS)
def _word_box(word: str, size: int, bold: bool, cjk: bool) -> tuple[int, int, int, int]:
    face, stroke = _face(size, bold, cjk)
    left, top, right, bottom = face.getbbox(word, anchor="ls", stroke_width=stroke)
    return int(left), int(top), int(right), int(bottom)


@lru_cache(maxsize=4 * STAMPS)
def _advance(word: str, size: int, bold: bool, cjk: bool) -> float:
    return float(_face(size, bold, cjk)[0].getlength(word))


@lru_cache(maxsize=4 * STAMPS)
def _word_coverage(word: str, size: int, bold: bool, cjk: bool) -> Image.Image:
    face, stroke = _face(size, bold, cjk)
    left, top, right, bottom = _word_box(word, size, bold, cjk)
    coverage = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(coverage).text((-left, -top), word, font=face, fill=255, anchor="ls",
                                  stroke_width=stroke, stroke_fill=255)
    return coverage


Placed = tuple[tuple[int, str], ...]


@lru_cache(maxsize=4 * STAMPS)
def _layout(text: str, size: int, bold: bool) -> tuple[Placed, tuple[int, int, int, int], bool]:
    """Where each word goes (its pen x), the label's ink box from the baseline's start, and
    whether it takes the CJK font."""
    cjk = has_cjk(text) and cjk_font_available()
    pieces = text.split(" ")
    placed: list[tuple[int, str]] = []
    x = 0.0
    box = [0, 0, 0, 0]
    for i, piece in enumerate(pieces):
        if i:
            x += _advance(" ", size, bold, cjk)
        if not piece:
            continue
        pen = round(x)
        left, top, right, bottom = _word_box(piece, size, bold, cjk)
        if not placed:
            box = [pen + left, top, pen + right, bottom]
        else:
            box = [min(box[0], pen + left), min(box[1], top), max(box[2], pen + right),
                   max(box[3], bottom)]
        placed.append((pen, piece))
        x += _advance(piece, size, bold, cjk)
    return tuple(placed), (box[0], box[1], box[2], box[3]), cjk


def _ink_width(text: str, size: int, bold: bool) -> int:
    """A label's ink width, equal to its stamp's (the same layout), without drawing it."""
    left, _, right, _ = _layout(text, size, bold)[1]
    return right - left


@lru_cache(maxsize=STAMPS)
def _stamp(text: str, size: int, bold: bool) -> _Stamp:
    placed, (left, top, right, bottom), cjk = _layout(text, size, bold)
    width, height = right - left, bottom - top
    coverage = Image.new("L", (max(1, width), max(1, height)), 0)
    reach = -1  # the right edge of the words pasted so far: to its right the area is blank
    for pen, word in placed:
        word_left, word_top, _, _ = _word_box(word, size, bold, cjk)
        ink = _word_coverage(word, size, bold, cjk)
        x, y = pen + word_left - left, word_top - top
        if x >= reach:
            coverage.paste(ink, (x, y))  # on blank pixels: the same as the lighter of the two
        else:  # the word's ink may cross the one before: keep the more covered of each pixel
            area = (x, y, x + ink.width, y + ink.height)
            coverage.paste(ImageChops.lighter(coverage.crop(area), ink), area)
        reach = max(reach, x + ink.width)
    levels = coverage.tobytes().translate(_LEVEL_OF)
    # "1;8" reads a byte a pixel, set where it is not 0: where the level is 1 or more
    mask = Image.frombytes("1", coverage.size, levels, "raw", "1;8")
    return _Stamp(levels, mask, top, width, height, digit_height(size, bold, cjk))


_LEVEL_OF = bytes(0 if v < _CUTS[0] else 1 if v < _CUTS[1] else 2 if v < _CUTS[2] else 3
                  for v in range(256))


@lru_cache(maxsize=512)
def _shades(bg: Rgb, fg: Rgb) -> tuple[Rgb, ...]:
    return tuple(mix(bg, fg, t) for t in SHADES)


@lru_cache(maxsize=STAMPS)
def _painted(text: str, size: int, bold: bool, inks: tuple[int, ...]) -> Image.Image:
    """A label's stamp with its coverage levels turned into palette indices."""
    stamp = _stamp(text, size, bold)
    table = bytes((0, *inks)) + bytes(252)
    return Image.frombytes("P", stamp.mask.size, stamp.levels.translate(table))


def wrap_to(text: str, fits: Any) -> list[str]:
    """Greedy word wrap: `fits(line)` tells whether a line fits. Each line takes the most
    words that fit, found by bisection: a line's width grows with its words, so this is the
    greedy wrap with a few measurements instead of one per word. A word too long for a line
    of its own (Japanese runs a sentence together without spaces) is broken between
    characters, so no part of it is lost."""
    words = text.split(" ")
    while len(words) > 1 and not words[0]:
        del words[0]  # leading spaces
    lines: list[str] = []
    prefix = ""
    while words:
        head, rest = prefix, words
        taken = _most(lambda n: fits(head + " ".join(rest[:n])), len(words))  # noqa: B023
        if taken == 0:  # the first word alone is too long: break it between characters
            word = words[0]
            cut = max(1, _most(lambda n: fits(head + word[:n]), len(word)))  # noqa: B023
            lines.append(prefix + word[:cut])
            words[0] = word[cut:]
            if not words[0]:
                del words[0]
        else:
            lines.append(prefix + " ".join(words[:taken]))
            words = words[taken:]
        prefix = "  "
    return lines


def _most(fits: Callable[[int], bool], most: int) -> int:
    """The largest n in 0..most with fits(n), for a fits that holds up to some n and no
    further (n = 0 is taken to fit)."""
    if fits(most):
        return most
    low, high, best = 1, most - 1, 0
    while low <= high:
        middle = (low + high) // 2
        if fits(middle):
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return best


def fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shorten(name: str, keep: int) -> str:
    """A player's name cut to its first `keep` characters and an ellipsis (whole if short)."""
    return name if len(name) <= keep else name[:keep].rstrip() + "…"


def fit_width(canvas: Canvas, text: str, size: int, bold: bool, width: float,
              names: Sequence[str] = ()) -> str:
    """`text`, made at most `width` pixels wide. The players' `names` found in it are
    shortened first, all to the same length, so that a sentence keeps its own words ("… wins
    5-2") and only a long name gives way; only when the names are down to a character each is
    the text itself cut with an ellipsis."""
    def fits(line: str) -> bool:
        return canvas.measure(line, size, bold)[0] <= width

    if fits(text):
        return text
    present = sorted({n for n in names if n and n in text}, key=len, reverse=True)
    if present:
        def shortened(keep: int) -> str:
            line = text
            for name in present:  # the longest first: a name inside another is left alone
                line = line.replace(name, shorten(name, keep))
            return line
        keep = _most(lambda n: fits(shortened(n)), len(present[0]))
        if keep:
            return shortened(keep)
        text = shortened(1)
    # the longest start (at least one character) that fits with the ellipsis
    keep = max(1, _most(lambda n: fits(text[:n] + "…"), len(text) - 1))
    return text[:keep].rstrip() + "…"


def wrap_width(canvas: Canvas, text: str, size: int, bold: bool, width: float, rows: int,
               names: Sequence[str] = ()) -> list[str]:
    """`text` wrapped to at most `rows` lines of `width` pixels, the players' `names` in it
    shortened (as `fit_width` does) until it takes no more; the last line is cut only if
    even one-letter names leave too much."""
    def fits(line: str) -> bool:
        return canvas.measure(line, size, bold)[0] <= width

    lines = wrap_to(text, fits)
    if len(lines) <= rows:
        return lines
    present = sorted({n for n in names if n and n in text}, key=len, reverse=True)

    def shortened(keep: int) -> str:
        line = text
        for name in present:
            line = line.replace(name, shorten(name, keep))
        return line

    if present:
        keep = _most(lambda n: len(wrap_to(shortened(n), fits)) <= rows, len(present[0]))
        lines = wrap_to(shortened(max(1, keep)), fits)
    if len(lines) > rows:
        lines = lines[:rows - 1] + [fit_width(canvas, " ".join(x.strip() for x in lines[rows - 1:]),
                                              size, bold, width)]
    return lines


def fit_size(canvas: Canvas, text: str, sizes: Sequence[int], bold: bool,
             width: float, names: Sequence[str] = ()) -> tuple[str, int]:
    """A label to be read whole (a seat's title, the status line): the largest of `sizes`
    (largest first; the last one still legible at phone width) at which it fits; at the
    smallest, `fit_width` shortens the players' names in it, then the label itself."""
    for size in sizes:
        if canvas.measure(text, size, bold)[0] <= width:
            return text, size
    return fit_width(canvas, text, sizes[-1], bold, width, names), sizes[-1]


# -- pieces drawn once ------------------------------------------------------------------------
# A small rounded rectangle (a count's chip, a label's pill, a tile) costs Pillow a dozen
# drawing calls, and the same one comes back board after board: it is drawn once per process
# and pasted after. Pillow rounds the box's corners to whole pixels first and draws the
# rest from them and from the corner's diameter, so the pixels depend only on the rounded
# box's size, the diameter, the width and the inks: the piece is drawn at (0, 0) with the same
# diameter and pasted at the rounded corner, the same pixels as drawing it there. Boxes where
# Pillow would draw from the unrounded box (a circle, no curve at all), a diameter it would
# change, an outline wider than half the box, a corner off the picture's top or left, and
# large boxes (pasting costs as much as drawing) are drawn directly.
PIECE_AREA = 20_000  # pixels of the largest piece kept
PIECE_BYTES = 1 << 20  # bytes of pieces kept per process (two a pixel, and 1 KB each)
Piece = tuple[Image.Image, Image.Image]  # the piece in palette indices ("P"), its mask ("1")


class _Pieces:
    """Pieces by key, least recently used dropped first once their bytes pass `budget`."""

    def __init__(self, budget: int):
        self.budget = budget
        self.used = 0
        self.items: OrderedDict[Any, Piece] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Any) -> Piece | None:
        with self.lock:
            piece = self.items.get(key)
            if piece is None:
                self.misses += 1
            else:
                self.hits += 1
                self.items.move_to_end(key)
            return piece

    def put(self, key: Any, piece: Piece) -> None:
        with self.lock:
            if key in self.items:
                return
            self.items[key] = piece
            self.used += _piece_bytes(piece)
            while self.used > self.budget and self.items:
                self.used -= _piece_bytes(self.items.popitem(last=False)[1])

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.used = self.hits = self.misses = 0


def _piece_bytes(piece: Piece) -> int:
    return 2 * piece[0].width * piece[0].height + 1024  # the images' pixels and objects


_pieces = _Pieces(PIECE_BYTES)


def _rounded_piece(xy: Any, radius: float, fill: int | None, outline: int | None,
                   width: int) -> tuple[Piece, tuple[int, int]] | None:
    """The piece for `Canvas.rounded_rectangle` and where it goes, or None: draw it."""
    if len(xy) != 4 or (fill is None and outline is None):
        return None
    x0, y0, x1, y1 = xy
    if x1 < x0 or y1 < y0:
        return None
    d = min(x1 - x0, y1 - y0, radius * 2)  # as Pillow does
    left, top = round(x0), round(y0)
    w, h = round(x1) - left, round(y1) - top
    if left < 0 or top < 0 or not 0 < d <= min(w, h) or 2 * width > min(w, h) or \
            (w + 1) * (h + 1) > PIECE_AREA:
        return None  # (an outline wider than half the box reaches out of it)
    full_x = d >= w - 1
    if full_x and (w >= h - 1):
        return None  # Pillow draws an ellipse in the unrounded box
    key = ("rounded", w, h, d, fill, outline, width)
    piece = _pieces.get(key)
    if piece is None:
        # slot 1 the fill, 2 the outline (1 too when it is the fill: Pillow then skips it)
        second = 1 if outline == fill else 2
        levels = Image.new("L", (w + 1, h + 1), 0)
        try:
            ImageDraw.Draw(levels).rounded_rectangle(
                (0, 0, w, h), radius=d / 2, fill=None if fill is None else 1,
                outline=None if outline is None else second, width=width)
        except ValueError:  # a box Pillow refuses midway: let it draw (and refuse) directly
            return None
        slots = levels.tobytes()
        table = bytes((0, fill or 0, (fill if second == 1 else outline) or 0)) + bytes(253)
        piece = (Image.frombytes("P", levels.size, slots.translate(table)),
                 Image.frombytes("1", levels.size, slots, "raw", "1;8"))
        _pieces.put(key, piece)
    return piece, (left, top)


# -- PNG ----------------------------------------------------------------------------------------
PNG_ZLIB_LEVEL = 1
BAND_ROWS = 16  # rows per separately compressed band
BANDS = 1024  # compressed bands kept per process (~3 KB each)
_bands: OrderedDict[tuple[int, int], tuple[bytes, int]] = OrderedDict()
_bands_lock = threading.Lock()


def encode_png(image: Image.Image, palette: Sequence[Rgb]) -> bytes:
    """Encode a palette image as PNG: no row filter (flat colours, one byte a pixel), fast
    zlib with run-length strategy, which suits large flat areas.

    The image data is deflated in bands of 16 rows, each on its own (ending on a byte
    boundary with a sync flush) so that a band can be reused: about half the bands of a board
    (background, frames, names, pieces that did not move) are the same bytes as in a picture
    drawn before, and their compressed form is taken from a cache keyed by the band's hash
    and length (a 64-bit keyed hash: a collision is not a practical concern). This halves the
    encoding, and the file is no larger than one stream."""
    width, height = image.size
    # each row behind a filter byte 0 (none): the picture pasted one pixel right of a column
    # of index 0, so that its bytes are the PNG's scanlines as they are
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(image, (1, 0))
    return _encode_scanlines(framed.tobytes(), width, height, palette)


def _encode_scanlines(rows: bytes | bytearray, width: int, height: int,
                      palette: Sequence[Rgb], base_rows: bytearray | None = None,
                      base_keys: list[tuple[int, int]] | None = None) -> bytes:
    """The PNG of a palette picture given as its scanlines (each row behind a byte 0).

    A band that is the same as the base layer's (`base_rows`, whose bands' keys are
    `base_keys`) is found in the cache by the base's key: comparing the two bands' bytes costs
    a tenth of hashing one, and a third of a board's bands are left as the base drew them."""
    stride = (width + 1) * BAND_ROWS
    end = (width + 1) * height
    view = memoryview(rows)
    base = memoryview(base_rows) if base_rows is not None else None
    parts = [b"\x78\x01"]  # a zlib header: deflate, 32 KB window, fastest
    checksum = 1  # the Adler-32 of nothing
    for index, start in enumerate(range(0, end, stride)):
        stop = min(start + stride, end)
        band: bytes | None
        # (startswith compares in place, where slicing would copy both bands first)
        if base_keys is not None and base is not None and \
                rows.startswith(base[start:stop], start):
            band, key = None, base_keys[index]
        else:
            band = bytes(view[start:stop])
            key = (hash(band), stop - start)
        with _bands_lock:
            cached = _bands.get(key)
            if cached is not None:
                _bands.move_to_end(key)
        if cached is None:
            if band is None:
                band = bytes(view[start:stop])
            compressor = zlib.compressobj(PNG_ZLIB_LEVEL, zlib.DEFLATED, -15, 9, zlib.Z_RLE)
            cached = (compressor.compress(band) + compressor.flush(zlib.Z_SYNC_FLUSH),
                      zlib.adler32(band))
            with _bands_lock:
                _bands[key] = cached
                if len(_bands) > BANDS:
                    _bands.popitem(last=False)
        parts.append(cached[0])
        checksum = _adler32_combine(checksum, cached[1], stop - start)
    parts.append(b"\x03\x00")  # an empty final block
    parts.append(struct.pack(">I", checksum))
    data = b"".join(parts)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette
    plte = b"".join(bytes(c) for c in palette)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"PLTE", plte)
            + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))


def _adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of A + B from those of A and B and B's length (zlib's
    adler32_combine): a reused band's checksum is cached with it, so a picture's bytes are
    not summed again."""
    base = 65521
    rem = second_length % base
    low = first & 0xFFFF
    high = (rem * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - rem) % base
    return low | (high << 16)


def to_png(image: Image.Image) -> bytes:
    """Encode an RGB image as PNG (truecolour, no row filter); kept for callers that have
    an RGB image. Boards use `Canvas.png`."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    raw = rgb.tobytes()
    stride = width * 3
    rows = b"\x00" + b"\x00".join(raw[i:i + stride] for i in range(0, len(raw), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows, 2)) + _chunk(b"IEND", b""))


def _chunk(tag: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(tag + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


# -- a status that may take two lines ---------------------------------------------------------
def status_lines(canvas: Canvas, status: str, sizes: Sequence[int], names: Sequence[str],
                 width: float) -> tuple[list[str], int]:
    """A status or result sentence as drawn: one line at the largest of `sizes` (bold) it
    fits; else two lines at the smallest. A result such as 「…が大三角形とその正反対の大三角形を
    完成させました」 or "Alice's stock could not cover the pick-up: Bob wins" is wider than a
    board: cut to one line it kept one letter of each name and lost the end of the sentence.
    On two lines the players' `names` in it are shortened only as far as the two lines need,
    the longest name first and each as little as it can; only a sentence too long for two
    lines even so has its end cut."""
    for size in sizes:
        if canvas.measure(status, size, True)[0] <= width:
            return [status], size
    size = sizes[-1]

    def fits(line: str) -> bool:
        return canvas.measure(line, size, True)[0] <= width

    present = sorted({n for n in names if n and n in status}, key=len, reverse=True)

    def two(keeps: Sequence[int | None]) -> list[str] | None:
        text, shown = status, []
        for name, keep in zip(present, keeps, strict=True):  # longest first: a name inside
            short = name if keep is None else shorten(name, keep)  # another is left alone
            text = text.replace(name, short)
            shown.append(short)
        first, rest = _first_line(text, fits, fits, shown)
        return [first, rest] if first and fits(rest) else None

    lines = two([None] * len(present))
    if lines is None and present:
        # every name cut to the same length, as long as two lines allow; then each name, the
        # longest first, given back what still fits
        keep = _largest(lambda n: two([n + 1] * len(present)) is not None,
                        len(present[0]) - 1)
        if keep is not None:
            keeps: list[int | None] = [keep + 1] * len(present)
            for index, name in enumerate(present):
                def grown(n: int, index: int = index) -> list[str] | None:
                    return two([*keeps[:index], n, *keeps[index + 1:]])
                more = _largest(lambda n: grown(keep + 1 + n) is not None,
                                len(name) - keep - 1)
                keeps[index] = keep + 1 + (more or 0)
            lines = two(keeps)
    if lines is None:
        text = status
        for name in present:
            text = text.replace(name, shorten(name, 1))
        first, rest = _first_line(text, fits)
        lines = [first, fit_width(canvas, rest, size, True, width)]
    return lines, size


def _first_line(text: str, fits: Callable[[str], bool],
                rest_fits: Callable[[str], bool] | None = None,
                names: Sequence[str] = ()) -> tuple[str, str]:
    """The longest first line that fits, ended at a space or between two characters of which
    one is Japanese (a sentence without spaces may break anywhere), and the rest. Given
    `rest_fits`, a break just after a Japanese particle (を, が...) a little further back is
    taken instead if the rest still fits: 「…大三角形を／完成させました」, not
    「…を完／成させました」. A name is never broken."""
    inside = {i for name in names for start in _starts(text, name)
              for i in range(start + 1, start + len(name))}
    breaks = [i for i in range(1, len(text)) if i not in inside and (text[i] == " " or (
        text[i - 1] != " " and (has_cjk(text[i - 1]) or has_cjk(text[i]))))]
    at = _largest(lambda k: fits(text[:breaks[k]].rstrip()), len(breaks) - 1)
    if at is None:
        return "", text
    if rest_fits is not None:
        for k in range(at, max(-1, at - 6), -1):
            if text[breaks[k] - 1] in PARTICLES and rest_fits(text[breaks[k]:].strip()):
                at = k
                break
    return text[:breaks[at]].rstrip(), text[breaks[at]:].strip()


PARTICLES = "をがとのにはでへもや、。"


def _starts(text: str, word: str) -> list[int]:
    found, at = [], text.find(word)
    while word and at >= 0:
        found.append(at)
        at = text.find(word, at + 1)
    return found


def _largest(ok: Callable[[int], bool], most: int) -> int | None:
    """The largest n in 0..most with ok(n), for an ok that holds up to some n and no further;
    None when it holds for none."""
    low, high, best = 0, most, None
    while low <= high:
        middle = (low + high) // 2
        if ok(middle):
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return best
