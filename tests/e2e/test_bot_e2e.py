"""End-to-end: the real bot process against the loopback Discord imitation."""

from __future__ import annotations

from e2e_helpers import (
    board_buttons,
    boards,
    challenge_and_accept,
    decode_png,
    labels,
    mover,
    only_live,
    play_button,
    says,
    slash_move,
)

from games.mancala import GAME
from render import render_observation

GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


async def test_commands_register_with_names_descriptions_and_options(fake, bot):
    commands = {c["name"]: c for c in fake.commands["global"]}
    assert set(commands) >= {"play", "move", "board", "hand", "resign", "abort", "matches",
                             "rules", "help", "corral", "notify", "record"}
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
    # Japanese clients see Japanese names and descriptions; every other locale sees English
    assert commands["play"]["name_localizations"] == {"ja": "対局"}
    assert commands["play"]["description_localizations"]["ja"].startswith("ここで対局を始める")
    assert play["opponent"]["name_localizations"] == {"ja": "相手"}
    assert {c["name_localizations"]["ja"] for c in play["ai"]["choices"]} == {
        "初級", "中級", "上級"}
    for command in commands.values():
        assert set(command.get("description_localizations") or {}) <= {"ja"}


async def test_a_full_match_from_challenge_to_result(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    assert f"<@{alice}>, your turn" in says(board)
    assert fake.pinged(board) == {alice}
    assert set(board_buttons(fake, board)) == set("abcdefghijk")
    assert "Moves" in labels(board)
    image = decode_png(fake.attachment_bytes(board)[0])
    assert image.format == "PNG" and image.width >= 600
    state = GAME.new(2)
    clicked, commanded = [], []
    for ply, notation in enumerate(GAME2):
        user = mover(board, [alice, bob])
        assert user == (alice if state.to_move == 0 else bob)
        if ply % 2 == 0:
            clicked.append(board["id"])
            board = await play_button(fake, user, board, notation)
        else:
            commanded.append(board["id"])
            _, board = await slash_move(fake, user, notation)
        state = GAME.play(state, notation)
        assert f"played `{notation}`" in says(board)
        await only_live(fake, board)
    by_channel = [r.path.rsplit("/", 1)[-1] for r in fake.requests
                  if r.method == "PATCH" and r.path.startswith("/channels/")]
    # both players answer each other at once (bot/quick.py): the first board is answered by
    # Alice's click, which brings a second board pinging Bob (not yet known to be there);
    # from then on that one message shows every position in place, edited through the
    # tokens of the moves' interactions (the click's @original, or the token the board was
    # posted with: never counted against the global limit), never through the channel
    assert clicked[0] != clicked[1] and set(clicked[1:]) | set(commanded) == {board["id"]}
    assert not set(by_channel) & set(clicked + commanded)
    assert "Bob reached 28 seeds" in says(board)
    assert "your turn" not in says(board)
    assert fake.pinged(board) == {bob}  # edits ping nobody: both players are there
    assert set(board_buttons(fake, board)) == set()
    assert "Rematch" in labels(board)
    assert "Alice 5 · Bob 28" in says(board)
    assert len(boards(fake)) == 1 + len(GAME2)
    final = render_observation(GAME.id, GAME.observe(state, None), names=["Alice", "Bob"],
                               result="Bob reached 28 seeds (first to 28)")
    assert fake.attachment_bytes(board)[0] == final
