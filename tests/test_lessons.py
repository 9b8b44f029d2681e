"""Lessons (games/lessons.py): every product lesson is playable and explained, the loader refuses
broken files clearly, and the runner moves on only on a right answer."""

import copy
import json

import pytest

from games import KITS, PRODUCT, lessons
from games.lessons import LANGUAGES, LessonError, LessonState

LESSON_KITS = sorted(kit_id for kit_id in PRODUCT if KITS[kit_id].lessons is not None)


def load(kit_id):
    path = KITS[kit_id].lessons
    assert path is not None and path.is_file(), f"{kit_id}: no lesson file at {path}"
    return lessons.load(path)


def test_every_product_kit_has_a_lesson():
    assert sorted(PRODUCT) == LESSON_KITS


@pytest.mark.parametrize("kit_id", LESSON_KITS)
def test_lesson_loads_with_five_to_eight_steps(kit_id):
    lesson = load(kit_id)
    assert lesson.game is KITS[kit_id].game
    assert 5 <= len(lesson.steps) <= 8


@pytest.mark.parametrize("kit_id", LESSON_KITS)
def test_every_step_is_solvable_and_every_wrong_answer_explained(kit_id):
    lesson = load(kit_id)
    game = lesson.game
    for step in lesson.steps:
        where = f"{kit_id} {step.id}"
        for text in (step.text, step.task, step.otherwise, step.right,
                     *step.wrong.values(), *(c.text for c in step.choices)):
            if text is not None:
                assert all(text.texts.get(lang, "").strip() for lang in LANGUAGES), where
        if step.is_question:
            offered = [c.id for c in step.choices]
            assert set(step.answers) <= set(offered), where
            others = [c for c in offered if c not in step.answers]
        else:
            assert game.outcome(step.position) is None, where
            assert game.to_move(step.position) == step.learner, where
            legal = game.legal_notations(step.position)
            assert set(step.answers) <= set(legal), where
            others = [n for n in legal if n not in step.answers]
            for notation in step.answers:  # the accepted move and the scripted reply play
                after = game.play(step.position, notation)
                for reply in step.reply:
                    after = game.play(after, reply)
        for other in others:
            assert other in step.wrong or step.otherwise is not None, f"{where}: {other}"


@pytest.mark.parametrize("kit_id", LESSON_KITS)
def test_positions_are_what_the_rules_make_of_them(kit_id):
    """A step's position survives the game's re-validating codec unchanged."""
    lesson = load(kit_id)
    game = lesson.game
    for step in lesson.steps:
        data = game.to_json(step.position)
        assert game.to_json(game.from_json(data)) == data, step.id


@pytest.mark.parametrize("kit_id", LESSON_KITS)
def test_the_runner_walks_the_lesson_with_a_wrong_answer_on_each_step(kit_id):
    lesson = load(kit_id)
    state = lessons.start(lesson)
    for index, step in enumerate(lesson.steps):
        assert lessons.current(lesson, state) is step
        shown = lessons.position(lesson, state)
        assert shown is not None and shown.seat == step.learner
        wrong = next(iter(step.wrong), None) or _some_wrong(lesson, step)
        if wrong is not None:  # else a first try, where every move is right
            state, verdict = lessons.answer(lesson, state, wrong)
            assert not verdict.correct and state.step == index
            assert verdict.text is not None
            assert all(verdict.text.get(lang) for lang in LANGUAGES)
        state, verdict = lessons.answer(lesson, state, step.answers[0])
        assert verdict.correct and state.step == index + 1 and state.tries == 0
        assert verdict.done == (index == len(lesson.steps) - 1)
    assert lessons.done(lesson, state) and lessons.position(lesson, state) is None
    assert state.mistakes == sum(_some_wrong(lesson, step) is not None for step in lesson.steps)


def _paths(game, position, notations):
    return {n: game.input_path(position, game.parse_move(position, n)) for n in notations}


def _begins(path, parts):
    return len(path) >= len(parts) and all(
        sorted(a) == sorted(b) for a, b in zip(path, parts, strict=False))


