"""Consequence in words (games/consequence/words.py): known positions read as expected in
English and Japanese, the alt text fits Discord, every square answers `/board at:`, no English
is left on a Japanese screen, and PRIVACY: two positions that differ only in what a reader may
not know give that reader the very same words (the public never learns a face-down symbol, a
seat never learns the other seat's hidden tiles)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from bot.words.descriptions import alt_text, text_board
from bot.words.i18n import Texts
from games import ALT_TEXT_LIMIT, InvalidMoveError, get_game, replay
from games.consequence.game import EMPTY, KINDS, TILES, ConsequenceState, LastAction, Place, Push

GAME = get_game("consequence")
NAMES = ["Alice", "Bob"]
LONG_NAMES = ["A" * 32, "B" * 32]
EN, JA = Texts("en"), Texts("ja")
OPENING_LINE = ["BS@b2", "RD@a1>NE", "BM@d1", "c3-c4", "BD@a2>E"]
# what a Japanese text may keep in Latin letters: squares, notation, names
NOTATION = re.compile(r"[BR][MSD]?@[a-d][1-4](?:>[NESW]{1,2})?|[a-d][1-4]-[a-d][1-4]|[a-d][1-4]")
SYMBOLS_EN = re.compile(r"\b(?:blue|red) (?:moon|sun|dot)")
SYMBOLS_JA = re.compile(r"[青赤]の(?:月|太陽|ドット)")


def words(view, texts: Texts, names=NAMES) -> list[str]:
    """Everything a reader of `view` may be told: alt text, text board, every square."""
    description = GAME.describe_view(view)
    return ([texts(line, names) for line in description.alt + description.full]
            + [texts(GAME.describe_point(view, name), names) for name in GAME.point_names(view)])


def test_a_position_reads_the_same_in_public_with_tile_backs_only():
    view = GAME.observe(replay(GAME, OPENING_LINE), None)
    assert alt_text(GAME, view, EN, NAMES) == (
        "Bob (the sun player) to move. Tiles in hand: Alice 4, Bob 6. 3 face-down blue tiles: "
        "c4, b2, d1. 1 face-down red tile: c2. 12 empty squares: a4, b4, d4, a3, b3, c3, d3, "
        "a2, d2, a1, b1, c1. Last move: Alice placed a blue tile on a2 and pushed E (B@a2>E).")
    assert alt_text(GAME, view, JA, NAMES) == (
        "Bob（太陽のプレイヤー）の手番です。 手元のタイル：Alice 4枚、Bob 6枚。 伏せた青のタイル3枚："
        "c4、b2、d1。 伏せた赤のタイル1枚：c2。 空きマス12個：a4、b4、d4、a3、b3、c3、d3、a2、"
        "d2、a1、b1、c1。 直前の手：Alice が a2 に青のタイルを置き、東へ押し出しました（B@a2>E）。")
    assert text_board(GAME, view, EN, NAMES) == [
        "Bob (the sun player) to move.",
        "Alice is the moon player (blue tiles) and scores pairs of moons; Bob is the sun "
        "player (red tiles) and scores pairs of suns.",
        "Tiles in hand: Alice 4, Bob 6.",
        "Last move: Alice placed a blue tile on a2 and pushed E (B@a2>E).",
        "The tile on b2 was just placed: it may slide but not be pushed off the grid.",
        "Rank 4: a4 empty, b4 empty, c4 face-down blue tile, d4 empty.",
        "Rank 3: a3 empty, b3 empty, c3 empty, d3 empty.",
        "Rank 2: a2 empty, b2 face-down blue tile, c2 face-down red tile, d2 empty.",
        "Rank 1: a1 empty, b1 empty, c1 empty, d1 face-down blue tile."]
    japanese = text_board(GAME, view, JA, NAMES)
    assert japanese[3] == "直前の手：Alice が a2 に青のタイルを置き、東へ押し出しました（B@a2>E）。"
    assert japanese[6] == "3段目：a3 空き、b3 空き、c3 空き、d3 空き。"
    assert japanese[7] == "2段目：a2 空き、b2 伏せた青のタイル、c2 伏せた赤のタイル、d2 空き。"


def test_a_seats_own_view_names_its_hand_and_the_tiles_it_knows():
    state = replay(GAME, OPENING_LINE)
    bob = GAME.observe(state, 1)
    alt = alt_text(GAME, bob, EN, NAMES)
    assert ("Your hand: red dot, red dot, red moon, red sun, red sun, red sun. Alice holds 4 "
            "tiles. 3 face-down blue tiles: c4, b2, d1. Face-down red dot: c2.") in alt
    assert "c2 face-down red dot" in " ".join(text_board(GAME, bob, EN, NAMES))
    assert JA(GAME.describe_point(bob, "C2"), NAMES) == "c2：伏せた赤のドット。"
    alice = GAME.observe(state, 0)
    board = text_board(GAME, alice, EN, NAMES)
    assert "Rank 4: a4 empty, b4 empty, c4 face-down blue sun, d4 empty." in board
    assert "Rank 2: a2 empty, b2 face-down blue dot, c2 face-down red tile, d2 empty." in board
    assert "Last move: Alice placed a blue dot on a2 and pushed E (BD@a2>E)." in board


def test_a_slide_and_a_tile_pushed_off_the_grid():
    state = replay(GAME, ["BM@d1", "RS@c2", "c2-c1"])  # Alice slides Bob's tile
    view = GAME.observe(state, None)
    board = text_board(GAME, view, EN, NAMES)
    assert "Last move: Alice moved the tile on c2 to c1 (c2-c1)." in board
    assert "The tile on c1 was just moved: it cannot be moved this turn." in board
    assert JA(GAME.describe_point(view, "c1"), NAMES) == "c1：伏せた赤のタイル。"
    # Bob pushes the run c1, d1 east: Alice's blue moon on d1 falls into Alice's hand
    pushed = GAME.play(state, "RD@b1>E")
    view = GAME.observe(pushed, None)
    board = text_board(GAME, view, EN, NAMES)
    assert "Last move: Bob placed a red tile on b1 and pushed E (R@b1>E)." in board
    assert "A blue tile was pushed off the grid into Alice's hand." in board
    assert "Tiles in hand: Alice 7, Bob 5." in board
    assert "青のタイルがグリッドの外に押し出され、Alice に手渡されました。" in \
        text_board(GAME, view, JA, NAMES)
    assert "Rank 1: a1 empty, b1 empty, c1 face-down red tile, d1 face-down red tile." in board
    assert "あなたの手元：青のドット、青のドット、青のドット、青の月、青の月、青の月、青の太陽。" in \
        " ".join(text_board(GAME, GAME.observe(pushed, 0), JA, NAMES))
    assert "{colour}" not in " ".join(text_board(GAME, view, JA, NAMES))


def test_the_final_count_shows_every_face_and_the_pairs():
    rng = random.Random(5)
    state = GAME.new()
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    view = GAME.observe(state, None)
    assert view.scores is not None
    alt = alt_text(GAME, view, EN, NAMES)
    assert alt.startswith("Game over: ")
    assert "face-down" not in alt and "Face-up blue " in alt
    assert "Tiles in hand" not in alt  # both hands are empty at the count
    board = text_board(GAME, view, EN, NAMES)
    moons, suns = view.scores
    pairs = [line for line in board if line.startswith(("Alice scores", "Bob scores"))]
    assert len(pairs) == 2
    assert pairs[0].startswith(f"Alice scores {moons} pair" if moons else "Alice scores no pair")
    assert pairs[1].startswith(f"Bob scores {suns} pair" if suns else "Bob scores no pair")
    assert JA(GAME.describe_view(view).alt[0], NAMES).startswith("対局終了：")


def random_states(matches: int, seed: int, every: int = 1):
    """Every `every`-th position of random matches, and each match's last one."""
    rng = random.Random(seed)
    for _ in range(matches):
        state = GAME.new()
        while True:
            if state.ply % every == 0 or GAME.outcome(state) is not None:
                yield state
            moves = GAME.legal_moves(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))


