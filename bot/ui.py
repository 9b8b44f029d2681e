"""Components: what their custom ids say, the class each kind of component is, and the generic
step-by-step move entry drawn from what each game declares (`Game.move_input`). No game is
named here and no notation is parsed.

Custom ids (at most 100 characters; everything a component needs survives restarts):

    c1:s:<match>:<ply>:<answers>         a step button (the chosen value is the last answer)
    c1:S:<match>:<ply>:<answers>:<page>  a step menu page (the chosen values come with the click)
    c1:b:<match>:<ply>:<answers>         Back to the previous question
    c1:p:<match>:<ply>                   Play… (a move whose first question is private)
    c1:v:<match>                         My view (private view, ephemeral)
    c1:h:<match>                         Moves (the move list, ephemeral)
    c1:l:<action>:<match>                lobby: join / start / cancel / accept / decline / ai
    c1:r:<match>                         confirm /resign
    c1:c:<match>:<version>               claim the win or skip the turn of a timed-out player
    c1:o:<offer>:<a|d>                   accept or decline a draw or takeback offer
    c1:m:<match>                         rematch
    c1:R:<match>:<ply>:<f|b|n|l>         replay viewer: show the position after <ply> entries
                                         (the letter keeps First/Back/Next/Last ids distinct)
    c1:y:<match>:<ply>:<notation>        play a typed move again that repeats the player's own
                                         move of a moment ago (asked, as it may be a retry)
    corral:mv:<match>:<ply>:<notation>   a move button of boards posted before the step flow
    c1:L…, c1:k… / c1:K…                 a lesson's and a conditional-move queue's components
                                         (the step entry's, with ids of their own): see
                                         bot/cogs/learn.py and bot/cogs/conditional.py

`answers` are the values chosen so far: steps separated by `/`, several picks of one step by
`.` (values are ASCII letters, digits, `+` and `-`, as the games promise).

Each kind is one `Component` class (a discord.py `DynamicItem`): its template (the line above
as a regular expression), how it is built for a message, how a click is read back
(`from_match`) and what a click does (`handle`), together. The templates are the whole
grammar: an id they match is one the bot made (numbers within the database's range, answers
well formed, 100 characters at most), so a forged, foreign or oversized id matches none and
gets the short refusal of `bot/cogs/__init__.py`. The classes are bound to what their handlers
use (`Component.bound`) and a click finds its class by its custom id alone (`cogs.Clicks`,
not discord.py's own routing, which rebuilds the message's whole view first); messages carry
their components as data (`StaticView`), and nothing is kept in memory per message.

Here: the component base and the step entry's components (step buttons, menu pages, Back,
Play…) with their handler. The others live next to theirs: the board's in bot/boards.py,
the lobby's in bot/lobby.py, a notice's in bot/notices.py, and the rest with their commands
in bot/cogs/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self, TypeVar

import discord
from discord.ui import DynamicItem

from games import Answer, Game, GameError, Option, Phrase, Step, phrase

from .interactions import Handling, Interaction, note_match, reply, texts_for, via
from .service import Match, MoveResult, Service, ServiceError, StaleAction
from .words import strings
from .words.i18n import Texts

MAX_ID = (1 << 63) - 1  # SQLite's and PostgreSQL's bigint
MAX_CUSTOM_ID = 100  # Discord's limit on a custom id
BUTTONS_PER_ROW = 5
MAX_STEP_BUTTONS = 20  # 4 rows, leaving the fifth for Back / Moves / My view
OPTIONS_PER_MENU = 25
MAX_MENUS = 4


def at_most(limit: int, digits: int = 19) -> str:
    """A regular expression of the numbers of 1 to `digits` decimal digits (leading zeros
    allowed) whose value is at most `limit`, which has exactly `digits` digits."""
    text = str(limit)
    assert len(text) == digits
    alternatives = [f"[0-9]{{1,{digits - 1}}}"]
    for at, digit in enumerate(text):
        if digit != "0":
            low = "0" if digit == "1" else f"[0-{int(digit) - 1}]"
            rest = digits - at - 1
            alternatives.append(text[:at] + low + (f"[0-9]{{{rest}}}" if rest else ""))
    alternatives.append(text)
    return "(?:" + "|".join(alternatives) + ")"


ID = at_most(MAX_ID)
_VALUE = r"[A-Za-z0-9+-]{1,16}"
_PICKS = rf"{_VALUE}(?:\.{_VALUE})*"
# at most 60 characters of answers, each step's picks well formed
ANSWERS = rf"(?=[A-Za-z0-9+./-]{{0,60}}(?![A-Za-z0-9+./-]))(?:{_PICKS}(?:/{_PICKS})*)?"
NOTATION = r"[\w@>:,+ -]{1,60}"  # a canonical move, as the games write them
_VALUE_RE = re.compile(_VALUE)


def template(text: str) -> str:
    """A custom id's template: `text`, in at most 100 characters."""
    return rf"(?=.{{1,{MAX_CUSTOM_ID}}}\Z){text}"


