"""An ICO match in Discord: a challenge, moves by the (at most three) edge buttons and by
/move, to a win; the start face drawn by the bot is kept in the match's options."""

from __future__ import annotations

import json
import random
import re
import sqlite3

from e2e_helpers import (
    board_buttons,
    challenge_and_accept,
    enter_move,
    mover,
    open_invitation,
    says,
    slash_move,
)

from games.ico.game import FACE_EDGES, GAME
from render import render_observation


async def test_an_ico_match_by_buttons_and_move(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    refused = await fake.answered(await fake.slash(alice, "play", game="ico",
                                                   options="antipodal=yes"))
    assert says(refused.original) == ("Bad option: antipodal=yes goes with level=2+ "
                                           "only.")
    invitation = await open_invitation(fake, alice, bob, game="ico", options="level=1+")
    drawn = re.search(r"start=f(\d+)", says(invitation))  # drawn by the host, shown
    assert drawn
    start = int(drawn.group(1))
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    from e2e_helpers import boards
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    state = GAME.new(2, {"level": "1+", "start": f"f{start}"})
    assert sorted(board_buttons(fake, board), key=lambda n: int(n.lstrip("-e"))) == \
        [f"e{e}" for e in FACE_EDGES[start]]
    wrong = await fake.answered(await fake.slash(alice, "move", notation="e29"
                                                 if 29 not in FACE_EDGES[start] else "e0"))
    assert "is not an edge of the black face" in says(wrong.original)
    rng = random.Random(3)
    ply = 0
    while GAME.outcome(state) is None:
        notation = rng.choice(GAME.legal_notations(state))
        user = mover(board, [alice, bob])
        if ply % 3 == 2:
            _, board = await slash_move(fake, user, notation)
        else:
            board = await enter_move(fake, user, board, GAME, state, notation)
        state = GAME.play(state, notation)
        assert f"played `{notation}`" in says(board)
        ply += 1
    assert "completed" in says(board) or "Drawn" in says(board)
    assert board_buttons(fake, board) == {}
    result = str(GAME.describe_outcome(state)).replace("seat 1", "Alice").replace("seat 2", "Bob")
    final = render_observation(GAME.id, GAME.observe(state, None), names=["Alice", "Bob"],
                               result=result)
    assert fake.attachment_bytes(board)[0] == final
    db = sqlite3.connect(bot.database)
    options = db.execute("SELECT options FROM matches").fetchone()[0]
    db.close()
    assert json.loads(options)["start"] == f"f{start}"


async def test_the_invitation_shows_options_and_forced_moves_have_one_button(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, game="ico", options="start=f0")
    assert set(board_buttons(fake, board)) == {"e0", "e1", "e5"}
