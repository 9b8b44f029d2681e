"""Shared drawing helpers: fonts, seat colours, PNG encoding."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

# Seat colours, in seat order; chosen to read on both Discord themes and for colour-blind eyes
# (amber / sky blue / vermilion / bluish green, after Okabe & Ito).
SEAT_COLOURS = ((240, 180, 40), (86, 180, 233), (213, 94, 0), (0, 158, 115))
BACKGROUND = (43, 45, 49)
TEXT = (236, 237, 240)
MUTED = (160, 164, 172)

_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
)


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """DejaVu Sans if the system has it, else Pillow's bundled scalable font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _FONT_DIRS:
        path = folder / name
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def to_png(image: Image.Image) -> bytes:
    """PNG bytes; a light compression level keeps encoding within a few milliseconds."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def mix(colour: tuple[int, int, int], other: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(a + (b - a) * t) for a, b in zip(colour, other))  # type: ignore[return-value]
