"""bot/quick.py: who is there, whether a channel moved on, and the bounded memories."""

from __future__ import annotations

from bot.quick import WINDOW, Bounded, ChannelHeads, there


def test_an_ai_is_always_there_and_a_person_only_within_the_window():
    moved = {7: 1000.0}
    assert there(-1, {}, 5000.0)
    assert there(7, moved, 1000.0 + WINDOW)
    assert not there(7, moved, 1000.0 + WINDOW + 1)
    assert not there(8, moved, 1000.0)  # never moved in this match: not known to be there


def test_a_channel_is_quiet_until_a_newer_message_and_unknown_channels_are_not():
    heads = ChannelHeads()
    assert not heads.quiet_since(1, 100)  # nothing heard since the start: not known quiet
    heads.saw(1, 90)
    assert heads.quiet_since(1, 100)  # the board's own event may still be on its way
    heads.saw(1, 100)
    assert heads.quiet_since(1, 100)
    heads.saw(1, 95)  # an older event arriving late changes nothing
    assert heads.quiet_since(1, 100)
    heads.saw(1, 101)
    assert not heads.quiet_since(1, 100)
    assert not heads.quiet_since(2, 100)


def test_the_memories_forget_their_oldest_entries():
    kept: Bounded[int, str] = Bounded(3)
    for key in range(5):
        kept[key] = str(key)
    assert list(kept) == [2, 3, 4]
    kept[2] = "again"  # written again: newest
    kept[5] = "5"
    assert list(kept) == [4, 2, 5]
    heads = ChannelHeads(size=2)
    for channel in range(3):
        heads.saw(channel, 10)
    assert not heads.quiet_since(0, 10) and heads.quiet_since(2, 10)
