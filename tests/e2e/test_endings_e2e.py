"""How a match ends, as the players see it: pings only when the turn passes, one live board,
and every ending (normal, resignation, agreed draw, timeout claim) told in words, in the
final picture, and by DM to those who chose DMs."""

from __future__ import annotations

from e2e_helpers import (
    boards,
    challenge_and_accept,
    components,
    is_ephemeral,
    mover,
    next_board,
    only_live,
    play_button,
    posted,
    says,
)

from bot.quick import WINDOW
from games.mancala import GAME
from render import render_observation

# a whole game in which sowing into the goal earns extra moves (the same player moves twice)
WHOLE_GAME = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


def final_picture(state, result: str) -> bytes:
    return render_observation(GAME.id, GAME.observe(state, None), names=["Alice", "Bob"],
                              result=result)


async def test_pings_go_only_to_the_player_whose_turn_begins(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    state, previous, repeats = GAME.new(2), alice, 0
    assert fake.pinged(board) == {alice}
    for notation in WHOLE_GAME:
        user = mover(board, [alice, bob])
        # each player thinks for longer than bot/quick.py's window: every turn gets a board
        # of its own (an extra move's board is shown in place: its player is there)
        bot.advance(WINDOW + 1)
        shown = board["id"]
        board = await play_button(fake, user, board, notation)
        state = GAME.play(state, notation)
        await only_live(fake, board)  # no older board of the match keeps components
        if GAME.outcome(state) is not None:
            break
        now = alice if state.to_move == 0 else bob
        if now == previous:
            repeats += 1
            assert board["id"] == shown or fake.pinged(board) == set(), \
                "an extra move re-pinged its player"
        else:
            assert fake.pinged(board) == {now}
        previous = now
    assert repeats >= 1  # the game above does give extra moves
    assert GAME.outcome(state) is not None
    assert fake.pinged(board) == {alice, bob}  # the end: every player, once
    result = "Bob reached 28 seeds (first to 28)"
    assert result in says(board)
    assert fake.attachment_bytes(board)[0] == final_picture(state, result)


async def test_a_resignation_is_told_in_words_in_the_picture_and_by_dm(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    chose = await fake.answered(await fake.slash(bob, "notify", mode="both"))
    assert is_ephemeral(chose.original)
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")
    board = await play_button(fake, mover(board, [alice, bob]), board, "c")
    state = GAME.play(GAME.play(GAME.new(2), "k"), "c")
    confirm = await fake.answered(await fake.slash(alice, "resign"))
    before = len(boards(fake))
    await fake.answered(await fake.click(alice, confirm.original,
                                         fake.custom_ids(confirm.original)[0]))
    final = await next_board(fake, before, what="the final board")
    result = "Alice resigned: Bob wins"
    assert result in says(final) and "your turn" not in says(final)
    # both moved a moment ago: the end is shown in place of their board (bot/quick.py), else
    # a new board pings them both
    assert final["id"] == board["id"] or fake.pinged(final) == {alice, bob}
    assert fake.attachment_bytes(final)[0] == final_picture(state, result)
    await only_live(fake, final)
    summary = await fake.wait_for(
        lambda: [m for m in fake.dm_messages(bob) if "is over" in says(m)],
        what="Bob's summary DM")
    assert len(summary) == 1
    text = says(summary[0])
    assert result in text and "2 moves" in text
    assert "/channels/" in text and str(final["id"]) in text  # a link to the final board
    await fake.settle(0.3)
    assert not [m for m in fake.dm_messages(alice) if "is over" in says(m)]  # channel only


async def test_an_agreed_draw_closes_the_offer_and_is_drawn(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    board = await play_button(fake, alice, board, "k")
    state = GAME.play(GAME.new(2), "k")
    ask = await fake.answered(await fake.slash(alice, "draw"))
    assert is_ephemeral(ask.original)
    offer = await posted(fake, lambda m: "draw" in says(m).lower()
                         and any(c.endswith(":a") for c in fake.custom_ids(m)), "the offer")
    accept = next(c for c in fake.custom_ids(offer) if c.endswith(":a"))
    before = len(boards(fake))
    await fake.answered(await fake.click(bob, offer, accept))
    final = await next_board(fake, before, what="the final board")
    assert "Drawn by agreement" in says(final)
    assert fake.pinged(final) == {alice, bob}
    assert fake.attachment_bytes(final)[0] == final_picture(state, "Drawn by agreement")
    assert components(fake.messages[int(offer["id"])]) == []
    await only_live(fake, final)


async def test_history_in_discord_record_finished_matches_and_vacations(fake, bot):
    from games.record import parse_record, replay_record

    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me", time="1d")
    away = await fake.answered(await fake.slash(bob, "vacation", days=3))
    assert "Enjoy" in says(away.original)
    board = await play_button(fake, alice, board, "k")
    state = GAME.play(GAME.new(2), "k")
    assert GAME.to_move(state) == 1  # the board shows whose clock is paused
    assert "Bob is on vacation until <t:" in says(board)
    listing = await fake.answered(await fake.slash(alice, "matches"))
    assert "on vacation until" in says(listing.original)
    got = await fake.answered(await fake.slash(alice, "record"))
    text = fake.attachment_bytes(got.original)[0].decode("utf-8")
    game, replayed = replay_record(parse_record(text))
    assert game.id == GAME.id and replayed == state
    confirm = await fake.answered(await fake.slash(bob, "resign"))
    await fake.answered(await fake.click(bob, confirm.original,
                                         fake.custom_ids(confirm.original)[0]))
    await posted(fake, lambda m: "Bob resigned" in says(m), "the final board")
    listing = await fake.answered(await fake.slash(alice, "matches"))
    content = says(listing.original)
    assert "**Finished**" in content and "Bob resigned: Alice wins" in content
