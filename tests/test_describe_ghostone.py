"""Ghostone in words (games/ghostone/words.py): the alt text and the text board of known
positions in English and Japanese, the 1,024-character limit over random matches of 3 and 4
players, the plates a reader can ask about, and nothing but the view read."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from bot.words.descriptions import alt_text, text_board
from bot.words.i18n import Texts
from games import ALT_TEXT_LIMIT, InvalidMoveError, Phrase, get_game, replay, translate_template

GAME = get_game("ghostone")
EN, JA = Texts("en"), Texts("ja")
NAMES, NAMES_JA = ["Aki", "Ben", "Cho", "Dee"], ["あき", "べん", "ちょ", "でい"]
LONGEST = ["W" * 32, "Ｗ" * 32, "X" * 32, "Ｘ" * 32]  # Discord's longest display names
SETUP = "b3:a4,b2,b4 c3:b4,c2,d3 c2:b1,b3,d3 b1:a2,b2,c2 b2:a3,c1,c3 c4:b3,c3,d4 b4:a4,c3,c4 " \
        "d2:c1,c2,c3 a2:b1,b2,b3"
PLAY = (
    "b4-a4 W|b3-b4 W|c3-d3 S|c2-c3 S|d2-c2 N|a2-a3 E|b2-b3 S|c4-d4 E|b1-b2 W|c3-c4 S|c2-c1 E|"
    "d3-c3 S|c1-d1 N|b2-a2 E|b3-b2 N|d1-d2 S|c3-d3 S|c4-c3 W|d2-c2 N|a3-b3 E|c3-c4 W|c2-d2 E|"
    "d3-c3 W|a4-a3 S|d2-d1 W|c3-c2 S|a3-a4 W|d4-d3 E|b3-a3 W|b2-b1 N|d3-d4 N|a3-b3 E|b1-b2 N|"
    "d4-d3 N|b3-c3 W|b2-b1 S|b4-b3 W|c2-b2 N|b1-c1 N|d3-d2 W|b2-c2 S|a4-b4 N|b3-b2 S|c3-b3 E|"
    "c1-b1 N|d2-d3 N|c2-c1 W|b1-a1 E|b2-b1 W|a2-a3 E|b4-a4 W|d3-d2 N|ghost b3|c1-c2 W|a1-a2 E|"
    "roll SW")
# 3 players: three escapes, the ghost placed on b3, then the die's SW takes it to a2
GHOST_LINE = SETUP.split() + PLAY.split("|")


def view_after(moves, seats=3):
    return GAME.observe(replay(GAME, moves, seats=seats), None)


def joined_alt(view, texts, names):
    """The alt text before bot/words/descriptions.py cuts it: the kit's own length."""
    return " ".join(texts(line, names) for line in GAME.describe_view(view).alt)


def templates(text):
    if not isinstance(text, Phrase):
        return
    yield text.template, text.plural
    for _, value in text.fields:
        for item in value if isinstance(value, (list, tuple)) else (value,):
            yield from templates(item)


def untranslated(lines):
    missing = []
    for line in lines:
        for singular, plural in templates(line):
            if plural is None:
                if translate_template(singular, JA.gettext) == singular:
                    missing.append(singular)
            elif JA.ngettext(singular, plural, 1) == singular:
                missing.append(singular)
    return missing


def test_start_in_both_languages():
    view = view_after([])
    rocks = ", ".join(f"{f}{r}: 1" for r in "4321" for f in "abcd")
    assert alt_text(GAME, view, EN, NAMES[:3]) == (
        "Set-up: Aki places a pawn and 3 rocks. Aki: 0 points, no pawn on the board. "
        "Ben: 0 points, no pawn on the board. Cho: 0 points, no pawn on the board. "
        f"Rocks: {rocks}.")
    rocks_ja = "、".join(f"{f}{r}：1個" for r in "4321" for f in "abcd")
    assert alt_text(GAME, view, JA, NAMES_JA[:3]) == (
        "準備：あき が駒1体と岩3個を置きます。 あき：0点、盤上に駒なし。 べん：0点、盤上に駒なし。 "
        f"ちょ：0点、盤上に駒なし。 岩：{rocks_ja}。")
    board = text_board(GAME, view, EN, NAMES[:3])
    assert board[4:6] == ["The ghost comes out after the third escape (0 so far)",
                          "0 rocks out of the game"]
    assert board[6:] == [f"{f}{r}: 1 rock" for r in "4321" for f in "abcd"]


