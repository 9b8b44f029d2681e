"""Conditional moves: /conditional, the player's own queue of "if they play X, I play Y" in
this channel's match, shown to them alone and entered with the step-by-step move entry of a
real match (bot/ui.py's `add_step`, with this view's components). The service decides who may
queue what (bot/service/conditional.py); every component names the match, the player, the ply
and the queue's length it was made for, so that a click on someone else's queue, on a queue
that has changed or on a match that has moved on changes nothing.

Each message shows the position after the moves chosen so far (the picture of the step being
answered), asks in the right person (the step's `their_prompt` while entering the opponent's
move), writes out the pair being entered in full (a turn of several moves too), and lists the
queue as small boards (render/queue.py), the pair being entered last: one picture (a phone
shows two side by side, each too small to read), drawn in the worker pool. A click on a
view that the queue or the match has left behind says so and shows the queue as it is now (or,
when there is nothing left to queue, why), instead of a bare refusal.

Custom ids (besides bot/ui.py's):

    c1:k:<match>:<user>:<ply>:<size>:<answers>         a step button
    c1:K:<match>:<user>:<ply>:<size>:<answers>:<page>  a step menu page
    c1:kb:<match>:<user>:<ply>:<size>:<answers>        Back to the previous question
    c1:kc:<match>:<user>[:<ply>:<size>]                Clear the queue (the view it was
                                                       shown with; older ids name none)
    c1:ko:<match>                                      open the clicker's queue (offered
                                                       with the answer to a move)
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

import discord

from games import ALT_TEXT_LIMIT, Answer, GameError, Option, Phrase, Step, phrase

from ..interactions import Handling, Interaction, Tree, note_match, reply, texts_for
from ..pictures import described_picture, queue_picture
from ..pool import Workers
from ..service import Match, Service, ServiceError
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
from ..words import strings
from ..words.descriptions import cut
from ..words.i18n import Texts


def register(tree: Tree, service: Service, handling: Handling, pictures: Workers) -> None:
    @tree.command(name="conditional", description="Queue replies to your opponent's next "
                                                  "moves (only you see them)")
    async def conditional(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            view = await service.conditional_view(match, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            texts = texts_for(interaction)
            content, components = queue_message(view, (), texts)
            await reply(interaction, content, view=components,
                        files=await queue_files(pictures, view, texts))


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
        lines.append(texts(draft_line(view)))
        items = QueueItems(match.id, view.user_id, match.ply(), size)
        question, answers = first_step(match.game, view.position, answers)
        if isinstance(question, str):  # a single possible move: one button enters it
            components.add_item(items.button(answers, question, 0))
            rows = 1
        else:  # asked of the player's own reply, or of the opponent's move ("will they")
            question = dataclasses.replace(question,
                                           prompt=question.prompt_for(view.entering_mine))
            lines.append(texts(question.prompt))
            back = manual_answers(match.game, view.position, answers) > 0
            components = step_view(question, match.id, match.ply(), answers, texts, back=back,
                                   items=items)
            rows = 4
    if size:
        components.add_item(QueueClear(match.id, view.user_id, match.ply(), size,
                                       row=min(rows, 4),
                                       label=texts(strings.BUTTON_CONDITIONAL_CLEAR)))
    return "\n".join(lines), components


def draft_line(view: ConditionalView) -> Phrase:
    """What is being entered next, the pair so far written out in full (a turn of several
    moves shows each of them)."""
    draft = view.draft_pair
    if view.entering_mine and draft.mine:
        return phrase(strings.CONDITIONAL_ENTER_MINE_MORE, theirs=joined(draft.theirs),
                      mine=joined(draft.mine))
    if view.entering_mine:
        return phrase(strings.CONDITIONAL_ENTER_MINE, theirs=joined(draft.theirs))
    if draft.theirs:
        return phrase(strings.CONDITIONAL_ENTER_THEIRS_MORE, theirs=joined(draft.theirs))
    return phrase(strings.CONDITIONAL_ENTER_THEIRS)


async def queue_files(pictures: Workers, view: ConditionalView,
                      texts: Texts) -> list[discord.File]:
    """The picture of a queue's message, drawn in the worker pool and seen by the queue's
    owner: one picture, so that a phone shows it whole (Discord sets two side by side, each
    half as wide). The position after the moves chosen so far, as a board, while no pair is
    queued; else the queue as small boards, one per pair (the position after it), and after
    them the pair being entered, if any (the position the next move is entered on)."""
    match, game = view.match, view.match.game
    names = match.names()
    if not view.pairs:
        if view.over:
            return []
        png, alt = await pictures.run(described_picture, game.id,
                                      game.to_json(view.position), view.seat, names, None,
                                      texts.language, view.seat)
        return [discord.File(io.BytesIO(png), filename="position.png",
                             description=alt or None)]
    heading = texts(phrase(strings.CONDITIONAL_PICTURE_HEADING, match_id=match.id))
    pairs = [(texts(phrase(strings.CONDITIONAL_PICTURE_PAIR, n=number,
                           theirs=joined(pair.theirs), mine=joined(pair.mine))),
              (*pair.theirs, *pair.mine))
             for number, pair in enumerate(view.pairs, 1)]
    if view.draft:
        pairs.append((texts(phrase(strings.CONDITIONAL_PICTURE_DRAFT, n=len(pairs) + 1,
                                   moves=joined(view.draft))), view.draft))
    png = await pictures.run(queue_picture, game.id, match.row.state, view.seat, pairs,
                             heading, names, texts.language)
    alt = texts(phrase(strings.ALT_QUEUE, heading=heading,
                       pairs=" ".join(caption for caption, _ in pairs)))
    return [discord.File(io.BytesIO(png), filename="queue.png",
                         description=cut(alt, ALT_TEXT_LIMIT))]


async def current(service: Service, pictures: Workers, interaction: Interaction,
                  match_id: int, owner: int, ply: int | None,
                  size: int | None) -> ConditionalView | None:
    """The owner's queue, if the view clicked on (made at `ply` with `size` plies queued) is
    still its view; else None, the message answered with what changed: the queue as it is now
    (its own components and pictures), or why there is none to show (their turn, the match
    over). Never a live button that then refuses."""
    if interaction.user.id != owner:
        raise ServiceError(strings.CONDITIONAL_NOT_YOURS)
    match = await match_here(service, interaction, match_id)
    texts = texts_for(interaction)
    try:
        view = await service.conditional_view(match, owner)
    except ServiceError as exc:
        if ply is not None and match.ply() == ply:
            raise
        await interaction.response.edit_message(
            content="\n".join((texts(strings.CONDITIONAL_CHANGED), texts(exc.phrase))),
            view=None, attachments=[])
        return None
    if ply is None or size is None or (match.ply() == ply and view.size == size):
        return view
    await interaction.response.defer()
    content, components = queue_message(view, (), texts, [texts(strings.CONDITIONAL_CHANGED),
                                                          texts(strings.CONDITIONAL_NOW)])
    await interaction.edit_original_response(content=content, view=components,
                                             attachments=await queue_files(pictures, view,
                                                                           texts))
    return None


async def queue_step(service: Service, pictures: Workers, interaction: Interaction,
                     match_id: int, owner: int, ply: int, size: int,
                     answers: tuple[Answer, ...]) -> None:
    """A click on the queue's entry: the next question, or the ply once complete (then the
    pictures are drawn again: the position has moved on)."""
    found = await current(service, pictures, interaction, match_id, owner, ply, size)
    if found is None:
        return
    view, match = found, found.match
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
    if not isinstance(question, str):  # the same position, one more question: same pictures
        await interaction.response.edit_message(content=content, view=components)
        return
    await interaction.response.defer()
    await interaction.edit_original_response(content=content, view=components,
                                             attachments=await queue_files(pictures, view,
                                                                           texts))


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


class QueueComponent(Component[Any], template=r"(?!)"):
    pictures: ClassVar[Workers]


class QueueButton(QueueComponent,
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
        await queue_step(self.service, self.pictures, interaction, self.match_id, self.owner,
                         self.ply,
                         self.size, self.answers)


class QueueMenu(QueueComponent,
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
        await queue_step(self.service, self.pictures, interaction, self.match_id, self.owner,
                         self.ply,
                         self.size, self.answers + (tuple(values),))


class QueueBack(QueueComponent,
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
        view = await current(self.service, self.pictures, interaction, self.match_id,
                             self.owner, self.ply, self.size)
        if view is None:
            return
        keep = max(0, manual_answers(view.match.game, view.position, self.answers) - 1)
        await queue_step(self.service, self.pictures, interaction, self.match_id, self.owner,
                         self.ply,
                         self.size, self.answers[:keep])


class QueueClear(QueueComponent,
                 template=template(rf"c1:kc:(?P<match>{ID}):(?P<user>{ID})"
                                   rf"(?::(?P<ply>{ID}):(?P<size>[0-9]{{1,3}}))?")):
    def __init__(self, match_id: int, owner: int, ply: int | None = None,
                 size: int | None = None, *, label: str = "", row: int | None = None) -> None:
        self.match_id, self.owner, self.ply, self.size = match_id, owner, ply, size
        shown = f":{ply}:{size}" if ply is not None and size is not None else ""
        super().__init__(button(label, f"c1:kc:{match_id}:{owner}{shown}",
                                style=discord.ButtonStyle.danger, row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        ply, size = found["ply"], found["size"]
        return cls(int(found["match"]), int(found["user"]),
                   int(ply) if ply is not None else None,
                   int(size) if size is not None else None)

    async def handle(self, interaction: Interaction) -> None:
        # a queue other than the one shown (replaced, or cleared by their move) is not
        # cleared by this view's button: the view shows what changed instead
        view = await current(self.service, self.pictures, interaction, self.match_id,
                             self.owner, self.ply, self.size)
        if view is None:
            return
        await self.service.clear_conditional(view.match.id, self.owner)
        await interaction.response.edit_message(
            content=texts_for(interaction)(phrase(strings.CONDITIONAL_CLEARED,
                                                  match_id=view.match.id)),
            view=None, attachments=[])


class QueueOpen(QueueComponent,
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
        await interaction.response.defer(ephemeral=True, thinking=True)
        texts = texts_for(interaction)
        content, components = queue_message(view, (), texts)
        await reply(interaction, content, view=components,
                    files=await queue_files(self.pictures, view, texts))


COMPONENTS: tuple[type[Component[Any]], ...] = (QueueButton, QueueMenu, QueueBack, QueueClear,
                                                QueueOpen)
