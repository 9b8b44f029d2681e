"""Pictures are real PNGs that Pillow decodes, and show what they claim to show."""

import io
import zlib

from PIL import Image

from games.mancala import GAME
from render import render_observation
from render.common import SEAT_COLOURS, to_png
from render.mancala import FOOTER_Y, HEIGHT, WIDTH, _geometry

GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def play(moves, **options):
    state = GAME.new(options=options or None)
    for move in moves:
        state = GAME.play(state, move)
    return state


def pixels(image):
    data = image.convert("RGB").tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def near(pixel, colour, tolerance=30):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def test_the_png_encoder_round_trips_pixels_exactly():
    image = Image.new("RGB", (7, 3))
    image.putdata([(x * 30, y * 80, (x * y * 13) % 256) for y in range(3) for x in range(7)])
    assert pixels(decode(to_png(image))) == pixels(image)


def test_a_board_decodes_at_phone_friendly_size():
    for pits in ("11", "17"):
        image = decode(render_observation(GAME.id, GAME.observe(play([], pits=pits), None),
                                          names=["Alice", "Bob"]))
        assert image.width == WIDTH >= 800 and image.height <= HEIGHT


def test_pits_with_more_seeds_show_more_seed_pixels():
    state = play(["k"])  # k emptied, others hold 5 or 6
    image = decode(render_observation(GAME.id, GAME.observe(state, None)))
    centres, radius = _geometry(11)

    def light_pixels(index):  # inside the well, away from any highlight ring
        cx, cy = centres[index]
        r = int(radius * 0.7)
        return sum(1 for x in range(-r, r + 1) for y in range(-r, r + 1)
                   if x * x + y * y <= r * r and sum(image.getpixel((cx + x, cy + y))) > 450)

    assert light_pixels(10) == 0  # the emptied pit k: no seeds drawn
    assert light_pixels(0) > 50


def test_the_last_move_is_ringed_in_the_movers_colour_and_changes_the_picture():
    before = play(GAME2[:13])
    after = play(GAME2[:14])  # first player's a -> ... -> c
    a = decode(render_observation(GAME.id, GAME.observe(after, None)))
    centres, radius = _geometry(11)
    cx, cy = centres[0]  # pit a, where the move started
    ring = a.getpixel((int(cx + radius + 4), int(cy)))
    assert near(ring, SEAT_COLOURS[0])
    assert render_observation(GAME.id, GAME.observe(before, None)) != \
        render_observation(GAME.id, GAME.observe(after, None))


def test_the_player_to_move_is_framed_and_the_result_is_shown():
    running = decode(render_observation(GAME.id, GAME.observe(play(["k"]), None)))
    # seat 2 (right) to move: its header frame is drawn in its colour
    assert near(running.getpixel((WIDTH - 22, 60)), SEAT_COLOURS[1])
    assert not near(running.getpixel((22, 60)), SEAT_COLOURS[0])
    finished = decode(render_observation(GAME.id, GAME.observe(play(GAME2), None)))
    assert near(finished.getpixel((WIDTH - 22, 60)), SEAT_COLOURS[1])  # the winner framed
    assert finished.crop((0, FOOTER_Y - 20, WIDTH, HEIGHT)).getextrema() != ((43, 43),) * 3


