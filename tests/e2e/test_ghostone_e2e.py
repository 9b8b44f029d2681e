"""A three-player Ghostone match in Discord, played through the board's components only, with
die rolls made by the bot, announced on the board and logged so that a replay reproduces it."""

from __future__ import annotations

import random
import sqlite3

from e2e_helpers import boards, enter_move, mover, posted, says

from bot.quick import WINDOW
from games.ghostone import GAME
from render import render_observation


async def test_a_three_player_ghostone_match(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    dan = fake.add_user("Dan")
    from discord_fake import UserRef
    refused = await fake.answered(await fake.slash(alice, "play", game="ghostone",
                                                   opponent=UserRef(bob)))
    assert "leave the opponent empty" in says(refused.original)
    await fake.answered(await fake.slash(alice, "play", game="ghostone", first="me"))
    lobby = await posted(fake, lambda m: "opened a lobby" in says(m), "the lobby")
    assert "it starts when full (4 players)" in says(lobby)
    ids = {c.split(":")[2]: c for c in fake.custom_ids(lobby)}
    await fake.answered(await fake.click(bob, lobby, ids["join"]))
    early = await fake.answered(await fake.click(alice, lobby, ids["start"]))
    assert "needs at least 3 players" in says(early.original)
    await fake.answered(await fake.click(carol, lobby, ids["join"]))
    await fake.answered(await fake.click(alice, lobby, ids["start"]))  # the host starts at 3
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    assert dan not in fake.pinged(board)
    rng = random.Random(7)
    users = [alice, bob, carol]
    turns = 0
    previous, shown = None, None
    while True:
        state = logged_state(bot)  # the bot's own rolls are in its log
        if GAME.outcome(state) is not None:
            break
        user = users[GAME.to_move(state)]
        assert mover(board, users) == user
        if user != previous:
            assert fake.pinged(board) == {user}
        else:  # the same player again: their board is shown in place, or pings nobody
            assert board["id"] == shown or fake.pinged(board) == set()
        notation = rng.choice(GAME.legal_notations(state))
        # each player thinks for longer than bot/quick.py's window: each turn, a new board
        bot.advance(WINDOW + 1)
        shown = board["id"]
        board = await enter_move(fake, user, board, GAME, state, notation)
        previous = user
        turns += 1
        assert turns < 400, "the match did not end"
    assert "escaped last" in says(board) or "position came up" in says(board) \
        or "Nobody could move" in says(board)
    assert fake.pinged(board) == set(users)

    # the log: rolls by the host (no actor), announced once each, and a faithful replay
    db = sqlite3.connect(bot.database)
    log = db.execute("SELECT notation, actor_id FROM moves ORDER BY seq").fetchall()
    db.close()
    rolls = [n for n, actor in log if n.startswith("roll ")]
    assert all(actor is None for n, actor in log if n.startswith("roll "))
    assert all(actor is not None for n, actor in log if not n.startswith("roll "))
    # as each board said it when shown (a board shown in place says more later)
    announced = sum(p.text.count("🎲") for p in fake.pictures if p.channel_id == fake.channel_id)
    assert announced == len(rolls)
    replayed = GAME.new(3)
    for notation, _ in log:
        replayed = GAME.play(replayed, notation)
    assert GAME.outcome(replayed) is not None
    names = ["Alice", "Bob", "Carol"]
    result = str(GAME.describe_outcome(replayed))
    for index, name in enumerate(names):
        result = result.replace(f"seat {index + 1}", name)
    final = render_observation(GAME.id, GAME.observe(replayed, None), names=names, result=result)
    assert fake.attachment_bytes(board)[0] == final



def logged_state(bot):
    """The match replayed from the bot's move log (players' moves and the host's rolls)."""
    db = sqlite3.connect(bot.database)
    log = [n for (n,) in db.execute("SELECT notation FROM moves ORDER BY seq")]
    db.close()
    state = GAME.new(3)
    for notation in log:
        state = GAME.play(state, notation)
    return state
