"""The generic step flow's components, custom ids, and the rule that the Discord layer knows no
game: it reads what each game declares."""

import random
import re
from pathlib import Path

import discord

from bot.analysis_ui import AnalysisButton
from bot.boards import (
    MovesButton,
    MyViewButton,
    OpenBoardButton,
    RematchButton,
    board_buttons,
    board_controls,
)
from bot.cogs import COMPONENTS, parse_custom_id
from bot.cogs.conditional import QueueBack, QueueButton, QueueClear, QueueMenu, QueueOpen
from bot.cogs.learn import (
    LessonBack,
    LessonButton,
    LessonChoice,
    LessonMenu,
    LessonPlay,
    LessonRestart,
)
from bot.cogs.matches import ResignButton
from bot.cogs.moves import LegacyMoveButton, RepeatButton
from bot.cogs.puzzle import PuzzleBack, PuzzleButton, PuzzleMenu
from bot.cogs.stats import ReplayStep
from bot.cogs.tournaments import SignupButton
from bot.lobby import LobbyButton
from bot.notices import Claim, OfferAnswer
from bot.offered import PLAYABLE, missing_parts, rules_text
from bot.textboard import DescribeButton
from bot.ui import (
    MAX_ID,
    BackButton,
    PlayButton,
    StepButton,
    StepMenu,
    at_most,
    decode_answers,
    encode_answers,
    first_step,
    manual_answers,
    step_view,
)
from bot.words.i18n import ENGLISH
from games import REGISTRY, Option, Step, phrase
from render import RENDERERS

BOT = Path(__file__).resolve().parents[1] / "bot"


def items(view):
    """The buttons and menus of a view (each kind of component wraps one: a DynamicItem)."""
    return [getattr(item, "item", item) for item in view.children]


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


def board_labels(game, state, ply, *, running, finished):
    """The labels of a board's controls, then of its other buttons, in order."""
    rows = board_controls(game, state, 9, ply, running=running, texts=ENGLISH)
    controls = [getattr(i, "item", i).label for row in rows for i in row.children]
    buttons = board_buttons(game, state, 9, ply, running=running, finished=finished,
                            texts=ENGLISH)
    return controls + [getattr(i, "item", i).label for i in buttons]


def test_a_private_first_step_puts_only_play_on_the_board():
    game = REGISTRY["consequence"]
    state = game.new()
    assert board_labels(game, state, 0, running=True, finished=False) == [
        "Play…", "Moves", "My view", "Describe"]
    mancala = REGISTRY["progressive-mancala"]
    labels = board_labels(mancala, mancala.new(), 0, running=True, finished=False)
    assert labels[:11] == list("abcdefghijk")
    assert labels[11:] == ["Moves", "Describe"]
    rows = board_controls(mancala, mancala.new(), 9, 0, running=True, texts=ENGLISH)
    assert [len(row.children) for row in rows] == [5, 5, 1]  # five buttons a row
    assert board_labels(mancala, mancala.new(), 0, running=False, finished=True) == [
        "Moves", "Describe", "Rematch"]
    # a finished match with moves offers its analysis; a running one never does
    played = mancala.play(mancala.new(), "k")
    assert board_labels(mancala, played, 1, running=False, finished=True) == [
        "Moves", "Describe", "Rematch", "📈 Analysis"]
    assert "📈 Analysis" not in board_labels(mancala, played, 1, running=True, finished=False)
    # nor for a Consequence match whose end kept tiles hidden (a resignation)
    consequence = REGISTRY["consequence"]
    opened = consequence.play(consequence.new(), consequence.legal_notations(consequence.new())[0])
    assert board_labels(consequence, opened, 1, running=False, finished=True) == [
        "Moves", "My view", "Describe", "Rematch"]