@pytest.mark.parametrize("kit_id", LESSON_KITS)
def test_first_parts_no_right_answer_starts_with_are_judged_at_once(kit_id):
    """Every first part of every move (a pawn, then its step...) is judged at that part
    exactly when no accepted answer starts that way, with the wrong entry of a move that
    starts so or `otherwise`; a part on the way to a right answer is never judged."""
    lesson = load(kit_id)
    game = lesson.game
    judged_somewhere = 0
    for index, step in enumerate(lesson.steps):
        if step.is_question:
            assert lessons.answer_parts(lesson, LessonState(index), [("x",)]) is None
            continue
        right = _paths(game, step.position, step.answers)
        for path in _paths(game, step.position, game.legal_notations(step.position)).values():
            for depth in range(1, len(path)):
                parts = path[:depth]
                judged = lessons.answer_parts(lesson, LessonState(index, 1, 2), parts)
                on_the_way = any(_begins(p, parts) for p in right.values())
                assert (judged is None) == on_the_way, (kit_id, step.id, parts)
                if judged is None:
                    continue
                judged_somewhere += 1
                state, verdict = judged
                assert state == LessonState(index, 2, 3) and not verdict.correct
                assert verdict.text is not None and verdict.after is None
                key = verdict.key.removeprefix(f"{step.id}.")
                if key.startswith("wrong."):
                    wrong = key.removeprefix("wrong.")
                    assert _begins(_paths(game, step.position, [wrong])[wrong], parts)
                else:
                    assert key == "otherwise"
    multi_part = any(not step.is_question and any(
        len(p) > 1 for p in _paths(game, step.position, step.answers).values())
        for step in lesson.steps)
    assert (judged_somewhere > 0) == multi_part, kit_id


def test_a_wrong_first_part_gets_the_explanation_of_the_move_it_starts():
    """Ghostone: both b1 escapes are explained as such at the first part, "b1-b2"."""
    lesson = load("ghostone")
    index = next(i for i, step in enumerate(lesson.steps) if step.id == "best")
    step = lesson.steps[index]
    state, verdict = lessons.answer_parts(lesson, LessonState(index), [("b1-b2",)])
    assert verdict.key == "best.wrong.b1-b2 E" and verdict.text == step.wrong["b1-b2 E"]
    assert state == LessonState(index, 1, 1)
    assert lessons.answer_parts(lesson, LessonState(index), [("b3-b2",)]) is None


def _some_wrong(lesson, step):
    if step.is_question:
        return next(c.id for c in step.choices if c.id not in step.answers)
    return next((n for n in lesson.game.legal_notations(step.position)
                 if n not in step.answers), None)


# -- the loader and the runner on a tiny game -------------------------------------------------
def t(en, ja=None):
    return {"en": en, "ja": ja or f"[ja] {en}"}


TICTACTOE = {
    "format": 1, "game": "tic-tac-toe", "seats": 2,
    "title": t("Tic-tac-toe"),
    "steps": [
        {"id": "win", "setup": ["a1", "a3", "b1", "b3"],
         "text": t("Three in a row wins."), "task": t("Win now."),
         "answers": ["c1"], "expect": ["wins"],
         "wrong": {"c3": t("That blocks, but c1 wins.")},
         "otherwise": t("Look at the first rank."), "right": t("Three in a row!")},
        {"id": "count", "setup": ["a1"], "learner": 1,
         "text": t("X has played a corner."), "task": t("How many squares are left?"),
         "choices": [{"id": "8", "text": t("8")}, {"id": "9", "text": t("9")}],
         "answers": ["8"], "wrong": {"9": t("a1 is taken.")}},
        {"id": "centre", "setup": [],
         "text": t("The centre is in four lines."), "task": t("Take the centre."),
         "answers": ["b2"], "reply": ["a1"], "otherwise": t("That is not the centre.")},
    ],
}


