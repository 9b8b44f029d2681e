"""Consequence, one test per rule of ../shared/rules/consequence.md, on hand-built positions.

Tile ids: 0-2 blue moon, 3 blue sun, 4-6 blue dot, 7-9 red sun, 10 red moon, 11-13 red dot.
"""

from dataclasses import replace

import pytest

from games import GameOverError, IllegalMoveError, InvalidMoveError, InvalidStateError
from games.consequence.game import (
    EMPTY,
    FINAL,
    GAME,
    KINDS,
    PLAY,
    ConsequenceEnding,
    ConsequenceState,
    Place,
    Push,
    Slide,
    parse_square,
    square_name,
)

BLUE = frozenset(range(7))
RED = frozenset(range(7, 14))


def position(grid=None, *, hands=None, to_move=0, phase=PLAY, just_moved=None, just_placed=None,
             known=None, repetition=True):
    """A hand-built position: `grid` maps square names to tile ids; tiles not on the grid stay
    in their colour's starting hand unless `hands` says otherwise."""
    cells = [EMPTY] * 16
    for name, tile in (grid or {}).items():
        cells[parse_square(name)] = tile
    on_grid = {t for t in cells if t != EMPTY}
    if hands is None:
        hands = (BLUE - on_grid, RED - on_grid)
    hands = (frozenset(hands[0]), frozenset(hands[1]))
    if known is None:  # each side knows its own colour's tiles
        known = (BLUE | hands[0], RED | hands[1])
    state = ConsequenceState(tuple(cells), hands, tuple(frozenset(k) for k in known), to_move,
                             phase, just_moved, just_placed, repetition)
    return replace(state, history=(state.key(),))


def at(state, name):
    return state.grid[parse_square(name)]


def test_components_and_the_start():
    assert sorted(KINDS).count("BM") == 3 and KINDS.count("RS") == 3
    assert sum(k[1] == "M" for k in KINDS) == 4 and sum(k[1] == "S" for k in KINDS) == 4
    assert sum(k[1] == "D" for k in KINDS) == 6
    state = GAME.new()
    assert state.hands == (BLUE, RED) and state.to_move == 0 and state.phase == "opening"


def test_the_opening_is_one_placement_by_the_moon_player_then_the_sun_player_moves():
    state = GAME.new()
    assert all(isinstance(m, Place) for m in GAME.legal_moves(state))
    after = GAME.play(state, "BS@c3")
    assert at(after, "c3") == 3 and after.to_move == 1 and after.phase == PLAY
    assert after.just_placed == 3


def test_place_uses_a_tile_of_that_kind_from_the_hand_on_an_empty_square():
    state = position({"b2": 0}, to_move=1)
    after = GAME.play(state, "RM@c3")
    assert at(after, "c3") == 10 and 10 not in after.hands[1]
    with pytest.raises(IllegalMoveError, match="you have no red moon tile in your hand"):
        GAME.play(replace(after, to_move=1), "RM@a1")
    with pytest.raises(IllegalMoveError, match="b2 is not empty"):
        GAME.play(state, "RS@b2")


def test_move_to_an_adjacent_empty_square_including_diagonals():
    state = position({"b2": 0, "c3": 7}, to_move=0)
    after = GAME.play(state, "b2-a1")
    assert at(after, "a1") == 0 and at(after, "b2") == EMPTY and after.just_moved == 0
    with pytest.raises(IllegalMoveError, match="d4 is not next to b2"):
        GAME.play(state, "b2-d4")
    with pytest.raises(IllegalMoveError, match="c3 is not empty"):
        GAME.play(state, "b2-c3")


def test_the_tile_the_opponent_just_moved_may_not_move():
    state = position({"b2": 0, "c3": 7}, to_move=1, just_moved=0)
    with pytest.raises(IllegalMoveError, match="your opponent just moved that tile"):
        GAME.play(state, "b2-a1")
    assert "b2-a1" not in GAME.legal_notations(state)
    assert "c3-d4" in GAME.legal_notations(state)


def test_place_and_push_slides_the_run_and_the_new_tile_takes_its_first_square():
    # RS@a1>NE: run b2, c3 slides to c3, d4; the new tile ends on b2; a1 is empty again
    state = position({"b2": 0, "c3": 4}, to_move=1)
    after = GAME.play(state, "RS@a1>NE")
    assert at(after, "a1") == EMPTY and at(after, "b2") == 7
    assert at(after, "c3") == 0 and at(after, "d4") == 4
    assert after.last.run == (parse_square("b2"), parse_square("c3"))
    with pytest.raises(IllegalMoveError, match="no tile next to a1 towards N to push"):
        GAME.play(state, "RS@a1>N")


