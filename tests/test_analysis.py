"""Post-game analysis (games/analysis.py) and `python -m games analyse`: a deliberate blunder is
found among the mistakes, die rolls count in the indexes, hidden information stays hidden, and
bad input is one clear line with exit status 2."""

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import get_game
from games.ai import choose_move
from games.analysis import (
    LINE_PLIES,
    NOTICEABLE,
    AnalysisError,
    analyse,
    assemble,
    noise,
    replayed,
)
from games.mancala import ai as mancala_ai
from games.record import format_record, parse_record
from games.search import AlphaBeta

ROOT = Path(__file__).resolve().parents[1]


def run(*args):
    return subprocess.run([sys.executable, "-m", "games", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def blunder_record() -> tuple[str, int]:
    """A Mancala record whose moves are the normal AI's but one: at move 9 the mover plays the
    move a depth-4 search values lowest, well below the best. Returns (text, its index)."""
    game = get_game("progressive-mancala")
    start = state = game.new(2, {"pits": "11"})
    notations = []
    bad = None
    while game.outcome(state) is None and len(notations) < 16:
        move = choose_move(game, state, level="normal", seed=0, time_cap=None)
        if bad is None and len(notations) >= 8:
            engine, s = mancala_ai.ENGINE, mancala_ai.enter(state)
            search = AlphaBeta(engine, None, None)
            values = {pit: search.child_value(engine.play(s, pit), state.to_move, 3, -math.inf,
                                              math.inf, 1) for pit in engine.moves(s)}
            worst = min(values, key=values.get)
            if max(values.values()) - values[worst] > 0.3:
                move, bad = engine.to_rules(worst), len(notations) + 1
        notations.append(game.format_move(state, move))
        state = game.apply(state, move)
    assert bad is not None
    return format_record(game, start, notations), bad


def test_the_cli_finds_a_deliberate_blunder_among_the_mistakes(tmp_path):
    text, bad = blunder_record()
    path = tmp_path / "blunder.txt"
    path.write_text(text, encoding="utf-8")
    done = run("analyse", str(path), "--level", "normal", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "progressive-mancala"
    moves = result["moves"]
    assert [m["index"] for m in moves] == list(range(1, len(moves) + 1))
    assert set(moves[0]) == {"index", "seat", "move", "best", "win", "loss"}
    assert all(len(m["win"]) == 2 and abs(sum(m["win"]) - 1) < 0.01 for m in moves)
    assert moves[bad - 1]["best"] != moves[bad - 1]["move"] and moves[bad - 1]["loss"] > 0.1
    assert bad in result["mistakes"] and len(result["mistakes"]) <= 3
    losses = [moves[i - 1]["loss"] for i in result["mistakes"]]
    assert losses == sorted(losses, reverse=True)
    table = run("analyse", str(path), "--level", "normal", "--quiet")
    assert table.returncode == 0 and f"move {bad} (seat" in table.stdout


def test_bad_input_is_one_line_and_status_2(tmp_path):
    text, _ = blunder_record()
    good = tmp_path / "good.txt"
    good.write_text(text, encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text("hello\n", encoding="utf-8")
    for args in (("analyse", str(tmp_path / "missing.txt")), ("analyse", str(other)),
                 ("analyse", str(good), "--level", "expert")):
        done = run(*args)
        assert done.returncode == 2, args
        assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr


def test_die_rolls_count_in_the_indexes_and_are_nobodys_mistake():
    game = get_game("ghostone")
    rng = random.Random(3)
    state = game.new(3)
    for _ in range(40):  # the first roll comes after the set-up, near move 47 here
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    start, notations = state, []
    while len(notations) < 15 and game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        notations.append(game.format_move(state, move))
        state = game.apply(state, move)
    analysis = analyse(game, start, notations, level="easy", time_cap=None)
    assert [m.index for m in analysis.moves] == list(range(1, len(notations) + 1))
    rolls = [m for m in analysis.moves if m.seat is None]
    assert rolls and all(m.loss == 0 and m.best is None for m in rolls)
    assert all(len(m.win) == 3 for m in analysis.moves)


def test_a_hidden_information_game_in_progress_is_not_analysed():
    game = get_game("consequence")
    start = state = game.new(2)
    notations = []
    for _ in range(4):
        move = game.legal_moves(state)[0]
        notations.append(game.format_move(state, move))
        state = game.apply(state, move)
    try:
        analyse(game, start, notations, level="easy", time_cap=None)
    except AnalysisError as exc:
        assert "not finished" in str(exc)
    else:
        raise AssertionError("an unfinished Consequence record was analysed")


def test_a_finished_consequence_game_is_analysed_from_each_movers_observation(monkeypatch):
    """Every position's search, and every ply of the lines that explain a swing, gets a
    sampler built from the observation of the seat to move, never the true state, and never
    the observation of the other seat."""
    import games.ai as ai_module

    game = get_game("consequence")
    rng = random.Random(1)
    start = state = game.new(2)
    notations = []
    while game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        notations.append(game.format_move(state, move))
        state = game.apply(state, move)
    seen = []
    real = ai_module.sampler_for

    def spy(game_, state_, seat):
        seen.append((state_.to_move, seat))
        sampler = real(game_, state_, seat)
        cells = [c.cell_contents for c in sampler.__closure__ or ()]
        assert not any(isinstance(c, type(state_)) for c in cells)
        return sampler

    monkeypatch.setattr(ai_module, "sampler_for", spy)
    analysis = analyse(game, start, notations, level="easy", time_cap=None)
    # each position once, then each reply of the swings' lines: all from the mover's view
    replies = sum(len(m.refutation) - 1 + len(m.better) - 1 for m in analysis.moves
                  if m.index in analysis.mistakes)
    assert len(seen) == len(notations) + replies and all(mover == seat for mover, seat in seen)
    assert analysis.final in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
    assert len(analysis.mistakes) <= 3


def test_a_mistake_is_explained_by_its_refutation_and_a_better_line():
    """The refutation starts with the move played, the better line with the move preferred;
    each goes on with a reply or two that the rules accept, each ply named by its mover."""
    text, bad = blunder_record()
    game = get_game("progressive-mancala")
    record = parse_record(text)
    start = game.new(record.seats, record.options)
    notations = [notation for _, notation in record.moves]
    analysis = analyse(game, start, notations, level="normal", time_cap=None)
    assert bad in analysis.mistakes
    before = start
    for notation in notations[:bad - 1]:
        before = game.play(before, notation)
    for index in analysis.mistakes:
        note = analysis.moves[index - 1]
        state = start
        for notation in notations[:index - 1]:
            state = game.play(state, notation)
        assert note.refutation[0] == [note.seat, note.move]
        assert note.better[0] == [note.seat, note.best]
        for line in (note.refutation, note.better):
            assert 2 <= len(line) <= LINE_PLIES or game.outcome(
                replay(game, state, line)) is not None
            position = state
            for seat, notation in line:
                assert game.to_move(position) == seat
                position = game.play(position, notation)  # legal, or it raises
    others = [m for m in analysis.moves if m.index not in analysis.mistakes]
    assert all(not m.refutation and not m.better for m in others)
    shown = analysis.to_json()["moves"][bad - 1]
    assert shown["refutation"][0] == [analysis.moves[bad - 1].seat + 1, shown["move"]]


def replay(game, state, line):
    for _, notation in line:
        state = game.play(state, notation)
    return state


def test_a_loss_within_the_search_noise_is_no_mistake():
    """Losses up to the threshold (the kit's measured noise, at least NOTICEABLE) are left
    out of the mistakes; the one beyond it is in."""
    game = get_game("progressive-mancala")
    states, moves = replayed(game, game.new(2, {}), [("move", n) for n in "kchkd"])
    threshold = noise(game, "normal")
    assert threshold >= NOTICEABLE
    losses = [0.0, threshold - 0.001, threshold + 0.01, threshold * 0.5, 0.0]
    judged = []
    chance = 0.5
    for i, (state, move, loss) in enumerate(zip(states[:-1], moves, losses, strict=True)):
        mover = game.to_move(state)
        # the last move is the preferred one: its loss is 0 whatever the final search says
        other = move if i == len(moves) - 1 else \
            [m for m in game.legal_moves(state) if m != move][0]
        win = [0.0, 0.0]
        win[mover] = chance
        win[1 - mover] = 1 - chance
        judged.append((other, win))
        nxt = game.to_move(game.apply(state, move))
        after = chance - loss  # the mover's chance after its move
        chance = after if nxt == mover else 1 - after
    analysis = assemble(game, states, moves, judged, level="normal", lines=False)
    assert analysis.mistakes == [3]
    assert analysis.moves[1].loss == pytest.approx(threshold - 0.001)


def test_a_forced_move_is_not_searched_and_takes_the_next_positions_chances():
    game = get_game("progressive-mancala")
    states, moves = replayed(game, game.new(2, {}), [("move", n) for n in "kch"])
    judged = [(moves[0], [0.5, 0.5]), (moves[1], []), (moves[2], [0.3, 0.7])]
    analysis = assemble(game, states, moves, judged, level="normal", lines=False)
    assert analysis.moves[1].win == [0.3, 0.7] and analysis.moves[1].loss == 0
