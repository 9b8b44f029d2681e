"""Lessons (/learn): a player's progress through a game's lesson (`games.lessons`), kept in the
store, and the checks that make a lesson's components unforgeable.

Each time a lesson is shown it gets a fresh random token, which its components carry with the
step they answer: a click is taken only from the player whose lesson it is, on the newest copy
(the token), at the step it was made for. Anything else (another player's click, a forged id,
an older copy, a step already answered) is refused and changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games import Answer, Phrase, lessons
from games.lessons import Lesson, LessonState, Verdict, lesson_for

from ..store import LessonRow
from ..words import strings
from .core import BadRequest, Context, Forbidden, NotFound, StaleAction

TOKEN_BYTES = 4  # 8 hex digits in a custom id


@dataclass(frozen=True)
class LessonAt:
    """A lesson and where one player is in it."""

    lesson: Lesson
    row: LessonRow
    resumed: bool = False

    @property
    def state(self) -> LessonState:
        return LessonState(self.row.step, self.row.tries, self.row.mistakes)

    @property
    def done(self) -> bool:
        return lessons.done(self.lesson, self.state)


class Lessons:
    """Opening a lesson, answering its steps, and where its last button opens a match."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    @staticmethod
    def lesson(game_id: str) -> Lesson:
        from games import REGISTRY

        game = REGISTRY.get(game_id)
        if game is None:
            raise NotFound(strings.UNKNOWN_GAME, reason=game_id[:40])
        found = lesson_for(game_id)
        if found is None:
            raise NotFound(strings.NO_LESSON, game=Phrase(game.name))
        return found

    async def open_lesson(self, user_id: int, game_id: str, *, restart: bool = False,
                          guild_id: int | None = None,
                          channel_id: int | None = None) -> LessonAt:
        """The player's lesson of `game_id` where they left it (from the start if `restart`
        or never begun), as a new copy: older copies' components stop working."""
        lesson = self.lesson(game_id)
        token = secrets.token_hex(TOKEN_BYTES)
        now = self.ctx.clock()

        async with self.ctx.store.transaction() as tx:
            old = await tx.lesson_progress(user_id, lesson.id)
            resumed = old is not None and not restart and 0 < old.step <= len(lesson.steps)
            row = LessonRow(user_id, lesson.id, 0, 0, 0, token, guild_id, channel_id)
            if old is not None:
                row = replace(row, origin_guild=guild_id or old.origin_guild,
                              origin_channel=channel_id or old.origin_channel)
                if resumed:
                    row = replace(row, step=old.step, tries=old.tries, mistakes=old.mistakes)
            await tx.show_lesson(row, now)
        return LessonAt(lesson, row, resumed)

    async def lesson_at(self, user_id: int, owner_id: int, token: str,
                        step: int | None = None) -> LessonAt:
        """The lesson copy a component names, refused unless it is the clicker's own, the
        newest, and (given `step`) still at that step."""
        if owner_id != user_id:
            raise Forbidden(strings.LESSON_NOT_YOURS)
        row = await self.ctx.store.lesson_by_token(user_id, token)
        lesson = lesson_for(row.game) if row is not None else None
        if row is None or lesson is None or (step is not None and row.step != step):
            raise StaleAction(strings.LESSON_STALE)
        return LessonAt(lesson, row)

    async def restart_lesson(self, user_id: int, owner_id: int, token: str) -> LessonAt:
        at = await self.lesson_at(user_id, owner_id, token)
        return await self.open_lesson(user_id, at.lesson.id, restart=True)

    async def answer_lesson(self, user_id: int, owner_id: int, token: str, step: int,
                            answer: str) -> tuple[LessonAt, Verdict]:
        """Judge a complete answer (a move's notation, or a choice id) at `step`; a right
        one moves the player on, a wrong one counts a try. Input the step cannot take (a
        forged choice) is refused without counting."""
        at = await self.lesson_at(user_id, owner_id, token, step)
        state, verdict = lessons.answer(at.lesson, at.state, answer)
        if verdict.key in ("not-a-move", "not-a-choice"):
            raise BadRequest(strings.LESSON_BAD_ANSWER)
        return await self._keep(at, token, step, state, verdict)

    async def answer_lesson_parts(self, user_id: int, owner_id: int, token: str, step: int,
                                  parts: Sequence[Answer]) -> tuple[LessonAt, Verdict | None]:
        """The first parts of a move at `step`: judged (and a try counted) as soon as no
        accepted answer starts that way, so the learner hears why at the wrong part; None
        (nothing kept) while one still does."""
        at = await self.lesson_at(user_id, owner_id, token, step)
        judged = lessons.answer_parts(at.lesson, at.state, parts)
        if judged is None:
            return at, None
        return await self._keep(at, token, step, *judged)

    async def _keep(self, at: LessonAt, token: str, step: int, state: LessonState,
                    verdict: Verdict) -> tuple[LessonAt, Verdict]:
        """Store where a judged answer leaves the player (refused if another click judged
        this step meanwhile)."""
        user_id = at.row.user_id
        async with self.ctx.store.transaction() as tx:
            saved = await tx.advance_lesson(user_id, token, step, step=state.step,
                                            tries=state.tries, mistakes=state.mistakes,
                                            now=self.ctx.clock())
        if not saved:  # another click answered this step in the meantime
            raise StaleAction(strings.LESSON_STALE)
        return LessonAt(at.lesson, replace(at.row, step=state.step, tries=state.tries,
                                           mistakes=state.mistakes)), verdict
