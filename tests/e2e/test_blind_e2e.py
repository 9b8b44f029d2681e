"""Play without sight: players who never see a picture play whole matches in Discord with
`/board text:True`, `/last`, `/move` and its autocomplete only. Each move is chosen from what
those answered in text; the test checks that the text carries the position by replaying the
moves the text reports through the game's rules (the rules a player knows) and comparing what
the text says next. Never read here: a picture, the state JSON, a board's picture message.

The kits' text boards (`Game.describe_view(...).full`) are written in parallel; until they
land every kit says only "A board of {game}.". `mancala_pits` reads the pits from the text
board when it names them (see its docstring for the forms it reads), so the check of every
pit's seeds starts working the day the kit's words arrive.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from e2e_helpers import challenge_and_accept, components, is_ephemeral

from games.consequence import GAME as CONSEQUENCE
from games.mancala import GAME as MANCALA

HEADER = re.compile(r"^Match #(?P<match>\d+) · (?P<game>.+) · move (?P<ply>\d+)$")
LAST_MOVE = re.compile(r"^Last move: (?P<ply>\d+)\. (?P<name>[^:]+): `(?P<notation>[^`]+)`"
                       r"(?: \((?P<effects>.*)\))?$")
# the bot's score line ("Score: Alice 1 · Bob 0"), not the kit's ("..., Bob 0 (first to 28)")
SCORE = re.compile(r"^Score: (?P<scores>[^(]+ · [^(]+)$")
EXAMPLE = re.compile(r"`([^`/]+)`")
FULL_NOTATION = re.compile(r"[BR][MSD]@")
KIND_WORDS = {"blue moon": "BM", "blue sun": "BS", "blue dot": "BD", "red moon": "RM",
              "red sun": "RS", "red dot": "RD"}


@dataclass
class Reading:
    """A text board as a screen reader reads it, line by line."""

    text: str
    match: int = 0
    game: str = ""
    ply: int = 0
    turn: str | None = None  # "you", a player's name, or None (over)
    result: str | None = None
    scores: dict[str, int] = field(default_factory=dict)
    last: re.Match[str] | None = None
    hand: list[str] | None = None  # the reader's own hand (Consequence), as the text says it
    board: list[str] = field(default_factory=list)  # the kit's lines
    how: str | None = None  # "Your move: ..." when it is the reader's turn


def read(text: str) -> Reading:
    lines = text.split("\n")
    header = HEADER.match(lines[0])
    assert header, text
    reading = Reading(text, int(header["match"]), header["game"], int(header["ply"]))
    second = lines[1]
    if second.startswith("Your turn"):
        reading.turn = "you"
    elif second.startswith("The game is over: "):
        reading.result = second.removeprefix("The game is over: ")
    else:
        found = re.match(r"^(.+?) to move[. ]", second)
        assert found, text
        reading.turn = found[1]
    in_board = False
    for line in lines[2:]:
        if (score := SCORE.match(line)) is not None:
            for part in score["scores"].split(" · "):
                name, _, value = part.rpartition(" ")
                reading.scores[name] = int(value)
        elif (last := LAST_MOVE.match(line)) is not None:
            reading.last = last
        elif line.startswith("Your hand"):
            reading.hand = hand_kinds(line)
        elif line.startswith("The board as "):
            in_board = True
        elif line.startswith("Your move: "):
            reading.how, in_board = line, False
        elif in_board:
            reading.board.append(line)
    return reading


def hand_kinds(line: str) -> list[str]:
    """"Your hand: blue moon, blue moon, red dot. Bob holds 7 tiles." -> [BM, BM, RD]."""
    if line.startswith("Your hand is empty"):
        return []
    words = line.removeprefix("Your hand: ").split(". ")[0]
    return sorted(KIND_WORDS[word.strip()] for word in words.split(","))


def mancala_pits(board: list[str], size: int) -> tuple[list[int] | None, int | None]:
    """The seeds of every pit and the goal, as the kit's text board says them, or None where
    it does not (the fallback description). Read: a pit's letter followed, within a few
    characters, by its count ("a 5", "a: 5", "pit a: 5 seeds", "a=5"), the first time each
    letter is so written ("empty" is 0); the goal as "Goal:" and its number. At merge, adjust these two
    patterns to the kit's exact words if they differ."""
    text = " ".join(board)
    pits: dict[str, int] = {}
    for found in re.finditer(r"\b(?:[Pp]it )?([a-q])\b\s?(?:[:=]|has|holds)?\s?(\d+|empty)",
                             text):
        pits.setdefault(found[1], 0 if found[2] == "empty" else int(found[2]))
    letters = [chr(ord("a") + i) for i in range(size)]
    counts = [pits[letter] for letter in letters] if all(x in pits for x in letters) else None
    goal = re.search(r"\bGoal:\s*(\d+)", text)
    return counts, int(goal[1]) if goal else None


