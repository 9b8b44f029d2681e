"""What every picture must do to be read on a phone, as checks the picture tests share
(tests/test_render.py, tests/test_picture_properties.py, the tournament, chart and analysis
tests): each returns the problems it finds, as sentences, so that a failure lists them all.

- `layout_problems`: every label legible at 360 px wide, with contrast, inside the picture,
  on its own background (nothing else drawn within 2 px of its ink: a marker, a line, the
  edge of its box), and no two labels overlapping;
- `cut_problems`: a label cut with "…" only where the whole would not fit, and never to
  fewer characters than fit (the room is measured on the picture: the run of the label's
  background on its line);
- `cut_outside_a_name`: an ellipsis that cuts a sentence rather than a player's name;
- `cover_problems`: a board that lost most of its board colour (a tint or fill spilling over
  the map: ICO's outer faces painted the whole map over).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

import render
from render.common import (
    BACKGROUND,
    MIN_PHONE_PX,
    PHONE_WIDTH,
    SHADES,
    TextBox,
    contrast,
    digit_height,
    has_cjk,
    mix,
    overlaps,
)
from render.common import _ink_width as ink_width

PHONE = PHONE_WIDTH


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def layout_problems(png: bytes | Image.Image, boxes: list[TextBox]) -> list[str]:
    """Every way the drawn labels fail a phone reader: a digit under `MIN_PHONE_PX` (9 px)
    once the picture is 360 px wide, contrast under 4.5:1 against the declared background,
    anything but the label and its background within 2 px of its ink (a marker, a line or
    another label drawn over or under it, or a background that is not the declared one), and
    two labels overlapping."""
    image = png if isinstance(png, Image.Image) else decode(png)
    width, height = image.size
    problems = []
    for b in boxes:
        if b.height * PHONE / width < MIN_PHONE_PX:
            problems.append(f"{b.text!r}: digits {b.height * PHONE / width:.1f} px at phone width")
        if contrast(b.fg, b.bg) < 4.5:
            problems.append(f"{b.text!r}: contrast {contrast(b.fg, b.bg):.2f}")
        x0, y0, x1, y1 = b.box
        if x0 < 2 or y0 < 2 or x1 > width - 2 or y1 > height - 2:
            problems.append(f"{b.text!r}: outside the picture")
            continue
        allowed = {b.fg, b.bg} | {mix(b.bg, b.fg, t) for t in SHADES}
        # a board is a palette picture: at most 256 colours (and Pillow's count is slow
        # with a large limit)
        counted = image.crop((x0 - 2, y0 - 2, x1 + 2, y1 + 2)).getcolors(256)
        if counted is None:
            problems.append(f"{b.text!r}: more than 256 colours around it")
            continue
        found = {colour for _, colour in counted}
        if found - allowed:
            problems.append(f"{b.text!r} at {b.box}: something else is drawn there "
                            f"{sorted(found - allowed)[:3]}")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if overlaps(a.box, b.box, 2):
                problems.append(f"{a.text!r} overlaps {b.text!r}")
    return problems


def cut_outside_a_name(text: str, names: Sequence[str]) -> bool:
    """Whether an ellipsis in `text` cuts something other than a name: each one must end a
    start of a name (a name gives way; the sentence around it keeps its words)."""
    return any(ch == "…" and not any(text[:i].endswith(n[:k]) for n in names
                                     for k in range(1, len(n)))
               for i, ch in enumerate(text))


# -- cuts: what a label was before it was made to fit --------------------------------------
@dataclass(frozen=True)
class Cut:
    """A text a renderer made fit (`fit_width`, `fit_size`, `wrap_width`, `fit`, `shorten`):
    what it was and what was drawn."""

    whole: str
    drawn: tuple[str, ...]


_FITTERS = ("fit_width", "fit_size", "wrap_width", "fit", "shorten")


def _render_modules() -> list[object]:
    modules = []
    for info in pkgutil.iter_modules(render.__path__):
        if info.name in ("__main__", "gallery"):
            continue
        modules.append(importlib.import_module(f"render.{info.name}"))
    return modules


@contextlib.contextmanager
def recording_cuts() -> Iterator[list[Cut]]:
    """Every text the renderers shorten while this is open, in a list: each module's own
    name for a fitting function is wrapped (they import them by name from render.common)."""
    cuts: list[Cut] = []
    saved: list[tuple[object, str, object]] = []

    def wrap(name: str, original: object) -> object:
        def recorded(*args: object, **kwargs: object) -> object:
            result = original(*args, **kwargs)  # type: ignore[operator]
            text = args[1] if name in ("fit_width", "fit_size", "wrap_width") else args[0]
            drawn = (result[0] if name == "fit_size" else result)  # type: ignore[index]
            lines = tuple(drawn) if isinstance(drawn, list) else (drawn,)
            if isinstance(text, str) and "…" in "".join(map(str, lines)) and \
                    lines != (text,):
                cuts.append(Cut(text, tuple(map(str, lines))))
            return result
        recorded.__wrapped__ = original  # type: ignore[attr-defined]
        return recorded

    originals = {name: getattr(importlib.import_module("render.common"), name)
                 for name in _FITTERS}
    for module in _render_modules():
        for name in _FITTERS:
            if getattr(module, name, None) is originals[name]:
                saved.append((module, name, originals[name]))
                setattr(module, name, wrap(name, originals[name]))
    try:
        yield cuts
    finally:
        for module, name, original in saved:
            setattr(module, name, original)


GAP = 12  # px a label keeps from the next thing on its line (its box's edge, a number)
EDGE = 20  # px a label keeps from the picture's side


def _room(image: Image.Image, box: TextBox, boxes: Sequence[TextBox]) -> tuple[int, int]:
    """The run of the label's own background on its line, around its ink, up to the next
    label on its line or the lines next to it (a table's next column): (left, right)."""
    x0, y0, x1, y1 = box.box
    width = image.width
    strip = image.crop((0, max(0, y0), width, min(image.height, y1 + 1)))
    pixels = strip.load()
    def clear(x: int) -> bool:
        return all(pixels[x, y] == box.bg for y in range(strip.height))

    left = x0
    while left > 0 and clear(left - 1):
        left -= 1
    right = x1
    while right < width - 1 and clear(right + 1):
        right += 1
    left = left + GAP if left > 0 else EDGE
    right = right - GAP if right < width - 1 else width - EDGE
    line = y1 - y0
    for other in boxes:
        ox0, oy0, ox1, oy1 = other.box
        if other is box or oy1 < y0 - 1.5 * line or oy0 > y1 + 1.5 * line:
            continue
        if ox0 >= x1:
            right = min(right, ox0 - GAP)
        elif ox1 <= x0:
            left = max(left, ox1 + GAP)
    return left, right


def cut_problems(png: bytes | Image.Image, boxes: Sequence[TextBox],
                 cuts: Sequence[Cut]) -> list[str]:
    """A label drawn with "…" though its whole text fits on its line, or cut shorter than
    its line has room for (by more than three characters): the room is the label's own
    background on its line, around its ink, up to the next label on its line or the lines
    next to it, less a gap (and the picture's margin). A text wrapped to several lines is
    left to `cut_outside_a_name`."""
    image = png if isinstance(png, Image.Image) else decode(png)
    wholes: dict[str, str] = {}
    for cut in cuts:
        if len(cut.drawn) == 1:  # (a text wrapped to lines has no one line's room to take)
            wholes.setdefault(cut.drawn[0], cut.whole)
    problems = []
    for box in boxes:
        if "…" not in box.text or box.text not in wholes:
            continue
        whole = wholes[box.text]
        x0, y0, x1, y1 = box.box
        size = _size_of(box)
        if size is None:
            continue
        bold = _bold(box, size)
        left, right = _room(image, box, boxes)
        room = right - left
        need = ink_width(whole, size, bold)
        drawn = x1 - x0
        spare = room - drawn
        char = ink_width("000", size, bold)
        if need <= room:
            problems.append(f"{box.text!r} is cut, but the whole {whole!r} ({need} px) fits "
                            f"its line ({room} px)")
        elif spare > char:
            problems.append(f"{box.text!r} is cut to {drawn} px where its line has room for "
                            f"{room} px: more of {whole!r} fits")
    return problems


def _size_of(box: TextBox) -> int | None:
    """The font size a label was drawn at: the one whose digit height and ink width match."""
    cjk = has_cjk(box.text) and render.cjk_font_available()
    width = box.box[2] - box.box[0]
    for size in range(8, 80):
        for bold in (False, True):
            if digit_height(size, bold, cjk) == box.height and \
                    ink_width(box.text, size, bold) == width:
                return size
    return None


def _bold(box: TextBox, size: int) -> bool:
    return ink_width(box.text, size, False) != box.box[2] - box.box[0]


# -- a board painted over --------------------------------------------------------------------
COVER_KEEP = 0.3


def board_colour(image: Image.Image) -> tuple[tuple[int, int, int], int]:
    """A board's own colour (the most used one but the pictures' background) and its pixels."""
    counted = image.getcolors(1 << 16) or []
    count, colour = max((n, c) for n, c in counted if c != BACKGROUND)
    return colour, count


def cover_problems(image: Image.Image, reference: tuple[tuple[int, int, int], int]) -> list[str]:
    """A board keeps at least `COVER_KEEP` of the board-colour pixels of its game's start
    position. Pieces, tiles, holes and tints cover some of the board (the most seen: 62%, a
    Consequence board full of tiles; 56%, a Ghostone board with its holes; 10%, ICO's tinted
    faces), and a tint or fill spilling over the whole map leaves 3-14% of it."""
    colour, count = reference
    kept = {c: n for n, c in image.getcolors(1 << 16) or []}.get(colour, 0)
    if kept < COVER_KEEP * count:
        return [f"the board colour {colour} covers {kept / count:.0%} of what it covers at the "
                f"start (at least {COVER_KEEP:.0%}): something is painted over the board"]
    return []


# -- what a text names, the picture shows -------------------------------------------------------
_PLACE = re.compile(r"(?<![\w])([a-z])(\d{1,2})(?![\w])")  # a cell or an edge: b6, e22
_TRAIL = re.compile(r"→")


def named_problems(boxes: Sequence[TextBox]) -> list[str]:
    """A place a label names that the picture does not show: a cell or edge written as a
    letter and a number ("b6", "e22") must be a label of its own or its letter and number
    both labels (a board's coordinates); each step of a trail ("k → l → goal") must be a
    label, or a word of one (a pit's letter, the goal)."""
    texts = {b.text for b in boxes}
    problems = []
    for box in boxes:
        for letter, number in _PLACE.findall(box.text):
            place = letter + number
            if place not in texts and not (letter in texts and number in texts):
                problems.append(f"{box.text!r} names {place}, which the picture does not show")
        if _TRAIL.search(box.text):
            steps = box.text.split("→")
            for step in steps:
                found = re.match(r"[a-z]+(?![^\x00-\x7f])", step.rsplit(":", 1)[-1].strip())
                name = found.group(0) if found else None  # a pit's letter, "goal"
                if name and name not in texts and not any(
                        name in other.text.split() for other in boxes if other is not box):
                    problems.append(f"{box.text!r} names {name!r}, which the picture does not "
                                    f"show")
    return problems