def test_alt_text_fits_discord_in_both_languages():
    longest = 0
    for state in random_states(30, 3, every=3):
        for viewer in (None, 0, 1):
            view = GAME.observe(state, viewer)
            for texts in (EN, JA):
                alt = " ".join(texts(line, LONG_NAMES) for line in GAME.describe_view(view).alt)
                assert len(alt) <= ALT_TEXT_LIMIT, alt
                longest = max(longest, len(alt))
    assert longest > 250


def test_every_square_answers_and_an_unknown_one_is_refused():
    view = GAME.observe(replay(GAME, OPENING_LINE), None)
    names = GAME.point_names(view)
    assert names == ("a4", "b4", "c4", "d4", "a3", "b3", "c3", "d3",
                     "a2", "b2", "c2", "d2", "a1", "b1", "c1", "d1")
    for name in names:
        for texts in (EN, JA):
            said = texts(GAME.describe_point(view, f" {name.upper()} "), NAMES)
            assert said == texts(GAME.describe_point(view, name), NAMES)
            assert said.startswith(name)
    assert EN(GAME.describe_point(view, "c4"), NAMES) == "c4: face-down blue tile."
    assert EN(GAME.describe_point(view, "a4"), NAMES) == "a4: empty."
    for wrong in ("e1", "a5", "a0", "b", "", "BM@b2", "ａ1"):
        with pytest.raises(InvalidMoveError) as refused:
            GAME.describe_point(view, wrong)
        assert refused.value.phrase.field("name") == wrong
        assert JA(refused.value.phrase) == f"この盤面に {wrong} という場所はありません。"


def test_no_english_on_a_japanese_screen():
    for index, state in enumerate(random_states(6, 8)):
        if index % 3:
            continue
        for viewer in (None, 0, 1):
            for line in words(GAME.observe(state, viewer), JA):
                for name in NAMES:
                    line = line.replace(name, "")
                assert not re.search(r"[A-Za-z]", NOTATION.sub("", line)), line


