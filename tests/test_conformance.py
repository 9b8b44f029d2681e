"""Properties every registered game must have, checked with seeded random playouts."""

import itertools
import json
import random
import re

import pytest

from games import REGISTRY, Game, InvalidMoveError, InvalidOptionError, Step

GAMES = sorted(REGISTRY)
SEEDS = range(12)


def configurations(game: Game):
    """Every seat count with defaults, and every value of every option (combinations a game
    refuses, such as ICO's antipodal=yes outside level 2+, are skipped)."""
    for seats in range(game.info.min_seats, game.info.max_seats + 1):
        yield seats, {}
    for spec in game.info.options:
        for value in spec.choices:
            try:
                start(game, game.info.min_seats, {spec.name: value}, 0)
            except InvalidOptionError:
                continue
            yield game.info.min_seats, {spec.name: value}


def start(game: Game, seats: int, options: dict, seed: int):
    """A new game, with the host's set-up chance (a random start face) drawn from `seed`."""
    return game.new(seats, game.draw_options(options, random.Random(seed)))


def playout(game: Game, seed: int, seats: int, options: dict, limit: int = 2000):
    rng = random.Random(seed)
    state = start(game, seats, options, seed)
    states = [state]
    while game.outcome(state) is None and len(states) < limit:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_keep_every_promise(game_id, seed):
    game = REGISTRY[game_id]
    for seats, options in configurations(game):
        states = playout(game, seed, seats, options)
        for before, after in zip(states, states[1:], strict=False):
            assert game.ply(after) == game.ply(before) + 1
        for state in states:
            outcome = game.outcome(state)
            moves = game.legal_moves(state)
            if outcome is None:
                assert moves, "a running game must offer a move"
                if game.is_chance(state):
                    assert game.to_move(state) is None
                else:
                    assert game.to_move(state) in range(seats)
                for move in moves:  # every legal move applies and its notation round-trips
                    text = game.format_move(state, move)
                    assert game.parse_move(state, text) == move
                    game.apply(state, move)
            else:
                assert moves == [] and game.to_move(state) is None
                assert outcome.winners and set(outcome.winners) <= set(range(seats))
                assert outcome.ending in game.info.endings  # the game's own, declared
                assert str(game.describe_outcome(state))  # the English words, seats and all
            encoded = json.loads(json.dumps(game.to_json(state)))
            assert game.from_json(encoded) == state
        assert game.outcome(states[-1]) is not None, "playout did not finish"


@pytest.mark.parametrize("game_id", GAMES)
def test_replaying_the_logged_notation_reproduces_the_final_state(game_id):
    game = REGISTRY[game_id]
    rng = random.Random(5)
    state = start(game, game.info.min_seats, {}, 5)
    log = []
    while game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        log.append(game.format_move(state, move))
        state = game.apply(state, move)
    again = start(game, game.info.min_seats, {}, 5)
    for text in log:
        again = game.play(again, text)
    assert again == state


def test_mancala_seeds_are_conserved_in_every_playout():
    game = REGISTRY["progressive-mancala"]
    for seed in SEEDS:
        for pits in ("11", "17"):
            for state in playout(game, seed, 2, {"pits": pits}):
                assert sum(state.pits) + state.goal + sum(state.scores) == 5 * int(pits)


def test_pastoral_stones_are_conserved_and_random_play_reaches_mutilations():
    game = REGISTRY["pastoral-square"]
    mutilations = 0
    for seed in range(40):
        for state in playout(game, seed, 2, {}):
            assert sum(state.count) + sum(state.held) + sum(state.stock) == 64
            assert all(0 <= h <= 5 for h in state.held)
            assert all(n <= 5 for n in state.count)
            mutilations += bool(state.last and state.last.mutilation)
    assert mutilations > 0


def test_consequence_tiles_are_conserved_and_the_public_view_never_shows_a_symbol():
    game = REGISTRY["consequence"]
    for seed in range(20):
        for state in playout(game, seed, 2, {}):
            tiles = [t for t in state.grid if t != -1] + sorted(state.hands[0]) + sorted(state.hands[1])
            assert sorted(tiles) == list(range(14))
            view = game.observe(state, None)
            if view.outcome is None:
                assert all(t is None or t.symbol is None for t in view.grid)
                assert view.hand is None and view.scores is None


def test_ghostone_rocks_are_conserved_and_random_play_meets_the_ghost():
    from games.ghostone.game import rock_count, total_rocks

    game = REGISTRY["ghostone"]
    rolls = 0
    for seed in range(15):
        for seats in (3, 4):
            for state in playout(game, seed, seats, {}):
                assert rock_count(state) == total_rocks(seats)
                rolls += state.last_roll is not None
    assert rolls > 0


# -- move input: the steps a game declares describe exactly its legal moves ----------------
VALUE = re.compile(r"^[A-Za-z0-9+-]{1,16}$")


def entered_moves(game: Game, state) -> set[str]:
    """Every notation reachable by answering the game's steps in every possible way."""
    found: set[str] = set()

    def walk(answers: tuple) -> None:
        step = game.move_input(state, answers)
        if isinstance(step, str):
            assert step not in found, f"two answer paths give {step}"
            found.add(step)
            return
        assert isinstance(step, Step) and step.options, step
        assert 1 <= step.picks <= len(step.options)
        values = [o.value for o in step.options]
        assert len(set(values)) == len(values), f"duplicate options in {step.name}"
        for option in step.options:
            assert VALUE.match(option.value), option.value
            assert 0 < len(str(option.label)) <= 80, option.label
            assert option.description is None or len(str(option.description)) <= 100
        assert 0 < len(str(step.prompt)) <= 150
        for answer in itertools.combinations(values, step.picks):
            try:
                walk(answers + (answer,))
            except InvalidMoveError:  # a combination no legal move takes (multi-picks)
                assert step.picks > 1
    walk(())
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_the_steps_of_move_input_build_exactly_the_legal_moves(game_id):
    game = REGISTRY[game_id]
    checked = seed = 0
    while seed < 4 or (checked <= 50 and seed < 100):  # four games, more when they are short
        for seats, options in configurations(game):
            for index, state in enumerate(playout(game, seed, seats, options, limit=400)):
                if game.outcome(state) is not None or game.is_chance(state) or index % 3:
                    continue
                assert entered_moves(game, state) == set(game.legal_notations(state))
                checked += 1
        seed += 1
    assert checked > 50


@pytest.mark.parametrize("game_id", GAMES)
def test_move_input_refuses_forged_answers_without_changing_anything(game_id):
    game = REGISTRY[game_id]
    state = start(game, game.info.min_seats, {}, 3)
    for forged in [(("zz",),), (("",),), (("a" * 5000,),), (("\x00",),), (("²",),)]:
        with pytest.raises(InvalidMoveError):
            game.move_input(state, forged)
    first = game.move_input(state, ())
    assert isinstance(first, Step)
    deeper = ((first.options[0].value,), ("not-an-option",) * first.picks)
    with pytest.raises(InvalidMoveError):
        game.move_input(state, deeper)
