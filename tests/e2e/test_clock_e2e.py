"""Play across days in Discord: reminders and a timeout claim, and a takeback, driven through
the bot's clock file (nothing sleeps for real)."""

from __future__ import annotations

from discord_fake import UserRef
from e2e_helpers import board_buttons, boards, challenge_and_accept, is_ephemeral, play_button

HOUR = 3600


async def test_reminders_then_a_claim_after_the_time_runs_out(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    record = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                  opponent=UserRef(bob), first="me", time="1h"))
    accept = next(c for c in fake.custom_ids(record.original) if ":accept:" in c)
    await fake.answered(await fake.click(bob, record.original, accept))
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    assert "1h left for this move" in board["content"]

    def reminders():
        return [m["content"] for m in fake.dm_messages(alice) if "left for your move" in m["content"]]

    bot.advance(31 * 60)
    await fake.wait_for(lambda: len(reminders()) == 1, what="the half-time reminder")
    assert "Half your time is gone" in reminders()[0]
    bot.advance(25 * 60)
    await fake.wait_for(lambda: len(reminders()) == 2, what="the last reminder")
    assert "Little time is left" in reminders()[1]
    await fake.settle(0.4)
    assert len(reminders()) == 2  # never twice
    bot.advance(5 * 60)
    expiry = (await fake.wait_for(
        lambda: [m for m in fake.channel_messages() if "time is up" in m["content"]],
        what="the expiry notice"))[0]
    assert fake.pinged(expiry) == {bob}
    await fake.settle(0.4)
    assert len([m for m in fake.channel_messages() if "time is up" in m["content"]]) == 1
    claim = fake.custom_ids(expiry)[0]
    own = await fake.answered(await fake.click(alice, expiry, claim))
    assert is_ephemeral(own.original) and "Only Alice's opponents can claim" in own.original["content"]
    stranger = await fake.answered(await fake.click(carol, expiry, claim))
    assert "not playing" in stranger.original["content"]
    done = await fake.answered(await fake.click(bob, expiry, claim))
    final = await fake.wait_for(lambda: done.followups and done.followups[-1], what="the result")
    assert "Bob** claimed match" in final["content"] and "won match" in final["content"]
    assert "on time" in final["content"]
    assert any("rematch" in c for c in fake.custom_ids(final))
    late = await play_button_refused(fake, alice, board)
    assert "is over" in late


async def play_button_refused(fake, user, board):
    record = await fake.answered(await fake.click(user, board, board_buttons(fake, board)["k"]))
    return record.original["content"]


async def test_a_takeback_accepted_by_the_opponent(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "h")  # h -> goal: Bob to move
    early = await fake.answered(await fake.slash(bob, "takeback"))
    assert is_ephemeral(early.original) and "only your own last move" in early.original["content"]
    ask = await fake.answered(await fake.slash(alice, "takeback"))
    offer = ask.original
    assert not is_ephemeral(offer) and "take back `h`" in offer["content"]
    assert fake.pinged(offer) == {bob}
    accept = next(c for c in fake.custom_ids(offer) if c.endswith(":accept"))
    own = await fake.answered(await fake.click(alice, offer, accept))
    assert "your own offer" in own.original["content"]
    stranger = await fake.answered(await fake.click(carol, offer, accept))
    assert "not playing" in stranger.original["content"]
    yes = await fake.answered(await fake.click(bob, offer, accept))
    assert yes.kind == 7
    after = await fake.wait_for(lambda: yes.followups and yes.followups[-1], what="the board")
    assert f"<@{alice}>, your turn" in after["content"] and "Alice 0 · Bob 0" in after["content"]
    assert fake.custom_ids(fake.messages[int(offer["id"])]) == []  # the offer is closed
    board = await play_button(fake, alice, after, "k")
    assert "played `k`" in board["content"]
