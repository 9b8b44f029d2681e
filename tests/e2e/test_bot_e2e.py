"""End-to-end: the real bot process against the loopback Discord imitation."""

from __future__ import annotations

import asyncio

from discord_fake import UserRef
from e2e_helpers import (board_buttons, boards, challenge_and_accept, decode_png,
                         is_ephemeral, play_button, play_slash)

GAME2 = "k c h k d j g c a i f e i a f".split()


async def test_commands_register_with_names_descriptions_and_options(fake, bot):
    commands = {c["name"]: c for c in fake.commands["global"]}
    assert set(commands) >= {"play", "move", "board", "hand", "resign", "abort", "matches",
                             "rules", "help", "corral"}
    for command in commands.values():
        assert command["description"]
    play = {o["name"]: o for o in commands["play"]["options"]}
    assert play["game"]["required"] is True
    assert {c["value"] for c in play["game"]["choices"]} == {
        "progressive-mancala", "pastoral-square", "consequence", "ghostone", "ico"}
    assert play["opponent"]["type"] == 6 and not play["opponent"].get("required")
    assert play["options"]["autocomplete"] is True
    move = commands["move"]["options"][0]
    assert move["name"] == "notation" and move["autocomplete"] is True


async def test_a_full_match_from_challenge_to_result(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    assert f"<@{alice}>, your turn" in board["content"]
    assert fake.pinged(board) == {alice}
    assert set(board_buttons(fake, board)) == set("abcdefghijk")
    image = decode_png(fake.attachment_bytes(board)[0])
    assert image.format == "PNG" and image.width >= 800
    for ply, notation in enumerate(GAME2):
        mover = alice if f"<@{alice}>, your turn" in board["content"] else bob
        if ply % 2 == 0:
            board = await play_button(fake, mover, board, notation)
        else:
            record = await play_slash(fake, mover, notation)
            assert record.kind == 4 and not is_ephemeral(record.original), record.callbacks
            board = record.original
        assert f"played `{notation}`" in board["content"]
        nxt = [u for u in (alice, bob) if f"<@{u}>, your turn" in board["content"]]
        assert fake.pinged(board) == set(nxt)  # only the next player, never anyone else
    assert "Bob** won match" in board["content"]
    assert "your turn" not in board["content"]
    assert fake.pinged(board) == set()
    assert board_buttons(fake, board) == {}
    assert "Alice 5 · Bob 28" in board["content"]
    assert len(boards(fake)) == 1 + len(GAME2)
