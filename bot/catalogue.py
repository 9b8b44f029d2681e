"""The games the bot offers, and everything it needs per game, registered in one place.

A game is offered when it has rules (`games.REGISTRY`: id, name, seats, options, how a move is
entered, turn cards...), a picture (`render.RENDERED_GAMES`) and a rules summary in every language
(`bot/rules/<language>/<id>.md`); tests/test_ui.py checks that each registered game has
all of them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from games import REGISTRY, Game
from render import RENDERED_GAMES

from .i18n import DEFAULT_LANGUAGE, LANGUAGES

RULES_DIR = Path(__file__).resolve().parent / "rules"


def rules_path(game_id: str, language: str) -> Path:
    return RULES_DIR / language / f"{game_id}.md"


@cache
def rules_text(game_id: str, language: str = DEFAULT_LANGUAGE) -> str | None:
    """The /rules summary of a game, in `language` if written, else in English."""
    for lang in (language, DEFAULT_LANGUAGE):
        path = rules_path(game_id, lang)
        if path.is_file():
            return path.read_text(encoding="utf-8").strip()
    return None


def missing_parts(game_id: str) -> list[str]:
    """What a registered game still lacks to be offered."""
    missing = []
    if game_id not in RENDERED_GAMES:
        missing.append("a renderer")
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE and not rules_path(game_id, language).is_file():
            missing.append(f"rules in {language}")
    return missing


PLAYABLE: dict[str, Game] = {gid: game for gid, game in REGISTRY.items()
                             if not missing_parts(gid)}
