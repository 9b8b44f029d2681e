"""Pictures are real PNGs that Pillow decodes, and show what they claim to show."""

import io

from PIL import Image

from games.mancala import GAME
from render import render_observation
from render.common import SEAT_COLOURS, to_png
from render.mancala import COUNT_Y, HEIGHT, WIDTH, _geometry

GAME2 = "k c h k d j g c a i f e i a f".split()


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
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def test_the_png_encoder_round_trips_pixels_exactly():
    image = Image.new("RGB", (7, 3))
    image.putdata([(x * 30, y * 80, (x * y * 13) % 256) for y in range(3) for x in range(7)])
    assert pixels(decode(to_png(image))) == pixels(image)


def test_a_board_decodes_at_phone_friendly_size():
    for pits in ("11", "17"):
        image = decode(render_observation(GAME.id, GAME.observe(play([], pits=pits), None),
                                          names=["Alice", "Bob"]))
        assert image.size == (WIDTH, HEIGHT) and image.width >= 800


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
    assert near(running.getpixel((WIDTH - 26, 60)), SEAT_COLOURS[1])
    assert not near(running.getpixel((26, 60)), SEAT_COLOURS[0])
    finished = decode(render_observation(GAME.id, GAME.observe(play(GAME2), None)))
    assert near(finished.getpixel((WIDTH - 26, 60)), SEAT_COLOURS[1])  # the winner framed
    assert finished.crop((0, COUNT_Y + 150, WIDTH, HEIGHT)).getextrema() != ((43, 43),) * 3


def test_pastoral_board_shows_stacks_and_a_mutilation_square():
    from games.pastoral import GAME as PASTORAL, PastoralState, parse_cell
    from render.pastoral import ACCENT, MUTILATION, _box, _centre
    from dataclasses import replace

    owner, count = [-1] * 64, [0] * 64
    for name, who, n in (("d4", 1, 4), ("d1", 0, 2), ("e5", 0, 3)):
        owner[parse_cell(name)], count[parse_cell(name)] = who, n
    state = PastoralState(tuple(owner), tuple(count), (2, 0), (26, 27), 0, 2, False,
                          frozenset(), True, "black")
    state = replace(state, history=(state.key(),))
    before = decode(render_observation(PASTORAL.id, PASTORAL.observe(state, None)))
    after_state = PASTORAL.play(state, "a4:2")  # 2 x 2 = 4: d4, a4, d1 are removed
    after = decode(render_observation(PASTORAL.id, PASTORAL.observe(after_state, None)))
    cx, cy = _centre(parse_cell("e5"))
    assert sum(before.getpixel((int(cx) - 22, int(cy) + 10))) < 200  # the black pile on e5
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
    from render.ghostone import GHOST, HOLE, _centre

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
    ring = image.getpixel((int(x + 146 * 0.2), int(y + 146 * 0.2 - 20)))
    assert near(ring, COLOURS[view.pawns[pawn_plate]], 40)
    gx, gy = _centre(view.ghost)
    assert near(image.getpixel((int(gx - 146 * 0.2), int(gy + 146 * 0.14))), GHOST, 20)


def test_ico_map_shows_the_active_face_black_and_markers_in_seat_colours():
    from games.ico import GAME as ICO
    from games.ico import FACES
    from render.ico import ACTIVE, EDGE_PATHS, ICO_COLOURS, VERTICES, _face_centre, _point_on
    from render.ico import _project

    state = ICO.play(ICO.new(2, {"start": "f0"}), "e5")  # red on e5; f5 active
    image = decode(render_observation(ICO.id, ICO.observe(state, None)))
    cx, cy = _face_centre(5)
    vx, vy = _project(VERTICES[FACES[5][0][0]])  # towards a corner, away from the edge labels
    assert near(image.getpixel((int(0.6 * cx + 0.4 * vx), int(0.6 * cy + 0.4 * vy))), ACTIVE, 20)
    mx, my = _point_on(EDGE_PATHS[5], 0.5)
    assert near(image.getpixel((int(mx), int(my))), ICO_COLOURS[0], 40)
