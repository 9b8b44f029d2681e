"""Faults as a real deployment meets them: Discord answering 5xx, processing a request and then
answering 502, answering slowly, refusing with 50013, the gateway down past the answer
deadline, slow thread creation with a retried /play. For each: every committed move's board is
posted exactly once and in order, every turn's mention is sent once, nothing is stuck."""

from __future__ import annotations

import asyncio
import re
import sqlite3

from discord_fake import UserRef
from e2e_helpers import (
    board_buttons,
    boards,
    challenge_and_accept,
    components,
    is_ephemeral,
    next_board,
    only_live,
    open_invitation,
    play_button,
    play_slash,
    posted,
    says,
    slash_move,
)

from bot.quick import WINDOW

MESSAGES = r"/channels/\d+/messages"
CALLBACK = r"/interactions/\d+/[^/]+/callback"
FOLLOW_UP = r"/webhooks/\d+/[^/]+"  # a move's board answers its interaction with a follow-up


def logged_moves(bot) -> int:
    db = sqlite3.connect(bot.database)
    count = db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    db.close()
    return count


def board_plies(fake, channel_id=None) -> list[int]:
    """Which position each board shows, from its Moves... or simply its order of posting:
    the number of `played` lines seen so far."""
    return [int(m) for b in boards(fake, channel_id)
            for m in re.findall(r"move (\d+)", says(b))]


async def test_five_500s_on_a_board_post_delay_it_but_it_is_posted_once(fake, bot):
    """The first board (posted in the channel: Accept makes no move to follow up)."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    invitation = await open_invitation(fake, alice, bob)
    fake.fail("POST", MESSAGES, status=500, times=5)  # discord.py retries 4, the outbox the 5th
    record = await fake.answered(await fake.click(bob, invitation, next(
        c for c in fake.custom_ids(invitation) if ":accept:" in c)))
    assert record.kind == 7  # accepted at once
    first = await next_board(fake, 0, what="the first board after five 500s", timeout=40)
    assert f"<@{alice}>, your turn" in says(first) and fake.pinged(first) == {alice}
    await fake.settle(0.5)
    assert len(boards(fake)) == 1


async def test_five_500s_on_a_follow_up_delay_the_board_but_it_is_posted_once(fake, bot):
    """A follow-up is sent once per attempt (no nonce exists for it): each 500 is the outbox's
    retry, which first looks in the channel for a board posted with its answer lost."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob)
    fake.fail("POST", FOLLOW_UP, status=500, times=5)
    before = len(boards(fake))
    record = await fake.answered(await fake.click(alice, board, board_buttons(fake, board)["k"]))
    assert record.kind == 7
    after = await next_board(fake, before, what="the board after five 500s", timeout=40)
    assert "played `k`" in says(after) and fake.pinged(after) == {bob}
    assert after["interaction_metadata"]["id"] == str(record.id)  # still the click's follow-up
    await fake.settle(0.5)
    assert len(boards(fake)) == before + 1 and logged_moves(bot) == 1


