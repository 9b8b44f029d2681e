"""The web pages' history goes on from their last replay of a match (`replay_more`): for
every game, going on from any point of a random game gives exactly what a replay from the
start gives, and a log that does not continue the replay (a takeback, hidden moves revealed
at the end) is replayed from the start."""

from __future__ import annotations

import random

import pytest

from bot.service.history import replay_history, replay_more
from games import REGISTRY, get_game


def random_log(game_id: str, seed: int, plies: int = 40, options=None):
    game = get_game(game_id)
    rng = random.Random(seed)
    seats = game.info.min_seats
    options = game.draw_options({}, rng) if options is None else options
    state = game.new(seats, options)
    log = []
    for ply in range(plies):
        if game.outcome(state) is not None:
            break
        move = rng.choice(game.legal_moves(state))
        chance = game.is_chance(state)
        actor = None if chance else 100 + int(game.to_move(state) or 0)
        log.append(("move", game.format_move(state, move), actor, ply))
        state = game.apply(state, move)
    return seats, options, log, [(s, 100 + s, f"P{s}") for s in range(seats)]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_going_on_from_a_replay_is_the_replay_from_the_start(game_id):
    seats, options, log, names = random_log(game_id, 7)
    assert len(log) > 4
    for revealed in (True, False):
        whole = replay_more(game_id, seats, options, log, names, revealed, None)
        assert list(whole.entries) == replay_history(game_id, seats, options, log, names,
                                                     revealed)
        for cut in (0, 1, len(log) // 2, len(log) - 1, len(log)):
            before = replay_more(game_id, seats, options, log[:cut], names, revealed, None)
            assert before.continues(log, revealed)
            assert replay_more(game_id, seats, options, log, names, revealed, before) == whole


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_log_that_does_not_continue_the_replay_is_replayed_from_the_start(game_id):
    seats, options, log, names = random_log(game_id, 11)
    other = random_log(game_id, 12, options=options)[2]  # same set-up
    before = replay_more(game_id, seats, options, log, names, True, None)
    # a takeback: the log is shorter, or goes another way after the common moves
    shorter = log[:-1]
    assert not before.continues(shorter, True)
    assert replay_more(game_id, seats, options, shorter, names, True, before) == \
        replay_more(game_id, seats, options, shorter, names, True, None)
    if other != log:
        assert not before.continues(other, True)
        assert replay_more(game_id, seats, options, other, names, True, before) == \
            replay_more(game_id, seats, options, other, names, True, None)
    assert not before.continues(log, False)  # shown otherwise: hidden until the end
