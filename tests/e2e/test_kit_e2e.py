"""The sixth game through the real bot: a kit from outside the product (the tests' tic-tac-toe,
tests/kits/tictactoe), registered by `CORRAL_EXTRA_KITS` alone, is offered, drawn, played to
the end by two people, summarised by /rules, and played by the AI in the worker pool. No line
of the product names it."""

from __future__ import annotations

import random
import sqlite3

from e2e_helpers import (
    board_buttons,
    boards,
    challenge_and_accept,
    decode_png,
    is_ephemeral,
    play_button,
    posted,
    says,
)
from kits.tictactoe.game import GAME


def logged(database) -> list[str]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return [n for (n,) in db.execute("SELECT notation FROM moves WHERE kind = 'move'"
                                         " ORDER BY seq")]
    finally:
        db.close()


async def test_a_kit_from_outside_the_product_is_offered_played_and_explained(fake, kit_bot):
    commands = {c["name"]: c for c in fake.commands["global"]}
    play = {o["name"]: o for o in commands["play"]["options"]}
    assert {c["value"] for c in play["game"]["choices"]} == {
        "progressive-mancala", "pastoral-square", "consequence", "ghostone", "ico", GAME.id}

    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, game=GAME.id, first="me")
    assert f"<@{alice}>, your turn" in says(board)
    assert set(board_buttons(fake, board)) == {f + r for f in "abc" for r in "123"}
    assert decode_png(fake.attachment_bytes(board)[0]).format == "PNG"
    for user, square in ((alice, "a1"), (bob, "b1"), (alice, "a2"), (bob, "b2")):
        board = await play_button(fake, user, board, square)
        assert f"played `{square}`" in says(board)
    board = await play_button(fake, alice, board, "a3")
    assert "Alice has three in a row" in says(board)
    assert board_buttons(fake, board) == {}

    rules = await fake.answered(await fake.slash(alice, "rules", game=GAME.id))
    assert says(rules.original).startswith("**Tic-tac-toe**")
    assert is_ephemeral(rules.original)


async def test_the_ai_plays_a_kit_without_knowledge_of_its_own(fake, kit_bot):
    alice = fake.add_user("Alice")
    opened = await fake.answered(await fake.slash(alice, "play", game=GAME.id, ai="easy",
                                                  first="me"))
    assert is_ephemeral(opened.original)
    rng = random.Random(3)
    for _ in range(20):
        state = GAME.new(2)
        for notation in logged(kit_bot.database):
            state = GAME.play(state, notation)
        if GAME.outcome(state) is not None:
            break
        if state.to_move == 0:
            board = await fake.wait_for(
                lambda: boards(fake) and (b := boards(fake)[-1]) and set(board_buttons(fake, b)) and b,
                what="a board with Alice's buttons")
            await play_button(fake, alice, board, rng.choice(GAME.legal_notations(state)))
        else:
            count = len(logged(kit_bot.database))
            await fake.wait_for(lambda count=count: len(logged(kit_bot.database)) > count,
                                timeout=30, what="the AI's move")
    else:
        raise AssertionError("the match did not end")
    final = await posted(fake, lambda m: "🏁" in says(m), "the final board")
    assert "Corral (easy)" in says(final)
