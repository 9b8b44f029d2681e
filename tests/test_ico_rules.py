"""ICO: the geometry rebuilt from coordinates and checked against every table of the rule file,
then the balance rules and each level's win on hand-built positions."""

import math
from dataclasses import replace
from itertools import combinations

import pytest

from games import IllegalMoveError, InvalidMoveError, InvalidOptionError
from games.ico.game import (
    ACROSS,
    ANTIPODE,
    BELTS,
    BIG_TRIANGLES,
    EDGES,
    FACE_EDGES,
    FACES,
    GAME,
    IcoEnding,
    IcoMove,
    IcoState,
)


def vertices():
    """Vertex 0 the north pole, 1-5 the upper ring from angle 0 anticlockwise, 6-10 the lower
    ring from 36 degrees, 11 the south pole."""
    z, r = 1 / math.sqrt(5), 2 / math.sqrt(5)
    points = [(0.0, 0.0, 1.0)]
    points += [(r * math.cos(math.radians(72 * k)), r * math.sin(math.radians(72 * k)), z)
               for k in range(5)]
    points += [(r * math.cos(math.radians(36 + 72 * k)), r * math.sin(math.radians(36 + 72 * k)),
                -z) for k in range(5)]
    points.append((0.0, 0.0, -1.0))
    return points


def test_edges_are_the_sorted_vertex_pairs_at_edge_length():
    points = vertices()
    length = min(math.dist(a, b) for a, b in combinations(points, 2))
    derived = [(i, j) for i, j in combinations(range(12), 2)
               if abs(math.dist(points[i], points[j]) - length) < 1e-9]
    assert tuple(derived) == EDGES and len(EDGES) == 30


def test_faces_their_order_edges_neighbours_and_antipodes():
    points = vertices()
    edges = set(EDGES)
    triangles = [t for t in combinations(range(12), 3)
                 if all(pair in edges for pair in combinations(t, 2))]

    def centre(t):
        return [sum(points[v][k] for v in t) / 3 for k in range(3)]

    def order(t):
        x, y, z = centre(t)
        angle = math.degrees(math.atan2(y, x)) % 360 or 360.0
        return (-round(z, 9), round(angle, 9))

    triangles.sort(key=order)
    assert [face[0] for face in FACES] == triangles
    for f, (verts, across, antipode) in enumerate(FACES):
        own = [EDGES.index(p) for p in combinations(verts, 2)]
        assert sorted(own) == [e for e, _ in across]
        for edge, other in across:
            assert set(EDGES[edge]) <= set(FACES[other][0]) and other != f
        opposite = [-c for c in centre(verts)]
        assert all(abs(a - b) < 1e-9 for a, b in zip(centre(FACES[antipode][0]), opposite, strict=True))


def test_belts_are_the_zigzags_between_opposite_vertices():
    points = vertices()
    for (pole, other), belt in BELTS.items():
        assert all(abs(a + b) < 1e-9 for a, b in zip(points[pole], points[other], strict=True))
        ring = {v for v in range(12) if any(e == (min(pole, v), max(pole, v)) for e in EDGES)}
        ring2 = {v for v in range(12) if any(e == (min(other, v), max(other, v)) for e in EDGES)}
        derived = sorted(EDGES.index(e) for e in EDGES
                         if (e[0] in ring and e[1] in ring2) or (e[0] in ring2 and e[1] in ring))
        assert derived == list(belt)
    assert len(BELTS) == 6


def test_big_triangles_are_the_outer_edges_of_a_face_and_its_three_neighbours():
    for f in range(20):
        group = [f] + [ACROSS[(f, e)] for e in FACE_EDGES[f]]
        count = {}
        for face in group:
            for e in FACE_EDGES[face]:
                count[e] = count.get(e, 0) + 1
        assert tuple(sorted(e for e, n in count.items() if n == 1)) == BIG_TRIANGLES[f]
    assert tuple(FACES[f][2] for f in range(20)) == ANTIPODE
    assert all(ANTIPODE[ANTIPODE[f]] == f for f in range(20))


# -- rules on hand-built positions ------------------------------------------------------------
def position(marks=None, *, seats=2, level="1", active=0, to_move=0, antipodal=False):
    markers = [[0] * seats for _ in EDGES]
    for edge, seat, n in marks or ():
        markers[edge][seat] = n
    return IcoState(seats, level, antipodal, tuple(tuple(m) for m in markers), active, to_move,
                    0, start=active)


def test_start_face_is_an_option_or_drawn_by_the_host():
    with pytest.raises(InvalidOptionError, match="the host draws the start face"):
        GAME.new(2)
    import random
    drawn = GAME.draw_options({}, random.Random(1))
    assert drawn["start"].startswith("f") and GAME.new(2, drawn).active == int(drawn["start"][1:])
    assert GAME.options_of(GAME.play(GAME.new(2, drawn), GAME.legal_notations(GAME.new(2, drawn))[0])) \
        ["start"] == drawn["start"]
    with pytest.raises(InvalidOptionError, match="antipodal=yes goes with level=2\\+ only"):
        GAME.new(2, {"start": "f0", "antipodal": "yes"})


def test_placing_rolls_the_active_face_over_the_edge():
    state = position(active=0)
    after = GAME.play(state, "e5")
    assert after.markers[5] == (1, 0) and after.active == 5 and after.to_move == 1