async def test_a_post_processed_then_answered_502_is_not_posted_twice(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    invitation = await open_invitation(fake, alice, bob)
    fake.fail("POST", MESSAGES, status=502, times=1, processed=True)
    await fake.answered(await fake.click(bob, invitation, next(
        c for c in fake.custom_ids(invitation) if ":accept:" in c)))
    first = await next_board(fake, 0, what="the first board")
    await fake.settle(2.5)  # discord.py's own retry comes after a second
    assert len(boards(fake)) == 1  # the retry carried the same nonce
    assert board_buttons(fake, first)


async def test_a_follow_up_processed_then_answered_502_is_not_posted_twice(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob)
    fake.fail("POST", FOLLOW_UP, status=502, times=1, processed=True)
    before = len(boards(fake))
    after = await play_button(fake, alice, board, "k")
    await fake.settle(2.0)  # the outbox's retry found the board and posted nothing
    assert len(boards(fake)) == before + 1
    assert "played `k`" in says(after)
    assert any(r.method == "GET" and re.fullmatch(MESSAGES, r.path) for r in fake.requests)
    await only_live(fake, after)
    _, nxt = await slash_move(fake, bob, "c")  # and the match goes on from that board
    assert "played `c`" in says(nxt)


async def test_a_lost_answer_to_a_click_still_gets_the_board_posted(fake, bot):
    """Five 500s on the interaction answer: the answer never gets through (Discord then says
    10062), but the move is saved and the outbox posts its board and retires the old one."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob)
    fake.fail("POST", CALLBACK, status=500, times=5)
    before = len(boards(fake))
    await fake.click(alice, board, board_buttons(fake, board)["k"])
    after = await next_board(fake, before, what="the board after a lost answer", timeout=30)
    fake.faults.clear()  # the answer expired (10062) before all five were used
    assert "played `k`" in says(after) and fake.pinged(after) == {bob}
    await only_live(fake, after)  # the clicked board lost its buttons all the same
    _, nxt = await slash_move(fake, bob, "c")
    assert "played `c`" in says(nxt)


async def test_a_click_answered_too_late_still_leaves_only_the_new_board_live(fake, bot):
    """The click's answer, which takes the clicked board's buttons away, arrives after the
    deadline (10062): the move stands, and the outbox takes them away instead."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob)
    fake.response_deadline = 0.3
    fake.slow("POST", CALLBACK, 0.6, times=1)
    before = len(boards(fake))
    await fake.click(alice, board, board_buttons(fake, board)["k"])
    after = await next_board(fake, before, what="the board after a late answer", timeout=20)
    assert "played `k`" in says(after)
    await only_live(fake, after)


async def test_a_click_replayed_after_a_gateway_outage_past_the_deadline(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob)
    fake.response_deadline = 0.3  # the outage lasts longer than Discord waits for an answer
    await fake.drop_gateway()
    before = len(boards(fake))
    record = await fake.click(alice, board, board_buttons(fake, board)["k"])
    await fake.wait_for(lambda: fake.resumed >= 1, timeout=30, what="a RESUME")
    after = await next_board(fake, before, what="the board of the replayed click", timeout=20)
    assert record.kind is None or record.kind == 7  # the late answer was refused with 10062
    assert "played `k`" in says(after)
    await only_live(fake, after)
    assert logged_moves(bot) == 1


async def test_a_slow_board_post_never_lets_a_newer_board_overtake_it(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    await challenge_and_accept(fake, alice, bob)
    fake.slow("POST", MESSAGES, 4.0, times=1)
    first = await play_slash(fake, alice, "k")  # its board is held up for 4 s
    assert "You played" in says(first.original)
    second = await play_slash(fake, bob, "c")  # Bob moves before seeing it
    assert "You played" in says(second.original)
    await fake.wait_for(lambda: len(boards(fake)) == 3, timeout=20, what="both boards")
    second_board = boards(fake)[-1]
    # the second board waited for the first: the boards went out in order (the second one
    # shown in place of the first when Bob and Alice were there, bot/quick.py)
    bodies = [r.json for r in fake.requests if r.status == 200 and isinstance(r.json, dict)]
    shown = [fake.text_of(b) for b in bodies if "played `" in fake.text_of(b)]
    assert len(shown) == 2 and "played `k`" in shown[0] and "played `c`" in shown[1]
    # Bob's mention goes out once, or not at all when his move was committed before the
    # delayed board was built (he no longer needs telling); never to anyone else
    first_pings = [b.get("allowed_mentions") for b in bodies
                   if "played `k`" in fake.text_of(b)]
    assert (first_pings[0] or {}).get("users", []) in ([], [bob], [str(bob)])
    assert f"<@{alice}>, your turn" in says(second_board)
    await only_live(fake, second_board)


async def test_a_slow_thread_and_a_retried_play_make_one_match(fake, bot):
    alice, bob, mod = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Mod")
    await fake.answered(await fake.slash(mod, "corral", subcommand="settings", threads=True,
                                         manager=True))
    fake.slow("POST", r"/channels/\d+/threads", 3.5, times=1)
    first = await fake.slash(alice, "play", game="progressive-mancala", opponent=UserRef(bob))
    await fake.answered(first)
    assert first.kind == 5  # deferred before the slow thread: no 10062
    await asyncio.sleep(0.3)
    retry = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                 opponent=UserRef(bob)))
    assert is_ephemeral(retry.original)
    assert "is being opened in a thread" in says(retry.original)
    threads = await fake.wait_for(lambda: [c for c, ch in fake.channels.items()
                                           if ch["type"] == 11], what="the thread", timeout=15)
    assert len(threads) == 1
    invitation = await posted(fake, lambda m: fake.custom_ids(m), "the invitation", threads[0])
    again = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                 opponent=UserRef(bob)))
    assert f"already open in <#{threads[0]}>" in says(again.original)
    assert fake.pinged(invitation) == {bob}
    db = sqlite3.connect(bot.database)
    assert db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 1
    db.close()


