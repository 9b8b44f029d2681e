"""Pure rules of Corral's games, and the registry that finds them by id.

Nothing in this package does I/O or draws chance: the host makes chance moves and logs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import (  # noqa: F401  (re-exported vocabulary)
    N_,
    Answer,
    Ending,
    Game,
    GameError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidSeatsError,
    InvalidStateError,
    Option,
    Outcome,
    Phrase,
    Seat,
    Step,
    Termination,
    nphrase,
    phrase,
    render_phrase,
    replay,
    shorten,
)
from .consequence import GAME as _CONSEQUENCE
from .ghostone import GAME as _GHOSTONE
from .ico import GAME as _ICO
from .mancala import GAME as _MANCALA
from .pastoral import GAME as _PASTORAL


@dataclass(frozen=True)
class CatalogueEntry:
    """A game Corral will host; `game` is None until its rules are implemented."""

    id: str
    name: str
    players: str
    game: Game | None


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry("pastoral-square", "Pastoral Square", "2", _PASTORAL),
    CatalogueEntry("ghostone", "Ghostone", "3-4", _GHOSTONE),
    CatalogueEntry("progressive-mancala", "Progressive Mancala", "2", _MANCALA),
    CatalogueEntry("ico", "ICO", "2-4", _ICO),
    CatalogueEntry("consequence", "Consequence", "2", _CONSEQUENCE),
)

REGISTRY: dict[str, Game] = {e.id: e.game for e in CATALOGUE if e.game is not None}


class UnknownGameError(GameError):
    """No game has this id (or it is not playable yet)."""


def get_game(game_id: str) -> Game:
    key = game_id.strip().lower()
    if key in REGISTRY:
        return REGISTRY[key]
    if any(e.id == key for e in CATALOGUE):
        raise UnknownGameError(N_("{game} is not playable yet"), game=shorten(game_id))
    raise UnknownGameError(N_("{game} is not a game (games: {known})"), game=shorten(game_id),
                           known=", ".join(REGISTRY))
