"""The ICO map shows what its faces are: each face's polygon is the face's own region of the
projection, a tint covers its faces and nothing else, and every edge and face a text names
is labelled on the picture next to it."""

from __future__ import annotations

import io
import math
import random
import re
from functools import lru_cache

import pytest
from PIL import Image, ImageDraw
from test_render import LONGEST, _cut_outside_a_name, layout_problems

from games import REGISTRY
from games.ico.game import FACE_EDGES, FACES, VERTICES
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
            if colours[index] == FACE_FILL or share < 0.3:
                problems.append(f"f{face} is not tinted ({colours[index]}, {share:.0%})")
        elif colours[index] != FACE_FILL or share < 0.3:
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
    from bot.words import strings
    from bot.words.i18n import translations
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


# -- what a text names, the picture shows ---------------------------------------------------------
EDGE_TOKEN = re.compile(r"(?<![\w-])-?e(\d+)\b")
FACE_INDEX = re.compile(r"(?<![\w-])f(\d+)\b")  # the tables' face index: the map does not draw it
FACE_NUMBER = re.compile(r"\b(?:face|marked) (\d+)\b|「(\d+)」の三角形")


def _distance(box, path) -> float:
    """How far a label's box is from an edge's line (0 if the line passes through it)."""
    x0, y0, x1, y1 = box
    best = math.inf
    for (ax, ay), (bx, by) in zip(path, path[1:], strict=False):
        for k in range(11):
            px, py = ax + (bx - ax) * k / 10, ay + (by - ay) * k / 10
            best = min(best, math.hypot(max(x0 - px, 0, px - x1), max(y0 - py, 0, py - y1)))
    return best


def _inside_face(x: float, y: float, face: int) -> bool:
    return bool(face_masks()[face].getpixel((int(x), int(y))))


