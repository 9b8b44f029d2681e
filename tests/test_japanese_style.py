"""Japanese house style over the whole Japanese catalog, and sentences a Japanese player found
unnatural (issue 50, finding 13). The style is the one DEVELOPERS.md names: no space between a
number (or a number's placeholder) and its counter (28個, never 「28 個」 beside 「28個」 on one
board), and full-width （）：！？ in Japanese text; half-width ones stay only inside code
(`ai:`), placeholders ({name}) and links, which are not Japanese text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.service import LEVEL_NAMES
from bot.words import strings
from bot.words.catalogs import po_path
from bot.words.i18n import Texts
from games import IllegalMoveError, get_game, phrase

ROOT = Path(__file__).resolve().parents[1]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# counters the catalog writes after a number: 個 (stones, seeds, rocks), 局, 日, 人, 手 ...
COUNTERS = ("個", "局", "日", "人", "手", "点", "回", "枚", "体", "番手", "位", "時間", "分",
            "秒", "週", "か月", "年", "マス", "件", "通", "行", "ラウンド", "卓", "勝", "敗")
NUMBER_THEN_SPACE = re.compile(r"(?:\d|\{[a-z_]+\})[ \u00a0\u3000]+(?:" + "|".join(COUNTERS) + ")")
# what is not Japanese text: code spans, placeholders, <…> (mentions, links), URLs
NOT_TEXT = re.compile(r"`[^`]*`|\{[^{}]*\}|<[^>]*>|https?://\S+")
HALF_WIDTH = re.compile(r"[()!?]|(?<!\d):|:(?!\d)")  # 12:30 is a time, not a colon


def japanese_forms(every: bool = False) -> list[tuple[str, str]]:
    """(English, Japanese) for every form of every catalog entry written in Japanese, and
    (path, line) for every Japanese line of the games' rules texts; `every`: each form of
    the Japanese catalog, kana or not."""
    with po_path("ja").open("rb") as source:
        catalog = read_po(source, locale="ja")
    found = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        forms = (message.string,) if isinstance(message.string, str) else message.string
        found += [(english, form) for form in forms
                  if form and (every or JAPANESE.search(form))]
    for path in sorted(ROOT.glob("games/*/rules/ja.md")):  # the rules texts, line by line
        found += [(str(path.relative_to(ROOT)), line)
                  for line in path.read_text(encoding="utf-8").splitlines()
                  if JAPANESE.search(line)]
    return found


def test_no_space_between_a_number_and_its_counter():
    spaced = [(english, japanese) for english, japanese in japanese_forms()
              if NUMBER_THEN_SPACE.search(NOT_TEXT.sub(lambda m: "{n}" if m.group().startswith(
                  "{") else "`", japanese))]
    assert not spaced, "\n".join(f"{e!r}: {j!r}" for e, j in spaced)


def test_full_width_brackets_colons_and_marks_in_japanese_text():
    # every form: "{ply}. {name}: `{notation}`" has no kana, but a Japanese name fills it
    half = [(english, japanese) for english, japanese in japanese_forms(every=True)
            if HALF_WIDTH.search(NOT_TEXT.sub("", japanese))]
    assert not half, "\n".join(f"{e!r}: {j!r}" for e, j in half)


def test_the_checks_see_what_they_look_for():
    """The patterns find the faults the catalog had, and let code and placeholders be."""
    assert NUMBER_THEN_SPACE.search("28 個先取") and NUMBER_THEN_SPACE.search("{n} 日")
    assert not NUMBER_THEN_SPACE.search("28個先取")
    assert HALF_WIDTH.search("勝点 (3)") and HALF_WIDTH.search("順位: 1")
    assert not HALF_WIDTH.search(NOT_TEXT.sub("", "`ai:` を使う {name} <https://a.b/c?d>"))
    assert not HALF_WIDTH.search("12:30")


JA = Texts("ja")


@pytest.mark.parametrize("level", sorted(LEVEL_NAMES))
def test_an_ai_level_composes_into_a_sentence(level):
    """「つよいのAIによる」: the levels were adjectives that no sentence could carry. They are
    nouns now (初級, 中級, 上級) that read before の, after は and before AI alike."""
    name = JA(phrase(LEVEL_NAMES[level]))
    header = JA(phrase(strings.ANALYSIS_HEADER, match_id=3, game="ICO",
                       level=phrase(LEVEL_NAMES[level])))
    assert JAPANESE.search(name) and not name.endswith(("い", "う")), name
    assert f"{name}のAIによる" in header, header


def test_ghostone_set_up_asks_where_to_place_the_pawn():
    game = get_game("ghostone")
    state = game.new(3, {})
    step = game.input_step(state, (), [game.format_move(state, m).split(":")[0]
                                        for m in game.legal_moves(state)][:4], 1)
    assert "置" in JA(step.prompt) and "動かし" not in JA(step.prompt), JA(step.prompt)


def test_ghostone_direction_errors_use_the_buttons_words():
    """The errors said N、E、S、W where the buttons say 北/東: one set of words."""
    from test_ghostone_rules import position

    game = get_game("ghostone")
    state = position({"b2": 0, "c3": 1, "d4": 2}, rocks={"b2": 2, "b3": 1}, flipped=("a2",))
    for text in ("b2-b3", "b2-b3 W"):  # a rock must move; a rock cannot go onto flipped a2
        with pytest.raises(IllegalMoveError) as error:
            game.play(state, text)
        said = JA(error.value.phrase)
        assert re.search("[北東南西]", said) and not re.search(r"\b[NESW]\b", said), said


def test_a_bold_japanese_label_is_not_smudged_by_a_fake_bold():
    """The CJK fonts have no bold; a stroke faked one and filled dense kanji (賽, 準備) to blots
    in every picture header. A bold CJK label is the regular one (it stands out by size and
    colour); Latin bold keeps DejaVu Sans Bold."""
    from render import common

    if not common.cjk_font_available():
        pytest.skip("no CJK font installed")
    for text in ("賽子の目は北東", "準備：はなこ が駒1体と岩3個を置きます"):
        bold, regular = common._stamp(text, 28, True), common._stamp(text, 28, False)
        assert (bold.width, bold.levels) == (regular.width, regular.levels), text
    assert common._stamp("Alice", 28, True).levels != common._stamp("Alice", 28, False).levels
