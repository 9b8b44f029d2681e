"""All of Corral's SQL: matches, the append-only move log, the outbox, clocks and settings.

The package holds the store and what it stands on: `db` (one interface, a driver per
database: `sqlite`, `pg`), the numbered `migrations/`, the parts mixed into the store
(`analyses`, `puzzles`), `backup` and `migrate` (SQLite to PostgreSQL), and `instance`
(one bot process per database role).

Reads go through `Store` (committed data only); every change goes through one transaction
(`async with store.transaction() as tx:`), in which the service writes the match, its log entry
and the outbox rows that tell players about it, so that a crash can never keep one without the
other. A match changes only if the caller saw its current `version` (`StaleVersion` otherwise):
a double click or a race loses cleanly instead of applying a move twice.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, TypeVar

import orjson

from .analyses import AnalysisQueries, AnalysisWrites
from .db import Conflict, Conn, Database, Row, params
from .puzzles import PuzzleQueries, PuzzleWrites

UNSET: Any = object()  # "leave this column alone" (None is a value: no deadline)
WEB_TOKEN_BYTES = 16  # a match page's token: 128 random bits, 22 URL-safe characters
RATINGS_LOCK = 0x72617465  # "rate": PostgreSQL advisory lock of rating updates


def dumps(value: Any) -> str:
    """JSON text of a column (orjson: the states and outbox payloads written on every move
    cost several times less than with the json module; keys that are not strings become
    strings, as json does)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


class StoreError(Exception):
    """Base class of store errors."""


class StaleVersion(StoreError):
    """The match changed since the caller read it."""


class ChannelBusy(StoreError):
    """The channel already has a live match."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True)
class MoveRow:
    seq: int  # position in the log (takebacks and skips are entries too)
    ply: int  # the game's ply before the entry
    kind: str  # move, takeback or skip
    notation: str
    actor_id: int | None
    played_at: float
    interaction_id: int | None = None


@dataclass(frozen=True)
class Moved:
    """A committed move as live pages need it, without a read: its match's row as the move
    wrote it, the version the move's transaction began from, the log entries it appended
    (every entry from `since` to `row.version`), and the vacations it read (the deadline's
    players)."""

    row: MatchRow
    since: int
    entries: tuple[MoveRow, ...] = ()
    vacations: dict[int, tuple[tuple[float, float], ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchRow:
    id: int
    game: str
    options: dict[str, str]
    seat_count: int
    guild_id: int | None
    channel_id: int
    in_thread: bool
    host_id: int
    invited_id: int | None
    first_seat: str
    status: str
    state: dict[str, Any] | None
    version: int
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    seats: tuple[SeatRow, ...] = field(default=())
    move_seconds: int | None = None  # time per move; None: no deadline
    turn_started_at: float | None = None
    parent_channel_id: int | None = None  # the channel a match thread was opened from
    waiting_on: int | None = None  # the user to move (None: nobody, or a die roll is due)
    next_check_at: float | None = None  # when a reminder or expiry may next be due
    board_version: int | None = None  # the version whose board was last sent to the outbox
    finished_at: float | None = None
    rated: bool = False  # opened rated (ratings change only if it also ends between humans)
    web_token: str | None = None  # its web page's unguessable name (None: opened before 0012)
    # whether a player has queued conditional moves in it, read with the match (a move need
    # not look for them: a read fewer on every move); None where the read did not say
    has_conditionals: bool | None = None
    # 'channel': the bot posts in the match's channel itself; 'interactions': it may only
    # answer interactions there (a DM or group DM, a server that did not install Corral)
    reach: str = "channel"

    @property
    def url(self) -> str:
        """A link to the match's channel, which works in any DM (a DM or group DM between
        users has no #mention the bot can write)."""
        return f"https://discord.com/channels/{self.guild_id or '@me'}/{self.channel_id}"

    @property
    def link(self) -> str:
        """The match's channel as a message names it: a #mention in a server, a link in a DM
        or group DM (where a #mention shows no name)."""
        return self.url if self.guild_id is None else f"<#{self.channel_id}>"

    @property
    def by_interactions(self) -> bool:
        """Whether the bot can reach the channel only through interactions' answers."""
        return self.reach == "interactions"

    def seat_of(self, user_id: int) -> int | None:
        for row in self.seats:
            if row.user_id == user_id:
                return row.seat
        return None

    def user_at(self, seat: int) -> SeatRow | None:
        for row in self.seats:
            if row.seat == seat:
                return row
        return None

    @property
    def channels(self) -> tuple[int, ...]:
        """Where this match's messages may be: its channel, and a thread's parent."""
        return (self.channel_id,) + ((self.parent_channel_id,) if self.parent_channel_id else ())


_MATCH_ROW_FIELDS = frozenset(f.name for f in fields(MatchRow))
# the columns a change of a match may write
_UPDATABLE = frozenset({"status", "state", "result", "seats", "turn_started_at",
                        "move_seconds", "waiting_on", "next_check_at", "board_version",
                        "finished_at", "plies"})


@dataclass(frozen=True)
class OutboxRow:
    id: int
    lane: str
    kind: str
    payload: dict[str, Any]
    attempts: int
    created_at: float
    # claimed before and not finished: an earlier delivery may have got through with its answer
    # lost (a crash, a timeout), so what it sends without a nonce is looked for first
    tried: bool = False


@dataclass(frozen=True)
class LiveMessage:
    message_id: int
    channel_id: int
    match_id: int
    kind: str
    version: int
    offer_id: int | None
    # a follow-up's interaction token, while Discord keeps it (wall-clock expiry): the message
    # may be edited through it, outside the bot's global rate limit
    token: str | None = None
    token_expires: float | None = None
    # a Components V2 board: the components (Discord's JSON) it keeps once retired, its text
    # and picture without the controls; None for a classic message, which loses all of them
    retired: str | None = None


@dataclass(frozen=True)
class OfferRow:
    id: int
    match_id: int
    kind: str
    from_user: int
    version: int
    status: str
    created_at: float


@dataclass(frozen=True)
class UserRow:
    user_id: int
    reminders: str = "on"
    notify: str = "channel"
    last_digest_at: float | None = None
    dm_channel_id: int | None = None
    dm_closed_at: float | None = None  # when a DM last failed because DMs are closed
    language: str | None = None  # the language the user last used (DMs, digests)


@dataclass(frozen=True)
class LessonRow:
    """Where a player is in a game's lesson (`games.lessons.LessonState`), and the token the
    lesson's components carry."""

    user_id: int
    game: str
    step: int
    tries: int
    mistakes: int
    token: str
    origin_guild: int | None = None
    origin_channel: int | None = None


@dataclass(frozen=True)
class ConditionalRow:
    """A player's queued replies in a match (see migration 0011)."""

    match_id: int
    user_id: int
    base_ply: int
    line: tuple[str, ...]
    draft: tuple[str, ...] = ()


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    game: str
    name: str
    mu: float
    sigma: float
    games: int
    last_played_at: float


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True)
class FinishedRow:
    match_id: int
    game: str
    seat: int
    result: dict[str, Any] | None
    plies: int | None
    created_at: float
    finished_at: float
    rated: bool


@dataclass(frozen=True)
class TournamentRow:
    """A tournament: its place, its rules, what is due when, and the engine's data (JSON of
    `bot.tournaments.to_json`)."""

    id: int
    guild_id: int
    parent_channel_id: int
    channel_id: int
    organiser_id: int
    game: str
    options: dict[str, str]
    format: str
    rated: bool
    min_rating: int | None
    move_seconds: int | None
    round_seconds: int
    signup_until: float
    status: str
    round_deadline: float | None
    data: str
    signup_message_id: int | None
    version: int
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class TournamentMatch:
    match_id: int
    tournament_id: int
    round: int
    game_index: int


DEFAULT_GUILD_SETTINGS: dict[str, Any] = {
    "use_threads": False, "move_seconds": None, "channels": None, "spectators_talk": True,
    "language": None, "preferred_language": None, "web_links": True}


# the head of every lane that is due, in id order (on the index of pending rows, migration 0013:
# never a walk over the delivered rows, which are kept seven days)
PENDING_OUTBOX = (
    "SELECT * FROM outbox o WHERE o.status = 'pending' AND o.next_attempt_at <= $1"
    " AND (o.claimed_until IS NULL OR o.claimed_until < $2)"
    " AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.lane = o.lane"
    " AND p.status = 'pending' AND p.id < o.id)"
    " ORDER BY o.id LIMIT $3")


