"""Conditional moves: /conditional, the player's own queue of "if they play X, I play Y" in
this channel's match, shown to them alone and entered with the step-by-step move entry of a
real match (bot/ui.py's `add_step`, with this view's components). The service decides who may
queue what (bot/service/conditional.py); every component names the match, the player, the ply
and the queue's length it was made for, so that a click on someone else's queue, on a queue
that has changed or on a match that has moved on changes nothing.

Custom ids (besides bot/ui.py's):

    c1:k:<match>:<user>:<ply>:<size>:<answers>         a step button
    c1:K:<match>:<user>:<ply>:<size>:<answers>:<page>  a step menu page
    c1:kb:<match>:<user>:<ply>:<size>:<answers>        Back to the previous question
    c1:kc:<match>:<user>                               Clear the queue
    c1:ko:<match>                                      open the clicker's queue (offered
                                                       with the answer to a move)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Self

import discord
from discord import app_commands

from games import Answer, GameError, Option, Step, phrase

from .. import strings
from ..i18n import Texts
from ..interactions import Handling, Interaction, Tree, note_match, reply, texts_for
from ..service import Match, Service, ServiceError, StaleAction
from ..service.conditional import ConditionalView, eligible
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
    match_here,
    step_view,
    template,
)


def register(tree: Tree, service: Service, handling: Handling) -> None:
    @tree.command(name="conditional", description="Queue replies to your opponent's next "
                                                  "moves (only you see them)")
    @app_commands.guild_only()
    async def conditional(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            view = await service.conditional_view(match, interaction.user.id)
            texts = texts_for(interaction)
            content, components = queue_message(view, (), texts)
            await reply(interaction, content, view=components)


def after_move_view(match: Match, user_id: int, texts: Texts) -> StaticView | None:
    """The answer to a move made with `/move`: a button that opens the mover's queue, when
    the match takes conditional moves and waits on the opponent now."""
    mover = match.to_move()
    if not eligible(match) or mover is None or mover.user_id == user_id:
        return None
    view = StaticView()
    view.add_item(QueueOpen(match.id, label=texts(strings.BUTTON_CONDITIONAL)))
    return view


def joined(plies: Sequence[str]) -> str:
    return " ".join(plies)


def queue_message(view: ConditionalView, answers: tuple[Answer, ...], texts: Texts,
                  lead: Sequence[str] = ()) -> tuple[str, StaticView]:
    """The queue in words, and the entry of its next ply (after `answers`)."""
    match = view.match
    lines = [*lead, texts(phrase(strings.CONDITIONAL_HEADER, match_id=match.id))]
    for number, pair in enumerate(view.pairs, 1):
        lines.append(texts(phrase(strings.CONDITIONAL_PAIR, n=number, theirs=joined(pair.theirs),
                                  mine=joined(pair.mine))))
    if not view.pairs:
        lines.append(texts(strings.CONDITIONAL_EMPTY))
    components = StaticView()
    size = view.size
    rows = 0
    if not view.over:
        if view.entering_mine:
            lines.append(texts(phrase(strings.CONDITIONAL_ENTER_MINE,
                                      theirs=joined(view.draft_pair.theirs))))
        else:
            lines.append(texts(strings.CONDITIONAL_ENTER_THEIRS))
        items = QueueItems(match.id, view.user_id, match.ply(), size)
        question, answers = first_step(match.game, view.position, answers)
        if isinstance(question, str):  # a single possible move: one button enters it
            components.add_item(items.button(answers, question, 0))
            rows = 1
        else:
            lines.append(texts(question.prompt))
            back = manual_answers(match.game, view.position, answers) > 0
            components = step_view(question, match.id, match.ply(), answers, texts, back=back,
                                   items=items)
            rows = 4
    if size:
        components.add_item(QueueClear(match.id, view.user_id, row=min(rows, 4),
                                       label=texts(strings.BUTTON_CONDITIONAL_CLEAR)))
    return "\n".join(lines), components


async def queue_step(service: Service, interaction: Interaction, match_id: int, owner: int,
                     ply: int, size: int, answers: tuple[Answer, ...]) -> None:
    """A click on the queue's entry: the next question, or the ply once complete."""
    if interaction.user.id != owner:
        raise ServiceError(strings.CONDITIONAL_NOT_YOURS)
    match = await match_here(service, interaction, match_id)
    view = await service.conditional_view(match, owner)
    if match.ply() != ply or view.size != size:
        raise StaleAction(strings.CONDITIONAL_STALE)
    if view.over:
        raise ServiceError(strings.CONDITIONAL_FULL)
    try:
        question, answers = first_step(match.game, view.position, answers)
    except GameError as exc:
        raise ServiceError(strings.ILLEGAL_CHOICE, reason=exc.phrase) from None
    texts = texts_for(interaction)
    lead: list[str] = []
    if isinstance(question, str):
        view = await service.add_conditional(match.id, owner, ply, size, question)
        if not view.draft:
            lead.append(texts(strings.CONDITIONAL_SAVED))
        answers = ()
    content, components = queue_message(view, answers, texts, lead)
    await interaction.response.edit_message(content=content, view=components)


