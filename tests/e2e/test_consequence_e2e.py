"""A Consequence match in Discord: every move chosen privately, and nothing hidden ever reaches
the channel (checked message by message, picture by picture) while each player's DMs carry
their own view."""

from __future__ import annotations

import random
import re

from e2e_helpers import (
    alt_texts,
    boards,
    button_with,
    challenge_and_accept,
    components,
    enter_move,
    is_ephemeral,
    mover,
    says,
    slash_move,
)

from bot.words.descriptions import alt_text
from bot.words.i18n import Texts
from games.consequence import GAME
from render import render_observation

FULL_NOTATION = re.compile(r"[BR][MSD]@")
# a tile's symbol named in public; a seat's title ("Alice (the moon player)", the side whose
# symbol it scores, as the rules name players) is public and no tile's
SYMBOL_WORDS = re.compile(r"\b(moon|sun|dot)s?\b(?! player)", re.IGNORECASE)


async def test_a_consequence_match_leaks_nothing_to_the_channel(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, game="consequence", first="me")
    for user in (alice, bob):
        views = await fake.wait_for(lambda u=user: [m for m in fake.dm_messages(u)
                                                    if "has started" in says(m)],
                                    what="the private view at the start")
        assert fake.attachment_bytes(views[0])
    # the board offers only a private entry: Play…, Moves, My view, Describe
    assert [c.get("label") for c in components(board, 2)] == ["Play…", "Moves", "My view",
                                                              "Describe"]

    # someone else's "My view" is refused; a player's is private
    carol = fake.add_user("Carol")
    refused = await fake.answered(await fake.click(carol, board, button_with(board, "c1:v:")))
    assert is_ephemeral(refused.original) and "not playing" in says(refused.original)
    mine = await fake.answered(await fake.slash(bob, "hand"))
    shown = await fake.wait_for(lambda: mine.original["attachments"] and mine.original,
                                what="/hand")
    assert is_ephemeral(shown) and "red sun" in says(shown) and shown["attachments"]
    step = await fake.answered(await fake.click(bob, board, button_with(board, "c1:p:")))
    assert is_ephemeral(step.original) and "not your turn" in says(step.original)

    rng = random.Random(11)
    state = GAME.new()
    # what each board showed when it was shown (a board may later be edited in place)
    played = [shown_now(fake, board)]
    expected = [state]
    news = {alice: 0, bob: 0}
    while GAME.outcome(state) is None:
        notation = rng.choice(GAME.legal_notations(state))
        user = mover(board, [alice, bob])
        assert user == (alice if GAME.to_move(state) == 0 else bob)
        before = state
        board = await enter_move(fake, user, board, GAME, state, notation)
        state = GAME.play(state, notation)
        for seat in GAME.private_news(before, state):
            news[(alice, bob)[seat]] += 1
        public = GAME.public_notation(before, GAME.parse_move(before, notation))
        assert f"played `{public}`" in says(board)
        played.append(shown_now(fake, board))
        expected.append(state)
    assert "moons" in says(board) or "Drawn" in says(board)

    # the leak scan: every public message, every public picture
    final_id = played[-1][0]
    texts = [(says(m), alt_texts(m)) for m in fake.channel_messages() if m["id"] != final_id]
    texts += [(words, alts) for _, words, _, alts in played[:-1]]  # as each board was shown
    for words, alts in texts:  # the final count reveals every tile, as the rules do
        assert not FULL_NOTATION.search(words), words
        assert not SYMBOL_WORDS.search(words), words
        for alt in alts:
            assert not FULL_NOTATION.search(alt), alt
    for (_, _, png, alts), position in zip(played[:-1], expected[:-1], strict=True):
        public = render_observation(GAME.id, GAME.observe(position, None), names=["Alice", "Bob"])
        assert png == public  # exactly the public picture: nothing else was drawn
        # and exactly the public view's words, on the attachment and the media item alike
        assert alts == [public_alt(position, ENGLISH)] * 2, alts
        assert_no_seat_words(alts, position, ENGLISH)

    # a private view went to a player exactly when a tile was pushed into their hand
    for user in (alice, bob):
        views = [m for m in fake.dm_messages(user) if "Your view" in says(m)]
        await fake.wait_for(lambda u=user: len([m for m in fake.dm_messages(u)
                                                if "Your view" in says(m)]) == news[u],
                            what="the private views")
        assert all(fake.attachment_bytes(m) for m in views)
        for view in views:  # a private view's alt text is its seat's own view
            assert len(alt_texts(view)) == 1 and alt_texts(view)[0], view


