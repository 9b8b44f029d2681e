"""Ghostone, one test per rule of ../shared/rules/ghostone.md, on hand-built positions.
Seats are 0-based in code and 1-based in texts."""

from dataclasses import replace

import pytest

from games import GameOverError, IllegalMoveError, InvalidMoveError
from games.ghostone.game import (
    GAME,
    GHOST,
    NO_PAWN,
    PLAY,
    ROLL,
    SETUP_ORDER,
    GhostoneEnding,
    GhostoneState,
    PawnMove,
    Roll,
    SetupMove,
    parse_plate,
    plate_name,
    rock_count,
    total_rocks,
)


def position(pawns, rocks=None, *, seats=3, to_move=0, flipped=(), ghost=None, escaped=None,
             phase=PLAY, passes=0):
    """A hand-built position in play; rocks default to 1 per face-up plate, and the rocks
    not on the board count as removed so that conservation holds."""
    rock_list = [0 if plate_name(p) in flipped else 1 for p in range(16)]
    for name, n in (rocks or {}).items():
        rock_list[parse_plate(name)] = n
    pawn_list = [NO_PAWN] * 16
    for name, seat in pawns.items():
        pawn_list[parse_plate(name)] = seat
    state = GhostoneState(
        seats=seats, rocks=tuple(rock_list), pawns=tuple(pawn_list),
        flipped=frozenset(parse_plate(f) for f in flipped), phase=phase, to_move=to_move,
        setup_index=len(SETUP_ORDER[seats]),
        escaped=escaped or ((),) * seats, ghost=None if ghost is None else parse_plate(ghost),
        removed=total_rocks(seats) - sum(rock_list), passes=passes, end=None)
    assert rock_count(state) == total_rocks(seats)
    return replace(state, history=(state.key(),))


def rocks_at(state, name):
    return state.rocks[parse_plate(name)]


def pawn_at(state, name):
    return state.pawns[parse_plate(name)]


# -- set-up ------------------------------------------------------------------------------
@pytest.mark.parametrize("seats, order, pawns", [(3, [1, 2, 3, 2, 3, 1, 3, 1, 2], 3),
                                                 (4, [1, 2, 3, 4, 4, 3, 2, 1], 2)])
def test_set_up_order_rock_count_and_the_first_turn(seats, order, pawns):
    state = GAME.new(seats)
    assert sum(state.rocks) == 16 and total_rocks(seats) == 16 + 3 * seats * pawns
    seen = []
    plates = ["a1", "d1", "a4", "d4", "b2", "c3", "b3", "c2", "a2"]
    for plate in plates[:len(order)]:
        seen.append(state.to_move + 1)
        move = next(m for m in GAME.legal_moves(state) if plate_name(m.pawn) == plate)
        state = GAME.apply(state, move)
    assert seen == order
    assert state.phase == PLAY and state.to_move == seats - 1  # play starts with seat n
    assert sum(state.rocks) == total_rocks(seats)


def test_a_corner_pawn_forces_its_three_rocks_and_an_edge_has_five_neighbours():
    state = GAME.new(3)
    corner = [m for m in GAME.legal_moves(state) if m.pawn == parse_plate("a1")]
    assert [GAME.format_move(state, m) for m in corner] == ["a1:a2,b1,b2"]
    edge = [m for m in GAME.legal_moves(state) if m.pawn == parse_plate("b1")]
    assert len(edge) == 10  # 3 of 5 neighbours
    with pytest.raises(IllegalMoveError, match="different plates around a1"):
        GAME.play(state, "a1:a2,b1,c3")
    assert GAME.play(state, "b2 : c3, a1, a3").pawns[parse_plate("b2")] == 0
    with pytest.raises(InvalidMoveError, match="three different plates"):
        GAME.parse_move(state, "b2:a1,a1,c3")


# -- a turn ------------------------------------------------------------------------------
def test_a_pawn_steps_orthogonally_and_a_rock_from_its_plate_must_move():
    state = position({"b2": 0, "c3": 1, "d4": 2}, rocks={"b2": 2, "b3": 1})
    legal = GAME.legal_notations(state)
    assert "b2-b3 N" in legal and "b2-c3 N" not in legal and "b2-c2 E" in legal
    assert "b2-b3" not in legal  # b2 has rocks: one must move
    after = GAME.play(state, "b2-b3 E")
    assert pawn_at(after, "b3") == 0 and rocks_at(after, "b2") == 1 and rocks_at(after, "c2") == 2
    with pytest.raises(IllegalMoveError, match="a rock from b2 must move"):
        GAME.play(state, "b2-b3")
    with pytest.raises(IllegalMoveError, match="you have no pawn on c3: your pawns are on b2"):
        GAME.play(state, "c3-c4 N")


