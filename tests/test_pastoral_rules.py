"""Pastoral Square, one test per rule of ../shared/rules/pastoral-square.md, on hand-built
positions. Positions are given after the pick-up of the player to move."""

from dataclasses import replace

import pytest

from games import GameOverError, IllegalMoveError, InvalidMoveError, InvalidStateError
from games.pastoral.game import (
    CATTLE,
    CORRAL,
    EMPTY,
    GAME,
    HOLDING,
    LINES,
    SQUARES,
    VALUE,
    PastoralEnding,
    PastoralState,
    cell_name,
    parse_cell,
    required_pickup,
)


def position(cells=None, *, held=(0, 0), stock=None, to_move=0, blocked=(), repetition=True):
    owner, count = [EMPTY] * 64, [0] * 64
    for name, (who, n) in (cells or {}).items():
        owner[parse_cell(name)], count[parse_cell(name)] = who, n
    if stock is None:
        rest = 64 - sum(count) - sum(held)
        stock = (rest // 2, rest - rest // 2)
    assert sum(count) + sum(held) + sum(stock) == 64, "hand-built position loses stones"
    state = PastoralState(tuple(owner), tuple(count), tuple(held), tuple(stock), to_move, 0,
                          False, frozenset(parse_cell(c) for c in blocked), repetition, "black")
    return replace(state, history=(state.key(),))


def at(state, name):
    cell = parse_cell(name)
    return (state.owner[cell], state.count[cell])


def names(cells):
    return sorted(cell_name(c) for c in cells)


# -- board -------------------------------------------------------------------------------
def test_three_regions_and_the_corral_values():
    assert len(CORRAL) == 16 and len(HOLDING) == 16 and len(CATTLE) == 32
    assert names(HOLDING) == sorted(["a1", "b1", "a2", "b2", "g1", "h1", "g2", "h2", "a7", "b7", "a8", "b8", "g7", "h7", "g8", "h8"])
    rows = [[VALUE[parse_cell(f"{f}{r}")] for f in "cdef"] for r in (6, 5, 4, 3)]
    assert rows == [[2, 3, 3, 2], [3, 4, 4, 3], [3, 4, 4, 3], [2, 3, 3, 2]]


def test_56_mutilation_squares_and_the_d4_examples():
    assert len(SQUARES) == 56
    per_cell = {a: sum(1 for s in SQUARES if s.a == a) for a in CORRAL}
    assert set(per_cell.values()) == {2, 4, 6}
    d4 = sorted((cell_name(s.d), cell_name(s.b), cell_name(s.c))
                for s in SQUARES if s.a == parse_cell("d4"))
    assert d4 == [("a1", "a4", "d1"), ("a7", "a4", "d7"), ("b2", "b4", "d2"),
                  ("g1", "g4", "d1"), ("g7", "g4", "d7"), ("h8", "h4", "d8")]


def test_24_bingo_lines_inside_the_corral():
    assert len(LINES) == 24 and all(set(line) <= CORRAL for line in LINES)


# -- set-up and pick-up ----------------------------------------------------------------
def test_start_stocks_and_the_first_pick_up():
    state = GAME.new()
    assert state.stock == (30, 32) and state.held == (2, 0) and state.picked == 2
    assert GAME.legal_notations(state) == ["save", "c3:2", "f3:2", "c6:2", "f6:2"]


@pytest.mark.parametrize("held, picked", [(0, 2), (3, 2), (4, 1), (5, 0)])
def test_pick_up_depends_on_held_stones(held, picked):
    assert required_pickup(held) == picked
    state = position(held=(2, held))
    after = GAME.play(state, "save")
    assert after.to_move == 1 and after.picked == picked
    assert after.held[1] == held + picked and after.stock[1] == state.stock[1] - picked


def test_a_short_stock_loses_at_once():
    cattle = ["a3", "a4", "a5", "a6", "b3", "b4", "b5", "b6", "g3", "g4", "g5"]
    cells = {name: (i % 2, 5) for i, name in enumerate(cattle)} | {"g6": (1, 3)}
    state = position(cells, held=(2, 2), stock=(1, 1))  # 58 on the board
    after = GAME.play(state, "save")  # the second player holds 2, must take 2, has 1
    outcome = GAME.outcome(after)
    assert outcome.winners == (0,) and outcome.ending is PastoralEnding.PICKUP_FAILURE
    assert GAME.legal_moves(after) == [] and GAME.to_move(after) is None
    assert after.held == (2, 2) and after.stock == (1, 1)  # nothing was taken


# -- corral actions ----------------------------------------------------------------------
def test_placing_in_the_corral_takes_exactly_the_cells_value():
    state = position(held=(5, 0))
    with pytest.raises(IllegalMoveError, match="claiming d4 takes exactly 4 stones"):
        GAME.play(state, "d4:3")
    with pytest.raises(IllegalMoveError, match="claiming d4 takes exactly 4 stones"):
        GAME.play(state, "d4:5")
    after = GAME.play(state, "d4:4")
    assert at(after, "d4") == (0, 4) and after.held[0] == 1
    with pytest.raises(IllegalMoveError, match="you hold 2 stones, not 4"):
        GAME.play(position(held=(2, 0)), "d4:4")


def test_stacking_on_your_own_corral_cell_up_to_five():
    state = position({"c3": (0, 2), "f3": (1, 2)}, held=(5, 0))
    after = GAME.play(state, "c3:3")
    assert at(after, "c3") == (0, 5)
    with pytest.raises(IllegalMoveError, match="c3 has 2 stones; you can add at most 3"):
        GAME.play(state, "c3:4")
    with pytest.raises(IllegalMoveError, match="f3 belongs to your opponent"):
        GAME.play(state, "f3:1")


def test_holding_areas_take_no_stones():
    with pytest.raises(IllegalMoveError, match="a1 is in a holding area"):
        GAME.play(position(held=(3, 0)), "a1:1")


# -- cattle actions: reach ---------------------------------------------------------------
def test_no_cattle_action_on_the_first_turn():
    state = GAME.new()
    with pytest.raises(IllegalMoveError, match="neither a mutilation nor a reach"):
        GAME.play(state, "a4:1")


def test_a_reach_needs_a_divisor_of_the_opponents_stack():
    state = position({"d4": (1, 4)}, held=(4, 0))
    assert at(GAME.play(state, "a4:1"), "a4") == (0, 1)
    assert at(GAME.play(state, "a4:2"), "a4") == (0, 2)
    assert at(GAME.play(state, "a4:4"), "a4") == (0, 4)
    with pytest.raises(IllegalMoveError, match="3 stones on a4 must divide"):
        GAME.play(state, "a4:3")


def test_a_reach_is_refused_when_the_partner_cell_is_the_opponents():
    # a4 pairs with d1 and d7 (A = d4); both partners are the opponent's
    state = position({"d4": (1, 4), "d1": (1, 1), "d7": (1, 1)}, held=(4, 0))
    with pytest.raises(IllegalMoveError, match="neither a mutilation nor a reach"):
        GAME.play(state, "a4:1")
    # with one partner free again, the reach is legal
    state = position({"d4": (1, 4), "d1": (1, 1)}, held=(4, 0))
    assert at(GAME.play(state, "a4:1"), "a4") == (0, 1)


def test_a_reach_needs_the_opponents_stones_at_a():
    state = position({"d4": (0, 4)}, held=(4, 0))  # d4 is the mover's own
    with pytest.raises(IllegalMoveError, match="neither a mutilation nor a reach"):
        GAME.play(state, "a4:1")


# -- cattle actions: mutilation ----------------------------------------------------------
def test_a_placement_fires_a_mutilation_even_total():
    state = position({"d4": (1, 4), "d1": (0, 2)}, held=(2, 0))
    after = GAME.play(state, "a4:2")  # 2 x 2 = 4
    for cell in ("d4", "a4", "d1"):
        assert at(after, cell) == (EMPTY, 0)
    mut = after.last.mutilation
    assert sorted((cell_name(c), o, n) for c, o, n in mut.removed) == \
        [("a4", 0, 2), ("d1", 0, 2), ("d4", 1, 4)]
    assert mut.to_stocks == 4 and mut.to_held == 0
    assert after.stock[0] == state.stock[0] + 4
    assert after.stock[1] == state.stock[1] + 4 - after.picked  # then the victim picks up


def test_a_stack_fires_a_mutilation():
    state = position({"d4": (1, 4), "d1": (0, 2), "a4": (0, 1)}, held=(2, 0))
    after = GAME.play(state, "a4:1")
    assert after.last.mutilation is not None and at(after, "d4") == (EMPTY, 0)


def test_two_squares_fire_at_once_and_an_odd_total_gives_the_mover_one():
    # a4 is B of (A=c4, C=c2) and of (A=d4, C=d1): 1 x 3 = 3 and 1 x 4 = 4
    state = position({"c4": (1, 3), "c2": (0, 3), "d4": (1, 4), "d1": (0, 4)}, held=(1, 0))
    after = GAME.play(state, "a4:1")
    mut = after.last.mutilation
    assert len(mut.squares) == 2
    assert names(c for c, _, _ in mut.removed) == ["a4", "c2", "c4", "d1", "d4"]
    assert sum(n for _, _, n in mut.removed) == 15
    assert mut.to_stocks == 7 and mut.to_held == 1
    assert after.held[0] == 0 + 1  # spent its only stone, got one back
    assert after.blocked == frozenset({parse_cell("c4"), parse_cell("d4")})


def test_only_the_movers_action_on_b_or_c_fires():
    # the second player stacks A (d4) to 4 = 2 x 2 with the first player's reach in place
    state = position({"d4": (1, 3), "a4": (0, 2), "d1": (0, 2)}, held=(0, 1), to_move=1)
    after = GAME.play(state, "d4:1")
    assert at(after, "d4") == (1, 4) and after.last.mutilation is None
    assert at(after, "a4") == (0, 2) and at(after, "d1") == (0, 2)


def test_the_victim_may_not_place_on_the_emptied_cell_next_turn_only():
    state = position({"d4": (1, 4), "d1": (0, 2)}, held=(2, 5))
    after = GAME.play(state, "a4:2")
    assert after.to_move == 1 and after.blocked == frozenset({parse_cell("d4")})
    with pytest.raises(IllegalMoveError, match="your stones on d4 were just mutilated"):
        GAME.play(after, "d4:4")
    assert "d4:4" not in GAME.legal_notations(after)
    later = GAME.play(GAME.play(after, "save"), "save")
    assert later.to_move == 1 and later.blocked == frozenset()
    assert "d4:4" in GAME.legal_notations(later)


def test_the_opponents_cattle_cell_cannot_be_used():
    state = position({"d4": (1, 4), "a4": (1, 1)}, held=(4, 0))
    with pytest.raises(IllegalMoveError, match="a4 belongs to your opponent"):
        GAME.play(state, "a4:1")


# -- bingo -------------------------------------------------------------------------------
def test_bingo_on_a_rank_with_equal_counts():
    state = position({"c3": (0, 3), "d3": (0, 3)}, held=(3, 0))
    after = GAME.play(state, "e3:3")
    outcome = GAME.outcome(after)
    assert outcome.winners == (0,) and outcome.ending is PastoralEnding.BINGO
    assert GAME.legal_moves(after) == []
    with pytest.raises(GameOverError):
        GAME.play(after, "save")


def test_unequal_counts_are_no_bingo_and_a_diagonal_counts():
    state = position({"c3": (0, 2), "d3": (0, 3)}, held=(3, 0))
    assert GAME.outcome(GAME.play(state, "e3:3")) is None
    diagonal = position({"c3": (0, 4), "d4": (0, 4)}, held=(4, 0))
    assert GAME.outcome(GAME.play(diagonal, "e5:4")).winners == (0,)


# -- house rule, notation, codec ---------------------------------------------------------
def test_third_repetition_is_a_draw_and_the_option_turns_it_off():
    state = position(held=(5, 5))
    a = GAME.play(state, "save")
    b = GAME.play(a, "save")
    assert b.key() == state.key()
    seen_twice = replace(state, history=(state.key(), a.key(), state.key()))
    drawn = GAME.play(GAME.play(seen_twice, "save"), "save")
    assert GAME.outcome(drawn).draw and GAME.outcome(drawn).ending is PastoralEnding.REPETITION
    off = replace(seen_twice, repetition=False)
    assert GAME.outcome(GAME.play(GAME.play(off, "save"), "save")) is None


def test_notation_round_trips_and_bad_text_is_explained():
    state = position(held=(4, 0))
    assert GAME.format_move(state, GAME.parse_move(state, " D4:4 ")) == "d4:4"
    assert GAME.format_move(state, GAME.parse_move(state, "SAVE")) == "save"
    for text in ("d9:1", "d4", "x", "d4:²", "d²:1", "d4:" + "9" * 5000):
        with pytest.raises(InvalidMoveError, match="write save, or a cell and a number of stones"):
            GAME.parse_move(state, text)
    # the format is right but the count is not: the refusal says what is wrong with it
    with pytest.raises(IllegalMoveError, match="a cell holds at most 5 stones"):
        GAME.play(state, "d4:6")
    with pytest.raises(IllegalMoveError, match="put at least one stone"):
        GAME.play(state, "d4:0")
    with pytest.raises(IllegalMoveError, match="you hold 4 stones, not 5"):
        GAME.play(state, "c3:5")


def test_codec_round_trip_and_rejection():
    state = GAME.play(position({"d4": (1, 4), "d1": (0, 2)}, held=(2, 0)), "a4:2")
    assert GAME.from_json(GAME.to_json(state)) == state
    data = GAME.to_json(state)
    with pytest.raises(InvalidStateError, match="expected 64"):
        GAME.from_json({**data, "stock": [data["stock"][0] + 1, data["stock"][1]]})
    with pytest.raises(InvalidStateError, match="a1"):
        GAME.from_json({**data, "board": {"a1": [0, 1]}})