class Queries(AnalysisQueries, PuzzleQueries):
    """Reads, on whichever connection `conn` is (the reader, or a transaction)."""

    conn: Conn

    async def get_match(self, match_id: int) -> MatchRow | None:
        return await self._one_match("m.id = $1", match_id)

    async def live_match_in(self, channel_id: int) -> MatchRow | None:
        return await self._one_match(
            "m.channel_id = $1 AND m.status IN ('open', 'invited', 'active')", channel_id)

    async def _one_match(self, condition: str, *args: Any, lock: bool = False
                         ) -> MatchRow | None:
        """The match meeting `condition` (at most one does) with its seats and whether
        conditional moves are queued in it, in one query: round trips fewer than reading
        them after it, on every move's path. `lock`: PostgreSQL locks the match row until the
        transaction ends."""
        suffix = self.conn.locking("m") if lock else ""
        rows = await self.conn.fetch(
            "SELECT m.*, s.seat AS seat_number, s.user_id AS seat_user_id,"
            " s.name AS seat_name, EXISTS (SELECT 1 FROM conditional_moves c"
            " WHERE c.match_id = m.id) AS has_conditionals"
            " FROM matches m LEFT JOIN seats s ON s.match_id = m.id"
            f" WHERE {condition} ORDER BY s.seat{suffix}", *args)
        if not rows:
            return None
        seats = tuple(SeatRow(r["seat_number"], r["seat_user_id"], r["seat_name"])
                      for r in rows if r["seat_number"] is not None)
        return _match_row(rows[0], seats)

    async def match_by_token(self, token: str) -> MatchRow | None:
        """The match whose web page `token` names (the web companion)."""
        return await self._one_match("m.web_token = $1", token)

    async def match_versions(self, match_ids: Sequence[int]) -> dict[int, int]:
        """Each match's current version, in one cheap query (what a web page's live updates
        poll when the web server runs beside the bot rather than inside it)."""
        if not match_ids:
            return {}
        rows = await self.conn.fetch(
            f"SELECT id, version FROM matches WHERE id IN ({params(len(match_ids))})",
            *match_ids)
        return {row["id"]: row["version"] for row in rows}

    async def live_matches_of(self, user_id: int) -> list[MatchRow]:
        rows = await self.conn.fetch(
            "SELECT m.* FROM matches m JOIN seats s ON s.match_id = m.id"
            " WHERE s.user_id = $1 AND m.status IN ('open', 'invited', 'active')"
            " ORDER BY m.updated_at", user_id)
        return [await self._with_seats(row) for row in rows]

    async def finished_matches_of(self, user_id: int, limit: int = 10) -> list[MatchRow]:
        rows = await self.conn.fetch(
            "SELECT m.* FROM matches m JOIN seats s ON s.match_id = m.id"
            " WHERE s.user_id = $1 AND m.status = 'finished'"
            " ORDER BY m.finished_at DESC, m.id DESC LIMIT $2", user_id, limit)
        return [await self._with_seats(row) for row in rows]

    async def recent_opening(self, host_id: int, parent_channel_id: int, game: str,
                             invited_id: int | None, since: float) -> MatchRow | None:
        """A lobby or invitation this host opened from this channel a moment ago (a retried
        `/play` finds it instead of opening a second match)."""
        row = await self.conn.fetchrow(
            "SELECT * FROM matches WHERE host_id = $1 AND status IN ('open', 'invited')"
            " AND game = $2 AND created_at >= $3"
            " AND (parent_channel_id = $4 OR channel_id = $5)"
            " AND COALESCE(invited_id, 0) = $6 ORDER BY id DESC LIMIT 1",
            host_id, game, since, parent_channel_id, parent_channel_id, invited_id or 0)
        return None if row is None else await self._with_seats(row)

    async def placeholder_matches(self, older_than: float) -> list[int]:
        rows = await self.conn.fetch(
            "SELECT id FROM matches WHERE channel_id < 0 AND status IN ('open', 'invited')"
            " AND created_at < $1 AND id NOT IN (SELECT match_id FROM tournament_matches)",
            older_than)
        return [row["id"] for row in rows]

    async def _new_id(self, sql: str, *args: Any) -> int:
        """The id an INSERT … RETURNING id gave its row."""
        rows = await self.conn.returning(sql, *args)
        return int(rows[0]["id"])

    async def _with_seats(self, row: Row) -> MatchRow:
        seat_rows = await self.conn.fetch(
            "SELECT seat, user_id, name FROM seats WHERE match_id = $1 ORDER BY seat", row["id"])
        return _match_row(row, tuple(SeatRow(r["seat"], r["user_id"], r["name"])
                                     for r in seat_rows))

    async def moves(self, match_id: int, after: int | None = None) -> list[MoveRow]:
        """The match's log, or its entries after the entry `after` (seq): the log is only
        ever appended to (a takeback is an entry too), so a reader that kept the log so far
        reads only what is new."""
        rows = await self.conn.fetch(
            "SELECT seq, ply, kind, notation, actor_id, played_at, interaction_id FROM moves"
            " WHERE match_id = $1 AND seq > $2 ORDER BY seq", match_id,
            -1 if after is None else after)
        return [MoveRow(r["seq"], r["ply"], r["kind"], r["notation"], r["actor_id"],
                        r["played_at"], r["interaction_id"]) for r in rows]

    async def last_entry(self, match_id: int) -> MoveRow | None:
        """The newest entry of the match's log (a move, a die roll, a takeback or a skip)."""
        row = await self.conn.fetchrow(
            "SELECT seq, ply, kind, notation, actor_id, played_at, interaction_id FROM moves"
            " WHERE match_id = $1 ORDER BY seq DESC LIMIT 1", match_id)
        if row is None:
            return None
        return MoveRow(row["seq"], row["ply"], row["kind"], row["notation"], row["actor_id"],
                       row["played_at"], row["interaction_id"])

    async def last_moves_at(self, match_id: int) -> dict[int, float]:
        """When each player of the match last moved (match clock), by user id: who is
        there to see a board edited in place (a quick match)."""
        rows = await self.conn.fetch(
            "SELECT actor_id, MAX(played_at) AS at FROM moves WHERE match_id = $1"
            " AND kind = 'move' AND actor_id IS NOT NULL GROUP BY actor_id", match_id)
        return {int(row["actor_id"]): float(row["at"]) for row in rows}

    async def move_by_interaction(self, interaction_id: int) -> tuple[int, MoveRow] | None:
        row = await self.conn.fetchrow(
            "SELECT match_id, seq, ply, kind, notation, actor_id, played_at, interaction_id"
            " FROM moves WHERE interaction_id = $1", interaction_id)
        if row is None:
            return None
        return row["match_id"], MoveRow(row["seq"], row["ply"], row["kind"], row["notation"],
                                        row["actor_id"], row["played_at"],
                                        row["interaction_id"])

    # -- clocks ----------------------------------------------------------------------------
    async def due_matches(self, now: float, limit: int, *, lock: bool = False) -> list[MatchRow]:
        """Active matches whose clock may have something due, found by an index; no state is
        read or decoded (`state` is None in these rows), and seats come in one query. With
        `lock` (in a transaction), PostgreSQL locks the rows and skips those another process
        holds, so two processes never handle the same match's clock at once."""
        rows = await self.conn.fetch(
            "SELECT id, game, options, seat_count, guild_id, channel_id, in_thread, host_id,"
            " invited_id, first_seat, status, NULL AS state, version, result, created_at,"
            " updated_at, move_seconds, turn_started_at, parent_channel_id, waiting_on,"
            " next_check_at, board_version, finished_at, rated, reach FROM matches"
            " WHERE status = 'active' AND next_check_at <= $1 ORDER BY next_check_at LIMIT $2"
            + (self.conn.locking(skip_locked=True) if lock else ""),
            now, limit)
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        seat_rows = await self.conn.fetch(
            "SELECT match_id, seat, user_id, name FROM seats WHERE match_id IN"
            f" ({params(len(ids))}) ORDER BY match_id, seat", *ids)
        seats: dict[int, list[SeatRow]] = {}
        for r in seat_rows:
            seats.setdefault(r["match_id"], []).append(SeatRow(r["seat"], r["user_id"], r["name"]))
        return [_match_row(row, tuple(seats.get(row["id"], ()))) for row in rows]

    async def vacations_of(self, user_ids: Iterable[int]) -> dict[int, list[tuple[float, float]]]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self.conn.fetch(
            "SELECT user_id, starts_at, ends_at FROM vacations WHERE user_id IN"
            f" ({params(len(ids))}) ORDER BY starts_at", *ids)
        found: dict[int, list[tuple[float, float]]] = {uid: [] for uid in ids}
        for r in rows:
            found[r["user_id"]].append((r["starts_at"], r["ends_at"]))
        return found

    async def users(self, user_ids: Iterable[int]) -> dict[int, UserRow]:
        ids = sorted(set(user_ids))
        found = {uid: UserRow(uid) for uid in ids}
        if ids:
            rows = await self.conn.fetch(
                "SELECT user_id, reminders, notify, last_digest_at, dm_channel_id, dm_closed_at,"
                " language"
                f" FROM users WHERE user_id IN ({params(len(ids))})", *ids)
            for r in rows:
                found[r["user_id"]] = UserRow(r["user_id"], r["reminders"], r["notify"],
                                              r["last_digest_at"], r["dm_channel_id"],
                                              r["dm_closed_at"], r["language"])
        return found

    async def matches_waiting_on(self, user_id: int) -> list[int]:
        rows = await self.conn.fetch(
            "SELECT id FROM matches WHERE status = 'active' AND waiting_on = $1", user_id)
        return [row["id"] for row in rows]

    async def unsettled_matches(self, finished_since: float) -> list[int]:
        """Active matches with nobody to move recorded (a die roll left pending, or rows
        from before the waiting_on column), and matches whose last state never had a board
        sent (from before the outbox existed)."""
        rows = await self.conn.fetch(
            "SELECT id FROM matches WHERE status = 'active'"
            " AND (waiting_on IS NULL OR board_version IS NULL OR board_version <> version)"
            " UNION SELECT id FROM matches WHERE status = 'finished' AND state IS NOT NULL"
            " AND (board_version IS NULL OR board_version <> version) AND updated_at >= $1"
            " ORDER BY id", finished_since)
        return [row["id"] for row in rows]

    # -- ratings and statistics -------------------------------------------------------------
    async def skills(self, user_ids: Iterable[int], game: str) -> dict[int, RatingRow]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self.conn.fetch(
            "SELECT user_id, game, name, mu, sigma, games, last_played_at FROM ratings"
            f" WHERE game = $1 AND user_id IN ({params(len(ids), 2)})", game, *ids)
        return {r["user_id"]: _rating_row(r) for r in rows}

    async def ratings_of(self, user_id: int) -> list[RatingRow]:
        rows = await self.conn.fetch(
            "SELECT user_id, game, name, mu, sigma, games, last_played_at FROM ratings"
            " WHERE user_id = $1 ORDER BY games DESC, game", user_id)
        return [_rating_row(r) for r in rows]

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        rows = await self.conn.fetch(
            "SELECT user_id, place, mu_before, sigma_before, mu_after, sigma_after"
            " FROM rating_history WHERE match_id = $1 ORDER BY place, user_id", match_id)
        return [RatingChange(r["user_id"], r["place"], r["mu_before"], r["sigma_before"],
                             r["mu_after"], r["sigma_after"]) for r in rows]

    async def rating_trend(self, user_id: int, game: str,
                           limit: int = 500) -> list[tuple[float, float, float]]:
        """(time, mu, sigma) after each of the user's rated matches of `game`, oldest first."""
        rows = await self.conn.fetch(
            "SELECT rated_at, mu_after, sigma_after FROM rating_history"
            " WHERE user_id = $1 AND game = $2 ORDER BY rated_at DESC, seq DESC LIMIT $3",
            user_id, game, limit)
        return [(r["rated_at"], r["mu_after"], r["sigma_after"]) for r in reversed(rows)]

    async def rating_trend_in(self, user_id: int, guild_id: int | None, limit: int = 500
                              ) -> tuple[str | None, list[tuple[float, float, float]]]:
        """A player page's chart: the game the user played most rated matches of in one server
        (None: outside servers) and (time, mu, sigma) after each of those matches, oldest
        first. Only that server's matches: a rating is one per game across servers, but a
        server's page must not show games played elsewhere (above all in a server that
        turned pages off), so the points are this server's games only."""
        guild = guild_id or 0
        top = await self.conn.fetch(
            "SELECT h.game, COUNT(*) AS n FROM rating_history h JOIN matches m"
            " ON m.id = h.match_id WHERE h.user_id = $1 AND COALESCE(m.guild_id, 0) = $2"
            " GROUP BY h.game ORDER BY n DESC, h.game LIMIT 1", user_id, guild)
        if not top:
            return None, []
        game = top[0]["game"]
        rows = await self.conn.fetch(
            "SELECT h.rated_at, h.mu_after, h.sigma_after FROM rating_history h JOIN matches m"
            " ON m.id = h.match_id WHERE h.user_id = $1 AND h.game = $2"
            " AND COALESCE(m.guild_id, 0) = $3 ORDER BY h.rated_at DESC, h.seq DESC LIMIT $4",
            user_id, game, guild, limit)
        return game, [(r["rated_at"], r["mu_after"], r["sigma_after"]) for r in reversed(rows)]

    async def seat_name_in(self, user_id: int, guild_id: int | None) -> str | None:
        """The name the user last sat under in a match of this server (a player page names a
        player who has no finished match there yet by their seat in one being played)."""
        row = await self.conn.fetchrow(
            "SELECT s.name FROM seats s JOIN matches m ON m.id = s.match_id"
            " WHERE s.user_id = $1 AND COALESCE(m.guild_id, 0) = $2"
            " ORDER BY s.joined_at DESC, s.match_id DESC LIMIT 1", user_id, guild_id or 0)
        return None if row is None else str(row["name"])

    async def rating_log(self) -> list[tuple[int, int, int]]:
        """(match, user, place) of every rating change, in the order they were made."""
        rows = await self.conn.fetch(
            "SELECT match_id, user_id, place FROM rating_history ORDER BY seq, user_id")
        return [(r["match_id"], r["user_id"], r["place"]) for r in rows]

    async def all_ratings(self) -> list[RatingRow]:
        rows = await self.conn.fetch(
            "SELECT user_id, game, name, mu, sigma, games, last_played_at FROM ratings")
        return [_rating_row(r) for r in rows]

    async def rated_finished_matches(self) -> list[int]:
        """Finished matches opened rated, in the order they finished."""
        rows = await self.conn.fetch(
            "SELECT id FROM matches WHERE status = 'finished' AND rated = 1"
            " ORDER BY finished_at, id")
        return [r["id"] for r in rows]

    async def leaderboard(self, game: str, *, min_games: int, active_since: float,
                          guild_id: int | None = None, limit: int = 10) -> list[RatingRow]:
        """The best-rated players of a game with enough games lately (of one server's
        players, with `guild_id`), best first."""
        if guild_id is None:
            rows = await self.conn.fetch(
                "SELECT user_id, game, name, mu, sigma, games, last_played_at FROM ratings"
                " WHERE game = $1 AND games >= $2 AND last_played_at >= $3"
                " ORDER BY mu DESC, user_id LIMIT $4", game, min_games, active_since, limit)
        else:
            rows = await self.conn.fetch(
                "SELECT r.user_id, r.game, r.name, r.mu, r.sigma, r.games, r.last_played_at"
                " FROM rating_members m JOIN ratings r"
                " ON r.user_id = m.user_id AND r.game = m.game"
                " WHERE m.guild_id = $1 AND m.game = $2 AND r.games >= $3"
                " AND r.last_played_at >= $4 ORDER BY r.mu DESC, r.user_id LIMIT $5",
                guild_id, game, min_games, active_since, limit)
        return [_rating_row(r) for r in rows]

    async def leaderboard_rank(self, game: str, user_id: int, *, min_games: int,
                               active_since: float, guild_id: int | None = None) -> int | None:
        """The user's place on that leaderboard, or None when they are not on it."""
        mine = await self.conn.fetchrow(
            "SELECT mu, games, last_played_at FROM ratings WHERE user_id = $1 AND game = $2",
            user_id, game)
        if mine is None or mine["games"] < min_games or mine["last_played_at"] < active_since:
            return None
        if guild_id is None:
            above = await self.conn.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE game = $1 AND games >= $2"
                " AND last_played_at >= $3 AND (mu > $4 OR (mu = $5 AND user_id < $6))",
                game, min_games, active_since, mine["mu"], mine["mu"], user_id)
        else:
            member = await self.conn.fetchval(
                "SELECT 1 FROM rating_members WHERE guild_id = $1 AND game = $2 AND user_id = $3",
                guild_id, game, user_id)
            if member is None:
                return None
            above = await self.conn.fetchval(
                "SELECT COUNT(*) FROM rating_members m JOIN ratings r"
                " ON r.user_id = m.user_id AND r.game = m.game"
                " WHERE m.guild_id = $1 AND m.game = $2 AND r.games >= $3"
                " AND r.last_played_at >= $4 AND (r.mu > $5 OR (r.mu = $6 AND r.user_id < $7))",
                guild_id, game, min_games, active_since, mine["mu"], mine["mu"], user_id)
        return int(above) + 1

    async def finished_record(self, user_id: int, game: str | None = None,
                              limit: int = 1000) -> list[FinishedRow]:
        """The user's finished matches (newest first): game, seat, result, length."""
        args: list[Any] = [user_id, limit, *([game] if game is not None else [])]
        where = " AND m.game = $3" if game is not None else ""
        rows = await self.conn.fetch(
            "SELECT m.id, m.game, s.seat, m.result, m.plies, m.created_at, m.finished_at,"
            " m.rated FROM seats s JOIN matches m ON m.id = s.match_id"
            f" WHERE s.user_id = $1 AND m.status = 'finished'{where}"
            " ORDER BY COALESCE(m.finished_at, m.updated_at) DESC, m.id DESC LIMIT $2", *args)
        return [FinishedRow(r["id"], r["game"], r["seat"],
                            None if r["result"] is None else loads(r["result"]),
                            r["plies"], r["created_at"], r["finished_at"] or r["created_at"],
                            bool(r["rated"])) for r in rows]

    async def opponents(self, match_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
        if not match_ids:
            return {}
        rows = await self.conn.fetch(
            "SELECT match_id, seat, user_id, name FROM seats WHERE match_id IN"
            f" ({params(len(match_ids))}) ORDER BY match_id, seat", *match_ids)
        found: dict[int, list[SeatRow]] = {}
        for r in rows:
            found.setdefault(r["match_id"], []).append(SeatRow(r["seat"], r["user_id"], r["name"]))
        return found


    # -- offers ----------------------------------------------------------------------------
    async def get_offer(self, offer_id: int) -> OfferRow | None:
        row = await self.conn.fetchrow("SELECT * FROM offers WHERE id = $1", offer_id)
        if row is None:
            return None
        return OfferRow(row["id"], row["match_id"], row["kind"], row["from_user"],
                        row["version"], row["status"], row["created_at"])

    # -- users -----------------------------------------------------------------------------
    async def language_chosen(self, user_id: int) -> bool:
        return bool(await self.conn.fetchval(
            "SELECT language_chosen FROM users WHERE user_id = $1", user_id))

    async def user(self, user_id: int) -> UserRow:
        row = await self.conn.fetchrow(
            "SELECT user_id, reminders, notify, last_digest_at, dm_channel_id, dm_closed_at,"
            " language FROM users WHERE user_id = $1", user_id)
        if row is None:
            return UserRow(user_id)
        return UserRow(row["user_id"], row["reminders"], row["notify"], row["last_digest_at"],
                       row["dm_channel_id"], row["dm_closed_at"], row["language"])

    # -- lessons -----------------------------------------------------------------------------
    async def lesson_progress(self, user_id: int, game: str) -> LessonRow | None:
        row = await self.conn.fetchrow(
            f"SELECT {_LESSON_COLUMNS} FROM lesson_progress WHERE user_id = $1 AND game = $2",
            user_id, game)
        return None if row is None else _lesson_row(row)

    async def lesson_by_token(self, user_id: int, token: str) -> LessonRow | None:
        row = await self.conn.fetchrow(
            f"SELECT {_LESSON_COLUMNS} FROM lesson_progress WHERE user_id = $1 AND token = $2",
            user_id, token)
        return None if row is None else _lesson_row(row)

    # -- conditional moves ---------------------------------------------------------------------
    async def conditional_moves(self, match_id: int) -> list[ConditionalRow]:
        rows = await self.conn.fetch(
            "SELECT match_id, user_id, base_ply, line, draft FROM conditional_moves"
            " WHERE match_id = $1 ORDER BY user_id", match_id)
        return [ConditionalRow(r["match_id"], r["user_id"], r["base_ply"],
                               tuple(orjson.loads(r["line"])), tuple(orjson.loads(r["draft"])))
                for r in rows]

    async def digests_due(self, now: float, limit: int) -> list[int]:
        rows = await self.conn.fetch(
            "SELECT user_id FROM users WHERE reminders = 'digest' AND next_digest_at <= $1"
            " ORDER BY next_digest_at LIMIT $2", now, limit)
        return [row["user_id"] for row in rows]

    async def vacations(self, user_id: int) -> list[tuple[float, float]]:
        rows = await self.conn.fetch(
            "SELECT starts_at, ends_at FROM vacations WHERE user_id = $1 ORDER BY starts_at",
            user_id)
        return [(row["starts_at"], row["ends_at"]) for row in rows]

    # -- servers ---------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return dict(DEFAULT_GUILD_SETTINGS)
        row = await self.conn.fetchrow("SELECT * FROM guild_settings WHERE guild_id = $1",
                                       guild_id)
        if row is None:
            return dict(DEFAULT_GUILD_SETTINGS)
        return {"use_threads": bool(row["use_threads"]), "move_seconds": row["move_seconds"],
                "channels": None if row["channels"] is None else loads(row["channels"]),
                "spectators_talk": bool(row["spectators_talk"]), "language": row["language"],
                "preferred_language": row["preferred_language"],
                "web_links": bool(row["web_links"])}

    # -- delivery --------------------------------------------------------------------------
    async def live_messages(self, match_id: int, below_version: int | None = None,
                            kind: str | None = None) -> list[LiveMessage]:
        sql = "SELECT * FROM live_messages WHERE match_id = $1"
        args: list[Any] = [match_id]
        if below_version is not None:
            args.append(below_version)
            sql += f" AND version < ${len(args)}"
        if kind is not None:
            args.append(kind)
            sql += f" AND kind = ${len(args)}"
        rows = await self.conn.fetch(sql + " ORDER BY message_id", *args)
        return [LiveMessage(r["message_id"], r["channel_id"], r["match_id"], r["kind"],
                            r["version"], r["offer_id"], r["token"], r["token_expires"],
                            r["retired"])
                for r in rows]

    async def pending_outbox(self, now: float, limit: int) -> list[OutboxRow]:
        """The head of every lane that is due: rows of one lane go out strictly in order."""
        rows = await self.conn.fetch(PENDING_OUTBOX, now, now, limit)
        return [_outbox_row(row) for row in rows]

    async def next_outbox_due(self) -> float | None:
        return await self.conn.fetchval(
            "SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'pending'")

    async def users_with_dm_notes(self) -> list[int]:
        """Users to tell, at their next interaction, that a private view could not be DMed."""
        rows = await self.conn.fetch("SELECT user_id FROM users WHERE dm_note_match IS NOT NULL")
        return [int(row["user_id"]) for row in rows]

    # -- tournaments -------------------------------------------------------------------------
    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self.conn.fetchrow("SELECT * FROM tournaments WHERE id = $1", tournament_id)
        return None if row is None else _tournament_row(row)

    async def tournament_in_channel(self, channel_id: int) -> TournamentRow | None:
        """The tournament whose thread this is, or whose match is played here."""
        row = await self.conn.fetchrow(
            "SELECT * FROM tournaments WHERE channel_id = $1 ORDER BY id DESC", channel_id)
        if row is None:
            row = await self.conn.fetchrow(
                "SELECT t.* FROM tournaments t JOIN tournament_matches tm"
                " ON tm.tournament_id = t.id JOIN matches m ON m.id = tm.match_id"
                " WHERE m.channel_id = $1 ORDER BY m.id DESC", channel_id)
        return None if row is None else _tournament_row(row)

    async def tournaments_of_guild(self, guild_id: int) -> list[TournamentRow]:
        rows = await self.conn.fetch(
            "SELECT * FROM tournaments WHERE guild_id = $1 ORDER BY id DESC", guild_id)
        return [_tournament_row(row) for row in rows]

    async def tournament_match(self, match_id: int) -> TournamentMatch | None:
        row = await self.conn.fetchrow(
            "SELECT * FROM tournament_matches WHERE match_id = $1", match_id)
        return None if row is None else TournamentMatch(
            row["match_id"], row["tournament_id"], row["round"], row["game_index"])

    async def tournament_matches(self, tournament_id: int) -> list[TournamentMatch]:
        rows = await self.conn.fetch(
            "SELECT * FROM tournament_matches WHERE tournament_id = $1"
            " ORDER BY round, game_index", tournament_id)
        return [TournamentMatch(r["match_id"], r["tournament_id"], r["round"], r["game_index"])
                for r in rows]

    async def due_tournaments(self, now: float) -> list[int]:
        """Tournaments whose sign-up window or round deadline has passed."""
        rows = await self.conn.fetch(
            "SELECT id FROM tournaments WHERE (status = 'signup' AND signup_until <= $1)"
            " OR (status = 'running' AND round_deadline <= $2) ORDER BY id", now, now)
        return [row["id"] for row in rows]

    async def stalled_pairings(self, before: float) -> list[int]:
        """Running Swiss tournaments waiting for a round's pairing (no deadline) since before
        `before`, with no pairing job pending in the outbox (it gave up, or was lost)."""
        rows = await self.conn.fetch(
            "SELECT t.id FROM tournaments t WHERE t.status = 'running' AND t.format = 'swiss'"
            " AND t.round_deadline IS NULL AND t.updated_at <= $1 AND NOT EXISTS"
            " (SELECT 1 FROM outbox o WHERE o.status = 'pending' AND o.kind = 'tourpair'"
            " AND o.lane = 't:' || CAST(t.id AS TEXT)) ORDER BY t.id", before)
        return [row["id"] for row in rows]

    async def organiser_role(self, guild_id: int | None) -> int | None:
        if guild_id is None:
            return None
        value = await self.conn.fetchval(
            "SELECT organiser_role FROM guild_settings WHERE guild_id = $1", guild_id)
        return None if value is None else int(value)

    async def meta(self, key: str) -> str | None:
        return await self.conn.fetchval("SELECT value FROM meta WHERE key = $1", key)


class Tx(Queries, AnalysisWrites, PuzzleWrites):
    """Reads and writes inside one transaction. It keeps the log entries it appended and the
    vacations it read, so that a committed move hands them to live pages (`Moved`) instead
    of their reading them back."""

    def __init__(self, conn: Conn):
        self.conn = conn
        self.logged: list[MoveRow] = []
        self.vacations_read: dict[int, tuple[tuple[float, float], ...]] = {}

    async def vacations(self, user_id: int) -> list[tuple[float, float]]:
        found = await super().vacations(user_id)
        self.vacations_read[user_id] = tuple(found)
        return found

    # -- matches -------------------------------------------------------------------------
    async def create_match(self, *, game: str, options: dict[str, str], seat_count: int,
                           guild_id: int | None, channel_id: int, in_thread: bool,
                           parent_channel_id: int | None, host_id: int,
                           invited_id: int | None, first_seat: str, status: str,
                           move_seconds: int | None, seats: Iterable[SeatRow],
                           now: float, rated: bool = False, reach: str = "channel") -> int:
        try:
            match_id = await self._new_id(
                "INSERT INTO matches (game, options, seat_count, guild_id, channel_id, in_thread,"
                " parent_channel_id, host_id, invited_id, first_seat, status, move_seconds,"
                " created_at, updated_at, rated, web_token, reach)"
                f" VALUES ({params(17)}) RETURNING id",
                game, dumps(options), seat_count, guild_id, channel_id, int(in_thread),
                parent_channel_id, host_id, invited_id, first_seat, status, move_seconds, now,
                now, int(rated), secrets.token_urlsafe(WEB_TOKEN_BYTES), reach)
        except Conflict:
            raise ChannelBusy(channel_id) from None
        await self._insert_seats(match_id, seats, now)
        return int(match_id)

    async def _insert_seats(self, match_id: int, seats: Iterable[SeatRow], now: float) -> None:
        await self.conn.executemany(
            "INSERT INTO seats (match_id, seat, user_id, name, joined_at)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(match_id, s.seat, s.user_id, s.name, now) for s in seats])

    async def lock_match(self, match_id: int) -> MatchRow | None:
        """The match as this transaction sees it (PostgreSQL also locks the row)."""
        return await self._one_match("m.id = $1", match_id, lock=True)

    async def update_match(self, match_id: int, expected_version: int, *, now: float,
                           **changes: Any) -> int:
        """Change a match still at `expected_version`; returns the new version (the columns
        as `rewrite_match` takes them)."""
        await self._update_match(match_id, expected_version, now, changes)
        return expected_version + 1

    async def rewrite_match(self, row: MatchRow, *, now: float, stale: Exception | None = None,
                            **changes: Any) -> MatchRow:
        """Change the match `row` (still at its version) and return it as written, without
        reading it back; a change of seats is read back. Columns: status, state, result
        (JSON-able dicts), seats, turn_started_at, move_seconds, waiting_on, next_check_at,
        board_version, finished_at, plies. A `status`, `state` or `result` of None leaves
        the column as it is; the others are written as given, None included. If the match
        has moved past `row.version`, the transaction fails with `stale` (`StaleVersion` by
        default), possibly only at its next statement or commit."""
        written = await self._update_match(row.id, row.version, now, changes, stale)
        if "seats" in changes and changes["seats"] is not None:
            again = await self.lock_match(row.id)
            assert again is not None  # updated just now, in this transaction
            return again
        return replace(row, version=row.version + 1, updated_at=now,
                       **{name: value for name, value in written.items()
                          if name in _MATCH_ROW_FIELDS})

    async def _update_match(self, match_id: int, expected_version: int, now: float,
                            changes: dict[str, Any],
                            stale: Exception | None = None) -> dict[str, Any]:
        """The UPDATE itself; returns the columns written, as reading them back gives them."""
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise TypeError(f"not a match column: {', '.join(sorted(unknown))}")
        sets = ["version = version + 1", "updated_at = $1"]
        args: list[Any] = [now]
        written: dict[str, Any] = {}
        for name, value in changes.items():
            if (name == "seats" or value is UNSET
                    or (value is None and name in ("status", "state", "result"))):
                continue
            if name in ("state", "result"):
                text = dumps(value)
                args.append(text)
                value = loads(text)  # what a read gives back: a copy, JSON types only
            else:
                args.append(value)
            sets.append(f"{name} = ${len(args)}")
            written[name] = value
        sql = (f"UPDATE matches SET {', '.join(sets)}"
               f" WHERE id = ${len(args) + 1} AND version = ${len(args) + 2}")
        if changes.get("status") in (None, "finished", "aborted"):
            # it cannot make a second live match in the channel (the one constraint it could
            # break), so it may wait for the transaction's next round trip (a move's
            # transaction sends it with the commit)
            await self.conn.write_one(sql, *args, match_id, expected_version,
                                      otherwise=stale or StaleVersion(match_id))
        else:
            try:
                changed = await self.conn.execute(sql, *args, match_id, expected_version)
            except Conflict:
                raise ChannelBusy(match_id) from None
            if changed != 1:
                raise stale or StaleVersion(match_id)
        seats = changes.get("seats")
        if seats is not None:
            await self.conn.execute("DELETE FROM seats WHERE match_id = $1", match_id)
            await self._insert_seats(match_id, seats, now)
        return written

    async def move_match(self, match_id: int, channel_id: int, in_thread: bool) -> None:
        """A match opened with a placeholder channel gets its real one."""
        try:
            await self.conn.execute(
                "UPDATE matches SET channel_id = $1, in_thread = $2,"
                " parent_channel_id = CASE WHEN $3 = 1 THEN parent_channel_id ELSE NULL END"
                " WHERE id = $4", channel_id, int(in_thread), int(in_thread), match_id)
        except Conflict:
            raise ChannelBusy(channel_id) from None

    async def set_clock_check(self, match_id: int, next_check_at: float | None) -> None:
        """Move a match's next clock check (not a change of the match: no new version)."""
        await self.conn.write("UPDATE matches SET next_check_at = $1 WHERE id = $2",
                              next_check_at, match_id)

    async def give_web_tokens(self, limit: int = 500) -> int:
        """Web page tokens for up to `limit` matches opened before matches had them
        (migration 0012), so that their boards carry a link like every other's; returns how
        many were given. A match given one meanwhile (another shard) keeps its own."""
        rows = await self.conn.fetch(
            "SELECT id FROM matches WHERE web_token IS NULL ORDER BY id LIMIT $1", limit)
        for row in rows:
            await self.conn.write(
                "UPDATE matches SET web_token = $1 WHERE id = $2 AND web_token IS NULL",
                secrets.token_urlsafe(WEB_TOKEN_BYTES), row["id"])
        return len(rows)

    async def set_board_version(self, match_id: int, version: int) -> None:
        await self.conn.write("UPDATE matches SET board_version = $1 WHERE id = $2",
                              version, match_id)

    async def set_waiting_on(self, match_id: int, user_id: int | None) -> None:
        await self.conn.write("UPDATE matches SET waiting_on = $1 WHERE id = $2",
                              user_id, match_id)

    async def append_log(self, match_id: int, seq: int, *, ply: int, kind: str, notation: str,
                         actor_id: int | None, now: float,
                         interaction_id: int | None = None) -> None:
        """One log entry; its sequence is the match version it replaces (unique)."""
        await self.conn.write(
            "INSERT INTO moves (match_id, seq, ply, kind, notation, actor_id, played_at,"
            " interaction_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            match_id, seq, ply, kind, notation, actor_id, now, interaction_id)
        self.logged.append(MoveRow(seq, ply, kind, notation, actor_id, now, interaction_id))

    # -- notices: each reminder or expiry is sent at most once per match and turn ----------
    async def claimed_notices(self, match_ids: Sequence[int]) -> set[tuple[int, int, str]]:
        """(match, turn, kind) of the notices already sent for these matches."""
        if not match_ids:
            return set()
        rows = await self.conn.fetch(
            "SELECT match_id, ply, kind FROM notices WHERE match_id IN"
            f" ({params(len(match_ids))})", *match_ids)
        return {(r["match_id"], r["ply"], r["kind"]) for r in rows}

    async def add_notices(self, notices: Sequence[tuple[int, int, str]], now: float) -> None:
        await self.conn.executemany(
            "INSERT INTO notices (match_id, ply, kind, sent_at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT DO NOTHING", [(m, t, k, now) for m, t, k in notices])

    async def set_clock_checks(self, checks: Sequence[tuple[int, float | None]]) -> None:
        await self.conn.executemany("UPDATE matches SET next_check_at = $1 WHERE id = $2",
                                    [(when, match_id) for match_id, when in checks])

    async def claim_notice(self, match_id: int, turn: int, kind: str, now: float) -> bool:
        """Record that a notice is being sent; False if it already was."""
        changed = await self.conn.execute(
            "INSERT INTO notices (match_id, ply, kind, sent_at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT DO NOTHING", match_id, turn, kind, now)
        return changed == 1

    # -- offers ----------------------------------------------------------------------------
    async def add_offer(self, match_id: int, kind: str, from_user: int, version: int,
                        now: float) -> tuple[int, list[int]]:
        """A new offer; an open offer of the same kind is withdrawn. Returns (id, withdrawn)."""
        withdrawn = await self.conn.fetch(
            "SELECT id FROM offers WHERE match_id = $1 AND kind = $2 AND status = 'open'",
            match_id, kind)
        await self.conn.execute(
            "UPDATE offers SET status = 'void'"
            " WHERE match_id = $1 AND kind = $2 AND status = 'open'",
            match_id, kind)
        offer_id = await self._new_id(
            "INSERT INTO offers (match_id, kind, from_user, version, created_at)"
            " VALUES ($1, $2, $3, $4, $5) RETURNING id", match_id, kind, from_user, version, now)
        return int(offer_id), [row["id"] for row in withdrawn]

    async def close_offer(self, offer_id: int, status: str, by: int | None = None) -> bool:
        """Close an open offer; False if it was no longer open (answered twice, or void)."""
        changed = await self.conn.execute(
            "UPDATE offers SET status = $1, answered_by = $2 WHERE id = $3 AND status = 'open'",
            status, by, offer_id)
        return changed == 1

    async def void_offers(self, match_id: int) -> None:
        await self.conn.write(
            "UPDATE offers SET status = 'void' WHERE match_id = $1 AND status = 'open'", match_id)

    # -- users -----------------------------------------------------------------------------
    async def set_user(self, user_id: int, **values: Any) -> None:
        """Upsert user columns: reminders, notify, last_digest_at, next_digest_at,
        dm_channel_id."""
        allowed = {"reminders", "notify", "last_digest_at", "next_digest_at", "dm_channel_id",
                   "dm_closed_at", "dm_note_match", "language", "language_chosen"}
        assert set(values) <= allowed, values
        names = list(values)
        await self.conn.execute(
            f"INSERT INTO users (user_id, {', '.join(names)}) VALUES ({params(len(names) + 1)})"
            f" ON CONFLICT (user_id) DO UPDATE SET "
            + ", ".join(f"{n} = excluded.{n}" for n in names),
            user_id, *values.values())

    async def take_dm_note(self, user_id: int) -> int | None:
        """The match whose private view could not be DMed to the user, if they are still to be
        told; taken once (by one process), and the transaction's last statement."""
        match_id = await self.conn.fetchval(
            "SELECT dm_note_match FROM users WHERE user_id = $1", user_id)
        if match_id is None:
            return None
        rows = await self.conn.returning_last(
            "UPDATE users SET dm_note_match = NULL WHERE user_id = $1 AND dm_note_match = $2"
            " RETURNING user_id", user_id, match_id)
        return int(match_id) if rows else None

    async def show_lesson(self, row: LessonRow, now: float) -> None:
        """Where the player is in the lesson, with the token of its newest copy."""
        await self.conn.execute(
            "INSERT INTO lesson_progress (user_id, game, step, tries, mistakes, token,"
            " origin_guild, origin_channel, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (user_id, game) DO UPDATE"
            " SET step = excluded.step, tries = excluded.tries, mistakes = excluded.mistakes,"
            " token = excluded.token, origin_guild = excluded.origin_guild,"
            " origin_channel = excluded.origin_channel, updated_at = excluded.updated_at",
            row.user_id, row.game, row.step, row.tries, row.mistakes, row.token,
            row.origin_guild, row.origin_channel, now)

    async def advance_lesson(self, user_id: int, token: str, from_step: int, *, step: int,
                             tries: int, mistakes: int, now: float) -> bool:
        """Record an answer at `from_step` of the lesson copy `token`; False (nothing
        changed) when that copy or that step is no longer the current one."""
        changed = await self.conn.execute(
            "UPDATE lesson_progress SET step = $1, tries = $2, mistakes = $3, updated_at = $4"
            " WHERE user_id = $5 AND token = $6 AND step = $7",
            step, tries, mistakes, now, user_id, token, from_step)
        return changed == 1

    async def set_conditional_moves(self, row: ConditionalRow, now: float) -> None:
        await self.conn.execute(
            "INSERT INTO conditional_moves (match_id, user_id, base_ply, line, draft,"
            " updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (match_id, user_id)"
            " DO UPDATE SET base_ply = excluded.base_ply, line = excluded.line,"
            " draft = excluded.draft, updated_at = excluded.updated_at",
            row.match_id, row.user_id, row.base_ply, orjson.dumps(list(row.line)).decode(),
            orjson.dumps(list(row.draft)).decode(), now)

    async def clear_conditional_moves(self, match_id: int, user_id: int | None = None) -> None:
        if user_id is None:
            await self.conn.execute("DELETE FROM conditional_moves WHERE match_id = $1",
                                    match_id)
        else:
            await self.conn.execute(
                "DELETE FROM conditional_moves WHERE match_id = $1 AND user_id = $2",
                match_id, user_id)

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None:
        await self.conn.execute(
            "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES ($1, $2, $3)",
            user_id, starts_at, ends_at)

    async def end_vacations(self, user_id: int, now: float) -> int:
        """Cut short every vacation still running; returns how many were."""
        return await self.conn.execute(
            "UPDATE vacations SET ends_at = $1 WHERE user_id = $2 AND ends_at > $1"
            " AND starts_at <= $1", now, user_id)

    async def check_clocks_of(self, user_id: int, now: float) -> None:
        """The user's clocks changed (a vacation ended): look at their matches again now."""
        await self.conn.execute(
            "UPDATE matches SET next_check_at = $1 WHERE status = 'active' AND waiting_on = $2"
            " AND move_seconds IS NOT NULL", now, user_id)

    # -- servers ---------------------------------------------------------------------------
    async def lock_guild_settings(self, guild_id: int) -> None:
        """A server's settings row, locked until the transaction ends (PostgreSQL: two
        processes changing the channel list never lose one change)."""
        await self.conn.execute(
            "INSERT INTO guild_settings (guild_id) VALUES ($1) ON CONFLICT DO NOTHING", guild_id)
        await self.conn.fetch("SELECT guild_id FROM guild_settings WHERE guild_id = $1"
                              + self.conn.locking(), guild_id)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> None:
        """Change some settings: use_threads, move_seconds, channels (list or None),
        spectators_talk."""
        columns: dict[str, Callable[[Any], Any]] = {
            "use_threads": int, "move_seconds": lambda v: v,
            "channels": lambda v: None if v is None else dumps(sorted(v)),
            "spectators_talk": int, "language": str, "preferred_language": str,
            "web_links": int}
        await self.conn.execute(
            "INSERT INTO guild_settings (guild_id) VALUES ($1) ON CONFLICT DO NOTHING", guild_id)
        for name, value in changes.items():
            await self.conn.execute(f"UPDATE guild_settings SET {name} = $1 WHERE guild_id = $2",
                                    columns[name](value), guild_id)

    # -- outbox ----------------------------------------------------------------------------
    async def enqueue_many(self, rows: Sequence[tuple[str, str, dict[str, Any]]],
                           now: float) -> None:
        """Outbox rows whose ids nobody needs (a single row is a `write`: it goes to the
        database with the transaction's next statement)."""
        sql = ("INSERT INTO outbox (lane, kind, payload, next_attempt_at, created_at)"
               " VALUES ($1, $2, $3, 0, $4)")
        values = [(lane, kind, dumps(payload), now)
                  for lane, kind, payload in rows]
        if len(values) == 1:
            await self.conn.write(sql, *values[0])
        else:
            await self.conn.executemany(sql, values)

    async def enqueue(self, lane: str, kind: str, payload: dict[str, Any], now: float) -> int:
        """Something players must see, delivered after this transaction commits (due at once:
        retries are scheduled by the delivery worker on its own wall clock)."""
        outbox_id = await self._new_id(
            "INSERT INTO outbox (lane, kind, payload, next_attempt_at, created_at)"
            " VALUES ($1, $2, $3, 0, $4) RETURNING id",
            lane, kind, dumps(payload), now)
        return int(outbox_id)

    async def claim_outbox_rows(self, outbox_ids: Sequence[int], worker: str, until: float,
                                now: float) -> set[int]:
        """Lease the rows no other worker holds; returns the ids this worker got. One
        statement for a whole batch (under load the worker claims many rows at once), and the
        transaction's last: nothing may follow it."""
        if not outbox_ids:
            return set()
        rows = await self.conn.returning_last(
            "UPDATE outbox SET claimed_by = $1, claimed_until = $2"
            f" WHERE id IN ({params(len(outbox_ids), 3)})"
            " AND status = 'pending' AND (claimed_until IS NULL"
            f" OR claimed_until < ${len(outbox_ids) + 3})"
            " RETURNING id", worker, until, *outbox_ids, now)
        return {int(row["id"]) for row in rows}

    async def finish_outbox(self, outbox_id: int, now: float, result: Any = None,
                            status: str = "done", error: str | None = None,
                            retired: Sequence[int] = ()) -> None:
        """Mark a row done (or failed); `retired`: live messages whose components the row
        removed, forgotten in the same transaction."""
        await self.conn.write(
            "UPDATE outbox SET status = $1, done_at = $2, result = $3, error = $4,"
            " claimed_by = NULL, claimed_until = NULL WHERE id = $5",
            status, now, None if result is None else dumps(result), error, outbox_id)
        if retired:
            await self.conn.write(
                "DELETE FROM live_messages"
                f" WHERE message_id IN ({params(len(retired))})", *retired)

    async def retry_outbox(self, outbox_id: int, next_attempt_at: float, error: str,
                           payload: dict[str, Any] | None = None) -> None:
        if payload is not None:
            await self.conn.write("UPDATE outbox SET payload = $1 WHERE id = $2",
                                  dumps(payload), outbox_id)
        await self.conn.write(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, error = $2,"
            " claimed_by = NULL, claimed_until = NULL WHERE id = $3",
            next_attempt_at, error[:500], outbox_id)

    async def save_progress(self, outbox_id: int, payload: dict[str, Any]) -> None:
        """Remember what part of a row is done (a message already posted)."""
        await self.conn.write("UPDATE outbox SET payload = $1 WHERE id = $2",
                              dumps(payload), outbox_id)

    async def release_claims(self, worker: str) -> None:
        """Rows an earlier run of this worker held (a run of another process keeps its own
        until they are done or their lease ends). Their `claimed_by` stays: it says that they
        were tried (see `OutboxRow.tried`)."""
        await self.conn.execute(
            "UPDATE outbox SET claimed_until = NULL"
            " WHERE status = 'pending' AND claimed_by = $1 AND claimed_until IS NOT NULL", worker)

    async def prune_outbox(self, before: float) -> int:
        return await self.conn.execute(
            "DELETE FROM outbox WHERE status <> 'pending' AND done_at < $1", before)

    async def add_live_message(self, message: LiveMessage, now: float) -> None:
        await self.conn.write(
            "INSERT INTO live_messages (message_id, channel_id, match_id, kind, version,"
            f" offer_id, created_at, token, token_expires, retired) VALUES ({params(10)})"
            " ON CONFLICT DO NOTHING",
            message.message_id, message.channel_id, message.match_id, message.kind,
            message.version, message.offer_id, now, message.token, message.token_expires,
            message.retired)

    async def forget_live_message(self, match_id: int, message_id: int) -> None:
        """A message of the match whose components are gone already (a board the move's
        own answer retired): the outbox has nothing left to edit on it."""
        await self.conn.write("DELETE FROM live_messages WHERE match_id = $1 AND message_id = $2",
                              match_id, message_id)

    # -- ratings -----------------------------------------------------------------------------
    async def lock_ratings(self) -> None:
        """Rating updates one at a time, across processes too (they read, then write, the
        ratings of players who may be finishing another match elsewhere). SQLite has one
        writer, so only PostgreSQL takes a lock (held until the transaction ends)."""
        await self.conn.serialize(RATINGS_LOCK)

    async def record_ratings(self, match_id: int, game: str, guild_id: int | None,
                             changes: Sequence[tuple[int, str, int, float, float, float, float]],
                             now: float) -> None:
        """One rated match's changes: (user, name, place, mu and sigma before, after)."""
        seq = int(await self.conn.fetchval(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM rating_history"))
        await self.conn.executemany(
            "INSERT INTO rating_history (match_id, user_id, game, place, mu_before,"
            " sigma_before, mu_after, sigma_after, rated_at, seq)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            [(match_id, uid, game, place, mu0, s0, mu1, s1, now, seq)
             for uid, _, place, mu0, s0, mu1, s1 in changes])
        await self.conn.executemany(
            "INSERT INTO ratings (user_id, game, name, mu, sigma, games, last_played_at)"
            " VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (user_id, game) DO UPDATE SET"
            " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
            " games = ratings.games + 1, last_played_at = excluded.last_played_at",
            [(uid, game, name, mu1, s1, now) for uid, name, _, _, _, mu1, s1 in changes])
        if guild_id is not None:
            await self.conn.executemany(
                "INSERT INTO rating_members (guild_id, game, user_id, last_played_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
                " last_played_at = excluded.last_played_at",
                [(guild_id, game, uid, now) for uid, *_ in changes])

    async def claim_digest(self, user_id: int, now: float, next_at: float) -> bool:
        """Take the user's due digest (once, whichever process gets here first)."""
        changed = await self.conn.execute(
            "UPDATE users SET last_digest_at = $1, next_digest_at = $2 WHERE user_id = $3"
            " AND reminders = 'digest' AND COALESCE(next_digest_at, 0) <= $4",
            now, next_at, user_id, now)
        return changed == 1

    # -- tournaments -------------------------------------------------------------------------
    async def lock_tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament as this transaction sees it (PostgreSQL also locks the row)."""
        row = await self.conn.fetchrow(
            "SELECT * FROM tournaments WHERE id = $1" + self.conn.locking(), tournament_id)
        return None if row is None else _tournament_row(row)

    async def create_tournament(self, *, guild_id: int, parent_channel_id: int,
                                channel_id: int, organiser_id: int, game: str,
                                options: dict[str, str], format: str, rated: bool,
                                min_rating: int | None, move_seconds: int | None,
                                round_seconds: int, signup_until: float, data: str,
                                now: float) -> int:
        """A new tournament in its sign-up phase; its id is the next number (a concurrent
        creation that took the same one fails with `Conflict`)."""
        tournament_id = int(await self.conn.fetchval(
            "SELECT COALESCE(MAX(id), 0) + 1 FROM tournaments"))
        await self.conn.execute(
            "INSERT INTO tournaments (id, guild_id, parent_channel_id, channel_id, organiser_id,"
            " game, options, format, rated, min_rating, move_seconds, round_seconds,"
            " signup_until, status, data, created_at, updated_at)"
            f" VALUES ({params(17)})", tournament_id, guild_id, parent_channel_id, channel_id,
            organiser_id, game, dumps(options), format, int(rated), min_rating, move_seconds,
            round_seconds, signup_until, "signup", data, now, now)
        return tournament_id

    async def update_tournament(self, tournament_id: int, *, now: float, **changes: Any) -> None:
        """Columns: status, round_deadline, data."""
        unknown = set(changes) - {"status", "round_deadline", "data"}
        if unknown:
            raise TypeError(f"not a tournament column: {', '.join(sorted(unknown))}")
        sets = ["version = version + 1", "updated_at = $1"]
        args: list[Any] = [now]
        for name, value in changes.items():
            args.append(value)
            sets.append(f"{name} = ${len(args)}")
        await self.conn.execute(
            f"UPDATE tournaments SET {', '.join(sets)} WHERE id = ${len(args) + 1}",
            *args, tournament_id)

    async def add_tournament_round(self, tournament_id: int, number: int, now: float) -> None:
        """Mark a round paired; a second pairing of it fails the transaction (`Conflict`)."""
        await self.conn.execute(
            "INSERT INTO tournament_rounds (tournament_id, round, paired_at) VALUES ($1, $2, $3)",
            tournament_id, number, now)

    async def add_tournament_match(self, match_id: int, tournament_id: int, number: int,
                                   game_index: int) -> None:
        await self.conn.execute(
            "INSERT INTO tournament_matches (match_id, tournament_id, round, game_index)"
            " VALUES ($1, $2, $3, $4)", match_id, tournament_id, number, game_index)

    async def set_signup_message(self, tournament_id: int, message_id: int) -> None:
        await self.conn.execute("UPDATE tournaments SET signup_message_id = $1 WHERE id = $2",
                                message_id, tournament_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self.conn.execute(
            "INSERT INTO guild_settings (guild_id) VALUES ($1) ON CONFLICT DO NOTHING", guild_id)
        await self.conn.execute("UPDATE guild_settings SET organiser_role = $1"
                                " WHERE guild_id = $2", role_id, guild_id)

    async def set_meta(self, key: str, value: str) -> None:
        await self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key)"
            " DO UPDATE SET value = excluded.value", key, value)


_LESSON_COLUMNS = ("user_id, game, step, tries, mistakes, token, origin_guild,"
                   " origin_channel")


def _lesson_row(row: Row) -> LessonRow:
    return LessonRow(row["user_id"], row["game"], row["step"], row["tries"], row["mistakes"],
                     row["token"], row["origin_guild"], row["origin_channel"])


Writes = Callable[["Tx"], Awaitable[None]]
T = TypeVar("T")


class Store(Queries):
    """Reads of committed data; `transaction()`, `atomic()` and `together()` for changes."""

    def __init__(self, db: Database):
        self.db = db
        self.conn = db.reader

    @classmethod
    async def open(cls, url: str | Path, migrate: bool = True) -> Store:
        """`migrate`: bring the schema up to date (the bot); the web server beside it never
        does (`python -m bot.web` checks the schema instead)."""
        db = await open_database(str(url))
        if not migrate:
            return cls(db)
        try:
            await db.migrate()
        except BaseException:  # closed, or its threads (aiosqlite's) would keep the process
            await db.close()
            raise
        return cls(db)

    @property
    def path(self) -> str:
        return self.db.url

    @contextlib.asynccontextmanager
    async def transaction(self, background: bool = False) -> AsyncIterator[Tx]:
        """One write transaction; `background`: no player waits on it (on SQLite, those a
        player waits on go first)."""
        async with self.db.transaction(background) as conn:
            yield Tx(conn)

    async def atomic(self, body: Callable[[Tx], Awaitable[T]], *,
                     again_on: tuple[type[Exception], ...] = (),
                     background: bool = False) -> T:
        """`body` as one transaction, whatever the database does to make it fast: the body
        may run more than once, must do nothing outside its transaction, and every read it
        makes must be checked at the commit or harmless when a moment old (see
        `Database.atomic`). A run that raises one of `again_on` is run again."""
        return await self.db.atomic(lambda conn: body(Tx(conn)), again_on=again_on,
                                    background=background)

    async def together(self, writes: Writes, *, background: bool = True) -> None:
        """Commit `writes` (statements whose results nobody reads: bookkeeping such as an
        outbox row done or a message posted), on SQLite in one transaction with whatever
        other `together` writes are waiting for the write lock at the same moment (a group
        commit: under load the delivery worker finishes many rows at once). One caller's
        error is never another's. Returns once the writes are committed."""
        await self.db.together(lambda conn: writes(Tx(conn)), background=background)

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    # -- what the metrics read (bot/web/server.py): counts only, never a player's data
    async def ping(self) -> None:
        """A trivial read: whether the database answers."""
        await self.conn.fetchval("SELECT 1")

    async def outbox_backlog(self) -> tuple[int, float | None]:
        """Pending outbox rows and when the oldest was written."""
        row = await self.conn.fetchrow(
            "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox"
            " WHERE status = 'pending'")
        if row is None:
            return 0, None
        oldest = row["oldest"]
        return int(row["n"]), None if oldest is None else float(oldest)

    async def close(self) -> None:
        """Close the database once the commits under way have ended."""
        await self.db.close()


async def open_database(url: str) -> Database:
    """`postgresql://...` selects PostgreSQL; anything else is a SQLite path (each driver is
    imported only when chosen: a SQLite bot never loads asyncpg)."""
    if url.startswith(("postgresql://", "postgres://")):
        from .pg import PostgresDatabase

        return await PostgresDatabase.open(url)
    from .sqlite import SqliteDatabase

    return await SqliteDatabase.open(url)


def _match_row(row: Row, seats: tuple[SeatRow, ...]) -> MatchRow:
    return MatchRow(
        id=row["id"], game=row["game"], options=loads(row["options"]),
        seat_count=row["seat_count"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        in_thread=bool(row["in_thread"]), host_id=row["host_id"],
        invited_id=row["invited_id"], first_seat=row["first_seat"], status=row["status"],
        state=None if row["state"] is None else loads(row["state"]),
        version=row["version"],
        result=None if row["result"] is None else loads(row["result"]),
        created_at=row["created_at"], updated_at=row["updated_at"], seats=seats,
        move_seconds=row["move_seconds"], turn_started_at=row["turn_started_at"],
        parent_channel_id=row["parent_channel_id"], waiting_on=row["waiting_on"],
        next_check_at=row["next_check_at"], board_version=row["board_version"],
        finished_at=row["finished_at"], rated=bool(row["rated"]),
        web_token=row.get("web_token"),  # not read where the clock reads matches
        reach=row.get("reach") or "channel",
        has_conditionals=(None if row.get("has_conditionals") is None
                          else bool(row["has_conditionals"])))


def _outbox_row(row: Row) -> OutboxRow:
    return OutboxRow(row["id"], row["lane"], row["kind"], loads(row["payload"]),
                     row["attempts"], row["created_at"],
                     tried=row["attempts"] > 0 or row["claimed_by"] is not None)


def _rating_row(row: Row) -> RatingRow:
    return RatingRow(row["user_id"], row["game"], row["name"], row["mu"], row["sigma"],
                     row["games"], row["last_played_at"])


def _tournament_row(row: Row) -> TournamentRow:
    return TournamentRow(
        id=int(row["id"]), guild_id=int(row["guild_id"]),
        parent_channel_id=int(row["parent_channel_id"]), channel_id=int(row["channel_id"]),
        organiser_id=int(row["organiser_id"]), game=row["game"], options=loads(row["options"]),
        format=row["format"], rated=bool(row["rated"]), min_rating=row["min_rating"],
        move_seconds=row["move_seconds"], round_seconds=int(row["round_seconds"]),
        signup_until=float(row["signup_until"]), status=row["status"],
        round_deadline=None if row["round_deadline"] is None else float(row["round_deadline"]),
        data=row["data"], signup_message_id=row["signup_message_id"],
        version=int(row["version"]), created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]))
