"""Game records: UTF-8 text, `# key: value` headers, then one move per line in notation.

    # game: progressive-mancala
    # option: pits=17
    # players: Alice, Bob
    k
    c

`# game:`, `# seats:` and `# option: name=value` have meaning; other `# key: value` lines are
kept as free metadata; blank lines and other `#` lines are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import get_game
from .base import Game, GameError, ascii_number, shorten

_HEADER = re.compile(r"^#\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")


class RecordError(GameError):
    """A record line that cannot be used. Carries the 1-based line number and its text."""

    def __init__(self, line: int, text: str, reason: str):
        super().__init__(f"line {line}: '{shorten(text, 60)}': {reason}")
        self.line, self.text, self.reason = line, text, reason


@dataclass
class Record:
    game: str
    seats: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)
    moves: list[tuple[int, str]] = field(default_factory=list)  # (line number, notation)
    # where each meaningful header stood: "game", "seats", "option:<name>" -> (line, text)
    lines: dict[str, tuple[int, str]] = field(default_factory=dict)


def parse_record(text: str) -> Record:
    """Read the headers and move lines; legality is checked by `replay_record`."""
    game_id: str | None = None
    seats: int | None = None
    options: dict[str, str] = {}
    meta: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    lines: dict[str, tuple[int, str]] = {}
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            match = _HEADER.match(line)
            if not match:
                continue
            key, value = match.group(1).lower(), match.group(2)
            if key in ("game", "seats", "option") and moves:
                raise RecordError(number, line, f"'# {key}:' must come before the first move")
            if key == "game":
                if game_id is not None:
                    raise RecordError(number, line, "the game is named twice")
                game_id = value.strip().lower()
                lines["game"] = (number, line)
            elif key == "seats":
                seats = ascii_number(value.strip(), 2)
                if seats is None:
                    raise RecordError(number, line, "seats must be a whole number")
                lines["seats"] = (number, line)
            elif key == "option":
                name, sep, opt = value.partition("=")
                if not sep or not name.strip():
                    raise RecordError(number, line, "expected '# option: name=value'")
                options[name.strip().lower()] = opt.strip()
                lines[f"option:{name.strip().lower()}"] = (number, line)
            else:
                meta[key] = value
            continue
        if game_id is None:
            raise RecordError(number, line, "the record must start with '# game: <id>'")
        moves.append((number, line))
    if game_id is None:
        raise RecordError(1, text.splitlines()[0] if text.strip() else "",
                          "the record has no '# game: <id>' line")
    return Record(game_id, seats, options, meta, moves, lines)


def replay_record(record: Record) -> tuple[Game, Any]:
    """Rebuild the final state; every error names its line."""
    def fail(key: str, exc: GameError) -> RecordError:
        number, text = record.lines.get(key, (1, f"# game: {record.game}"))
        return RecordError(number, text, str(exc))

    try:
        game = get_game(record.game)
    except GameError as exc:
        raise fail("game", exc) from None
    try:
        game.check_seats(record.seats)
    except GameError as exc:
        raise fail("seats", exc) from None
    try:
        game.resolve_options(record.options)
    except GameError:  # name the first option that is wrong on its own
        for name, value in record.options.items():
            try:
                game.resolve_options({name: value})
            except GameError as exc:
                raise fail(f"option:{name}", exc) from None
    try:
        state = game.new(record.seats, record.options)
    except GameError as exc:  # options valid one by one but not together (or missing)
        raise fail("game", exc) from None
    for number, notation in record.moves:
        try:
            state = game.play(state, notation)
        except GameError as exc:
            raise RecordError(number, notation, str(exc)) from None
    return game, state


def format_record(game: Game, state_start: Any, moves: Iterable[str], *,
                  meta: dict[str, str] | None = None) -> str:
    """Write a record for `moves` played from the start position `state_start`."""
    lines = [f"# game: {game.id}"]
    if game.info.min_seats != game.info.max_seats:
        lines.append(f"# seats: {game.seats(state_start)}")
    for name, value in game.options_of(state_start).items():
        lines.append(f"# option: {name}={value}")
    for key, value in (meta or {}).items():
        lines.append(f"# {key}: {value}")
    lines.extend(moves)
    return "\n".join(lines) + "\n"