def write(tmp_path, data):
    path = tmp_path / "lessons.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_good_small_lesson_loads_and_runs(tmp_path):
    lesson = lessons.load(write(tmp_path, TICTACTOE))
    state = lessons.start(lesson)
    state, verdict = lessons.answer(lesson, state, "c3")
    assert (verdict.correct, verdict.key, state.step, state.tries) == (False, "win.wrong.c3", 0, 1)
    assert verdict.text is not None and verdict.text.get("en") == "That blocks, but c1 wins."
    assert verdict.after is not None  # what the wrong move would do, to show it
    state, verdict = lessons.answer(lesson, state, "b2")
    assert verdict.key == "win.otherwise" and state.tries == 2
    state, verdict = lessons.answer(lesson, state, "zz")
    assert verdict.key == "not-a-move" and state.step == 0
    state, verdict = lessons.answer(lesson, state, " C1 ")
    assert verdict.correct and verdict.answer == "c1" and not verdict.done
    assert lesson.game.outcome(verdict.after) is not None
    assert state == LessonState(1, 0, 3)
    state, verdict = lessons.answer(lesson, state, "7")
    assert verdict.key == "not-a-choice"
    state, verdict = lessons.answer(lesson, state, "9")
    assert verdict.key == "count.wrong.9" and verdict.text.get("ja") == "[ja] a1 is taken."
    state, verdict = lessons.answer(lesson, state, "8")
    assert verdict.correct and verdict.after is None and not verdict.done
    state, verdict = lessons.answer(lesson, state, "b2")  # the opponent's scripted reply follows
    assert verdict.correct and verdict.reply == ("a1",) and verdict.done
    assert verdict.text is None  # the step says nothing more after the right answer
    assert lesson.game.ply(verdict.after) == 2 and lessons.done(lesson, state)
    assert LessonState.from_json(state.to_json()) == state
    with pytest.raises(LessonError, match="over"):
        lessons.answer(lesson, state, "8")


def broken(change):
    data = copy.deepcopy(TICTACTOE)
    change(data)
    return data


BROKEN = [
    (lambda d: d["steps"][0]["setup"].append("z9"), r"step 1 \(win\) setup move 5 'z9'"),
    (lambda d: d["steps"][0]["setup"].append("a1"), r"step 1 \(win\) setup move 5 'a1'"),
    (lambda d: d["steps"][0]["answers"].append("a1"), r"step 1 \(win\) answers: 'a1' is not a legal"),
    (lambda d: d["steps"][0]["task"].pop("ja"), r"step 1 \(win\): task has no ja text"),
    (lambda d: d["steps"][1]["text"].update(ja=" "), r"step 2 \(count\): text has no ja text"),
    (lambda d: d["steps"][0].pop("otherwise"), r"step 1 \(win\): otherwise is missing"),
    (lambda d: d["steps"][0].update(expect=["scores"]), r"answer c1: does not meet expect 'scores'"),
    (lambda d: d["steps"][0].update(answers=["c3"], wrong={}), r"does not meet expect 'wins'"),
    (lambda d: d["steps"][0].update(wrong={"c1": t("no")}), r"'c1' is also an accepted answer"),
    (lambda d: d["steps"][0].update(hint=t("x")), r"step 1 \(win\): unknown field 'hint'"),
    (lambda d: d["steps"][2].update(reply=["b2"]), r"step 3 \(centre\) answer b2 reply move 1 'b2'"),
    (lambda d: d["steps"][0].update(state={"board": []}), r"exactly one of setup"),
    (lambda d: d["steps"][1].update(answers=["7"]), r"step 2 \(count\): answers: '7' is not one"),
    (lambda d: d["steps"][1].update(learner=5), r"step 2 \(count\): learner 5"),
    (lambda d: d["steps"][1].update(id="win"), r"step 2: id 'win' is used twice"),
    (lambda d: d.update(game="chess"), r"game 'chess' is not a registered game"),
    (lambda d: d.update(format=2), r"format 2"),
    (lambda d: d["title"].update(fr="Morpion"), r"title: unknown language 'fr'"),
    (lambda d: d.update(steps=[]), r"steps must be a non-empty list"),
    (lambda d: d.update(names=[t("X")]), r"names must be a list of 2 texts, one per seat"),
    (lambda d: d.update(names=[t("X", "先手"), t("x", "後手")]), r"two seats have the same en"),
    (lambda d: d.update(names=[t("X"), {"en": "O"}]), r"names\[1\] has no ja text"),
]


