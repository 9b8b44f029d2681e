"""Lessons: /learn, shown to the asking player only (ephemeral, or by DM), one step at a time.

A step is its position drawn by the usual renderer, the rule it teaches, and the task; a move
is answered with the step-by-step entry of a real match (bot/ui.py's `add_step`, here with the
lesson's own components), a question with one button per answer. The lesson's components
name the player, the copy of the lesson (a token drawn each time it is shown) and the step:
the service refuses any other click (bot/service/lessons.py).

Custom ids (besides bot/ui.py's):

    c1:Ls:<user>:<token>:<step>:<answers>         a step button
    c1:LS:<user>:<token>:<step>:<answers>:<page>  a step menu page
    c1:Lb:<user>:<token>:<step>:<answers>         Back to the previous question
    c1:Lq:<user>:<token>:<step>:<choice>          an answer of a question step
    c1:Lr:<user>:<token>                          Start over
    c1:La:<user>:<token>                          the closing match against the easy AI
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

import discord
from discord import app_commands

from games import Answer, GameError, Option, Phrase, Step, nphrase, phrase
from games.lessons import Verdict

from ..boards import opened_phrase
from ..interactions import Handling, Interaction, Tree, note_match, player, reply, texts_for
from ..offered import PLAYABLE
from ..pictures import described_picture
from ..pool import Workers
from ..service import LessonAt, Match, NotFound, Service, ServiceError
from ..ui import (
    ANSWERS,
    ID,
    Component,
    StaticView,
    StepItems,
    button,
    decode_answers,
    encode_answers,
    first_step,
    manual_answers,
    step_view,
    template,
)
from ..words import strings
from ..words.i18n import Texts

TOKEN = r"[0-9a-f]{8}"
STEP = r"[0-9]{1,3}"
CHOICE = r"[A-Za-z0-9-]{1,20}"


def register(tree: Tree, service: Service, handling: Handling, pictures: Workers) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]

    @tree.command(name="learn", description="A short interactive lesson of a game, for you "
                                            "alone")
    @app_commands.describe(game="Which game", dm="Send the lesson by direct message instead",
                           restart="Start the lesson again from its first step")
    @app_commands.choices(game=games)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.guild_only()
    async def learn(interaction: Interaction, game: str, dm: bool = False,
                    restart: bool = False) -> None:
        async with handling(interaction):
            service.lesson(game)  # refused before anything is stored
            at = await service.open_lesson(interaction.user.id, game, restart=restart,
                                           guild_id=interaction.guild_id,
                                           channel_id=interaction.channel_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            texts = texts_for(interaction)
            lead = [texts(strings.LESSON_RESUMED)] if at.resumed and not at.done else []
            content, view, file = await lesson_message(pictures, at, texts, lead)
            if not dm:
                await reply(interaction, content, view=view, file=file)
                return
            try:
                extra: dict[str, Any] = {"file": file} if file is not None else {}
                await interaction.user.send(content, view=view, **extra,
                                            allowed_mentions=discord.AllowedMentions.none())
            except discord.Forbidden:
                raise ServiceError(strings.LESSON_DM_CLOSED) from None
            await reply(interaction, phrase(strings.LESSON_SENT_DM))


# -- what a step looks like ----------------------------------------------------------------------
def seat_names(at: LessonAt, texts: Texts, seats: int) -> list[str]:
    """Each seat by the one name the lesson gives it, the name its texts use, in every step
    (the picture speaks to the learner's seat in the second person: "Your turn")."""
    return [at.lesson.seat_name(seat, texts.language) for seat in range(seats)]


def step_result(at: LessonAt, texts: Texts) -> str | None:
    """What the picture says instead of the outcome, for a question about a finished game:
    the picture must not answer the question the step asks (who wins). A question's picture
    is drawn without hints either (`board_picture`'s `hints`): no scores, no allowed moves."""
    step = at.lesson.steps[at.row.step]
    over = at.lesson.game.outcome(step.position) is not None
    return texts(strings.LESSON_GAME_OVER) if step.is_question and over else None


async def lesson_message(pictures: Workers, at: LessonAt, texts: Texts, lead: Sequence[str],
                         ) -> tuple[str, StaticView, discord.File | None]:
    """The message of the player's current step (its picture drawn in a worker), or of the
    lesson's end."""
    lesson, row = at.lesson, at.row
    title = lesson.title.get(texts.language)
    if at.done:
        lines = [*lead, texts(phrase(strings.LESSON_DONE, title=title, mistakes=nphrase(
            *strings.LESSON_MISTAKES, row.mistakes), link=f"<#{row.origin_channel}>"
            if row.origin_channel else "?"))]
        view = StaticView()
        view.add_item(LessonPlay(row.user_id, row.token,
                                 label=texts(strings.BUTTON_LESSON_PLAY)))
        view.add_item(LessonRestart(row.user_id, row.token,
                                    label=texts(strings.BUTTON_LESSON_RESTART)))
        return "\n".join(lines), view, None
    step = lesson.steps[row.step]
    game = lesson.game
    seats = game.seats(step.position)
    picture, alt = await pictures.run(
        described_picture, game.id, game.to_json(step.position), step.learner,
        seat_names(at, texts, seats), step_result(at, texts), texts.language, step.learner,
        not step.is_question)
    content = step_text(at, texts, lead)
    view = step_components(at, (), texts)
    return content, view, discord.File(io.BytesIO(picture), filename="lesson.png",
                                       description=alt or None)


def step_text(at: LessonAt, texts: Texts, lead: Sequence[str], prompt: str | None = None) -> str:
    step = at.lesson.steps[at.row.step]
    language = texts.language
    lines = [*lead, texts(phrase(strings.LESSON_HEADER, title=at.lesson.title.get(language),
                                 n=at.row.step + 1, total=len(at.lesson.steps))),
             step.text.get(language), f"**{step.task.get(language)}**"]
    if prompt:
        lines.append(prompt)
    return "\n".join(lines)


def step_components(at: LessonAt, answers: tuple[Answer, ...], texts: Texts) -> StaticView:
    """The step's question: the answers of a question step, else the move entry's next
    question after `answers` (a forced move: one button); Start over last."""
    row, step = at.row, at.lesson.steps[at.row.step]
    items = LessonItems(row.user_id, row.token, row.step)
    if step.is_question:
        view = StaticView()
        for index, choice in enumerate(step.choices):
            view.add_item(LessonChoice(row.user_id, row.token, row.step, choice.id,
                                       label=choice.text.get(texts.language),
                                       row=min(index, 3)))
    else:
        question, answers = first_step(at.lesson.game, step.position, answers)
        if isinstance(question, str):
            view = StaticView()
            view.add_item(items.button(answers, question, 0))
        else:
            back = manual_answers(at.lesson.game, step.position, answers) > 0
            view = step_view(question, 0, 0, answers, texts, back=back, items=items)
    view.add_item(LessonRestart(row.user_id, row.token, row=4,
                                label=texts(strings.BUTTON_LESSON_RESTART)))
    return view


def verdict_line(verdict: Verdict, texts: Texts) -> str:
    why = verdict.text.get(texts.language) if verdict.text is not None else ""
    if not verdict.correct:
        return texts(phrase(strings.LESSON_WRONG, why=why))
    line = texts(phrase(strings.LESSON_RIGHT, why=why) if why else strings.LESSON_RIGHT_PLAIN)
    if verdict.reply:
        line += " " + texts(phrase(strings.LESSON_REPLY, moves=" ".join(verdict.reply)))
    return line


# -- answering ------------------------------------------------------------------------------------
async def answered(service: Service, pictures: Workers, interaction: Interaction, owner: int,
                   token: str, step: int, answer: str) -> None:
    """A complete answer: judged and kept by the service; the message shows the verdict and
    the next step (its new picture), or the same step again after a wrong answer."""
    at, verdict = await service.answer_lesson(interaction.user.id, owner, token, step, answer)
    texts = texts_for(interaction)
    if not verdict.correct:
        await judged_wrong(interaction, at, verdict)
        return
    line = verdict_line(verdict, texts)
    await interaction.response.defer()
    content, view, file = await lesson_message(pictures, at, texts, [line])
    await interaction.edit_original_response(content=content, view=view,
                                             attachments=[file] if file else [])


async def judged_wrong(interaction: Interaction, at: LessonAt, verdict: Verdict) -> None:
    """A wrong answer (or first parts no right answer starts with): why, and the same step
    asked again from its first question; the position, so the picture, stays."""
    texts = texts_for(interaction)
    await interaction.response.edit_message(
        content=step_text(at, texts, [verdict_line(verdict, texts)]),
        view=step_components(at, (), texts))


async def advance(service: Service, pictures: Workers, interaction: Interaction, owner: int,
                  token: str, step_index: int, answers: tuple[Answer, ...]) -> None:
    """A click on a step's button or menu: the next question, or the move once complete;
    judged at once when no right answer starts with the parts chosen so far."""
    at = await service.lesson_at(interaction.user.id, owner, token, step_index)
    step = at.lesson.steps[step_index]
    if step.is_question:
        raise ServiceError(strings.LESSON_BAD_ANSWER)
    try:
        question, answers = first_step(at.lesson.game, step.position, answers)
    except GameError:
        raise ServiceError(strings.LESSON_BAD_ANSWER) from None
    if isinstance(question, str):
        await answered(service, pictures, interaction, owner, token, step_index, question)
        return
    at, verdict = await service.answer_lesson_parts(interaction.user.id, owner, token,
                                                    step_index, answers)
    if verdict is not None:
        await judged_wrong(interaction, at, verdict)
        return
    texts = texts_for(interaction)
    await interaction.response.edit_message(
        content=step_text(at, texts, [], texts(question.prompt)),
        view=step_components(at, answers, texts))


class LessonItems(StepItems):
    """The move entry's components, answering a lesson's step."""

    def __init__(self, owner: int, token: str, step: int) -> None:
        super().__init__(0, 0)
        self.owner, self.token, self.step = owner, token, step

    def button(self, answers: Sequence[Answer], label: str,
               row: int | None) -> discord.ui.Item[Any]:
        return LessonButton(self.owner, self.token, self.step, answers, label=label, row=row)

    def menu(self, answers: Sequence[Answer], page: int, step: Step, options: Sequence[Option],
             placeholder: str, texts: Texts, row: int | None) -> discord.ui.Item[Any]:
        return LessonMenu(self.owner, self.token, self.step, answers, page, picks=step.picks,
                          options=[discord.SelectOption(
                              label=texts(o.label)[:100], value=o.value,
                              description=texts(o.description)[:100]
                              if o.description is not None else None) for o in options],
                          placeholder=placeholder, row=row)

    def back(self, answers: Sequence[Answer], label: str,
             row: int | None) -> discord.ui.Item[Any]:
        return LessonBack(self.owner, self.token, self.step, answers, label=label, row=row)


def _answers(text: str) -> tuple[Answer, ...]:
    found = decode_answers(text)
    assert found is not None  # the template matched: well formed
    return found


_HEAD = rf"(?P<user>{ID}):(?P<token>{TOKEN}):(?P<step>{STEP})"


class LessonComponent(Component[Any], template=r"(?!)"):
    pictures: ClassVar[Workers]


class LessonButton(LessonComponent,
                   template=template(rf"c1:Ls:{_HEAD}:(?P<answers>{ANSWERS})")):
    """A step's option: the answers so far, the chosen value last."""

    def __init__(self, owner: int, token: str, step: int, answers: Sequence[Answer], *,
                 label: str = "", row: int | None = None) -> None:
        self.owner, self.token, self.step, self.answers = owner, token, step, tuple(answers)
        super().__init__(button(label, f"c1:Ls:{owner}:{token}:{step}:"
                                       f"{encode_answers(answers)}", row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), found["token"], int(found["step"]),
                   _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        await advance(self.service, self.pictures, interaction, self.owner, self.token,
                      self.step, self.answers)


class LessonMenu(LessonComponent,
                 template=template(rf"c1:LS:{_HEAD}:(?P<answers>{ANSWERS}):(?P<page>[0-9])")):
    """A page of a step's options: the values chosen come with the click."""

    def __init__(self, owner: int, token: str, step: int, answers: Sequence[Answer],
                 page: int, *, picks: int = 1, options: Sequence[discord.SelectOption] = (),
                 placeholder: str = "", row: int | None = None) -> None:
        self.owner, self.token, self.step, self.answers = owner, token, step, tuple(answers)
        self.page = page
        super().__init__(discord.ui.Select(
            custom_id=f"c1:LS:{owner}:{token}:{step}:{encode_answers(answers)}:{page}",
            placeholder=placeholder[:150] or None, min_values=picks, max_values=picks,
            row=row, options=list(options)))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), found["token"], int(found["step"]),
                   _answers(found["answers"]), int(found["page"]))

    async def handle(self, interaction: Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        raw = data.get("values")
        values = [str(v)[:16] for v in raw][:25] if isinstance(raw, list) else []
        await advance(self.service, self.pictures, interaction, self.owner, self.token,
                      self.step, self.answers + (tuple(values),))


class LessonBack(LessonComponent,
                 template=template(rf"c1:Lb:{_HEAD}:(?P<answers>{ANSWERS})")):
    """Back to the previous question the player chose."""

    def __init__(self, owner: int, token: str, step: int, answers: Sequence[Answer], *,
                 label: str = "", row: int | None = None) -> None:
        self.owner, self.token, self.step, self.answers = owner, token, step, tuple(answers)
        super().__init__(button(label, f"c1:Lb:{owner}:{token}:{step}:"
                                       f"{encode_answers(answers)}",
                                style=discord.ButtonStyle.secondary, row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), found["token"], int(found["step"]),
                   _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        at = await self.service.lesson_at(interaction.user.id, self.owner, self.token,
                                          self.step)
        step = at.lesson.steps[self.step]
        keep = max(0, manual_answers(at.lesson.game, step.position, self.answers) - 1)
        await advance(self.service, self.pictures, interaction, self.owner, self.token,
                      self.step, self.answers[:keep])


class LessonChoice(LessonComponent,
                   template=template(rf"c1:Lq:{_HEAD}:(?P<choice>{CHOICE})")):
    """One answer of a question step."""

    def __init__(self, owner: int, token: str, step: int, choice: str, *, label: str = "",
                 row: int | None = None) -> None:
        self.owner, self.token, self.step, self.choice = owner, token, step, choice
        super().__init__(button(label, f"c1:Lq:{owner}:{token}:{step}:{choice}", row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), found["token"], int(found["step"]), found["choice"])

    async def handle(self, interaction: Interaction) -> None:
        await answered(self.service, self.pictures, interaction, self.owner, self.token,
                       self.step, self.choice)


class LessonRestart(LessonComponent,
                    template=template(rf"c1:Lr:(?P<user>{ID}):(?P<token>{TOKEN})")):
    """Start over: the lesson from its first step, as a new copy."""

    def __init__(self, owner: int, token: str, *, label: str = "",
                 row: int | None = None) -> None:
        self.owner, self.token = owner, token
        super().__init__(button(label, f"c1:Lr:{owner}:{token}",
                                style=discord.ButtonStyle.secondary, row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), found["token"])

    async def handle(self, interaction: Interaction) -> None:
        at = await self.service.restart_lesson(interaction.user.id, self.owner, self.token)
        await interaction.response.defer()
        content, view, file = await lesson_message(self.pictures, at,
                                                   texts_for(interaction), [])
        await interaction.edit_original_response(content=content, view=view,
                                                 attachments=[file] if file else [])


class LessonPlay(LessonComponent,
                 template=template(rf"c1:La:(?P<user>{ID}):(?P<token>{TOKEN})")):
    """The lesson's last button: a casual match against the easy AI, from the server channel
    the lesson was asked in (`open_lesson_match`)."""

    def __init__(self, owner: int, token: str, *, label: str = "") -> None:
        self.owner, self.token = owner, token
        super().__init__(button(label, f"c1:La:{owner}:{token}",
                                style=discord.ButtonStyle.success))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), found["token"])

    async def handle(self, interaction: Interaction) -> None:
        at = await self.service.lesson_at(interaction.user.id, self.owner, self.token)
        if not at.done:
            raise ServiceError(strings.LESSON_STALE)
        channel: Any = interaction.channel
        if interaction.guild is None:  # the lesson came by DM: the channel it was asked in
            channel = None
            if at.row.origin_channel:
                channel = interaction.client.get_channel(at.row.origin_channel)
                if channel is None:
                    try:
                        channel = await interaction.client.fetch_channel(at.row.origin_channel)
                    except discord.HTTPException:
                        channel = None
            if channel is None or getattr(channel, "guild", None) is None:
                raise ServiceError(strings.LESSON_NO_CHANNEL)
        await open_lesson_match(self.service, interaction, at, channel)


