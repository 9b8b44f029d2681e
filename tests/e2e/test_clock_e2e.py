"""Play across days in Discord: reminders and a timeout claim, and a takeback, driven through
the bot's clock file (nothing sleeps for real)."""

from __future__ import annotations

import re

from e2e_helpers import (
    board_buttons,
    boards,
    challenge_and_accept,
    components,
    is_ephemeral,
    next_board,
    only_live,
    play_button,
    posted,
    says,
)

HOUR = 3600


async def test_reminders_then_a_claim_after_the_time_runs_out(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    board = await challenge_and_accept(fake, alice, bob, first="me", time="1h")
    due = re.search(r"runs out <t:(\d+):R> \(<t:\1:f>\)", says(board))
    assert due and int(due.group(1)) == int(bot.now) + HOUR  # a live Discord timestamp

    def reminders():
        return [says(m) for m in fake.dm_messages(alice) if "runs out <t:" in says(m)]

    bot.advance(31 * 60)
    await fake.wait_for(lambda: len(reminders()) == 1, what="the half-time reminder")
    assert "Half your time is gone" in reminders()[0]
    bot.advance(25 * 60)
    await fake.wait_for(lambda: len(reminders()) == 2, what="the last reminder")
    assert "Little time is left" in reminders()[1]
    await fake.settle(0.4)
    assert len(reminders()) == 2  # never twice
    bot.advance(5 * 60)
    expiry = await posted(fake, lambda m: "time is up" in says(m), "the expiry notice")
    assert fake.pinged(expiry) == {bob}
    await fake.settle(0.4)
    assert len([m for m in fake.channel_messages() if "time is up" in says(m)]) == 1
    claim = fake.custom_ids(expiry)[0]
    own = await fake.answered(await fake.click(alice, expiry, claim))
    assert is_ephemeral(own.original)
    assert says(own.original) == ("It is your own turn: the claim is for your opponents. "
                                       "Play a move instead.")
    stranger = await fake.answered(await fake.click(carol, expiry, claim))
    assert "not playing" in says(stranger.original)
    before = len(boards(fake))
    done = await fake.answered(await fake.click(bob, expiry, claim))
    assert done.kind == 7
    final = await next_board(fake, before, what="the result")
    assert "Time ran out for Alice; Bob claimed the win" in says(final)
    assert fake.pinged(final) == {alice, bob}
    assert any(c.startswith("c1:m:") for c in fake.custom_ids(final))
    await only_live(fake, final)
    late = await fake.answered(await fake.click(alice, final, fake.custom_ids(final)[0]))
    assert late.kind in (4, 7)


async def test_a_takeback_accepted_by_the_opponent(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "h")  # h -> goal: Bob to move
    early = await fake.answered(await fake.slash(bob, "takeback"))
    assert is_ephemeral(early.original) and "only your own last move" in says(early.original)
    ask = await fake.answered(await fake.slash(alice, "takeback"))
    assert is_ephemeral(ask.original) and "offer is posted" in says(ask.original)
    offer = await posted(fake, lambda m: "take back `h`" in says(m), "the offer")
    assert fake.pinged(offer) == {bob}
    accept = next(c for c in fake.custom_ids(offer) if c.endswith(":a"))
    own = await fake.answered(await fake.click(alice, offer, accept))
    assert "your own offer" in says(own.original)
    stranger = await fake.answered(await fake.click(carol, offer, accept))
    assert "not playing" in says(stranger.original)
    before = len(boards(fake))
    yes = await fake.answered(await fake.click(bob, offer, accept))
    assert yes.kind == 7
    after = await next_board(fake, before, what="the board after the takeback")
    assert "`h` is taken back" in says(after)
    assert f"<@{alice}>, your turn" in says(after) and "Alice 0 · Bob 0" in says(after)
    assert components(fake.messages[int(offer["id"])]) == []  # the offer is closed
    board = await play_button(fake, alice, after, "k")
    assert "played `k`" in says(board)
    assert set(board_buttons(fake, board))
