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
from bench.strength import TWO_PLAYER_PI, PlainAlphaBeta, engine_material, material
from games import get_game


def minimax(ab: PlainAlphaBeta, s: Any, depth: int) -> float:
    """The value of `s` (not over) for its mover: every move, no window, no table."""
    e = ab.e
    mover = e.mover(s)
    sign = 1 if mover == 0 else -1
    best = -math.inf
    for move in e.moves(s):
        child = e.play(s, move)
        if child is None:
            continue
        result = e.result(child)
        if result is not None:
            v = 1000.0 * result * sign
        elif depth == 1:
            v = engine_material(ab.game_id, child) * sign
        elif e.mover(child) == mover:
            v = minimax(ab, child, depth - 1)
        else:
            v = -minimax(ab, child, depth - 1)
        best = max(best, v)
    return 0.0 if best == -math.inf else best


def root_values(ab: PlainAlphaBeta, state: Any, depth: int) -> dict[Any, float]:
    """Plain minimax's value of each root move for the seat to move."""
    e = ab.e
    s = e.enter(state)
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
    # Pastoral Square has dozens of moves a ply: fewer positions for unpruned minimax
    count = 3 if config == "pastoral-square" and depth == 3 else 8
    exact_ties = 0
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
        exact_ties += len(best) > 1
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
