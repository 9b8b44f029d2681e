"""ICO in words (games/ico/words.py): known positions read as expected in English and
Japanese, the alt text stays within Discord's 1,024 characters over random matches of every
level and player count, every face and edge answers `/board at:`, and no English is left on a
Japanese screen."""

from __future__ import annotations

import random
import re

import pytest

from bot.words.descriptions import alt_text, text_board
from bot.words.i18n import Texts
from games import ALT_TEXT_LIMIT, InvalidMoveError, InvalidStateError, get_game, replay

GAME = get_game("ico")
NAMES = ["Alice", "Bob", "Chiyo", "Daisuke"]
LONG_NAMES = [ch * 32 for ch in "ABCD"]  # Discord's longest display names
EN, JA = Texts("en"), Texts("ja")
# what a Japanese text may keep in Latin letters: the notation (e12, -e12, f5) and the names
NOTATION = re.compile(r"-?[ef]\d+")
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff]")


def japanese_leftovers(text: str, names: list[str]) -> str:
    for name in names:
        text = text.replace(name, "")
    return re.sub(r"[^A-Za-z]", "", NOTATION.sub("", text))


def raw_alt(view, texts: Texts, names: list[str]) -> str:
    """The alt text before `alt_text` fits it: the kit's own length."""
    return " ".join(texts(line, names) for line in GAME.describe_view(view).alt)


def test_an_opening_reads_whose_turn_the_active_triangle_and_the_needs():
    state = replay(GAME, ["e0", "e4"], seats=2, options={"level": "1", "start": "f0"})
    view = GAME.observe(state, None)
    assert alt_text(GAME, view, EN, NAMES[:2]) == (
        "Alice (Red) to move: may place on e3, e15. Level 1; active triangle face 4 (f3): "
        "e3 (no marker) to face 3, e4 (Blue) to face 5, e15 (no marker) to face 9. Alice (Red, 29 left) needs 2 more edges, such as e1, e5; has e0. Bob (Blue, 29 "
        "left) needs 2 more edges, such as e3, e15; has e4. Last: Bob e4")
    assert alt_text(GAME, view, JA, NAMES[:2]) == (
        "Alice（赤）の手番：置ける辺は e3、e15。 レベル1。アクティブな三角形は「4」の三角形（f3）："
        "e3（マーカーなし）の先は「3」の三角形、e4（青）の先は「5」の三角形、"
        "e15（マーカーなし）の先は「9」の三角形。 Alice（赤、残り29個）：あと2辺（例：e1、e5）。"
        "置いた辺：e0。 Bob（青、残り29個）：あと2辺（例：e3、e15）。置いた辺：e4。 直前：Bob e4")
    board = text_board(GAME, view, EN, NAMES[:2])
    assert board[:7] == [
        "Alice (Red) to move.",
        "Level 1: the first to hold every edge of a face wins.",
        "Active triangle: face 4 (f3); its edges: e3 (no marker) to face 3 (f2), e4 (Blue) to "
        "face 5 (f4), e15 (no marker) to face 9 (f8).",
        "Alice may place on e3, e15.",
        "Last move: Bob placed a marker on e4; the active triangle rolled from face 5 (f4) onto "
        "face 4 (f3).",
        "Alice (Red, 29 markers left) needs 2 more edges for a face, such as e1, e5; markers "
        "on e0.",
        "Bob (Blue, 29 markers left) needs 2 more edges for a face, such as e3, e15; markers "
        "on e4."]
    assert board[7] == "Face 1 (f0): e0 (Red), e1 (no marker), e5 (no marker)."
    assert board[10] == "Face 4 (f3), the active triangle: e3 (no marker), e4 (Blue), e15 (no marker)."
    assert len(board) == 7 + 20  # then every face, f0 to f19
    japanese = text_board(GAME, view, JA, NAMES[:2])
    assert japanese[1] == ("レベル1：三角形のすべての辺に最初に自分の色のマーカーを置いた"
                           "プレイヤーの勝ち。")
    assert japanese[4] == ("直前の手：Bob が e4 にマーカーを置き、アクティブな三角形が「5」の三角形"
                           "（f4）から「4」の三角形（f3）へ移動しました。")


