"""Tournaments without Discord: data, pairing per format, standings, TRF and JSON export.

The bot stores a `Tournament` (`to_json`/`from_json`), calls `pair_next_round` when a round has
ended and `add_round` with what it returns, opens an ordinary match per `Game` (seats in order,
first seat = white), and reports results with `record` and withdrawals with `withdraw`.
"""

from .formats import (
    berger_round,
    bracket_order,
    is_finished,
    knockout_stages,
    pair_next_round,
    paired_json,
    pod_points,
    schedule,
    table_sizes,
)
from .model import (
    FORMATS,
    Game,
    PairingError,
    Player,
    Round,
    Settings,
    Tournament,
    TournamentError,
    add_player,
    add_round,
    from_json,
    record,
    scores,
    seed_order,
    to_json,
    validate,
    withdraw,
)
from .standings import Cell, CrosstableRow, Standing, Standings, crosstable, standings
from .trf import to_trf

__all__ = [
    "FORMATS", "Cell", "CrosstableRow", "Game", "PairingError", "Player", "Round", "Settings",
    "Standing", "Standings", "Tournament", "TournamentError", "add_player", "add_round",
    "berger_round", "bracket_order", "crosstable", "from_json", "is_finished",
    "knockout_stages", "pair_next_round", "paired_json", "pod_points", "record", "schedule",
    "scores",
    "seed_order", "standings", "table_sizes", "to_json", "to_trf", "validate", "withdraw",
]
