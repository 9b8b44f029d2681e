"""Play without sight, below Discord: the text board (`/board text:True`, Describe), one place
(`/board at:`), `/last` and `/clocks` as bot/textboard.py writes them for the service's
matches, in English and Japanese, with their refusals; and the Describe button on the busiest
boards within Discord's rows."""

from __future__ import annotations

import re

import pytest
from support import ALICE, BOB, CAROL

from bot.boards import board_buttons, board_controls, board_layout
from bot.service import Player, ServiceError
from bot.textboard import (
    DescribeButton,
    clocks_text,
    describe_text,
    last_text,
    pages,
    point_choices,
    point_text,
)
from bot.words.i18n import Texts
from games import get_game

EN, JA = Texts("en"), Texts("ja")
MANCALA = get_game("progressive-mancala")
CONSEQUENCE = get_game("consequence")


async def challenge(service, game: str = "progressive-mancala", channel: int = 700, **more):
    match = await service.open_match(game_id=game, options=more.pop("options", {}), host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=channel, first="me",
                                     **more)
    return await service.accept(match.id, BOB.user_id)


async def play(service, match, notations):
    for notation in notations:
        match = (await service.play(match.id, match.to_move().user_id, notation)).match
    return match


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_the_text_board_says_the_essentials_first_to_each_reader(service, store):
    match = await play(service, await challenge(service), ["k", "c"])
    state = MANCALA.new(2)
    for notation in ("k", "c"):
        state = MANCALA.play(state, notation)
    mover = (ALICE, BOB)[MANCALA.to_move(state)]
    other = BOB if mover is ALICE else ALICE
    mine = (await describe_text(service, match, mover.user_id, EN)).split("\n")
    assert mine[0] == f"Match #{match.id} · Progressive Mancala · move 2"
    assert mine[1].startswith("Your turn")
    assert mine[2] == f"Score: Alice {state.scores[0]} · Bob {state.scores[1]}"
    assert mine[3].startswith("Last move: 2. ") and "`c`" in mine[3]
    assert mine[4] == "The board as everyone sees it:"  # nothing is hidden in this game
    how = mine[-1]
    legal = MANCALA.legal_notations(state)
    assert how.startswith(f"Your move: `/move` with one of {len(legal)} legal moves, e.g. ")
    shown = re.findall(r"`([a-q])`", how)
    assert len(shown) == 5 and shown == sorted(shown, key=legal.index) and set(shown) <= set(legal)
    assert shown[0] == legal[0] and shown[-1] == legal[-1]  # spread over the whole list
    theirs = (await describe_text(service, match, other.user_id, EN)).split("\n")
    assert theirs[1] == f"{mover.name} to move." or theirs[1].startswith(f"{mover.name} to move (")
    assert "Your move" not in "\n".join(theirs) and theirs[2:4] == mine[2:4]
    spectator = await describe_text(service, match, CAROL.user_id, EN)
    assert spectator.split("\n")[1:] == theirs[1:]
    assert not re.search(r"[\U0001F300-\U0001FAFF]", "\n".join(mine))  # no emoji

    japanese = (await describe_text(service, match, mover.user_id, JA)).split("\n")
    assert japanese[0] == f"対局 #{match.id} · プログレッシブ・マンカラ · 2手目" \
        or japanese[0].startswith(f"対局 #{match.id} · ")
    assert japanese[1].startswith("あなたの手番です")
    assert japanese[3].startswith("直前の着手：2. ")
    assert japanese[-1].startswith(f"あなたの着手：`/着手` で合法手{len(legal)}通り")
    assert not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}", "\n".join(japanese))


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_refusals_not_started_and_unknown_place_in_both_languages(service, store):
    lobby = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=None, guild_id=1, channel_id=701)
    for texts, words in ((EN, "has not started yet"), (JA, "まだ始まっていません")):
        with pytest.raises(ServiceError) as refused:
            await describe_text(service, lobby, ALICE.user_id, texts)
        assert words in texts(refused.value.phrase)
        with pytest.raises(ServiceError):
            point_text(lobby, ALICE.user_id, "a", texts)
    assert point_choices(lobby, ALICE.user_id) == ()
    match = await challenge(service, channel=702)
    for texts, words in ((EN, "There is no place zz9 on this board."),
                         (JA, "この盤面に zz9 という場所はありません。")):
        with pytest.raises(ServiceError) as refused:
            point_text(match, CAROL.user_id, "zz9", texts)
        assert texts(refused.value.phrase) == words
    for name in point_choices(match, CAROL.user_id):  # once the kit names its places
        assert point_text(match, CAROL.user_id, name, EN).startswith(f"Match #{match.id}, move 0: ")


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_a_consequence_player_reads_their_own_hand_and_nobody_else_does(service, store):
    match = await challenge(service, "consequence", channel=703)
    state = CONSEQUENCE.new(2)
    notations = []
    for _ in range(5):
        notation = next(n for n in CONSEQUENCE.legal_notations(state) if "@" in n)
        notations.append(notation)
        state = CONSEQUENCE.play(state, notation)
    match = await play(service, match, notations)
    for user, seat in ((ALICE, 0), (BOB, 1)):
        text = await describe_text(service, match, user.user_id, EN)
        assert "The board as you see it (only you get this answer):" in text
        card = EN(CONSEQUENCE.turn_card(state, seat), ["Alice", "Bob"])
        assert card in text and card.startswith("Your hand: ")
        assert text.count("Your hand") == 1
    spectator = await describe_text(service, match, CAROL.user_id, EN)
    assert "Your hand" not in spectator and "The board as everyone sees it:" in spectator
    assert not re.search(r"[BR][MSD]@", spectator)  # the channel's notation only: B@b2
    last = notations[-1]
    [said] = [line for line in spectator.split("\n") if line.startswith("Last move: 5. ")]
    assert f"`{last[0]}@{last.split('@')[1]}`" in said  # B@b2: the tile's colour only
    mover = (ALICE, BOB)[CONSEQUENCE.to_move(state)]
    mine = await describe_text(service, match, mover.user_id, EN)
    examples = re.findall(r"`([^`]+)`", mine.split("\n")[-1])[1:]
    assert examples and set(examples) <= set(CONSEQUENCE.legal_notations(state))


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_last_names_each_players_last_move_newest_first(service, store, clock):
    match = await challenge(service, channel=704)
    text = await last_text(service, match, EN)
    assert text.split("\n")[1:] == ["Alice: no move yet.", "Bob: no move yet."]
    state = MANCALA.new(2)
    times = {}
    for notation in ["k", "c", "h", "k"]:
        who = (ALICE, BOB)[state.to_move]
        clock.advance(60)
        match = (await service.play(match.id, who.user_id, notation)).match
        times[who.name] = (state.ply + 1, notation, int(clock.now))
        state = MANCALA.play(state, notation)
    lines = (await last_text(service, match, EN)).split("\n")
    assert lines[0] == f"Last moves in match #{match.id} (Progressive Mancala), newest first:"
    order = sorted(times.items(), key=lambda item: -item[1][0])
    for line, (name, (ply, notation, at)) in zip(lines[1:], order, strict=True):
        assert line.startswith(f"{ply}. {name}: `{notation}`") and line.endswith(f"<t:{at}:R>")
    japanese = (await last_text(service, match, JA)).split("\n")
    assert japanese[0].startswith(f"対局 #{match.id} · ") and japanese[1].endswith(
        f"、<t:{order[0][1][2]}:R>")


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_clocks_say_each_players_time_or_that_there_is_none(service, store, clock):
    free = await challenge(service, channel=705, move_seconds=None)
    assert await clocks_text(service, free, EN) == \
        f"Match #{free.id} has no clock: moves have no time limit."
    assert "持ち時間がありません" in await clocks_text(service, free, JA)
    timed = await challenge(service, channel=706, move_seconds=86400)
    clock.advance(3600)
    lines = (await clocks_text(service, await service.get(timed.id), EN)).split("\n")
    start = int(clock.now - 3600)
    assert lines == [f"Clocks of match #{timed.id} (Progressive Mancala):",
                     "Each move must be made within 1d of the turn's start.",
                     f"Alice is to move: 23h left, until <t:{start + 86400}:R> "
                     f"(<t:{start + 86400}:f>).",
                     "Bob waits: their clock starts with their turn."]
    until, _ = await service.start_vacation(BOB.user_id, 3)
    lines = (await clocks_text(service, timed, EN)).split("\n")
    assert lines[-1] == f"Bob waits, on vacation until <t:{int(until)}:f>."
    clock.advance(86400)
    lines = (await clocks_text(service, await service.get(timed.id), EN)).split("\n")
    assert lines[2] == f"Alice is to move and out of time since <t:{start + 86400}:R>: " \
                       "the opponent may claim the win."
    japanese = await clocks_text(service, await service.get(timed.id), JA)
    assert "持ち時間が切れました" in japanese and "Alice" in japanese
    lobby = await service.open_match(game_id="progressive-mancala", options={}, host=CAROL,
                                     opponent=None, guild_id=1, channel_id=707,
                                     move_seconds=3600)
    assert (await clocks_text(service, lobby, EN)).endswith(
        "The match has not started: no clock runs yet.")


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_the_ai_is_not_timed(service, store):
    from bot.ai import ai_name, ai_user_id

    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=Player(ai_user_id("easy", 0), ai_name("easy")),
                                     guild_id=1, channel_id=708, first="opponent",
                                     move_seconds=3600)
    mover = match.to_move()
    assert match.status == "active" and mover is not None and mover.user_id < 0
    text = await clocks_text(service, match, EN)
    assert f"{mover.name} is to move: the AI is not timed." in text
    assert text.endswith("Alice waits: their clock starts with their turn.")


