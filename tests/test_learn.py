"""Lesson progress in the service, on both databases: resumed where it was left, restarted,
and refused for another player's lesson, an older copy, a step already answered, or input the
step cannot take (which is not counted as a try). And what every step of every lesson shows, in
both languages: its picture read with its texts (seat names, grammar, no answer given away)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot import service as svc
from bot.cogs import learn
from bot.pictures import picture_language
from bot.service import LessonAt
from bot.store import LessonRow
from bot.words.i18n import Texts, translations
from games import PRODUCT
from games.lessons import lesson_for
from render import render_observation

GAME = "progressive-mancala"


async def test_progress_resume_restart_and_refusals(service, store):
    lesson = lesson_for(GAME)
    assert lesson is not None
    at = await service.open_lesson(1, GAME, guild_id=9, channel_id=10)
    assert (at.row.step, at.resumed, at.row.origin_channel) == (0, False, 10)
    first = lesson.steps[0]
    wrong = next(iter(first.wrong))
    at, verdict = await service.answer_lesson(1, 1, at.row.token, 0, wrong)
    assert not verdict.correct and (at.row.step, at.row.tries, at.row.mistakes) == (0, 1, 1)
    with pytest.raises(svc.BadRequest):  # not a move here: refused, not counted
        await service.answer_lesson(1, 1, at.row.token, 0, "zz")
    at, verdict = await service.answer_lesson(1, 1, at.row.token, 0, first.answers[0])
    assert verdict.correct and (at.row.step, at.row.tries, at.row.mistakes) == (1, 0, 1)
    token = at.row.token
    with pytest.raises(svc.StaleAction):  # the step is answered already
        await service.answer_lesson(1, 1, token, 0, first.answers[0])
    with pytest.raises(svc.Forbidden):  # someone else's
        await service.answer_lesson(2, 1, token, 1, lesson.steps[1].answers[0])
    with pytest.raises(svc.StaleAction):  # their own token is not this one
        await service.answer_lesson(2, 2, token, 1, lesson.steps[1].answers[0])

    again = await service.open_lesson(1, GAME)  # resumed, a new copy; the channel kept
    assert (again.row.step, again.resumed, again.row.origin_channel) == (1, True, 10)
    assert again.row.token != token
    with pytest.raises(svc.StaleAction):  # the older copy answers nothing
        await service.answer_lesson(1, 1, token, 1, lesson.steps[1].answers[0])
    restarted = await service.restart_lesson(1, 1, again.row.token)
    assert (restarted.row.step, restarted.row.mistakes) == (0, 0)
    row = await store.lesson_progress(1, GAME)
    assert row is not None and (row.step, row.token) == (0, restarted.row.token)
    assert await store.lesson_progress(2, GAME) is None


# -- what a lesson step shows: its picture, read with its texts ----------------------------------
LESSON_GAMES = sorted(game_id for game_id in PRODUCT if lesson_for(game_id) is not None)
LANGUAGES = ("en", "ja")
# a verb agreeing with a third person after "you" ("You places", "You wins"), or "You's"
YOU_THIRD_PERSON = re.compile(r"\byou\s+(?!\w*ss\b)[a-z]+s\b|\byou's\b", re.IGNORECASE)
ANATA_SPACED = re.compile(r"あなた[ \u3000]")  # あなた の手番: a name's spacing on a pronoun
# a seat called by its number in a text: "player 4", "4番手", "相手3"
NUMBERED = {"en": re.compile(r"\b(?:player|seat|opponent) ([1-4])\b", re.IGNORECASE),
            "ja": re.compile(r"([1-4])番手|相手([1-4])|プレイヤー([1-4])")}


class _Pictures:
    """Stands in for the picture workers: keeps what /learn asks to draw."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    async def run(self, function, *args):
        self.calls.append(args)
        return (b"", "") if function.__name__ == "described_picture" else b""


async def drawn(game_id: str, index: int, language: str) -> tuple[list[str], list[str]]:
    """The names /learn gives the seats at step `index`, and every label its picture draws
    (drawn again with the same arguments, keeping the layout)."""
    lesson = lesson_for(game_id)
    pictures = _Pictures()
    at = LessonAt(lesson, LessonRow(1, game_id, index, 0, 0, "0" * 8))
    await learn.lesson_message(pictures, at, Texts(language), [])
    game_id, state, viewer, names, result, lang, *more = pictures.calls[0]
    game = lesson.game
    layout: list = []
    render_observation(game_id, game.observe(game.from_json(state), viewer), names=list(names),
                       result=result, tr=translations(picture_language(lang)), layout=layout,
                       **dict(zip(("you", "hints"), more, strict=False)))
    return list(names), [box.text for box in layout]


# what a picture may draw that a question can ask about: for a finished game its result
# (scores, scoring marks, the winner), for a running one what the rules allow the mover
FINISHED_HINTS = {"outcome": lambda v: None, "scores": lambda v: v and tuple(reversed(v)),
                  "pairs": lambda v: (), "lines": lambda v: ()}
