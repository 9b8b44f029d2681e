"""The bench's alpha-beta baseline (bench/strength.py): its table and move ordering must only
make it faster. Its root value and its set of best moves are those of plain minimax (no
pruning) at the same depth, with the same material, on random positions of every two-player
perfect-information game."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bench.ai_strength import CONFIGS
from bench.strength import (
    TWO_PLAYER_PI,
    PlainAlphaBeta,
    engine_material,
    material,
)
from games import get_game
from games.pastoral.baseline import last_ply as pastoral_last_ply


def move_values(ab: PlainAlphaBeta, s: Any, depth: int) -> dict[Any, float]:
    """Plain minimax's value of each move of `s` (not over) for its mover: every move, no
    window, no table."""
    e = ab.e
    mover = e.mover(s)
    sign = 1 if mover == 0 else -1
    values = {}
    for move in e.moves(s):
        child = e.play(s, move)
        if child is None:
            continue
        result = e.result(child)
        if result is not None:
            values[move] = 1000.0 * result * sign
        elif depth == 1:
            values[move] = engine_material(ab.game_id, child) * sign
        else:
            v = minimax(ab, child, depth - 1)
            values[move] = v if e.mover(child) == mover else -v
    return values


def minimax(ab: PlainAlphaBeta, s: Any, depth: int) -> float:
    """The value of `s` (not over) for its mover."""
    return max(move_values(ab, s, depth).values(), default=0.0)


def root_values(ab: PlainAlphaBeta, state: Any, depth: int) -> dict[Any, float]:
    """Plain minimax's value of each root move for the seat to move."""
    return move_values(ab, ab.e.enter(state), depth)


def positions(config: str, count: int, seed: int) -> list[Any]:
    """Positions after random openings of various lengths, none over, more than one move."""
    game_id, seats, options = CONFIGS[config]
    game = get_game(game_id)
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new(seats, game.draw_options(options, rng))
        for _ in range(rng.randrange(40)):
            if game.outcome(state) is not None:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None and len(game.legal_moves(state)) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("config", TWO_PLAYER_PI)
@pytest.mark.parametrize("depth", [2, 3])
def test_alpha_beta_is_minimax(config: str, depth: int) -> None:
    game = get_game(CONFIGS[config][0])
    # Pastoral Square has dozens of moves a ply: fewer positions for unpruned minimax at
    # depth 3, more at depth 2 (its last ply has arithmetic of its own)
    count = 8 if config != "pastoral-square" else 30 if depth == 2 else 4
    for i, state in enumerate(positions(config, count, seed=depth * 100 + 1)):
        ab = PlainAlphaBeta(game.id, depth, random.Random(i))
        values = root_values(ab, state, depth)
        value = max(values.values())
        best = {m for m, v in values.items() if v == value}
        top, scored = ab.root(state)
        assert top == value
        # the moves it draws from are exactly minimax's best moves, the others score less
        assert {m for v, m in scored if v == top} == best
        assert all(v < top for v, m in scored if m not in best)
        for seed in range(4):
            move = PlainAlphaBeta(game.id, depth, random.Random(seed)).choose(game, state)
            assert move in {ab.e.to_rules(m) for m in best}


@pytest.mark.parametrize("config", TWO_PLAYER_PI)
def test_engine_material_is_material(config: str) -> None:
    """The baseline's leaves (on the engine's positions) count what greedy counts."""
    game = get_game(CONFIGS[config][0])
    ab = PlainAlphaBeta(game.id, 1, random.Random(0))
    for state in positions(config, 30, seed=5):
        assert engine_material(game.id, ab.e.enter(state)) == material(game.id, state, 0)


def test_pastoral_last_ply_bounds() -> None:
    """Pastoral Square's last ply by arithmetic, against every move played, for windows
    around the value: exact inside the window, a bound on the right side outside it. The
    positions come from random games up to their end, mutilations included."""
    ab = PlainAlphaBeta("pastoral-square", 1, random.Random(0))
    e = ab.e
    game = get_game("pastoral-square")
    rng = random.Random(3)
    checked = mutilations = 0
    for _ in range(25):
        state = game.new(2, game.draw_options(CONFIGS["pastoral-square"][2], rng))
        while game.outcome(state) is None:
            s = e.enter(state)
            seat = e.mover(s)
            sign = 1 if seat == 0 else -1
            base = engine_material(game.id, s) * sign
            values = []
            for move in e.moves(s):
                child = e.play(s, move)
                r = e.result(child)
                v = 1000.0 * r * sign if r is not None else engine_material(game.id, child) * sign
                values.append(v)
                if move is not None and r is None and v != base + move[1]:
                    mutilations += 1
            exact = max(values)
            for alpha, beta in ((-math.inf, math.inf), (exact - 0.5, exact + 0.5),
                                (exact + 0.5, exact + 2.5), (exact - 2.5, exact - 0.5),
                                (exact - 6.5, exact - 4.5), (exact + 4.5, exact + 9.5)):
                got = pastoral_last_ply(e, s, alpha, beta)
                if got is None:
                    continue
                checked += 1
                if alpha < got < beta:
                    assert got == exact
                elif got <= alpha:
                    assert exact <= got
                else:
                    assert exact >= got
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert checked > 1000 and mutilations > 0


def test_playout_policy_bench_plays_each_policy_by_the_rules(capsys) -> None:
    """bench/playout_policy.py: each policy's first move is a legal move of the rules (the
    games are played on the rules, which refuse any other), and a row per policy and opponent."""
    from bench import playout_policy

    assert playout_policy.main(["--games", "6", "--only", "ico-level-2+-antipodal-4-seats"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert [row.split()[1:3] for row in rows] == [
        [policy, opponent] for policy in playout_policy.POLICIES
        for opponent in ("random", "greedy")]
