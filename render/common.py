"""Shared drawing helpers: fonts, seat colours, PNG encoding."""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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


PNG_ZLIB_LEVEL = 2


def to_png(image: Image.Image) -> bytes:
    """Encode an RGB image as PNG: no row filter, light zlib.

    Pillow's encoder picks a filter per row, which costs ~10 ms on a 1000x610 board; this
    plain encoding takes ~4.5 ms for a file of about the same size (bench/render_board.py).
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    raw = memoryview(rgb.tobytes())
    stride = width * 3
    parts: list[bytes | memoryview] = []
    for start in range(0, len(raw), stride):  # filter byte 0, then the row, copied once
        parts.append(b"\x00")
        parts.append(raw[start:start + stride])
    rows = b"".join(parts)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit truecolour
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows, PNG_ZLIB_LEVEL)) + _chunk(b"IEND", b""))


def _chunk(tag: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(tag + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


@lru_cache(maxsize=512)
def text_stamp(text: str, size: int, bold: bool, fill: tuple[int, int, int],
               stroke: int = 0, stroke_fill: tuple[int, int, int] = (0, 0, 0)) -> Image.Image:
    """A rendered label (RGBA) to paste; labels such as counts repeat across boards, and
    FreeType rendering is the costliest part of a picture."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text, stroke_width=stroke)
    stamp = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    ImageDraw.Draw(stamp).text((-left, -top), text, font=face, fill=fill, stroke_width=stroke,
                               stroke_fill=stroke_fill)
    return stamp


def paste_centred(image: Image.Image, stamp: Image.Image, x: float, y: float) -> None:
    image.paste(stamp, (round(x - stamp.width / 2), round(y - stamp.height / 2)), stamp)


def paste_text(image: Image.Image, xy: tuple[float, float], text: str, *, size: int,
               fill: tuple[int, int, int], bold: bool = False, align: str = "left") -> None:
    """Paste a cached label, vertically centred on y, its left/centre/right edge on x."""
    stamp = text_stamp(text, size, bold, fill)
    x, y = xy
    offset = {"left": 0, "centre": stamp.width / 2, "right": stamp.width}[align]
    image.paste(stamp, (round(x - offset), round(y - stamp.height / 2)), stamp)


def mix(colour: tuple[int, int, int], other: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(a + (b - a) * t) for a, b in zip(colour, other))  # type: ignore[return-value]


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap (relay trails can be long)."""
    lines, current = [], ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = "  " + word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return lines
