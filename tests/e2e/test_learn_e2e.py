"""/learn through the real bot: every game's lesson completed with the components a match
uses, one wrong answer on the way (explained, then tried again), in English and in Japanese,
ephemerally and by DM; progress kept (resume, Start over); clicks that are not the player's
own current step refused without changing anything; a wrong first part of a move judged at
that part; the closing button starts a match against the easy AI with the lesson's seats, in a
thread of its own (or says where, or why not)."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from babel.messages.pofile import read_po
from e2e_helpers import boards, components, is_ephemeral, judged_at, says

from bot.words.catalogs import TEMPLATE
from games import PRODUCT
from games.lessons import Lesson, LessonState, LessonStep, answer, answer_parts, lesson_for, start

EN_GAMES = ("progressive-mancala", "pastoral-square", "ico")
JA_GAMES = ("ghostone", "consequence")


def english_fragments() -> set[str]:
    """Runs of three or more English words of the catalog's sentences (as
    tests/e2e/test_japanese_e2e.py reads them): none may reach a Japanese reader."""
    with TEMPLATE.open("rb") as source:
        catalog = read_po(source)
    found: set[str] = set()
    for message in catalog:
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            for part in re.split(r"\{[^}]*\}|[`*_()\[\]:;.,!?…—–\n]", text or ""):
                words = part.split()
                if len(words) >= 3 and all(re.fullmatch(r"[A-Za-z']+", w) for w in words):
                    found.add(" ".join(words))
    return found


SEEN: list[str] = []  # every state of the lesson messages a test saw


def progress(database, user: int, game: str) -> tuple[int, int, int, str] | None:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return db.execute("SELECT step, tries, mistakes, token FROM lesson_progress"
                          " WHERE user_id = ? AND game = ?", (user, game)).fetchone()
    finally:
        db.close()


async def learn(fake, user: int, channel_id: int | None = None, **options: Any):
    """/learn with its options, `dm` among them (the imitation's `slash` keeps `dm` for
    running a command in the user's DMs): the same steps as `FakeDiscord.slash`."""
    channel_id = channel_id or fake.channel_id
    guild_id = fake._guild_of(channel_id)
    command = fake._command("learn", guild_id)
    fake._check_context(command, guild_id)
    opts, _ = fake._options(command, options, subcommand=None, focused=None, guild_id=guild_id)
    data = {"id": command["id"], "name": "learn", "type": 1, "options": opts}
    payload, record = fake._interaction(2, user, channel_id, data)
    await fake.dispatch("INTERACTION_CREATE", payload)
    return await fake.answered(record)


def looks(message: dict[str, Any]) -> str:
    return json.dumps([message.get("content"), message.get("components"),
                       [a.get("id") for a in message.get("attachments", [])]])


async def click(fake, user: int, message: dict[str, Any], custom_id: str, *,
                values: list[str] | None = None) -> dict[str, Any]:
    """Click (or choose in a menu) and return the message once the bot has updated it."""
    message_id = int(message["id"])
    before = looks(fake.messages[message_id])
    record = await fake.answered(
        await fake.select(user, message, custom_id, values) if values is not None
        else await fake.click(user, message, custom_id))
    assert record.kind in (6, 7), record.callbacks
    after = await fake.wait_for(lambda: looks(fake.messages[message_id]) != before
                                and fake.messages[message_id], what="the lesson updated")
    SEEN.append(says(after))
    SEEN.extend(c.get("label") or c.get("placeholder") or "" for c in components(after))
    return after


def wrong_answer(lesson: Lesson, step: LessonStep) -> str | None:
    """A wrong answer the step explains (one it names first), or None if none is left."""
    if step.is_question:
        return next((c.id for c in step.choices if c.id not in step.answers), None)
    named = [n for n in step.wrong if n not in step.answers]
    legal = [n for n in lesson.game.legal_notations(step.position) if n not in step.answers]
    return (named or legal or [None])[0]


async def enter(fake, user: int, message: dict[str, Any], lesson: Lesson, step: LessonStep,
                given: str) -> dict[str, Any]:
    """Answer the step with its components: a question's button, or the move's questions
    one by one (a step with a single option is answered by the bot)."""
    if step.is_question:
        cid = next(c["custom_id"] for c in components(message, 2)
                   if c["custom_id"].startswith("c1:Lq:") and c["custom_id"].endswith(
                       f":{given}"))
        return await click(fake, user, message, cid)
    game = lesson.game
    path = list(game.input_path(step.position, game.parse_move(step.position, given)))
    return await enter_parts(fake, user, message, path)


async def enter_parts(fake, user: int, message: dict[str, Any],
                      path: list[tuple[str, ...]]) -> dict[str, Any]:
    """Choose `path`'s parts of a move one by one with the step's components."""
    path = list(path)
    while path:
        wanted = path.pop(0)
        for item in components(message):
            cid = item.get("custom_id", "")
            if item["type"] == 2 and cid.startswith("c1:Ls:"):
                last = cid.rsplit(":", 1)[1].split("/")[-1].split(".")
                if sorted(last) == sorted(wanted):
                    message = await click(fake, user, message, cid)
                    break
            elif item["type"] == 3 and cid.startswith("c1:LS:") and set(wanted) <= {
                    o["value"] for o in item["options"]}:
                message = await click(fake, user, message, cid, values=list(wanted))
                break
        # else: a question with a single option, answered by the bot
    return message


async def take_lesson(fake, bot, user: int, lesson: Lesson, message: dict[str, Any],
                      language: str) -> dict[str, Any]:
    """Every step: the right answer, after one explained wrong answer at the first step
    that has one. Returns the closing message."""
    state = start(lesson)
    wrong_done = False
    for index, step in enumerate(lesson.steps):
        assert f"{index + 1}" in says(message) and step.task.get(language) in \
            says(message), says(message)
        if not wrong_done and (bad := wrong_answer(lesson, step)) is not None:
            parts, verdict = judged_at(lesson, state, bad)  # judged at its wrong part
            assert not verdict.correct and verdict.text is not None
            message = (await enter_parts(fake, user, message, parts) if not step.is_question
                       else await enter(fake, user, message, lesson, step, bad))
            why = verdict.text.get(language)
            assert why in says(message), (why, says(message))
            assert step.task.get(language) in says(message)  # the same step again
            assert progress(bot.database, user, lesson.id)[:3] == (index, 1, 1)
            wrong_done = True
        state, verdict = answer(lesson, state, step.answers[0])
        assert verdict.correct
        message = await enter(fake, user, message, lesson, step, step.answers[0])
        assert progress(bot.database, user, lesson.id)[0] == index + 1
    assert wrong_done
    assert progress(bot.database, user, lesson.id)[:3] == (len(lesson.steps), 0, 1)
    return message


LINK = re.compile(r"<#(\d+)>")


async def play_the_ai(fake, user: int, message: dict[str, Any]) -> tuple[int, str]:
    """Click the closing button: the match starts (its first board posted) in a thread of its
    own. The thread's id, and what the player was told."""
    cid = next(c["custom_id"] for c in components(message, 2)
               if c["custom_id"].startswith("c1:La:"))
    record = await fake.answered(await fake.click(user, message, cid))
    said = await fake.wait_for(lambda: next((says(m) for m in record.messages()
                                             if LINK.search(says(m) or "")), None),
                               what="where the match is")
    where = int(LINK.findall(said)[-1])
    assert fake.channels[where]["type"] == 11, said  # a public thread
    await fake.wait_for(lambda: boards(fake, where), what="the match's board")
    return where, said


def seats_of(database, match_thread: int) -> tuple[str, list[tuple[int, str]]]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        match_id, status = db.execute("SELECT id, status FROM matches WHERE channel_id = ?",
                                      (match_thread,)).fetchone()
        return status, db.execute("SELECT user_id, name FROM seats WHERE match_id = ?"
                                  " ORDER BY seat", (match_id,)).fetchall()
    finally:
        db.close()


async def test_every_lesson_in_english_and_japanese(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.set_locale(bob, "ja")
    for language, user, games in (("en", alice, EN_GAMES), ("ja", bob, JA_GAMES)):
        for number, game_id in enumerate(games):
            lesson = lesson_for(game_id)
            assert lesson is not None
            channel = fake.add_channel(fake.guild_id, f"learn-{game_id}")
            by_dm = language == "ja" and number == 1
            record = await learn(fake, user, channel, game=game_id, dm=by_dm)
            if by_dm:
                message = await fake.wait_for(lambda u=user: fake.dm_messages(u)
                                              and fake.dm_messages(u)[-1], what="the DM")
                said = await fake.wait_for(
                    lambda r=record: fake.messages[int(r.original["id"])]["content"],
                    what="the answer in the channel")
                assert "ダイレクトメッセージ" in said, said
            else:
                message = fake.messages[int(record.original["id"])]
                assert is_ephemeral(message)
            await fake.wait_for(lambda m=message: fake.messages[int(m["id"])]["attachments"],
                                what="the step's picture")
            message = fake.messages[int(message["id"])]
            assert message["attachments"], message
            title = lesson.title.get(language)
            assert title in says(message), says(message)
            SEEN.clear()
            message = await take_lesson(fake, bot, user, lesson, message, language)
            leaks = {f for f in english_fragments() for text in SEEN if f in text}
            # no English sentence on any Japanese screen (the check finds them in English)
            assert bool(leaks) == (language == "en"), leaks
            if language == "ja":
                assert "🎓" in says(message) and "イージー" not in says(message)
            await play_the_ai(fake, user, message)


async def test_progress_is_kept_and_foreign_or_stale_clicks_change_nothing(fake, bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    lesson = lesson_for("progressive-mancala")
    assert lesson is not None
    record = await fake.answered(await fake.slash(alice, "learn", game=lesson.id))
    message = await fake.wait_for(
        lambda: fake.messages[int(record.original["id"])]["attachments"]
        and fake.messages[int(record.original["id"])], what="the first step")
    first = lesson.steps[0]
    message = await enter(fake, alice, message, lesson, first, first.answers[0])
    assert progress(bot.database, alice, lesson.id)[0] == 1
    token = progress(bot.database, alice, lesson.id)[3]
    step_button = next(c["custom_id"] for c in components(message, 2)
                       if c["custom_id"].startswith("c1:Ls:"))

    # someone else's lesson: Bob clicks a copy of Alice's message
    copy = dict(message, id=str(fake.new_id()), flags=0)
    fake.messages[int(copy["id"])] = copy
    refused = await fake.answered(await fake.click(bob, copy, step_button))
    assert refused.kind == 4 and "someone else" in says(refused.original)
    assert progress(bot.database, bob, lesson.id) is None

    # a forged step (another step number) and a forged token: out of date, nothing changes
    for forged_id in (step_button.replace(f":{token}:1:", f":{token}:0:"),
                      step_button.replace(f":{token}:", ":0badf00d:")):
        assert forged_id != step_button
        forged = dict(message, id=str(fake.new_id()), components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": forged_id}]}])
        fake.messages[int(forged["id"])] = forged
        refused = await fake.answered(await fake.click(alice, forged, forged_id))
        assert refused.kind == 4 and "out of date" in says(refused.original), \
            refused.callbacks
        assert progress(bot.database, alice, lesson.id)[:3] == (1, 0, 0)

    # /learn again resumes at step 2; the older copy's buttons are refused
    again = await fake.answered(await fake.slash(alice, "learn", game=lesson.id))
    resumed = await fake.wait_for(
        lambda: fake.messages[int(again.original["id"])]["attachments"]
        and fake.messages[int(again.original["id"])], what="the resumed lesson")
    assert "Welcome back" in says(resumed) and lesson.steps[1].task.get("en") in \
        says(resumed)
    stale = await fake.answered(await fake.click(alice, message, step_button))
    assert stale.kind == 4 and "out of date" in says(stale.original)
    assert progress(bot.database, alice, lesson.id)[:3] == (1, 0, 0)

    # Start over: step 1 again
    restart = next(c["custom_id"] for c in components(resumed, 2)
                   if c["custom_id"].startswith("c1:Lr:"))
    restarted = await click(fake, alice, resumed, restart)
    assert lesson.steps[0].task.get("en") in says(restarted)
    assert progress(bot.database, alice, lesson.id)[:3] == (0, 0, 0)


def dead_parts(lesson: Lesson, index: int) -> list[tuple[str, ...]] | None:
    """The first parts of a wrong move at step `index` that no accepted answer starts with,
    before its last part (so the move is not complete yet), or None."""
    step, game = lesson.steps[index], lesson.game
    if step.is_question:
        return None
    for notation in game.legal_notations(step.position):
        path = game.input_path(step.position, game.parse_move(step.position, notation))
        for depth in range(1, len(path)):
            if answer_parts(lesson, LessonState(index), path[:depth]) is not None:
                return list(path[:depth])
    return None


async def test_a_wrong_first_part_is_judged_at_that_part_in_every_lesson(fake, bot):
    """Every lesson of every game, every step whose move comes in parts: a first part no
    right answer starts with (a pawn that cannot do it) is judged at that click, with why,
    and the step is asked again from its first question; the right move still passes."""
    alice = fake.add_user("Alice")
    judged = set()
    for game_id in sorted(PRODUCT):
        lesson = lesson_for(game_id)
        assert lesson is not None
        channel = fake.add_channel(fake.guild_id, f"parts-{game_id}")
        record = await learn(fake, alice, channel, game=game_id)
        message = await fake.wait_for(
            lambda r=record: fake.messages[int(r.original["id"])]["attachments"]
            and fake.messages[int(r.original["id"])], what="the first step")
        mistakes = 0
        for index, step in enumerate(lesson.steps):
            parts = dead_parts(lesson, index)
            if parts is not None:
                _, verdict = answer_parts(lesson, LessonState(index), parts)
                message = await enter_parts(fake, alice, message, parts)
                mistakes += 1
                why = verdict.text.get("en")
                assert why in says(message), (game_id, step.id, parts, says(message))
                assert progress(bot.database, alice, lesson.id)[:3] == (index, 1, mistakes)
                # the first question again: no later question's prompt, no Back
                assert says(message).endswith(f"**{step.task.get('en')}**")
                assert not any(c.get("custom_id", "").startswith("c1:Lb:")
                               for c in components(message))
                judged.add(game_id)
            message = await enter(fake, alice, message, lesson, step, step.answers[0])
            assert progress(bot.database, alice, lesson.id)[:3] == (index + 1, 0, mistakes)
    multi_part = {game_id for game_id in PRODUCT if any(
        dead_parts(lesson_for(game_id), i) for i in range(len(lesson_for(game_id).steps)))}
    assert judged == multi_part and len(judged) >= 3, judged


async def finished_lesson(fake, bot, user: int, game_id: str, channel: int,
                          language: str = "en") -> dict[str, Any]:
    """/learn in `channel`, taken to its end: the closing message."""
    lesson = lesson_for(game_id)
    record = await learn(fake, user, channel, game=game_id)
    message = await fake.wait_for(
        lambda: fake.messages[int(record.original["id"])]["attachments"]
        and fake.messages[int(record.original["id"])], what="the first step")
    return await take_lesson(fake, bot, user, lesson, message, language)


async def test_two_lessons_in_a_channel_with_a_match_each_start_their_match(fake, bot):
    """The channel already has a match (a lobby), and two players end their lessons there:
    each closing match starts, in a thread of its own; Ghostone's as the lesson taught it,
    four seats, the AIs told apart by names drawn whole; no lobby left behind."""
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    lobby = await fake.answered(await fake.slash(carol, "play", game="progressive-mancala"))
    assert "#1" in says(lobby.original), lobby.original
    threads = []
    for user, game_id in ((alice, "progressive-mancala"), (bob, "ghostone")):
        closing = await finished_lesson(fake, bot, user, game_id, fake.channel_id)
        assert "already has a match" not in says(closing)
        thread, said = await play_the_ai(fake, user, closing)
        assert "already has a match" not in said and thread not in threads, said
        threads.append(thread)
        status, seats = seats_of(bot.database, thread)
        lesson = lesson_for(game_id)
        assert status == "active" and len(seats) == lesson.seats, seats
        assert user in [uid for uid, _ in seats]
    _, seats = seats_of(bot.database, threads[1])
    names = [name for uid, name in seats if uid < 0]
    assert sorted(names) == ["AI 1", "AI 2", "AI 3"], seats
    board = boards(fake, threads[1])[0]
    assert all(name in says(board) for name in names), says(board)
    for thread in threads:  # the match started at once: no lobby was ever posted
        assert not [m for m in fake.channel_messages(thread) if "lobby" in says(m)
                    or any(c.startswith("c1:l:") for c in fake.custom_ids(m))]

    # a lesson asked in a match's thread: its match gets a thread of the channel's own
    closing = await finished_lesson(fake, bot, carol, "ico", threads[0])
    thread, said = await play_the_ai(fake, carol, closing)
    assert thread not in threads and int(fake.channels[thread]["parent_id"]) == \
        fake.channel_id, said


async def test_where_no_thread_can_be_made_the_lesson_says_where_or_why(fake, bot):
    """No thread allowed: the match starts in the channel itself when it is free, and says
    so; when the channel's match is in the way, the player is told why and nothing opens."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.deny(fake.channel_id, "create_thread")
    closing = await finished_lesson(fake, bot, alice, "progressive-mancala", fake.channel_id)
    cid = next(c["custom_id"] for c in components(closing, 2)
               if c["custom_id"].startswith("c1:La:"))
    before = len(boards(fake))
    record = await fake.answered(await fake.click(alice, closing, cid))
    said = await fake.wait_for(lambda: next((says(m) for m in record.messages()
                                             if "#1" in (says(m) or "")), None),
                               what="the answer")
    assert "may not make threads" in said and f"<#{fake.channel_id}>" in said, said
    await fake.wait_for(lambda: len(boards(fake)) > before, what="the board in the channel")

    closing = await finished_lesson(fake, bot, bob, "progressive-mancala", fake.channel_id)
    cid = next(c["custom_id"] for c in components(closing, 2)
               if c["custom_id"].startswith("c1:La:"))
    record = await fake.answered(await fake.click(bob, closing, cid))
    said = await fake.wait_for(lambda: next((says(m) for m in record.messages()
                                             if "cannot start" in (says(m) or "")), None),
                               what="the refusal")
    assert "#1" in said, said
    db = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True)
    try:  # nothing left open, nothing even made: Bob's match was refused before it began
        made = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    finally:
        db.close()
    assert made == 1