def test_custom_ids_round_trip_and_forged_ones_are_refused():
    answers = (("b2",), ("a1", "a3", "c2"))
    assert decode_answers(encode_answers(answers)) == answers
    step = parse_custom_id(StepButton(12, 40, answers).custom_id)
    assert isinstance(step, StepButton)
    assert (step.match_id, step.ply, step.answers) == (12, 40, answers)
    offer = parse_custom_id("c1:o:77:a")
    assert isinstance(offer, OfferAnswer) and (offer.offer_id, offer.accept) == (77, True)
    lobby = parse_custom_id("c1:l:join:5")
    assert isinstance(lobby, LobbyButton) and (lobby.action, lobby.match_id) == ("join", 5)
    for forged in ["c1:s:1:2:x/y:z", "c1:s:99999999999999999999:1:a", "c1:s:1:1:" + "a" * 90,
                   "c1:s:1:1:a b", "c1:s:1:1:a\x00", "c1:s:１:1:a", "corral:lobby:join:1",
                   "c1:l:explode:1", "c1:s:9223372036854775808:1:a", "", "c1:S:1:1:a:x"]:
        assert parse_custom_id(forged) is None, forged
    assert parse_custom_id("c1:s:9223372036854775807:1:a") is not None


# every kind as it is sent, with the id boards already posted on servers carry (byte for byte)
SENT = [
    (StepButton(5, 3, (("c0",),)), "c1:s:5:3:c0"),
    (StepButton(5, 3, (("b2",), ("a1", "a3"))), "c1:s:5:3:b2/a1.a3"),
    (StepMenu(5, 3, (("save",),), 2), "c1:S:5:3:save:2"),
    (StepMenu(5, 3, (), 0), "c1:S:5:3::0"),
    (BackButton(5, 3, (("save",),)), "c1:b:5:3:save"),
    (PlayButton(9, 0), "c1:p:9:0"),
    (MyViewButton(9), "c1:v:9"),
    (MovesButton(9), "c1:h:9"),
    (DescribeButton(9), "c1:d:9"),
    (OpenBoardButton(9), "c1:a:9"),
    *[(LobbyButton(action, 5), f"c1:l:{action}:5")
      for action in ("join", "start", "cancel", "accept", "decline", "ai")],
    (ResignButton(5), "c1:r:5"),
    (Claim(5, 7), "c1:c:5:7"),
    (OfferAnswer(77, True), "c1:o:77:a"),
    (OfferAnswer(77, False), "c1:o:77:d"),
    (RematchButton(5), "c1:m:5"),
    (AnalysisButton(5), "c1:A:5"),
    *[(ReplayStep(5, 3, key), f"c1:R:5:3:{key}") for key in "fbnl"],
    (RepeatButton(5, 3, "b@c3>d4"), "c1:y:5:3:b@c3>d4"),
    (LegacyMoveButton(1, 2, "k"), "corral:mv:1:2:k"),
    (SignupButton("j", 8), "c1:T:j:8"),
    (SignupButton("l", 8), "c1:T:l:8"),
    (LessonButton(7, "0a1b2c3d", 2, (("b2",), ("a1", "a3"))), "c1:Ls:7:0a1b2c3d:2:b2/a1.a3"),
    (LessonMenu(7, "0a1b2c3d", 2, (("save",),), 1), "c1:LS:7:0a1b2c3d:2:save:1"),
    (LessonBack(7, "0a1b2c3d", 2, (("save",),)), "c1:Lb:7:0a1b2c3d:2:save"),
    (LessonChoice(7, "0a1b2c3d", 4, "moon"), "c1:Lq:7:0a1b2c3d:4:moon"),
    (LessonRestart(7, "0a1b2c3d"), "c1:Lr:7:0a1b2c3d"),
    (LessonPlay(7, "0a1b2c3d"), "c1:La:7:0a1b2c3d"),
    (QueueButton(5, 7, 3, 2, (("b",),)), "c1:k:5:7:3:2:b"),
    (QueueMenu(5, 7, 3, 2, (), 1), "c1:K:5:7:3:2::1"),
    (QueueBack(5, 7, 3, 2, (("b",),)), "c1:kb:5:7:3:2:b"),
    (QueueClear(5, 7), "c1:kc:5:7"),
    (QueueOpen(5), "c1:ko:5"),
    (PuzzleButton(7, 12, (("b",),)), "c1:Zs:7:12:b"),
    (PuzzleMenu(7, 12, (("save",),), 1), "c1:ZS:7:12:save:1"),
    (PuzzleBack(7, 12, (("b",),)), "c1:Zb:7:12:b"),
]


