"""A Consequence match in Discord: every move chosen privately, and nothing hidden ever reaches
the channel (checked message by message, picture by picture) while each player's DMs carry
their own view."""

from __future__ import annotations

import random
import re

from discord_fake import UserRef
from e2e_helpers import boards, is_ephemeral

from games.consequence import GAME
from render import render_observation

FULL_NOTATION = re.compile(r"[BR][MSD]@")
SYMBOL_WORDS = re.compile(r"\b(moon|sun|dot)s?\b", re.IGNORECASE)


def components(message, kind):
    return [c for row in message.get("components", []) for c in row.get("components", [])
            if c.get("type") == kind]


def select_with(message, prefix):
    return next(s for s in components(message, 3) if s["custom_id"].startswith(prefix))


async def play_privately(fake, user, board, notation):
    """Play one move through the private flow only; returns the new channel board."""
    before = len(boards(fake))
    start = next(c["custom_id"] for c in components(board, 2) if c["custom_id"].endswith(":start"))
    step = (await fake.answered(await fake.click(user, board, start))).original
    assert is_ephemeral(step)
    act = select_with(step, "corral:tile:")
    if "@" in notation:
        kind, _, rest = notation.partition("@")
        square = rest.partition(">")[0]
        await fake.answered(await fake.select(user, step, act["custom_id"], [kind]))
        step = fake.messages[int(step["id"])]
        await fake.answered(await fake.select(user, step, select_with(step, "corral:tile:")["custom_id"],
                                              [square]))
    else:
        origin = notation.partition("-")[0]
        await fake.answered(await fake.select(user, step, act["custom_id"], ["move"]))
        step = fake.messages[int(step["id"])]
        await fake.answered(await fake.select(user, step, select_with(step, "corral:tile:")["custom_id"],
                                              [origin]))
    step = fake.messages[int(step["id"])]
    button = next(c for c in fake.custom_ids(step) if c.endswith(f":{notation}"))
    done = await fake.answered(await fake.click(user, step, button))
    assert done.kind == 7
    assert f"You played `{notation}`" in fake.messages[int(step["id"])]["content"]
    return await fake.wait_for(lambda: len(boards(fake)) > before and boards(fake)[-1],
                               what=f"the board after {notation}")


async def test_a_consequence_match_leaks_nothing_to_the_channel(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    record = await fake.answered(await fake.slash(alice, "play", game="consequence",
                                                  opponent=UserRef(bob), first="me"))
    invitation = record.original
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    await fake.answered(await fake.click(bob, invitation, accept))
    board = await fake.wait_for(lambda: boards(fake) and boards(fake)[-1], what="first board")
    for user, hand in ((alice, "blue moon"), (bob, "red sun")):
        views = await fake.wait_for(lambda u=user: [m for m in fake.dm_messages(u)
                                                    if "Your view" in m["content"]],
                                    what="the private view at the start")
        assert hand in views[0]["content"] and fake.attachment_bytes(views[0])

    # someone else's "My view" is refused; a player's is private
    carol = fake.add_user("Carol")
    my_view = next(c for c in fake.custom_ids(board) if c.startswith("corral:view:"))
    refused = await fake.answered(await fake.click(carol, board, my_view))
    assert is_ephemeral(refused.original) and "not playing" in refused.original["content"]
    mine = await fake.answered(await fake.slash(bob, "hand"))
    assert is_ephemeral(mine.original) and "red sun" in mine.original["content"]

    rng = random.Random(11)
    state = GAME.new()
    played = [board]
    dms_before = {u: len(fake.dm_messages(u)) for u in (alice, bob)}
    while GAME.outcome(state) is None:
        notation = rng.choice(GAME.legal_notations(state))
        user = alice if GAME.to_move(state) == 0 else bob
        board = await play_privately(fake, user, board, notation)
        state = GAME.play(state, notation)
        assert f"played `{GAME.public_notation(state, GAME.parse_move(state, notation))}`" \
            in board["content"]
        played.append(board)
    outcome = GAME.outcome(state)
    assert "won match" in board["content"] or "drawn" in board["content"]
    assert outcome is not None

    # the leak scan: every public message, every public picture
    replay = GAME.new()
    expected = [replay]
    for message in fake.channel_messages():
        if not (message["flags"] & 64):
            assert not FULL_NOTATION.search(message["content"]), message["content"]
            assert not SYMBOL_WORDS.search(message["content"]), message["content"]
    rng = random.Random(11)
    while GAME.outcome(replay) is None:
        replay = GAME.play(replay, rng.choice(GAME.legal_notations(replay)))
        expected.append(replay)
    assert replay == state and len(expected) == len(played)
    for message, position in zip(played, expected):
        png = fake.attachment_bytes(message)[0]
        public = render_observation(GAME.id, GAME.observe(position, None), names=["Alice", "Bob"])
        assert png == public  # exactly the public picture: nothing else was drawn

    # each player got a new private view whenever their hand or knowledge changed
    for user in (alice, bob):
        assert len(fake.dm_messages(user)) > dms_before[user]
        for message in fake.dm_messages(user):
            assert "Your view" in message["content"] or "has started" in message["content"]
