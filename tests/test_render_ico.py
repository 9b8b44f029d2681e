"""The ICO map shows what its faces are: each face's polygon is the face's own region of the
projection, a tint covers its faces and nothing else, and every edge and face a text names
is labelled on the picture next to it."""

from __future__ import annotations

import io
import math
import random
from functools import lru_cache

import pytest
from PIL import Image, ImageDraw
from test_render import LONGEST, _cut_outside_a_name, layout_problems

from games import REGISTRY
from games.ico.game import FACES, VERTICES
from render import TextBox, render_observation
from render.ico import ACTIVE, CX, CY, EDGE_PATHS, FACE_FILL, FACE_POLYGONS, HEIGHT, RADIUS, WIDTH

GAME = REGISTRY["ico"]
SIZE = (WIDTH, HEIGHT)


def _mask(draw) -> Image.Image:
    mask = Image.new("L", SIZE, 0)
    draw(ImageDraw.Draw(mask))
    return mask


@lru_cache(maxsize=1)
def face_masks() -> tuple[Image.Image, ...]:
    """Each face's polygon as drawn, filled with 255."""
    return tuple(_mask(lambda d, p=polygon: d.polygon(p, fill=255)) for polygon in FACE_POLYGONS)


Area = tuple[tuple[int, int, int, int], Image.Image]  # a box of the picture, a mask of it


def _cropped(mask: Image.Image) -> Area:
    """A mask cut to its box: histograms over a face's box, not the whole picture."""
    box = mask.getbbox() or (0, 0, 1, 1)
    return box, mask.crop(box)


def _count(image: Image.Image, area: Area) -> list[int]:
    """How many pixels of each palette index lie in `area`."""
    box, mask = area
    return image.crop(box).histogram(mask=mask)


@lru_cache(maxsize=1)
def inner_areas() -> tuple[Area, ...]:
    """Each face's polygon less a 6 px band along its sides (where edges, their markers'
    rims and the face's number halo may be drawn over a neighbour)."""
    return tuple(_cropped(_mask(lambda d, p=polygon: (
        d.polygon(p, fill=255), d.line([*p, p[0]], fill=0, width=13, joint="curve"))))
        for polygon in FACE_POLYGONS)


def _face_of(x: float, y: float) -> int:
    """The face a picture point belongs to, by inverting the projection: the point on the
    sphere at that distance and azimuth from vertex 0, and the face whose centre is nearest
    (on a regular icosahedron a face's triangle is the set of points nearest its centre)."""
    theta = math.pi * math.hypot(x - CX, y - CY) / RADIUS
    azimuth = math.atan2(CY - y, x - CX)
    point = (math.sin(theta) * math.cos(azimuth), math.sin(theta) * math.sin(azimuth),
             math.cos(theta))
    return max(range(len(FACES)), key=lambda f: sum(
        p * sum(VERTICES[v][k] for v in FACES[f][0][:3]) for k, p in enumerate(point)))


def test_the_twenty_face_polygons_tile_the_disc_as_the_faces_do():
    """Every point of the disc lies in exactly one face polygon, the face it is a point of
    (a polygon closed the long way round the outer circle covers most of the map), and each
    polygon's area is its face's share of the disc."""
    pixels = [mask.load() for mask in face_masks()]
    sides = _mask(lambda d: [d.line(path, fill=255, width=5) for path in EDGE_PATHS]).load()
    step = 5
    wrong, counted = [], [0] * len(FACES)
    samples = 0
    for y in range(int(CY - RADIUS) + 2, int(CY + RADIUS) - 1, step):
        for x in range(int(CX - RADIUS) + 2, int(CX + RADIUS) - 1, step):
            if math.hypot(x - CX, y - CY) > RADIUS - 3 or sides[x, y]:
                continue  # on a side: in both faces' outlines
            samples += 1
            inside = [f for f in range(len(FACES)) if pixels[f][x, y]]
            expected = _face_of(x, y)
            counted[expected] += 1
            if inside != [expected]:
                wrong.append((x, y, expected, inside))
    assert not wrong, wrong[:10]
    areas = [mask.histogram()[255] for mask in face_masks()]
    disc = math.pi * RADIUS ** 2
    for face, area in enumerate(areas):
        share = counted[face] / samples
        assert abs(area / disc - share) < 0.004, (face, area / disc, share)
    assert abs(sum(areas) / disc - 1) < 0.01