def test_every_kind_is_one_class_whose_ids_are_those_already_posted():
    assert {type(item) for item, _ in SENT} == set(COMPONENTS)
    for item, custom_id in SENT:
        assert item.custom_id == custom_id
        back = parse_custom_id(custom_id)
        assert type(back) is type(item), custom_id
        assert (vars(back).keys() >= {"match_id"} or isinstance(back, OfferAnswer)
                or vars(back).keys() >= {"tournament_id"}
                or vars(back).keys() >= {"owner", "token"}  # a lesson's: the player's
                or vars(back).keys() >= {"owner", "puzzle_id"})  # a puzzle's: the player's
        matching = [k for k in COMPONENTS
                    if k.__discord_ui_compiled_template__.fullmatch(custom_id)]
        assert matching == [type(item)], custom_id


def test_the_id_number_grammar_is_the_databases_range():
    pattern = re.compile(at_most(MAX_ID))
    for good in ["0", "7", "0001", "9" * 18, str(MAX_ID), str(MAX_ID - 1), "8" + "9" * 18,
                 "9223372036854775799", "9223372036854775707"]:
        assert pattern.fullmatch(good), good
    for bad in ["", str(MAX_ID + 1), "9223372036854775810", "9" * 19, "1" + "0" * 19, "-1",
                "9223372036854775900", "9323372036854775807"]:
        assert not pattern.fullmatch(bad), bad
    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 20)))
        assert bool(pattern.fullmatch(text)) == (len(text) <= 19 and int(text) <= MAX_ID), text


def _before(custom_id: str) -> bool:
    """Whether the parser of custom ids before the component classes (0c7fdab) read an id:
    the grammar the templates must keep, so that exactly the same ids are refused."""
    idn, answers = r"[0-9]{1,19}", r"[A-Za-z0-9+./-]{0,60}"
    notation = r"[\w@>:,+ -]{1,60}"
    patterns = [
        rf"c1:s:(?P<match>{idn}):(?P<ply>{idn}):(?P<answers>{answers})",
        rf"c1:S:(?P<match>{idn}):(?P<ply>{idn}):(?P<answers>{answers}):(?P<page>[0-9])",
        rf"c1:b:(?P<match>{idn}):(?P<ply>{idn}):(?P<answers>{answers})",
        rf"c1:p:(?P<match>{idn}):(?P<ply>{idn})", rf"c1:v:(?P<match>{idn})",
        rf"c1:h:(?P<match>{idn})",
        rf"c1:l:(?P<action>join|start|cancel|accept|decline|ai):(?P<match>{idn})",
        rf"c1:r:(?P<match>{idn})", rf"c1:c:(?P<match>{idn}):(?P<version>{idn})",
        rf"c1:o:(?P<offer>{idn}):(?P<answer>a|d)", rf"c1:m:(?P<match>{idn})",
        rf"c1:A:(?P<match>{idn})", rf"c1:T:(?P<action>[jl]):(?P<tournament>{idn})",
        rf"c1:R:(?P<match>{idn}):(?P<ply>{idn}):(?P<answer>[fbnl])",
        rf"c1:y:(?P<match>{idn}):(?P<ply>{idn}):(?P<move>{notation})",
        rf"corral:mv:(?P<match>{idn}):(?P<ply>{idn}):(?P<move>{notation})"]
    # added since: a lesson's components (bot/cogs/learn.py), player, token and step first
    lesson = rf"(?P<user>{idn}):[0-9a-f]{{8}}:[0-9]{{1,3}}"
    patterns += [rf"c1:Ls:{lesson}:(?P<answers>{answers})",
                 rf"c1:LS:{lesson}:(?P<answers>{answers}):[0-9]",
                 rf"c1:Lb:{lesson}:(?P<answers>{answers})", rf"c1:Lq:{lesson}:[A-Za-z0-9-]{{1,20}}",
                 rf"c1:Lr:(?P<user>{idn}):[0-9a-f]{{8}}", rf"c1:La:(?P<user>{idn}):[0-9a-f]{{8}}",
                 # and conditional moves' (bot/cogs/conditional.py)
                 rf"c1:k:(?P<match>{idn}):(?P<user>{idn}):(?P<ply>{idn}):[0-9]{{1,3}}"
                 rf":(?P<answers>{answers})",
                 rf"c1:K:(?P<match>{idn}):(?P<user>{idn}):(?P<ply>{idn}):[0-9]{{1,3}}"
                 rf":(?P<answers>{answers}):[0-9]",
                 rf"c1:kb:(?P<match>{idn}):(?P<user>{idn}):(?P<ply>{idn}):[0-9]{{1,3}}"
                 rf":(?P<answers>{answers})",
                 rf"c1:kc:(?P<match>{idn}):(?P<user>{idn})", rf"c1:ko:(?P<match>{idn})"]
    # and puzzles' (bot/cogs/puzzle.py): player and puzzle first
    puzzle = rf"(?P<user>{idn}):[0-9]{{1,12}}"
    patterns += [rf"c1:Zs:{puzzle}:(?P<answers>{answers})",
                 rf"c1:ZS:{puzzle}:(?P<answers>{answers}):[0-9]",
                 rf"c1:Zb:{puzzle}:(?P<answers>{answers})"]
    # and Describe, under every board (bot/textboard.py), and Open board (bot/boards.py)
    patterns += [rf"c1:d:(?P<match>{idn})", rf"c1:a:(?P<match>{idn})"]
    if len(custom_id) > 100:
        return False
    for pattern in patterns:
        found = re.fullmatch(pattern, custom_id)
        if found is None:
            continue
        groups = found.groupdict()
        if any(int(v) > MAX_ID for k, v in groups.items()
               if k in ("match", "ply", "version", "offer", "tournament", "user")):
            return False
        return decode_answers(groups.get("answers") or "") is not None
    return False


