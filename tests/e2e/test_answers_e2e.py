"""What the bot answers the player who opens a match: what actually happened (an invitation
sent, a lobby opened, a match against the AI begun) and where."""

from __future__ import annotations

from discord_fake import UserRef
from e2e_helpers import boards, is_ephemeral, says


async def test_opening_a_match_says_what_happened(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    channel = f"<#{fake.channel_id}>"
    against_ai = await fake.answered(await fake.slash(alice, "play", game="progressive-mancala",
                                                      ai="easy", first="me"))
    answer = says(against_ai.original)
    assert is_ephemeral(against_ai.original)
    assert answer == f"Match #1 against Corral (easy) has started in {channel}.", answer
    await fake.wait_for(lambda: boards(fake), what="the AI match's board")
    second = fake.other_channel_id  # one match per channel
    lobby = await fake.answered(await fake.slash(bob, "play", game="ghostone",
                                                 channel_id=second))
    assert says(lobby.original) == (
        f"Match #2 is open: its lobby is in <#{second}>, where players join."), \
        says(lobby.original)
    third = fake.add_channel(fake.guild_id, "third")
    invited = await fake.answered(await fake.slash(alice, "play", game="ico", channel_id=third,
                                                   opponent=UserRef(bob)))
    assert says(invited.original) == (
        f"Match #3 is open: the invitation is in <#{third}>."), says(invited.original)
