"""Progressive Mancala rules, one test per rule of ../shared/rules/progressive-mancala.md."""

from dataclasses import replace

import pytest

from games import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
)
from games.mancala import game as mancala
from games.mancala.game import GAME, MancalaEnding, MancalaMove, MancalaState, RelayLoopError, sow

GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]
GAME2_SCORES = [(1, 0), (1, 2), (2, 2), (2, 6), (3, 6), (3, 7), (3, 7), (3, 12), (3, 15),
                (3, 15), (3, 15), (3, 21), (5, 21), (5, 21), (5, 28)]
GOAL = 11


def position(pits, *, goal=None, scores=(0, 0), to_move=0, moves_left=1, owed=0,
             repetition=True):
    """A hand-built position. Without `goal`, the seeds not on the board or scored are there,
    so that the 55 (or 85) seeds are conserved."""
    total = 5 * len(pits)
    if goal is None:
        goal = total - sum(pits) - sum(scores)
    assert sum(pits) + goal + sum(scores) == total, "hand-built position loses seeds"
    state = MancalaState(tuple(pits), goal, tuple(scores), to_move, moves_left, owed, repetition)
    return replace(state, history=(state.key(),))


def letters(path):
    return ["goal" if p == GOAL else chr(97 + p) for p in path]


def test_start_position():
    state = GAME.new()
    assert state.pits == (5,) * 11 and state.goal == 0 and state.scores == (0, 0)
    assert GAME.legal_notations(state) == list("abcdefghijk")
    assert GAME.to_move(state) == 0


def test_game2_every_score_the_goal_and_the_relay_of_move_14():
    state = GAME.new()
    for ply, (move, expected) in enumerate(zip(GAME2, GAME2_SCORES, strict=True), start=1):
        state = GAME.play(state, move)
        assert state.scores == expected, f"after move {ply} ({move})"
        if ply == 11:
            assert state.goal == 5
        if ply == 14:
            assert letters(state.last.path) == ["a", "d", "g", "e", "c", "a", "k", "d", "b", "h", "c", "a", "k", "i", "c"]
            assert state.last.ended_empty
    outcome = GAME.outcome(state)
    assert outcome.winners == (1,) and outcome.ending is MancalaEnding.TARGET
    assert GAME.legal_moves(state) == []


def test_first_player_sows_towards_a_then_goal():
    # k holds 2: one seed to j, one to i (i was empty) -> ends there
    state = position([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2], scores=(20, 20))
    after = GAME.play(state, "k")
    assert after.pits == (0,) * 8 + (1, 1, 0)
    assert after.last.path == (10, 8) and after.last.ended_empty


def test_first_player_sows_from_a_into_the_goal():
    state = position([1] + [0] * 10 + [], goal=3, scores=(26, 25))
    after = GAME.play(state, "a")
    assert after.scores == (30, 25) and after.last.path == (0, GOAL)


def test_second_player_sows_towards_k_then_goal():
    state = position([0] * 5 + [20] + [0] * 4 + [1], goal=1, scores=(20, 13), to_move=1)
    after = GAME.play(state, "k")
    assert after.scores == (20, 15) and after.last.path == (10, GOAL)
    state = position([2] + [0] * 10, scores=(20, 20), to_move=1)
    after = GAME.play(state, "a")
    assert after.pits == (0, 1, 1) + (0,) * 8


def test_relay_takes_the_landing_pit_and_sows_on():
    # second player: a(1) -> b which holds 1 -> take 2 -> c, d: d empty -> ends
    state = position([1, 1] + [0] * 9, scores=(20, 20), to_move=1)
    after = GAME.play(state, "a")
    assert after.last.path == (0, 1, 3)
    assert after.pits == (0, 0, 1, 1) + (0,) * 7