def test_the_templates_read_exactly_the_ids_the_parser_before_them_read():
    rng = random.Random(29)
    alphabet = "0123456789abcsSpbyl:./-+ @>x\n９" + "9" * 10
    for _, custom_id in SENT * 150:
        mutated = list(custom_id)
        for _ in range(rng.randint(1, 4)):
            where = rng.randrange(len(mutated) + 1)
            action = rng.random()
            if action < 0.4:
                mutated.insert(where, rng.choice(alphabet))
            elif action < 0.7 and mutated:
                del mutated[min(where, len(mutated) - 1)]
            elif mutated:
                mutated[min(where, len(mutated) - 1)] = rng.choice(alphabet)
        if rng.random() < 0.1:
            mutated += ["k"] * rng.randint(50, 110)
        text = "".join(mutated)
        assert (parse_custom_id(text) is not None) == _before(text), repr(text)


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


async def test_answering_with_components_leaves_discord_py_routing_alone(monkeypatch):
    """discord.py stores the view an interaction's answer carries (unless it is finished) and
    registers its items' classes for its own routing of clicks, which would answer each click
    a second time, with a class bound to no service: a question answered with step buttons
    must register nothing."""
    client = discord.Client(intents=discord.Intents.none())
    try:
        store = client._connection._view_store

        async def answered(*args, **kwargs):
            return {"interaction": {"id": "7", "type": 3, "response_message_id": "8"}}

        monkeypatch.setattr(discord.webhook.async_.AsyncWebhookAdapter,
                            "create_interaction_response", answered)
        interaction = discord.Interaction(data={
            "id": "7", "application_id": "1", "type": 3, "token": "t", "version": 1,
            "channel_id": "5", "user": {"id": "2", "username": "a", "discriminator": "0",
                                        "avatar": None},
            "data": {"custom_id": "c1:p:1:0", "component_type": 2}, "locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {},
            "attachment_size_limit": 1 << 20}, state=client._connection)
        view = step_view(many(3), 1, 0, (), ENGLISH, back=True)
        await interaction.response.send_message("pick", view=view, ephemeral=True)
        assert interaction.response.is_done()
        assert store._dynamic_items == {} and not store._views
    finally:
        await client.close()