async def test_no_permission_in_the_thread_posts_the_lobby_in_its_parent(fake, bot):
    alice, bob, mod = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Mod")
    await fake.answered(await fake.slash(mod, "corral", subcommand="settings", threads=True,
                                         manager=True))
    fake.deny(fake.channel_id, "send_in_threads")
    await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                         opponent=UserRef(bob)))
    invitation = await posted(fake, lambda m: any(":accept:" in c for c in fake.custom_ids(m)),
                              "the invitation in the parent channel", timeout=15)
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    before = len(boards(fake))
    await fake.answered(await fake.click(bob, invitation, accept))
    board = await next_board(fake, before, what="the first board, in the parent too")
    assert board_buttons(fake, board)


async def test_no_permission_to_make_threads_opens_the_match_in_the_channel(fake, bot):
    alice, bob, mod = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Mod")
    await fake.answered(await fake.slash(mod, "corral", subcommand="settings", threads=True,
                                         manager=True))
    fake.deny(fake.channel_id, "create_thread")
    record = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                  opponent=UserRef(bob)))
    await fake.wait_for(lambda: any("I may not create threads here" in says(m)
                                    for m in record.messages()), what="the answer")
    await posted(fake, lambda m: any(":accept:" in c for c in fake.custom_ids(m)),
                 "the invitation")


