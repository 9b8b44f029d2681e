"""No English on a Japanese screen: every message of the catalog formatted with sample values,
every option's help and autocomplete line, the bot's composed texts, and what the games say
while they are played (prompts, buttons, effects, outcomes, turn cards, errors), and every
lesson's texts, all rendered in Japanese, hold no English word but true names and notation.

Allowed: code spans (`...`: notation and values typed as such, such as `pits=17`), Discord
mentions and timestamps (<...>), the names in NAMES (Corral, Discord, the games' titles and
authors ...), and notation tokens (a cell `b2`, an edge `e12`, a face `f3`, a compass code `NE`,
a tile `BM@b2`, single letters such as a pit's `k`)."""

from __future__ import annotations

import random
import re
import string

import pytest
from babel.messages.pofile import read_po
from support import command_tree

from bot.clocks import Duration
from bot.cogs.info import help_messages
from bot.cogs.options import option_choices
from bot.cogs.settings import settings_text
from bot.words import strings
from bot.words.catalogs import po_path
from bot.words.i18n import Texts
from games import PRODUCT, REGISTRY, GameError, Phrase, Seat, Step, nphrase, phrase
from games.lessons import lesson_for

JA = Texts("ja")
NAMES = {
    "Corral", "Discord", "DM", "DMs", "AI",
    # the games' titles (shown beside their Japanese names) and authors
    "Pastoral", "Square", "Ghostone", "Progressive", "Mancala", "ICO", "Consequence",
    "Ralf", "Gering", "Jonas", "Lidström", "Isegrim",
    "True", "False",  # Discord's boolean option values, as its client shows them
    "English",  # the language's own name, in the list of languages (日本語, English)
}
OPTION = re.compile(r"^[a-z]+=[a-z0-9+]+$")  # a match option as typed: pits=17
NOTATION = re.compile(
    r"^(?:[a-q][1-9]?|-?e\d{1,2}|f\d{1,2}|N|NE|E|SE|S|SW|W|NW|[BR][MSD]?|[A-Q])$")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
CODE = re.compile(r"`[^`]*`|<[^<>]*>")
SAMPLE_NAMES = ["花子", "太郎", "次郎", "三郎"]


def english_words(text: str) -> list[str]:
    """The English words of `text` outside code spans and mentions, names and notation."""
    bare = CODE.sub(" ", text)
    words = []
    for token in re.split(r"[^A-Za-z0-9@'’>=+-]+", bare):
        if OPTION.match(token):
            continue
        if re.match(r"^\d+[A-Za-z]+$", token):  # 2d, 3h: a duration in English
            words.append(token)
            continue
        for word in WORD.findall(token):
            if word in NAMES or NOTATION.match(word) or NOTATION.match(token):
                continue
            words.append(word)
    return words


def test_the_check_finds_english():
    assert english_words("持ち時間は `3d` です（Corral、b2、e12、NE）") == []
    assert english_words("キャトリーチ (default)") == ["default"]
    assert english_words("2d 3h") == ["2d", "3h"]
    assert english_words("例: pits=17、level=2+") == []
    assert english_words("en, ja") == ["en", "ja"]


def sample(name: str) -> object:
    """A value for a message's field: numbers where a number is formatted, else Japanese."""
    if name in {"n", "ply", "total", "count", "max", "min", "have", "need", "days", "score",
                "target", "value", "stones", "wanted", "picked", "stock", "opp_held",
                "opp_stock", "bonus", "edge", "face", "origin_face", "seat_no", "rank", "a",
                "b", "moons", "suns", "match_id", "level", "first", "last", "hours",
                "minutes", "before", "after", "rating", "won", "drawn", "lost", "left"}:
        return 3
    return "テスト"


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def catalog_messages() -> list[tuple[str | None, str | tuple[str, str]]]:
    with po_path("ja").open("rb") as source:
        catalog = read_po(source, locale="ja")
    return [(m.context, m.id) for m in catalog if m.id]


@pytest.mark.parametrize("context, message", catalog_messages(), ids=str)
def test_every_catalog_message_reads_in_japanese(context, message):
    if isinstance(message, str) and message.startswith("name:"):
        return  # command names: checked by the translator's own rules (test_command_tree)
    if isinstance(message, tuple):
        text: Phrase = nphrase(message[0], message[1], 3,
                               **{f: sample(f) for f in fields(message[1]) if f != "n"})
    else:
        template = message if context is None else f"{context}\x04{message}"
        text = phrase(template, **{f: sample(f) for f in fields(message)})
    out = JA(text)
    assert not english_words(out), (message, out)


@pytest.mark.parametrize("game_id", sorted(PRODUCT))
def test_options_read_in_japanese(game_id):
    game = REGISTRY[game_id]
    for spec in game.info.options:
        assert not english_words(JA(spec.help)), (spec.name, JA(spec.help))
        for choice in option_choices(game, f"{spec.name}=", JA):
            # the option and its value are typed as they are; the rest is Japanese
            shown = choice.name.replace(choice.value.strip(), "")
            assert not english_words(shown), choice.name
    for choice in option_choices(game, "", JA):
        shown = re.sub(r"^\S+=… \([^)]*\)", "", choice.name)
        assert not english_words(shown), choice.name


