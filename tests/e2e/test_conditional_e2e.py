"""Conditional moves through the real bot: Alice queues two "if Bob plays X, I play Y" pairs
with the match's own move entry in a view only she sees, the bot restarts, Bob plays into the
first pair and Alice's reply is played at once (in Progressive Mancala, where a turn may be
several moves: X and Y are whole turns); a move outside the queue clears it. Refused: queueing
on your own turn, in a game with hidden information, an illegal X or Y (forged ids), and a
click on someone else's queue."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from e2e_helpers import (
    boards,
    challenge_and_accept,
    components,
    is_ephemeral,
    next_board,
    says,
    slash_move,
)

from games.mancala import GAME


def logged(database) -> list[tuple[str, int]]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return db.execute("SELECT notation, actor_id FROM moves WHERE kind = 'move'"
                          " ORDER BY seq").fetchall()
    finally:
        db.close()


def turn(state: Any, pick: int = 0) -> tuple[tuple[str, ...], Any]:
    """The plies of the turn of the seat to move (each the `pick`-th legal move, the first
    ply's choice first), and the state after it."""
    seat = GAME.to_move(state)
    plies: list[str] = []
    while GAME.outcome(state) is None and GAME.to_move(state) == seat:
        legal = GAME.legal_notations(state)
        notation = legal[min(pick, len(legal) - 1)] if not plies else legal[0]
        plies.append(notation)
        state = GAME.play(state, notation)
    return tuple(plies), state


def looks(message: dict[str, Any]) -> str:
    return json.dumps([message.get("content"), message.get("components")])


async def click(fake, user: int, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    message_id = int(message["id"])
    before = looks(fake.messages[message_id])
    record = await fake.answered(await fake.click(user, message, custom_id))
    # the message itself changes: at once (7), or once its pictures are drawn (6, deferred)
    assert record.kind in (6, 7), record.callbacks
    return await fake.wait_for(lambda: looks(fake.messages[message_id]) != before
                               and fake.messages[message_id], what="the queue updated")


async def shown(fake, record):
    """The answer of a command or button that shows a queue: deferred while its pictures are
    drawn (5), then edited into the queue; a refusal comes at once (4)."""
    record = await fake.answered(record)
    if record.kind == 5:
        message_id = int(record.original["id"])
        record.original = await fake.wait_for(
            lambda: says(fake.messages[message_id]) and fake.messages[message_id],
            what="the queue shown")
    return record


def queue_button(message: dict[str, Any], value: str) -> str:
    return next(c["custom_id"] for c in components(message, 2)
                if c["custom_id"].startswith("c1:k:") and c["custom_id"].endswith(f":{value}"))


async def conditional(fake, user: int, channel_id: int | None = None):
    return await shown(fake, await fake.slash(user, "conditional", channel_id=channel_id))


async def forged_click(fake, user: int, message: dict[str, Any], custom_id: str):
    """A click on `custom_id` as if `message` (a copy, shown to `user`) carried it."""
    forged = dict(message, id=str(fake.new_id()), flags=0, components=[{
        "type": 1, "components": [{"type": 2, "style": 1, "label": "x",
                                   "custom_id": custom_id}]}])
    fake.messages[int(forged["id"])] = forged
    return await fake.answered(await fake.click(user, forged, custom_id))


async def test_two_pairs_survive_a_restart_and_the_first_is_answered_at_once(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")

    refused = await conditional(fake, alice)  # her own turn: play first
    assert is_ephemeral(refused.original) and "your turn" in says(refused.original)

    state = GAME.new(2)
    first = GAME.legal_notations(state)[0]
    moved, board = await slash_move(fake, alice, first)  # its answer offers the queue
    state = GAME.play(state, first)
    refused = await conditional(fake, bob)  # Bob is to move: nothing to queue
    assert "your turn" in says(refused.original)

    x1, after = turn(state)
    y1, after = turn(after)
    x2, after = turn(after, pick=1)
    y2, after = turn(after)
    assert len(x1) >= 1 and GAME.outcome(after) is None

    opener = next(c["custom_id"] for c in components(moved.original, 2)
                  if c["custom_id"].startswith("c1:ko:"))
    opened = await shown(fake, await fake.click(alice, moved.original, opener))
    message = fake.messages[int(opened.original["id"])]
    assert is_ephemeral(message) and "None queued yet" in says(message)
    for number, ply in enumerate((*x1, *y1, *x2, *y2)):
        if number == 0:  # an illegal X (a pit that is empty or not Bob's): refused, no change
            cid = queue_button(message, ply)
            illegal = [p for p in "abcdefghijk" if p not in GAME.legal_notations(state)]
            forged = await forged_click(fake, alice, message, cid.rsplit(":", 1)[0] + ":"
                                        + (illegal[0] if illegal else "z"))
            assert forged.kind == 4 and "can't be made" in says(forged.original), \
                forged.callbacks
            # someone else's queue: Bob clicks a copy of Alice's view
            foreign = await forged_click(fake, bob, message, cid)
            assert "someone else" in says(foreign.original)
        if number == len(x1):  # an illegal Y
            cid = queue_button(message, ply)
            forged = await forged_click(fake, alice, message, cid.rsplit(":", 1)[0] + ":zz")
            assert forged.kind == 4 and "can't be made" in says(forged.original)
        message = await click(fake, alice, message, queue_button(message, ply))
    content = says(message)
    assert f"1. if they play `{' '.join(x1)}`, I play `{' '.join(y1)}`" in content, content
    assert f"2. if they play `{' '.join(x2)}`, I play `{' '.join(y2)}`" in content, content
    assert "Queued" in content
    # the channel never saw the queue
    assert not any(" ".join(y1) in says(m) and "conditional" in
                   says(m) for m in fake.channel_messages())

    await bot.stop()
    await bot.start()

    # Bob plays into the first pair: Alice's reply is played at once, with his last ply
    for index, ply in enumerate(x1):
        before = len(boards(fake))
        record = await fake.answered(await fake.slash(bob, "move", notation=ply))
        assert "You played" in says(record.original), says(record.original)
        board = await next_board(fake, before, what=f"the board after {ply}")
        if index < len(x1) - 1:
            assert "conditional" not in says(board)
    assert "(a conditional move)" in says(board), says(board)
    assert f"<@{bob}>, your turn" in says(board)
    log = logged(bot.database)
    assert log[-len(y1):] == [(ply, alice) for ply in y1]
    assert log[-len(y1) - len(x1):-len(y1)] == [(ply, bob) for ply in x1]

    # the second pair is still queued (Alice's view), and Bob never saw it
    view = await conditional(fake, alice)
    assert f"1. if they play `{' '.join(x2)}`" in says(view.original)
    # a move outside the queue clears it
    state = _replay(GAME.new(2), tuple(n for n, _ in log))
    other = next(n for n in GAME.legal_notations(state) if n != x2[0])
    _, board = await slash_move(fake, bob, other)
    assert "conditional" not in says(board)
    view = await conditional(fake, alice) if GAME.to_move(GAME.play(state, other)) == 1 \
        else None
    if view is not None:
        assert "None queued yet" in says(view.original)
    db = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT COUNT(*) FROM conditional_moves").fetchone() == (0,)
    finally:
        db.close()


def _replay(state: Any, plies: tuple[str, ...]) -> Any:
    for ply in plies:
        state = GAME.play(state, ply)
    return state


async def test_no_conditional_moves_with_hidden_information(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, game="consequence", first="me")
    assert board
    refused = await conditional(fake, bob)
    assert is_ephemeral(refused.original)
    assert "without hidden information or chance" in says(refused.original)


# -- on pictures, in the right person, and what a cleared queue leaves behind ---------------------
NAMES = ["Alice", "Bob"]


def pictures(fake, message: dict[str, Any]) -> dict[str, bytes]:
    return {a["filename"]: data for a, data in zip(message.get("attachments", []),
                                                   fake.attachment_bytes(message), strict=True)}


def position_picture(state: Any) -> bytes:
    """The picture of the position after the moves chosen so far, as Alice (seat 1) sees it."""
    from bot.pictures import board_picture

    return board_picture(GAME.id, GAME.to_json(state), 0, NAMES, None, "en", 0)


def whole_turns(state: Any) -> list[tuple[tuple[str, ...], Any]]:
    """Every turn of the seat to move (each first ply, then the first legal ones)."""
    seat, found = GAME.to_move(state), []
    for first in GAME.legal_notations(state):
        plies, after = [first], GAME.play(state, first)
        while GAME.outcome(after) is None and GAME.to_move(after) == seat:
            plies.append(GAME.legal_notations(after)[0])
            after = GAME.play(after, plies[-1])
        found.append((tuple(plies), after))
    return found


def opening() -> tuple[str, tuple[str, ...], tuple[str, ...], str]:
    """Alice's first move; then a turn of Bob's and a reply of Alice's of two plies or more
    (a bonus move); and another move of Bob's after which Alice is to move."""
    start = GAME.new(2)
    for first in GAME.legal_notations(start):
        state = GAME.play(start, first)
        if GAME.to_move(state) != 1:
            continue
        others = [n for n in GAME.legal_notations(state)
                  if GAME.to_move(GAME.play(state, n)) == 0]
        for theirs, after in whole_turns(state):
            if GAME.outcome(after) is not None or GAME.to_move(after) != 0:
                continue
            mine = next((m for m, _ in whole_turns(after) if len(m) >= 2), None)
            other = next((n for n in others if n != theirs[0]), None)
            if mine is not None and other is not None:
                return first, theirs, mine, other
    raise AssertionError("no such opening")


async def enter_pair(fake, alice: int, message: dict[str, Any], state: Any,
                     theirs: tuple[str, ...], mine: tuple[str, ...]) -> dict[str, Any]:
    """Alice enters the pair in `message` (her first), each step checked: the question in the
    right person, the pair so far written out whole, the picture of the position after it."""
    for number, ply in enumerate((*theirs, *mine)):
        message = await click(fake, alice, message, queue_button(message, ply))
        state = GAME.play(state, ply)
        content = says(message)
        done = number + 1
        if done < len(theirs):  # Bob's turn goes on
            assert f"They play `{' '.join(theirs[:done])}` and move again" in content, content
            assert "Which pit will they sow?" in content
        elif done == len(theirs):
            assert f"If they play `{' '.join(theirs)}`: now choose your reply." in content
            assert "Which pit do you sow?" in content and "will they" not in content
        elif done < len(theirs) + len(mine):  # the first ply of her reply is shown
            so_far = " ".join(mine[:done - len(theirs)])
            assert (f"If they play `{' '.join(theirs)}`, you play `{so_far}` and move again"
                    in content), content
            assert "Which pit do you sow?" in content
        if done < len(theirs) + len(mine):
            assert pictures(fake, message)["position.png"] == position_picture(state)
    return message


async def test_a_queue_cleared_by_another_move_is_told_to_its_owner_and_its_views_go_dead(
        fake, bot):
    """Alice enters a pair on pictures (each step: the position after the moves chosen so
    far, the question about Bob's move or her own, a reply of two plies written out whole),
    sees her queue as small boards, replaces it from a second view (the first view, clicked,
    says it is out of date and shows the queue as it is now), then Bob plays something else:
    Alice alone is told, by one DM, and her view, clicked, says the queue changed and why
    there is nothing to queue now, with no button left."""
    from bot.pictures import queue_picture

    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    await challenge_and_accept(fake, alice, bob, first="me")
    first, theirs, mine, other = opening()
    await slash_move(fake, alice, first)
    state = GAME.play(GAME.new(2), first)

    opened = await conditional(fake, alice)
    view = fake.messages[int(opened.original["id"])]
    match_id = int(says(view).split("match #", 1)[1].split(" ", 1)[0])
    assert "Which pit will they sow?" in says(view)
    assert "do you sow" not in says(view)
    assert pictures(fake, view) == {"position.png": position_picture(state)}  # no queue yet

    view = await enter_pair(fake, alice, view, state, theirs, mine)
    assert "Queued" in says(view)
    caption = f"1. if they play {' '.join(theirs)}, I play {' '.join(mine)}"
    # one picture: the queue as small boards (the last, the position after the queue)
    assert pictures(fake, view) == {"queue.png": queue_picture(
        GAME.id, GAME.to_json(state), 0, [(caption, (*theirs, *mine))],
        f"Your conditional moves in match #{match_id}", NAMES, "en")}

    # a second view of the same queue clears it: the first view is out of date
    second = await conditional(fake, alice)
    other_view = fake.messages[int(second.original["id"])]
    clear = next(c["custom_id"] for c in components(other_view, 2)
                 if c["custom_id"].startswith("c1:kc:"))
    other_view = await click(fake, alice, other_view, clear)
    assert "are cleared" in says(other_view) and not components(other_view)
    assert not other_view.get("attachments")
    step = next(c["custom_id"] for c in components(view, 2)
                if c["custom_id"].startswith("c1:k:"))
    view = await click(fake, alice, view, step)
    content = says(view)
    assert content.startswith("This view of your conditional moves is out of date"), content
    assert "Here is your queue as it is now:" in content and "None queued yet." in content
    assert pictures(fake, view) == {"position.png": position_picture(state)}
    # and it is live again: the pair is entered anew in it
    view = await enter_pair(fake, alice, view, state, theirs, mine)
    assert f"1. if they play `{' '.join(theirs)}`" in says(view)

    # Bob plays another move: the queue is cleared, and Alice is told, once, privately
    await slash_move(fake, bob, other)
    told = await fake.wait_for(lambda: [m for m in fake.dm_messages(alice)
                                        if "are cleared" in says(m)], what="the DM")
    assert [says(m) for m in told] == [
        f"🔀 Your conditional moves in match #{match_id} are cleared: Bob played `{other}`, "
        f"not `{theirs[0]}`."]
    assert not [m for m in fake.dm_messages(bob) if "are cleared" in says(m)]
    assert not [m for m in fake.channel_messages() if "are cleared" in (says(m) or "")]

    # her view goes dead: a click says what changed, and why there is nothing to queue
    step = next(c["custom_id"] for c in components(view, 2)
                if c["custom_id"].startswith("c1:k:"))
    view = await click(fake, alice, view, step)
    assert says(view).startswith("This view of your conditional moves is out of date")
    assert f"It is your turn in match #{match_id}" in says(view)
    assert not components(view) and not view.get("attachments")
    db = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT COUNT(*) FROM conditional_moves").fetchone() == (0,)
    finally:
        db.close()
