"""Post-game analysis through the real bot (issue 30): the Analysis button of a finished
match's final board queues one analysis (a second click finds it), its reply shows the
progress, a crash in the middle loses nothing done, and the pictures (the chart, then one per
swing) and the text are posted together through the outbox; a match in progress and a match that does not exist are refused.

The analyses search at the normal level here (CORRAL_ANALYSIS_LEVEL, a host's setting), so that
the test stays short; its swings are told with the line that refutes the move played and the
better line, each of moves the rules accept."""

from __future__ import annotations

import re
import sqlite3

import pytest
from e2e_helpers import (
    button_with,
    challenge_and_accept,
    components,
    decode_png,
    is_ephemeral,
    mover,
    play_button,
    posted,
    says,
)
from test_endings_e2e import WHOLE_GAME

from games.mancala import GAME

PROGRESS = re.compile(r"analysing move (\d+) of (\d+)")


@pytest.fixture
async def analyst(fake, tmp_path, bot_process):
    process = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    process.extra_env["CORRAL_ANALYSIS_LEVEL"] = "normal"
    await process.start()
    yield process
    await process.stop()
    log = process.log.read_text()
    assert "Traceback" not in log, log[-4000:]


def job(bot, match_id: int) -> tuple[str, int, int] | None:
    """(status, positions judged, positions in all) of the match's analysis, read directly."""
    db = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT status, json_array_length(judged), total FROM analyses"
                         " WHERE match_id = ?", (match_id,)).fetchone()
        return None if row is None else (row[0], row[1], row[2])
    finally:
        db.close()


def active_match(bot) -> int:
    db = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT id FROM matches WHERE status = 'active'").fetchone()[0])
    finally:
        db.close()


def progress_shown(fake) -> list[tuple[int, int]]:
    """Every progress the bot wrote into a reply (edits of an interaction's @original)."""
    found = []
    for request in fake.requests:
        if request.method == "PATCH" and request.path.endswith("/messages/@original"):
            text = (request.json or {}).get("content") or ""
            found += [(int(n), int(total)) for n, total in PROGRESS.findall(text)]
    return found


def pictures_problems(fake, message, match_id: int, swings: int) -> list[str]:
    """The message carries the chart then one picture per swing, in order, each a PNG 720
    wide; the chart no taller than 1.2 times its width (Discord previews it whole)."""
    names = [a["filename"] for a in message["attachments"]]
    expected = [f"analysis-{match_id}-chart.png",
                *(f"analysis-{match_id}-{rank}.png" for rank in range(1, swings + 1))]
    if names != expected:
        return [f"attachments {names}, expected {expected}"]
    sizes = [decode_png(data).size for data in fake.attachment_bytes(message)]
    problems = [f"{name} is {size}" for name, size in zip(names, sizes, strict=True)
                if size[0] != 720]
    if sizes[0][1] > 1.2 * 720:
        problems.append(f"the chart is {sizes[0]}")
    return problems


