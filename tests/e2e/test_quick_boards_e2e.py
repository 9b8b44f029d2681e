"""Quick matches keep one board (bot/quick.py): two players who answer each other see their
board edited in place; a player who is away, or a channel that moved on, gets a new board
with its mention below."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from e2e_helpers import boards, challenge_and_accept, only_live, play_button, says

from games.mancala import GAME


async def test_players_who_are_there_keep_one_board_and_one_away_gets_a_new_one(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    players = [alice, bob]
    state = GAME.new(2)

    async def turn(board: dict[str, Any]) -> dict[str, Any]:
        """The whole turn of the player to move (a Mancala turn may owe extra moves)."""
        nonlocal state
        mover = state.to_move
        while state.to_move == mover and GAME.outcome(state) is None:
            move = GAME.legal_notations(state)[0]
            board = await play_button(fake, players[mover], board, move)
            state = GAME.play(state, move)
        return board

    first = await challenge_and_accept(fake, alice, bob)
    # Alice opens; Bob has not moved yet, so nobody knows he is there: a new board pings him
    board = await turn(first)
    assert board["id"] != first["id"] and fake.pinged(board) == {bob}
    posted = board["id"]
    # Bob answers at once; Alice moved a moment ago: the same message shows her turn
    board = await turn(board)
    assert board["id"] == posted, "a player who is there gets the board in place"
    assert f"<@{alice}>, your turn" in says(board)
    assert fake.pinged(board) == {bob}  # edits ping nobody: only the post's ping stands
    board = await turn(board)  # Alice's turn: Bob is there too
    assert board["id"] == posted
    await only_live(fake, board)
    # someone talks in the channel: the next board comes below the conversation (and is then
    # edited in place again: Alice, whose turn it is, is there)
    await fake.user_message(bob, content="nice one")
    board = await turn(board)
    assert board["id"] != posted and f"<@{alice}>, your turn" in says(board)
    posted = board["id"]
    await only_live(fake, board)
    # Bob is away for longer than the window: Alice's move brings a new board that pings him
    bot.advance(600)
    board = await turn(board)
    assert board["id"] != posted and fake.pinged(board) == {bob}
    await only_live(fake, board)
    assert len({m["id"] for m in boards(fake)}) == 4  # the first, then three new boards



def replayed(database) -> Any:
    """The match on the 17-pit board as the bot logged it."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        moves = [n for (n,) in db.execute("SELECT notation FROM moves WHERE kind = 'move'"
                                           " ORDER BY seq")]
    finally:
        db.close()
    state = GAME.new(2, {"pits": "17"})
    for notation in moves:
        state = GAME.play(state, notation)
    return state


async def test_a_match_against_the_ai_posts_at_most_one_board_per_human_turn(fake, bot):
    """A whole match against the AI on the 17-pit board (the issue's measure, 30 plies or
    more): how many board messages the channel gets, and how many positions they showed."""
    alice = fake.add_user("Alice")
    await fake.answered(await fake.slash(alice, "play", game=GAME.id, ai="easy", first="me",
                                         options="pits=17"))
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    human_turns, rng = 0, random.Random(3)
    state = replayed(bot.database)
    while GAME.outcome(state) is None:
        if state.to_move == 0:
            human_turns += 1
            while state.to_move == 0 and GAME.outcome(state) is None:
                board = await fake.wait_for(
                    lambda: (b := boards(fake)[-1]) and f"<@{alice}>, your turn" in says(b)
                    and b, timeout=30, what="Alice's turn")
                board = await play_button(fake, alice, board,
                                          rng.choice(GAME.legal_notations(state)))
                state = replayed(bot.database)
        else:
            await fake.wait_for(lambda: replayed(bot.database).to_move == 0
                                or GAME.outcome(replayed(bot.database)) is not None,
                                timeout=30, what="the AI's turn")
            state = replayed(bot.database)
    messages = {m["id"] for m in boards(fake)}
    print(f"\n{GAME.ply(state)} plies, {human_turns} turns of Alice's: {len(messages)} board"
          f" message(s) showing {len(boards(fake))} positions")
    assert len(messages) <= human_turns
