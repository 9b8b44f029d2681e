"""The generic step flow's components, custom ids, and the rule that the Discord layer knows no
game: it reads what each game declares."""

import random
import re
from pathlib import Path

import discord

from bot.boards import board_view
from bot.catalogue import PLAYABLE, missing_parts, rules_text
from bot.i18n import ENGLISH
from bot.ui import (
    Custom,
    decode_answers,
    encode_answers,
    first_step,
    manual_answers,
    parse_custom_id,
    step_id,
    step_view,
)
from games import REGISTRY, Option, Step, phrase
from render import RENDERERS

BOT = Path(__file__).resolve().parents[1] / "bot"


def items(view):
    return list(view.children)


def many(n, picks=1, private=False):
    return Step("cell", phrase("Where?"), tuple(Option(f"c{i}", f"c{i}") for i in range(n)),
                private=private, picks=picks)


def test_few_options_are_buttons_and_many_are_menus_of_at_most_25():
    view = step_view(many(7), 5, 3, (), ENGLISH, back=False)
    buttons = [i for i in items(view) if isinstance(i, discord.ui.Button)]
    assert len(buttons) == 7 and all(b.custom_id.startswith("c1:s:5:3:c") for b in buttons)
    assert len(view.to_components()) == 2  # rows of five
    view = step_view(many(60), 5, 3, (("save",),), ENGLISH, back=True)
    menus = [i for i in items(view) if isinstance(i, discord.ui.Select)]
    assert [len(m.options) for m in menus] == [25, 25, 10]
    assert [m.custom_id for m in menus] == [f"c1:S:5:3:save:{p}" for p in range(3)]
    assert menus[0].placeholder == "Where? (c0–c24)"
    back = [i for i in items(view) if isinstance(i, discord.ui.Button)]
    assert [b.label for b in back] == ["Back"] and back[0].custom_id == "c1:b:5:3:save"
    assert len(view.to_components()) <= 5


def test_a_multi_pick_step_is_one_menu_taking_exactly_that_many():
    view = step_view(many(8, picks=3), 1, 0, (("b2",),), ENGLISH, back=True)
    [menu] = [i for i in items(view) if isinstance(i, discord.ui.Select)]
    assert menu.min_values == menu.max_values == 3


def test_single_options_are_answered_and_back_skips_them():
    game = REGISTRY["ghostone"]
    state = game.new(3)
    rng = random.Random(3)
    while state.phase != "play":
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    for _ in range(200):  # find a position with a single pawn step but several rock moves
        step = game.move_input(state)
        if isinstance(step, Step) and len(step.options) == 1:
            asked, answers = first_step(game, state)
            assert answers == ((step.options[0].value,),)
            assert isinstance(asked, str) or asked.name == "rock"
            assert manual_answers(game, state, answers) == 0  # nothing to go back to
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.is_chance(state):
            state = game.apply(state, game.legal_moves(state)[0])
        if game.outcome(state) is not None:
            state = game.new(3)
            while state.phase != "play":
                state = game.apply(state, rng.choice(game.legal_moves(state)))


def test_a_private_first_step_puts_only_play_on_the_board():
    game = REGISTRY["consequence"]
    state = game.new()
    view = board_view(game, state, 9, 0, running=True, finished=False, texts=ENGLISH)
    assert [b.label for b in items(view)] == ["Play…", "My view", "Moves"]
    mancala = REGISTRY["progressive-mancala"]
    view = board_view(mancala, mancala.new(), 9, 0, running=True, finished=False, texts=ENGLISH)
    assert [b.label for b in items(view)][:11] == list("abcdefghijk")
    assert [b.label for b in items(view)][11:] == ["Moves"]
    view = board_view(mancala, mancala.new(), 9, 0, running=False, finished=True, texts=ENGLISH)
    assert [b.label for b in items(view)] == ["Rematch", "Moves"]


def test_custom_ids_round_trip_and_forged_ones_are_refused():
    answers = (("b2",), ("a1", "a3", "c2"))
    assert decode_answers(encode_answers(answers)) == answers
    assert parse_custom_id(step_id(12, 40, answers)) == Custom("s", 12, 40, answers)
    assert parse_custom_id("c1:o:77:a") == Custom("o", offer_id=77, action="a")
    assert parse_custom_id("c1:l:join:5") == Custom("l", 5, action="join")
    for forged in ["c1:s:1:2:x/y:z", "c1:s:99999999999999999999:1:a", "c1:s:1:1:" + "a" * 90,
                   "c1:s:1:1:a b", "c1:s:1:1:a\x00", "c1:s:１:1:a", "corral:lobby:join:1",
                   "c1:l:explode:1", "c1:s:9223372036854775808:1:a", "", "c1:S:1:1:a:x"]:
        assert parse_custom_id(forged) is None, forged
    assert parse_custom_id("c1:s:9223372036854775807:1:a") is not None


def test_the_discord_layer_names_no_game_and_parses_no_notation():
    sources = {path: path.read_text() for path in BOT.rglob("*.py")}
    for game_id, game in REGISTRY.items():
        for path, text in sources.items():
            assert game_id not in text, f"{path} names {game_id}"
            assert f'"{game.name}"' not in text, f"{path} names {game.name}"
    for path, text in sources.items():
        for pattern in (r'"@"', r'">"', r"\.partition\(\":\"\)", r'startswith\("ghost'):
            assert not re.search(pattern, text), f"{path} parses notation ({pattern})"


def test_every_registered_game_has_everything_the_bot_needs():
    for game_id in REGISTRY:
        assert missing_parts(game_id) == [], game_id
        assert game_id in RENDERERS and rules_text(game_id)
        assert rules_text(game_id).startswith(f"**{REGISTRY[game_id].name}**")
    assert set(PLAYABLE) == set(REGISTRY)
