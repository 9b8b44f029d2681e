"""Lessons: a game taught in a few small positions, as data, and a pure runner the bot drives.

A kit's `lessons` file (games/kit.py) is one JSON object, checked strictly when it is loaded so
that a lesson that cannot be played never reaches a player:

    {"format": 1, "game": "progressive-mancala", "seats": 2, "options": {},
     "title": {"en": "...", "ja": "..."},
     "names": [{"en": "First player", "ja": "先手"}, ...],   # one per seat (optional)
     "steps": [{
        "id": "goal",                    # unique in the lesson; names the step's texts
        "setup": ["k", "c"],             # moves from new(seats, options), in the game's notation
        "state": {...},                  # ...or a saved state, through the game's from_json
        "learner": 0,                    # the seat the learner plays (default: the seat to move)
        "text": {"en": ..., "ja": ...},  # the rule this step teaches, one sentence
        "task": {"en": ..., "ja": ...},  # what to do
        "answers": ["e"],                # accepted moves (notation), or choice ids
        "choices": [{"id": "a", "text": {...}}, ...],   # only for a question step
        "wrong": {"k": {"en": ..., "ja": ...}},         # why a tempting wrong answer is wrong
        "otherwise": {"en": ..., "ja": ...}, # any other wrong answer (needed unless none is left)
        "right": {"en": ..., "ja": ...},     # optional: said after the right answer
        "reply": ["c"],                      # optional: the opponent's scripted reply moves
        "expect": ["scores"]}]}              # optional: what every accepted move must do

`names` are what the lesson calls each seat, in every step, its texts and its pictures alike
(the learner may play a different seat from step to step: the picture still calls that seat by
its name, and writes its sentences about it in the second person, "Your turn"). Without them a
seat is "Player <n>".

Expectations, checked on every accepted move when the lesson loads: `wins` (the learner wins
by it), `scores` (the learner's score grows), `again` (the learner moves next), `passes` (the
turn passes to someone else), `effect:<words>` (the game's `move_effects` say so in English).

The runner is pure: `start(lesson)` gives a `LessonState`, `answer(lesson, state, text)` the
next one and a `Verdict`; `position(lesson, state)` is what to draw, `current(lesson, state)`
the step (its texts, its choices), `done(lesson, state)` whether it is over. A move step is
answered through the game's own `move_input` on the step's position, like a match; a question
step through its `choices`. `answer_parts(lesson, state, parts)` judges a move's first parts
as soon as no accepted answer starts that way. `lesson_for(game_id)` loads a kit's lesson
once. Nothing here does I/O but `load`, which reads one file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .base import Answer, Game, GameError

FORMAT = 1
LANGUAGES: tuple[str, ...] = ("en", "ja")  # every text exists in each
EXPECTATIONS = ("wins", "scores", "again", "passes")  # and "effect:<words>"
_LESSON_KEYS = {"format", "game", "seats", "options", "title", "names", "steps"}
_STEP_KEYS = {"id", "setup", "state", "learner", "text", "task", "answers", "choices", "wrong",
              "otherwise", "right", "reply", "expect"}


class LessonError(ValueError):
    """A lesson file that cannot be used; the message names the file, the step and the field."""


@dataclass(frozen=True)
class Text:
    """One sentence in every language of LANGUAGES."""

    texts: Mapping[str, str]

    def get(self, language: str) -> str:
        """The text in `language`, English for a language lessons are not written in."""
        return self.texts.get(language) or self.texts["en"]


@dataclass(frozen=True)
class Choice:
    """One possible answer of a question step."""

    id: str
    text: Text


@dataclass(frozen=True)
class LessonStep:
    """One position and one task. `position` is the game state to draw (built and checked by
    the loader); `answers` are canonical notations, or choice ids for a question step."""

    id: str
    position: Any
    learner: int
    text: Text
    task: Text
    answers: tuple[str, ...]
    choices: tuple[Choice, ...] = ()
    wrong: Mapping[str, Text] = field(default_factory=dict)
    otherwise: Text | None = None
    right: Text | None = None
    reply: tuple[str, ...] = ()
    expect: tuple[str, ...] = ()

    @property
    def is_question(self) -> bool:
        """Answered by a choice (buttons of its own), not by a move."""
        return bool(self.choices)


@dataclass(frozen=True)
class Lesson:
    game: Game
    seats: int
    options: Mapping[str, str]
    title: Text
    steps: tuple[LessonStep, ...]
    # each seat's one name for the whole lesson (the texts call the seats by these names)
    names: tuple[Text, ...] = ()

    def seat_name(self, seat: int, language: str) -> str:
        """What the lesson calls `seat`, in `language`."""
        return self.names[seat].get(language)

    @property
    def id(self) -> str:
        """The game's id: a player's progress is kept per lesson, so per game."""
        return self.game.id


# -- the runner -------------------------------------------------------------------------------
@dataclass(frozen=True)
class LessonState:
    """Where a learner is: the step to answer (== number of steps once done), wrong answers at
    this step and in the whole lesson. Small and JSON-friendly, for the bot to remember."""

    step: int = 0
    tries: int = 0
    mistakes: int = 0

    def to_json(self) -> dict[str, int]:
        return {"step": self.step, "tries": self.tries, "mistakes": self.mistakes}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LessonState:
        try:
            values = [int(data[key]) for key in ("step", "tries", "mistakes")]
        except (KeyError, TypeError, ValueError) as exc:
            raise LessonError(f"bad lesson progress {data!r}: {exc}") from None
        if min(values) < 0:
            raise LessonError(f"bad lesson progress {data!r}: negative")
        return cls(*values)


@dataclass(frozen=True)
class Verdict:
    """What an answer earned. `key` names the text (`<step>.right`, `<step>.wrong.<answer>`,
    `<step>.otherwise`, or `not-a-move` / `not-a-choice` for input the step cannot take);
    `text` is it in every language (None for a right answer the step says nothing about).
    `after` is the game state after the answered move (and the scripted reply, `reply`), to
    show what happened, or None for a question or unusable input."""

    correct: bool
    key: str
    text: Text | None
    answer: str
    after: Any = None
    reply: tuple[str, ...] = ()
    done: bool = False


@dataclass(frozen=True)
class Position:
    """What to draw for a step: the game state, the learner's seat and what that seat sees."""

    state: Any
    seat: int
    view: Any


