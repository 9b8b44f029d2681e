"""Progressive Mancala in words (games/mancala/words.py): the alt text and the text board of
known positions in English and Japanese, the 1,024-character limit over random matches on both
boards, the places a reader can ask about, and nothing but the view read."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from bot.words.descriptions import alt_text, text_board
from bot.words.i18n import Texts
from games import ALT_TEXT_LIMIT, InvalidMoveError, Phrase, get_game, replay, translate_template

GAME = get_game("progressive-mancala")
EN, JA = Texts("en"), Texts("ja")
LONGEST = ["W" * 32, "Ｗ" * 32]  # Discord's longest display names (32 characters)
GAME_2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a"]  # the seed's Game 2, up to the 14th move


def view_after(moves, pits="11"):
    return GAME.observe(replay(GAME, moves, options={"pits": pits}), None)


def joined_alt(view, texts, names):
    """The alt text before bot/words/descriptions.py cuts it: the kit's own length."""
    return " ".join(texts(line, names) for line in GAME.describe_view(view).alt)


def templates(text):
    """Every message id in a phrase and its phrase fields (singular, plural)."""
    if not isinstance(text, Phrase):
        return
    yield text.template, text.plural
    for _, value in text.fields:
        for item in value if isinstance(value, (list, tuple)) else (value,):
            yield from templates(item)


def untranslated(description_lines):
    missing = []
    for line in description_lines:
        for singular, plural in templates(line):
            if plural is None:
                if translate_template(singular, JA.gettext) == singular:
                    missing.append(singular)
            elif JA.ngettext(singular, plural, 1) == singular:
                missing.append(singular)
    return missing


def test_start_in_both_languages():
    view = view_after([])
    assert alt_text(GAME, view, EN, ["Aki", "Ben"]) == (
        "Aki to move, sowing from k to a and into the goal. Score: Aki 0, Ben 0 (first to 28). "
        "Goal: 0 seeds. Pits: a: 5, b: 5, c: 5, d: 5, e: 5, f: 5, g: 5, h: 5, i: 5, j: 5, k: 5.")
    assert alt_text(GAME, view, JA, ["あき", "べん"]) == (
        "あき の手番（k から a の向きに蒔き、ゴールへ）。 得点：あき 0個、べん 0個（28個先取）。 "
        "ゴール：0個。 穴：a：5個、b：5個、c：5個、d：5個、e：5個、f：5個、g：5個、h：5個、"
        "i：5個、j：5個、k：5個。")
    board = text_board(GAME, view, EN, ["Aki", "Ben"])
    assert board[:5] == ["Aki to move, sowing from k to a and into the goal",
                         "Score: Aki 0, Ben 0 (first to 28)",
                         "Aki sows from k to a, then into the goal",
                         "Ben sows from a to k, then into the goal", "Goal: 0 seeds"]
    assert board[5:] == [f"Pit {p}: 5 seeds" for p in "abcdefghijk"]


def test_the_seeds_game_2_bonus_move_and_relay():
    """After the first player's bonus move `a` (the rule file's trace), the second player owes
    it nothing and has a bonus move of their own."""
    view = view_after(GAME_2)
    alt = alt_text(GAME, view, EN, ["Aki", "Ben"])
    assert alt.startswith("Ben to move, sowing from a to k and into the goal. "
                          "1 bonus move to make after this one. Score: Aki 5, Ben 21 (first to 28). "
                          "Goal: 5 seeds. Pits: a: 0, b: 1, c: 1, d: 2, e: 3, f: 8,")
    assert alt.endswith("Last move: Aki a (ended in an empty pit: Ben gets a bonus move).")
    board = text_board(GAME, view, EN, ["Aki", "Ben"])
    assert board[-3:] == ["Last move: Aki a", "relayed from d, g, e, c, a, k, d, b, h, c, a, k, i",
                          "ended in an empty pit: Ben gets a bonus move"]
    assert "Pit a: empty" in board and "Pit f: 8 seeds" in board and "Pit b: 1 seed" in board
    ja = text_board(GAME, view, JA, ["あき", "べん"])
    assert ja[:3] == ["べん の手番（a から k の向きに蒔き、ゴールへ）", "この後にボーナス手番が1回",
                      "得点：あき 5個、べん 21個（28個先取）"]
    assert "穴 a：空" in ja and "穴 f：8個" in ja
    assert ja[-2:] == ["d、g、e、c、a、k、d、b、h、c、a、k、i からラップ", "空の穴で終了：べん にボーナス手番"]