ItemT = TypeVar("ItemT", bound="discord.ui.Item[Any]", covariant=True)


class Component(DynamicItem[ItemT], template=r"(?!)"):
    """A kind of component: a subclass gives its template (`template=` in its class line),
    `__init__` (the component as sent), `from_match` (a click read back from the custom id)
    and `handle` (what the click does, inside the one error handler)."""

    # what the handlers use, given at registration (`bound`): the one error handler, and
    # the service; a kind that needs more declares it the same way
    handling: ClassVar[Handling]
    service: ClassVar[Service]

    @classmethod
    def bound(cls, **collaborators: Any) -> type[Self]:
        """This kind, as clicks find it: a subclass holding what its handler uses (only what
        it declares), so that nothing reaches for it through the client."""
        wanted = {name for klass in cls.__mro__ for name in vars(klass).get("__annotations__", {})}
        given = {name: value for name, value in collaborators.items() if name in wanted}
        return type(cls.__name__, (cls,), given,
                    template=cls.__discord_ui_compiled_template__)

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls.from_match(match)

    async def callback(self, interaction: Interaction) -> None:
        async with self.handling(interaction):
            await self.handle(interaction)

    async def handle(self, interaction: Interaction) -> None:
        raise NotImplementedError


def parse(kinds: Sequence[type[Component[Any]]], custom_id: str) -> Component[Any] | None:
    """The component a custom id names among `kinds`, or None for a forged or foreign one."""
    for kind in kinds:
        found = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        if found is not None:
            return kind.from_match(found)
    return None


def encode_answers(answers: Sequence[Answer]) -> str:
    return "/".join(".".join(answer) for answer in answers)


def decode_answers(text: str) -> tuple[Answer, ...] | None:
    if not text:
        return ()
    answers = []
    for part in text.split("/"):
        values = tuple(part.split("."))
        if not all(_VALUE_RE.fullmatch(v) for v in values):
            return None
        answers.append(values)
    return tuple(answers)


def _answers(text: str) -> tuple[Answer, ...]:
    """Answers of an id its template matched (so they are well formed)."""
    answers = decode_answers(text)
    assert answers is not None
    return answers


class StaticView(discord.ui.View):
    """Components sent as data: a click is answered by the component class its custom id
    names (registered with the client), so no view object is kept in memory per message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        """Never listening: discord.py stores every unfinished view an interaction's answer
        carries (whatever `is_dispatchable` says), and storing one registers its items'
        classes for discord.py's own routing of clicks: each click would then be answered
        twice, once by a class with no service to call."""
        return True


class StaticLayout(discord.ui.LayoutView):
    """A Components V2 message sent as data, as `StaticView` is for classic ones: clicks are
    answered by the component classes their custom ids name, nothing is kept per message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True


BOARD_FILE = "board.png"  # a board message's picture
IS_COMPONENTS_V2 = 1 << 15  # discord.MessageFlags.components_v2


def retired_layout(message: discord.Message) -> StaticLayout | None:
    """A clicked V2 board as it stays once its move is in: its text and picture without the
    controls (links stay: they send no click), read from the message itself; None for a
    classic one (which loses every component)."""
    if not message.flags.components_v2:
        return None
    found = discord.ui.LayoutView.from_message(message, timeout=None)
    layout = StaticLayout()
    for item in found.children:
        layout.add_item(_without_controls(item))
    return layout