class QueueItems(StepItems):
    """The move entry's components, entering a ply of the queue."""

    def __init__(self, match_id: int, owner: int, ply: int, size: int) -> None:
        super().__init__(match_id, ply)
        self.owner, self.size = owner, size

    def button(self, answers: Sequence[Answer], label: str,
               row: int | None) -> discord.ui.Item[Any]:
        return QueueButton(self.match_id, self.owner, self.ply, self.size, answers,
                           label=label, row=row)

    def menu(self, answers: Sequence[Answer], page: int, step: Step, options: Sequence[Option],
             placeholder: str, texts: Texts, row: int | None) -> discord.ui.Item[Any]:
        return QueueMenu(self.match_id, self.owner, self.ply, self.size, answers, page,
                         picks=step.picks, options=[discord.SelectOption(
                             label=texts(o.label)[:100], value=o.value,
                             description=texts(o.description)[:100]
                             if o.description is not None else None) for o in options],
                         placeholder=placeholder, row=row)

    def back(self, answers: Sequence[Answer], label: str,
             row: int | None) -> discord.ui.Item[Any]:
        return QueueBack(self.match_id, self.owner, self.ply, self.size, answers, label=label,
                         row=row)


def _answers(text: str) -> tuple[Answer, ...]:
    found = decode_answers(text)
    assert found is not None  # the template matched: well formed
    return found


_HEAD = rf"(?P<match>{ID}):(?P<user>{ID}):(?P<ply>{ID}):(?P<size>[0-9]{{1,3}})"


class QueueButton(Component[discord.ui.Button[Any]],
                  template=template(rf"c1:k:{_HEAD}:(?P<answers>{ANSWERS})")):
    def __init__(self, match_id: int, owner: int, ply: int, size: int,
                 answers: Sequence[Answer], *, label: str = "", row: int | None = None) -> None:
        self.match_id, self.owner, self.ply, self.size = match_id, owner, ply, size
        self.answers = tuple(answers)
        super().__init__(button(label, f"c1:k:{match_id}:{owner}:{ply}:{size}:"
                                       f"{encode_answers(answers)}", row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["user"]), int(found["ply"]),
                   int(found["size"]), _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        await queue_step(self.service, interaction, self.match_id, self.owner, self.ply,
                         self.size, self.answers)


class QueueMenu(Component[discord.ui.Select[Any]],
                template=template(rf"c1:K:{_HEAD}:(?P<answers>{ANSWERS}):(?P<page>[0-9])")):
    def __init__(self, match_id: int, owner: int, ply: int, size: int,
                 answers: Sequence[Answer], page: int, *, picks: int = 1,
                 options: Sequence[discord.SelectOption] = (), placeholder: str = "",
                 row: int | None = None) -> None:
        self.match_id, self.owner, self.ply, self.size = match_id, owner, ply, size
        self.answers, self.page = tuple(answers), page
        super().__init__(discord.ui.Select(
            custom_id=f"c1:K:{match_id}:{owner}:{ply}:{size}:{encode_answers(answers)}:{page}",
            placeholder=placeholder[:150] or None, min_values=picks, max_values=picks,
            row=row, options=list(options)))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["user"]), int(found["ply"]),
                   int(found["size"]), _answers(found["answers"]), int(found["page"]))

    async def handle(self, interaction: Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        raw = data.get("values")
        values = [str(v)[:16] for v in raw][:25] if isinstance(raw, list) else []
        await queue_step(self.service, interaction, self.match_id, self.owner, self.ply,
                         self.size, self.answers + (tuple(values),))


class QueueBack(Component[discord.ui.Button[Any]],
                template=template(rf"c1:kb:{_HEAD}:(?P<answers>{ANSWERS})")):
    def __init__(self, match_id: int, owner: int, ply: int, size: int,
                 answers: Sequence[Answer], *, label: str = "", row: int | None = None) -> None:
        self.match_id, self.owner, self.ply, self.size = match_id, owner, ply, size
        self.answers = tuple(answers)
        super().__init__(button(label, f"c1:kb:{match_id}:{owner}:{ply}:{size}:"
                                       f"{encode_answers(answers)}",
                                style=discord.ButtonStyle.secondary, row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["user"]), int(found["ply"]),
                   int(found["size"]), _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        if interaction.user.id != self.owner:
            raise ServiceError(strings.CONDITIONAL_NOT_YOURS)
        match = await match_here(self.service, interaction, self.match_id)
        view = await self.service.conditional_view(match, self.owner)
        keep = max(0, manual_answers(match.game, view.position, self.answers) - 1)
        await queue_step(self.service, interaction, self.match_id, self.owner, self.ply,
                         self.size, self.answers[:keep])


class QueueClear(Component[discord.ui.Button[Any]],
                 template=template(rf"c1:kc:(?P<match>{ID}):(?P<user>{ID})")):
    def __init__(self, match_id: int, owner: int, *, label: str = "",
                 row: int | None = None) -> None:
        self.match_id, self.owner = match_id, owner
        super().__init__(button(label, f"c1:kc:{match_id}:{owner}",
                                style=discord.ButtonStyle.danger, row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["user"]))

    async def handle(self, interaction: Interaction) -> None:
        if interaction.user.id != self.owner:
            raise ServiceError(strings.CONDITIONAL_NOT_YOURS)
        match = await match_here(self.service, interaction, self.match_id)
        await self.service.clear_conditional(match.id, self.owner)
        await interaction.response.edit_message(
            content=texts_for(interaction)(phrase(strings.CONDITIONAL_CLEARED,
                                                  match_id=match.id)), view=None)


class QueueOpen(Component[discord.ui.Button[Any]],
                template=template(rf"c1:ko:(?P<match>{ID})")):
    def __init__(self, match_id: int, *, label: str = "") -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:ko:{match_id}", style=discord.ButtonStyle.secondary))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        match = await match_here(self.service, interaction, self.match_id)
        view = await self.service.conditional_view(match, interaction.user.id)
        content, components = queue_message(view, (), texts_for(interaction))
        await reply(interaction, content, view=components)


COMPONENTS: tuple[type[Component[Any]], ...] = (QueueButton, QueueMenu, QueueBack, QueueClear,
                                                QueueOpen)
