"""An ICO match in Discord: a challenge, moves by the (at most three) edge buttons and by
/move, to a win; the start face drawn by the bot is kept in the match's options."""

from __future__ import annotations

import random
import re
import sqlite3

from discord_fake import UserRef
from e2e_helpers import board_buttons, boards, challenge_and_accept, is_ephemeral, play_button

from games.ico import FACE_EDGES, GAME
from render import render_observation


async def test_an_ico_match_by_buttons_and_move(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    record = await fake.answered(await fake.slash(alice, "play", game="ico",
                                                  opponent=UserRef(bob), first="me",
                                                  options="level=1+"))
    invitation = record.original
    drawn = re.search(r"start=f(\d+)", invitation["content"])  # drawn by the host, shown
    assert drawn
    start = int(drawn.group(1))
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    state = GAME.new(2, {"level": "1+", "start": f"f{start}"})
    assert sorted(board_buttons(fake, board), key=lambda n: int(n.lstrip("-e"))) == \
        [f"e{e}" for e in FACE_EDGES[start]]
    wrong = await fake.answered(await fake.slash(alice, "move", notation="e29"
                                                 if 29 not in FACE_EDGES[start] else "e0"))
    assert is_ephemeral(wrong.original) and "not an edge of the active face" in wrong.original["content"]
    rng = random.Random(3)
    users = {0: alice, 1: bob}
    ply = 0
    while GAME.outcome(state) is None:
        notation = rng.choice(GAME.legal_notations(state))
        user = users[GAME.to_move(state)]
        if ply % 3 == 2:
            record = await fake.answered(await fake.slash(user, "move", notation=notation))
            board = record.original
        else:
            board = await play_button(fake, user, board, notation)
        state = GAME.play(state, notation)
        assert f"played `{notation}`" in board["content"]
        ply += 1
    assert "won match" in board["content"] or "drawn" in board["content"]
    assert board_buttons(fake, board) == {}
    final = render_observation(GAME.id, GAME.observe(state, None), names=["Alice", "Bob"])
    assert fake.attachment_bytes(board)[0] == final
    db = sqlite3.connect(bot.database)
    options = db.execute("SELECT options FROM matches").fetchone()[0]
    db.close()
    assert f'"start": "f{start}"' in options
