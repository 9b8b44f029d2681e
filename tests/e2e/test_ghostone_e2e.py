"""A three-player Ghostone match in Discord, played through the board's components only, with
die rolls made by the bot, announced on the board and logged so that a replay reproduces it."""

from __future__ import annotations

import random
import re
import sqlite3

from discord_fake import UserRef
from e2e_helpers import boards, is_ephemeral

from games.ghostone import GAME
from render import render_observation


def components(message, kind):
    return [c for row in message.get("components", []) for c in row.get("components", [])
            if c.get("type") == kind]


def whose_turn(board):
    found = re.search(r"<@(\d+)>, your turn", board["content"])
    return int(found.group(1)) if found else None


async def play_turn(fake, user, board, rng):
    """One move using what the board offers: a plate menu, a step button or a move button."""
    before = len(boards(fake))
    menus, buttons = components(board, 3), components(board, 2)
    if menus:
        menu = menus[0]
        plate = rng.choice(menu["options"])["value"]
        record = await fake.answered(await fake.select(user, board, menu["custom_id"], [plate]))
        if menu["custom_id"].endswith(":setup"):
            step = record.original
            assert is_ephemeral(step)
            rocks = components(step, 3)[0]
            chosen = rng.sample([o["value"] for o in rocks["options"]], 3)
            await fake.answered(await fake.select(user, step, rocks["custom_id"], chosen))
    else:
        button = rng.choice(buttons)
        record = await fake.answered(await fake.click(user, board, button["custom_id"]))
        if button["custom_id"].startswith("corral:step:"):
            step = record.original
            assert is_ephemeral(step) and "which way does a rock" in step["content"]
            ending = rng.choice(components(step, 2))
            await fake.answered(await fake.click(user, step, ending["custom_id"]))
    return await fake.wait_for(lambda: len(boards(fake)) > before and boards(fake)[-1],
                               what="the next board", timeout=15)


async def test_a_three_player_ghostone_match(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    dan = fake.add_user("Dan")
    refused = await fake.answered(await fake.slash(alice, "play", game="ghostone",
                                                   opponent=UserRef(bob)))
    assert "leave the opponent empty" in refused.original["content"]
    record = await fake.answered(await fake.slash(alice, "play", game="ghostone", first="me"))
    lobby = record.original
    ids = {c.split(":")[2]: c for c in fake.custom_ids(lobby)}
    await fake.answered(await fake.click(bob, lobby, ids["join"]))
    early = await fake.answered(await fake.click(alice, lobby, ids["start"]))
    assert "needs at least 3 players" in early.original["content"]
    await fake.answered(await fake.click(carol, lobby, ids["join"]))
    await fake.answered(await fake.click(alice, lobby, ids["start"]))  # the host starts at 3
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    assert dan not in fake.pinged(board)
    rng = random.Random(7)
    turns = 0
    while whose_turn(board) is not None:
        user = whose_turn(board)
        assert fake.pinged(board) == {user}
        board = await play_turn(fake, user, board, rng)
        turns += 1
        assert turns < 400, "the match did not end"
    assert "won match" in board["content"] or "drawn" in board["content"]

    # the log: rolls by the host (no actor), announced once each, and a faithful replay
    db = sqlite3.connect(bot.database)
    log = db.execute("SELECT notation, actor_id FROM moves ORDER BY ply").fetchall()
    db.close()
    rolls = [n for n, actor in log if n.startswith("roll ")]
    assert all(actor is None for n, actor in log if n.startswith("roll "))
    assert all(actor is not None for n, actor in log if not n.startswith("roll "))
    announced = sum(m["content"].count("🎲") for m in boards(fake))
    assert announced == len(rolls)
    state = GAME.new(3)
    for notation, _ in log:
        state = GAME.play(state, notation)
    assert GAME.outcome(state) is not None
    names = ["Alice", "Bob", "Carol"]
    final = render_observation(GAME.id, GAME.observe(state, None), names=names)
    assert fake.attachment_bytes(board)[0] == final