def test_a_player_who_cannot_place_is_told_to_roll_and_a_threat_names_its_edges():
    data = GAME.to_json(GAME.new(2, {"level": "1+", "start": "f0"}))
    for edge in (0, 1, 5, 25, 26):  # Red holds face f0 and two edges of its antipode f17
        data["markers"][edge] = [1, 0]
    data["markers"][9] = [0, 1]
    view = GAME.observe(GAME.from_json(data), None)
    alt = alt_text(GAME, view, EN, NAMES[:2])
    assert alt.startswith("Alice (Red) to move: cannot place a marker, rolls over one of -e0, "
                          "-e1, -e5. Level 1+;")
    assert "Alice (Red, 25 left) needs 1 more edge: e28; has e0, e1, e5, e25, e26." in alt
    assert "Bob (Blue, 29 left) needs 5 more edges; has e9." in alt
    board = text_board(GAME, view, EN, NAMES[:2])
    assert ("Alice (Red, 25 markers left) needs 1 more edge for a face and its opposite face: "
            "e28; markers on e0, e1, e5, e25, e26.") in board
    assert "Alice cannot place a marker and rolls over one of -e0, -e1, -e5." in board
    assert "Alice（赤、残り25個）：あと1辺（e28）。" in alt_text(GAME, view, JA, NAMES[:2])


def test_redoubled_markers_and_the_end_of_a_match():
    data = GAME.to_json(GAME.new(3, {"level": "2", "start": "f0"}))
    data["markers"][0] = [2, 0, 1]
    view = GAME.observe(GAME.from_json(data), None)
    board = text_board(GAME, view, EN, NAMES[:3])
    assert ("Face 1 (f0), the active triangle: e0 (2 Red, Yellow), e1 (no marker), e5 (no "
            "marker).") in board
    assert any(line.startswith("Alice (Red, 28 markers left) needs 9 more edges for a belt")
               and line.endswith("; markers on e0 (2 markers).") for line in board)
    japanese = text_board(GAME, view, JA, NAMES[:3])
    assert "「1」の三角形（f0、アクティブな三角形）：e0（赤2個、黄）、e1（マーカーなし）、" \
        "e5（マーカーなし）。" in japanese
    assert any(line.endswith("マーカーのある辺：e0（2個）。") for line in japanese)

    rng = random.Random(4)
    state = GAME.new(2, {"level": "1", "start": "f7"})
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    view = GAME.observe(state, None)
    winner = NAMES[GAME.outcome(state).winners[0]]
    alt = alt_text(GAME, view, EN, NAMES[:2])
    assert alt.startswith(f"Game over: {winner} completed a face. Winning edges: e")
    assert "to move" not in alt and "needs" not in alt
    assert alt_text(GAME, view, JA, NAMES[:2]).startswith(
        f"対局終了：{winner} が三角形を完成させました。 完成した辺：e")


def test_level_2_plus_with_antipodes_names_its_pattern():
    view = GAME.observe(GAME.new(4, {"level": "2+", "start": "f3", "antipodal": "yes"}), None)
    board = text_board(GAME, view, EN, NAMES)
    assert board[1] == ("Level 2+: the first to hold every edge of a big triangle and its "
                        "opposite wins.")
    assert "Daisuke (Green, 30 markers left) needs 12 more edges for a big triangle and its " \
           "opposite, such as" in " ".join(board)
    assert text_board(GAME, view, JA, NAMES)[1] == (
        "レベル2+：大三角形とその正反対の大三角形のすべての辺に最初に自分の色のマーカーを置いた"
        "プレイヤーの勝ち。")


def random_positions(matches: int, seed: int):
    """Every position of random matches: each level, 2 to 4 players, both 2+ options."""
    rng = random.Random(seed)
    for match in range(matches):
        level = ("1", "1+", "2", "2+")[match % 4]
        options = {"level": level, "start": f"f{rng.randrange(20)}"}
        if level == "2+":
            options["antipodal"] = rng.choice(("yes", "no"))
        seats = 2 + match % 3
        state = GAME.new(seats, options)
        while True:
            yield state
            moves = GAME.legal_moves(state)
            if not moves:
                break
            if seats > 2 and rng.random() < 0.02:
                state = GAME.skip(state)
            else:
                state = GAME.apply(state, rng.choice(moves))


