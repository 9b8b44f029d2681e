"""The errors a live server produces, and what the bot does about each: a retried move after a
lost answer, an interaction token Discord no longer knows, a deleted channel (10003), an
archived or locked thread (50083). Nothing is lost or doubled; the players are told what a
player would want to know."""

from __future__ import annotations

import sqlite3

from discord_fake import UserRef
from e2e_helpers import (
    board_buttons,
    boards,
    challenge_and_accept,
    is_ephemeral,
    next_board,
    only_live,
    play_button,
    play_slash,
    posted,
    says,
    slash_move,
)

CALLBACK = r"/interactions/\d+/[^/]+/callback"


def logged_moves(bot) -> int:
    db = sqlite3.connect(bot.database)
    count = db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    db.close()
    return count


def match_status(bot) -> str:
    db = sqlite3.connect(bot.database)
    status = db.execute("SELECT status FROM matches").fetchone()[0]
    db.close()
    return status


async def test_a_retyped_move_after_a_lost_answer_is_not_played_twice(fake, bot):
    """Alice's `d` gives her a bonus turn, with `d` legal again. The answer to her /move is
    lost (five 500s: Discord shows her "the application did not respond"), so she types it
    again: the bot asks before playing it a second time, and plays it only when she says so."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "a")
    board = await play_button(fake, bob, board, "a")  # Alice gives Bob a bonus move
    board = await play_button(fake, bob, board, "b")
    fake.fail("POST", CALLBACK, status=500, times=5)
    before = len(boards(fake))
    await fake.slash(alice, "move", notation="d")
    after = await next_board(fake, before, what="the board of the first d", timeout=30)
    fake.faults.clear()
    assert "played `d`" in says(after)
    assert logged_moves(bot) == 4
    retry = await play_slash(fake, alice, "d")  # the same words again, a moment later
    assert is_ephemeral(retry.original)
    assert "a moment ago" in says(retry.original), says(retry.original)
    await fake.settle(0.5)
    assert logged_moves(bot) == 4 and len(boards(fake)) == before + 1  # nothing played
    again = next(c for c in fake.custom_ids(retry.original) if c.startswith("c1:y:"))
    record = await fake.answered(await fake.click(alice, retry.original, again))
    assert record.kind == 7 and "You played `d`" in fake.messages[int(retry.original["id"])][
        "content"]
    second = await next_board(fake, before + 1, what="the board of the second d")
    assert "played `d`" in says(second) and logged_moves(bot) == 5
    # the question answered, its button is gone: a second press is impossible, and the
    # same custom id sent again (a forged or replayed click) is refused by its move number
    assert fake.custom_ids(fake.messages[int(retry.original["id"])]) == []


async def test_a_repeated_move_long_after_is_played_at_once(fake, bot):
    """The question is only for a repeat within moments: later, the same move is a move."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "a")
    board = await play_button(fake, bob, board, "a")
    board = await play_button(fake, bob, board, "b")
    _, board = await slash_move(fake, alice, "d")
    bot.advance(600)
    _, board = await slash_move(fake, alice, "d")
    assert logged_moves(bot) == 5


async def test_a_board_after_the_token_is_gone_is_posted_in_the_channel(fake, bot):
    """Discord forgets an interaction's token after 15 minutes (50027): the board of a move
    whose follow-up is refused goes to the channel, once."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob)
    fake.token_lifetime = 0
    after = await play_button(fake, alice, board, "k")
    assert "played `k`" in says(after) and fake.pinged(after) == {bob}
    assert "interaction_metadata" not in after  # a channel post, not a follow-up
    refused = [r for r in fake.requests if r.path.startswith("/webhooks/") and r.status == 401]
    assert len(refused) == 1
    await fake.settle(0.5)
    assert len(boards(fake)) == 2
    await only_live(fake, after)


async def test_a_deleted_channel_ends_its_match_and_the_players_are_told(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    await challenge_and_accept(fake, alice, bob, time="1h")
    await fake.delete_channel(fake.channel_id)
    bot.advance(3601)  # the expiry notice finds the channel gone
    for user in (alice, bob):
        await fake.wait_for(lambda u=user: [m for m in fake.dm_messages(u)
                                            if "was deleted" in says(m)],
                            what="the DM about the deleted channel", timeout=15)
    await fake.settle(1.0)
    assert match_status(bot) == "aborted"
    for user in (alice, bob):
        assert len([m for m in fake.dm_messages(user) if "was deleted" in says(m)]) == 1
    # nothing keeps knocking on the deleted channel
    knocks = [r for r in fake.requests if str(fake.channel_id) in r.path and r.status == 404]
    assert 1 <= len(knocks) <= 3
    await fake.settle(1.5)
    assert len([r for r in fake.requests if str(fake.channel_id) in r.path
                and r.status == 404]) == len(knocks)


async def thread_match(fake, alice: int, bob: int, **more):
    """A match opened in a thread of its own (the server's setting); its thread and board."""
    mod = fake.add_user("Mod")
    await fake.answered(await fake.slash(mod, "corral", subcommand="settings", threads=True,
                                         manager=True))
    await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                         opponent=UserRef(bob), first="me", **more))
    threads = await fake.wait_for(lambda: [c for c, ch in fake.channels.items()
                                           if ch["type"] == 11], what="the thread")
    thread = threads[0]
    invitation = await posted(fake, lambda m: any(":accept:" in c for c in fake.custom_ids(m)),
                              "the invitation", thread)
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    board = await next_board(fake, 0, thread, "the first board")
    return thread, board


async def test_an_archived_thread_is_opened_again_by_the_next_move(fake, bot):
    """A correspondence thread goes quiet and Discord archives it; the next move's answer and
    board open it again, and the old board's buttons are still taken away."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    thread, board = await thread_match(fake, alice, bob)
    board = await play_button(fake, alice, board, "k", thread)
    fake.archive_thread(thread)
    _, board = await slash_move(fake, bob, "c", thread)
    assert "played `c`" in says(board)
    assert not fake.channels[thread]["thread_metadata"]["archived"]
    await only_live(fake, board, thread)


async def test_a_locked_thread_sends_the_match_to_its_parent_channel(fake, bot):
    """A moderator locked the match's thread: what the bot must post goes to the parent
    channel instead, and edits it cannot make in the thread are not retried forever."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    thread, board = await thread_match(fake, alice, bob, time="1h")
    board = await play_button(fake, alice, board, "k", thread)
    fake.archive_thread(thread, locked=True)
    bot.advance(3601)
    notice = await posted(fake, lambda m: "time is up" in says(m), "the expiry notice",
                          fake.channel_id, timeout=20)
    assert board_buttons(fake, notice) == {} and fake.custom_ids(notice)  # Claim the win
    await fake.settle(1.5)
    archived = [r for r in fake.requests if r.status == 400 and str(thread) in r.path]
    assert len(archived) <= 4  # tried, then sent to the parent: no retry loop
