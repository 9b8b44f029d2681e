"""What a match can do, with no Discord in sight.

Commands and buttons resolve their arguments and call one of these; every refusal is a
`ServiceError` carrying a translatable phrase, raised before anything changes. Every change is
one transaction that also writes, in the outbox, what players must be told about it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..store import Store
from .analyses import LEVEL_NAMES, Analyses, AnalysisRequest
from .clocks import NOTIFY_MODES, REMINDER_MODES, Clocks, TickReport, parse_time
from .core import (
    AlreadyOpen,
    BadRequest,
    ConfirmRepeat,
    Context,
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
from .history import History, HistoryEntry
from .lessons import LessonAt, Lessons
from .matches import FIRST_CHOICES, Matches, parse_options
from .moves import MoveResult, Moves
from .offers import Offer, Offers
from .puzzles import PuzzleResult, Puzzles, line_states, puzzle_state
from .settings import CHANNEL_ACTIONS, Settings
from .stats import Leaderboard, Profile, Stats, seat_result
from .tournaments import Tournament, Tournaments


class Service:
    """Matches, moves, clocks, offers, settings, history, ratings and replays: parts over one
    shared `Context` (the store, the clock, the random sources, the commit hook), each a
    class of its own that can be read alone. Every public method of the parts that the bot
    calls is also a method of the service, delegated as it is."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 rng: Any = None, dice: random.Random | None = None,
                 on_commit: Callable[[], None] | None = None):
        self.ctx = ctx = Context(store, clock=clock, rng=rng, dice=dice, on_commit=on_commit)
        self.matches = matches = Matches(ctx)
        self.moves = moves = Moves(ctx, matches)
        self.clocks = clocks = Clocks(ctx, matches, moves)
        self.offers = offers = Offers(ctx, matches, moves)
        self.settings = settings = Settings(ctx)
        self.match_history = history = History(ctx)
        self.stats = stats = Stats(ctx, history)
        self.analyses = analyses = Analyses(ctx)
        self.tournaments = Tournaments(ctx, matches)
        self.lessons = lessons = Lessons(ctx)
        self.puzzles = puzzles = Puzzles(ctx)

        # reading and checking (the context)
        self.get = ctx.get
        self.in_channel = ctx.in_channel
        self.live_matches_of = ctx.live_matches_of
        self.finished_matches_of = ctx.finished_matches_of
        self.locked = ctx.locked
        self.check_live = ctx.check_live
        self.check_active_player = ctx.check_active_player
        self.check_turn = ctx.check_turn
        # matches
        self.check_opening = matches.check_opening
        self.check_rated = matches.check_rated
        self.check_channel = matches.check_channel
        self.find_retry = matches.find_retry
        self.open_match = matches.open_match
        self.place_match = matches.place_match
        self.abandon_placeholders = matches.abandon_placeholders
        self.join = matches.join
        self.add_ai = matches.add_ai
        self.start = matches.start
        self.accept = matches.accept
        self.decline = matches.decline
        self.resign = matches.resign
        self.abort = matches.abort
        self.channel_gone = matches.channel_gone
        self.rematch = matches.rematch
        # moves
        self.legal_moves_for = moves.legal_moves_for
        self.move_input = moves.move_input
        self.play = moves.play
        self.move_made_at = moves.move_made_at
        self.board_kept_live = moves.board_kept_live
        self.repost_board = moves.repost_board
        # conditional moves
        self.conditionals = moves.conditionals
        self.conditional_view = moves.conditionals.conditional_view
        self.add_conditional = moves.conditionals.add_conditional
        self.clear_conditional = moves.conditionals.clear_conditional
        self.recover = moves.recover
        # clocks
        self.clock_of = clocks.clock_of
        self.claim = clocks.claim
        self.vacation_days_left = clocks.vacation_days_left
        self.start_vacation = clocks.start_vacation
        self.end_vacation = clocks.end_vacation
        self.set_reminders = clocks.set_reminders
        self.set_notify = clocks.set_notify
        # offers
        self.offer_draw = offers.offer_draw
        self.request_takeback = offers.request_takeback
        self.answer_offer = offers.answer_offer
        # settings
        self.guild_settings = settings.guild_settings
        self.update_settings = settings.update_settings
        self.note_languages = settings.note_languages
        self.set_user_language = settings.set_user_language
        self.take_dm_note = settings.take_dm_note
        self.users_with_dm_notes = settings.users_with_dm_notes
        self.channel_language = settings.channel_language
        self.user_language = settings.user_language
        self.may_talk = settings.may_talk
        # history and statistics
        self.history = history.history
        self.rebuild = history.rebuild
        self.record = history.record
        self.history_line = history.history_line
        self.profile = stats.profile
        self.leaderboard = stats.leaderboard
        self.ratings_from_log = stats.ratings_from_log
        self.replay_log = stats.replay_log
        self.check_replay_ply = stats.check_replay_ply
        # puzzles
        self.offer_puzzle = puzzles.offer_puzzle
        self.puzzle_for = puzzles.puzzle_for
        self.answer_puzzle = puzzles.answer_puzzle
        self.puzzle_rating = puzzles.puzzle_rating
        # post-game analyses
        self.analysable = analyses.analysable
        self.request_analysis = analyses.request_analysis
        # lessons
        self.lesson = lessons.lesson
        self.open_lesson = lessons.open_lesson
        self.lesson_at = lessons.lesson_at
        self.restart_lesson = lessons.restart_lesson
        self.answer_lesson = lessons.answer_lesson
        self.answer_lesson_parts = lessons.answer_lesson_parts

    async def tick(self, *, batch: int = 100) -> TickReport:
        """The clocks' tick, then the tournaments' (sign-up windows, round deadlines)."""
        report = await self.clocks.tick(batch=batch)
        await self.tournaments.tick()
        return report

    # the shared state, readable and settable through the service (tests set the dice)
    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def clock(self) -> Callable[[], float]:
        return self.ctx.clock

    @clock.setter
    def clock(self, value: Callable[[], float]) -> None:
        self.ctx.clock = value

    @property
    def dice(self) -> random.Random:
        return self.ctx.dice

    @dice.setter
    def dice(self, value: random.Random) -> None:
        self.ctx.dice = value

    @property
    def rng(self) -> Any:
        return self.ctx.rng

    @rng.setter
    def rng(self, value: Any) -> None:
        self.ctx.rng = value

    @property
    def on_commit(self) -> Callable[[], None]:
        return self.ctx.on_commit

    @on_commit.setter
    def on_commit(self, value: Callable[[], None]) -> None:
        self.ctx.on_commit = value

    @property
    def leaderboard_min_games(self) -> int:
        return self.stats.leaderboard_min_games

    @leaderboard_min_games.setter
    def leaderboard_min_games(self, value: int) -> None:
        self.stats.leaderboard_min_games = value

    @property
    def leaderboard_days(self) -> int:
        return self.stats.leaderboard_days

    @leaderboard_days.setter
    def leaderboard_days(self, value: int) -> None:
        self.stats.leaderboard_days = value


MatchService = Service

__all__ = ["AlreadyOpen", "Analyses", "AnalysisRequest", "BadRequest", "LEVEL_NAMES",
           "CHANNEL_ACTIONS", "Clocks", "ConfirmRepeat", "Context",
           "FIRST_CHOICES", "History", "Matches", "Moves", "Offers", "Settings", "Stats",
           "Forbidden", "LessonAt", "Lessons", "PuzzleResult", "Puzzles", "line_states",
           "puzzle_state",
           "HistoryEntry", "IllegalMove", "Leaderboard", "Match", "MatchService", "MoveResult",
           "NOTIFY_MODES", "NotAPlayer", "NotFound", "NotYourTurn", "Offer", "Player", "Profile",
           "REMINDER_MODES", "Service", "ServiceError", "StaleAction", "TickReport",
           "Tournament", "Tournaments", "Via",
           "WrongPhase", "parse_options", "parse_time", "result_phrase", "seat_result", "wrap"]
