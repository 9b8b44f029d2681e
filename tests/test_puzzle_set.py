"""The curated puzzle sets shipped with the kits (games/<kit>/puzzles.json): every puzzle is
re-checked by exhaustive search (games.puzzles.verify), and verify itself is shown to catch
broken puzzles (a wrong solution, a second winning move, a missing or wrong refutation)."""

from __future__ import annotations

import dataclasses

import pytest

from games import KITS, PRODUCT, get_game
from games.puzzles import GOALS, Curated, curated, theme_names, verify

MIN_PER_GAME = 30


@pytest.mark.parametrize("game_id", sorted(PRODUCT))
def test_every_shipped_puzzle_is_sound(game_id):
    found = curated(game_id)
    assert len(found.puzzles) >= MIN_PER_GAME, f"{game_id}: {len(found.puzzles)} puzzles"
    game = get_game(game_id)
    keys = [p.key for p in found.puzzles]
    assert len(set(keys)) == len(keys) and all(k.startswith(f"{game_id}:") for k in keys)
    assert set(found.themes) <= set(theme_names(game))
    for puzzle in found.puzzles:
        assert puzzle.goal in GOALS
        assert all(found.themes[t]["en"] and found.themes[t]["ja"] for t in puzzle.themes)
        problems = verify(game, puzzle)
        assert not problems, (puzzle.key, problems)


def _first(game_id: str, goal: str | None = None) -> Curated:
    puzzles = [p for p in curated(game_id).puzzles if goal is None or p.goal == goal]
    if not puzzles:
        pytest.skip(f"no {goal} puzzle in {game_id}'s set")
    return puzzles[0]


@pytest.mark.parametrize("game_id", sorted(PRODUCT))
def test_verify_finds_a_wrong_solution(game_id):
    puzzle = _first(game_id)
    other, line = next(iter(puzzle.refutations.items()))
    broken = dataclasses.replace(puzzle, solution=other, line=line,
                                 refutations={**{k: v for k, v in puzzle.refutations.items()
                                                 if k != other},
                                              puzzle.solution: puzzle.line})
    problems = verify(get_game(game_id), broken)
    assert any("does not reach the goal" in p for p in problems), problems
    assert any(f"{puzzle.solution} reaches the goal" in p for p in problems), problems


@pytest.mark.parametrize("game_id", sorted(PRODUCT))
def test_verify_finds_a_missing_or_wrong_refutation(game_id):
    puzzle = _first(game_id)
    other, line = next(iter(puzzle.refutations.items()))
    game = get_game(game_id)
    missing = dataclasses.replace(puzzle, refutations={
        k: v for k, v in puzzle.refutations.items() if k != other})
    assert f"{other} has no refutation" in verify(game, missing)
    illegal = dataclasses.replace(puzzle, refutations={**puzzle.refutations,
                                                       other: [other, "zz9"]})
    assert any("not legal" in p for p in verify(game, illegal))
    wrong_start = dataclasses.replace(puzzle, refutations={**puzzle.refutations,
                                                           other: puzzle.line})
    assert any(f"must start with {other}" in p for p in verify(game, wrong_start))


def test_verify_finds_a_second_winning_move():
    """A Progressive Mancala position (self-play, seed 100) where six sowings of seven win at
    once: offered as a win puzzle with one of them, the others are found."""
    from test_puzzles import MANY_WIN

    game = get_game("progressive-mancala")
    state = game.new(2)
    for m in MANY_WIN:
        state = game.play(state, m)
    legal = game.legal_notations(state)
    puzzle = Curated(key="progressive-mancala:test:0", game=game.id, seats=2,
                     options=game.options_of(state), entries=[["move", m] for m in MANY_WIN],
                     seat=game.to_move(state), goal="win", solution="e", line=["e"],
                     refutations={m: [m] for m in legal if m != "e"}, themes=["finish"],
                     turn="test:0")
    problems = verify(game, puzzle)
    assert "f reaches the goal win too" in problems, problems
    assert any(p.startswith("the refutation of f ") for p in problems), problems


def test_verify_finds_entries_that_do_not_replay_and_unknown_themes():
    puzzle = _first("progressive-mancala")
    game = get_game("progressive-mancala")
    assert verify(game, dataclasses.replace(puzzle, entries=[["move", "zz"]]))
    assert any("unknown theme" in p
               for p in verify(game, dataclasses.replace(puzzle, themes=["no-such-theme"])))


def test_every_kit_names_its_puzzle_file():
    for game_id in PRODUCT:
        assert KITS[game_id].puzzles is not None and KITS[game_id].puzzles.exists(), game_id
