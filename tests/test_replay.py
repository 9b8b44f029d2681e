"""Animated replays: one GIF frame per position, one exact global palette, looping forever,
a longer last frame, smaller frames when a byte budget asks, and `python -m render
--animate` writing the same from a record."""

import io
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from games import REGISTRY
from games.record import format_record
from render import animate, render_observation
from render.__main__ import main
from render.replay import SCALES, shared_palette

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(REGISTRY)
NAMES = ["Alice", "Bob", "Carol", "Dave"]


def playout(game_id: str, seed: int, moves: int):
    """A seeded random match of at most `moves` moves: the game, the start, every state
    (the start included) and the moves in notation."""
    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.new(game.info.min_seats, game.draw_options({}, rng))
    start, states, notations = state, [state], []
    while game.outcome(state) is None and len(notations) < moves:
        move = rng.choice(game.legal_moves(state))
        notations.append(game.format_move(state, move))
        state = game.apply(state, move)
        states.append(state)
    return game, start, states, notations


def gif_structure(data: bytes) -> dict:
    """The GIF's blocks, read by hand: the global colour table's size, and per image its
    delay (ms), whether it carries a local colour table, and its box."""
    assert data[:6] == b"GIF89a"
    width, height, packed = struct.unpack("<HHB", data[6:11])
    assert packed & 0x80, "no global colour table"
    table = 2 ** ((packed & 7) + 1)
    pos = 13 + 3 * table
    images, delay, loop = [], None, None
    while data[pos] != 0x3B:
        kind = data[pos]
        if kind == 0x21:  # extension: label, then sub-blocks
            label = data[pos + 1]
            block = data[pos + 2:pos + 3 + data[pos + 2]]
            if label == 0xF9:
                delay = struct.unpack("<H", block[2:4])[0] * 10
            elif label == 0xFF and block[1:12] == b"NETSCAPE2.0":
                loop = struct.unpack("<H", data[pos + 16:pos + 18])[0]
            pos += 2
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        elif kind == 0x2C:  # image descriptor, optional local table, LZW sub-blocks
            x, y, w, h, flags = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
            local = bool(flags & 0x80)
            pos += 10 + (3 * 2 ** ((flags & 7) + 1) if local else 0) + 1
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
            images.append({"delay": delay, "local": local, "box": (x, y, x + w, y + h)})
            delay = None
        else:
            raise AssertionError(f"unexpected block {kind:#x} at {pos}")
    return {"size": (width, height), "table": table, "images": images, "loop": loop}


def frames_rgb(data: bytes) -> list[bytes]:
    image = Image.open(io.BytesIO(data))
    found = []
    for index in range(image.n_frames):
        image.seek(index)
        found.append(image.convert("RGB").tobytes())
    return found


def rgb(png: bytes, size: tuple[int, int] | None = None) -> bytes:
    """A picture's pixels, padded to `size` with its own background (index 0) as a frame of a
    replay is when another position's picture is taller (a Mancala board is as tall as its
    footer's lines)."""
    picture = Image.open(io.BytesIO(png))
    picture.load()
    if size is None or size == picture.size:
        return picture.convert("RGB").tobytes()
    palette = picture.getpalette() or [0, 0, 0]
    frame = Image.new("RGB", size, tuple(palette[:3]))
    frame.paste(picture.convert("RGB"), (0, 0))
    return frame.tobytes()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_match_becomes_a_looping_gif_with_a_frame_per_position(game_id):
    game, _, states, notations = playout(game_id, 3, 10)
    seats = game.seats(states[0])
    observations = [game.observe(state, None) for state in states]
    gif = animate(game_id, observations, names=NAMES[:seats])

    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    assert image.n_frames == len(notations) + 1 == len(states)
    assert image.info["loop"] == 0
    pngs = [render_observation(game_id, o, names=NAMES[:seats]) for o in observations]
    sizes = [Image.open(io.BytesIO(png)).size for png in pngs]
    largest = (max(w for w, _ in sizes), max(h for _, h in sizes))
    assert image.size == largest

    structure = gif_structure(gif)
    assert structure["loop"] == 0 and structure["size"] == largest
    assert len(structure["images"]) == len(states)
    assert not any(frame["local"] for frame in structure["images"]), "a local palette"
    delays = [frame["delay"] for frame in structure["images"]]
    assert delays[:-1] == [900] * (len(delays) - 1) and delays[-1] == 4000
    # every frame shows exactly the picture of its position: the shared palette is exact
    assert frames_rgb(gif) == [rgb(png, largest) for png in pngs]