def test_colour_balance_one_edge_without_your_colour_must_be_taken():
    state = position([(0, 0, 1), (1, 0, 1)], active=0)  # f0 has e0, e1, e5
    assert GAME.legal_notations(state) == ["e5"]
    with pytest.raises(IllegalMoveError, match="the balance rules allow only e5"):
        GAME.play(state, "e0")


def test_count_balance_among_edges_without_your_colour():
    state = position([(0, 1, 1), (1, 1, 1)], active=0)  # seat 2's markers on e0 and e1
    assert GAME.legal_notations(state) == ["e5"]  # the fewest markers in total
    tie = position([(0, 1, 1)], active=0)
    assert GAME.legal_notations(tie) == ["e1", "e5"]


def test_an_edge_holds_one_marker_of_each_colour_in_level_1():
    state = position([(0, 0, 1), (1, 0, 1), (5, 1, 1)], active=0)
    assert GAME.legal_notations(state) == ["e5"]
    assert GAME.play(state, "e5").markers[5] == (1, 1)


def test_level_1_plus_rolls_without_placing_when_all_three_edges_hold_your_colour():
    state = position([(0, 0, 1), (1, 0, 1), (5, 0, 1)], level="1+", active=0)
    assert GAME.legal_notations(state) == ["-e0", "-e1", "-e5"]
    with pytest.raises(IllegalMoveError, match="you cannot place now"):
        GAME.play(state, "e0")
    after = GAME.play(state, "-e1")
    assert after.markers == state.markers and after.active == 1 and after.idle == 1


def test_level_2_redoubles_with_count_balance():
    state = position([(0, 0, 1), (1, 0, 1), (5, 0, 1), (0, 1, 1)], level="2", active=0)
    assert GAME.legal_notations(state) == ["e1", "e5"]
    assert GAME.play(state, "e1").markers[1] == (2, 0)


def test_no_marker_left_rolls_without_placing():
    all_placed = [(e, 0, 1) for e in range(30)]
    state = position(all_placed, level="2")
    assert GAME.legal_notations(state) == ["-e0", "-e1", "-e5"]


def test_level_1_win_a_face():
    state = position([(0, 0, 1), (1, 0, 1)], active=0)
    after = GAME.play(state, "e5")
    assert GAME.outcome(after).winners == (0,) and GAME.outcome(after).ending is IcoEnding.PATTERN
    assert GAME.legal_moves(after) == []


def test_level_1_plus_needs_the_face_and_its_antipode():
    # f0 (e0 e1 e5) and its antipode f17 (e25 e26 e28)
    state = position([(0, 0, 1), (1, 0, 1), (25, 0, 1), (26, 0, 1), (28, 0, 1)], level="1+")
    after = GAME.play(state, "e5")
    assert GAME.outcome(after).winners == (0,)
    alone = position([(0, 0, 1), (1, 0, 1)], level="1+")
    assert GAME.outcome(GAME.play(alone, "e5")) is None


def test_level_2_belt_and_2_plus_big_triangle_wins():
    belt = BELTS[(0, 11)]
    state = position([(e, 0, 1) for e in belt if e != 7], level="2", active=5)  # f5: e5 e7 e10
    assert GAME.legal_notations(state) == ["e5", "e7"]
    assert GAME.outcome(GAME.play(state, "e7")).winners == (0,)
    outer = BIG_TRIANGLES[0]  # around f0: e2 e4 e6 e7 e9 e10
    big = position([(e, 0, 1) for e in outer if e != 10], level="2+", active=5)
    assert GAME.outcome(GAME.play(big, "e10")).winners == (0,)
    face_only = position([(0, 0, 1), (1, 0, 1)], level="2+", active=0)
    assert GAME.outcome(GAME.play(face_only, "e5")) is None  # a single face does not win


def test_level_2_plus_antipodal_option_needs_both_big_triangles():
    outer, other = BIG_TRIANGLES[0], BIG_TRIANGLES[ANTIPODE[0]]
    marks = [(e, 0, 1) for e in set(outer) | set(other) if e != 10]
    state = position(marks, level="2+", antipodal=True, active=5)
    assert GAME.outcome(GAME.play(state, "e10")).winners == (0,)
    half = position([(e, 0, 1) for e in outer if e != 10], level="2+", antipodal=True, active=5)
    assert GAME.outcome(GAME.play(half, "e10")) is None


def test_idle_turns_draw_house_rule():
    state = replace(position([(0, 0, 1), (1, 0, 1), (5, 0, 1)], level="1+"), idle=3)
    after = GAME.play(state, "-e0")
    assert GAME.outcome(after).draw and GAME.outcome(after).ending is IcoEnding.IDLE


def test_notation():
    state = position()
    assert GAME.parse_move(state, "E12") == IcoMove(12, True)
    assert GAME.parse_move(state, "-e12") == IcoMove(12, False)
    with pytest.raises(InvalidMoveError, match="write an edge such as e12"):
        GAME.parse_move(state, "e30")
    with pytest.raises(IllegalMoveError, match="e12 is not an edge of the black face: use e0, e1, e5"):
        GAME.play(state, "e12")


def test_the_platform_can_skip_a_timed_out_seat_with_three_or_more():
    state = position(seats=3, active=4, to_move=1)
    after = GAME.skip(state)
    assert after.to_move == 2 and after.active == 4 and after.idle == 1
    with pytest.raises(IllegalMoveError, match="3-4 seats"):
        GAME.skip(position(seats=2))


def test_the_pictures_coordinates_are_the_solid_of_the_tables():
    from games.ico.game import VERTICES

    assert all(math.dist(a, b) < 1e-12 for a, b in zip(VERTICES, vertices(), strict=True))
