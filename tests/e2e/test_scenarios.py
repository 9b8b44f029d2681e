"""End-to-end scenarios: what players do wrong, what the network does wrong, and restarts."""

from __future__ import annotations

import asyncio

from discord_fake import UserRef
from e2e_helpers import (
    board_buttons,
    boards,
    button_with,
    challenge_and_accept,
    components,
    is_ephemeral,
    live_boards,
    next_board,
    only_live,
    play_button,
    play_slash,
    posted,
    says,
    slash_move,
)


def texts(record) -> list[str]:
    return [says(m) for m in record.messages()]


async def test_autocomplete_offers_exactly_the_callers_legal_moves(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")  # k emptied: Bob to move
    record = await fake.answered(await fake.autocomplete(bob, "move", "notation", notation=""))
    # after k -> f -> goal: pits f and k are empty; each choice carries the ply it was made at
    assert [c["name"] for c in record.choices] == list("abcdeghij")
    assert [c["value"] for c in record.choices] == [f"{n} #1" for n in "abcdeghij"]
    record = await fake.answered(await fake.autocomplete(bob, "move", "notation", notation="C"))
    assert [c["value"] for c in record.choices] == ["c #1"]
    record = await fake.answered(await fake.autocomplete(alice, "move", "notation", notation=""))
    assert record.choices == []  # not Alice's turn
    stranger = fake.add_user("Stranger")
    record = await fake.answered(await fake.autocomplete(stranger, "move", "notation",
                                                         notation=""))
    assert record.choices == []


async def test_strangers_out_of_turn_clicks_and_illegal_moves_change_nothing(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    posted_count = len(fake.channel_messages())
    stranger = await fake.answered(await fake.click(carol, board, board_buttons(fake, board)["k"]))
    assert stranger.kind == 4 and is_ephemeral(stranger.original)
    assert "You are not playing in match" in says(stranger.original)
    early = await fake.answered(await fake.click(bob, board, board_buttons(fake, board)["k"]))
    assert is_ephemeral(early.original)
    assert says(early.original) == "It is not your turn: match #1 is waiting for Alice."
    illegal = await play_slash(fake, alice, "z")
    assert is_ephemeral(illegal.original)
    assert says(illegal.original) == "`z` is not a move: write the letter of a pit, a to k."
    await fake.settle()
    assert len(fake.channel_messages()) == posted_count  # nothing public was posted
    assert set(board_buttons(fake, fake.messages[int(board["id"])])) == set("abcdefghijk")
    _, after = await slash_move(fake, alice, "k")  # the match goes on from the same place
    assert "played `k`" in says(after)
    empty = await play_slash(fake, bob, "k")
    assert says(empty.original) == "`k` can't be played: pit k is empty."
    await slash_move(fake, bob, "c")
    # the first board lost its components when the next one was posted
    assert components(fake.messages[int(board["id"])]) == []
    assert len(boards(fake)) == 3  # first board, after k, after c
    await only_live(fake, boards(fake)[-1])


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
    assert answers == [4, 7]  # one move, one ephemeral answer
    other = first if first.kind == 4 else second
    assert is_ephemeral(other.original)
    assert "Already played: `k`" in says(other.original) \
        or "changed while" in says(other.original)
    assert "played `k`" in says(boards(fake)[-1])


async def test_a_repeated_move_whose_answer_was_lost_plays_once(fake, bot):
    """Progressive Mancala's extra moves keep the same player to move: a /move sent again
    for the same ply (as autocomplete fills it in) is recognised, not played twice."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    await challenge_and_accept(fake, alice, bob, first="me")
    # ends in an empty pit: Bob gets a bonus move
    _, before = await slash_move(fake, alice, "a #0")
    record, board = await slash_move(fake, bob, "a #1")
    assert f"<@{bob}>, your turn" in says(board)  # Bob is still to move
    # ... and is not pinged again for his extra move: he is there, the board is edited
    assert board["id"] == before["id"] and fake.pinged(board) == {bob}
    again = await play_slash(fake, bob, "a #1")  # the same /move, its answer lost
    assert says(again.original) == "Already played: `a` (move 2). The match has moved " \
        "on; see the newest board."
    await fake.settle(0.3)
    assert len(boards(fake)) == 3


async def test_the_bot_is_killed_mid_match_and_old_buttons_still_work(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")
    board = await play_button(fake, bob, board, "c")
    await bot.kill()
    await bot.start()
    assert fake.identified == 2
    board = await play_button(fake, alice, board, "h")  # the button from before the kill
    assert "played `h`" in says(board) and f"<@{bob}>, your turn" in says(board)
    _, board = await slash_move(fake, bob, "k")
    assert "played `k`" in says(board)
    assert "Alice 2 · Bob 6" in says(board)


async def test_a_player_with_closed_dms_is_told_where_to_look(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.close_dms(bob)
    await fake.answered(await fake.slash(bob, "notify", mode="both"))
    await fake.answered(await fake.slash(alice, "notify", mode="both"))
    board = await challenge_and_accept(fake, alice, bob, first="opponent")
    assert fake.dm_messages(bob) == []
    await fake.wait_for(lambda: [m for m in fake.dm_messages(alice) if "has started" in says(m)],
                        what="Alice's start DM")
    board = await play_button(fake, bob, board, "k")  # the match carries on
    assert f"<@{alice}>, your turn" in says(board)
    await fake.wait_for(lambda: [m for m in fake.dm_messages(alice)
                                 if "Your turn in match #1" in says(m)],
                        what="Alice's turn DM")
    # Bob is told alone, once, at an interaction of his, and not in the channel
    board = await play_button(fake, alice, board, "c")
    await fake.answered(await fake.slash(bob, "matches"))

    def notes():
        return [f for r in fake.interactions.values() for f in r.followups
                if "couldn't DM you" in says(f)]

    await fake.wait_for(notes, what="the note to Bob")
    await fake.answered(await fake.slash(bob, "matches"))
    await fake.settle(0.3)
    assert len(notes()) == 1 and notes()[0]["flags"] & 64
    assert notes()[0]["interaction_metadata"]["user"]["id"] == str(bob)
    assert f"Its board in <#{fake.channel_id}>" in says(notes()[0])
    assert not [m for m in fake.channel_messages() if "couldn't DM you" in says(m)]


async def test_a_429_on_posting_the_board_delays_it_but_never_loses_or_doubles_it(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    fake.rate_limit("POST", r"/webhooks/\d+/[^/]+", times=1, retry_after=0.4)  # its follow-up
    before = len(boards(fake))
    board = await play_button(fake, alice, board, "k")
    await fake.settle(0.6)
    assert len(boards(fake)) == before + 1
    assert "played `k`" in says(board)
    limited = [r for r in fake.requests if r.status == 429]
    assert len(limited) == 1
    _, board = await slash_move(fake, bob, "c")
    assert "played `c`" in says(board)


async def test_the_gateway_drops_and_the_bot_resumes(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    await fake.drop_gateway()
    await fake.wait_for(lambda: fake.resumed >= 1, timeout=20, what="a RESUME")
    await asyncio.wait_for(fake.ready.wait(), 10)
    board = await play_button(fake, alice, board, "k")
    assert "played `k`" in says(board)
    assert fake.identified == 1  # resumed, not re-identified


async def test_lobby_join_starts_when_full_then_resign(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    record = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                  options="pits=17", first="opponent"))
    assert is_ephemeral(record.original)
    lobby = await posted(fake, lambda m: "opened a lobby" in says(m), "the lobby")
    assert "pits=17" in says(lobby)
    ids = {c.split(":")[2]: c for c in fake.custom_ids(lobby)}
    early = await fake.answered(await fake.click(alice, lobby, ids["start"]))
    assert "needs at least 2 players" in says(early.original)
    not_host = await fake.answered(await fake.click(carol, lobby, ids["start"]))
    assert "Only the host, Alice" in says(not_host.original)
    joined = await fake.answered(await fake.click(bob, lobby, ids["join"]))  # full: it starts
    assert joined.kind == 7 and "has begun" in fake.messages[int(lobby["id"])]["content"]
    assert fake.custom_ids(fake.messages[int(lobby["id"])]) == []
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    assert f"<@{bob}>, your turn" in says(board)  # first=opponent
    assert set(board_buttons(fake, board)) == set("abcdefghijklmnopq")
    full = await fake.answered(await fake.click(carol, lobby, ids["join"])) \
        if ids["join"] in fake.custom_ids(fake.messages[int(lobby["id"])]) else None
    assert full is None
    matches = await fake.answered(await fake.slash(bob, "matches"))
    assert "**your turn**" in says(matches.original) and is_ephemeral(matches.original)
    confirm = await fake.answered(await fake.slash(alice, "resign"))
    assert is_ephemeral(confirm.original) and "Resign match" in says(confirm.original)
    before = len(boards(fake))
    done = await fake.answered(await fake.click(alice, confirm.original,
                                                fake.custom_ids(confirm.original)[0]))
    assert "You resigned" in fake.messages[int(confirm.original["id"])]["content"]
    assert done.kind == 7
    final = await next_board(fake, before, what="the final board")
    assert "Alice resigned: Bob wins" in says(final)
    assert fake.pinged(final) == {alice, bob}
    await only_live(fake, final)
    again = await play_slash(fake, bob, "a")
    assert "no match in this channel" in says(again.original)


async def test_abort_board_rules_help_and_threads(fake, bot):
    alice, bob, mod = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Mod")
    denied = await fake.answered(await fake.slash(alice, "corral", subcommand="settings",
                                                  threads=True))
    assert "Only server managers" in says(denied.original)
    ok = await fake.answered(await fake.slash(mod, "corral", subcommand="settings",
                                              threads=True, manager=True))
    assert "thread of their own" in says(ok.original)
    record = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                  opponent=UserRef(bob), first="me"))
    thread_id = (await fake.wait_for(lambda: [c for c, ch in fake.channels.items()
                                              if ch["type"] == 11], what="a thread"))[0]
    await fake.wait_for(lambda: record.messages() and f"<#{thread_id}>" in texts(record)[-1],
                        what="the answer with the thread")
    invitation = await posted(fake, lambda m: fake.custom_ids(m), "the invitation", thread_id)
    assert fake.pinged(invitation) == {bob}
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    await fake.wait_for(lambda: boards(fake, thread_id), what="the board in the thread")
    board = await fake.answered(await fake.slash(bob, "board", channel_id=thread_id))
    shown = await fake.wait_for(lambda: board.original["attachments"] and board.original,
                                what="the ephemeral board")
    assert is_ephemeral(shown) and shown["attachments"]
    assert board_buttons(fake, shown) == {}  # not Bob's turn: no move buttons for him
    abort = await fake.answered(await fake.slash(alice, "abort", channel_id=thread_id))
    assert "only a server manager" in says(abort.original)
    aborted = await fake.answered(await fake.slash(mod, "abort", channel_id=thread_id,
                                                   manager=True))
    assert "is aborted" in says(aborted.original)
    notice = await posted(fake, lambda m: "was aborted by **Mod**" in says(m),
                          "the abort notice", thread_id)
    assert notice
    await fake.wait_for(lambda: not live_boards(fake, thread_id), what="the board retired")
    rules = await fake.answered(await fake.slash(alice, "rules", game="progressive-mancala"))
    assert "Progressive Mancala" in says(rules.original) and is_ephemeral(rules.original)
    every = await fake.answered(await fake.slash(alice, "rules"))
    messages = await fake.wait_for(lambda: len(every.messages()) == 5 and every.messages(),
                                   what="five rule summaries")
    assert all(is_ephemeral(m) and len(says(m)) <= 2000 for m in messages)
    assert {says(m).split("**")[1] for m in messages} == {
        "Progressive Mancala", "Pastoral Square", "Consequence", "Ghostone", "ICO"}
    # /help names every command the bot registered, in the reader's client as a mention
    fake.set_locale(bob, "ja")
    for reader in (alice, bob):
        helped = await fake.answered(await fake.slash(reader, "help"))
        shown = "\n".join([says(helped.original), *(
            e.get("description", "") for e in helped.original.get("embeds") or ())])
        registered = {c["name"] for c in fake.commands["global"]}
        assert len(registered) >= 20
        assert {name for name in registered if f"</{name}" not in shown} == set(), shown


async def test_public_board_is_the_live_board_and_moves_lists_the_game(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")
    offered = set(board_buttons(fake, board))
    before = len(boards(fake))
    shown = await fake.answered(await fake.slash(alice, "board", public=True))
    assert is_ephemeral(shown.original)
    again = await next_board(fake, before, what="the public board")
    assert set(board_buttons(fake, again)) == offered
    assert fake.pinged(again) == set()
    await only_live(fake, again)
    moves = await fake.answered(await fake.click(alice, again, button_with(again, "c1:h:")))
    assert is_ephemeral(moves.original)
    assert "1. Alice: `k`" in says(moves.original)


async def test_spectators_are_kept_quiet_in_match_threads_when_the_server_asks(fake, bot):
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    mod = fake.add_user("Mod")
    await fake.answered(await fake.slash(mod, "corral", subcommand="settings", threads=True,
                                         spectators=False, manager=True))
    await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                         opponent=UserRef(bob), first="me"))
    threads = await fake.wait_for(lambda: [c for c, ch in fake.channels.items()
                                           if ch["type"] == 11], what="the thread", timeout=15)
    thread = threads[0]
    invitation = await posted(fake, lambda m: fake.custom_ids(m), "the invitation", thread)
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    board = await next_board(fake, 0, thread, "the first board")
    board = await play_button(fake, alice, board, "a", thread)  # the bot posts and edits
    spectator = await fake.user_message(carol, thread, "who is winning?")
    player = await fake.user_message(bob, thread, "good luck")
    elsewhere = await fake.user_message(carol, fake.channel_id, "anyone for a game?")
    await fake.wait_for(lambda: int(spectator["id"]) not in fake.messages,
                        what="the spectator's message removed")
    await fake.settle()
    assert int(player["id"]) in fake.messages  # players talk freely
    assert int(elsewhere["id"]) in fake.messages  # only match threads are kept quiet
    assert int(board["id"]) in fake.messages and int(invitation["id"]) in fake.messages
