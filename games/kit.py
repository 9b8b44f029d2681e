"""Game kits: everything about one game in one package, found through one registry line.

A kit is a package (`games/<kit>/` for the product's games) whose `__init__` declares
`KIT = Kit(...)`:

- `game`: the rules, a `Game` whose `GameInfo` holds the game's metadata (id, name, seats,
  options, endings), as python-chess keeps a variant's in its class;
- `ai`: the import path of the kit's AI knowledge, a module defining `KNOWLEDGE` (a
  `games.search.Knowledge`: evaluation, playout policy, how to deal what a seat cannot see, a
  search of its own if it wants one), or None for the generic search's defaults. It is imported
  when the AI first plays the game, never by a process that only hosts matches;
- `picture`: the import path of the kit's picture module, a module defining `PICTURE` (see
  `render`). It is only a name here: `games` never imports it (pictures need Pillow);
- `texts`: the folder of the rules summaries the bot shows (`/rules`), one `<language>.md`
  file per language, English at least;
- `setups`: the set-ups that show the game's range (board sizes, seat counts, levels), which
  the benchmarks play; by default one per seat count;
- `baseline`: the import path of a module defining `BASELINE` (a `games.search.Baseline`):
  the game's plain material as the strength bench's classical opponents count it (greedy,
  fixed-depth alpha-beta: bench/strength.py), or None (a game with nothing to count before
  its end). Only the bench imports it;
- `lessons`: the game's lesson file (`/learn`), a JSON file read by `games.lessons`: small
  positions in the game's own notation, each with a task and its texts in every language, or
  None for a game without a lesson.
- `puzzles`: the game's curated puzzle set (`/puzzle` from the first day), a JSON file read by
  `games.puzzles.curated`, made by `python -m games puzzles` from AI self-play and re-checked
  by exhaustive search in the tests; or None.

`games/__init__.py` lists the product's kits, one line each; `CORRAL_EXTRA_KITS` adds others
(see there).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .base import Game


@dataclass(frozen=True)
class Setup:
    """One way to set a game up: seats and options (a random option, such as ICO's start
    face, is drawn by `Game.draw_options` as the host draws it)."""

    label: str  # short, for tables: "17 pits", "4 seats"
    seats: int
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Kit:
    """One game's kit, as its package declares it (`KIT`)."""

    game: Game
    picture: str | None = None
    ai: str | None = None
    texts: Path | None = None
    setups: tuple[Setup, ...] = ()
    lessons: Path | None = None
    puzzles: Path | None = None
    baseline: str | None = None

    @property
    def id(self) -> str:
        return self.game.id

    def __post_init__(self) -> None:
        if not self.setups:  # one per seat count, with the default options
            info = self.game.info
            object.__setattr__(self, "setups", tuple(
                Setup(f"{n} seats", n) for n in range(info.min_seats, info.max_seats + 1)))

    def rules_file(self, language: str) -> Path | None:
        """Where the rules summary in `language` is (the file may not exist)."""
        return None if self.texts is None else self.texts / f"{language}.md"