def test_a_step_of_many_options_is_a_row_per_menu():
    from bot.boards import board_controls

    game = REGISTRY["pastoral-square"]
    state, rng = game.new(), random.Random(1)
    while True:  # the first position whose move is asked with menus (more than 20 options)
        step, _ = first_step(game, state)
        if not isinstance(step, str) and len(step.options) > 20:
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    rows = board_controls(game, state, 9, 0, running=True, texts=ENGLISH)
    menus = -(-len(step.options) // 25)
    assert [len(row.children) for row in rows] == [1] * menus
    assert all(isinstance(getattr(row.children[0], "item", None), discord.ui.Select)
               for row in rows)


def test_a_board_layout_stays_within_discords_limits():
    """The most a board carries: 4 rows of 5 step buttons, six other buttons (two rows), a
    text longer than Discord's 4,000 characters and an alt text longer than 1,024."""
    from bot.boards import board_layout
    from bot.ui import StepButton

    rows = [discord.ui.ActionRow(*[StepButton(9, 0, [(f"v{r}{i}",)], label="x")
                                   for i in range(5)]) for r in range(4)]
    buttons = [MovesButton(9, label=f"b{i}") for i in range(6)]
    layout = board_layout("line\n" * 1500, "a" * 2000, accent=0x123456, controls=rows,
                          buttons=buttons)
    sent = layout.to_components()
    assert len(sent) == 1 and sent[0]["type"] == 17 and sent[0]["accent_color"] == 0x123456
    assert layout.total_children_count <= 40
    assert layout.content_length() <= 4000
    gallery = sent[0]["components"][1]
    assert gallery["items"][0]["media"]["url"] == "attachment://board.png"
    assert len(gallery["items"][0]["description"]) <= 1024
    assert [len(c["components"]) for c in sent[0]["components"][2:]] == [5, 5, 5, 5, 5, 1]


def test_a_retired_v2_board_keeps_its_text_and_picture_and_a_classic_one_loses_all():
    import orjson

    from bot.delivery import _retired_body
    from bot.store import LiveMessage

    kept = [{"type": 17, "components": [{"type": 10, "content": "Alice played `k`."}]}]
    v2 = LiveMessage(1, 2, 3, "board", 4, None, retired=orjson.dumps(kept).decode())
    assert _retired_body(v2, "ignored") == {"flags": 1 << 15, "components": kept}
    classic = LiveMessage(1, 2, 3, "board", 4, None)
    assert _retired_body(classic, None) == {"components": []}
    assert _retired_body(classic, "Declined.") == {"components": [], "content": "Declined."}


def test_each_game_gives_its_seats_an_accent_colour():
    from render import seat_colour

    for game_id in ("progressive-mancala", "pastoral-square", "consequence", "ghostone", "ico"):
        game = REGISTRY[game_id]
        state = game.new(options={"start": "f0"}) if game_id == "ico" else game.new()
        view = game.observe(state, None)
        colours = [seat_colour(game_id, view, seat) for seat in range(2)]
        assert all(0 <= c <= 0xFFFFFF for c in colours)
        assert colours[0] != colours[1], game_id


def test_a_rating_chart_says_its_numbers_in_words():
    from bot.cogs.stats import chart_alt
    from bot.service.stats import Profile
    from bot.words.i18n import Texts

    trend = [(1.0, 1500.0), (2.0, 1650.4), (3.0, 1480.0), (4.0, 1620.0)]
    profile = Profile(7, [], None, [], [], "progressive-mancala", trend)
    assert chart_alt(profile, "Alice", ENGLISH) == (
        "Rating of Alice in Progressive Mancala over 4 games: from 1500 to 1620, highest "
        "1650, lowest 1480.")
    japanese = chart_alt(profile, "Alice", Texts("ja"))
    assert "1650" in japanese and "Rating" not in japanese


def test_open_board_is_on_a_running_boards_buttons_only_with_the_activity_and_a_page():
    game = REGISTRY["consequence"]
    state = game.new()

    def labels(**kw):
        return [getattr(i, "item", i).label for i in board_buttons(
            game, state, 9, 0, texts=ENGLISH, **kw)]

    page = "https://corral.example.org/m/" + "a" * 22
    assert labels(running=True, finished=False, link=page, activity=True) == [
        "Moves", "My view", "Describe", "Watch on the web", "Open board"]  # one row of five
    assert "Open board" not in labels(running=True, finished=False, link=page)  # off
    assert "Open board" not in labels(running=True, finished=False, activity=True)  # no page
    for kw in ({"running": False, "finished": True}, {"running": False, "finished": False}):
        assert "Open board" not in labels(link=page, activity=True, **kw)  # over, aborted
