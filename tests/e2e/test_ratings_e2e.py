"""Rated matches played to the end through the bot, then /profile, /leaderboard and /replay
(the animated GIF and its step-through viewer) as a player reads them."""

from __future__ import annotations

import io

from e2e_helpers import challenge_and_accept, is_ephemeral, mover, play_button, posted, says
from PIL import Image

from games.mancala import GAME

WHOLE_GAME = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


async def play_whole_game(fake, alice, bob):
    board = await challenge_and_accept(fake, alice, bob, first="me")
    for notation in WHOLE_GAME:
        board = await play_button(fake, mover(board, [alice, bob]), board, notation)
    return board


def match_id_of(board) -> int:
    return int(says(board).split("🏁 Match #")[1].split(":")[0])


async def test_rated_matches_profile_leaderboard_and_replay(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    first = await play_whole_game(fake, alice, bob)
    assert "📈 Ratings:" in says(first)
    assert "Bob 1500? → 1658? (+158)" in says(first)
    assert "Alice 1500? → 1342? (−158)" in says(first)
    second = await play_whole_game(fake, alice, bob)
    assert "Bob 1658? → " in says(second)

    # /profile: the record, the last results and a rating chart
    record = await fake.answered(await fake.slash(alice, "profile", user=_ref(bob)))
    text = _final_message(fake, record)
    assert not is_ephemeral(text)
    content = says(text)
    assert "**Bob**'s record" in content
    assert "2 games · 2 won, 0 drawn, 0 lost" in content, content
    assert "average 15 moves per match" in content
    assert "Current streak: 2 wins" in content
    assert content.count("✅ #") == 2 and "vs Alice" in content
    [chart] = fake.attachment_bytes(text)
    assert Image.open(io.BytesIO(chart)).format == "PNG"

    # /leaderboard: two rated games are not enough for the default of five …
    record = await fake.answered(await fake.slash(alice, "leaderboard",
                                                  game="progressive-mancala"))
    content = says(_final_message(fake, record))
    assert "Nobody is on it yet." in content
    assert "You are not on it: it lists players with at least 5 rated games" in content
    # … and a server that asks for two lists both, best first
    await bot.stop()
    bot.extra_env = {"CORRAL_LEADERBOARD_MIN_GAMES": "2"}
    await bot.start()
    record = await fake.answered(await fake.slash(alice, "leaderboard",
                                                  game="progressive-mancala", scope="global"))
    lines = says(_final_message(fake, record)).splitlines()
    assert lines[1].startswith("1. Bob ") and lines[2].startswith("2. Alice ")
    assert lines[1].endswith("(2 games)")

    # /replay of the first match: a GIF with one frame per move and the first position
    match_id = match_id_of(first)
    record = await fake.answered(await fake.slash(bob, "replay", match=match_id), timeout=30)
    replay = await posted(fake, lambda m: f"Replay of match #{match_id}" in says(m)
                          and m.get("attachments"), "the replay")
    gif = Image.open(io.BytesIO(fake.attachment_bytes(replay)[0]))
    assert gif.format == "GIF" and gif.n_frames == len(WHOLE_GAME) + 1
    assert "15 moves" in says(replay)
    viewer = await fake.wait_for(lambda: record.followups and record.followups[-1],
                                 what="the step-through viewer")
    assert is_ephemeral(viewer) and "the start (15 moves in all)" in says(viewer)
    step = await fake.answered(await fake.click(bob, viewer, _button(viewer, ":n")))
    assert step.kind == 6  # answered at once; the picture follows as an edit
    shown = await fake.wait_for(lambda: "move 1 of 15: `k`" in fake.messages[
        int(viewer["id"])]["content"] and fake.messages[int(viewer["id"])], what="move 1")
    step = await fake.answered(await fake.click(bob, shown, _button(shown, ":l")))
    shown = await fake.wait_for(lambda: "move 15 of 15: `f`" in fake.messages[
        int(viewer["id"])]["content"] and fake.messages[int(viewer["id"])], what="move 15")
    final = GAME.new(2)
    for notation in WHOLE_GAME:
        final = GAME.play(final, notation)
    assert Image.open(io.BytesIO(fake.attachment_bytes(shown)[-1])).format == "PNG"
    # a forged step past the end is refused in words, and the viewer stays as it was
    forged = dict(shown, components=[{"type": 1, "components": [{
        "type": 2, "style": 2, "label": "x", "custom_id": f"c1:R:{match_id}:99:n"}]}])
    fake.messages[int(forged["id"])] = forged
    refused = await fake.answered(await fake.click(bob, forged, f"c1:R:{match_id}:99:n"))
    answer = refused.original or (refused.followups and refused.followups[-1])
    assert answer and "has moves 0 to 15" in says(answer)


def _ref(user):
    from discord_fake import UserRef

    return UserRef(user)


def _final_message(fake, record):
    """The answer to a command: its original message as it is now (a deferred answer is
    edited in place)."""
    assert record.original is not None, record.callbacks
    return fake.messages[int(record.original["id"])]


def _button(message, suffix: str) -> str:
    for row in message["components"]:
        for item in row["components"]:
            if item.get("custom_id", "").endswith(suffix) and not item.get("disabled"):
                return item["custom_id"]
    raise AssertionError(f"no enabled button ending in {suffix}")
