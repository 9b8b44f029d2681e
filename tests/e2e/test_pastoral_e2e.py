"""A Pastoral Square match in Discord, played only with components as on a phone."""

from __future__ import annotations

from discord_fake import UserRef
from e2e_helpers import board_buttons, boards, decode_png, is_ephemeral

SCRIPT = "c3:2 save save save d3:3 save e3:3 save c3:1".split()  # the first player's bingo


def selects(fake, message):
    return [c for row in message.get("components", []) for c in row.get("components", [])
            if c.get("type") == 3]


async def choose_cell(fake, user, board, cell):
    """Pick a cell in the select menu; returns the answered interaction."""
    menu = next(s for s in selects(fake, board) if any(o["value"] == cell for o in s["options"]))
    return await fake.answered(await fake.select(user, board, menu["custom_id"], [cell]))


async def play(fake, user, board, notation):
    """Play one move with components only; returns the new board."""
    before = len(boards(fake))
    if notation == "save":
        button = board_buttons(fake, board)["save"]
        record = await fake.answered(await fake.click(user, board, button))
    else:
        cell, _ = notation.split(":")
        step = (await choose_cell(fake, user, board, cell)).original
        assert is_ephemeral(step) and f"**{cell}**: how many stones?" in step["content"]
        button = next(c for c in fake.custom_ids(step) if c.endswith(f":{notation}"))
        record = await fake.answered(await fake.click(user, step, button))
    assert record.kind == 7, record.callbacks
    return await fake.wait_for(lambda: len(boards(fake)) > before and boards(fake)[-1],
                               what=f"the board after {notation}")


async def test_a_pastoral_match_on_components_with_turn_cards(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.close_dms(bob)
    record = await fake.answered(await fake.slash(alice, "play", game="pastoral-square",
                                                  opponent=UserRef(bob), first="me"))
    invitation = record.original
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    assert f"<@{alice}>, your turn" in board["content"]
    assert set(board_buttons(fake, board)) == {"save"}
    cells = {o["value"] for s in selects(fake, board) for o in s["options"]}
    assert cells == {"c3", "f3", "c6", "f6"}  # only the value-2 cells with 2 held stones
    card = await fake.wait_for(lambda: [m for m in fake.dm_messages(alice)
                                        if "Your turn" in m["content"]], what="Alice's card")
    assert "You picked up 2: you hold **2** stones, and 30 remain" in card[0]["content"]

    # a stranger's cell choice is refused privately
    stranger = fake.add_user("Carol")
    refused = await choose_cell(fake, stranger, board, "c3")
    assert is_ephemeral(refused.original) and "not playing" in refused.original["content"]

    for ply, notation in enumerate(SCRIPT):
        user = alice if ply % 2 == 0 else bob
        board = await play(fake, user, board, notation)
        assert f"played `{notation}`" in board["content"]
        if ply == 0:  # Bob's DMs are closed: the board says so, without pinging anyone else
            await fake.wait_for(lambda: "couldn't DM you your turn card" in
                                fake.messages[int(boards(fake)[-1]["id"])]["content"],
                                what="the closed-DM note")
            assert fake.pinged(fake.messages[int(board["id"])]) == {bob}
    assert "Alice** won match" in board["content"]
    assert selects(fake, board) == [] and board_buttons(fake, board) == {}
    image = decode_png(fake.attachment_bytes(board)[0])
    assert image.format == "PNG" and image.width >= 700
    assert len([m for m in fake.dm_messages(alice) if "Your turn" in m["content"]]) == 5