NOT_A_MOVE = Text({"en": "That is not a move you can play here. Try again.",
                   "ja": "その手はこの局面では選べません。もう一度どうぞ。"})
NOT_A_CHOICE = Text({"en": "Choose one of the answers offered.",
                     "ja": "選択肢の中から選んでください。"})


def start(lesson: Lesson) -> LessonState:
    return LessonState()


def done(lesson: Lesson, state: LessonState) -> bool:
    return state.step >= len(lesson.steps)


def current(lesson: Lesson, state: LessonState) -> LessonStep | None:
    """The step to answer, None once the lesson is done."""
    return None if done(lesson, state) else lesson.steps[state.step]


def position(lesson: Lesson, state: LessonState) -> Position | None:
    """The position of the step to answer, seen from the learner's seat."""
    step = current(lesson, state)
    if step is None:
        return None
    return Position(step.position, step.learner,
                    lesson.game.observe(step.position, step.learner))


def answer(lesson: Lesson, state: LessonState, text: str) -> tuple[LessonState, Verdict]:
    """Judge `text` (a move's notation, or a choice id) at the current step. A right answer
    moves on; a wrong one keeps the step (another try) and says why."""
    step = current(lesson, state)
    if step is None:
        raise LessonError("the lesson is over")
    wrong = LessonState(state.step, state.tries + 1, state.mistakes + 1)
    after = None
    if step.is_question:
        choice = text.strip()
        if choice not in {c.id for c in step.choices}:
            return wrong, Verdict(False, "not-a-choice", NOT_A_CHOICE, choice)
    else:
        try:
            choice, after = _play(lesson.game, step.position, text)
        except GameError:
            return wrong, Verdict(False, "not-a-move", NOT_A_MOVE, text.strip())
    if choice in step.answers:
        reply: tuple[str, ...] = ()
        if after is not None and step.reply:
            reply = step.reply
            for move in reply:
                after = lesson.game.play(after, move)
        nxt = LessonState(state.step + 1, 0, state.mistakes)
        return nxt, Verdict(True, f"{step.id}.right", step.right, choice, after, reply,
                            done(lesson, nxt))
    if choice in step.wrong:
        return wrong, Verdict(False, f"{step.id}.wrong.{choice}", step.wrong[choice], choice,
                              after)
    return wrong, Verdict(False, f"{step.id}.otherwise", step.otherwise, choice, after)