def test_the_pit_reader_reads_the_forms_it_promises():
    """Without a bot: the forms `mancala_pits` says it reads, and nothing from the fallback."""
    assert mancala_pits(["A board of Progressive Mancala."], 11) == (None, None)
    counts = list(range(11))
    for line in (", ".join(f"{chr(97 + i)} {n}" for i, n in enumerate(counts)),
                 " ".join(f"Pit {chr(97 + i)}: {n} seeds." for i, n in enumerate(counts))):
        assert mancala_pits(["Goal: 4 seeds.", line], 11) == (counts, 4)


async def text_board(fake, user: int) -> str:
    record = await fake.answered(await fake.slash(user, "board", text=True))
    messages = record.messages()  # a long text board comes in pages: the first answers
    assert messages and all(is_ephemeral(m) and not m["attachments"] for m in messages)
    return "\n".join(m["content"] for m in messages)


async def typed(fake, user: int, prefix: str = "") -> list[str]:
    """The moves /move's autocomplete offers for what the player has typed (without the ply
    it adds)."""
    record = await fake.answered(await fake.autocomplete(user, "move", "notation",
                                                         notation=prefix))
    return [choice["value"] for choice in record.choices]


async def last_moves(fake, user: int) -> list[str]:
    record = await fake.answered(await fake.slash(user, "last"))
    assert is_ephemeral(record.original)
    return record.original["content"].split("\n")


async def move(fake, user: int, value: str) -> str:
    """/move with an autocomplete value; a move that repeats the player's own of a moment ago
    is asked about first ("Play it again?"): the player answers with its button, found by its
    label as a screen reader names it."""
    record = await fake.answered(await fake.slash(user, "move", notation=value))
    message = record.original
    assert is_ephemeral(message), record.callbacks
    notation = value.split(" #")[0]
    if "a moment ago" not in message["content"]:
        return message["content"]
    again = next(c["custom_id"] for c in components(message, 2)
                 if c.get("label") == f"Play {notation} again")
    answer = await fake.answered(await fake.click(user, message, again))
    assert answer.kind == 7, answer.callbacks
    return fake.messages[int(message["id"])]["content"]


async def final_description(fake, user: int) -> Reading:
    """The match is over: no live match in the channel any more, so the player presses
    Describe under the final board (found by its label, as a screen reader lists buttons)."""
    record = await fake.answered(await fake.slash(user, "board", text=True))
    assert "There is no match in this channel" in record.original["content"]
    board = await fake.wait_for(lambda: next(
        (m for m in reversed(fake.channel_messages()) if any(
            c.get("label") == "Describe" for c in components(m, 2))), None),
        what="the final board's Describe")
    button = next(c["custom_id"] for c in components(board, 2) if c.get("label") == "Describe")
    answer = await fake.answered(await fake.click(user, board, button))
    assert is_ephemeral(answer.original)
    return read(answer.original["content"])


