"""A whole match as an animated GIF: one frame per position, drawn by `render_observation`.

Each board is drawn once as a palette PNG, and its palette indices are mapped onto one palette
shared by every frame (the GIF's global colour table): the renderers give each picture its own
palette, in the order its colours were first used, but a match rarely uses more than a few dozen
colours in all, so the shared palette holds them exactly (no quantising, no dithering). Should a
match ever use more than 256, the most used are kept and the rare ones take the nearest kept
colour.

After the first frame, each frame holds only the rectangle that changed since the one before,
with the pixels that did not change inside it made transparent (long runs that compress well).
Frames are written by hand around Pillow's LZW encoder, so that no frame gets a local colour
table and two identical positions in a row stay two frames. When a byte budget is given and the
GIF is larger, the frames are scaled down with NEAREST (indices, hence colours, stay exact) and
encoded again, at each size of `SCALES` in turn.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from .common import Rgb

SCALES = (1.0, 0.75, 0.6, 0.5)  # tried in turn while the GIF exceeds `max_bytes`
_UNCHANGED = bytes((255,)) + bytes(255)  # a difference image -> mask of unchanged pixels


def animate(game_id: str, observations: Sequence[Any], *,
            names: Sequence[str] | None = None,
            results: Sequence[str | None] | None = None, tr: Any = None,
            max_bytes: int | None = None, frame_ms: int = 900,
            final_ms: int = 4000) -> bytes:
    """An animated GIF of a match, looping forever: one frame per observation (the position
    after 0, 1, … n moves), `frame_ms` each and `final_ms` on the last.

    `results`: a sentence per frame (or None) drawn instead of the "to move" line, as
    `render_observation`'s `result`; usually None but for the last frame. `tr`: a gettext-like
    object for the pictures' words. `max_bytes`: the GIF is drawn smaller until it fits; a
    ValueError when even the smallest size does not (or on a game without pictures)."""
    from . import render_observation

    if not observations:
        raise ValueError("a replay needs at least one position")
    if results is not None and len(results) != len(observations):
        raise ValueError(f"{len(results)} results for {len(observations)} positions")
    pictures = []
    for index, observation in enumerate(observations):
        png = render_observation(game_id, observation, names=names,
                                 result=None if results is None else results[index], tr=tr)
        picture = Image.open(io.BytesIO(png))
        picture.load()
        pictures.append(picture)
    palette, frames, transparent = shared_palette(pictures)
    durations = [frame_ms] * (len(frames) - 1) + [final_ms]
    gif = b""
    for scale in SCALES:
        scaled = frames if scale == 1.0 else [_scaled(frame, scale) for frame in frames]
        gif = encode_gif(scaled, palette, durations, transparent)
        if max_bytes is None or len(gif) <= max_bytes:
            return gif
    raise ValueError(f"the replay takes {len(gif)} bytes even at {SCALES[-1]:.0%} size, "
                     f"more than {max_bytes}")


def shared_palette(pictures: Sequence[Image.Image]
                   ) -> tuple[list[Rgb], list[Image.Image], int | None]:
    """One palette for palette pictures that each have their own: the palette, each picture's
    pixels as indices into it ("L" images, all of the largest picture's size; a smaller one is
    padded with its own background) and a spare index for transparency (None if none is
    spare). Exact when the pictures use at most 256 colours in all."""
    palettes = [_colours(picture) for picture in pictures]
    order: dict[Rgb, int] = {}
    for colours in palettes:
        for colour in colours:
            order.setdefault(colour, len(order))
    if len(order) <= 256:
        palette = list(order)
        index = order
    else:
        palette, index = _most_used(pictures, palettes)
    width = max(picture.width for picture in pictures)
    height = max(picture.height for picture in pictures)
    frames = []
    for picture, colours in zip(pictures, palettes, strict=True):
        table = bytes(index[colour] for colour in colours).ljust(256, b"\0")
        frame = Image.frombytes("L", picture.size, picture.tobytes().translate(table))
        if frame.size != (width, height):
            padded = Image.new("L", (width, height), table[0])
            padded.paste(frame, (0, 0))
            frame = padded
        frames.append(frame)
    transparent = len(palette) if len(palette) < 256 else None
    return palette, frames, transparent


def _colours(picture: Image.Image) -> list[Rgb]:
    if picture.mode != "P":
        raise ValueError(f"expected a palette picture, not mode {picture.mode}")
    flat = picture.getpalette("RGB") or []
    return [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]


def _most_used(pictures: Sequence[Image.Image], palettes: Sequence[list[Rgb]]
               ) -> tuple[list[Rgb], dict[Rgb, int]]:
    """The 256 colours covering most pixels, and every colour's nearest among them."""
    used: dict[Rgb, int] = {}
    for picture, colours in zip(pictures, palettes, strict=True):
        for i, count in enumerate(picture.histogram()[:len(colours)]):
            if count:
                used[colours[i]] = used.get(colours[i], 0) + count
    kept = sorted(used, key=lambda colour: -used[colour])[:256]
    index = {colour: i for i, colour in enumerate(kept)}
    for colours in palettes:
        for colour in colours:
            if colour not in index:
                index[colour] = min(range(len(kept)), key=lambda i: sum(
                    (a - b) ** 2 for a, b in zip(kept[i], colour, strict=True)))
    return kept, index


def _scaled(frame: Image.Image, scale: float) -> Image.Image:
    size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
    return frame.resize(size, Image.Resampling.NEAREST)


def encode_gif(frames: Sequence[Image.Image], palette: Sequence[Rgb],
               durations: Sequence[int], transparent: int | None) -> bytes:
    """A looping GIF89a of "L" frames of palette indices, all of one size, with `palette`
    as its only (global) colour table; `durations` in milliseconds. With a `transparent`
    index, each frame after the first keeps only what changed since the one before."""
    width, height = frames[0].size
    entries = max(2, len(palette) + (transparent is not None))
    bits = max(1, (entries - 1).bit_length())  # the table holds 2**bits colours
    table = b"".join(bytes(colour) for colour in palette).ljust(3 * 2 ** bits, b"\0")
    out = [b"GIF89a", struct.pack("<HHBBB", width, height, 0x80 | 0x70 | (bits - 1), 0, 0),
           table, b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"]  # loop forever
    previous: Image.Image | None = None
    for frame, duration in zip(frames, durations, strict=True):
        params: dict[str, Any] = {"duration": max(10, duration), "disposal": 1}
        if previous is None:
            part, offset = frame, (0, 0)
        else:
            difference = ImageChops.difference(previous, frame)
            box = difference.getbbox() or (0, 0, 1, 1)  # an unchanged frame: one pixel
            part, offset = frame.crop(box), box[:2]
            if transparent is not None:
                unchanged = difference.crop(box).point(_UNCHANGED)  # 255 where equal
                part.paste(transparent, mask=unchanged)
                params["transparency"] = transparent
        out.extend(GifImagePlugin.getdata(part, offset, **params))
        previous = frame
    out.append(b";")
    return b"".join(out)
