"""What a match can do, with no Discord in sight.

Commands and buttons resolve their arguments and call one of these; every refusal is a
`ServiceError` carrying a translatable phrase, raised before anything changes. Every change is
one transaction that also writes, in the outbox, what players must be told about it.
"""

from __future__ import annotations

from .clocks import NOTIFY_MODES, REMINDER_MODES, TickReport, parse_time
from .core import (
    AlreadyOpen,
    BadRequest,
    ConfirmRepeat,
    Forbidden,
    IllegalMove,
    Match,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    Player,
    ServiceError,
    StaleAction,
    Via,
    WrongPhase,
    result_phrase,
    wrap,
)
from .history import HistoryEntry
from .matches import FIRST_CHOICES, parse_options
from .moves import MoveResult
from .offers import Offer, OffersMixin
from .settings import CHANNEL_ACTIONS, SettingsMixin
from .stats import Leaderboard, Profile, StatsMixin, seat_result


class Service(OffersMixin, StatsMixin, SettingsMixin):
    """Matches, moves, clocks, offers, settings, history, ratings and replays."""


MatchService = Service

__all__ = ["AlreadyOpen", "BadRequest", "CHANNEL_ACTIONS", "ConfirmRepeat", "FIRST_CHOICES",
           "Forbidden",
           "HistoryEntry", "IllegalMove", "Leaderboard", "Match", "MatchService", "MoveResult",
           "NOTIFY_MODES", "NotAPlayer", "NotFound", "NotYourTurn", "Offer", "Player", "Profile",
           "REMINDER_MODES", "Service", "ServiceError", "StaleAction", "TickReport", "Via",
           "WrongPhase", "parse_options", "parse_time", "result_phrase", "seat_result", "wrap"]