def shown_now(fake, board) -> tuple[str, str, bytes, list[str]]:
    """What a board shows now (it may later be edited in place, bot/quick.py): its id, its
    words, its picture and its alt texts."""
    return board["id"], says(board), fake.attachment_bytes(board)[0], alt_texts(board)


NAMES = ["Alice", "Bob"]
ENGLISH, JAPANESE = Texts("en"), Texts("ja")


def public_alt(position, texts: Texts) -> str:
    return alt_text(GAME, GAME.observe(position, None), texts, NAMES)


def assert_no_seat_words(alts: list[str], position, texts: Texts) -> None:
    """No alt text in the channel is a seat's own description where that differs from the
    public one (what only that seat may read)."""
    public = public_alt(position, texts)
    for seat in range(2):
        own = alt_text(GAME, GAME.observe(position, seat), texts, NAMES)
        if own != public:
            assert own not in alts, (seat, own)


async def test_a_japanese_server_gets_only_public_alt_texts(fake, bot):
    """The alt texts of a Japanese server's boards: the public view's, in Japanese, and a
    player's private view carries that player's own."""
    fake.set_guild_locale(fake.guild_id, "ja")
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    for user in (alice, bob):
        fake.set_locale(user, "ja")
    board = await challenge_and_accept(fake, alice, bob, game="consequence", first="me")
    rng = random.Random(5)
    state = GAME.new()
    for _ in range(6):
        assert alt_texts(board) == [public_alt(state, JAPANESE)] * 2, alt_texts(board)
        assert_no_seat_words(alt_texts(board), state, JAPANESE)
        notation = rng.choice(GAME.legal_notations(state))
        _, board = await slash_move(fake, mover_ja(board, [alice, bob]), notation,
                                    expect=f"`{notation}`")
        state = GAME.play(state, notation)
    for message in fake.channel_messages():
        for alt in alt_texts(message):
            assert not FULL_NOTATION.search(alt), alt
    mine = await fake.answered(await fake.slash(alice, "hand"))
    shown = await fake.wait_for(lambda: mine.original["attachments"] and mine.original,
                                what="/hand")
    assert alt_texts(shown) == [alt_text(GAME, GAME.observe(state, 0), JAPANESE, NAMES)] * 2


def mover_ja(board, users: list[int]) -> int:
    """Who the board mentions as the player to move (a Japanese board)."""
    return next(u for u in users if f"<@{u}>さん、あなたの手番" in says(board))


async def test_when_a_board_appears_after_a_move_no_older_board_is_live(fake, bot):
    """The defect: after a `/move`, the previous board sometimes still offered **Play…**
    beside the new one (it lost its components only after the new board was posted, and
    later still when the channel's edits were rate limited). Checked the moment each new
    board appears, over a run of placements (before the fix: several in every run of 16)."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, game="consequence", first="me")
    state = GAME.new()
    rng = random.Random(14)
    still_live = []
    for number in range(16):
        notation = rng.choice(GAME.legal_notations(state))
        _, board = await slash_move(fake, mover(board, [alice, bob]), notation)
        state = GAME.play(state, notation)
        older = [m["id"] for m in boards(fake)
                 if m["id"] != board["id"] and components(fake.messages[int(m["id"])])]
        if older:
            still_live.append((number + 1, notation, older))
        assert components(board)  # the new board itself is live
    assert not still_live, still_live

