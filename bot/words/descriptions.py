"""A position in words, in the reader's language: the alt text of a picture and the text board.

Each kit writes its positions (`Game.describe_view`, from an observation: a public picture's
alt text from the public view, a player's text board from that player's view); this module only
translates and fits them. The alt text goes wherever the picture goes (a board, a replay, a
lesson, a puzzle, the web page); the text board is what `/board text:True` and Describe answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import ALT_TEXT_LIMIT, Game, get_game

from .i18n import Texts


def view_of(game: Game, state: Mapping[str, Any] | Any, viewer: int | None) -> Any:
    """The observation of a stored state (its JSON) or of a state, for `viewer` (None: the
    public, what the channel sees)."""
    if isinstance(state, Mapping):
        state = game.from_json(state)
    return game.observe(state, viewer)


def alt_text(game: Game | str, view: Any, texts: Texts, names: Sequence[str]) -> str:
    """The picture's alt text: the kit's short description, lines joined by spaces, within
    Discord's 1,024 characters (cut at a sentence's end where one is near)."""
    if isinstance(game, str):
        game = get_game(game)
    lines = [texts(line, names) for line in game.describe_view(view).alt]
    return cut(" ".join(line for line in lines if line), ALT_TEXT_LIMIT)


def text_board(game: Game | str, view: Any, texts: Texts, names: Sequence[str]) -> list[str]:
    """The whole position in words, one line per kit line (the text board)."""
    if isinstance(game, str):
        game = get_game(game)
    return [texts(line, names) for line in game.describe_view(view).full]


def cut(text: str, limit: int) -> str:
    """`text` within `limit` characters: whole sentences where the last one ends in the
    second half, else cut with an ellipsis."""
    if len(text) <= limit:
        return text
    head = text[:limit - 1]
    end = max(head.rfind(". "), head.rfind("。"))
    if end > limit // 2:
        return head[:end + 1]
    return head + "…"