async def test_an_expiry_notice_refused_with_50013_is_retried_until_it_is_posted(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    await challenge_and_accept(fake, alice, bob, time="1h")
    fake.deny(fake.channel_id, "send")
    bot.advance(3601)
    await fake.wait_for(lambda: any(r.status == 403 for r in fake.requests), what="a 50013")
    assert not [m for m in fake.channel_messages() if "time is up" in says(m)]
    fake.allow(fake.channel_id, "send")
    expiry = await posted(fake, lambda m: "time is up" in says(m), "the expiry notice",
                          timeout=20)
    before = len(boards(fake))
    await fake.answered(await fake.click(bob, expiry, fake.custom_ids(expiry)[0]))
    final = await next_board(fake, before, what="the claimed result")
    assert "Bob claimed the win" in says(final)


async def test_a_board_for_a_hidden_information_game_waits_for_the_permission(fake, bot):
    """Without Send Messages the move's board still arrives (a follow-up of the move's
    interaction needs no channel permission), and a board posted in the channel (the
    interaction's token gone) waits until the permission is back."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, game="consequence")
    fake.deny(fake.channel_id, "send")
    step = await fake.answered(await fake.click(alice, board, next(
        c for c in fake.custom_ids(board) if c.startswith("c1:p:"))))
    assert is_ephemeral(step.original)
    await fake.answered(await fake.slash(alice, "move", notation="BM@b2"))
    after = await next_board(fake, 1, what="the board as a follow-up")
    assert "played `B@b2`" in says(after) and fake.pinged(after) == {bob}
    assert "BM" not in says(after)  # the tile stays hidden
    fake.token_lifetime = 0  # Discord forgets the tokens: boards go to the channel
    bot.advance(WINDOW + 1)  # and Alice is away: her turn's board is a new one, not an edit
    legal = await fake.answered(await fake.autocomplete(bob, "move", "notation", notation=""))
    choice = legal.choices[0]["value"]
    moved = await fake.answered(await fake.slash(bob, "move", notation=choice))
    assert "You played" in says(moved.original), says(moved.original)
    await fake.settle(0.8)
    assert len(boards(fake)) == 2
    fake.allow(fake.channel_id, "send")
    last = await next_board(fake, 2, what="the board once allowed", timeout=20)
    assert "**Bob** played" in says(last) and fake.pinged(last) == {alice}


async def test_buttons_posted_by_earlier_versions_still_play(fake, bot):
    """Boards already on servers keep the custom ids they were posted with: a step button
    (`c1:s:`) and a move button of boards from before the step flow (`corral:mv:`) play
    their move after an upgrade, and the malformed id next to them is refused in words."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob)
    match_id = int(board_buttons(fake, board)["k"].split(":")[2])
    old = dict(board, components=[{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "k", "custom_id": f"corral:mv:{match_id}:0:k"},
        {"type": 2, "style": 1, "label": "j", "custom_id": f"corral:mv:{match_id}:x:j"}]}])
    fake.messages[int(old["id"])] = old
    refused = await fake.answered(await fake.click(alice, old, f"corral:mv:{match_id}:x:j"))
    assert is_ephemeral(refused.original) and len(says(refused.original)) < 300
    assert logged_moves(bot) == 0
    played = await fake.answered(await fake.click(alice, old, f"corral:mv:{match_id}:0:k"))
    assert "You played `k`" in says(played.original), says(played.original)
    # (the forged old board shows its picture again once the outbox retires it: the board
    # after the move is found by what it says)
    second = await posted(fake, lambda m: "**Alice** played `k`" in says(m),
                          "the board after the old button's move")
    assert fake.pinged(second) == {bob}
    step = next(c for c in fake.custom_ids(second) if c.startswith(f"c1:s:{match_id}:1:"))
    assert re.fullmatch(rf"c1:s:{match_id}:1:[a-z]", step)  # the id format boards carry
    await fake.answered(await fake.click(bob, second, step))
    await posted(fake, lambda m: "**Bob** played" in says(m),
                 "the board after the step button's move")
    assert logged_moves(bot) == 2


async def test_forged_buttons_and_oversized_input_get_short_answers(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    board = await challenge_and_accept(fake, alice, bob)
    posted_before = len(fake.requests)
    # the same button copied onto a message in another channel: refused, nothing played
    forged = dict(board, id=str(fake.new_id()), channel_id=str(fake.other_channel_id))
    fake.messages[int(forged["id"])] = forged
    wrong = await fake.answered(await fake.click(alice, forged, board_buttons(fake, board)["k"]))
    assert "not played in this channel" in says(wrong.original)
    for custom_id in ("c1:s:99999999999999999999:0:k", "c1:zz:1", "corral:lobby:join:1",
                      "c1:s:1:0:k" + "/k" * 40):
        fake_message = dict(board, id=str(fake.new_id()), attachments=[], components=[
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x",
                                        "custom_id": custom_id[:100]}]}])
        fake.messages[int(fake_message["id"])] = fake_message
        answer = await fake.answered(await fake.click(alice, fake_message, custom_id[:100]))
        assert is_ephemeral(answer.original) and len(says(answer.original)) < 300
    long = await play_slash(fake, alice, "k" * 1000)
    assert len(says(long.original)) < 300 and "is not a move" in says(long.original)
    weird = await play_slash(fake, alice, "a²-b2\u0000\u202e")
    assert "is not a move" in says(weird.original) and "\u0000" not in \
        says(weird.original)
    huge = await fake.answered(await fake.slash(carol, "play", game="progressive-mancala",
                                                time="9" * 4400 + "d"))
    assert "is not a time per move" in says(huge.original)
    assert len(says(huge.original)) < 300
    await fake.settle(0.3)
    assert logged_moves(bot) == 0
    assert not [r for r in fake.requests[posted_before:]
                if r.method == "POST" and re.fullmatch(MESSAGES, r.path)]  # nothing posted
    assert components(fake.messages[int(board["id"])])  # the real board is untouched