async def test_analysis_from_the_end_notice_survives_a_crash_and_posts_picture_and_text(
        fake, analyst):
    alice, bob, carol, dave = (fake.add_user(name) for name in ("Alice", "Bob", "Carol", "Dave"))
    # a match still being played, elsewhere: no analysis for it
    other = await challenge_and_accept(fake, carol, dave, channel_id=fake.other_channel_id)
    assert not any(c.startswith("c1:A:") for c in fake.custom_ids(other))
    live_id = active_match(analyst)

    board = await challenge_and_accept(fake, alice, bob, first="me")
    for notation in WHOLE_GAME:  # a whole game, to its natural end
        assert not any(c.startswith("c1:A:") for c in fake.custom_ids(board))  # not while live
        board = await play_button(fake, mover(board, [alice, bob]), board, notation)
    final = board
    assert "🏁" in says(final)
    match_id = int(re.search(r"#(\d+)", says(final)).group(1))
    analysis_button = button_with(final, "c1:A:")
    assert analysis_button == f"c1:A:{match_id}"

    # refusals: a match in progress, a match that does not exist; nothing is queued
    early = await fake.answered(await fake.slash(carol, "analysis", match=live_id,
                                                 channel_id=fake.other_channel_id))
    assert is_ephemeral(early.original)
    assert f"Match #{live_id} is not over" in says(early.original)
    missing = await fake.answered(await fake.slash(alice, "analysis", match=987654321))
    assert is_ephemeral(missing.original)
    assert "Match #987654321 does not exist" in says(missing.original)
    assert job(analyst, live_id) is None

    # the button: one job, whose reply is in the channel; a second click finds it
    first = await fake.answered(await fake.click(alice, final, analysis_button))
    assert not is_ephemeral(first.original)
    assert f"Analysis of match #{match_id}" in says(first.original)
    again = await fake.answered(await fake.click(bob, final, analysis_button))
    assert is_ephemeral(again.original)
    assert f"Match #{match_id} is being analysed already" in says(again.original)

    # a crash in the middle of the analysis: what was judged is kept, the rest follows
    total = len(WHOLE_GAME)
    started = await fake.wait_for(lambda: (found := job(analyst, match_id)) and found[1] >= 3
                                  and found, timeout=30, what="three positions judged")
    assert started[0] == "queued" and started[2] == total
    await analyst.kill()
    kept = job(analyst, match_id)
    assert kept is not None and 3 <= kept[1] < total
    await analyst.start()

    result = await posted(fake, lambda m: any(a["filename"] == f"analysis-{match_id}-chart.png"
                                              for a in m["attachments"]),
                          "the analysis", timeout=120)
    log = analyst.log.read_text()
    resumed = [int(n) for n in re.findall(
        rf"analysis of match {match_id}: resuming at move (\d+) of {total}", log)]
    assert resumed and resumed[0] >= kept[1] + 1  # it went on from where it was, not from 1
    assert log.count(f"analysis of match {match_id} done") == 1
    assert job(analyst, match_id) == ("done", total, total)

    # the pictures and the same in words
    text = says(result)
    assert f"Analysis of match #{match_id}" in text and "by the normal AI" in text
    swings = re.findall(r"^\d\. Move (\d+), (Alice|Bob): played `(\w+)`, the AI preferred "
                        r"`(\w+)` \(−(\d+)% chance of winning\)\.\n"
                        r"   After `(\w+)`(?: \([^)]*\))?, (.+)\.\n"
                        r"   Better was `(\w+)`(?: \([^)]*\))?: (.+)\.$", text, re.M)
    assert swings, text  # this game has some beyond the noise at this level
    assert not pictures_problems(fake, result, match_id, len(swings))
    for index, name, played, best, _loss, after, refutation, better, replies in swings:
        assert 1 <= int(index) <= total and played == WHOLE_GAME[int(index) - 1]
        before = GAME.new(2)
        for notation in WHOLE_GAME[:int(index) - 1]:
            before = GAME.play(before, notation)
        assert name == ("Alice", "Bob")[before.to_move] and played != best
        assert best in GAME.legal_notations(before)
        # the lines: the move, then one or two replies named by their player, all legal
        assert after == played and better == best
        for opening, words in ((played, refutation), (best, replies)):
            steps = re.findall(r"(Alice|Bob) (?:answers|plays|moves again,) `(\w+)`"
                               r"( \([^)]*\))?", words)
            assert 1 <= len(steps) <= 2, words
            state = GAME.play(before, opening)
            for who, notation, effects in steps:
                assert who == ("Alice", "Bob")[state.to_move]
                after = GAME.play(state, notation)
                # what the ply did is said exactly when it did something that decides
                gist = GAME.move_gist(state, GAME.parse_move(state, notation), after)
                assert bool(effects) == bool(gist), words
                state = after
    assert fake.pinged(result) == set()

    # the reply showed the progress, at a sane rate, then where the result is
    shown = progress_shown(fake)
    assert shown and all(t == total for _, t in shown) and shown[0][0] == 1
    assert max(n for n, _ in shown) >= kept[1] + 1  # shown after the restart too
    await fake.wait_for(lambda: "is ready" in fake.messages[int(first.original["id"])]["content"],
                        what="the reply pointing at the result")
    assert str(result["id"]) in fake.messages[int(first.original["id"])]["content"]
    assert not fake.rate_limited()

    # asked again once done: the stored result is posted again, nothing is searched again
    count = len([m for m in fake.channel_messages() if m["attachments"]])
    repeat = await fake.answered(await fake.click(carol, final, analysis_button))
    assert is_ephemeral(repeat.original) and "posted again" in says(repeat.original)
    second = await fake.wait_for(
        lambda: len(shown := [m for m in fake.channel_messages() if m["attachments"]]) > count
        and shown[-1], what="the analysis posted again")
    assert says(second) == text
    assert not pictures_problems(fake, second, match_id, len(swings))
    assert analyst.log.read_text().count(f"analysis of match {match_id} done") == 1
    assert components(fake.messages[int(final["id"])])  # the final board keeps its buttons