def test_a_rock_may_follow_onto_the_pawns_plate_or_leave_from_an_edge():
    state = position({"a2": 0, "c3": 1, "d4": 2}, rocks={"a2": 3})
    onto = GAME.play(state, "a2-b2 E")
    assert rocks_at(onto, "b2") == 2 and pawn_at(onto, "b2") == 0
    off = GAME.play(state, "a2-b2 W")  # from the west edge: out of the game
    assert rocks_at(off, "a2") == 2 and off.removed == state.removed + 1
    assert rock_count(off) == total_rocks(3)


def test_escape_scores_the_rocks_left_behind_before_the_rock_move_plus_a_bonus():
    state = position({"b2": 0, "c3": 1, "d4": 2}, rocks={"b2": 4, "b3": 0})
    after = GAME.play(state, "b2-b3 S")
    assert pawn_at(after, "b3") == NO_PAWN and parse_plate("b3") in after.flipped
    assert after.escaped[0] == ((4, 3),) and GAME.scores(after) == (7, 0, 0)
    assert rocks_at(after, "b1") == 2 and rocks_at(after, "b2") == 3  # the rock moved after
    with pytest.raises(IllegalMoveError, match="cannot go N"):
        GAME.play(state, "b2-b3 N")  # onto the plate just flipped


def test_second_and_third_escapes_score_2_and_1_then_no_bonus():
    state = position({"b2": 0, "c3": 1, "d4": 2, "a4": 0}, rocks={"b3": 0},
                     escaped=(((1, 3),), ((2, 2),), ()))
    after = GAME.play(state, "b2-b3 S")
    assert after.escaped[0][-1] == (1, 1)
    fourth = position({"b2": 0, "c3": 1, "d4": 2, "a4": 0}, rocks={"b3": 0},
                      escaped=(((1, 3), (0, 1)), ((2, 2),), ()))
    assert GAME.play(fourth, "b2-b3 S").escaped[0][-1] == (1, 0)


def test_a_pawn_on_a_plate_that_lost_its_rocks_does_not_escape():
    state = position({"b2": 0, "c3": 1, "d4": 2}, rocks={"b2": 0})
    after = GAME.play(state, "b2-b3")  # no rock to move: written without a direction
    assert pawn_at(after, "b3") == 0 and not after.escaped[0]


def test_flipped_plates_cannot_be_entered_by_pawns():
    state = position({"b2": 0, "c3": 1, "d4": 2}, flipped=("b3",))
    assert not any(n.startswith("b2-b3") for n in GAME.legal_notations(state))


# -- the end ------------------------------------------------------------------------------
def test_the_game_ends_when_one_colour_remains_and_that_escape_moves_no_rock():
    # seat 1 escapes from b2 (2 rocks) as the third escape; only seat 2's pawns remain
    state = position({"b2": 0, "d4": 1, "a4": 1}, rocks={"b2": 2, "b3": 0},
                     escaped=((), ((1, 3),), ((1, 2),)))
    legal = GAME.legal_notations(state)
    assert "b2-b3" in legal and not any(n.startswith("b2-b3 ") for n in legal)
    after = GAME.play(state, "b2-b3")
    assert rocks_at(after, "b2") == 2  # no rock move
    assert after.phase != GHOST  # no ghost when the escape ended the game
    assert GAME.scores(after) == (3, 4, 3)
    outcome = GAME.outcome(after)
    assert outcome.ending is GhostoneEnding.PAWNS and outcome.winners == (1,)
    with pytest.raises(GameOverError):
        GAME.play(after, "d4-d3 S")


def test_equal_highest_scores_share_the_win():
    tie = position({"b2": 0, "d4": 1}, rocks={"b2": 2, "b3": 0},
                   escaped=((), ((1, 3),), ()))
    done = GAME.play(tie, "b2-b3")  # 2 rocks + bonus 2 = 4 = seat 2's 4
    assert GAME.scores(done) == (4, 4, 0)
    assert GAME.outcome(done).winners == (0, 1) and GAME.outcome(done).draw
    assert str(GAME.describe_outcome(done)) == \
        "seat 1 escaped last: seat 1, seat 2 share the lead with 4"