def answer_parts(lesson: Lesson, state: LessonState, parts: Sequence[Answer],
                 ) -> tuple[LessonState, Verdict] | None:
    """Judge the first parts of a move entered step by step (`Game.input_path`'s answers), as
    soon as they can no longer lead to an accepted answer: a learner who picked the wrong
    piece hears why now, not after choosing where it goes. None while they still can.

    The explanation is a `wrong` entry's when every legal move starting this way has that
    same one, else `otherwise` (or, lacking it, the first `wrong` entry starting this way)."""
    step = current(lesson, state)
    if step is None:
        raise LessonError("the lesson is over")
    if step.is_question or not parts:
        return None
    game, position = lesson.game, step.position
    if any(_starts(game, position, notation, parts) for notation in step.answers):
        return None
    legal = [n for n in game.legal_notations(position) if _starts(game, position, n, parts)]
    if not legal:  # not the first parts of any move here
        return None
    wrong = LessonState(state.step, state.tries + 1, state.mistakes + 1)
    given = "/".join(".".join(part) for part in parts)
    named = [key for key in step.wrong if _starts(game, position, key, parts)]
    texts = {step.wrong[n].texts.get("en") if n in step.wrong else None for n in legal}
    if named and (len(texts) == 1 or step.otherwise is None):
        key = named[0]
        return wrong, Verdict(False, f"{step.id}.wrong.{key}", step.wrong[key], given)
    return wrong, Verdict(False, f"{step.id}.otherwise", step.otherwise, given)


def _starts(game: Game, position: Any, notation: str, parts: Sequence[Answer]) -> bool:
    """Whether entering `notation` step by step begins with `parts`."""
    path = game.input_path(position, game.parse_move(position, notation))
    return len(path) >= len(parts) and all(
        sorted(path[index]) == sorted(part) for index, part in enumerate(parts))


def _play(game: Game, state: Any, text: str) -> tuple[str, Any]:
    """The canonical notation of a legal move and the state after it (GameError otherwise)."""
    move = game.parse_move(state, text)
    notation = game.format_move(state, move)
    return notation, game.apply(state, move)


# -- loading ----------------------------------------------------------------------------------
@cache
def lesson_for(game_id: str) -> Lesson | None:
    """The lesson of a registered game, loaded once; None for a game without one."""
    from . import get_kit

    kit = get_kit(game_id)
    return None if kit.lessons is None else load(kit.lessons)


