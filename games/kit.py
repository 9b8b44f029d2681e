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
  file per language, English at least.

`games/__init__.py` lists the product's kits, one line each; `CORRAL_EXTRA_KITS` adds others
(see there).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .base import Game


@dataclass(frozen=True)
class Kit:
    game: Game
    picture: str | None = None
    ai: str | None = None
    texts: Path | None = None

    @property
    def id(self) -> str:
        return self.game.id

    def rules_file(self, language: str) -> Path | None:
        """Where the rules summary in `language` is (the file may not exist)."""
        return None if self.texts is None else self.texts / f"{language}.md"