# -- privacy ----------------------------------------------------------------------------
def redeal(state: ConsequenceState, fixed: frozenset[int], rng: random.Random,
           swap_hands: bool) -> ConsequenceState:
    """`state` with its tiles relabelled by a random permutation that keeps every tile of
    `fixed` (what the reader knows) and the colour of every tile whose colour is public
    (on the grid, and one pushed off the grid into a hand); with `swap_hands`, also tiles of
    different colours between the two hands (the public knows neither hand's colours)."""
    colour_public = {t for t in state.grid if t != EMPTY}
    if state.last is not None and state.last.ejected is not None:
        colour_public.add(state.last.ejected)
    sigma = list(range(TILES))
    for colour in "BR":
        free = [t for t in range(TILES) if KINDS[t][0] == colour and t not in fixed]
        shuffled = free[:]
        rng.shuffle(shuffled)
        for a, b in zip(free, shuffled, strict=True):
            sigma[a] = b
    if swap_hands:
        mine = [t for t in state.hands[0] if t not in fixed and t not in colour_public]
        theirs = [t for t in state.hands[1] if t not in fixed and t not in colour_public]
        if mine and theirs:
            a, b = rng.choice(mine), rng.choice(theirs)
            sigma[a], sigma[b] = sigma[b], sigma[a]
    return relabel(state, sigma)


def relabel(state: ConsequenceState, sigma: list[int]) -> ConsequenceState:
    def tile(t: int | None) -> int | None:
        return t if t is None or t == EMPTY else sigma[t]

    def key(text: str) -> str:
        grid, hands, to_move, moved, placed, phase = text.split("|")
        cells = ",".join(str(tile(int(t))) for t in grid.split(","))
        new_hands = "/".join(",".join(str(x) for x in sorted(sigma[int(t)] for t in h.split(",")
                                                                 if t))
                             for h in hands.split("/"))
        return "|".join((cells, new_hands, to_move, str(tile(None if moved == "None"
                                                                 else int(moved))),
                         str(tile(None if placed == "None" else int(placed))), phase))

    last = state.last
    if last is not None:
        move = last.move
        if isinstance(move, (Place, Push)):
            move = replace(move, kind=KINDS[sigma[last.tile]])
        last = LastAction(last.seat, move, sigma[last.tile], last.run, tile(last.ejected))
    return replace(
        state, grid=tuple(tile(t) for t in state.grid),
        hands=tuple(frozenset(sigma[t] for t in h) for h in state.hands),
        known=tuple(frozenset(sigma[t] for t in k) for k in state.known),
        just_moved=tile(state.just_moved), just_placed=tile(state.just_placed), last=last,
        history=tuple(key(k) for k in state.history))


def test_privacy_hidden_tiles_never_change_the_words_of_those_who_cannot_see_them():
    """For many random positions, re-deal what a reader cannot know, consistently with what
    they see: the public (every symbol on the grid, both hands) and each seat (the other
    seat's hand, the grid tiles the seat never saw). Their words must not change, in either
    language; the hidden symbols did change somewhere (the check is not vacuous)."""
    rng = random.Random(53)
    changed = {None: 0, 0: 0, 1: 0}
    checked = 0
    for state in random_states(30, 21, every=7):
        if GAME.observe(state, None).scores is not None:
            continue  # the final count turns every tile face up
        for viewer in (None, 0, 1):
            fixed = frozenset() if viewer is None else state.known[viewer]
            other = redeal(state, fixed, rng, swap_hands=viewer is None)
            assert GAME.from_json(GAME.to_json(other)) == other  # a valid position
            assert GAME.observe(other, viewer) == GAME.observe(state, viewer)
            if [KINDS[t] if t != EMPTY else "" for t in other.grid] != \
                    [KINDS[t] if t != EMPTY else "" for t in state.grid] or \
                    sorted(KINDS[t] for t in other.hands[0]) != \
                    sorted(KINDS[t] for t in state.hands[0]):
                changed[viewer] += 1
            for texts in (EN, JA):
                assert words(GAME.observe(other, viewer), texts) == \
                    words(GAME.observe(state, viewer), texts)
            checked += 1
    assert checked > 100
    assert all(n > 20 for n in changed.values()), changed


def test_privacy_public_words_name_no_symbol_and_a_seat_names_only_its_own_tiles():
    for state in random_states(20, 9, every=5):
        public = GAME.observe(state, None)
        if public.scores is not None:
            continue
        assert not any(SYMBOLS_EN.search(line) for line in words(public, EN))
        assert not any(SYMBOLS_JA.search(line) for line in words(public, JA))
        for seat in (0, 1):
            told = " ".join(words(GAME.observe(state, seat), EN))
            # every symbol a seat reads is one it knows: its hand, or a tile it follows
            known_kinds = {KINDS[t] for t in state.known[seat]}
            for found in SYMBOLS_EN.findall(told):
                colour, symbol = found.split()
                assert colour[0].upper() + symbol[0].upper() in known_kinds, (found, seat)
            unknown_on_grid = [t for t in state.grid
                               if t != EMPTY and t not in state.known[seat]]
            assert told.count("face-down blue tile") + told.count("face-down red tile") >= \
                (1 if unknown_on_grid else 0)