def test_automatic_pass_and_the_all_pass_end():
    # seat 1 is boxed in by flipped plates and pawns: its turn is passed automatically
    state = position({"a1": 0, "b1": 1, "c3": 2}, flipped=("a2",), to_move=2)
    after = GAME.play(state, "c3-c4 S")
    assert after.to_move == 1 and after.passes == 1
    boxed = position({"a1": 0, "b1": 1, "d4": 2}, flipped=("a2", "b2", "c1", "c4", "d3"),
                     to_move=2)
    with pytest.raises(IllegalMoveError):
        GAME.play(boxed, "d4-d3")
    stuck = position({"a1": 0, "b1": 1, "d4": 2}, flipped=("a2", "b2", "c1", "c4", "d3"),
                     to_move=0)
    ended = GAME._begin_turn(replace(stuck, passes=0), 0)
    assert ended.end == "passes" and GAME.outcome(ended).ending is GhostoneEnding.PASSES


# -- the ghost ---------------------------------------------------------------------------
def test_the_third_escaper_places_the_ghost_then_rolls_come_before_seat_1():
    state = position({"b2": 1, "c3": 0, "d4": 2, "a4": 0}, rocks={"b3": 0}, to_move=1,
                     escaped=(((1, 3),), ((1, 2),), ()))
    after = GAME.play(state, "b2-b3 S")
    assert after.phase == GHOST and after.to_move == 1
    assert GAME.legal_notations(after)[0].startswith("ghost ")
    with pytest.raises(IllegalMoveError, match="you place the ghost now"):
        GAME.play(after, "d4-d3 S")
    placed = GAME.play(after, "ghost c2")
    assert placed.ghost == parse_plate("c2") and placed.to_move == 2 and placed.phase == PLAY
    nxt = GAME.play(placed, "d4-d3 S")  # seat 3 moves; seat 1 is next: a roll is due
    assert GAME.is_chance(nxt) and GAME.to_move(nxt) is None
    assert GAME.legal_notations(nxt) == [f"roll {d}" for d in
                                         ("N", "NE", "E", "SE", "S", "SW", "W", "NW")]


def test_the_ghost_wraps_skips_flipped_plates_and_takes_a_rock_from_the_plate_it_left():
    state = position({"a1": 0, "b2": 1, "c3": 2}, rocks={"d4": 3}, ghost="d4", phase=ROLL)
    after = GAME.apply(state, Roll("NE"))  # d4 -> off the north-east corner -> a1
    assert after.ghost == parse_plate("a1") and rocks_at(after, "d4") == 2
    assert after.phase == PLAY and after.to_move == 0
    skip = position({"a1": 0, "b3": 1, "c3": 2}, ghost="a2", phase=ROLL, flipped=("b2", "c2"))
    moved = GAME.apply(skip, Roll("E"))  # a2 -> b2 flipped -> c2 flipped -> d2
    assert moved.ghost == parse_plate("d2") and rocks_at(moved, "a2") == 0
    assert moved.removed == skip.removed + 1


def test_the_ghost_going_round_lands_on_its_own_plate_and_still_takes_a_rock():
    state = position({"a1": 0, "c3": 1, "d3": 2}, rocks={"a2": 2}, ghost="a2", phase=ROLL,
                     flipped=("b2", "c2", "d2"))
    after = GAME.apply(state, Roll("E"))
    assert after.ghost == parse_plate("a2") and rocks_at(after, "a2") == 1
    own_flipped = position({"a1": 0, "c3": 1, "d3": 2}, ghost="a2", phase=ROLL,
                           flipped=("a2", "b2", "c2", "d2"))
    stays = GAME.apply(own_flipped, Roll("W"))
    assert stays.ghost == parse_plate("a2") and stays.removed == own_flipped.removed


def test_notation_round_trips():
    state = GAME.new(3)
    for text in ("b2:a1,a3,c2", "b2-b3 W", "b2-b3", "ghost c3", "roll NE"):
        assert GAME.format_move(state, GAME.parse_move(state, text)) == text
    assert GAME.parse_move(state, "B2-B3 w") == PawnMove(5, 9, "W")
    with pytest.raises(InvalidMoveError, match="write b2:a1,a3,c2 \\(set-up\\)"):
        GAME.parse_move(state, "b2-b3 NE")
    assert GAME.parse_move(state, "roll ne") == Roll("NE")
    assert isinstance(GAME.parse_move(state, "c2:b1,b3,d3"), SetupMove)


def test_the_platform_can_skip_a_timed_out_seat_during_play_only():
    state = position({"b2": 0, "c3": 1, "d4": 2}, to_move=1)
    assert GAME.can_skip(state)
    after = GAME.skip(state)
    assert after.to_move == 2 and after.passes == 1 and after.pawns == state.pawns
    assert not GAME.can_skip(GAME.new(3))
    with pytest.raises(IllegalMoveError, match="only during play"):
        GAME.skip(GAME.new(3))