def test_owed_bonus_moves_are_said():
    """A move of this turn that ended in an empty pit gives the opponent a bonus move next
    turn: the alt text says so while the mover still has moves to make."""
    for seed in range(200):
        rng = random.Random(seed)
        state = GAME.new()
        while GAME.outcome(state) is None:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            if state.owed and GAME.outcome(state) is None:
                view = GAME.observe(state, None)
                other = ["Aki", "Ben"][1 - state.to_move]
                alt = alt_text(GAME, view, EN, ["Aki", "Ben"])
                assert f"Bonus moves for {other} next turn: {state.owed}." in alt
                assert f"{other} は次の手番にボーナス手番 +{state.owed}" in alt_text(
                    GAME, view, JA, ["Aki", "Ben"])
                return
    pytest.fail("no position with a bonus move owed")


def test_game_over():
    view = view_after(["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"])
    assert alt_text(GAME, view, EN, ["Aki", "Ben"]).startswith(
        "Game over: Ben reached 28 seeds (first to 28). Score: Aki 5, Ben 28 (first to 28).")
    assert alt_text(GAME, view, JA, ["あき", "べん"]).startswith(
        "終局：べん が 28個に到達（28個先取）。 得点：あき 5個、べん 28個（28個先取）。")
    assert not any("to move" in line for line in text_board(GAME, view, EN, ["Aki", "Ben"]))


def random_views(pits, matches, seed):
    rng = random.Random(seed)
    for _ in range(matches):
        state = GAME.new(options={"pits": pits})
        yield GAME.observe(state, None)
        while GAME.outcome(state) is None:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            yield GAME.observe(state, None)


@pytest.mark.parametrize("pits", ["11", "17"])
def test_alt_text_fits_and_japanese_is_translated(pits):
    longest = 0
    for view in random_views(pits, 12, seed=int(pits)):
        description = GAME.describe_view(view)
        for texts in (EN, JA):
            longest = max(longest, len(joined_alt(view, texts, LONGEST)))
        assert not untranslated(description.alt + description.full)
        ja = " ".join(JA(line, ["あき", "べん"]) for line in description.alt + description.full)
        assert not re.search(r"[A-Za-z]{3,}", ja), ja
    assert 150 < longest <= ALT_TEXT_LIMIT


def test_every_place_answers_in_both_languages_and_others_are_refused():
    view = view_after(GAME_2, pits="11")
    names = GAME.point_names(view)
    assert names == tuple("abcdefghijk") + ("goal",)
    for name in names:
        en = EN(GAME.describe_point(view, name), ["Aki", "Ben"])
        ja = JA(GAME.describe_point(view, name.upper()), ["あき", "べん"])
        assert en and ja and en != ja
    assert EN(GAME.describe_point(view, "F")) == "Pit f: 8 seeds"
    assert JA(GAME.describe_point(view, "goal")) == "ゴール：5個"
    assert len(GAME.point_names(view_after([], pits="17"))) == 18
    for bad in ("l", "z", "aa", "", "goals", "ａ"):
        with pytest.raises(InvalidMoveError) as refused:
            GAME.describe_point(view, bad)
        assert refused.value.phrase.field("name") == bad
        assert bad in JA(refused.value.phrase)


def test_description_comes_from_the_view_alone():
    """The words are the same for a bare copy of the view's fields (no state behind them) and
    for the same position reached by another order of moves."""
    view = view_after(GAME_2)
    bare = SimpleNamespace(**vars(view))
    assert GAME.describe_view(bare) == GAME.describe_view(view)
    assert GAME.point_names(bare) == GAME.point_names(view)
    assert GAME.observe(replay(GAME, GAME_2), 0) == view  # nothing is hidden in this game