def rows_of(layout) -> list[list[dict]]:
    """The action rows of a board's container."""
    container = layout.to_components()[0]
    return [row["components"] for row in container["components"] if row["type"] == 1]


@pytest.mark.parametrize("game_id,options,finished,running", [
    ("progressive-mancala", {"pits": "17"}, False, True),
    ("progressive-mancala", {"pits": "17"}, True, False),
    ("consequence", {}, True, False),
    ("consequence", {}, False, True),
    ("ghostone", {}, False, True),
    ("pastoral-square", {}, False, True),
    ("ico", {"start": "f0"}, False, True),
])
def test_every_board_carries_describe_within_discords_rows(game_id, options, finished, running):
    game = get_game(game_id)
    state = game.new(None, options)
    if finished:  # a finished game: played out with the first legal move
        while game.outcome(state) is None and game.ply(state) < 400:
            state = game.play(state, game.legal_notations(state)[0])
    ply = game.ply(state)
    layout = board_layout("text", "alt", controls=board_controls(
        game, state, 42, ply, running=running, texts=EN), buttons=board_buttons(
        game, state, 42, ply, running=running, finished=finished, texts=EN,
        link="https://corral.example/m/42"))
    rows = rows_of(layout)
    counted = sum(1 + len(row) for row in rows) + 3  # the container, its text and picture
    assert counted <= 40 and all(len(row) <= 5 for row in rows), rows
    describe = [c for row in rows for c in row if c.get("custom_id") == "c1:d:42"]
    assert [c["label"] for c in describe] == ["Describe"]
    assert DescribeButton(42).item.custom_id == "c1:d:42"


def test_a_long_text_board_is_sent_whole_in_pages_split_between_lines():
    lines = [f"line {n}: " + "x" * (n % 90) for n in range(200)]
    sent = pages("\n".join(lines))
    assert len(sent) > 1 and all(len(page) <= 2000 for page in sent)
    assert "\n".join(sent).split("\n") == lines
    assert pages("short") == ["short"]