def test_frames_after_the_first_hold_only_what_changed():
    game, _, states, _ = playout("pastoral-square", 1, 6)
    gif = animate("pastoral-square", [game.observe(s, None) for s in states])
    structure = gif_structure(gif)
    width, height = structure["size"]
    boxes = [frame["box"] for frame in structure["images"]]
    assert boxes[0] == (0, 0, width, height)
    assert all((b[2] - b[0]) * (b[3] - b[1]) < width * height for b in boxes[1:])


def test_identical_positions_in_a_row_stay_separate_frames_and_durations_are_the_callers():
    game, _, states, _ = playout("ico", 0, 2)
    view = game.observe(states[-1], None)
    gif = animate("ico", [view, view, view], frame_ms=500, final_ms=2500)
    assert Image.open(io.BytesIO(gif)).n_frames == 3
    assert [f["delay"] for f in gif_structure(gif)["images"]] == [500, 500, 2500]
    single = animate("ico", [view])
    assert Image.open(io.BytesIO(single)).n_frames == 1
    assert frames_rgb(single) == [rgb(render_observation("ico", view))]


def test_the_result_sentence_is_drawn_on_its_frame_only():
    game, _, states, _ = playout("progressive-mancala", 2, 4)
    observations = [game.observe(s, None) for s in states]
    results = [None] * (len(states) - 1) + ["Bob resigned"]
    gif = animate("progressive-mancala", observations, results=results)
    frames, size = frames_rgb(gif), Image.open(io.BytesIO(gif)).size
    assert frames[-1] == rgb(render_observation("progressive-mancala", observations[-1],
                                                result="Bob resigned"), size)
    assert frames[-2] == rgb(render_observation("progressive-mancala", observations[-2]), size)
    with pytest.raises(ValueError, match="results"):
        animate("progressive-mancala", observations, results=["x"])
    with pytest.raises(ValueError):
        animate("progressive-mancala", [])
    with pytest.raises(ValueError):
        animate("chess", observations)


def test_a_byte_budget_gives_smaller_frames_that_fit():
    game, _, states, _ = playout("progressive-mancala", 4, 16)
    observations = [game.observe(s, None) for s in states]
    full = animate("progressive-mancala", observations)
    budget = len(full) * 2 // 3
    small = animate("progressive-mancala", observations, max_bytes=budget)
    assert len(small) <= budget
    big_image, small_image = Image.open(io.BytesIO(full)), Image.open(io.BytesIO(small))
    assert small_image.width < big_image.width and small_image.height < big_image.height
    assert small_image.n_frames == len(states)
    structure = gif_structure(small)
    assert not any(frame["local"] for frame in structure["images"])
    # NEAREST scaling keeps the colours exact: the small frames use the full ones' colours
    colours = set(Image.open(io.BytesIO(full)).convert("RGB").getcolors(1 << 16) or [])
    small_colours = {c for _, c in small_image.convert("RGB").getcolors(1 << 16) or []}
    assert small_colours <= {c for _, c in colours}
    assert animate("progressive-mancala", observations, max_bytes=len(full)) == full
    with pytest.raises(ValueError, match="bytes even at"):
        animate("progressive-mancala", observations, max_bytes=2000)
    assert SCALES[0] == 1.0 and SCALES[-1] >= 0.5