def test_alt_text_fits_discord_in_both_languages_with_the_longest_names():
    longest = {"en": 0, "ja": 0}
    levels = set()
    for state in random_positions(36, 7):
        view = GAME.observe(state, None)
        names = LONG_NAMES[:state.seats]
        for texts in (EN, JA):
            alt = raw_alt(view, texts, names)
            assert len(alt) <= ALT_TEXT_LIMIT, (state, alt)
            longest[texts.language] = max(longest[texts.language], len(alt))
        levels.add((state.level, state.seats))
    assert len(levels) == 12  # every level with 2, 3 and 4 players was read
    assert longest["en"] > 700 and longest["ja"] > 600  # the long cases were reached


def test_no_english_emoji_or_drawing_on_a_japanese_screen():
    for index, state in enumerate(random_positions(8, 11)):
        if index % 7:
            continue
        view = GAME.observe(state, None)
        names = NAMES[:state.seats]
        description = GAME.describe_view(view)
        lines = [JA(line, names) for line in description.alt + description.full]
        lines += [JA(GAME.describe_point(view, name), names) for name in GAME.point_names(view)]
        for line in lines:
            assert not japanese_leftovers(line, names), line
            assert not EMOJI.search(line), line
        for line in text_board(GAME, view, EN, names):
            assert not EMOJI.search(line) and "->" not in line and "|" not in line, line


def test_every_face_and_edge_answers_and_an_unknown_place_is_refused():
    state = replay(GAME, ["e0", "e4", "e3"], seats=3, options={"level": "1", "start": "f0"})
    view = GAME.observe(state, None)
    names = GAME.point_names(view)
    assert names == tuple(f"f{i}" for i in range(20)) + tuple(f"e{i}" for i in range(30))
    for name in names:
        for texts in (EN, JA):
            words = texts(GAME.describe_point(view, name.upper()), NAMES[:3])
            assert words == texts(GAME.describe_point(view, name), NAMES[:3])
            assert name in words
    assert EN(GAME.describe_point(view, "e4"), NAMES[:3]) == (
        "e4: Blue; between face 4 (f3) and face 5 (f4).")
    assert JA(GAME.describe_point(view, "e4"), NAMES[:3]) == (
        "e4：青。「4」の三角形（f3）と「5」の三角形（f4）の間の辺です。")
    # the third move (Chiyo, e3) rolled the triangle from f3 onto f2
    assert EN(GAME.describe_point(view, "f2"), NAMES[:3]) == (
        "Face 3 (f2), the active triangle: e2 (no marker) to face 2 (f1), e3 (Yellow) to "
        "face 4 (f3), e12 (no marker) to face 8 (f7); opposite face: face 3 (f19).")
    for wrong in ("f20", "e30", "e", "x1", "", "e-1", "ｅ1"):
        with pytest.raises(InvalidMoveError) as refused:
            GAME.describe_point(view, wrong)
        assert refused.value.phrase.field("name") == wrong
        assert JA(refused.value.phrase).startswith("この盤面に")


def test_alt_text_fits_even_in_positions_built_to_be_long():
    """Four 32-character names, each colour on 15 edges (redoubled where the level allows),
    all four colours on every edge of the active triangle: the longest alt text there is."""
    rng = random.Random(2)
    longest = built = 0
    for _ in range(300):
        level = rng.choice(("1+", "2", "2+"))
        options = {"level": level, "start": "f12"}
        if level == "2+":
            options["antipodal"] = rng.choice(("yes", "no"))
        data = GAME.to_json(GAME.new(4, options))
        most = 1 if level == "1+" else 2
        for seat in range(4):
            for edge in rng.sample(range(30), 15):
                data["markers"][edge][seat] = rng.randint(1, most)
        for edge in (16, 17, 25):  # the active face f12's edges
            data["markers"][edge] = [rng.randint(1, most) for _ in range(4)]
        data["to_move"] = rng.randrange(4)
        data["last"], data["previous_active"] = [(data["to_move"] + 3) % 4, 25, True], 17
        try:
            state = GAME.from_json(data)
        except InvalidStateError:  # more than 30 markers of a colour
            continue
        if GAME.outcome(state) is not None:
            continue
        built += 1
        view = GAME.observe(state, None)
        for texts in (EN, JA):
            alt = raw_alt(view, texts, LONG_NAMES)
            assert len(alt) <= ALT_TEXT_LIMIT, alt
            longest = max(longest, len(alt))
    assert built > 100 and longest > 900
