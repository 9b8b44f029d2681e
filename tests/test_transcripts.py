"""Transcripts: the words a player receives, compared with reviewed files, so that any change of
wording shows in review.

The real bot (`python -m bot`) runs against the Discord imitation, once per language (English,
Japanese), and players act on it as they would in Discord: `/help`; the lesson of each game
walked through whole, one wrong answer at every step that has one, up to the closing offer;
two puzzles of each game's shipped set, the first answered wrongly, the second rightly; a
short match of each game through its invitation or lobby, every move entered with the board's
buttons and menus, the turn notices, DMs and the end notice. `transcript_recorder.Recorder`
writes what the bot sent (text, embeds, pictures' alt text, buttons and menus, each on its own
line) as a conversation; each transcript is compared with tests/transcripts/<name>.<lang>.txt.

A difference fails the test with a unified diff. When the change is meant (a new wording), write
the files again and review them in the diff of the commit:

    CORRAL_UPDATE_TRANSCRIPTS=1 python -m pytest tests/test_transcripts.py -n 0

(never set in CI). Everything that differs from run to run is kept out: user and channel ids
become names, messages are numbered in the order shown, the bot's clock is fixed, seats are
taken in join order (`first: me`), ICO's start face is given, and no Ghostone die is rolled.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from discord_fake import FakeDiscord, UserRef
from e2e.conftest import BotProcess
from e2e_helpers import boards, components, judged_at, step_answers
from transcript_recorder import Recorder

from bot.offered import PLAYABLE
from games import get_game
from games.lessons import Lesson, LessonStep, answer, lesson_for, start

HERE = Path(__file__).resolve().parent / "transcripts"
UPDATE = os.environ.get("CORRAL_UPDATE_TRANSCRIPTS") == "1"
LANGUAGES = {"en": "en-US", "ja": "ja"}
GAMES = ("progressive-mancala", "pastoral-square", "ghostone", "ico", "consequence")
NAMES = {"en": ("Alice", "Bob", "Carol"), "ja": ("あおい", "ひろ", "さくら")}

# the matches: short games found by random play-outs (every move legal, checked as they are
# played), from the first move to the game's own end unless `resign` says who gives up
MATCHES: dict[str, dict[str, Any]] = {
    # the second player hears of their turns by DM too; the first opens the move list at the end
    "progressive-mancala": {"seats": 2, "notify": "both", "move_list": True, "moves": [
        "k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]},
    "pastoral-square": {"seats": 2, "moves": [
        "f3:2", "g3:2", "f3:1", "f1:1", "f5:3", "c6:2", "c8:1", "g3:1", "f4:3"]},
    "ico": {"seats": 3, "options": "start=f3", "moves": [
        "e15", "e17", "e25", "e26", "e23", "e14", "e16", "e25", "e28", "e27", "e18", "e17",
        "e17", "e15"]},
    "consequence": {"seats": 2, "moves": [
        "BS@c1", "RS@b4", "BD@b1", "RD@b3", "BD@c2>S", "RM@c4>SW", "BD@a1>N", "RD@d4",
        "BM@c2>NW", "RD@d1", "BM@d2", "RS@a1", "BM@d3", "BS@c4", "RS@c2"]},
    # the die would be rolled by the bot (unpredictably): set-up and the first moves, then a
    # resignation ends it
    "ghostone": {"seats": 3, "resign": 2, "moves": [
        "a3:a2,a4,b4", "b4:a3,a4,b3", "b2:a2,b1,c2", "b3:a4,b2,c3", "c2:c3,d1,d3",
        "c4:b3,d3,d4", "c1:b1,b2,d1", "a2:a1,a3,b1", "c3:b3,c4,d3", "b2-b1 E", "a2-b2 E",
        "c3-d3 W"]},
}


# -- running the bot ------------------------------------------------------------------------------
async def session(language: str, tmp_path: Path, scenarios: list[str],
                  extra_env: dict[str, str] | None = None) -> dict[str, str]:
    """Start the bot in a server of `language`, play `scenarios` in order; their transcripts."""
    fake = FakeDiscord()
    # the words are what is recorded here, not the pacing: a channel's 5 messages per 5 s
    # only made each transcript wait (about 20 s a language); tests/test_discord_fake_*
    # and the e2e tests keep the limits
    fake.route_limits["channel_messages"] = None
    if language == "ja":
        fake.set_guild_locale(fake.guild_id, "ja")
    await fake.start()
    bot = BotProcess(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    bot.extra_env.update(extra_env or {})
    recorder = Recorder(fake, bot.database)
    names = NAMES[language]
    users = [recorder.user(name, LANGUAGES[language]) for name in names]
    out: dict[str, str] = {}
    try:
        await bot.start()
        for name in scenarios:
            recorder.lines.clear()
            recorder.numbers.clear()
            kind, _, game = name.partition("-")
            if kind == "help":
                title = await play_help(recorder, users)
            elif kind == "lesson":
                title = await play_lesson(recorder, users, game, language)
            elif kind == "puzzle":
                title = await play_puzzles(recorder, users, game)
            else:
                title = await play_match(recorder, users, game, in_dm=kind == "dm")
            out[name] = recorder.transcript(title)
        assert not recorder.late, f"the bot sent messages after it seemed done: {recorder.late}"
    finally:
        await bot.stop()
        await fake.stop()
    refused = fake.refused()
    assert not refused, [(r.method, r.path, r.error) for r in refused]
    log = bot.log.read_text()
    assert "Traceback" not in log, log[-4000:]
    return out


def who(recorder: Recorder, user: int) -> str:
    return recorder.names[user]


async def play_help(recorder: Recorder, users: list[int]) -> str:
    fake = recorder.fake
    await recorder.act(f"{who(recorder, users[0])}: /help", fake.slash(users[0], "help"))
    return "/help"


# -- lessons --------------------------------------------------------------------------------------
def wrong_answer(lesson: Lesson, step: LessonStep) -> str | None:
    """A wrong answer the step explains (one it names first), or None if there is none."""
    if step.is_question:
        return next((c.id for c in step.choices if c.id not in step.answers), None)
    named = [n for n in step.wrong if n not in step.answers]
    legal = [n for n in lesson.game.legal_notations(step.position) if n not in step.answers]
    return (named or legal or [None])[0]


async def click(recorder: Recorder, user: int, message: dict[str, Any], item: dict[str, Any],
                values: list[str] | None = None) -> Any:
    """Press a button, or choose `values` in a menu, as the player would; the action says
    which by the words on the screen."""
    fake = recorder.fake
    name = who(recorder, user)
    if values is None:
        label = recorder.text(item.get("label") or (item.get("emoji") or {}).get("name", ""))
        return await recorder.act(f"{name} presses [{label}]",
                                  fake.click(user, message, item["custom_id"]))
    labels = {o["value"]: recorder.text(o["label"]) for o in item["options"]}
    chosen = ", ".join(labels[v] for v in values)
    placeholder = recorder.text(item.get("placeholder") or "")
    return await recorder.act(f"{name} chooses {chosen} in [{placeholder}]",
                              fake.select(user, message, item["custom_id"], values))


async def enter_lesson_answer(recorder: Recorder, user: int, message_id: int, lesson: Lesson,
                              step: LessonStep, given: str, parts: int | None = None) -> None:
    """A question's button, or the move's questions one by one (a question with a single
    option is answered by the bot); only its first `parts` of them, a wrong move being judged
    at its first wrong part."""
    fake = recorder.fake
    if step.is_question:
        message = fake.messages[message_id]
        item = next(c for c in components(message, 2)
                    if c["custom_id"].startswith("c1:Lq:") and c["custom_id"].endswith(
                        f":{given}"))
        await click(recorder, user, message, item)
        return
    game = lesson.game
    path = list(game.input_path(step.position, game.parse_move(step.position, given)))
    await enter_steps(recorder, user, message_id, path[:parts] if parts is not None else path,
                      "c1:Ls:", "c1:LS:")


async def enter_steps(recorder: Recorder, user: int, message_id: int, path: list[Any],
                      button: str, menu: str) -> None:
    """A move's answers one question at a time, with the step buttons (custom ids starting
    with `button`) and menus (`menu`) of a lesson's or a puzzle's message."""
    fake = recorder.fake
    for wanted in path:
        message = fake.messages[message_id]
        for item in components(message):
            cid = item.get("custom_id", "")
            if item["type"] == 2 and cid.startswith(button):
                last = cid.rsplit(":", 1)[1].split("/")[-1].split(".")
                if sorted(last) == sorted(wanted):
                    await click(recorder, user, message, item)
                    break
            elif item["type"] == 3 and cid.startswith(menu) and set(wanted) <= {
                    o["value"] for o in item["options"]}:
                await click(recorder, user, message, item, list(wanted))
                break


async def play_lesson(recorder: Recorder, users: list[int], game_id: str,
                      language: str) -> str:
    """The lesson from its first step to its closing offer: at each step one wrong answer
    (when the step has one), then the right one."""
    fake = recorder.fake
    user = users[0]
    lesson = lesson_for(game_id)
    assert lesson is not None
    channel = fake.add_channel(fake.guild_id, f"learn-{game_id}")
    record = await recorder.act(f"{who(recorder, user)}: /learn game:{PLAYABLE[game_id].name}",
                                fake.slash(user, "learn", channel_id=channel, game=game_id))
    message_id = int(record.original["id"])
    state = start(lesson)
    for step in lesson.steps:
        bad = wrong_answer(lesson, step)
        if bad is not None:
            parts, verdict = judged_at(lesson, state, bad)
            assert not verdict.correct
            await enter_lesson_answer(recorder, user, message_id, lesson, step, bad, len(parts))
            assert verdict.text is not None and verdict.text.get(language) in \
                fake.messages[message_id]["content"]
        state, verdict = answer(lesson, state, step.answers[0])
        assert verdict.correct
        await enter_lesson_answer(recorder, user, message_id, lesson, step, step.answers[0])
    assert any(":La:" in c for c in fake.custom_ids(fake.messages[message_id]))  # the offer
    return f"/learn {game_id}"


# -- puzzles --------------------------------------------------------------------------------------
def served_puzzle(recorder: Recorder, message: dict[str, Any]) -> tuple[Any, Any, str, list[str]]:
    """The game, position, solution and refuted moves of the puzzle a message offers (its
    components name it; the store holds it)."""
    import sqlite3

    cid = next(c["custom_id"] for c in components(recorder.fake.messages[int(message["id"])])
               if c.get("custom_id", "").startswith(("c1:Zs:", "c1:ZS:")))
    puzzle_id = int(cid.split(":")[3])
    db = sqlite3.connect(f"file:{recorder.database}?mode=ro", uri=True)
    try:
        game_id, seats, options, entries, solution, refutations = db.execute(
            "SELECT game, seats, options, entries, solution, refutations FROM puzzles"
            " WHERE id = ?", (puzzle_id,)).fetchone()
    finally:
        db.close()
    game = get_game(game_id)
    state = game.new(int(seats), json.loads(options))
    for _, notation in json.loads(entries):
        state = game.play(state, notation)
    return game, state, solution, sorted(json.loads(refutations))


async def play_puzzles(recorder: Recorder, users: list[int], game_id: str) -> str:
    """/puzzle twice on a fresh server: the first answered with a refuted move, the second
    with its solution (each answer's words: the refutation, the point, the rating's swing)."""
    fake = recorder.fake
    user = users[1]
    channel = fake.add_channel(fake.guild_id, f"puzzle-{game_id}")
    for wrong in (True, False):
        record = await recorder.act(
            f"{who(recorder, user)}: /puzzle game:{PLAYABLE[game_id].name}",
            fake.slash(user, "puzzle", channel_id=channel, game=game_id))
        message_id = int(record.original["id"])
        game, state, solution, refuted = served_puzzle(recorder, record.original)
        given = refuted[0] if wrong else solution
        await enter_steps(recorder, user, message_id,
                          list(game.input_path(state, game.parse_move(state, given))),
                          "c1:Zs:", "c1:ZS:")
        said = fake.messages[message_id]["content"]
        assert ("❌" in said) == wrong and ("✅" in said) == (not wrong), said
    return f"/puzzle {game_id}"


# -- matches --------------------------------------------------------------------------------------
def item_for(message: dict[str, Any], test: Callable[[dict[str, Any]], bool]
             ) -> dict[str, Any] | None:
    return next((c for c in components(message) if test(c)), None)


async def enter_move(recorder: Recorder, user: int, board_id: int, game: Any, state: Any,
                     notation: str) -> None:
    """Play `notation` with the components only: the Play… button when the first question is
    private, then each question's button or menu (a question with a single option is
    answered by the bot)."""
    fake = recorder.fake
    path = list(game.input_path(state, game.parse_move(state, notation)))
    message_id = board_id
    private = item_for(fake.messages[board_id],
                       lambda c: c.get("custom_id", "").startswith("c1:p:"))
    if private is not None:
        record = await click(recorder, user, fake.messages[board_id], private)
        assert record.original is not None, record.callbacks
        message_id = int(record.original["id"])
    while path:
        wanted = tuple(sorted(path.pop(0)))
        message = fake.messages[message_id]
        button = item_for(message, lambda c, wanted=wanted: c["type"] == 2 and c.get(
            "custom_id", "").startswith("c1:s:") and tuple(sorted(
                step_answers(c["custom_id"])[-1])) == wanted)
        menu = item_for(message, lambda c, wanted=wanted: c["type"] == 3 and set(wanted) <= {
            o["value"] for o in c["options"]})
        if button is not None:
            record = await click(recorder, user, message, button)
        elif menu is not None:
            record = await click(recorder, user, message, menu, list(wanted))
        else:
            continue  # answered by the bot (a single option)
        if record.kind == 4:  # the next question privately
            message_id = int(record.original["id"])


async def play_match(recorder: Recorder, users: list[int], game_id: str,
                     in_dm: bool = False) -> str:
    """A match in a server channel, or (`in_dm`) in the DM of two players who installed
    Corral to their accounts, where it may only answer their clicks."""
    fake = recorder.fake
    plan = MATCHES[game_id]
    seats = plan["seats"]
    players = users[:seats]
    host = players[0]
    if in_dm:
        for user in players:
            fake.install(user)
        channel = fake.add_dm(players[0], players[1])
    else:
        channel = fake.add_channel(fake.guild_id, f"play-{game_id}")
    game = get_game(game_id)
    options = plan.get("options")
    state = game.new(seats, dict(item.split("=") for item in options.split()) if options
                     else None)
    extra = f" options:{options}" if options else ""
    if "notify" in plan:
        await recorder.act(f"{who(recorder, players[1])}: /notify mode:{plan['notify']}",
                           fake.slash(players[1], "notify", channel_id=channel,
                                      mode=plan["notify"]))
    if seats == 2:
        guest = players[1]
        await recorder.act(
            f"{who(recorder, host)}: /play game:{game.name} opponent:@{who(recorder, guest)}"
            f" first:me{extra}",
            fake.slash(host, "play", channel_id=channel, game=game_id, opponent=UserRef(guest),
                       first="me", options=options))
        invitation = next(m for m in fake.channel_messages(channel)
                          if any(":accept:" in c for c in fake.custom_ids(m)))
        await click(recorder, guest, invitation, item_for(
            invitation, lambda c: ":accept:" in c.get("custom_id", "")))
    else:
        await recorder.act(f"{who(recorder, host)}: /play game:{game.name} first:me{extra}",
                           fake.slash(host, "play", channel_id=channel, game=game_id,
                                      first="me", options=options))
        lobby = fake.channel_messages(channel)[-1]
        for guest in players[1:]:
            lobby = fake.messages[int(lobby["id"])]
            await click(recorder, guest, lobby, item_for(
                lobby, lambda c: ":join:" in c.get("custom_id", "")))
        lobby = fake.messages[int(lobby["id"])]
        begin = item_for(lobby, lambda c: ":start:" in c.get("custom_id", ""))
        if begin is not None:
            await click(recorder, host, lobby, begin)
    for notation in plan["moves"]:
        mover = game.to_move(state)
        assert mover is not None and notation in game.legal_notations(state), notation
        board = boards(fake, channel)[-1]
        picture = board["attachments"][0]["id"]
        await enter_move(recorder, players[mover], int(board["id"]), game, state, notation)
        state = game.play(state, notation)
        # a new board, or the same one showing the new position (in place: bot/quick.py)
        now = boards(fake, channel)[-1]
        assert (now["id"], now["attachments"][0]["id"]) != (board["id"], picture), \
            f"no board after {notation}"
    if "resign" in plan:
        loser = players[plan["resign"]]
        record = await recorder.act(f"{who(recorder, loser)}: /resign",
                                    fake.slash(loser, "resign", channel_id=channel))
        confirm = fake.messages[int(record.original["id"])]
        await click(recorder, loser, confirm, item_for(
            confirm, lambda c: c.get("custom_id", "").startswith("c1:r:")))
    else:
        assert game.outcome(state) is not None
    if plan.get("move_list"):
        final = boards(fake, channel)[-1]
        await click(recorder, host, final, item_for(
            final, lambda c: c.get("custom_id", "").startswith("c1:h:")))
    return f"a match of {game.name}" + (" in the DM of two players" if in_dm else "")


# -- comparing ------------------------------------------------------------------------------------
def compare(files: dict[str, str], folder: Path = HERE, update: bool = UPDATE) -> list[str]:
    """The differences between the transcripts made and the reviewed files (unified diffs),
    or, in update mode, none: the files are written."""
    problems = []
    for name, text in files.items():
        path = folder / f"{name}.txt"
        if update:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            continue
        reviewed = path.read_text(encoding="utf-8") if path.exists() else ""
        if reviewed != text:
            problems.append("".join(difflib.unified_diff(
                reviewed.splitlines(keepends=True), text.splitlines(keepends=True),
                f"tests/transcripts/{path.name} (reviewed)", f"{path.name} (what the bot sent)")))
    return problems


HOW_TO_UPDATE = ("The words a player receives changed. If the change is meant, write the "
                 "transcripts again and review them in your commit's diff:\n"
                 "    CORRAL_UPDATE_TRANSCRIPTS=1 python -m pytest tests/test_transcripts.py "
                 "-n 0\n")


def scenarios() -> list[str]:
    return (["help"] + [f"lesson-{g}" for g in GAMES] + [f"puzzle-{g}" for g in GAMES]
            + [f"match-{g}" for g in GAMES] + ["dm-progressive-mancala"])


@pytest.mark.parametrize("language", list(LANGUAGES))
async def test_transcripts_match_the_reviewed_files(language, tmp_path):
    made = await session(language, tmp_path, scenarios())
    problems = compare({f"{name}.{language}": text for name, text in made.items()})
    if problems:
        pytest.fail(HOW_TO_UPDATE + "\n" + "\n".join(problems), pytrace=False)


def test_every_game_has_a_lesson_and_a_match_transcript():
    names = scenarios()
    for game_id in PLAYABLE:
        if game_id not in GAMES:
            continue  # a test kit (tests/kits), not one of Corral's games
        assert f"lesson-{game_id}" in names and f"match-{game_id}" in names, game_id
    on_disk = {p.name for p in HERE.glob("*.txt")}
    expected = {f"{n}.{lang}.txt" for n in names for lang in LANGUAGES}
    assert on_disk == expected or UPDATE, sorted(on_disk ^ expected)


async def test_a_changed_wording_is_reported(tmp_path):
    """The /help transcript of a bot whose English help text says one word differently (the
    bot process's `bot.words.strings.HELP_INTRO` changed by a sitecustomize module) no longer matches the
    reviewed file, and the report names the old line and the new."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import bot.words.strings\n"
        "bot.words.strings.HELP_INTRO = bot.words.strings.HELP_INTRO.replace('hosts', 'welcomes', 1)\n")
    path = os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    made = await session("en", tmp_path, ["help"], {"PYTHONPATH": path})
    problems = compare({"help.en": made["help"]}, update=False)
    assert len(problems) == 1, problems
    changed = [line for line in problems[0].splitlines() if line[:1] in "+-"
               and not line.startswith(("+++", "---"))]
    assert any(line.startswith("-") and "hosts" in line for line in changed), problems
    assert any(line.startswith("+") and "welcomes" in line for line in changed), problems
    assert json.dumps(made["help"]).count("welcomes") == 1
