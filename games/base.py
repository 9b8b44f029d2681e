"""The vocabulary every game shares: errors, outcomes, options and the `Game` interface.

Modelled on OpenSpiel (state / legal actions / apply / returns / observer) and python-chess
(typed outcomes, precise `ValueError` subclasses whose messages quote the input). Everything
here is pure: no I/O, no randomness, no Discord, no Pillow.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Generic, Mapping, Sequence, TypeVar


class GameError(ValueError):
    """Base class of every error a game raises about its input."""


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


class Termination(str, enum.Enum):
    """Why a game ended. The platform adds its own reasons (resignation, timeout...)."""

    TARGET = "target"  # a player reached the winning score, or made a bingo
    REPETITION = "repetition"  # house rule: third occurrence of a position
    NO_LEGAL_MOVE = "no-legal-move"
    TIE_BREAK = "tie-break"  # Consequence: equal scores, one player has four in a line
    PICKUP_FAILURE = "pickup-failure"  # Pastoral Square: the stock cannot cover the pick-up
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winners` are 0-based seats; on a draw, every drawing seat."""

    winners: tuple[int, ...]
    reason: Termination
    draw: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason.value, "draw": self.draw}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Outcome":
        try:
            return cls(
                winners=tuple(int(w) for w in data["winners"]),
                reason=Termination(data["reason"]),
                draw=bool(data.get("draw", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidStateError(f"bad outcome {data!r}: {exc}") from None


@dataclass(frozen=True)
class OptionSpec:
    """A match option: a name, its accepted values (as text) and the default."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str

    def parse(self, value: str) -> str:
        text = str(value).strip().lower()
        if text not in self.choices:
            raise InvalidOptionError(
                f"option {self.name}={value!r}: expected one of {', '.join(self.choices)}"
            )
        return text


def repetition_option(effect: str = "is a draw") -> OptionSpec:
    """The house rule every game has so that every match ends (rules/README.md)."""
    return OptionSpec("repetition", ("on", "off"), "on",
                      f"house rule: third repetition of a position {effect}")


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


class Game(ABC, Generic[S, M]):
    """One game's rules. States are immutable; `apply` returns a new state."""

    info: GameInfo

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    # -- options -----------------------------------------------------------------------
    def resolve_options(self, options: Mapping[str, str] | None = None) -> dict[str, str]:
        """Validate user-given options and fill in defaults."""
        specs = {spec.name: spec for spec in self.info.options}
        resolved = {spec.name: spec.default for spec in self.info.options}
        for name, value in (options or {}).items():
            key = str(name).strip().lower()
            if key not in specs:
                known = ", ".join(specs) or "none"
                raise InvalidOptionError(f"unknown option {name!r} (options: {known})")
            resolved[key] = specs[key].parse(value)
        return resolved

    def draw_options(self, options: Mapping[str, str] | None, rng) -> dict[str, str]:
        """The host's chance at set-up (e.g. a random start face), drawn with `rng` once and
        then kept in the match's options so that the record reproduces it."""
        return self.resolve_options(options)

    def check_seats(self, seats: int | None) -> int:
        if seats is None:
            return self.info.min_seats
        if not self.info.min_seats <= seats <= self.info.max_seats:
            raise InvalidSeatsError(
                f"{self.name} is played by {self.seats_text()} players, not {seats}"
            )
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
        raise IllegalMoveError(f"{self.name} has no skipped turns")

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


def reason_of(error: GameError | str, text: str) -> str:
    """An error message without its leading quote of `text`, for callers that quote the input
    themselves (`line 3: 'k': that pit is empty`, not `line 3: 'k': 'k': that pit ...`)."""
    message = str(error)
    prefix = f"'{text.strip()}': "
    return message[len(prefix):] if message.lower().startswith(prefix.lower()) else message


def replay(game: Game, moves: Sequence[str], *, seats: int | None = None,
           options: Mapping[str, str] | None = None):
    """Apply notations from the start position; returns the final state."""
    state = game.new(seats, options)
    for text in moves:
        state = game.play(state, text)
    return state
