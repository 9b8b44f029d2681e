"""The kits' fast engines for alpha-beta (games/<kit>/ai.py `ENGINE`) play by the rules, and the
generic alpha-beta (games.search.AlphaBeta) finds wins, proves results and keeps its budget."""

import random

import pytest

from games import get_game
from games.ai import choose_move
from games.ico import ai as ico_ai
from games.mancala import ai as mancala_ai
from games.pastoral import ai as pastoral_ai
from games.search import WIN, AlphaBeta

ENGINES = [
    ("progressive-mancala", {"pits": "11"}, mancala_ai.ENGINE, 40),
    ("progressive-mancala", {"pits": "17"}, mancala_ai.ENGINE, 20),
    ("pastoral-square", {}, pastoral_ai.ENGINE, 12),
    ("ico", {"level": "1", "start": "f5"}, ico_ai.ENGINE, 30),
    ("ico", {"level": "2", "start": "f11"}, ico_ai.ENGINE, 30),
    ("ico", {"level": "2+", "start": "f2", "antipodal": "yes"}, ico_ai.ENGINE, 10),
]


def _seat0_result(outcome):
    if len(outcome.winners) != 1:
        return 0.0
    return 1.0 if outcome.winners[0] == 0 else -1.0


@pytest.mark.parametrize(("game_id", "options", "engine", "games"), ENGINES,
                         ids=[f"{g}-{'-'.join(o.values())}" for g, o, _, _ in ENGINES])
def test_the_fast_engine_plays_by_the_rules(game_id, options, engine, games):
    """Random games: in every position the engine's legal moves are the rules', and each
    move leads to the engine's image of the rules' next position (the same mover, the same
    transposition key, the same result). A repetition draw is the rules' alone: the engines
    do not track it, so the comparison stops there."""
    game = get_game(game_id)
    rng = random.Random(7)
    compared = 0
    for _ in range(games):
        state = game.new(2, options)
        while game.outcome(state) is None:
            s = engine.enter(state)
            assert engine.result(s) is None
            assert engine.mover(s) == state.to_move
            legal = game.legal_moves(state)
            mine = {}
            for move in engine.moves(s):
                child = engine.play(s, move)
                if child is not None:
                    mine[engine.to_rules(move)] = child
            assert set(mine) == set(legal)
            for move, child in mine.items():
                after = game.apply(state, move)
                outcome = game.outcome(after)
                if outcome is not None and outcome.ending.value == "repetition":
                    continue
                if outcome is not None and outcome.winners and len(outcome.winners) == 1:
                    assert engine.result(child) == _seat0_result(outcome)
                    continue
                if outcome is not None:  # a draw: no move left (Mancala) or the idle rule
                    assert engine.result(child) == 0.0 or not [
                        m for m in engine.moves(child) if engine.play(child, m) is not None]
                    continue
                assert engine.result(child) is None
                assert engine.key(child) == engine.key(engine.enter(after))
                assert engine.mover(child) == after.to_move
                assert -1.0 < engine.evaluate(child) < 1.0
                compared += 1
            state = game.apply(state, rng.choice(legal))
    assert compared > 200


def test_alpha_beta_proves_a_two_player_ico_level_1_loss_from_the_start():
    """Two-player level 1 is a second-seat win from every start face (games/ico/solve.py):
    the search proves it for the first seat, as a loss at a distance."""
    game = get_game("ico")
    state = game.new(2, {"level": "1", "start": "f4"})
    line = AlphaBeta(ico_ai.ENGINE, None, None).search(state)
    assert line.value < -WIN / 2


def test_alpha_beta_keeps_its_node_budget_and_is_deterministic():
    game = get_game("progressive-mancala")
    state = game.new(2, {"pits": "17"})
    first = AlphaBeta(mancala_ai.ENGINE, 3000, None).search(mancala_ai.enter(state))
    again = AlphaBeta(mancala_ai.ENGINE, 3000, None).search(mancala_ai.enter(state))
    assert first.nodes <= 3001 and first.depth >= 2
    assert (first.move, first.value) == (again.move, again.value)


def test_alpha_beta_takes_a_win_for_either_seat_and_stops_a_bingo():
    """A Mancala move that reaches the target wins for whichever seat moves; in Pastoral
    Square the first player must claim e4 before the second player's bingo there."""
    game = get_game("progressive-mancala")
    for seat in (0, 1):
        pits = [0] * 11
        # seat 0 sows towards `a` then the goal; seat 1 towards `k` then the goal
        pits[2 if seat == 0 else 8] = 3
        pits[5] = 3
        scores = [27, 20] if seat == 0 else [20, 27]
        state = game.from_json({"pits": pits, "goal": 2, "scores": scores, "to_move": seat,
                                "moves_left": 1, "owed": 0, "repetition": True, "ply": 30,
                                "last": None, "history": []})
        move = choose_move(game, state, level="normal", seed=1, time_cap=None)
        assert game.outcome(game.apply(state, move)).winners == (seat,)
    pastoral = get_game("pastoral-square")
    state = pastoral.from_json({
        "board": {"c4": [1, 4], "d4": [1, 4]}, "held": [4, 3], "stock": [28, 21],
        "to_move": 0, "picked": 1, "pickup_failed": False, "blocked": [], "repetition": True,
        "colour": "black", "ply": 12, "last": None, "history": []})
    for level in ("normal", "hard"):
        move = choose_move(pastoral, state, level=level, seed=2, time_cap=None)
        assert pastoral.format_move(state, move) == "e4:4"


def test_the_wall_clock_cap_stops_alpha_beta(monkeypatch):
    """A search without a node budget stops at its cap: a clock that moves 10 ms each time it
    is read passes a 1 s cap after about 100 readings, one per 256 nodes (no real time is
    measured)."""
    import games.search as search_module

    class Clock:
        now = 0.0

        def perf_counter(self):
            self.now += 0.01
            return self.now

    monkeypatch.setattr(search_module, "time", Clock())
    game = get_game("progressive-mancala")
    state = game.new(2, {"pits": "17"})
    line = search_module.analyse_position(mancala_ai.ENGINE, state, None, 1.0)
    assert 0 < line.nodes <= 256 * 110
    assert mancala_ai.ENGINE.to_rules(line.move) in game.legal_moves(state)