def test_sowing_does_not_skip_the_origin_pit():
    # 12 seeds from k (first player) lap the 12-position cycle and land back in k, now empty
    state = position([0] * 10 + [12], scores=(20, 20))
    after = GAME.play(state, "k")
    assert after.pits == (1,) * 11 and after.goal == 4 and after.last.ended_empty
    assert after.last.path == (10, 10)


def test_goal_capture_takes_every_seed_in_the_goal():
    state = position([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23], goal=6, scores=(10, 15))
    after = GAME.play(state, "a")
    assert after.scores == (17, 15) and after.goal == 0


def test_goal_carries_over_after_an_empty_pit_ending():
    state = position([0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0], goal=4, scores=(20, 25))
    after = GAME.play(state, "c")  # c -> b, empty: ends
    assert after.goal == 4 and after.scores == (20, 25)


def test_empty_pit_ending_gives_the_opponent_one_extra_move():
    state = GAME.new()
    after = GAME.play(GAME.play(GAME.play(state, "k"), "c"), "h")
    after = GAME.play(GAME.play(GAME.play(after, "k"), "d"), "j")
    after = GAME.play(after, "g")  # ends in an empty pit
    assert after.to_move == 1 and after.moves_left == 2
    after = GAME.play(after, "c")
    assert after.to_move == 1 and after.moves_left == 1  # the extra move is compulsory
    after = GAME.play(after, "a")
    assert after.to_move == 0


def test_extra_moves_are_cumulative_and_do_not_cut_the_turn_short():
    # first player has 2 moves this turn; both end in empty pits -> second player gets 3
    state = position([0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 30], scores=(10, 13), moves_left=2)
    after = GAME.play(state, "c")  # c -> b (empty)
    assert after.to_move == 0 and after.owed == 1 and after.moves_left == 1
    after = GAME.play(after, "f")  # f -> e (empty)
    assert after.to_move == 1 and after.moves_left == 3 and after.owed == 0


def test_the_opponent_moves_during_the_extra_moves_grant_back():
    # second player's bonus move ending empty is owed to the first player next turn
    state = position([0, 1, 0, 0, 0, 20, 0, 0, 0, 0, 1], scores=(10, 14), to_move=1,
                     moves_left=2)
    after = GAME.play(state, "b")  # b -> c empty
    assert after.to_move == 1 and after.owed == 1
    after = GAME.play(after, "k")
    assert after.to_move == 0 and after.moves_left == 2


def test_28_wins_at_once():
    state = position([1] + [0] * 10, goal=1, scores=(26, 27))
    after = GAME.play(state, "a")
    assert after.scores == (28, 27)
    assert GAME.outcome(after).winners == (0,)
    assert GAME.to_move(after) is None and GAME.legal_moves(after) == []
    with pytest.raises(GameOverError, match="the game is over"):
        GAME.play(after, "a")


def test_expert_variant_has_17_pits_85_seeds_and_43_wins():
    state = GAME.new(options={"pits": "17"})
    assert state.pits == (5,) * 17 and state.target == 43
    assert GAME.legal_notations(state) == list("abcdefghijklmnopq")
    assert GAME.parse_move(state, "q") == MancalaMove(16)
    with pytest.raises(InvalidMoveError, match="write the letter of a pit, a to q"):
        GAME.parse_move(state, "r")
    won = position([42] + [0] * 15 + [1], goal=42, to_move=1)
    after = GAME.play(won, "q")
    assert after.scores == (0, 43) and GAME.outcome(after).winners == (1,)
    one_short = position([42] + [0] * 15 + [1], goal=41, scores=(1, 0), to_move=1)
    assert GAME.outcome(GAME.play(one_short, "q")) is None