def test_a_tile_pushed_off_goes_to_the_opponents_hand_who_sees_it():
    state = position({"b1": 0, "c1": 3, "d1": 4}, to_move=1)
    after = GAME.play(state, "RD@a1>E")
    assert [square_name(s) for s in range(16) if after.grid[s] != EMPTY] == ["b1", "c1", "d1"]
    assert at(after, "b1") == 11 and at(after, "c1") == 0 and at(after, "d1") == 3
    assert 4 in after.hands[0]  # pushed off by the sun player, handed to the moon player
    assert 4 in after.known[0] and 4 not in after.known[1]
    view = GAME.observe(after, None)
    assert view.last["ejected"] == "B" and view.last["ejected_to"] == 0  # colour only
    assert GAME.observe(after, 0).last["ejected"] == "BD"


def test_the_tile_just_placed_may_slide_but_not_be_pushed_off():
    state = position({"c1": 3, "d1": 4}, to_move=1, just_placed=4)
    with pytest.raises(IllegalMoveError, match="d1 was just placed by your opponent"):
        GAME.play(state, "RD@b1>E")
    slid = position({"b1": 3, "c1": 4}, to_move=1, just_placed=4)
    after = GAME.play(slid, "RD@a1>E")
    assert at(after, "d1") == 4  # it slid, and stayed on the grid


def test_tiles_slid_by_a_push_may_be_moved_next_turn():
    state = position({"b2": 0, "c3": 4}, to_move=1)
    after = GAME.play(state, "RS@a1>NE")
    assert after.just_moved is None
    assert at(GAME.play(after, "d4-d3"), "d3") == 4


def test_the_end_forced_placements_and_the_count():
    # moon player holds one tile; placing it empties the hand: the sun player places the rest
    grid = {"a1": 0, "b1": 1, "c1": 3, "d1": 4, "a2": 5, "b2": 6, "a4": 7, "b4": 8, "c4": 9}
    state = position(grid, hands=({2}, {10, 11, 12, 13}), to_move=0)
    after = GAME.play(state, "BM@c2")
    assert after.phase == FINAL and after.to_move == 1
    assert all(isinstance(m, Place) for m in GAME.legal_moves(after))
    for notation in ("RM@d2", "RD@a3", "RD@b3", "RD@c3"):
        assert GAME.outcome(after) is None
        after = GAME.play(after, notation)
        assert after.to_move == 1 or not after.hands[1]
    # moons: a1 b1 c2 d2 -> a1-b1, b1-c2, c2-d2 = 3; suns: c1, a4 b4 c4 -> a4-b4, b4-c4 = 2
    assert GAME.scores(after) == (3, 2)
    assert GAME.outcome(after).winners == (0,)
    with pytest.raises(GameOverError):
        GAME.play(after, "RD@d4")


def test_scoring_counts_every_adjacent_pair_of_your_symbol_whatever_the_colour():
    grid = {"a1": 0, "b2": 10, "c1": 1, "a2": 7, "d4": 8}  # moons a1, b2 (red), c1
    state = position(grid)
    scores, pairs, _ = GAME.final_scores(state)
    assert scores == (2, 0)  # a1-b2 diagonal and b2-c1 diagonal; a2 and d4 suns are apart
    assert {frozenset((square_name(a), square_name(b))) for _, a, b in pairs} == \
        {frozenset(("a1", "b2")), frozenset(("b2", "c1"))}


def _finished(grid, extra_red=(), extra_blue=()):
    """A finished position: everything placed (hands empty), phase final."""
    state = position(grid, hands=(set(extra_blue), set(extra_red)), to_move=1, phase=FINAL)
    return state