# -- tints --------------------------------------------------------------------------------------
SET_UPS = [(level, antipodal, seats) for level, antipodal in (("1", "no"), ("1+", "no"),
                                                              ("2", "no"), ("2+", "no"),
                                                              ("2+", "yes"))
           for seats in (2, 3, 4)]


def random_positions(count: int, seed: int = 50):
    """`count` positions of random games over every level and seat count, from random start
    faces drawn as the host draws them, with each game's final position (the winning faces
    tinted) among them."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        for level, antipodal, seats in SET_UPS:
            options = GAME.draw_options({"level": level, "antipodal": antipodal}, rng)
            state = GAME.new(seats, options)
            states = [state]
            while GAME.outcome(state) is None:
                state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
                states.append(state)
            picks = {0, 1, len(states) - 1, rng.randrange(len(states)),
                     rng.randrange(len(states))}
            found += [states[i] for i in sorted(picks)]
    return found[:count]


def decode_palette(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.mode == "P"
    return image


def _colours(image: Image.Image) -> list[tuple[int, int, int]]:
    palette = image.getpalette() or []
    return [tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)]  # type: ignore[misc]


@lru_cache(maxsize=1)
def edge_areas() -> tuple[Area, ...]:
    return tuple(_cropped(_mask(lambda d, p=path: d.line(p, fill=255, width=11)))
                 for path in EDGE_PATHS)


def tint_problems(png: bytes, tinted: set[int]) -> list[str]:
    """How a picture's face fills differ from its faces: every face not `tinted` keeps the
    plain fill over most of its inside, a tinted face shows another colour there, a tint
    colour appears in no other face, and every edge keeps its line."""
    image = decode_palette(png)
    colours = _colours(image)
    problems = []
    dominant = {}
    for face, area in enumerate(inner_areas()):
        counts = _count(image, area)
        index = max(range(len(counts)), key=counts.__getitem__)
        dominant[face] = index
        share = counts[index] / sum(counts)
        if face in tinted:
            if colours[index] == FACE_FILL or share < 0.5:
                problems.append(f"f{face} is not tinted ({colours[index]}, {share:.0%})")
        elif colours[index] != FACE_FILL or share < 0.5:
            problems.append(f"f{face} shows {colours[index]} over {share:.0%} of it")
    for face in tinted:
        index = dominant[face]
        if colours[index] == FACE_FILL:
            continue
        for other, area in enumerate(inner_areas()):
            if dominant[other] != index:
                spilled = _count(image, area)[index]
                if spilled > 20:
                    problems.append(f"f{face}'s tint covers {spilled} px of f{other}")
    line = {i for i, c in enumerate(colours) if c != FACE_FILL and c not in
            {colours[dominant[f]] for f in tinted}}
    for edge, area in enumerate(edge_areas()):
        counts = _count(image, area)
        drawn = sum(counts[i] for i in line)
        if drawn < 2 * EDGE_LENGTH[edge]:  # a line 3 px wide, labels and markers over it
            problems.append(f"e{edge} is hardly drawn ({drawn} px)")
    return problems


EDGE_LENGTH = tuple(sum(math.dist(a, b) for a, b in zip(path, path[1:], strict=False))
                    for path in EDGE_PATHS)


def test_a_tint_covers_its_faces_and_nothing_else():
    """200 random positions (every level, 2-4 seats, random starts, finished games with their
    winning faces): the black face, the face just rolled from and the winning faces are
    tinted, and every other face keeps its fill and every edge its line. An outer face's
    polygon closed the long way round the outer circle painted the whole map over."""
    found = []
    outer = 0
    for state in random_positions(200):
        view = GAME.observe(state, None)
        tinted = set(view.winning_faces)
        if view.last is not None and view.previous_active is not None:
            tinted.add(view.previous_active)
        if view.outcome is None:
            tinted.add(view.active)
        outer += any(face >= 15 for face in tinted)
        png = render_observation("ico", view, names=["Alice", "Bob", "Carol", "Dave"])
        found += [f"{GAME.options_of(state)} {view.seats} seats ply {view.ply}: {p}"
                  for p in tint_problems(png, tinted)]
    assert outer >= 40  # the outer faces were tinted often enough to tell
    assert not found, "\n".join(found[:20])


def test_the_tint_check_sees_a_face_painted_over():
    state = GAME.play(GAME.new(2, {"start": "f0"}), "e5")
    png = render_observation("ico", GAME.observe(state, None))
    assert not tint_problems(png, {0, 5})
    assert tint_problems(png, {0})  # f5 is black, not plain
    image = decode_palette(png)
    black = _colours(image).index(ACTIVE)
    ImageDraw.Draw(image).polygon(FACE_POLYGONS[16], fill=black)  # one more face painted
    out = io.BytesIO()
    image.save(out, "PNG")
    assert any(p.startswith("f16 shows") for p in tint_problems(out.getvalue(), {0, 5}))


# -- the header ---------------------------------------------------------------------------------
def _finished(level: str, antipodal: str, seats: int, seed: int):
    rng = random.Random(seed)
    state = GAME.new(seats, GAME.draw_options({"level": level, "antipodal": antipodal}, rng))
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


def _said(phrase, tr, names) -> str:
    """A phrase as the bot says it, the seats it names written as the players' names."""
    from games.base import Seat

    fields = {key: names[value.index] if isinstance(value, Seat) else value
              for key, value in phrase.fields}
    return tr.gettext(phrase.template).format(**fields)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_long_result_keeps_the_winners_name_and_the_whole_sentence(language, request):
    """The final header with 32-character names, in English and Japanese: every way an ICO
    match ends (each level's result with each seat winning, a resignation, a timeout) is
    drawn whole on at most two lines, the winner's name whole or cut to no fewer than 8
    characters; the names in the seats' row may give way, the sentence may not. One line cut
    it to 「三… が三角形とその正反対の三角形を完成さ…」."""
    if language == "ja":
        request.getfixturevalue("cjk_font")
    from bot import strings
    from bot.i18n import translations
    from games.base import phrase

    tr = translations(language)
    found = []
    for level, antipodal in (("1", "no"), ("1+", "no"), ("2", "no"), ("2+", "no"),
                             ("2+", "yes")):
        state = _finished(level, antipodal, 4, 1)
        view = GAME.observe(state, None)
        for names in (LONGEST, LONGEST[::-1]):
            winner = view.outcome.winners[0] if not view.outcome.draw else 0
            results = [_said(GAME.describe_outcome(state), tr, names),
                       _said(phrase(strings.RESIGNED_WIN, name=names[3], winners=names[winner]),
                             tr, names),
                       _said(phrase(strings.TIMEOUT_WIN, absent=" & ".join(names[1:]),
                                    claimer=names[0]), tr, names)]
            for result in results:
                boxes: list[TextBox] = []
                png = render_observation("ico", view, names=names, result=result, tr=tr,
                                         layout=boxes)
                found += [f"{result}: {p}" for p in layout_problems(png, boxes)]
                header = [b for b in boxes if b.box[3] < 84 and b.box[0] < WIDTH / 2]
                drawn = " ".join(b.text for b in header)
                where = f"{result!r} drawn as {[b.text for b in header]}"
                if len(header) > 2 or _cut_outside_a_name(drawn, names):
                    found.append(f"{where}: cut or too long")
                squash = drawn.replace(" ", "").replace("…", "")
                for name in names:
                    if name in result and name not in drawn and name[:8] not in squash:
                        found.append(f"{where}: {name} cut short")
                rest = result
                for name in sorted(names, key=len, reverse=True):
                    rest = rest.replace(name, "")
                for word in rest.split():
                    if word.replace(" ", "") not in squash and word not in "&;:":
                        found.append(f"{where}: {word!r} is missing")
    assert not found, "\n".join(found[:12])
