"""A whole match against Corral's AI through the bot: it moves by itself through the normal
move path, is never pinged, a restart while it is to move loses nothing, and the channel is
not flooded: the board is shown again in place while Alice plays."""

from __future__ import annotations

import random
import sqlite3

from e2e_helpers import board_buttons, boards, is_ephemeral, only_live, play_button, posted, says

from games.mancala import GAME


def logged(database) -> list[tuple[str, int]]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return db.execute("SELECT notation, actor_id FROM moves WHERE kind = 'move'"
                          " ORDER BY seq").fetchall()
    finally:
        db.close()


async def test_a_whole_match_against_the_ai_with_a_restart_while_it_thinks(fake, bot):
    alice = fake.add_user("Alice")
    opened = await fake.answered(await fake.slash(alice, "play", game=GAME.id, ai="easy",
                                                  first="me"))
    assert is_ephemeral(opened.original)
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    assert f"<@{alice}>, your turn" in says(board)
    rng = random.Random(5)
    restarted = False

    def replayed():
        state = GAME.new(2)
        for notation, _actor in logged(bot.database):
            state = GAME.play(state, notation)
        return state

    for _ in range(200):
        state = replayed()
        if GAME.outcome(state) is not None:
            break
        if state.to_move == 0:
            board = await fake.wait_for(
                lambda: (b := boards(fake)[-1]) and set(board_buttons(fake, b)) and b,
                what="a board with Alice's buttons")
            board = await play_button(fake, alice, board, rng.choice(GAME.legal_notations(state)))
            if not restarted and "thinking" in says(board):
                assert board_buttons(fake, board) == {}  # nothing to click while it thinks
                await bot.kill()
                restarted = replayed().to_move == 1  # killed while the AI was to move
                await bot.start()
        else:
            count = len(logged(bot.database))
            await fake.wait_for(lambda count=count: len(logged(bot.database)) > count,
                                timeout=30, what="the AI's move")
    else:
        raise AssertionError("the match did not end")
    assert restarted
    moves = logged(bot.database)
    assert {actor for _, actor in moves if actor != alice} == {-1}  # the easy AI, first seat
    final = await posted(fake, lambda m: "🏁" in says(m), "the final board")
    assert "Corral (easy)" in says(final)
    # the AI is never mentioned; Alice, who is there, sees her boards edited in place
    assert fake.pinged(final) <= {alice}
    played = [m for m in boards(fake) if "**Corral (easy)** played" in says(m)]
    assert played and all(not fake.pinged(m) or fake.pinged(m) == {alice} for m in played)
    await only_live(fake, final)
    # at most one new board per turn of Alice's (bot/quick.py); the restart may add one
    posted_boards = {m["id"] for m in boards(fake)}
    alices_turns = sum(1 for _, actor in moves if actor == alice)
    assert len(posted_boards) <= 2 < alices_turns, (len(posted_boards), alices_turns)