def test_a_tie_is_broken_by_four_in_a_line_else_drawn():
    # moons on a column a1-a4 (3 pairs) vs suns d1 d2 d3 c4 (d1-d2, d2-d3, d3-c4 = 3 pairs)
    grid = {"a1": 0, "a2": 1, "a3": 2, "a4": 10, "d1": 3, "d2": 7, "d3": 8, "c4": 9,
            "b1": 4, "b3": 5, "c1": 6, "c2": 11, "b4": 12, "d4": 13}
    state = _finished(grid)
    assert GAME.scores(state) == (3, 3)
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.ending is ConsequenceEnding.TIE_BREAK
    both = {"a1": 0, "a2": 1, "a3": 2, "a4": 10, "d1": 3, "d2": 7, "d3": 8, "d4": 9,
            "b1": 4, "b2": 5, "b3": 6, "c1": 11, "c2": 12, "c3": 13}
    assert GAME.scores(_finished(both)) == (3, 3) and GAME.outcome(_finished(both)).draw
    # moons a1 a2 b4 d4 (one pair), suns c1 d1 a4 c3 (one pair), no line for anyone
    neither = {"a1": 0, "a2": 1, "b4": 2, "d4": 10, "c1": 3, "d1": 7, "a4": 8, "c3": 9,
               "b1": 4, "b2": 5, "a3": 6, "b3": 11, "c2": 12, "d2": 13}
    assert GAME.scores(_finished(neither)) == (1, 1)
    outcome = GAME.outcome(_finished(neither))
    assert outcome.draw and outcome.winners == (0, 1)


def test_third_repetition_is_a_draw_and_the_option_turns_it_off():
    state = position({"b2": 0, "c3": 7}, to_move=0)
    a = GAME.play(state, "b2-a1")
    b = GAME.play(a, "c3-d4")
    seen_twice = replace(b, history=(b.key(), state.key(), b.key()))
    drawn = replace(b, history=seen_twice.history + (b.key(),))
    assert GAME.outcome(drawn).ending is ConsequenceEnding.REPETITION and GAME.outcome(drawn).draw
    assert GAME.outcome(replace(drawn, repetition=False)) is None


def test_knowledge_follows_tiles_and_the_public_view_has_no_symbols():
    state = GAME.play(GAME.new(), "BS@b2")  # the moon player's own sun, placed on b2
    state = GAME.play(state, "RD@a1>NE")  # the sun player pushes it to c3
    assert at(state, "c3") == 3
    moon, sun, public = (GAME.observe(state, 0), GAME.observe(state, 1),
                         GAME.observe(state, None))
    assert moon.grid[parse_square("c3")].symbol == "S"  # tracked as it slid
    assert moon.grid[parse_square("b2")].symbol is None  # the sun player's tile
    assert sun.grid[parse_square("b2")].symbol == "D" and sun.grid[parse_square("c3")].symbol is None
    assert all(t is None or t.symbol is None for t in public.grid)
    assert public.hand is None and public.hand_sizes == (6, 6)
    assert public.last["notation"] == "R@a1>NE" and sun.last["notation"] == "RD@a1>NE"
    assert moon.hand == ("BD", "BD", "BD", "BM", "BM", "BM")


def test_the_public_view_does_not_depend_on_hidden_symbols():
    one = GAME.play(GAME.play(GAME.new(), "BS@b2"), "RD@c3")
    other = GAME.play(GAME.play(GAME.new(), "BM@b2"), "RS@c3")
    assert GAME.observe(one, None) == GAME.observe(other, None)
    assert GAME.observe(one, 0) != GAME.observe(other, 0)


def test_notation_round_trips_and_the_public_form_is_refused_with_a_hint():
    state = GAME.new()
    for text in ("BM@b2", "b2-c3", "RS@a1>NE"):
        assert GAME.format_move(state, GAME.parse_move(state, text)) == text
    with pytest.raises(InvalidMoveError, match="say which tile: BM \\(moon\\), BS \\(sun\\) or BD"):
        GAME.parse_move(state, "B@b2")
    with pytest.raises(InvalidMoveError, match="write a tile and a square"):
        GAME.parse_move(state, "XX@b2")
    assert GAME.parse_move(state, "rs@a1>ne") == Push("RS", 0, "NE")
    assert GAME.parse_move(state, "a1-b2") == Slide(0, 5)


def test_codec_round_trip_and_rejection():
    state = GAME.play(GAME.play(GAME.new(), "BS@b2"), "RD@a1>NE")
    assert GAME.from_json(GAME.to_json(state)) == state
    data = GAME.to_json(state)
    with pytest.raises(InvalidStateError, match="expected each of the 14 once"):
        GAME.from_json({**data, "hands": [data["hands"][0], data["hands"][1][1:]]})
