"""The games the bot offers, and everything it needs per game, found through each game's kit.

A game is offered when its kit (`games.KITS`) has rules (id, name, seats, options, how a move
is entered, turn cards...), a picture (`render.RENDERED_GAMES`) and a rules summary in English
at least (`Kit.rules_file`); tests/test_ui.py checks that each registered game has all of them.
"""

from __future__ import annotations

from functools import cache

from games import KITS, Game
from render import RENDERED_GAMES

from .words.i18n import DEFAULT_LANGUAGE, LANGUAGES


@cache
def rules_text(game_id: str, language: str = DEFAULT_LANGUAGE) -> str | None:
    """The /rules summary of a game, in `language` if written, else in English."""
    kit = KITS.get(game_id)
    for lang in (language, DEFAULT_LANGUAGE):
        path = None if kit is None else kit.rules_file(lang)
        if path is not None and path.is_file():
            return path.read_text(encoding="utf-8").strip()
    return None


def missing_parts(game_id: str) -> list[str]:
    """What a registered game still lacks to be offered."""
    missing = []
    if game_id not in RENDERED_GAMES:
        missing.append("a renderer")
    for language in LANGUAGES:
        path = KITS[game_id].rules_file(language)
        if language == DEFAULT_LANGUAGE and (path is None or not path.is_file()):
            missing.append(f"rules in {language}")
    return missing


PLAYABLE: dict[str, Game] = {gid: kit.game for gid, kit in KITS.items()
                             if not missing_parts(gid)}