RUNNING_HINTS = {"legal_edges": lambda v: (), "blocked": lambda v: frozenset()}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", LESSON_GAMES)
async def test_every_question_s_picture_hides_its_answer(game_id, language):
    """A question step's picture is the same whatever its view says of the answer: "Who
    wins?" over a board printing "3 pts" and the winner's frame, "Where may you place?"
    over the allowed edges ringed, "May they place on d4?" over "no place: d4", ask
    nothing."""
    lesson = lesson_for(game_id)
    game = lesson.game
    for index, step in enumerate(lesson.steps):
        if not step.is_question:
            continue
        pictures = _Pictures()
        at = LessonAt(lesson, LessonRow(1, game_id, index, 0, 0, "0" * 8))
        await learn.lesson_message(pictures, at, Texts(language), [])
        _, state, viewer, names, result, lang, *more = pictures.calls[0]
        view = game.observe(game.from_json(state), viewer)
        hints = FINISHED_HINTS if game.outcome(step.position) is not None else RUNNING_HINTS
        fields = {f.name for f in dataclasses.fields(view)}
        altered = dataclasses.replace(view, **{name: change(getattr(view, name))
                                               for name, change in hints.items()
                                               if name in fields})

        def draw(observation, more=more, names=names, result=result, lang=lang):
            return render_observation(game_id, observation, names=list(names), result=result,
                                      tr=translations(picture_language(lang)),
                                      **dict(zip(("you", "hints"), more, strict=False)))

        assert draw(view) == draw(altered), (game_id, step.id)


def step_texts(step, language: str) -> str:
    """Everything a player reads at a step, in one language."""
    parts = [step.text, step.task, step.right, step.otherwise, *step.wrong.values(),
             *(choice.text for choice in step.choices)]
    return "\n".join(part.get(language) for part in parts if part is not None)


def mentions(name: str, text: str, language: str) -> bool:
    if language == "en":
        return re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE) is not None
    return name in text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", LESSON_GAMES)
async def test_lesson_pictures_speak_to_the_learner_grammatically(game_id, language):
    """No "You places a pawn", "You wins", "あなた の手番" on a lesson's pictures: a sentence
    about the learner's seat is in the second person."""
    found = []
    for index in range(len(lesson_for(game_id).steps)):
        _, labels = await drawn(game_id, index, language)
        pattern = YOU_THIRD_PERSON if language == "en" else ANATA_SPACED
        found += [(index + 1, label) for label in labels if pattern.search(label)]
    assert not found, found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", LESSON_GAMES)
async def test_each_seat_has_one_name_in_the_whole_lesson(game_id, language):
    """A name means one seat, and a seat has one name, in every step of a lesson (the learner
    may change seats: "Opponent 1" was seat 2, then seat 1)."""
    seats_of: dict[str, set[int]] = {}
    names_of: dict[int, set[str]] = {}
    for index in range(len(lesson_for(game_id).steps)):
        names, _ = await drawn(game_id, index, language)
        for seat, name in enumerate(names):
            seats_of.setdefault(name, set()).add(seat)
            names_of.setdefault(seat, set()).add(name)
    assert all(len(seats) == 1 for seats in seats_of.values()), seats_of
    assert all(len(names) == 1 for names in names_of.values()), names_of


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", LESSON_GAMES)
async def test_the_seats_a_text_names_are_named_so_on_its_picture(game_id, language):
    """Whatever a step's texts call a seat (a name the lesson gives a seat, or "player 4"),
    the step's picture draws that name, whole, for that same seat."""
    lesson = lesson_for(game_id)
    pictures = [await drawn(game_id, index, language) for index in range(len(lesson.steps))]
    vocabulary = {name for names, _ in pictures for name in names}
    found = []
    for index, step in enumerate(lesson.steps):
        names, labels = pictures[index]
        text = step_texts(step, language)
        on_picture = "\n".join(labels).casefold()
        for name in vocabulary:
            if mentions(name, text, language) and name.casefold() not in on_picture:
                found.append((index + 1, name, "not drawn whole"))
        for match in NUMBERED[language].finditer(text):
            seat = int(next(group for group in match.groups() if group)) - 1
            said = match.group(0)
            if names[seat].casefold() != said.casefold() or said.casefold() not in on_picture:
                found.append((index + 1, said, f"seat {seat + 1} is drawn as {names[seat]!r}"))
    assert not found, found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", LESSON_GAMES)
async def test_a_question_about_a_finished_game_is_not_answered_by_its_picture(game_id,
                                                                             language):
    """"Who wins?" over a picture that says "Sun player wins the tie" asks nothing."""
    lesson = lesson_for(game_id)
    winning = re.compile(r"\bwins?\b", re.IGNORECASE) if language == "en" else re.compile("勝ち")
    found = []
    for index, step in enumerate(lesson.steps):
        if step.is_question and lesson.game.outcome(step.position) is not None:
            _, labels = await drawn(game_id, index, language)
            found += [(index + 1, label) for label in labels if winning.search(label)]
    assert not found, found
