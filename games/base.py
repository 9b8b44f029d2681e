"""The vocabulary every game shares: errors, outcomes, options and the `Game` interface.

Modelled on OpenSpiel (state / legal actions / apply / returns / observer) and python-chess
(typed outcomes, precise `ValueError` subclasses whose messages quote the input). Everything
here is pure: no I/O, no randomness, no Discord, no Pillow.
"""

from __future__ import annotations

import enum
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar


# -- words for people ---------------------------------------------------------------------
def N_(message: str) -> str:
    """Marks a message for the translation catalogs without translating it (gettext's N_)."""
    return message


CONTEXT_SEPARATOR = "\x04"


def NC_(context: str, message: str) -> str:
    """Marks a message with a context (gettext's msgctxt: one English message, different words
    per game: with its own context, a game's "seat 1" may be 先攻 where other games say 1番手).
    The result is the key GNU gettext gives such a message ("context\\x04message"): used as a
    template, it is translated with its context, else as the bare message, and English shows
    the message."""
    return f"{context}{CONTEXT_SEPARATOR}{message}"


def translate_template(template: str, gettext: Callable[[str], str]) -> str:
    """`gettext(template)` for a template that may carry a context (see `NC_`): a context
    without a translation of its own falls back to the bare message's."""
    if CONTEXT_SEPARATOR not in template:
        return gettext(template)
    found = gettext(template)
    if found != template:
        return found
    return gettext(template.partition(CONTEXT_SEPARATOR)[2])


@dataclass(frozen=True)
class Seat:
    """A seat named inside a Phrase; whoever shows the phrase puts the player's name there."""

    index: int  # 0-based

    def __str__(self) -> str:
        return f"seat {self.index + 1}"


@dataclass(frozen=True)
class Phrase:
    """Words for people, kept translatable: an English template (a gettext message id with
    str.format fields), an optional plural template chosen by the field `n`, and the fields.

    Whoever shows a phrase translates the template and every field that is itself a Phrase,
    then formats; `str()` gives the English. Build phrases with `phrase()` and `nphrase()` so
    that the message extractor finds the templates."""

    template: str
    fields: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None

    def field(self, name: str) -> Any:
        return dict(self.fields)[name]

    def __str__(self) -> str:
        return render_phrase(self, _english_gettext, _english_ngettext)


def phrase(template: str, /, **fields: Any) -> Phrase:
    return Phrase(template, tuple(fields.items()))


def nphrase(singular: str, plural: str, n: int, /, **fields: Any) -> Phrase:
    """A phrase whose wording depends on the count `n` (also available as the field {n})."""
    return Phrase(singular, tuple({"n": n, **fields}.items()), plural)


def _english_gettext(message: str) -> str:
    return message


def _english_ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def english_list(items: Sequence[str]) -> str:
    return ", ".join(items)


def render_phrase(text: Phrase | str, gettext: Callable[[str], str],
                  ngettext: Callable[[str, str, int], str],
                  resolve: Callable[[Any], Any] | None = None,
                  join: Callable[[Sequence[str]], str] = english_list) -> str:
    """Translate and format a phrase; `resolve` turns special fields (a Seat) into text, and
    `join` writes a list or tuple field as a list in the reader's language ("a, b" in
    English, "a、b" in Japanese)."""
    if not isinstance(text, Phrase):
        return str(text)
    values: dict[str, Any] = {}
    for name, value in text.fields:
        if isinstance(value, (list, tuple)):
            value = join([str(_field_text(v, gettext, ngettext, resolve, join))
                          for v in value])
        else:
            value = _field_text(value, gettext, ngettext, resolve, join)
        values[name] = value
    if text.plural is not None:
        template = ngettext(text.template, text.plural, int(values.get("n", 0)))
    else:
        template = translate_template(text.template, gettext)
    template = template.rpartition(CONTEXT_SEPARATOR)[2]
    return template.format(**values) if text.fields or text.plural else template


def _field_text(value: Any, gettext: Callable[[str], str],
                ngettext: Callable[[str, str, int], str],
                resolve: Callable[[Any], Any] | None,
                join: Callable[[Sequence[str]], str]) -> Any:
    if isinstance(value, Phrase):
        return render_phrase(value, gettext, ngettext, resolve, join)
    return resolve(value) if resolve is not None else value