def _without_controls(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    if isinstance(item, discord.ui.Container):
        kept: discord.ui.Container[Any] = discord.ui.Container(
            accent_colour=item.accent_colour, spoiler=item.spoiler)
        for child in item.children:
            if isinstance(child, discord.ui.ActionRow):
                links = [c for c in child.children if isinstance(c, discord.ui.Button)
                         and c.style is discord.ButtonStyle.link]
                if links:
                    kept.add_item(discord.ui.ActionRow(*links))
            else:
                kept.add_item(_without_controls(child))
        return kept
    if isinstance(item, discord.ui.MediaGallery):  # its own attachment, by name
        for entry in item.items:
            name = entry.media.url.split("?")[0].rsplit("/", 1)[-1]
            if name == BOARD_FILE:
                entry.media = f"attachment://{BOARD_FILE}"
    return item


def button(label: str, custom_id: str, *, style: discord.ButtonStyle = discord.ButtonStyle.primary,
           row: int | None = None, disabled: bool = False) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row,
                             disabled=disabled)


# -- the step entry's components -----------------------------------------------------------------
def played(result: MoveResult) -> Phrase:
    """What the mover is told once their move is in."""
    if result.already:
        return phrase(strings.ALREADY_PLAYED, notation=result.notation, ply=result.ply + 1)
    return phrase(strings.YOU_PLAYED, notation=result.notation, match_id=result.match.id)


async def match_here(service: Service, interaction: Interaction, match_id: int) -> Match:
    """The match a component names, refused unless it is clicked where the match is played."""
    note_match(match_id)
    match = await service.get(match_id)
    # a match only interactions reach sends its board to its players' DMs with the bot when
    # no interaction can carry it to its channel: played there as well
    by_dm = match.row.by_interactions and interaction.context.dm_channel
    if interaction.channel_id not in match.row.channels and not by_dm:
        raise ServiceError(strings.WRONG_CHANNEL, match_id=match.id)
    return match


