"""Lesson progress in the service, on both databases: resumed where it was left, restarted,
and refused for another player's lesson, an older copy, a step already answered, or input the
step cannot take (which is not counted as a try)."""

from __future__ import annotations

import pytest

from bot import service as svc
from games.lessons import lesson_for

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