async def test_two_blind_players_play_a_whole_progressive_mancala_match(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    names = {alice: "Alice", bob: "Bob"}
    await challenge_and_accept(fake, alice, bob, first="me")
    rng = random.Random(53)
    state = MANCALA.new(2)  # the rules as the players know them, fed only what the text says
    pits_checked = points_checked = 0
    reader = alice
    while True:
        reading = read(await text_board(fake, reader))
        if reading.turn != "you":
            assert reading.turn in ("Alice", "Bob"), reading.text
            reader = alice if reading.turn == "Alice" else bob
            reading = read(await text_board(fake, reader))
        assert reading.turn == "you", reading.text
        seat = MANCALA.to_move(state)
        assert names[reader] == ("Alice", "Bob")[seat]
        # the text carries the position: the ply, the score, every pit once the kit says them
        assert reading.ply == state.ply and reading.game == "Progressive Mancala"
        assert reading.scores == {"Alice": state.scores[0], "Bob": state.scores[1]}
        pits, goal = mancala_pits(reading.board, len(state.pits))
        if pits is not None:
            assert pits == list(state.pits) and goal in (None, state.goal), reading.text
            pits_checked += 1
        if state.ply % 5 == 0:  # one place at a time (`/board at:`), once the kit names them
            places = await fake.answered(await fake.autocomplete(reader, "board", "at", at=""))
            for place in [c["value"] for c in places.choices if len(c["value"]) == 1][:3]:
                said = await fake.answered(await fake.slash(reader, "board", at=place))
                what = said.original["content"].split(": ", 1)[1]
                count = re.search(r"\d+|empty", what)
                assert count, what
                seeds = 0 if count[0] == "empty" else int(count[0])
                assert seeds == state.pits[ord(place) - ord("a")], what
                points_checked += 1
        # the legal moves: the autocomplete's, of which the text names some
        offered = await typed(fake, reader)
        moves = [value.split(" #")[0] for value in offered]
        assert moves == MANCALA.legal_notations(state)
        assert reading.how is not None
        assert set(EXAMPLE.findall(reading.how)) <= set(moves) and EXAMPLE.findall(reading.how)
        choice = rng.choice(offered)
        answer = await move(fake, reader, choice)
        notation = choice.split(" #")[0]
        assert f"You played `{notation}`" in answer
        before = state
        state = MANCALA.play(state, notation)
        # what the others now read about that move: who, what, what it did
        watcher = bob if reader == alice else alice
        if MANCALA.outcome(state) is not None:
            break
        after = read(await text_board(fake, watcher))
        assert after.last is not None and after.last["name"] == names[reader]
        assert after.last["notation"] == notation and int(after.last["ply"]) == state.ply
        effects = MANCALA.move_effects(before, MANCALA.parse_move(before, notation), state)
        assert bool(after.last["effects"]) == bool(effects)
        captured = state.scores[seat] - before.scores[seat]
        if captured:
            assert f"scored {captured} seed" in after.last["effects"]
        if state.ply % 7 == 0:  # now and then: /last, newest first, this move on top
            lines = await last_moves(fake, watcher)
            assert lines[1].startswith(f"{state.ply}. {names[reader]}: `{notation}`")
            assert re.search(r", <t:\d+:R>$", lines[1])
    assert state.ply > 20
    final = await final_description(fake, alice)
    outcome = MANCALA.outcome(state)
    assert final.turn is None and final.result is not None
    assert final.scores == {"Alice": state.scores[0], "Bob": state.scores[1]}
    if not outcome.draw:
        winner = ("Alice", "Bob")[outcome.winners[0]]
        assert final.result.startswith(f"{winner} reached {state.scores[outcome.winners[0]]}")
    assert final.last is not None and final.last["notation"] == notation
    print(f"pits checked from the kit's text board at {pits_checked} plies, "
          f"{points_checked} places asked with /board at:")


async def test_two_blind_players_play_a_whole_consequence_match(fake, bot):
    """Every part of a Consequence move is typed (tile, square, place or push; a tile moved
    square to square), chosen from the autocomplete; each player reads their own hand in
    their text board, a spectator reads neither hand nor any tile's symbol."""
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    names = {alice: "Alice", bob: "Bob"}
    await challenge_and_accept(fake, alice, bob, game="consequence", first="me")
    rng = random.Random(7)
    truth = CONSEQUENCE.new(2)  # the test's own record of what was typed, to check the texts
    kinds_played: set[str] = set()
    reader = alice
    while True:
        reading = read(await text_board(fake, reader))
        if reading.turn != "you":
            reader = alice if reading.turn == "Alice" else bob
            reading = read(await text_board(fake, reader))
        assert reading.turn == "you" and reading.ply == truth.ply, reading.text
        seat = CONSEQUENCE.to_move(truth)
        assert names[reader] == ("Alice", "Bob")[seat]
        # the player's hand, as their own text says it, is what they may place
        assert reading.hand == sorted(CONSEQUENCE.observe(truth, seat).hand or ()), reading.text
        offered = [value.split(" #")[0] for value in await typed(fake, reader)]
        assert offered and all(o in CONSEQUENCE.legal_notations(truth) for o in offered)
        places = {o.split("@")[0] for o in offered if "@" in o}
        assert places <= set(reading.hand)
        # what to do, as a player types it: a slide now and then, a push when one is offered,
        # else a placement of a tile from the hand
        kind = rng.choice(sorted(set(reading.hand))) if reading.hand else None
        pushes = [o for o in await typed(fake, reader, f"{kind}@") if ">" in o] if kind else []
        slides = []
        if truth.ply % 3 == 2:
            for file in "abcd":
                slides += [o for o in await typed(fake, reader, file) if "-" in o]
        if pushes and "push" not in kinds_played:
            choice, kinds_played = rng.choice(pushes), kinds_played | {"push"}
        elif slides:
            choice, kinds_played = rng.choice(slides), kinds_played | {"slide"}
        else:
            placements = [o for o in await typed(fake, reader, f"{kind}@") if ">" not in o]
            choice = rng.choice(placements)
        notation = choice.split(" #")[0]
        assert f"You played `{notation}`" in await move(fake, reader, choice)
        before, truth = truth, CONSEQUENCE.play(truth, notation)
        if CONSEQUENCE.outcome(truth) is not None:
            break
        public = CONSEQUENCE.public_notation(before, CONSEQUENCE.parse_move(before, notation))
        # the spectator reads the move as the channel saw it, and no hidden tile
        watched = read(await text_board(fake, carol))
        assert watched.last is not None and watched.last["notation"] == public
        assert watched.last["name"] == names[reader] and watched.hand is None
        assert not FULL_NOTATION.search(watched.text), watched.text
        if truth.ply % 5 == 0:
            lines = await last_moves(fake, carol)
            assert lines[1].startswith(f"{truth.ply}. {names[reader]}: `{public}`")
            assert not FULL_NOTATION.search("\n".join(lines))
    assert kinds_played == {"push", "slide"}, kinds_played
    final = await final_description(fake, carol)
    assert final.result is not None and final.turn is None
    assert final.last is not None and final.last["notation"] == notation  # all is public now
    scores = CONSEQUENCE.scores(truth)
    if scores is not None:
        assert final.scores == {"Alice": scores[0], "Bob": scores[1]}


async def test_refusals_and_a_spectators_answers(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    for command, options in (("board", {"text": True}), ("board", {"at": "a"}), ("last", {}),
                             ("clocks", {})):
        record = await fake.answered(await fake.slash(carol, command, **options))
        assert is_ephemeral(record.original)
        assert record.original["content"] == "There is no match in this channel. Start one " \
            "with `/play`." or "There is no match in this channel" in record.original["content"]
    lobby = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala"))
    assert is_ephemeral(lobby.original)
    record = await fake.answered(await fake.slash(alice, "board", text=True))
    assert "has not started yet" in record.original["content"]
    record = await fake.answered(await fake.slash(carol, "last"))
    assert "has not started yet" in record.original["content"]
    await fake.answered(await fake.slash(alice, "abort"))
    await challenge_and_accept(fake, alice, bob, first="me", time="1d")
    record = await fake.answered(await fake.slash(carol, "board", at="zz9"))
    assert is_ephemeral(record.original)
    assert record.original["content"] == "There is no place zz9 on this board."
    record = await fake.answered(await fake.autocomplete(carol, "board", "at", at=""))
    assert all(isinstance(c["value"], str) for c in record.choices)
    record = await fake.answered(await fake.slash(carol, "clocks"))
    lines = record.original["content"].split("\n")
    assert lines[1] == "Each move must be made within 1d of the turn's start."
    assert lines[2].startswith("Alice is to move: ") and " left, until <t:" in lines[2]
    assert lines[3] == "Bob waits: their clock starts with their turn."
    spectator = read(await text_board(fake, carol))
    assert spectator.turn == "Alice" and spectator.how is None and spectator.ply == 0


async def test_a_japanese_player_reads_everything_in_japanese(fake, bot):
    fake.set_guild_locale(fake.guild_id, "ja")
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    for user in (alice, bob):
        fake.set_locale(user, "ja")
    board = await challenge_and_accept(fake, alice, bob, first="me", time="1d")
    labels = {c.get("label"): c.get("custom_id") for c in components(board, 2)}
    assert labels.get("文章で読む", "").startswith("c1:d:"), labels  # Describe, in Japanese
    mine = await text_board(fake, alice)
    lines = mine.split("\n")
    assert lines[0].startswith("対局 #") and lines[0].endswith("0手目")
    assert lines[1] == "あなたの手番です。" and lines[3] == "まだ着手はありません。"
    assert lines[-1].startswith("あなたの着手：") and "通りのうち一つを入力します" in lines[-1]
    offered = await typed(fake, alice)
    assert "You played" not in await move(fake, alice, offered[0])
    theirs = (await text_board(fake, bob)).split("\n")
    assert theirs[1].startswith("あなたの手番です")  # Mancala: Bob's turn after Alice's move
    assert theirs[3].startswith("直前の着手：1. Alice：`")
    last = (await fake.answered(await fake.slash(bob, "last"))).original["content"]
    assert "新しい順" in last and "Bob：まだ着手はありません。" in last
    clocks = (await fake.answered(await fake.slash(bob, "clocks"))).original["content"]
    assert "持ち時間" in clocks and "1日" in clocks
    english = ("Your turn", "Last move", "The board as", "Your move", "to move", "waits",
               "Each move", "newest first", "no move yet")
    for text in (mine, "\n".join(theirs), last, clocks):
        assert not any(words in text for words in english), text