def naming_problems(texts: list[str], boxes: list[TextBox], faces: set[int]) -> list[str]:
    """Every edge a text names is labelled within NEAR px of its line (and nearer to it than
    to any other edge); every face it names by its number has that number drawn on it (one of
    `faces`, those the text can mean); no text names a face by its table index."""
    from games.ico.game import FACE_NUMBERS
    from render.ico import NEAR

    problems = []
    for text in texts:
        for token in FACE_INDEX.findall(text):
            problems.append(f"{text!r} names f{token}, which the map does not show")
        for token in EDGE_TOKEN.findall(text):
            edge = int(token)
            labels = [b for b in boxes if b.text == f"e{edge}"]
            if not labels:
                problems.append(f"{text!r}: e{edge} is not labelled")
            for label in labels:
                own = _distance(label.box, EDGE_PATHS[edge])
                x0, y0, x1, y1 = label.box
                centre = ((x0 + x1) / 2, (y0 + y1) / 2) * 2
                nearest = min(range(len(EDGE_PATHS)),
                              key=lambda e: _distance(centre, EDGE_PATHS[e]))
                if own > NEAR + 10:  # the pill's padding around the ink (8 px), rounding
                    problems.append(f"{text!r}: e{edge}'s label is {own:.0f} px from it")
                if nearest != edge:
                    problems.append(f"{text!r}: e{edge}'s label is nearer e{nearest}")
        for found in FACE_NUMBER.findall(text):
            number = int(found[0] or found[1])
            meant = [f for f in faces if FACE_NUMBERS[f] == number]
            drawn = [b for b in boxes if b.text == str(number) and any(
                _inside_face((b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2, f)
                for f in meant)]
            if not meant or not drawn:
                problems.append(f"{text!r}: face {number} is not drawn where it means "
                                f"{[f'f{f}' for f in faces]}")
    return problems


def _near(face: int) -> set[int]:
    """A face, the faces next to it and theirs: where "face 6" can point from the black face
    (face numbers repeat only further away)."""
    from games.ico.game import ACROSS, FACE_EDGES

    ring = {face} | {ACROSS[(face, e)] for e in FACE_EDGES[face]}
    return ring | {ACROSS[(f, e)] for f in ring for e in FACE_EDGES[f]}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_edge_and_face_a_text_names_is_labelled_beside_it(language, request):
    """Random positions of every level and 2-4 seats: the move just played (its notation and
    its effects), the footer that writes it, the descriptions of the moves to choose from,
    and the refusal of a move the balance rules forbid name edges and faces the picture
    labels next to them. The footer named edges with no label (`Last: Green e27`) and the
    effects faces the map never draws (`f7`)."""
    if language == "ja":
        request.getfixturevalue("cjk_font")
    from bot.words.i18n import translations
    from games.base import IllegalMoveError, Phrase

    tr = translations(language)

    def said(text) -> str:
        if not isinstance(text, Phrase):
            return str(text)
        fields = {k: said(v) if isinstance(v, Phrase) else v for k, v in text.fields}
        fields = {k: " ".join(v) if isinstance(v, tuple) else v for k, v in fields.items()}
        return tr.gettext(text.template).format(**fields)

    found = []
    for before, state in random_pairs(60):
        view = GAME.observe(state, None)
        boxes: list[TextBox] = []
        render_observation("ico", view, names=LONGEST[:view.seats], tr=tr, layout=boxes)
        texts = [b.text for b in boxes if b.text.startswith(tr.gettext("Last: {name} {move}")
                                                             .split("{")[0]) and b.text]
        if before is not None and state.last is not None:
            move = GAME.parse_move(before, ("" if state.last[2] else "-") + f"e{state.last[1]}")
            texts.append(GAME.format_move(before, move))
            texts += [said(p) for p in GAME.move_effects(before, move, state)]
        if GAME.outcome(state) is None:
            step = GAME.move_input(state, ())
            if not isinstance(step, str):
                texts += [said(o.label) + " " + said(o.description) for o in step.options]
            legal = {m.edge for m in GAME.legal_moves(state)}
            refused = [e for e in FACE_EDGES[state.active] if e not in legal]
            for edge in refused[:1]:
                try:
                    GAME.apply(state, GAME.parse_move(state, f"e{edge}"))
                except IllegalMoveError as error:
                    texts.append(said(error.phrase))
        faces = _near(state.active)
        found += [f"ply {view.ply}: {p}" for p in naming_problems(texts, boxes, faces)]
    assert not found, "\n".join(found[:20])


def random_pairs(count: int, seed: int = 60):
    """(previous position, position) pairs of random games, every level, 2-4 seats."""
    rng = random.Random(seed)
    found: list = []
    while len(found) < count:
        for level, antipodal, seats in SET_UPS:
            state = GAME.new(seats, GAME.draw_options({"level": level, "antipodal": antipodal},
                                                      rng))
            states = [state]
            while GAME.outcome(state) is None:
                state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
                states.append(state)
            for i in sorted({0, 1, rng.randrange(len(states)), len(states) - 1}):
                found.append((states[i - 1] if i else None, states[i]))
    return found[:count]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_edge_and_face_a_lesson_names_is_labelled_beside_it(language, request):
    """Each step of the ICO lesson, drawn as the lesson draws it (the learner's view): every
    edge and face its texts name (the rule, the task, the choices, and what is said after an
    answer) is labelled on its picture next to it. The lesson named e22, e29, e9, e11 and
    e13, edges the picture never labelled."""
    if language == "ja":
        request.getfixturevalue("cjk_font")
    from bot.words.i18n import translations
    from games.lessons import lesson_for

    tr = translations(language)
    lesson = lesson_for("ico")
    assert lesson is not None
    found = []
    for step in lesson.steps:
        view = GAME.observe(step.position, step.learner)
        boxes: list[TextBox] = []
        png = render_observation("ico", view, names=["You", "Opponent"], tr=tr, layout=boxes)
        found += layout_problems(png, boxes)
        texts = [t.get(language) for t in (step.text, step.task, step.right, step.otherwise,
                                           *step.wrong.values(), *(c.text for c in step.choices))
                 if t is not None]
        faces = _near(step.position.active)
        found += [f"{step.id}: {p}" for p in naming_problems(texts, boxes, faces)]
    assert not found, "\n".join(found)