def ascii_number(text: str, digits: int = 6) -> int | None:
    """`text` as a whole number written with 1 to `digits` ASCII digits, else None.

    `str.isdigit()` also accepts superscripts and other scripts' digits that `int()` refuses
    or reads differently, and `int()` of a huge string is slow: neither may reach a rule."""
    if 0 < len(text) <= digits and all("0" <= ch <= "9" for ch in text):
        return int(text)
    return None


# -- errors -----------------------------------------------------------------------------------
class GameError(ValueError):
    """Base class of every error a game raises about its input. The message is a Phrase (so
    that the bot can translate it); it never quotes the input: callers quote it once."""

    def __init__(self, message: str | Phrase, /, **fields: Any):
        self.phrase = message if isinstance(message, Phrase) else phrase(message, **fields)
        super().__init__(str(self.phrase))


class InvalidMoveError(GameError):
    """The text is not a move in this game's notation at all."""


class IllegalMoveError(GameError):
    """The move is well formed but not allowed in this position."""


class GameOverError(IllegalMoveError):
    """A move was offered after the game had ended."""


class InvalidOptionError(GameError):
    """An unknown match option, or a value it does not accept."""


class InvalidSeatsError(GameError):
    """A player count the game cannot be played with."""


class InvalidStateError(GameError):
    """A serialized state that is malformed or violates the game's invariants."""


class Termination(enum.StrEnum):
    """Why a match ended, as the platform sees it: the game's rules ended it (`Outcome.ending`
    then says how, in the game's own terms), or one of the platform's own reasons."""

    RULES = "rules"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIMEOUT = "timeout"


class Ending(enum.StrEnum):
    """A game's own reasons for ending. Each game declares a subclass beside its rules (e.g.
    `class PastoralEnding(Ending): PICKUP_FAILURE = "pickup-failure"`) and lists its members
    in `GameInfo.endings`. The values are stored with finished matches: never change one."""


