"""End-to-end scenarios: what players do wrong, what the network does wrong, and restarts."""

from __future__ import annotations

import asyncio

from discord_fake import UserRef
from e2e_helpers import (board_buttons, boards, challenge_and_accept, is_ephemeral,
                         play_button, play_slash)


def texts(record) -> list[str]:
    return [m["content"] for m in record.messages()]


async def test_autocomplete_offers_exactly_the_callers_legal_moves(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")  # k emptied: Bob to move
    record = await fake.answered(await fake.autocomplete(bob, "move", "notation", notation=""))
    # after k -> f -> goal: pits f and k are empty
    assert [c["value"] for c in record.choices] == list("abcdeghij")
    record = await fake.answered(await fake.autocomplete(bob, "move", "notation", notation="C"))
    assert [c["value"] for c in record.choices] == ["c"]
    record = await fake.answered(await fake.autocomplete(alice, "move", "notation", notation=""))
    assert record.choices == []  # not Alice's turn
    stranger = fake.add_user("Stranger")
    record = await fake.answered(await fake.autocomplete(stranger, "move", "notation",
                                                         notation=""))
    assert record.choices == []


async def test_strangers_out_of_turn_clicks_and_illegal_moves_change_nothing(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    posted = len(fake.channel_messages())
    stranger = await fake.answered(await fake.click(carol, board, board_buttons(fake, board)["k"]))
    assert stranger.kind == 4 and is_ephemeral(stranger.original)
    assert "You are not playing in match" in stranger.original["content"]
    early = await fake.answered(await fake.click(bob, board, board_buttons(fake, board)["k"]))
    assert is_ephemeral(early.original)
    assert "It is not your turn: match" in early.original["content"] and "Alice" in early.original["content"]
    illegal = await play_slash(fake, alice, "z")
    assert is_ephemeral(illegal.original)
    assert "`z` can't be played: 'z' is not a pit: expected a letter a-k" in illegal.original["content"]
    await fake.settle()
    assert len(fake.channel_messages()) == posted  # nothing public was posted
    assert set(board_buttons(fake, fake.messages[int(board["id"])])) == set("abcdefghijk")
    moved = await play_slash(fake, alice, "k")  # the match goes on from the same place
    assert "played `k`" in moved.original["content"]
    empty = await play_slash(fake, bob, "k")
    assert "`k` can't be played: that pit is empty." in empty.original["content"]
    await play_slash(fake, bob, "c")
    # the first board still carries its buttons (moves were made with /move): now stale
    stale = await fake.answered(await fake.click(alice, board, board_buttons(fake, board)["a"]))
    assert is_ephemeral(stale.original) and "out of date" in stale.original["content"]
    assert len(boards(fake)) == 3  # first board, after k, after c


async def test_a_double_click_applies_exactly_one_move(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    before = len(boards(fake))
    button = board_buttons(fake, board)["k"]
    first, second = await asyncio.gather(fake.click(alice, board, button),
                                         fake.click(alice, board, button))
    await fake.answered(first)
    await fake.answered(second)
    await fake.settle(0.5)
    assert len(boards(fake)) == before + 1
    answers = sorted([first.kind, second.kind])
    assert answers == [4, 7]  # one move, one ephemeral refusal
    refusal = first if first.kind == 4 else second
    assert is_ephemeral(refusal.original)
    assert "out of date" in refusal.original["content"] or "changed while" in refusal.original["content"]
    assert "played `k`" in boards(fake)[-1]["content"]


async def test_the_bot_is_killed_mid_match_and_old_buttons_still_work(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")
    board = await play_button(fake, bob, board, "c")
    await bot.kill()
    await bot.start()
    assert fake.identified == 2
    board = await play_button(fake, alice, board, "h")  # the button from before the kill
    assert "played `h`" in board["content"] and f"<@{bob}>, your turn" in board["content"]
    record = await play_slash(fake, bob, "k")
    assert "played `k`" in record.original["content"]
    assert "Alice 2 · Bob 6" in record.original["content"]


async def test_a_player_with_closed_dms_is_told_where_to_look(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.close_dms(bob)
    record = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                  opponent=UserRef(bob), first="me"))
    invitation = record.original
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    click = await fake.answered(await fake.click(bob, invitation, accept))
    notes = await fake.wait_for(lambda: [m for m in click.followups if is_ephemeral(m)],
                                what="the closed-DM note")
    assert "couldn't send you a direct message" in notes[0]["content"]
    assert f"<#{fake.channel_id}>" in notes[0]["content"]
    assert fake.dm_messages(bob) == []
    assert "has started" in fake.dm_messages(alice)[0]["content"]
    board = boards(fake)[-1]
    board = await play_button(fake, alice, board, "k")  # the match carries on
    assert f"<@{bob}>, your turn" in board["content"]


async def test_a_429_on_posting_the_board_delays_it_but_never_loses_or_doubles_it(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    fake.rate_limit("POST", r"/webhooks/\d+/[^/]+", times=1, retry_after=0.4)
    before = len(boards(fake))
    board = await play_button(fake, alice, board, "k")
    await fake.settle(0.6)
    assert len(boards(fake)) == before + 1
    assert "played `k`" in board["content"]
    limited = [r for r in fake.requests if r.status == 429]
    assert len(limited) == 1
    record = await play_slash(fake, bob, "c")
    assert "played `c`" in record.original["content"]


async def test_the_gateway_drops_and_the_bot_resumes(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    await fake.drop_gateway()
    await fake.wait_for(lambda: fake.resumed >= 1, timeout=20, what="a RESUME")
    await asyncio.wait_for(fake.ready.wait(), 10)
    board = await play_button(fake, alice, board, "k")
    assert "played `k`" in board["content"]
    assert fake.identified == 1  # resumed, not re-identified


async def test_lobby_join_and_start_then_resign(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    record = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                  options="pits=17", first="opponent"))
    lobby = record.original
    assert "opened a lobby" in lobby["content"] and "pits=17" in lobby["content"]
    ids = {c.split(":")[2]: c for c in fake.custom_ids(lobby)}
    early = await fake.answered(await fake.click(alice, lobby, ids["start"]))
    assert "needs at least 2 players" in early.original["content"]
    joined = await fake.answered(await fake.click(bob, lobby, ids["join"]))
    assert joined.kind == 7 and "Bob" in fake.messages[int(lobby["id"])]["content"]
    full = await fake.answered(await fake.click(carol, lobby, ids["join"]))
    assert "is full" in full.original["content"]
    not_host = await fake.answered(await fake.click(bob, lobby, ids["start"]))
    assert "Only the host, Alice" in not_host.original["content"]
    await fake.answered(await fake.click(alice, lobby, ids["start"]))
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    assert f"<@{bob}>, your turn" in board["content"]  # first=opponent
    assert set(board_buttons(fake, board)) == set("abcdefghijklmnopq")
    matches = await fake.answered(await fake.slash(bob, "matches"))
    assert "**your turn**" in matches.original["content"] and is_ephemeral(matches.original)
    confirm = await fake.answered(await fake.slash(alice, "resign"))
    assert is_ephemeral(confirm.original) and "Resign match" in confirm.original["content"]
    done = await fake.answered(await fake.click(alice, confirm.original,
                                                fake.custom_ids(confirm.original)[0]))
    final = await fake.wait_for(lambda: done.followups and done.followups[-1], what="result")
    assert "Alice** resigned" in final["content"] and "Bob** won" in final["content"]
    again = await play_slash(fake, bob, "a")
    assert "no match in this channel" in again.original["content"]


async def test_abort_board_rules_help_and_threads(fake, bot):
    alice, bob, mod = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Mod")
    denied = await fake.answered(await fake.slash(alice, "corral", subcommand="settings",
                                                  threads=True))
    assert "Only server managers" in denied.original["content"]
    ok = await fake.answered(await fake.slash(mod, "corral", subcommand="settings",
                                              threads=True, manager=True))
    assert "thread of their own" in ok.original["content"]
    record = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                  opponent=UserRef(bob), first="me"))
    thread_id = await fake.wait_for(lambda: [c for c, ch in fake.channels.items()
                                             if ch["type"] == 11], what="a thread")
    thread_id = thread_id[0]
    assert f"<#{thread_id}>" in record.original["content"]
    invitation = fake.channel_messages(thread_id)[0]
    assert fake.pinged(invitation) == {bob}
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    await fake.wait_for(lambda: boards(fake, thread_id), what="the board in the thread")
    board = await fake.answered(await fake.slash(bob, "board", channel_id=thread_id))
    assert is_ephemeral(board.original) and board.original["attachments"]
    assert board_buttons(fake, board.original) == {}  # not Bob's turn: no buttons for him
    abort = await fake.answered(await fake.slash(alice, "abort", channel_id=thread_id))
    assert "only a server manager" in abort.original["content"]
    aborted = await fake.answered(await fake.slash(mod, "abort", channel_id=thread_id,
                                                   manager=True))
    assert "was aborted by **Mod**" in aborted.original["content"]
    rules = await fake.answered(await fake.slash(alice, "rules", game="progressive-mancala"))
    assert "Progressive Mancala" in rules.original["content"] and is_ephemeral(rules.original)
    every = await fake.answered(await fake.slash(alice, "rules"))
    texts = await fake.wait_for(lambda: len(every.messages()) == 5 and every.messages(),
                                what="five rule summaries")
    assert all(is_ephemeral(m) and len(m["content"]) <= 2000 for m in texts)
    assert {m["content"].split("**")[1] for m in texts} == {
        "Progressive Mancala", "Pastoral Square", "Consequence", "Ghostone", "ICO"}
    helped = await fake.answered(await fake.slash(alice, "help"))
    assert "/play" in helped.original["content"]
