"""Pastoral Square in words (games/pastoral/words.py): the alt text and the text board of known
positions in English and Japanese, the 1,024-character limit over random matches, the cells a
reader can ask about, and nothing but the view read."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from bot.words.descriptions import alt_text, text_board
from bot.words.i18n import Texts
from games import ALT_TEXT_LIMIT, InvalidMoveError, Phrase, get_game, replay, translate_template

GAME = get_game("pastoral-square")
EN, JA = Texts("en"), Texts("ja")
LONGEST = ["W" * 32, "Ｗ" * 32]  # Discord's longest display names (32 characters)
# the second player's c8:1 mutilates the first player's c6 (2 = 1 x 2 with a6)
MUTILATION = ["c6:2", "g6:2", "save", "a6:2", "d6:3", "c8:1"]


def view_after(moves, options=None):
    return GAME.observe(replay(GAME, moves, options=options), None)


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
    view = view_after([], {"colour": "white"})
    assert alt_text(GAME, view, EN, ["Aki", "Ben"]) == (
        "Aki to move (picked up 2). Aki (white): 2 held, 30 in stock. "
        "Ben (black): 0 held, 32 in stock. Aki has no stones on the board. "
        "Ben has no stones on the board.")
    assert alt_text(GAME, view, JA, ["あき", "べん"]) == (
        "あき の手番（2個ピックアップ）。 あき（白）：持ち石 2個、在庫 30個。 "
        "べん（黒）：持ち石 0個、在庫 32個。 あき の石は盤上にありません。 "
        "べん の石は盤上にありません。")
    board = text_board(GAME, view, EN, ["Aki", "Ben"])
    assert board[3:7] == ["Aki's stones in the corral: none",
                          "Aki's stones in the cattle area: none",
                          "Ben's stones in the corral: none",
                          "Ben's stones in the cattle area: none"]
    assert board[7] == ("Free corral cells, with the stones a claim takes: c6: 2, d6: 3, e6: 3, "
                        "f6: 2, c5: 3, d5: 4, e5: 4, f5: 3, c4: 3, d4: 4, e4: 4, f4: 3, c3: 2, "
                        "d3: 3, e3: 3, f3: 2")


def test_a_mutilation_and_the_cell_it_closes():
    view = view_after(MUTILATION)
    assert alt_text(GAME, view, EN, ["Aki", "Ben"]) == (
        "Aki to move (picked up 2). Aki (black): 3 held, 26 in stock. "
        "Ben (white): 2 held, 28 in stock. Aki may not place on c6 this turn (just mutilated). "
        "Aki's stones: d6: 3. Ben's stones: g6: 2. Last move: Ben c8:1. "
        "mutilation: a6 (2), c6 (2), c8 (1) removed, 2 stones back to each stock. "
        "one stone back to the mover's hand.")
    board = text_board(GAME, view, JA, ["あき", "べん"])
    assert board[:4] == ["あき の手番（2個ピックアップ）", "あき（黒）：持ち石 3個、在庫 26個",
                         "べん（白）：持ち石 2個、在庫 28個",
                         "あき はこの手番 c6 にプレイスできません（キャトられたばかり）"]
    assert "あき のコラールの石：d6：3個" in board and "べん のキャトエリアの石：g6：2個" in board
    assert board[-3] == "直前の手：べん c8:1"
    assert board[-2].startswith("キャトルミューティレーション：a6 (2)、c6 (2)、c8 (1)")
    assert EN(GAME.describe_point(view, "c6"), ["Aki", "Ben"]) == (
        "c6, corral: empty, a claim takes 2 stones; Aki may not place here this turn")
    assert JA(GAME.describe_point(view, "D6"), ["あき", "べん"]) == "d6（コラール）：あき の石 3個"
    assert EN(GAME.describe_point(view, "g6"), ["Aki", "Ben"]) == "g6, cattle area: 2 stones of Ben"
    assert EN(GAME.describe_point(view, "a6")) == "a6, cattle area: empty"
    assert EN(GAME.describe_point(view, "e5")) == "e5, corral: empty, a claim takes 4 stones"
    assert JA(GAME.describe_point(view, "h8")) == "h8 は持ち石エリアなので、石は置けません"


def finished(seed):
    rng = random.Random(seed)
    state = GAME.new()
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


def test_game_over_says_the_result_first():
    for seed in range(100):
        state = finished(seed)
        view = GAME.observe(state, None)
        if view.bingo is not None:
            alt = alt_text(GAME, view, EN, ["Aki", "Ben"])
            winner = ["Aki", "Ben"][view.outcome.winners[0]]
            assert alt.startswith(f"Game over: {winner} made a bingo: ")
            assert alt_text(GAME, view, JA, ["Aki", "Ben"]).startswith(f"終局：{winner} がビンゴ：")
            assert not any("to move" in line for line in text_board(GAME, view, EN, ["A", "B"]))
            return
    pytest.fail("no bingo in 100 random matches")


def random_views(matches, seed):
    rng = random.Random(seed)
    for _ in range(matches):
        state = GAME.new()
        yield GAME.observe(state, None)
        while GAME.outcome(state) is None:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            yield GAME.observe(state, None)


def test_alt_text_fits_and_japanese_is_translated():
    longest = 0
    for view in random_views(15, seed=3):
        description = GAME.describe_view(view)
        for texts in (EN, JA):
            longest = max(longest, len(joined_alt(view, texts, LONGEST)))
        assert not untranslated(description.alt + description.full)
        ja = " ".join(JA(line, ["あき", "べん"]) for line in description.alt + description.full)
        assert not re.search(r"[A-Za-z]{3,}", ja.replace("save", "")), ja
    assert 300 < longest <= ALT_TEXT_LIMIT


def test_the_fullest_board_fits():
    """The most stacks the 64 stones can make: every cattle cell of one player, corral cells
    claimed with their values, names of 32 characters."""
    state = GAME.new()
    owner, count = list(state.owner), list(state.count)
    from games.pastoral.game import CATTLE, CORRAL, VALUE
    stones = 64
    for cell in sorted(CATTLE):
        owner[cell], count[cell] = cell % 2, 1
        stones -= 1
    for cell in sorted(CORRAL, key=VALUE.get):
        if stones >= VALUE[cell]:
            owner[cell], count[cell] = cell % 2, VALUE[cell]
            stones -= VALUE[cell]
    view = SimpleNamespace(**{**vars(GAME.observe(state, None)), "owner": tuple(owner),
                              "count": tuple(count), "held": (0, 0), "stock": (stones, 0)})
    for texts in (EN, JA):
        assert len(joined_alt(view, texts, LONGEST)) <= ALT_TEXT_LIMIT


def test_every_cell_answers_in_both_languages_and_others_are_refused():
    view = view_after(MUTILATION)
    names = GAME.point_names(view)
    assert len(names) == 64 and names[:9] == ("a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
                                              "a7")
    assert names[-1] == "h1"
    for name in names:
        en = EN(GAME.describe_point(view, name), ["Aki", "Ben"])
        ja = JA(GAME.describe_point(view, name.upper()), ["あき", "べん"])
        assert en.startswith(name) and ja.startswith(name) and en != ja
    for bad in ("i1", "a9", "a", "", "d4:4", "save"):
        with pytest.raises(InvalidMoveError) as refused:
            GAME.describe_point(view, bad)
        assert refused.value.phrase.field("name") == bad
        assert bad in JA(refused.value.phrase)


def test_description_comes_from_the_view_alone():
    """Words from a bare copy of the view's fields (no state behind them) are the same, and
    every player's view gives the same words as the public one (nothing is hidden)."""
    state = replay(GAME, MUTILATION)
    view = GAME.observe(state, None)
    bare = SimpleNamespace(**vars(view))
    assert GAME.describe_view(bare) == GAME.describe_view(view)
    for seat in (0, 1):
        assert GAME.describe_view(GAME.observe(state, seat)) == GAME.describe_view(view)