def test_pastoral_board_shows_stacks_and_a_mutilation_square():
    from dataclasses import replace

    from games.pastoral import GAME as PASTORAL
    from games.pastoral.game import PastoralState, parse_cell
    from render.pastoral import ACCENT, MUTILATION, STONE_R, _box, _centre

    owner, count = [-1] * 64, [0] * 64
    for name, who, n in (("d4", 1, 4), ("d1", 0, 2), ("e5", 0, 3)):
        owner[parse_cell(name)], count[parse_cell(name)] = who, n
    state = PastoralState(tuple(owner), tuple(count), (2, 0), (26, 27), 0, 2, False,
                          frozenset(), True, "black")
    state = replace(state, history=(state.key(),))
    before = decode(render_observation(PASTORAL.id, PASTORAL.observe(state, None)))
    after_state = PASTORAL.play(state, "a4:2")  # 2 x 2 = 4: d4, a4, d1 are removed
    after = decode(render_observation(PASTORAL.id, PASTORAL.observe(after_state, None)))
    x0, y0, x1, y1 = _box(parse_cell("e5"))  # the black pile on e5, lower right of the cell
    assert sum(before.getpixel((x1 - STONE_R - 6 - 16, y1 - STONE_R - 8))) < 200
    x0, y0, x1, y1 = _box(parse_cell("a4"))
    assert near(after.getpixel((x0 + 5, (y0 + y1) // 2)), ACCENT)  # the last action's frame
    # the square's side from a4 to d4 is drawn in red between the two cells
    bx, by = _centre(parse_cell("b4"))
    assert near(after.getpixel((int(bx), int(by))), MUTILATION, 40)
    assert not near(before.getpixel((int(bx), int(by))), MUTILATION, 40)


def test_consequence_public_picture_is_identical_whatever_the_hidden_symbols():
    from games.consequence import GAME as CONSEQUENCE

    one = CONSEQUENCE.new()
    other = CONSEQUENCE.new()
    for a, b in (("BS@b2", "BM@b2"), ("RD@a1>NE", "RS@a1>NE"), ("BM@d1", "BD@d1"),
                 ("c3-c4", "c3-c4"), ("BD@a2>E", "BM@a2>E")):
        one, other = CONSEQUENCE.play(one, a), CONSEQUENCE.play(other, b)
    assert one.grid != other.grid or one.hands != other.hands
    png = lambda state, viewer: render_observation(  # noqa: E731
        CONSEQUENCE.id, CONSEQUENCE.observe(state, viewer), names=["Alice", "Bob"])
    assert png(one, None) == png(other, None)  # byte for byte: nothing hidden leaks
    assert png(one, 0) != png(other, 0)  # the moon player's own view shows what they know
    decode(png(one, 1))


def test_consequence_final_picture_draws_the_scoring_pairs():
    import random

    from games.consequence import GAME as CONSEQUENCE
    from render.consequence import SEAT_LINE, _centre

    rng = random.Random(3)
    state = CONSEQUENCE.new()
    while CONSEQUENCE.outcome(state) is None:
        state = CONSEQUENCE.apply(state, rng.choice(CONSEQUENCE.legal_moves(state)))
    view = CONSEQUENCE.observe(state, None)
    assert view.pairs and all(t is None or t.symbol for t in view.grid)
    image = decode(render_observation(CONSEQUENCE.id, view))
    seat, a, b = view.pairs[0]
    (x0, y0), (x1, y1) = _centre(a), _centre(b)
    assert near(image.getpixel((int((x0 + x1) / 2), int((y0 + y1) / 2))), SEAT_LINE[seat], 40)


def test_ghostone_picture_shows_pawns_holes_and_the_ghost():
    import random

    from games.ghostone import GAME as GHOSTONE
    from render.common import SEAT_COLOURS as COLOURS
    from render.ghostone import CELL, GHOST, HOLE, _centre

    rng = random.Random(5)
    state = GHOSTONE.new(4)
    while GHOSTONE.outcome(state) is None and not (state.ghost is not None and state.flipped):
        state = GHOSTONE.apply(state, rng.choice(GHOSTONE.legal_moves(state)))
    view = GHOSTONE.observe(state, None)
    image = decode(render_observation(GHOSTONE.id, view, names=["A", "B", "C", "D"]))
    hole = next(iter(view.flipped))
    assert near(image.getpixel(tuple(int(v) for v in _centre(hole))), HOLE, 10)
    pawn_plate = next(p for p, s in enumerate(view.pawns) if s != -1)
    x, y = _centre(pawn_plate)
    # above its number, inside every seat's shape (a square's edge is 22 px up, a disc's 24)
    ring = image.getpixel((int(x + CELL * 0.2), int(y + CELL * 0.2 - 14)))
    assert near(ring, COLOURS[view.pawns[pawn_plate]], 40)
    gx, gy = _centre(view.ghost)
    assert near(image.getpixel((int(gx - CELL * 0.2), int(gy + CELL * 0.14))), GHOST, 20)


def test_ico_map_shows_the_active_face_black_and_markers_in_seat_colours():
    from games.ico import GAME as ICO
    from games.ico.game import FACES
    from render.ico import (
        ACTIVE,
        EDGE_PATHS,
        ICO_COLOURS,
        VERTICES,
        _face_centre,
        _point_on,
        _project,
    )

    state = ICO.play(ICO.new(2, {"start": "f0"}), "e5")  # red on e5; f5 active
    image = decode(render_observation(ICO.id, ICO.observe(state, None)))
    cx, cy = _face_centre(5)
    corners = [_project(VERTICES[v]) for v in FACES[5][0]]  # towards a corner: one is clear
    assert any(near(image.getpixel((int(0.6 * cx + 0.4 * vx), int(0.6 * cy + 0.4 * vy))),
                    ACTIVE, 20) for vx, vy in corners)  # of the edge labels
    mx, my = _point_on(EDGE_PATHS[5], 0.5)
    assert near(image.getpixel((int(mx), int(my))), ICO_COLOURS[0], 40)


# -- legibility at phone width, and no label over another label or a marker -------------------
import gettext  # noqa: E402
import random  # noqa: E402

import pytest  # noqa: E402

from games import REGISTRY  # noqa: E402
from render import LABELS  # noqa: E402
from render.common import (  # noqa: E402
    Canvas,
    TextBox,
    translated,
)

PHONE = 360
# the checks every picture test shares (tests/picture_checks.py); imported from here too
from picture_checks import cut_outside_a_name as _cut_outside_a_name  # noqa: E402
from picture_checks import layout_problems  # noqa: E402

CONFIGS = (("progressive-mancala", 2, {"pits": "11"}), ("progressive-mancala", 2, {"pits": "17"}),
           ("pastoral-square", 2, {}), ("consequence", 2, {}), ("ghostone", 3, {}),
           ("ghostone", 4, {}), ("ico", 2, {"level": "1"}), ("ico", 3, {"level": "1+"}),
           ("ico", 2, {"level": "2"}), ("ico", 4, {"level": "2+"}))
NAMES = ["Alice", "Bartholomew-Longname", "Carol", "Dave"]


def positions(game_id, seats, options, seed):
    """A seeded random playout: positions across the whole game, the final one included."""
    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.new(seats, game.draw_options(options, rng))
    states = [state]
    while game.outcome(state) is None and len(states) < 600:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    picks = sorted({0, 1, 3, len(states) // 3, len(states) // 2, 2 * len(states) // 3,
                    len(states) - 2, len(states) - 1})
    return game, [states[i] for i in picks if 0 <= i < len(states)]


@pytest.mark.parametrize("game_id,seats,options", CONFIGS)
def test_every_label_reads_at_phone_width_and_overlaps_nothing(game_id, seats, options):
    found = []
    for seed in range(2):  # two whole games per set-up keep the suite within CI's time
        game, states = positions(game_id, seats, options, seed)
        for state in states:
            viewers = [None, 0] if game_id == "consequence" else [None]
            for viewer in viewers:
                for result in (None, "Alice resigned"):
                    boxes: list[TextBox] = []
                    png = render_observation(game_id, game.observe(state, viewer),
                                             names=NAMES[:seats], result=result, layout=boxes)
                    assert boxes
                    found += [f"seed {seed} ply {game.ply(state)}: {p}"
                              for p in layout_problems(png, boxes)]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("game_id,seats,options", CONFIGS)
def test_a_board_can_leave_its_last_move_unwritten(game_id, seats, options):
    """The analysis picture names the moves itself: its boards leave out the lines that write
    the last move out, and only those, the lines under them moving up (Ghostone never writes
    it: the same picture)."""
    game, states = positions(game_id, seats, options, 0)
    observation = game.observe(states[3], None)  # a few moves in: a last move to write
    whole: list[TextBox] = []
    short: list[TextBox] = []
    full_png = render_observation(game_id, observation, names=NAMES[:seats], layout=whole)
    png = render_observation(game_id, observation, names=NAMES[:seats], layout=short,
                             last_move=False)
    kept = [b.text for b in short]
    dropped = [b for b in whole if b.text not in kept]
    assert all(text in [b.text for b in whole] for text in kept)
    if game_id == "ghostone":
        assert png == full_png
    else:  # the board and the status line are as they were; the last move goes
        assert dropped and all(b in whole for b in short if b.box[3] < dropped[0].box[1])
        assert dropped[0].text.startswith("Last: ") and not any("Last: " in t for t in kept)


def test_the_layout_check_catches_overlaps_small_text_low_contrast_and_markers():
    canvas = Canvas((720, 200), (40, 40, 40))
    canvas.text((20, 40), "12", size=40, fg=(250, 250, 250), bg=(40, 40, 40))
    canvas.text((30, 50), "34", size=40, fg=(250, 250, 250), bg=(40, 40, 40))  # overlaps 12
    canvas.text((300, 40), "5", size=12, fg=(250, 250, 250), bg=(40, 40, 40))  # too small
    canvas.text((400, 40), "6", size=40, fg=(70, 70, 70), bg=(40, 40, 40))  # too faint
    canvas.text((500, 40), "7", size=40, fg=(250, 250, 250), bg=(40, 40, 40))
    canvas.circle(520, 40, 8, fill=(200, 0, 0))  # a marker over the 7
    canvas.text((600, 140), "8", size=40, fg=(250, 250, 250), bg=(40, 40, 40))
    boxes: list[TextBox] = []
    problems = "\n".join(layout_problems(canvas.png(boxes), boxes))
    assert "'12' overlaps '34'" in problems
    assert "'5': digits" in problems
    assert "'6': contrast" in problems
    assert "'7' at" in problems
    assert "'8'" not in problems


def test_the_layout_check_fails_a_board_drawn_with_a_label_over_the_cave(monkeypatch):
    import render.ghostone as ghostone

    ghostone._static_layer.cache_clear()
    ghostone._compass.cache_clear()
    monkeypatch.setattr(ghostone, "CAVE_RIGHT", ghostone.GRID_LEFT + ghostone.GRID_SIZE - 120)
    try:
        game, states = positions("ghostone", 3, {}, 0)
        boxes: list[TextBox] = []
        png = render_observation("ghostone", game.observe(states[-1], None), layout=boxes)
        assert any("something else is drawn" in p or "overlaps" in p
                   for p in layout_problems(png, boxes))
    finally:
        ghostone._static_layer.cache_clear()
        ghostone._compass.cache_clear()


@pytest.mark.parametrize("game_id,seats,options", CONFIGS[::2])
def test_a_result_replaces_the_to_move_line(game_id, seats, options):
    game, states = positions(game_id, seats, options, 1)
    view = game.observe(states[len(states) // 2], None)
    boxes: list[TextBox] = []
    render_observation(game_id, view, names=NAMES[:seats], result="Time ran out for Bob",
                       layout=boxes)
    texts = [b.text for b in boxes]
    assert "Time ran out for Bob" in texts
    assert not any("to move" in t or "places" in t for t in texts)
    if game_id == "ico":  # no edge to use: only the last move's edge, which the footer names
        edges = [t for t in texts if t.startswith("e") and t[1:].isdigit()]
        assert edges == ([f"e{view.last[1]}"] if view.last is not None else [])


class Shout(gettext.NullTranslations):
    def gettext(self, message):
        if "\x04" in message:  # a message with a context: none of its own here, as gettext says
            return message
        return message.upper() if "{" not in message else message.replace("to move", "TO MOVE")


@pytest.mark.parametrize("game_id", sorted(LABELS))
def test_every_word_comes_through_the_translation(game_id):
    labels = LABELS[game_id]
    from render.common import translated

    shouted = translated(labels, Shout())
    for field in labels.__dataclass_fields__:
        default = getattr(labels(), field)
        if isinstance(default, str) and "{" not in default:
            assert getattr(shouted, field) == default.upper()
    game, states = positions(game_id, REGISTRY[game_id].info.min_seats, {}, 2)
    boxes: list[TextBox] = []
    render_observation(game_id, game.observe(states[len(states) // 2], None), tr=Shout(),
                       layout=boxes)
    status = [b.text for b in boxes if "TO MOVE" in b.text or b.text.isupper()]
    assert status


def test_a_labels_context_picks_the_games_own_word(cjk_font):
    """"First player" is 先攻 in Pastoral Square and 先手 in Mancala (one English message,
    a gettext context per game); the Ghostone die's faces are words (北東), not notation."""
    from bot.words.i18n import translations

    ja = translations("ja")
    assert translated(LABELS["pastoral-square"], ja).first == "先攻"
    assert translated(LABELS["progressive-mancala"], ja).first == "先手"
    assert translated(LABELS["pastoral-square"], None).first == "First player"
    assert "北東" in translated(LABELS["ghostone"], ja).rolled


def test_japanese_labels_use_the_cjk_font(cjk_font):
    from render.common import _face, _layout

    cjk = _layout("アリスの手番 2", 30, True)[2]
    assert cjk  # every word of a label with CJK text takes the CJK font
    face, _ = _face(30, True, cjk)
    assert "ipa" in str(getattr(face, "path", "")).lower() or "cjk" in str(
        getattr(face, "path", "")).lower() or "japanese" in str(getattr(face, "path", ""))

    class Japanese(gettext.NullTranslations):
        def gettext(self, message):
            return "{name}の手番" if message == "{name} to move" else message

    game, states = positions("ico", 2, {}, 0)
    boxes: list[TextBox] = []
    png = render_observation("ico", game.observe(states[1], None), names=["アリス", "ボブ"],
                             tr=Japanese(), layout=boxes)
    status = next(b for b in boxes if b.text.endswith("の手番"))
    assert status.box[2] - status.box[0] > 100  # drawn glyphs, not empty boxes
    assert not layout_problems(png, boxes)


def test_pictures_are_palette_pngs_and_deterministic():
    for game_id, seats, options in CONFIGS:
        game, states = positions(game_id, seats, options, 5)
        view = game.observe(states[-1], None)
        one = render_observation(game_id, view, names=NAMES[:seats])
        assert one == render_observation(game_id, view, names=NAMES[:seats])
        assert Image.open(io.BytesIO(one)).mode == "P"


def test_the_palette_encoder_round_trips_pixels_exactly():
    from render.common import encode_png

    image = Image.new("P", (9, 4))
    image.putdata([(x * 3 + y) % 5 for y in range(4) for x in range(9)])
    palette = [(10, 20, 30), (200, 0, 0), (0, 200, 0), (0, 0, 200), (255, 255, 255)]
    decoded = Image.open(io.BytesIO(encode_png(image, palette))).convert("RGB")
    assert pixels(decoded) == [palette[i] for i in image.tobytes()]


def test_the_encoder_reuses_bands_and_still_round_trips_exactly():
    """Bands met before come from the cache: pictures sharing some bands with earlier ones
    (and a band that differs by one pixel) decode to exactly their own pixels, with the
    zlib checksum and the PNG CRCs that Pillow verifies."""
    from render import common

    palette = [(10, 20, 30), (200, 0, 0), (0, 200, 0), (0, 0, 200), (255, 255, 255)]
    base = Image.new("P", (37, 3 * common.BAND_ROWS + 5))
    base.putdata([(x // 4 + y // 7) % 5 for y in range(base.height) for x in range(37)])
    changed = base.copy()
    changed.putpixel((20, common.BAND_ROWS + 3), 4)  # the second band only
    common._bands.clear()
    for image in (base, changed, base, changed):
        png = common.encode_png(image, palette)
        decoded = Image.open(io.BytesIO(png))
        decoded.load()
        assert decoded.tobytes() == image.tobytes()
        # the stream's Adler-32 (combined from the bands' cached sums), checked by zlib itself
        at = png.index(b"IDAT")
        length = int.from_bytes(png[at - 4:at], "big")
        scanlines = zlib.decompress(png[at + 4:at + 4 + length])
        assert len(scanlines) == (image.width + 1) * image.height
    assert len(common._bands) == 5  # 4 bands of the first picture, 1 new of the second


def test_every_character_of_the_japanese_labels_has_a_glyph(cjk_font):
    """Each character the Japanese pictures may draw (every label's translation, and a
    Japanese name) exists in the font chosen for it: none comes out as the font's empty box."""
    from babel.messages.pofile import read_po

    from bot.words.catalogs import po_path
    from render.common import _face, _layout

    with po_path("ja").open("rb") as source:
        catalog = read_po(source)
    labels = [m.string for m in catalog
              if m.string and any(path.startswith("render/") for path, _ in m.locations)]
    assert len(labels) > 40
    texts = [t if isinstance(t, str) else "".join(t) for t in labels] + ["アリスとボブ"]
    missing = []
    for text in texts:
        face, _ = _face(30, False, _layout(text, 30, False)[2])
        def ink(char, face=face):
            mask = face.getmask(char)
            return mask.size, bytes(mask)

        notdef = ink("\U0010fffd")  # a code point no font draws: the font's empty box
        for char in set(text) - set(" {}"):
            if ink(char) == notdef:
                missing.append((text, char))
    assert not missing, missing


def test_a_new_label_is_put_together_from_words_drawn_before():
    """A label with a new name draws only the new word; the label looks like the font's own
    rendering of the whole line (words at most a pixel from where FreeType puts them)."""
    from PIL import ImageDraw

    from render import common

    canvas = Canvas((360, 60), (255, 255, 255))
    canvas.text((4, 30), "Alice to move  (+3)", size=22, fg=(0, 0, 0), bg=(255, 255, 255))
    drawn = common._word_coverage.cache_info().misses
    canvas.text((4, 30), "Zebedee to move  (+3)", size=22, fg=(0, 0, 0), bg=(255, 255, 255))
    assert common._word_coverage.cache_info().misses == drawn + 1  # "Zebedee" alone
    for text in ("Zebedee to move  (+3)", "Bob: a → b → c → goal", "ab  cd e"):
        stamp = common._stamp(text, 22, False)
        face = common.font(22)
        left, top, right, bottom = face.getbbox(text, anchor="ls")
        assert abs(stamp.width - (right - left)) <= len(text.split()) - 1
        assert abs(stamp.top - top) <= 1 and abs(stamp.height - (bottom - top)) <= 1
        whole = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(whole).text((-left, -top), text, font=face, fill=255, anchor="ls")
        ink = sum(v >= 48 for v in whole.get_flattened_data())
        assert abs(sum(v == 255 for v in stamp.mask.get_flattened_data()) - ink) <= 0.03 * ink
        assert canvas.measure(text, 22)[0] == stamp.width


def test_a_canvas_draws_into_its_png_scanlines_and_a_clone_leaves_its_base_alone():
    """The canvas's pixels are its PNG's scanlines (each row behind a filter byte 0): the
    PNG written from them is the one written from a copy of the image, and drawing on a
    clone changes neither the base layer's pixels nor its scanlines."""
    from render import common

    assert common._scanlines_work()
    base = Canvas((23, 2 * common.BAND_ROWS + 3), (10, 20, 30))
    base.rectangle((2, 3, 12, 20), fill=(200, 0, 0))
    before = bytes(base.rows)
    canvas = base.clone()
    canvas.circle(15, 20, 6, fill=(0, 200, 0), outline=(255, 255, 255))
    canvas.text((1, 30), "Ab", size=12, fg=(255, 255, 255), bg=(10, 20, 30))
    assert bytes(base.rows) == before
    assert base.png() == common.encode_png(base.image.copy(), base.colours)
    assert canvas.rows is not None and canvas.rows[0::24] == bytes(canvas.image.height + 1)
    png = canvas.png()
    assert png == common.encode_png(canvas.image.copy(), canvas.colours)
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.tobytes() == canvas.image.tobytes() != base.image.tobytes()


def test_without_scanlines_a_canvas_is_a_plain_image_with_the_same_png(monkeypatch):
    """Where Pillow would not draw into the mapped scanlines, a canvas is a plain image
    (framed when encoded), and the picture is the same."""
    from functools import lru_cache

    from render import common, mancala

    view = GAME.observe(play(GAME2[:9]), None)
    expected = render_observation(GAME.id, view, names=["Alice", "Bob"])
    monkeypatch.setattr(common, "_scanlines_work", lambda: False)
    monkeypatch.setattr(mancala, "_static_layer",
                        lru_cache(maxsize=8)(mancala._static_layer.__wrapped__))
    assert Canvas((4, 4), (0, 0, 0)).rows is None
    assert render_observation(GAME.id, view, names=["Alice", "Bob"]) == expected


def test_rounded_rectangles_are_pasted_pieces_with_pillows_own_pixels():
    """Canvas.rounded_rectangle pastes a piece drawn once per size: the pixels are Pillow's
    own drawing of the same box (any position, fractional or odd, any radius, fill,
    outline and width, boxes Pillow refuses too)."""
    from PIL import ImageDraw

    from render import common

    rng = random.Random(7)
    used = 0
    for _ in range(1500):
        canvas = Canvas((160, 120), (0, 0, 0))
        for grey in (1, 2, 3):
            canvas.ink((grey,) * 3)
        expected = Image.new("P", (160, 120), 0)
        x0, y0 = rng.uniform(-3, 130), rng.choice([rng.uniform(-3, 90), rng.randrange(90) + 0.5])
        w = rng.choice([rng.uniform(0, 90), rng.randrange(60) + rng.choice([0, 0.5])])
        h = rng.choice([rng.uniform(0, 90), w, rng.randrange(20)])
        radius = rng.choice([rng.uniform(0, 30), 8, 14, w / 4, w / 2])
        fill = rng.choice([(1, 1, 1), (2, 2, 2), (0, 0, 0), None])
        outline = rng.choice([(2, 2, 2), (1, 1, 1), (3, 3, 3), None])
        width = rng.choice([0, 1, 2, 3, 5])
        xy = (x0, y0, x0 + w, y0 + h)
        inks = [None if c is None else canvas.ink(c) for c in (fill, outline)]
        before = common._pieces.hits + common._pieces.misses
        outcomes = []
        for target in (canvas, ImageDraw.Draw(expected)):
            colours = (fill, outline) if target is canvas else inks
            try:
                target.rounded_rectangle(xy, radius=radius, fill=colours[0],
                                         outline=colours[1], width=width)
                outcomes.append(None)
            except ValueError as error:
                outcomes.append(str(error))
        used += common._pieces.hits + common._pieces.misses > before
        assert outcomes[0] == outcomes[1]
        assert canvas.image.tobytes() == expected.tobytes(), (xy, radius, fill, outline, width)
    assert used > 800  # most boxes went through pieces


def test_a_piece_is_drawn_once_and_the_pieces_stay_within_their_budget(monkeypatch):
    from render import common

    pieces = common._Pieces(40_000)
    monkeypatch.setattr(common, "_pieces", pieces)
    canvas = Canvas((400, 300), (0, 0, 0))
    for x in (10, 60.4, 131.7):  # one chip, three places
        canvas.rounded_rectangle((x, 20.2, x + 40, 52.2), radius=8, fill=(246, 236, 214),
                                 outline=(70, 42, 22), width=2)
    assert (pieces.misses, pieces.hits, len(pieces.items)) == (1, 2, 1)
    for w in range(20, 120):  # as many sizes: the oldest are dropped
        canvas.rounded_rectangle((10, 100, 10 + w, 150), radius=8, fill=(1, 2, 3))
        assert pieces.used <= pieces.budget
    assert 0 < len(pieces.items) < 20
    assert pieces.used == sum(common._piece_bytes(piece) for piece in pieces.items.values())


def test_bands_left_as_the_base_drew_them_take_the_bases_keys_while_it_is_unchanged():
    """A clone's bands equal to its base layer's are looked up by the base's band keys; a
    base drawn on again (by its methods or through its image) has its keys taken again, so
    no picture gets a band of the base as it was."""
    from render import common

    def decoded(canvas):
        png = canvas.png()
        image = Image.open(io.BytesIO(png))
        image.load()
        assert png == common.encode_png(canvas.image.copy(), canvas.colours)
        return image.tobytes()

    base = Canvas((40, 3 * common.BAND_ROWS), (10, 20, 30))
    base.rectangle((2, 2, 30, 10), fill=(200, 0, 0))
    first = base.clone()
    first.circle(20, common.BAND_ROWS + 8, 5, fill=(0, 200, 0))
    assert decoded(first) == first.image.tobytes()
    version, keys = base._keys
    assert len(keys) == 3
    for draw in (lambda: base.rectangle((0, 0, 39, 12), fill=(0, 0, 200)),
                 lambda: base.image.paste(1, (0, 0, 40, 12)),
                 lambda: base.draw.rectangle((0, 0, 39, 12), fill=2)):
        draw()
        clone = base.clone()
        assert decoded(clone) == clone.image.tobytes() == base.image.tobytes()
        assert base._keys[0] != version
        version = base._keys[0]


def test_the_games_with_a_picture_are_known_without_loading_pillow():
    """The bot's main process draws nothing: it reads `RENDERED_GAMES` and never imports
    Pillow or a renderer (its pictures are drawn in worker processes)."""
    import subprocess
    import sys
    from pathlib import Path

    import render
    from render import RENDERERS

    assert set(RENDERERS) == render.RENDERED_GAMES
    code = ("import sys, bot.client, bot.offered; "
            "print(sorted(m for m in sys.modules if m == 'PIL' or m.startswith('render.')))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=Path(__file__).resolve().parents[1])
    assert found.stdout.strip() == "[]"


# Players' names as long as Discord allows a display name (32 characters), in both scripts.
LONGEST = ["Alexandria-Konstantinopolous-XIV",
           "長谷川・ボブ・ジョンソン・ザ・サード・ロングネーム・二世です本当に"[:32], "Carol", "Dave"]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("game_id,seats,options", CONFIGS)
def test_every_label_is_whole_in_both_languages_with_the_longest_names(
        game_id, seats, options, language, request):
    """At phone width, in English and in Japanese (the real catalogs), with 32-character
    names and with no names at all (the seats' own labels): every label inside the picture,
    clear of every other label and marker, and nothing cut but a name, shortened with an
    ellipsis so that the sentence around it (the winner, whose turn it is) stays whole."""
    if language == "ja":
        request.getfixturevalue("cjk_font")
    from bot.words.i18n import translations

    tr = translations(language)
    labels = translated(LABELS[game_id], tr)
    # with no names, the seats are named by the picture's own labels ("Seat 2", "先攻")
    seat_words = sorted({value.replace("{n}", str(n)) for value in vars(labels).values()
                         if isinstance(value, str) for n in range(1, 5)})
    found = []
    game, states = positions(game_id, seats, options, 0)
    for state in states:
        for names in (LONGEST[:seats], None):
            results = [None] if names is None else [
                None, tr.gettext("{name} resigned: {winners} wins").format(name=names[-1],
                                                                           winners=names[0])]
            for result in results:
                boxes: list[TextBox] = []
                png = render_observation(game_id, game.observe(state, None), names=names,
                                         result=result, tr=tr, layout=boxes)
                found += [f"ply {game.ply(state)}: {p}" for p in layout_problems(png, boxes)]
                found += [f"ply {game.ply(state)}: {b.text!r} is cut" for b in boxes
                          if _cut_outside_a_name(b.text, LONGEST + seat_words)]
    assert not found, "\n".join(sorted(set(found))[:20])


def test_the_whole_label_check_catches_a_sentence_cut_short():
    assert _cut_outside_a_name("Alexandria-Konstantinopolous-XIV to m…", LONGEST)
    assert not _cut_outside_a_name("Alexandria-Kon… to move", LONGEST)
    assert _cut_outside_a_name("5–2 で 長谷川・ボブ・ジョンソン・ザ・サードの長い名…", ["Bob"])


def test_after_a_mutilation_the_footer_still_says_where_no_stone_may_be_placed():
    """The last move's line with what a mutilation removed took the footer's two lines and
    the "no place" line was dropped; it has a line of its own now, names at their longest."""
    from games.pastoral import GAME as PASTORAL

    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = PASTORAL.new(2, PASTORAL.draw_options({}, rng))
        while PASTORAL.outcome(state) is None and seen < 3:
            state = PASTORAL.apply(state, rng.choice(PASTORAL.legal_moves(state)))
            view = PASTORAL.observe(state, None)
            if view.last is None or view.last.mutilation is None or not view.blocked or \
                    PASTORAL.outcome(state) is not None:
                continue
            seen += 1
            boxes: list[TextBox] = []
            png = render_observation(PASTORAL.id, view, names=LONGEST[:2], layout=boxes)
            assert any(b.text.startswith("no place: ") for b in boxes), [b.text for b in boxes]
            assert not layout_problems(png, boxes)
        if seen >= 3:
            break
    assert seen == 3  # the playouts met such positions
