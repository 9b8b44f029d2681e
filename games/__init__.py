"""Pure rules of Corral's games, and the registry that finds each game's kit by id.

Every game is a kit (games/kit.py): a package with its rules, its AI knowledge and its rules
summaries, naming its picture module. Nothing in this package does I/O or draws chance (the
host makes chance moves and logs them; the registry reads one environment variable at import,
`CORRAL_EXTRA_KITS`), and nothing in it imports `render`.
"""

from __future__ import annotations

import importlib
import os

from .base import (  # noqa: F401  (re-exported vocabulary)
    ALT_TEXT_LIMIT,
    N_,
    NC_,
    Answer,
    Description,
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
    english_list,
    nphrase,
    phrase,
    render_phrase,
    replay,
    shorten,
    translate_template,
)
from .kit import Kit

# The product's games, one line each: the package of the game's kit (games/kit.py), in the order
# the bot and `python -m games list` show them.
PRODUCT_KITS: tuple[str, ...] = (
    ".pastoral",
    ".ghostone",
    ".mancala",
    ".ico",
    ".consequence",
)

# More kits, from outside the product: importable package names, separated by commas (the
# tests register a tic-tac-toe kit this way, tests/kits/tictactoe). Read once, at import.
EXTRA_KITS_VARIABLE = "CORRAL_EXTRA_KITS"


def _load_kits(paths: tuple[str, ...]) -> dict[str, Kit]:
    kits: dict[str, Kit] = {}
    for path in paths:
        module = importlib.import_module(path, __name__)
        kit = getattr(module, "KIT", None)
        if not isinstance(kit, Kit):
            raise ImportError(f"{module.__name__} declares no KIT (a games.kit.Kit)")
        if kit.id in kits:
            raise ImportError(f"two kits for {kit.id}: {kits[kit.id]} and {module.__name__}")
        kits[kit.id] = kit
    return kits


def _extra_kits() -> tuple[str, ...]:
    text = os.environ.get(EXTRA_KITS_VARIABLE, "")
    return tuple(name.strip() for name in text.split(",") if name.strip())


KITS: dict[str, Kit] = _load_kits(PRODUCT_KITS + _extra_kits())
PRODUCT: frozenset[str] = frozenset(list(KITS)[: len(PRODUCT_KITS)])  # the product's game ids
REGISTRY: dict[str, Game] = {game_id: kit.game for game_id, kit in KITS.items()}


class UnknownGameError(GameError):
    """No game has this id."""


def get_kit(game_id: str) -> Kit:
    key = game_id.strip().lower()
    if key in KITS:
        return KITS[key]
    raise UnknownGameError(N_("{game} is not a game (games: {known})"), game=shorten(game_id),
                           known=tuple(KITS))


def get_game(game_id: str) -> Game:
    return get_kit(game_id).game