async def open_lesson_match(service: Service, interaction: Interaction, at: LessonAt,
                            channel: Any) -> None:
    """The lesson's set-up (its seats, its options), every other seat the easy AI, started at
    once: in a thread of its own (of the channel, or of the thread's channel for a lesson
    asked in a thread), so a channel's match does not stand in its way (two lessons in one
    channel); where no thread can be made, in the channel itself if it is free, else the
    player is told why it cannot start. Never a lobby, never a promise that fails."""
    lesson = at.lesson
    host = player(interaction.user)
    link = f"<#{channel.id}>"
    parent = getattr(channel, "parent_id", None) or channel.id
    await service.check_channel(channel.guild.id, parent)
    try:
        busy: int | None = (await service.in_channel(channel.id)).id
    except NotFound:
        busy = None
    base = channel if isinstance(channel, discord.TextChannel) else getattr(channel, "parent",
                                                                             None)
    allowed = interaction.app_permissions
    denied = isinstance(base, discord.TextChannel) and not (
        allowed.create_public_threads and allowed.send_messages_in_threads)
    if not isinstance(base, discord.TextChannel) or denied:
        base = None  # no thread can be made here: known before any match is opened
    if base is None and busy is not None:  # a channel without threads
        raise ServiceError(strings.LESSON_MATCH_NOWHERE, match_id=busy, link=link)

    async def opened(channel_id: int, **where: Any) -> Match:
        match = await service.open_match(
            game_id=lesson.id, options=dict(lesson.options), host=host, opponent=None,
            guild_id=channel.guild.id, channel_id=channel_id, parent_channel_id=parent,
            rated=False, ai_seats=("easy",) * (lesson.seats - 1), **where)
        note_match(match.id)
        return match

    await interaction.response.defer(ephemeral=True, thinking=True)
    if base is None:
        match = await opened(channel.id)
        await reply(interaction, phrase(strings.LESSON_MATCH_IN_CHANNEL, match_id=match.id,
                                        link=link) if denied
                    else opened_phrase(match, host.user_id, link))
        return
    match = await opened(-interaction.id, in_thread=True, announce=False)
    names = " vs ".join(seat.name for seat in match.seats)
    try:
        thread = await base.create_thread(
            name=texts_for(interaction)(phrase(
                strings.THREAD_NAME, game=Phrase(lesson.game.name), names=names))[:100],
            type=discord.ChannelType.public_thread, auto_archive_duration=10080)
    except discord.Forbidden:
        if busy is not None:
            await service.abort(match.id, host.user_id, is_manager=True)
            raise ServiceError(strings.LESSON_MATCH_NOWHERE, match_id=busy, link=link) from None
        match = await service.place_match(match.id, channel.id, in_thread=False)
        await reply(interaction, phrase(strings.LESSON_MATCH_IN_CHANNEL, match_id=match.id,
                                        link=link))
        return
    except (discord.HTTPException, TimeoutError):
        await service.abort(match.id, host.user_id, is_manager=True)
        raise ServiceError(strings.THREAD_FAILED) from None
    match = await service.place_match(match.id, thread.id, in_thread=True)
    await reply(interaction, phrase(strings.THREAD_OPENED, match_id=match.id,
                                    link=f"<#{thread.id}>"))


COMPONENTS: tuple[type[Component[Any]], ...] = (LessonButton, LessonMenu, LessonBack,
                                                LessonChoice, LessonRestart, LessonPlay)
