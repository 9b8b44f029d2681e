"""A quiz's picture hides its answer (`render_observation(hints=False)`); its alt text must
not say it either (`Game.without_hints`, used by `bot.pictures.described_picture`)."""

from __future__ import annotations

import random
import re

from bot.pictures import described_picture
from bot.words.descriptions import alt_text
from bot.words.i18n import Texts
from games import get_game

NAMES = ["Alice", "Bob"]


def finished(game_id: str, seed: int):
    game = get_game(game_id)
    state, rng = game.new(2), random.Random(seed)
    while game.outcome(state) is None:
        state = game.play(state, rng.choice(game.legal_notations(state)))
    return game, state


def sentences(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"(?<=[.。])\s*", text) if part.strip()]


def test_a_consequence_quiz_on_the_count_names_every_tile_but_not_the_winner():
    game, state = finished("consequence", 1)
    winner = NAMES[game.outcome(state).winners[0]]
    for language in ("en", "ja"):
        texts = Texts(language)
        full = sentences(alt_text(game, game.observe(state, None), texts, NAMES))
        quiz = sentences(alt_text(game, game.without_hints(game.observe(state, None)), texts,
                                  NAMES))
        assert winner in full[0] and winner not in quiz[0]  # the answer is not the quiz's
        assert len(quiz) >= 3 and set(quiz[1:]) <= set(full)  # the same faces, no points
        assert len(full) > len(quiz)
    png, alt = described_picture(game.id, game.to_json(state), None, NAMES, hints=False)
    assert png and alt == " ".join(sentences(alt_text(
        game, game.without_hints(game.observe(state, None)), Texts("en"), NAMES)))


def test_an_ico_quiz_does_not_list_the_edges_allowed():
    game = get_game("ico")
    state = game.new(2, {"start": "f3"})
    state = game.play(state, game.legal_notations(state)[0])
    view = game.observe(state, None)
    allowed = "may place on"
    assert allowed in alt_text(game, view, Texts("en"), NAMES)
    assert allowed not in alt_text(game, game.without_hints(view), Texts("en"), NAMES)


def test_a_pastoral_quiz_does_not_say_which_cell_is_closed():
    game = get_game("pastoral-square")
    state, rng = game.new(2), random.Random(0)
    for _ in range(400):  # a position where a cell is closed to the mover
        view = game.observe(state, None)
        if view.blocked and game.outcome(state) is None:
            break
        state = game.play(state, rng.choice(game.legal_notations(state)))
        if game.outcome(state) is not None:
            state = game.new(2)
    else:
        raise AssertionError("no closed cell came up")
    closed = "may not place on"
    assert closed in alt_text(game, view, Texts("en"), NAMES)
    assert closed not in alt_text(game, game.without_hints(view), Texts("en"), NAMES)


def test_games_without_hints_describe_their_quizzes_as_their_boards():
    for game_id in ("progressive-mancala", "ghostone"):
        game = get_game(game_id)
        view = game.observe(game.new(None), None)
        assert game.without_hints(view) == view