def test_the_ghost_the_die_and_a_rock_taken():
    view = view_after(GHOST_LINE)
    assert alt_text(GAME, view, EN, NAMES[:3]) == (
        "Aki to move. Aki: 8 points, pawn on b1. Ben: 0 points, pawns on a3, b3, c2. "
        "Cho: 5 points, pawns on a4, a2. The ghost is on a2. 6 rocks out of the game. Die: SW. "
        "Rocks: a4: 4, b4: 2, d4: 3, a3: 3, b3: 2, c3: 2, d3: 2, a2: 1, b2: 4, c2: 7, a1: 1, "
        "b1: 4, c1: 2. Flipped plates: c4, d2, d1. Last move: Cho a1-a2 E (a rock went to b1).")
    board = text_board(GAME, view, JA, NAMES_JA[:3])
    assert board[:6] == ["あき の手番", "あき：8点、駒は b1", "べん：0点、駒は a3、b3、c2",
                         "ちょ：5点、駒は a4、a2", "オバケは a2 にいます", "ゲームから除かれた岩：6個"]
    assert "a2：オバケ、ちょ の駒、岩 1個" in board and "c4：裏返し" in board
    assert board[-4:] == ["直前の手：ちょ a1-a2 E", "岩が b1 に移動しました",
                          "賽子の目は南西：オバケが b3 → a2 に移動", "オバケが b3 の岩を1個取り除きました"]
    assert EN(GAME.describe_point(view, "A2"), NAMES) == "a2: the ghost, Cho's pawn, 1 rock"
    assert EN(GAME.describe_point(view, "d1")) == "d1: flipped"


def test_roll_due_escape_and_game_over():
    """Before the roll the host is named; an escape says its points; the end says the result
    first and a plate without rocks is no longer an invitation to escape."""
    view = view_after(GHOST_LINE[:-1])
    assert alt_text(GAME, view, EN, NAMES[:3]).startswith("The host rolls the die. ")
    assert alt_text(GAME, view, JA, NAMES_JA[:3]).startswith("Corral が賽子を振ります。 ")
    for seed in range(60):
        rng = random.Random(seed)
        state = GAME.new(4)
        escaped = False
        while GAME.outcome(state) is None:
            before = state
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            if state.last is not before.last and state.last.escaped is not None:
                points, bonus = state.last.escaped
                alt = alt_text(GAME, GAME.observe(state, None), EN, NAMES)
                assert (f"(escaped: {points} rock{'s' * (points != 1)} + {bonus} bonus"
                        in alt), alt
                escaped = True
        view = GAME.observe(state, None)
        if escaped and view.outcome.ending == "target" and not view.outcome.draw:
            winner = NAMES[view.outcome.winners[0]]
            score = view.scores[view.outcome.winners[0]]
            alt = alt_text(GAME, view, EN, NAMES)
            assert alt.startswith("Game over: ") and f"{winner} wins with {score}." in alt
            assert f"{winner} が {score}点で勝利" in alt_text(GAME, view, JA, NAMES)
            board = text_board(GAME, view, EN, NAMES)
            assert not any("escapes" in line for line in board)
            return
    pytest.fail("no finished match with a single winner")


def random_views(seats, matches, seed):
    rng = random.Random(seed)
    for _ in range(matches):
        state = GAME.new(seats)
        yield GAME.observe(state, None)
        while GAME.outcome(state) is None:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            yield GAME.observe(state, None)


@pytest.mark.parametrize("seats", [3, 4])
def test_alt_text_fits_and_japanese_is_translated(seats):
    longest = 0
    for view in random_views(seats, 8, seed=seats):
        description = GAME.describe_view(view)
        for texts in (EN, JA):
            longest = max(longest, len(joined_alt(view, texts, LONGEST)))
        assert not untranslated(description.alt + description.full)
        ja = " ".join(JA(line, NAMES_JA) for line in description.alt + description.full)
        # the only Latin words: notation (b2-b3 W) and the bot's name, who rolls the die
        assert not re.search(r"[A-Za-z]{3,}", ja.replace("Corral が賽子を振ります", "")), ja
    assert 400 < longest <= ALT_TEXT_LIMIT


def test_every_plate_answers_in_both_languages_and_others_are_refused():
    view = view_after(GHOST_LINE)
    names = GAME.point_names(view)
    assert names == tuple(f"{f}{r}" for r in "4321" for f in "abcd")
    for name in names:
        en = EN(GAME.describe_point(view, name), NAMES)
        ja = JA(GAME.describe_point(view, name.upper()), NAMES_JA)
        assert en.startswith(f"{name}: ") and ja.startswith(f"{name}：") and en != ja
    for bad in ("e1", "a5", "ghost", "", "b2-b3", "ａ1"):
        with pytest.raises(InvalidMoveError) as refused:
            GAME.describe_point(view, bad)
        assert refused.value.phrase.field("name") == bad
        assert bad in JA(refused.value.phrase)


def test_description_comes_from_the_view_alone():
    """Words from a bare copy of the view's fields (no state behind them) are the same, and
    every seat's view gives the public view's words."""
    state = replay(GAME, GHOST_LINE, seats=3)
    view = GAME.observe(state, None)
    bare = SimpleNamespace(**vars(view))
    assert GAME.describe_view(bare) == GAME.describe_view(view)
    for seat in range(3):
        assert GAME.describe_view(GAME.observe(state, seat)) == GAME.describe_view(view)