def test_the_shared_palette_joins_palettes_and_keeps_the_most_used_beyond_256():
    def picture(colours, rows):
        image = Image.new("P", (len(rows[0]), len(rows)))
        image.putpalette([v for c in colours for v in c])
        image.putdata([i for row in rows for i in row])
        return image

    reds = [(i, 0, 0) for i in range(150)]
    greens = [(0, i, 0) for i in range(150)]
    one = picture(reds, [list(range(150)), [5] * 150])
    two = picture(greens, [list(range(150)), [7] * 150])
    palette, frames, transparent = shared_palette([one, two])
    assert len(palette) == 256 and transparent is None  # 299 colours: the most used kept
    assert (5, 0, 0) in palette and (0, 7, 0) in palette
    assert [palette[frames[0].getpixel((x, 0))] for x in range(150)] == reds  # kept exactly
    for x in range(150):  # a dropped colour takes the nearest kept one
        shown = palette[frames[1].getpixel((x, 0))]
        assert shown == min(palette, key=lambda c: sum((a - b) ** 2 for a, b in
                                                       zip(c, greens[x], strict=True)))

    small, frames, spare = shared_palette([picture(reds[:3], [[1, 1], [2, 2]]),
                                           picture(greens[:3], [[2], [1], [0]])])
    assert small == reds[:3] + greens[1:3] and spare == 5  # (0, 0, 0) once; a spare index
    assert [f.size for f in frames] == [(2, 3), (2, 3)]  # padded to the largest, with index 0
    assert frames[0].tobytes() == bytes([1, 1, 2, 2, 0, 0])
    assert frames[1].tobytes() == bytes([4, 0, 3, 0, 0, 0])


def test_consequence_frames_are_the_public_view_while_the_match_runs():
    game, _, states, _ = playout("consequence", 5, 8)
    assert game.outcome(states[-1]) is None
    public = [rgb(render_observation("consequence", game.observe(s, None))) for s in states]
    seat = [rgb(render_observation("consequence", game.observe(s, 0))) for s in states]
    assert public != seat  # the seat's own view shows what the public one hides
    frames = frames_rgb(animate("consequence", [game.observe(s, None) for s in states]))
    assert frames == public


def test_the_cli_writes_a_gif_of_every_position(tmp_path):
    game, start, states, notations = playout("ghostone", 7, 12)
    record = tmp_path / "record.txt"
    record.write_text(format_record(game, start, notations, meta={"players": "A, B, C"}),
                      encoding="utf-8")
    out = tmp_path / "game.gif"
    result = subprocess.run([sys.executable, "-m", "render", str(record), "--animate",
                             "-o", str(out)], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out} (")
    image = Image.open(out)
    assert image.format == "GIF" and image.n_frames == len(notations) + 1
    assert frames_rgb(out.read_bytes())[-1] == rgb(render_observation(
        "ghostone", game.observe(states[-1], None), names=["A", "B", "C"]))


def test_the_cli_refuses_bad_input_with_one_line_and_status_2(tmp_path, capsys):
    record = tmp_path / "record.txt"
    record.write_text("# game: progressive-mancala\nk\nk\n", encoding="utf-8")
    out = tmp_path / "game.gif"
    assert main([str(record), "--animate", "-o", str(out)]) == 2
    assert capsys.readouterr().err.strip() == "line 3: 'k': pit k is empty"
    assert not out.exists()
    record.write_text("# game: progressive-mancala\nk\n", encoding="utf-8")
    assert main([str(record), "--animate", "-o", str(tmp_path / "no" / "g.gif")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{tmp_path / 'no' / 'g.gif'}: cannot write") and "\n" not in err
    with pytest.raises(SystemExit) as exit_:
        main([str(record), "--animate"])  # -o is required
    assert exit_.value.code == 2