class StepButton(Component[discord.ui.Button[Any]],
                 template=template(rf"c1:s:(?P<match>{ID}):(?P<ply>{ID}):(?P<answers>{ANSWERS})")):
    """A step's option: the answers so far, the chosen value last."""

    def __init__(self, match_id: int, ply: int, answers: Sequence[Answer], *, label: str = "",
                 row: int | None = None) -> None:
        self.match_id, self.ply, self.answers = match_id, ply, tuple(answers)
        super().__init__(button(label, f"c1:s:{match_id}:{ply}:{encode_answers(answers)}",
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["ply"]), _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        match = await match_here(self.service, interaction, self.match_id)
        await advance(self.service, interaction, match, self.answers, self.ply)


class StepMenu(Component[discord.ui.Select[Any]],
               template=template(rf"c1:S:(?P<match>{ID}):(?P<ply>{ID}):(?P<answers>{ANSWERS})"
                                 r":(?P<page>[0-9])")):
    """A page of a step's options (at most 25): the values chosen come with the click."""

    def __init__(self, match_id: int, ply: int, answers: Sequence[Answer], page: int, *,
                 step: Step | None = None, options: Sequence[Option] = (),
                 placeholder: str = "", texts: Texts | None = None,
                 row: int | None = None) -> None:
        self.match_id, self.ply, self.answers, self.page = match_id, ply, tuple(answers), page
        texts = texts or Texts()
        picks = step.picks if step is not None else 1
        super().__init__(discord.ui.Select(
            custom_id=f"c1:S:{match_id}:{ply}:{encode_answers(answers)}:{page}",
            placeholder=placeholder[:150] or None, min_values=picks, max_values=picks,
            row=row, options=[_select_option(o, texts) for o in options]))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["ply"]), _answers(found["answers"]),
                   int(found["page"]))

    async def handle(self, interaction: Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        raw = data.get("values")
        values = [str(v)[:16] for v in raw][:25] if isinstance(raw, list) else []
        match = await match_here(self.service, interaction, self.match_id)
        await advance(self.service, interaction, match, self.answers + (tuple(values),),
                      self.ply)


class BackButton(Component[discord.ui.Button[Any]],
                 template=template(rf"c1:b:(?P<match>{ID}):(?P<ply>{ID}):(?P<answers>{ANSWERS})")):
    """Back to the previous question the player chose (steps answered alone are skipped)."""

    def __init__(self, match_id: int, ply: int, answers: Sequence[Answer], *, label: str = "",
                 row: int | None = None) -> None:
        self.match_id, self.ply, self.answers = match_id, ply, tuple(answers)
        super().__init__(button(label, f"c1:b:{match_id}:{ply}:{encode_answers(answers)}",
                                style=discord.ButtonStyle.secondary, row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["ply"]), _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        match = await match_here(self.service, interaction, self.match_id)
        keep = max(0, manual_answers(match.game, match.state, self.answers) - 1)
        await advance(self.service, interaction, match, self.answers[:keep], self.ply)


class PlayButton(Component[discord.ui.Button[Any]],
                 template=template(rf"c1:p:(?P<match>{ID}):(?P<ply>{ID})")):
    """Play…: a move whose first question is private starts in a message only the mover
    sees."""

    def __init__(self, match_id: int, ply: int, *, label: str = "",
                 row: int | None = None) -> None:
        self.match_id, self.ply = match_id, ply
        super().__init__(button(label, f"c1:p:{match_id}:{ply}", row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["ply"]))

    async def handle(self, interaction: Interaction) -> None:
        match = await match_here(self.service, interaction, self.match_id)
        await advance(self.service, interaction, match, (), self.ply)


STEP_COMPONENTS: tuple[type[Component[Any]], ...] = (StepButton, StepMenu, BackButton,
                                                     PlayButton)


async def advance(service: Service, interaction: Interaction, match: Match,
                  answers: tuple[Answer, ...], ply: int | None) -> None:
    """A click on a step's button or menu: the next question, or the move once complete."""
    if (match.row.by_interactions and ply is not None and match.state is not None
            and interaction.channel_id in match.row.channels
            and match.row.seat_of(interaction.user.id) is not None
            and (ply != match.ply() or match.status != "active")
            and await service.move_made_at(match.id, interaction.user.id, ply) is None):
        # the bot could not bring this board up to date itself (only interactions reach its
        # channel): this click does
        await service.repost_board(match.id)
        await reply(interaction, strings.BOARD_BROUGHT_UP)
        return
    try:
        step, answers = service.move_input(match, interaction.user.id, answers,
                                           expected_ply=ply)
    except StaleAction:
        made = None if ply is None else await service.move_made_at(
            match.id, interaction.user.id, ply)
        if made is None:
            raise
        await reply(interaction, phrase(strings.ALREADY_PLAYED, notation=made.notation,
                                        ply=made.ply + 1))
        return
    private_message = bool(interaction.message and interaction.message.flags.ephemeral)
    texts = texts_for(interaction)
    if isinstance(step, str):
        board = interaction.message if interaction.message and not private_message else None
        result = await service.play(match.id, interaction.user.id, step, expected_ply=ply,
                                    interaction_id=interaction.id,
                                    answered_on=board.id if board else None, seen=match,
                                    via=via(interaction))
        if private_message:
            await interaction.response.edit_message(content=texts(played(result)), view=None,
                                                    attachments=[])
        elif result.already:
            await reply(interaction, played(result))
        else:  # the board clicked on is retired at once (no edit later); the new one follows
            # a V2 board keeps its text and picture, a classic one (posted before) loses all
            kept = retired_layout(board) if board is not None else None
            try:
                await interaction.response.edit_message(view=kept)
            except discord.HTTPException:
                if board is not None:
                    await service.board_kept_live(
                        result.match, board.id, board.channel.id,
                        retired=None if kept is None else json.dumps(kept.to_components()))
                raise
        return
    content = texts(phrase(strings.STEP_PROMPT, match_id=match.id, ply=match.ply() + 1,
                           prompt=step.prompt))
    if step.private:
        content += " " + texts(strings.PRIVATE_HINT)
    view = step_view(step, match.id, match.ply(), answers, texts,
                     back=manual_answers(match.game, match.state, answers) > 0)
    if private_message:
        await interaction.response.edit_message(content=content, view=view, attachments=[])
    else:
        await interaction.response.send_message(content, view=view, ephemeral=True)


# -- the step entry's questions --------------------------------------------------------------
def first_step(game: Game, state: Any, answers: tuple[Answer, ...] = ()
               ) -> tuple[Step | str, tuple[Answer, ...]]:
    """The first question worth asking (after `answers`): steps with a single option are
    answered at once. A GameError for answers the game refuses."""
    while True:
        step = game.move_input(state, answers)
        if isinstance(step, str) or len(step.options) > step.picks:
            return step, answers
        answers = answers + (tuple(o.value for o in step.options),)


class StepItems:
    """The components a step is answered with, and where their clicks go: a match's move at
    a ply (here), or another use of the same questions (a lesson's step, bot/cogs/learn.py)."""

    def __init__(self, match_id: int, ply: int) -> None:
        self.match_id, self.ply = match_id, ply

    def button(self, answers: Sequence[Answer], label: str,
               row: int | None) -> discord.ui.Item[Any]:
        return StepButton(self.match_id, self.ply, answers, label=label, row=row)

    def menu(self, answers: Sequence[Answer], page: int, step: Step, options: Sequence[Option],
             placeholder: str, texts: Texts, row: int | None) -> discord.ui.Item[Any]:
        return StepMenu(self.match_id, self.ply, answers, page, step=step, options=options,
                        placeholder=placeholder, texts=texts, row=row)

    def back(self, answers: Sequence[Answer], label: str,
             row: int | None) -> discord.ui.Item[Any]:
        return BackButton(self.match_id, self.ply, answers, label=label, row=row)


def add_step(view: discord.ui.View, step: Step, match_id: int, ply: int,
             answers: Sequence[Answer], texts: Texts, *, items: StepItems | None = None) -> int:
    """Buttons when a step has few options, else menus of at most 25 options each; returns
    the number of rows used."""
    made = items or StepItems(match_id, ply)
    prompt = texts(step.prompt)
    options = list(step.options)
    if step.picks == 1 and len(options) <= MAX_STEP_BUTTONS:
        for index, option in enumerate(options):
            view.add_item(made.button(tuple(answers) + ((option.value,),),
                                      texts(option.label), index // BUTTONS_PER_ROW))
        return -(-len(options) // BUTTONS_PER_ROW)
    pages = [options[i:i + OPTIONS_PER_MENU] for i in range(0, len(options), OPTIONS_PER_MENU)]
    for page, chunk in enumerate(pages[:MAX_MENUS]):
        placeholder = prompt if len(pages) == 1 else texts(phrase(
            strings.PICK_PAGE, prompt=prompt, first=texts(chunk[0].label),
            last=texts(chunk[-1].label)))
        view.add_item(made.menu(answers, page, step, chunk, placeholder, texts, page))
    return min(len(pages), MAX_MENUS)


def _select_option(option: Option, texts: Texts) -> discord.SelectOption:
    description = texts(option.description)[:100] if option.description is not None else None
    return discord.SelectOption(label=texts(option.label)[:100], value=option.value,
                                description=description)


def step_view(step: Step, match_id: int, ply: int, answers: Sequence[Answer], texts: Texts,
              *, back: bool, items: StepItems | None = None) -> StaticView:
    """An ephemeral question: the step's components and a Back button."""
    made = items or StepItems(match_id, ply)
    view = StaticView()
    rows = add_step(view, step, match_id, ply, answers, texts, items=made)
    if back:
        view.add_item(made.back(answers, texts(strings.BUTTON_BACK), min(rows, 4)))
    return view


def manual_answers(game: Game, state: Any, answers: Sequence[Answer]) -> int:
    """How many of `answers` were chosen by the player (not forced by a single option)."""
    chosen = 0
    for depth in range(len(answers)):
        try:
            step = game.move_input(state, tuple(answers[:depth]))
        except GameError:
            return chosen
        if isinstance(step, Step) and len(step.options) > step.picks:
            chosen = depth + 1
    return chosen