# Before version 2 one shared enum held every reason, the games' own among them: a stored
# result of version 1 with one of these reasons was ended by the rules, with that ending.
_V1_ENDINGS = frozenset({"target", "repetition", "no-legal-move", "tie-break", "pickup-failure"})
_V1_PLATFORM = frozenset({"resignation", "agreement", "timeout"})
OUTCOME_VERSION = 2


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winners` are 0-based seats; on a draw, every drawing seat. A game's
    outcome has `reason` RULES and one of the game's own `Ending`s; the platform's (a
    resignation, a timeout claim, an agreed draw) have no ending."""

    winners: tuple[int, ...]
    reason: Termination = Termination.RULES
    draw: bool = False
    ending: str | None = None  # the game's `Ending` (a str: loaded outcomes hold the text)

    @property
    def cause(self) -> str:
        """The most precise reason there is: the game's ending, else the platform's reason."""
        return str(self.ending) if self.ending is not None else self.reason.value

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"version": OUTCOME_VERSION, "winners": list(self.winners),
                                "reason": self.reason.value, "draw": self.draw}
        if self.ending is not None:
            data["ending"] = str(self.ending)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """An outcome saved by this version or an older one (no "version": version 1)."""
        try:
            version = data.get("version", 1)
            reason_text, ending = data["reason"], data.get("ending")
            if version == 1:
                if reason_text in _V1_ENDINGS:
                    reason_text, ending = Termination.RULES.value, reason_text
                elif reason_text not in _V1_PLATFORM:
                    raise ValueError(f"no reason {reason_text!r} in version 1")
            elif version != OUTCOME_VERSION:
                raise ValueError(f"version {version!r} is not known here")
            if ending is not None and not isinstance(ending, str):
                raise TypeError(f"ending {ending!r} is not a text")
            return cls(
                winners=tuple(int(w) for w in data["winners"]),
                reason=Termination(reason_text),
                draw=bool(data.get("draw", False)),
                ending=ending,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidStateError(f"bad outcome {data!r}: {exc}") from None


@dataclass(frozen=True)
class OptionSpec:
    """A match option: a name, its accepted values (as text), the default and a short help."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str

    def parse(self, value: str) -> str:
        text = str(value).strip().lower()
        if text not in self.choices:
            raise InvalidOptionError(
                N_("{name} can be {choices}, not {value}"), name=self.name,
                choices=self.choices, value=shorten(str(value)))
        return text


REPETITION_DRAWS = N_("house rule: third repetition of a position is a draw")


def repetition_option(help: str = REPETITION_DRAWS) -> OptionSpec:
    """The house rule every game has so that every match ends (rules/README.md); `help` is a
    message marked with N_ (the option's help is shown translated)."""
    return OptionSpec("repetition", ("on", "off"), "on", help)


def shorten(text: str, limit: int = 24) -> str:
    """User input as it may be echoed: control characters replaced, at most `limit` chars."""
    clean = "".join(ch if ch.isprintable() else "\ufffd" for ch in text.strip())
    return clean if len(clean) <= limit else clean[: limit - 1] + "\u2026"


S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class GameInfo:
    id: str
    name: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...] = field(default=())
    hidden_information: bool = False  # some of the state is private to one player
    chance: bool = False  # chance moves (die rolls, `is_chance`) happen during play
    endings: tuple[Ending, ...] = ()  # every way the rules may end a game


# -- how a player enters a move ------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One choice of a step. `value` travels in button ids: ASCII letters, digits, + and -."""

    value: str
    label: Phrase | str  # short: a button or a menu entry
    description: Phrase | str | None = None  # a menu entry's second line


@dataclass(frozen=True)
class Step:
    """One question asked while entering a move: its options, whether only the mover may see
    the answer (a hidden tile, a private choice), and how many different options it takes.
    `their_prompt` is the same question about another player's move, entered for them (a
    conditional move: "Which pit will they sow?" where the mover reads "Which pit do you
    sow?"); `prompt_for` picks the one that fits."""

    name: str  # what is being chosen: "pit", "cell", "stones", "tile", ...
    prompt: Phrase
    options: tuple[Option, ...]
    private: bool = False
    picks: int = 1
    their_prompt: Phrase | None = None

    def prompt_for(self, own: bool) -> Phrase:
        """The question as the player entering the move reads it: about their own move
        (`own`), or about another player's (the mover's form when a game has no other)."""
        if own or self.their_prompt is None:
            return self.prompt
        return self.their_prompt


Answer = tuple[str, ...]  # the values chosen at one step (`picks` of them)


# -- a position in words -------------------------------------------------------------------
ALT_TEXT_LIMIT = 1024  # Discord's limit on a picture's alt text (media item, attachment)


@dataclass(frozen=True)
class Description:
    """A position in words, for a reader who cannot see the picture (a screen reader, a
    picture that does not load), written from an observation: never from what that
    observation hides. Phrases whose Seat fields name players, one line each.

    `alt` is the picture's alt text: the essentials first (whose turn, the score or what each
    player still needs, extra moves owed), then the board, short enough that the lines joined
    by spaces stay within ALT_TEXT_LIMIT characters in every language. `full` is the text
    board (`/board text:True`, the Describe button): everything a player may act on, line by
    line, in the order a screen reader reads it, with no emoji and no drawing."""

    alt: tuple[Phrase, ...]
    full: tuple[Phrase, ...]


class Game(ABC, Generic[S, M]):
    """One game's rules. States are immutable; `apply` returns a new state."""

    info: GameInfo

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    def seat_title(self, seat: int) -> Phrase:
        """A seat (0-based) as the game's players call it: "seat 1" (1番手) by default; a
        game with words of its own says so with a context (Pastoral Square's 先攻 and 後攻)."""
        return phrase(N_("seat {n}"), n=seat + 1)

    # -- options -----------------------------------------------------------------------
    def resolve_options(self, options: Mapping[str, str] | None = None) -> dict[str, str]:
        """Validate user-given options and fill in defaults."""
        specs = {spec.name: spec for spec in self.info.options}
        resolved = {spec.name: spec.default for spec in self.info.options}
        for name, value in (options or {}).items():
            key = str(name).strip().lower()
            if key not in specs:
                raise InvalidOptionError(N_("{game} has no option {name} (options: {known})"),
                                         game=self.name, name=shorten(str(name)),
                                         known=tuple(specs) or "-")
            resolved[key] = specs[key].parse(value)
        self.check_options(resolved)
        return resolved

    def check_options(self, options: Mapping[str, str]) -> None:
        """Refuse combinations of option values that cannot be played together."""

    def draw_options(self, options: Mapping[str, str] | None, rng: Any) -> dict[str, str]:
        """The host's chance at set-up (e.g. a random start face), drawn with `rng` once and
        then kept in the match's options so that the record reproduces it."""
        return self.resolve_options(options)

    def check_seats(self, seats: int | None) -> int:
        if seats is None:
            return self.info.min_seats
        if not self.info.min_seats <= seats <= self.info.max_seats:
            raise InvalidSeatsError(N_("{game} is played by {players} players, not {seats}"),
                                    game=self.name, players=self.seats_text(), seats=seats)
        return seats

    def seats_text(self) -> str:
        lo, hi = self.info.min_seats, self.info.max_seats
        return str(lo) if lo == hi else f"{lo}-{hi}"

    # -- the rules ---------------------------------------------------------------------
    @abstractmethod
    def new(self, seats: int | None = None, options: Mapping[str, str] | None = None) -> S:
        """The starting position."""

    @abstractmethod
    def options_of(self, state: S) -> dict[str, str]:
        """The options a state was created with (for game records)."""

    @abstractmethod
    def seats(self, state: S) -> int: ...

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Legal moves of the player to move; empty once the game is over."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """Validate `move` and return the next state (raise IllegalMoveError otherwise)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The 0-based seat to move, None when the game is over."""

    @abstractmethod
    def scores(self, state: S) -> tuple[int, ...] | None:
        """Scores per seat, or None for games that keep no score."""

    def can_skip(self, state: S) -> bool:
        """Whether the platform may skip the turn of the seat to move (after a timeout, in
        games of three or more players). Never offered to players as a move."""
        return False

    def skip(self, state: S) -> S:
        """The seat to move loses its turn (a platform action, logged as `skip`)."""
        raise IllegalMoveError(N_("{game} has no skipped turns"), game=self.name)

    def is_chance(self, state: S) -> bool:
        """True when the host must make a chance move (a die roll) before anyone plays:
        `to_move` is then None and `legal_moves` lists the outcomes."""
        return False

    @abstractmethod
    def ply(self, state: S) -> int:
        """Number of moves applied since the start."""

    # -- notation ----------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Parse notation (raise InvalidMoveError). Does not check legality."""

    @abstractmethod
    def format_move(self, state: S, move: M) -> str:
        """The canonical notation of `move` in `state` (the state before the move)."""

    def public_notation(self, state: S, move: M) -> str:
        """The notation the channel may see (games with hidden information shorten it)."""
        return self.format_move(state, move)

    def play(self, state: S, text: str) -> S:
        """Parse and apply one move given in notation."""
        return self.apply(state, self.parse_move(state, text))

    def legal_notations(self, state: S) -> list[str]:
        return [self.format_move(state, move) for move in self.legal_moves(state)]

    # -- entering a move step by step ------------------------------------------------------
    def move_input(self, state: S, answers: Sequence[Answer] = ()) -> Step | str:
        """The next question of entering a move after `answers`, or the move's notation once
        they make one. Raises InvalidMoveError for an answer that is not one of its step's
        options. Together the steps describe exactly `legal_moves`."""
        paths = [(self.input_path(state, move), move) for move in self.legal_moves(state)]
        depth = len(answers)
        for index, answer in enumerate(answers):
            wanted = tuple(sorted(answer))
            paths = [(p, m) for p, m in paths
                     if len(p) > index and tuple(sorted(p[index])) == wanted]
            if not paths:
                raise InvalidMoveError(N_("that choice is not available now"))
        complete = [m for p, m in paths if len(p) == depth]
        if complete:
            return self.format_move(state, complete[0])
        values: list[str] = []
        for path, _ in paths:
            for value in path[depth]:
                if value not in values:
                    values.append(value)
        picks = len(paths[0][0][depth])
        return self.input_step(state, tuple(answers), values, picks)

    def input_path(self, state: S, move: M) -> tuple[Answer, ...]:
        """The answers, step by step, that enter `move` (one step by default: its notation)."""
        return ((self.format_move(state, move),),)

    def input_step(self, state: S, answers: tuple[Answer, ...], values: list[str],
                   picks: int) -> Step:
        """The question after `answers`, offering `values` (those some legal move takes)."""
        return Step("move", phrase(N_("Your move")),
                    tuple(Option(v, v) for v in values), picks=picks,
                    their_prompt=phrase(N_("Their move")))

    # -- what the bot tells people ---------------------------------------------------------
    def describe_outcome(self, state: S) -> Phrase:
        """How the game ended, in words (Seat fields name players)."""
        outcome = self.outcome(state)
        if outcome is None:
            return phrase(N_("The game is not over"))
        if outcome.draw:
            return phrase(N_("Drawn"))
        return phrase(N_("{winner} wins"), winner=Seat(outcome.winners[0]))

    def move_effects(self, before: S, move: M, after: S) -> tuple[Phrase, ...]:
        """What a move did that the notation does not say (captures, escapes...), as the
        channel may know it: never hidden information."""
        return ()

    def move_gist(self, before: S, move: M, after: S) -> tuple[Phrase, ...]:
        """What a move did that decides games (scores, captures, a turn handed over), said
        after each ply of a line that explains a mistake or a puzzle: `move_effects` by
        default; a kit whose effects also trace the move itself leaves those out here."""
        return self.move_effects(before, move, after)

    def turn_note(self, state: S) -> Phrase | None:
        """A remark on the turn of the seat to move (extra moves owed...), or None."""
        return None

    def private_news(self, before: S, after: S) -> tuple[int, ...]:
        """Seats that learnt from this move something only their private view shows."""
        return ()

    def turn_card(self, state: S, seat: int) -> Phrase | None:
        """Private notes for `seat` when their turn begins, or None for games without."""
        return None

    # -- a position in words (alt text, the text board) -----------------------------------
    def describe_view(self, view: Any) -> Description:
        """The position `view` (what `observe` returned) in words. Every product kit writes
        its own (tests/test_descriptions.py checks that each does); this fallback, for kits
        that do not yet, says which game and whose turn only."""
        words = phrase(N_("A board of {game}."), game=self.name)
        return Description(alt=(words,), full=(words,))

    def without_hints(self, view: Any) -> Any:
        """`view` as a quiz shows it (a lesson's question, `render_observation(hints=False)`):
        without what a question may ask about (the moves or places the rules allow or forbid,
        a finished game's points and scoring marks), so that its words do not answer it. A
        kit whose views hold such things leaves them out here."""
        return view

    def point_names(self, view: Any) -> tuple[str, ...]:
        """The places of the board a reader may ask about (`/board at:`): pits, cells,
        faces... named as the notation names them, in reading order."""
        return ()

    def describe_point(self, view: Any, name: str) -> Phrase:
        """What is on one place of the board (`name`, one of `point_names`, any case), as
        `view` shows it; an InvalidMoveError that quotes `name` when there is no such place."""
        raise InvalidMoveError(N_("There is no place {name} on this board."), name=name)


    # -- codec and views ---------------------------------------------------------------
    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def from_json(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state, re-validating every invariant (raise InvalidStateError)."""

    @abstractmethod
    def observe(self, state: S, viewer: int | None) -> Any:
        """What `viewer` (a 0-based seat, or None for the public) may see. The only door
        to hidden information."""

    @abstractmethod
    def describe(self, state: S) -> str:
        """A plain-text board for terminals."""


def checked_decoder(decode: Callable[[Any, Mapping[str, Any]], S]
                    ) -> Callable[[Any, Mapping[str, Any]], S]:
    """Wraps a game's `from_json`: whatever is wrong with saved data (a missing key, a value
    of the wrong type or shape) is an InvalidStateError, never another exception."""
    @functools.wraps(decode)
    def wrapper(self: Any, data: Mapping[str, Any]) -> S:
        if not isinstance(data, Mapping):
            raise InvalidStateError("a saved state must be an object")
        try:
            return decode(self, data)
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
                RecursionError, GameError) as exc:
            raise InvalidStateError(f"malformed {self.name} state: {exc!r}"[:300]) from None
    return wrapper


def replay(game: Game, moves: Sequence[str], *, seats: int | None = None,
           options: Mapping[str, str] | None = None) -> Any:
    """Apply notations from the start position; returns the final state."""
    state = game.new(seats, options)
    for text in moves:
        state = game.play(state, text)
    return state
