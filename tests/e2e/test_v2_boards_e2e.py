"""Boards as Components V2 messages: one container with the text, the picture and its alt
text, the controls and the other buttons; a retired board keeps its text and picture; a board
posted before (a classic message) still answers and retires the classic way."""

from __future__ import annotations

from typing import Any

from e2e_helpers import (
    alt_texts,
    board_buttons,
    challenge_and_accept,
    components,
    is_ephemeral,
    next_board,
    play_button,
    says,
    slash_move,
    walk,
)

from bot.quick import WINDOW
from bot.words.descriptions import alt_text
from bot.words.i18n import Texts
from games.mancala import GAME
from render import seat_colour

V2 = 1 << 15
NAMES = ["Alice", "Bob"]


def container(message: dict[str, Any]) -> dict[str, Any]:
    """The board's one container (and nothing else at the top, no content)."""
    assert message["flags"] & V2, message["flags"]
    assert not message.get("content"), message.get("content")
    assert [c["type"] for c in message["components"]] == [17], message["components"]
    return message["components"][0]


def shown(message: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """What a reader gets of a board without its controls: the texts, the gallery's pictures
    and the attachments."""
    items = walk(message["components"])
    texts = [c["content"] for c in items if c["type"] == 10]
    media = [i["media"]["url"] for c in items if c["type"] == 12 for i in c["items"]]
    return texts, media, [a["filename"] for a in message["attachments"]]


def accent(state: Any) -> int:
    return seat_colour(GAME.id, GAME.observe(state, None), GAME.to_move(state))


async def test_a_board_is_one_container_with_text_picture_alt_text_controls_and_accent(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    state = GAME.new(2)
    box = container(board)
    kinds = [c["type"] for c in box["components"]]
    assert kinds[:2] == [10, 12] and set(kinds[2:]) == {1}  # text, picture, then rows
    assert f"<@{alice}>, your turn" in box["components"][0]["content"]
    assert fake.pinged(board) == {alice}
    assert box["accent_color"] == accent(state) == 0xF0B428  # the first seat's amber
    gallery = box["components"][1]["items"]
    # sent as attachment://board.png, returned as the stored attachment's URL (as Discord does)
    assert [i["media"]["url"].rsplit("/", 1)[-1] for i in gallery] == ["board.png"]
    public = alt_text(GAME, GAME.observe(state, None), Texts("en"), NAMES)
    assert alt_texts(board) == [public, public] and public  # attachment and media item
    assert set(board_buttons(fake, board)) == set("abcdefghijk")
    labels = [c.get("label") for c in components(board, 2)]
    assert labels[11:] == ["Moves", "Describe"]
    assert len(walk(board["components"])) <= 40

    # a click plays: the clicked board keeps its text and picture, and only loses controls
    before = shown(board)
    after_click = await play_button(fake, alice, board, "k")
    state = GAME.play(state, "k")
    clicked = fake.messages[int(board["id"])]
    assert container(clicked)["accent_color"] == 0xF0B428
    assert shown(clicked) == before and not components(clicked)
    assert alt_texts(clicked) == [public, public]
    assert container(after_click)["accent_color"] == accent(state)
    assert "**Alice** played `k`" in says(after_click)

    # a /move: the board before it is retired by the outbox (not by a click), the same way
    # (the next player is away for longer than bot/quick.py's window: a new board, not the
    # same one shown in place)
    bot.advance(WINDOW + 1)
    mover = alice if GAME.to_move(state) == 0 else bob
    before = shown(after_click)
    notation = GAME.legal_notations(state)[0]
    _, newest = await slash_move(fake, mover, notation)
    await fake.wait_for(lambda: not components(fake.messages[int(after_click["id"])]),
                        what="the older board retired")
    retired = fake.messages[int(after_click["id"])]
    assert shown(retired) == before and container(retired)["accent_color"] == accent(state)
    state = GAME.play(state, notation)
    assert container(newest)["accent_color"] == accent(state)


async def test_a_classic_board_from_before_still_plays_and_retires_the_classic_way(fake, bot):
    """A board posted before boards were V2: content, an action row of step buttons, no flag.
    Its buttons still play, and the click takes its components away, its text staying."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    step = board_buttons(fake, board)["k"]
    classic = dict(board, flags=board["flags"] & ~V2, content="Match #1: Alice, your turn.",
                   components=[{"type": 1, "components": [
                       {"type": 2, "style": 1, "label": "k", "custom_id": step}]}])
    fake.messages[int(classic["id"])] = classic
    record = await fake.answered(await fake.click(alice, classic, step))
    assert record.kind == 7, record.callbacks
    newest = await next_board(fake, 1, what="the board after the classic board's move")
    assert "**Alice** played `k`" in says(newest) and container(newest)
    old = fake.messages[int(classic["id"])]
    assert not old["flags"] & V2 and not old["components"]
    assert old["content"] == "Match #1: Alice, your turn."


async def test_the_private_board_is_v2_with_the_public_alt_text(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    await challenge_and_accept(fake, alice, bob, first="me")
    record = await fake.answered(await fake.slash(alice, "board"))
    answer = await fake.wait_for(lambda: record.original and record.original["attachments"]
                                 and record.original, what="the private board")
    assert is_ephemeral(answer) and container(answer)
    public = alt_text(GAME, GAME.observe(GAME.new(2), None), Texts("en"), NAMES)
    assert alt_texts(answer) == [public, public]
    assert set(board_buttons(fake, answer)) == set("abcdefghijk")  # Alice's turn: controls