def load(path: Path) -> Lesson:
    """Read and check a lesson file (LessonError says what is wrong, and where)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LessonError(f"{path}: cannot read the lesson: {exc}") from None
    return parse(data, str(path))


def parse(data: Any, source: str = "lesson") -> Lesson:
    """Build a lesson from its JSON data, checking every step against the rules."""
    from . import REGISTRY

    where = _Where(source)
    obj = where.object(data, "the lesson")
    where.keys(obj, _LESSON_KEYS, {"format", "game", "title", "steps"})
    if obj["format"] != FORMAT:
        raise where.error(f"format {obj['format']!r}: this version reads format {FORMAT}")
    game = REGISTRY.get(obj["game"]) if isinstance(obj["game"], str) else None
    if game is None:
        raise where.error(f"game {obj['game']!r} is not a registered game")
    options = obj.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise where.error("options must be an object of texts")
    try:
        seats = game.check_seats(obj.get("seats"))
        options = game.resolve_options(options)
    except GameError as exc:
        raise where.error(str(exc)) from None
    title = where.text(obj["title"], "title")
    names = _names(obj.get("names"), seats, where)
    raw_steps = obj["steps"]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise where.error("steps must be a non-empty list")
    steps: list[LessonStep] = []
    for index, raw in enumerate(raw_steps):
        step = _parse_step(game, seats, options, raw, where.at(f"step {index + 1}"))
        if any(s.id == step.id for s in steps):
            raise where.at(f"step {index + 1}").error(f"id {step.id!r} is used twice")
        steps.append(step)
    return Lesson(game, seats, options, title, tuple(steps), names)


def _names(raw: Any, seats: int, where: _Where) -> tuple[Text, ...]:
    """The seats' names: as the file gives them, one per seat and each a different name, or
    "Player <n>" (<n>番手)."""
    if raw is None:
        return tuple(Text({"en": f"Player {n}", "ja": f"{n}番手"}) for n in range(1, seats + 1))
    if not isinstance(raw, list) or len(raw) != seats:
        raise where.error(f"names must be a list of {seats} texts, one per seat")
    names = tuple(where.text(value, f"names[{index}]") for index, value in enumerate(raw))
    for language in LANGUAGES:
        if len({name.get(language).casefold() for name in names}) < seats:
            raise where.error(f"names: two seats have the same {language} name")
    return names


def _parse_step(game: Game, seats: int, options: Mapping[str, str], raw: Any,
                where: _Where) -> LessonStep:
    obj = where.object(raw, "a step")
    step_id = obj.get("id")
    if not isinstance(step_id, str) or not step_id.replace("-", "").isalnum():
        raise where.error("id must be letters, digits and dashes")
    where = where.at(f"({step_id})")
    where.keys(obj, _STEP_KEYS, {"id", "text", "task", "answers"})
    state = _position(game, seats, options, obj, where)
    learner = obj.get("learner", game.to_move(state))
    if not isinstance(learner, int) or not 0 <= learner < game.seats(state):
        raise where.error(f"learner {learner!r}: give the learner's seat (0-based)")
    text, task = where.text(obj["text"], "text"), where.text(obj["task"], "task")
    right = where.text(obj["right"], "right") if "right" in obj else None
    otherwise = where.text(obj["otherwise"], "otherwise") if "otherwise" in obj else None
    raw_wrong = obj.get("wrong", {})
    if not isinstance(raw_wrong, dict):
        raise where.error("wrong must be an object: answer -> texts")
    answers_raw = where.texts_list(obj["answers"], "answers")
    if not answers_raw:
        raise where.error("answers is empty")
    choices: tuple[Choice, ...] = ()
    if "choices" in obj:
        choices = _choices(obj["choices"], where)
        offered = [c.id for c in choices]
        answers = tuple(answers_raw)
        wrong_keys = list(raw_wrong)
        for name, values in (("answers", answers), ("wrong", wrong_keys)):
            for value in values:
                if value not in offered:
                    raise where.error(f"{name}: {value!r} is not one of the choices {offered}")
        wrong_answers = [c for c in offered if c not in answers]
        if "reply" in obj or "expect" in obj:
            raise where.error("a question step has no reply and no expect")
    else:
        if game.to_move(state) != learner:
            raise where.error(f"seat {learner} is not to move here: not a position for a task")
        legal = game.legal_notations(state)
        answers = tuple(_canonical(game, state, a, where.at("answers")) for a in answers_raw)
        wrong_keys = [_canonical(game, state, a, where.at("wrong")) for a in raw_wrong]
        raw_wrong = dict(zip(wrong_keys, raw_wrong.values(), strict=True))
        for key in wrong_keys:
            if key in answers:
                raise where.at("wrong").error(f"{key!r} is also an accepted answer")
        wrong_answers = [n for n in legal if n not in answers]
    wrong = {key: where.text(value, f"wrong.{key}") for key, value in raw_wrong.items()}
    if otherwise is None and any(a not in wrong for a in wrong_answers):
        missing = [a for a in wrong_answers if a not in wrong]
        raise where.error(f"otherwise is missing, and {missing[:5]} would go unexplained")
    reply = tuple(where.texts_list(obj.get("reply", []), "reply"))
    expect = tuple(where.texts_list(obj.get("expect", []), "expect"))
    for name in expect:
        if name not in EXPECTATIONS and not name.startswith("effect:"):
            raise where.error(f"expect {name!r}: expected one of {EXPECTATIONS} or effect:...")
    step = LessonStep(step_id, state, learner, text, task, answers, choices, wrong, otherwise,
                      right, reply, expect)
    if not choices:
        for notation in answers:
            _check_answer(game, step, notation, where.at(f"answer {notation}"))
    return step


def _position(game: Game, seats: int, options: Mapping[str, str], obj: Mapping[str, Any],
              where: _Where) -> Any:
    if ("setup" in obj) == ("state" in obj):
        raise where.error("give the position as exactly one of setup (moves) or state (JSON)")
    if "state" in obj:
        try:
            return game.from_json(obj["state"])
        except GameError as exc:
            raise where.at("state").error(str(exc)) from None
    state = game.new(seats, options)
    for number, text in enumerate(where.texts_list(obj["setup"], "setup"), 1):
        try:
            state = game.play(state, text)
        except GameError as exc:
            raise where.at(f"setup move {number} {text!r}").error(str(exc)) from None
    return state


def _canonical(game: Game, state: Any, text: str, where: _Where) -> str:
    try:
        notation, _ = _play(game, state, text)
    except GameError as exc:
        raise where.error(f"{text!r} is not a legal move here: {exc}") from None
    return notation


def _check_answer(game: Game, step: LessonStep, notation: str, where: _Where) -> None:
    """The accepted move does what the step says, and the scripted reply can follow it."""
    before = step.position
    move = game.parse_move(before, notation)
    after = game.apply(before, move)
    for name in step.expect:
        if not _meets(game, before, move, after, step.learner, name):
            raise where.error(f"does not meet expect {name!r}")
    state = after
    for number, text in enumerate(step.reply, 1):
        try:
            state = game.play(state, text)
        except GameError as exc:
            raise where.at(f"reply move {number} {text!r}").error(str(exc)) from None


def _meets(game: Game, before: Any, move: Any, after: Any, seat: int, name: str) -> bool:
    if name == "wins":
        outcome = game.outcome(after)
        return outcome is not None and not outcome.draw and seat in outcome.winners
    if name == "scores":
        old, new = game.scores(before), game.scores(after)
        return old is not None and new is not None and new[seat] > old[seat]
    if name == "again":
        return game.to_move(after) == seat
    if name == "passes":
        return game.to_move(after) != seat
    words = name.removeprefix("effect:")
    return any(words in str(effect) for effect in game.move_effects(before, move, after))


def _choices(raw: Any, where: _Where) -> tuple[Choice, ...]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise where.error("choices must be a list of at least two")
    choices: list[Choice] = []
    for index, item in enumerate(raw, 1):
        at = where.at(f"choice {index}")
        obj = at.object(item, "a choice")
        at.keys(obj, {"id", "text"}, {"id", "text"})
        if not isinstance(obj["id"], str) or not obj["id"].replace("-", "").isalnum():
            raise at.error("id must be letters, digits and dashes")
        if any(c.id == obj["id"] for c in choices):
            raise at.error(f"id {obj['id']!r} is used twice")
        choices.append(Choice(obj["id"], at.text(obj["text"], "text")))
    return tuple(choices)


@dataclass(frozen=True)
class _Where:
    """Where in a lesson file the loader is, for its messages."""

    path: str
    trail: tuple[str, ...] = ()

    def at(self, part: str) -> _Where:
        return _Where(self.path, (*self.trail, part))

    def error(self, message: str) -> LessonError:
        return LessonError(" ".join((f"{self.path}:", *self.trail)) + f": {message}")

    def object(self, value: Any, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(f"{what} must be a JSON object")
        return value

    def keys(self, obj: Mapping[str, Any], allowed: set[str], required: set[str]) -> None:
        unknown = sorted(set(obj) - allowed)
        if unknown:
            raise self.error(f"unknown field {unknown[0]!r}")
        missing = sorted(required - set(obj))
        if missing:
            raise self.error(f"missing field {missing[0]!r}")

    def text(self, value: Any, name: str) -> Text:
        if not isinstance(value, dict):
            raise self.error(f"{name} must be an object of texts by language {LANGUAGES}")
        for language in LANGUAGES:
            words = value.get(language)
            if not isinstance(words, str) or not words.strip():
                raise self.error(f"{name} has no {language} text")
        extra = sorted(set(value) - set(LANGUAGES))
        if extra:
            raise self.error(f"{name}: unknown language {extra[0]!r}")
        return Text(dict(value))

    def texts_list(self, value: Any, name: str) -> Sequence[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(f"{name} must be a list of texts")
        return value
