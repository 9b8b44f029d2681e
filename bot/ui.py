"""Components: their custom ids, and the generic step-by-step move entry drawn from what each
game declares (`Game.move_input`). No game is named here and no notation is parsed.

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

`answers` are the values chosen so far: steps separated by `/`, several picks of one step by
`.` (values are ASCII letters, digits, `+` and `-`, as the games promise).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from games import Answer, Game, GameError, Option, Step, phrase

from . import strings
from .i18n import Texts

MAX_ID = (1 << 63) - 1  # SQLite's and PostgreSQL's bigint
BUTTONS_PER_ROW = 5
MAX_STEP_BUTTONS = 20  # 4 rows, leaving the fifth for Back / Moves / My view
OPTIONS_PER_MENU = 25
MAX_MENUS = 4
_ID = r"[0-9]{1,19}"
_ANSWERS = r"[A-Za-z0-9+./-]{0,60}"
_NOTATION = r"[\w@>:,+ -]{1,60}"  # a canonical move, as the games write them
_PATTERNS = {
    "s": re.compile(rf"c1:s:(?P<match>{_ID}):(?P<ply>{_ID}):(?P<answers>{_ANSWERS})"),
    "S": re.compile(rf"c1:S:(?P<match>{_ID}):(?P<ply>{_ID}):(?P<answers>{_ANSWERS}):"
                    r"(?P<page>[0-9])"),
    "b": re.compile(rf"c1:b:(?P<match>{_ID}):(?P<ply>{_ID}):(?P<answers>{_ANSWERS})"),
    "p": re.compile(rf"c1:p:(?P<match>{_ID}):(?P<ply>{_ID})"),
    "v": re.compile(rf"c1:v:(?P<match>{_ID})"),
    "h": re.compile(rf"c1:h:(?P<match>{_ID})"),
    "l": re.compile(rf"c1:l:(?P<action>join|start|cancel|accept|decline|ai):(?P<match>{_ID})"),
    "r": re.compile(rf"c1:r:(?P<match>{_ID})"),
    "c": re.compile(rf"c1:c:(?P<match>{_ID}):(?P<version>{_ID})"),
    "o": re.compile(rf"c1:o:(?P<offer>{_ID}):(?P<answer>a|d)"),
    "m": re.compile(rf"c1:m:(?P<match>{_ID})"),
    "R": re.compile(rf"c1:R:(?P<match>{_ID}):(?P<ply>{_ID}):(?P<answer>[fbnl])"),
    "y": re.compile(rf"c1:y:(?P<match>{_ID}):(?P<ply>{_ID}):(?P<move>{_NOTATION})"),
    # boards posted before the generic flow: a move button with its notation
    "legacy": re.compile(rf"corral:mv:(?P<match>{_ID}):(?P<ply>{_ID}):(?P<move>{_NOTATION})"),
}
_VALUE = re.compile(r"^[A-Za-z0-9+-]{1,16}$")


@dataclass(frozen=True)
class Custom:
    """A parsed custom id."""

    kind: str
    match_id: int | None = None
    ply: int | None = None
    answers: tuple[Answer, ...] = ()
    page: int = 0
    action: str = ""
    version: int | None = None
    offer_id: int | None = None
    notation: str = ""


def parse_custom_id(custom_id: str) -> Custom | None:
    """The component a custom id names, or None for a forged or foreign one."""
    if len(custom_id) > 100:
        return None
    for kind, pattern in _PATTERNS.items():
        found = pattern.fullmatch(custom_id)
        if found is None:
            continue
        groups = found.groupdict()
        numbers = {k: int(v) for k, v in groups.items()
                   if k in ("match", "ply", "version", "offer")}
        if any(v > MAX_ID for v in numbers.values()):
            return None
        answers = decode_answers(groups.get("answers") or "")
        if answers is None:
            return None
        return Custom(kind, numbers.get("match"), numbers.get("ply"), answers,
                      int(groups.get("page") or 0),
                      groups.get("action") or groups.get("answer") or "",
                      numbers.get("version"), numbers.get("offer"), groups.get("move") or "")
    return None


def encode_answers(answers: Sequence[Answer]) -> str:
    return "/".join(".".join(answer) for answer in answers)


def decode_answers(text: str) -> tuple[Answer, ...] | None:
    if not text:
        return ()
    answers = []
    for part in text.split("/"):
        values = tuple(part.split("."))
        if not all(_VALUE.match(v) for v in values):
            return None
        answers.append(values)
    return tuple(answers)


def step_id(match_id: int, ply: int, answers: Sequence[Answer]) -> str:
    return f"c1:s:{match_id}:{ply}:{encode_answers(answers)}"


def select_id(match_id: int, ply: int, answers: Sequence[Answer], page: int) -> str:
    return f"c1:S:{match_id}:{ply}:{encode_answers(answers)}:{page}"


def repeat_id(match_id: int, ply: int, notation: str) -> str:
    return f"c1:y:{match_id}:{ply}:{notation}"[:100]


def back_id(match_id: int, ply: int, answers: Sequence[Answer]) -> str:
    return f"c1:b:{match_id}:{ply}:{encode_answers(answers)}"


class StaticView(discord.ui.View):
    """Components sent as data: the bot answers their clicks in `on_interaction` from the
    custom id alone, so no view object is kept in memory per message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def button(label: str, custom_id: str, *, style: discord.ButtonStyle = discord.ButtonStyle.primary,
           row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row)


