"""Ratings, profiles, leaderboards and replays: read from the store and the move log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import Outcome, get_game

from .. import ratings
from ..ratings import RatedMatch, Skill
from ..store import FinishedRow, RatingRow
from ..words import strings
from .core import BadRequest, Context, Match, NotFound
from .history import History
from .moves import effective_log

DAY = 86400.0


@dataclass(frozen=True)
class GameRecord:
    """A player's record in one game."""

    game: str
    rating: RatingRow | None
    played: int
    won: int
    drawn: int
    lost: int
    average_plies: float | None
    average_seconds: float | None


@dataclass(frozen=True)
class ResultRow:
    match_id: int
    game: str
    result: str  # win, draw or loss
    opponents: tuple[str, ...]
    finished_at: float


@dataclass(frozen=True)
class Profile:
    user_id: int
    games: list[GameRecord]
    streak: tuple[str, int] | None  # (win / draw / loss, how many in a row), newest first
    last: list[ResultRow]  # newest first, at most 10
    active: list[Match]
    trend_game: str | None  # the game the chart shows
    trend: list[tuple[float, float]]  # (time, displayed rating) after each rated match


@dataclass(frozen=True)
class Leaderboard:
    game: str
    rows: list[RatingRow]
    own_rank: int | None
    own: RatingRow | None


def seat_result(result: dict[str, Any] | None, seat: int) -> str:
    """win, draw or loss for one seat of a finished match's stored result."""
    if result is None:
        return "draw"
    outcome = Outcome.from_json(result)
    if seat not in outcome.winners:
        return "loss"
    return "draw" if outcome.draw else "win"


class Stats:
    """Ratings, profiles, leaderboards and replays."""

    leaderboard_min_games = 5
    leaderboard_days = 90

    def __init__(self, ctx: Context, history: History):
        self.ctx = ctx
        self.history = history

    async def profile(self, user_id: int, game_id: str | None = None) -> Profile:
        if game_id is not None:
            get_game(game_id)  # the caller checked the id; a stale one still fails cleanly
        finished = await self.ctx.store.finished_record(user_id, game_id)
        by_game: dict[str, list[FinishedRow]] = {}
        for row in finished:
            by_game.setdefault(row.game, []).append(row)
        rated = {r.game: r for r in await self.ctx.store.ratings_of(user_id)}
        games = []
        for game, rows in sorted(by_game.items(), key=lambda item: -len(item[1])):
            results = [seat_result(r.result, r.seat) for r in rows]
            plies = [r.plies for r in rows if r.plies is not None]
            games.append(GameRecord(
                game, rated.get(game), len(rows), results.count("win"), results.count("draw"),
                results.count("loss"), sum(plies) / len(plies) if plies else None,
                sum(r.finished_at - r.created_at for r in rows) / len(rows)))
        streak = None
        if finished:
            first = seat_result(finished[0].result, finished[0].seat)
            n = 0
            for row in finished:
                if seat_result(row.result, row.seat) != first:
                    break
                n += 1
            streak = (first, n)
        last_rows = finished[:10]
        seats = await self.ctx.store.opponents([r.match_id for r in last_rows])
        last = [ResultRow(r.match_id, r.game, seat_result(r.result, r.seat),
                          tuple(s.name for s in seats.get(r.match_id, ()) if s.user_id != user_id),
                          r.finished_at) for r in last_rows]
        active = await self.ctx.live_matches_of(user_id)
        if game_id is not None:
            active = [m for m in active if m.game.id == game_id]
        trend_game = game_id if game_id is not None else (
            max(rated.values(), key=lambda r: r.games).game if rated else None)
        trend = []
        if trend_game is not None:
            trend = [(t, float(Skill(mu, sigma).display))
                     for t, mu, sigma in await self.ctx.store.rating_trend(user_id, trend_game)]
        return Profile(user_id, games, streak, last, active, trend_game, trend)

    async def leaderboard(self, game_id: str, user_id: int, *,
                          guild_id: int | None = None) -> Leaderboard:
        """The top 10 of a game (of one server's players with `guild_id`), and the caller's
        own place when they are not among them."""
        get_game(game_id)
        since = self.ctx.clock() - self.leaderboard_days * DAY
        rows = await self.ctx.store.leaderboard(game_id, min_games=self.leaderboard_min_games,
                                            active_since=since, guild_id=guild_id)
        own_rank = await self.ctx.store.leaderboard_rank(
            game_id, user_id, min_games=self.leaderboard_min_games, active_since=since,
            guild_id=guild_id)
        own = (await self.ctx.store.skills([user_id], game_id)).get(user_id)
        return Leaderboard(game_id, rows, own_rank, own)

    # -- recomputing from the log ------------------------------------------------------------
    async def ratings_from_log(self) -> dict[tuple[int, str], Skill]:
        """Every rating recomputed from scratch: each match opened rated is replayed from its
        move log to its outcome, and counted (or not) by the same rules, in the order the
        ratings were made. Must equal the stored ratings (a test checks)."""
        order = await self.ctx.store.rating_log()
        position = {match_id: i for i, (match_id, _, _) in enumerate(order)}
        replayed: list[tuple[int, RatedMatch]] = []
        for match_id in await self.ctx.store.rated_finished_matches():
            match = await self.ctx.get(match_id)
            state = await self.history.rebuild(match_id)
            # the game's own ending, else the platform's (resignation, timeout, agreement:
            # not moves, so only the match's stored result knows them)
            outcome = match.game.outcome(state) or match.outcome()
            if outcome is None:
                continue
            user_ids = tuple(s.user_id for s in match.seats)
            if not ratings.counts(rated=match.row.rated, user_ids=user_ids, outcome=outcome,
                                  plies=match.game.ply(state)):
                continue
            places = ratings.places(outcome, len(user_ids), match.game.scores(state))
            key = position.get(match_id, len(order) + match_id)
            replayed.append((key, RatedMatch(match_id, match.game.id, user_ids, tuple(places))))
        replayed.sort(key=lambda item: item[0])
        return ratings.replay_ratings(m for _, m in replayed)

    # -- replays ---------------------------------------------------------------------------
    async def replay_log(self, match_id: int) -> tuple[Match, list[list[Any]]]:
        """A match and its effective log as [kind, notation] (what a replay job replays)."""
        match = await self.ctx.get(match_id)
        if match.state is None:
            raise BadRequest(strings.REPLAY_NOTHING, match_id=match_id)
        log = effective_log(await self.ctx.store.moves(match_id))
        entries = [[e.kind, e.notation] for e in log]
        return match, entries

    @staticmethod
    def check_replay_ply(ply: int, entries: Sequence[Any], match_id: int) -> int:
        if not 0 <= ply <= len(entries):
            raise NotFound(strings.REPLAY_NO_SUCH_MOVE, match_id=match_id, total=len(entries))
        return ply