def test_relay_loop_guard_refuses_a_looping_pit(monkeypatch):
    # Loops cannot occur on the real cycle (each lap feeds the goal); a goal-less cycle loops.
    ring = [0] * 12
    for pos in range(1, 11):
        ring[pos] = pos - 1
    ring[0] = 10
    monkeypatch.setitem(mancala._NEXT, (11, 0), tuple(ring))
    pits = (1, 2, 0, 1, 0, 1, 0, 3, 2, 0, 2)
    with pytest.raises(RelayLoopError, match="sowing from k would relay forever"):
        sow(pits, 0, 0, 10)
    state = position(pits, scores=(20, 20))
    assert "k" not in GAME.legal_notations(state)
    with pytest.raises(IllegalMoveError):
        GAME.play(state, "k")


def test_third_repetition_is_a_draw_and_the_option_turns_it_off():
    before = position([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 30], scores=(10, 14))
    after = GAME.play(before, "c")
    seen_twice = replace(before, history=(after.key(), after.key(), before.key()))
    drawn = GAME.play(seen_twice, "c")
    outcome = GAME.outcome(drawn)
    assert outcome.draw and outcome.winners == (0, 1) and outcome.ending is MancalaEnding.REPETITION
    assert GAME.legal_moves(drawn) == []
    off = replace(seen_twice, repetition=False)
    assert GAME.outcome(GAME.play(off, "c")) is None
    once = replace(before, history=(after.key(), before.key()))
    assert GAME.outcome(GAME.play(once, "c")) is None


def test_a_capture_clears_the_repetition_history():
    state = GAME.play(GAME.new(), "k")  # scores 1-0
    assert state.history == (state.key(),)


def test_bad_input_is_explained():
    state = GAME.new()
    with pytest.raises(InvalidMoveError, match="write the letter of a pit, a to k"):
        GAME.parse_move(state, "z")
    with pytest.raises(InvalidMoveError, match="write the letter of a pit"):
        GAME.parse_move(state, " L ")
    empty = GAME.play(state, "k")
    with pytest.raises(IllegalMoveError, match="pit k is empty"):
        GAME.play(empty, "k")


def test_options_are_validated():
    from games import InvalidOptionError, InvalidSeatsError
    with pytest.raises(InvalidOptionError, match="pits can be 11, 17, not 13"):
        GAME.new(options={"pits": "13"})
    with pytest.raises(InvalidOptionError, match="Progressive Mancala has no option colour"):
        GAME.new(options={"colour": "red"})
    with pytest.raises(InvalidSeatsError, match="played by 2 players, not 3"):
        GAME.new(3)


def test_codec_rejects_broken_states():
    data = GAME.to_json(GAME.play(GAME.new(), "k"))
    assert GAME.from_json(data) == GAME.play(GAME.new(), "k")
    with pytest.raises(InvalidStateError, match="54 seeds"):
        GAME.from_json({**data, "goal": data["goal"] - 1 if data["goal"] else 0,
                        "pits": [data["pits"][0] - 1] + data["pits"][1:]})
    with pytest.raises(InvalidStateError, match="13 pits"):
        GAME.from_json({**data, "pits": [5] * 13})
    with pytest.raises(InvalidStateError, match="to_move 2"):
        GAME.from_json({**data, "to_move": 2})
    with pytest.raises(InvalidStateError, match="malformed"):
        GAME.from_json({"pits": [5] * 11})


def test_the_remembered_sowable_pits_are_those_that_sow_and_the_memory_stays_bounded():
    import random

    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        state = GAME.new(2, {"pits": rng.choice(["11", "17"])})
        while GAME.outcome(state) is None:
            expected = []
            for pit in range(state.size):
                if not state.pits[pit]:
                    continue
                try:
                    sow(state.pits, state.goal, state.to_move, pit)
                except RelayLoopError:
                    continue
                expected.append(pit)
            assert [m.pit for m in GAME.legal_moves(state)] == expected
            assert mancala.sowable(state.pits, state.goal, state.to_move) == tuple(expected)
            checked += 1
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert checked > mancala._SOWABLE_SIZE  # more positions than it remembers
    assert len(mancala._SOWABLE) <= mancala._SOWABLE_SIZE