def first_step(game: Game, state: Any) -> tuple[Step | str, tuple[Answer, ...]]:
    """The first question worth asking: steps with a single option are answered at once."""
    answers: tuple[Answer, ...] = ()
    while True:
        step = game.move_input(state, answers)
        if isinstance(step, str) or len(step.options) > step.picks:
            return step, answers
        answers = answers + (tuple(o.value for o in step.options),)


def add_step(view: discord.ui.View, step: Step, match_id: int, ply: int,
             answers: Sequence[Answer], texts: Texts) -> int:
    """Buttons when a step has few options, else menus of at most 25 options each; returns
    the number of rows used."""
    prompt = texts(step.prompt)
    options = list(step.options)
    if step.picks == 1 and len(options) <= MAX_STEP_BUTTONS:
        for index, option in enumerate(options):
            view.add_item(button(texts(option.label), step_id(
                match_id, ply, tuple(answers) + ((option.value,),)), row=index // BUTTONS_PER_ROW))
        return -(-len(options) // BUTTONS_PER_ROW)
    pages = [options[i:i + OPTIONS_PER_MENU] for i in range(0, len(options), OPTIONS_PER_MENU)]
    for page, chunk in enumerate(pages[:MAX_MENUS]):
        placeholder = prompt if len(pages) == 1 else texts(phrase(
            strings.PICK_PAGE, prompt=prompt, first=texts(chunk[0].label),
            last=texts(chunk[-1].label)))
        view.add_item(discord.ui.Select(
            custom_id=select_id(match_id, ply, answers, page), placeholder=placeholder[:150],
            min_values=step.picks, max_values=step.picks, row=page,
            options=[_select_option(o, texts) for o in chunk]))
    return min(len(pages), MAX_MENUS)


def _select_option(option: Option, texts: Texts) -> discord.SelectOption:
    description = texts(option.description)[:100] if option.description is not None else None
    return discord.SelectOption(label=texts(option.label)[:100], value=option.value,
                                description=description)


def step_view(step: Step, match_id: int, ply: int, answers: Sequence[Answer], texts: Texts,
              *, back: bool) -> StaticView:
    """An ephemeral question: the step's components and a Back button."""
    view = StaticView()
    rows = add_step(view, step, match_id, ply, answers, texts)
    if back:
        view.add_item(button(texts(strings.BUTTON_BACK), back_id(match_id, ply, answers),
                             style=discord.ButtonStyle.secondary, row=min(rows, 4)))
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