def test_composed_texts_read_in_japanese():
    settings = {"use_threads": True, "move_seconds": 2 * 86400 + 3 * 3600, "channels": [5, 6],
                "spectators_talk": False, "language": "ja", "preferred_language": None,
                "web_links": False}
    out = settings_text(settings, JA)
    assert "2日3時間" in out and "<#5>、<#6>" in out, out
    assert not english_words(out), out
    assert JA(phrase(strings.UNKNOWN_LANGUAGE, languages=(phrase(strings.LANGUAGE_NAMES["en"]),
                                                        phrase(strings.LANGUAGE_NAMES["ja"])))
              ) == "Corral が使える言語は英語、日本語です。"
    intro, messages = help_messages(command_tree(), JA)
    # the games' names aside (a test kit may be playable too), nothing in English
    help_text = "\n".join([intro.split("ゲーム：")[0],
                           *(e.description or "" for m in messages for e in m)])
    assert help_text.count("`/") >= 20
    assert not english_words(help_text), english_words(help_text)
    assert JA(phrase("{d}", d=Duration(45 * 60))) == "45分"
    # the games' Japanese titles, with the English beside them, in lists and command choices
    titles = JA(phrase("{games}", games=tuple(phrase(REGISTRY[g].name) for g in sorted(PRODUCT))))
    assert "パストラル・スクエア（Pastoral Square）" in titles, titles
    assert "プログレッシブ・マンカラ（Progressive Mancala）" in titles and "、" in titles
    for game_id in sorted(PRODUCT):
        game = REGISTRY[game_id]
        titles = [JA(game.seat_title(seat)) for seat in range(game.info.max_seats)]
        assert all(not english_words(t) for t in titles), titles
    assert [JA(REGISTRY["pastoral-square"].seat_title(s)) for s in (0, 1)] == ["先攻", "後攻"]
    assert [JA(REGISTRY["progressive-mancala"].seat_title(s)) for s in (0, 1)] == ["先手", "後手"]
    assert JA(REGISTRY["ghostone"].seat_title(2)) == "3番手"
    assert JA(phrase("{winner} wins", winner=Seat(1))) == "2番手 の勝ち"


def said(text: Phrase | str | None, names: list[str]) -> list[str]:
    if text is None:
        return []
    out = JA(text, names)
    return [out] if english_words(out) else []


@pytest.mark.parametrize("game_id", sorted(PRODUCT))
def test_what_the_games_say_while_played_reads_in_japanese(game_id):
    """Random matches: every step's prompt and options, every move's effects, the turn notes,
    turn cards, outcomes, and the errors of refused moves, in Japanese."""
    game = REGISTRY[game_id]
    rng = random.Random(31)
    found: list[str] = []
    for seats in sorted({game.info.min_seats, game.info.max_seats}):
        names = SAMPLE_NAMES[:seats]
        options = {}
        if game_id == "ico":
            options = {"level": rng.choice(["1", "1+", "2", "2+"])}
        state = game.new(seats, game.draw_options(options, rng))
        for _ in range(400):
            if game.outcome(state) is not None:
                found += said(game.describe_outcome(state), names)
                break
            if game.is_chance(state):
                move = rng.choice(game.legal_moves(state))
                after = game.apply(state, move)
                for effect in game.move_effects(state, move, after):
                    found += said(effect, names)
                state = after
                continue
            seat = game.to_move(state)
            assert seat is not None
            found += said(game.turn_note(state), names)
            found += said(game.turn_card(state, seat), names)
            answers: list[tuple[str, ...]] = []
            step = game.move_input(state, ())
            while isinstance(step, Step):
                found += said(step.prompt, names)
                for option in step.options:
                    found += said(option.label, names)
                    found += said(option.description, names)
                values = [o.value for o in step.options]
                answers.append(tuple(rng.sample(values, step.picks)))
                step = game.move_input(state, tuple(answers))
            for wrong in ("z9", "a1", "e99", "save", "BM@a1>NE", "b2-b3 NE", "ghost a1"):
                try:
                    game.apply(state, game.parse_move(state, wrong))
                except GameError as error:
                    found += said(error.phrase, names)
            move = game.parse_move(state, step)
            after = game.apply(state, move)
            for effect in game.move_effects(state, move, after):
                found += said(effect, names)
            state = after
    assert not found, sorted(set(found))[:20]


@pytest.mark.parametrize("game_id", sorted(PRODUCT))
def test_lessons_read_in_japanese(game_id):
    """Every Japanese text of a game's lesson (title, seats' names, texts, tasks, answers'
    explanations, choices) holds no English but names and notation."""
    lesson = lesson_for(game_id)
    assert lesson is not None
    texts = [lesson.title, *lesson.names]
    for step in lesson.steps:
        texts += [step.text, step.task, step.right, step.otherwise, *step.wrong.values(),
                  *(choice.text for choice in step.choices)]
    found = [(text.get("ja"), words) for text in texts if text is not None
             for words in [english_words(text.get("ja"))] if words]
    assert not found, found
