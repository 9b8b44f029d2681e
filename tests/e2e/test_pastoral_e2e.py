"""A Pastoral Square match in Discord, played only with components as on a phone."""

from __future__ import annotations

from e2e_helpers import (
    board_buttons,
    boards,
    challenge_and_accept,
    components,
    decode_png,
    enter_move,
    is_ephemeral,
    mover,
    says,
)

from games.pastoral import GAME

SCRIPT = ["c3:2", "save", "save", "save", "d3:3", "save", "e3:3", "save", "c3:1"]  # the first player's bingo


async def test_a_pastoral_match_on_components_with_turn_cards(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.close_dms(bob)
    for user in (alice, bob):
        await fake.answered(await fake.slash(user, "notify", mode="both"))
    board = await challenge_and_accept(fake, alice, bob, game="pastoral-square", first="me")
    assert f"<@{alice}>, your turn" in says(board)
    # few choices: buttons (the value-2 cells, with 2 held stones, and Save)
    assert set(board_buttons(fake, board)) == {"save", "c3", "f3", "c6", "f6"}
    card = await fake.wait_for(lambda: [m for m in fake.dm_messages(alice)
                                        if "Your turn" in says(m)], what="Alice's card")
    assert "You picked up 2: you hold 2 stones and 30 remain in your stock." in says(card[0])

    # a stranger's cell choice is refused privately
    stranger = fake.add_user("Carol")
    refused = await fake.answered(await fake.click(stranger, board,
                                                   board_buttons(fake, board)["c3"]))
    assert is_ephemeral(refused.original) and "not playing" in says(refused.original)

    state = GAME.new()
    used_menus = False
    for notation in SCRIPT:
        used_menus = used_menus or bool(components(board, 3))
        user = mover(board, [alice, bob])
        board = await enter_move(fake, user, board, GAME, state, notation)
        state = GAME.play(state, notation)
        assert f"played `{notation}`" in says(board)
    # Bob's DMs are closed: he alone is told so, once (not every turn), at his next click;
    # the channel is not told
    assert not [m for m in fake.channel_messages() if "couldn't DM you" in says(m)]
    notes = [f for r in fake.interactions.values() for f in r.followups
             if "couldn't DM you" in says(f)]
    assert len(notes) == 1 and is_ephemeral(notes[0]), notes
    assert notes[0]["interaction_metadata"]["user"]["id"] == str(bob)
    assert f"<#{fake.channel_id}>" in says(notes[0])
    assert used_menus  # later positions offer more cells than buttons fit: menus
    assert "Alice made a bingo" in says(board)
    assert components(board, 3) == [] and board_buttons(fake, board) == {}
    image = decode_png(fake.attachment_bytes(board)[0])
    assert image.format == "PNG" and image.width >= 600
    # five turns, five cards (a DM channel takes 5 messages in 5 s: the last may wait)
    await fake.wait_for(lambda: len([m for m in fake.dm_messages(alice)
                                     if "Your turn" in says(m)]) == 5,
                        what="Alice's five turn cards")
    assert len(boards(fake)) == len(SCRIPT) + 1
