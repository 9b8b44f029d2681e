"""Bad input of every kind gets a clear, short refusal and changes nothing: every game's
notation, every option, the record reader, the bot's own parsers and custom ids. Thousands of
seeded inputs: other scripts' digits, huge numbers, control characters, other games' moves,
mutations of legal moves."""

from __future__ import annotations

import random

import pytest

from bot import service as svc
from bot.cogs import parse_custom_id
from bot.service import parse_options, parse_time
from games import REGISTRY, GameError
from games.record import RecordError, parse_record, replay_record

ODD = ["²", "³", "١", "٣", "１", "۷", "\u0000", "\x1b[31m", "\u202e", "\ufeff", "\n", "\t", " ",
       "é", "💥", "`", "@", ">", ":", ",", "-", "#", "=", "/", "\\", "'", '"', "{", "}", "%s"]
HUGE = ["9" * 5000, "1" * 4301, "-" + "9" * 400, "e" + "9" * 4400, "9" * 20]


def other_notations() -> list[str]:
    """Legal moves of every game at a few positions (other games' notation)."""
    found: list[str] = []
    for game in REGISTRY.values():
        rng = random.Random(1)
        state = game.new(game.info.min_seats, game.draw_options({}, rng))
        for _ in range(12):
            if game.outcome(state) is not None:
                break
            found.extend(game.legal_notations(state)[:6])
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return found


NOTATIONS = other_notations()


def mutate(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        what = rng.random()
        spot = rng.randint(0, len(chars))
        if what < 0.4:
            chars.insert(spot, rng.choice(ODD + list("abcxyz0129 ")))
        elif what < 0.7 and chars:
            del chars[min(spot, len(chars) - 1)]
        elif chars:
            chars[min(spot, len(chars) - 1)] = rng.choice(ODD)
    text = "".join(chars)
    return text.upper() if rng.random() < 0.1 else text


def inputs(rng: random.Random, count: int) -> list[str]:
    found = list(ODD) + HUGE + NOTATIONS
    while len(found) < count:
        kind = rng.random()
        if kind < 0.5:
            found.append(mutate(rng.choice(NOTATIONS), rng))
        elif kind < 0.7:
            found.append("".join(rng.choice(ODD + list("abefgh12345:@>-e ")) for _ in range(
                rng.randint(1, 12))))
        elif kind < 0.8:
            found.append(rng.choice(NOTATIONS) + rng.choice(HUGE))
        else:
            found.append(rng.choice(NOTATIONS) + " " + rng.choice(NOTATIONS))
    return found


def refusal_is_clear(error: Exception) -> None:
    message = str(error)
    assert message and len(message) < 300, message
    assert not any(ch in message for ch in "\x00\x1b\u202e"), repr(message)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_notation_fuzz_refuses_clearly_and_only_plays_legal_moves(game_id):
    game = REGISTRY[game_id]
    rng = random.Random(game_id)
    states = []
    state = game.new(game.info.min_seats, game.draw_options({}, rng))
    for _ in range(25):
        if game.outcome(state) is not None:
            break
        states.append(state)
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    states.append(state)
    tried = 0
    for text in inputs(rng, 1500):
        position = rng.choice(states)
        legal = set(game.legal_notations(position))
        try:
            after = game.play(position, text)
        except GameError as error:
            refusal_is_clear(error)
        else:
            canonical = game.format_move(position, game.parse_move(position, text))
            assert canonical in legal, (text, canonical)
            assert game.ply(after) == game.ply(position) + 1
        tried += 1
    assert tried >= 1500


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_option_fuzz_refuses_clearly(game_id):
    game = REGISTRY[game_id]
    rng = random.Random(f"options-{game_id}")
    names = [spec.name for spec in game.info.options] + ["pits", "level", "x", ""]
    for value in inputs(rng, 400):
        options = {rng.choice(names): value}
        try:
            resolved = game.resolve_options(options)
        except GameError as error:
            refusal_is_clear(error)
        else:
            assert set(resolved) == {spec.name for spec in game.info.options}


def test_record_reader_fuzz_names_the_line_or_reads_the_record():
    rng = random.Random(8)
    games = sorted(REGISTRY)
    for _ in range(1500):
        lines = []
        if rng.random() < 0.1:
            lines.append("\ufeff# game: " + rng.choice(games))
        elif rng.random() < 0.9:
            lines.append("# game: " + (rng.choice(games) if rng.random() < 0.8
                                       else mutate(rng.choice(games), rng)))
        if rng.random() < 0.3:
            lines.append("# seats: " + rng.choice(["3", "³", "9" * 50, "-1", "2", "x"]))
        if rng.random() < 0.3:
            lines.append("# option: " + rng.choice(["pits=17", "level=2+", "start=f3", "x=y",
                                                   "pits=" + "9" * 5000, "=", "repetition="]))
        for _ in range(rng.randint(0, 6)):
            lines.append(rng.choice(NOTATIONS) if rng.random() < 0.6 else
                         mutate(rng.choice(NOTATIONS), rng))
        text = "\n".join(lines)
        try:
            record = parse_record(text)
            replay_record(record)
        except RecordError as error:
            assert str(error).startswith("line "), error
            assert len(str(error)) < 400 and "\x00" not in str(error)


def test_the_bots_own_parsers_refuse_clearly():
    rng = random.Random(9)
    for text in inputs(rng, 800):
        for parser in (parse_options, parse_time):
            try:
                parser(text)
            except svc.ServiceError as error:
                refusal_is_clear(error)
        assert parse_custom_id(text) is None or text.startswith("c1:")
        assert parse_custom_id("c1:s:1:2:" + text) is None or all(
            ch.isascii() for ch in text)


async def test_the_service_refuses_garbage_moves_and_changes_nothing(service, store):
    from support import ALICE, BOB

    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=5, first="me")
    match = await service.accept(match.id, BOB.user_id)
    rng = random.Random(4)
    version = (await store.get_match(match.id)).version
    legal = set(service.legal_moves_for(match, ALICE.user_id))
    for text in inputs(rng, 300):
        if text.strip().lower() in legal:
            continue
        with pytest.raises(svc.IllegalMove) as raised:
            await service.play(match.id, ALICE.user_id, text)
        refusal_is_clear(raised.value)
    assert (await store.get_match(match.id)).version == version
    assert await store.moves(match.id) == []


WRONG = [None, "x", [], {}, -1, 10**30, 1.5, True, [None], {"a": 1}, "d4", [[1, 2]], [1] * 70]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_mistyped_saved_state_is_refused_as_invalid_never_a_crash(game_id):
    """The codec re-validates: any field of the wrong type or shape is InvalidStateError."""
    from games import InvalidStateError

    game = REGISTRY[game_id]
    rng = random.Random(f"codec-{game_id}")
    state = game.new(game.info.min_seats, game.draw_options({}, rng))
    for _ in range(15):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    data = game.to_json(state)
    for key in list(data):
        for wrong in WRONG:
            broken = dict(data, **{key: wrong})
            try:
                game.from_json(broken)
            except InvalidStateError:
                pass
        missing = {k: v for k, v in data.items() if k != key}
        try:
            game.from_json(missing)
        except InvalidStateError:
            pass
    assert game.from_json(data) == state