def test_seat_names_are_the_lesson_s_or_player_n(tmp_path):
    """One name per seat for the whole lesson: as the file gives them, else Player <n>."""
    lesson = lessons.load(write(tmp_path, TICTACTOE))
    assert [lesson.seat_name(s, "en") for s in (0, 1)] == ["Player 1", "Player 2"]
    assert [lesson.seat_name(s, "ja") for s in (0, 1)] == ["1番手", "2番手"]
    named = lessons.load(write(tmp_path, broken(lambda d: d.update(
        names=[t("X player", "バツ"), t("O player", "マル")]))))
    assert [named.seat_name(s, "ja") for s in (0, 1)] == ["バツ", "マル"]
    assert named.seat_name(1, "fr") == "O player"


@pytest.mark.parametrize(("change", "message"), BROKEN)
def test_a_broken_lesson_is_refused_with_a_clear_message(tmp_path, change, message):
    path = write(tmp_path, broken(change))
    with pytest.raises(LessonError, match=message) as error:
        lessons.load(path)
    assert str(error.value).startswith(f"{path}:")


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "lessons.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(LessonError, match="cannot read the lesson"):
        lessons.load(path)


def test_bad_progress_is_refused():
    with pytest.raises(LessonError):
        LessonState.from_json({"step": -1, "tries": 0, "mistakes": 0})
    with pytest.raises(LessonError):
        LessonState.from_json({"step": "x"})


JAPANESE = "[\u3040-\u30ff\u4e00-\u9fff]"
# words the authors do not use (their own: キャトリーチ, 賽子, ボーナス手番, ラップ, 先攻/後攻...)
NOT_THE_AUTHORS = ("ダイス", "追加の1手", "リレー", "黒い面", "席", "指す", "ホスト")


@pytest.mark.parametrize("kit_id", LESSON_KITS)
def test_texts_speak_each_language(kit_id):
    import re

    lesson = load(kit_id)
    texts = [lesson.title]
    for step in lesson.steps:
        texts += [step.text, step.task, *step.wrong.values()]
        texts += [t for t in (step.otherwise, step.right) if t is not None]
    labels = [c.text for step in lesson.steps for c in step.choices]  # may be notation: e7
    for text in texts + labels:
        english, japanese = text.get("en"), text.get("ja")
        assert not re.search(JAPANESE, english), english
        assert text in labels or re.search(JAPANESE, japanese), japanese
        assert not any(word in japanese for word in NOT_THE_AUTHORS), japanese
        assert "リーチ" not in japanese.replace("キャトリーチ", ""), japanese


@pytest.mark.parametrize("kit_id", LESSON_KITS)
def test_answer_buttons_read_as_buttons(kit_id):
    """A question's answers are buttons: "Yes", "The moon player", not "yes"; a label that
    starts with a coordinate ("e4 or e6") keeps the notation as it is written."""
    lesson = load(kit_id)
    found = [choice.text.get("en") for step in lesson.steps for choice in step.choices
             if choice.text.get("en")[0].islower()
             and not any(ch.isdigit() for ch in choice.text.get("en").split()[0])]
    assert not found, found


def test_mancala_shows_no_relay_before_the_step_that_teaches_it():
    """Before the relay step, no text asks about a relay and no picture's last move is one
    (its path would pass through the pit it relayed from); the empty-pit question, which needs
    relays to answer, comes after it."""
    lesson = load("progressive-mancala")
    ids = [step.id for step in lesson.steps]
    teach = next(i for i, step in enumerate(lesson.steps) if "effect:relayed" in step.expect)
    assert ids.index("empty") > teach
    for step in lesson.steps[:teach]:
        words = " ".join(t.get("en") for t in (step.text, step.task, step.right, step.otherwise,
                                                *step.wrong.values()) if t is not None)
        assert "relay" not in words.lower() and "empty pit" not in words.lower(), step.id
        last = lesson.game.to_json(step.position)["last"]
        assert last is None or len(last["path"]) <= 2, (step.id, last)


def test_the_terminal_walk_through(monkeypatch, capsys):
    import io

    from games.__main__ import main

    lesson = load("progressive-mancala")
    answers = ["k", "nonsense"] + [step.answers[0] for step in lesson.steps]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert main(["learn", "progressive-mancala", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert lesson.steps[0].wrong["k"].get("ja") in out
    assert "その手はこの局面では選べません" in out and "lesson done (2 wrong" in out


def test_the_walk_through_refuses_an_unknown_game(capsys):
    from games.__main__ import main

    assert main(["learn", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "chess is not a game" in err
