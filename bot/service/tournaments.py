"""Tournaments in a server, with no Discord in sight: creating one, signing up, starting it,
withdrawals, and rounds that run themselves.

A tournament is a store row holding the pure engine's data (`bot.tournaments`); every change
locks the row, changes the data with the engine's functions and writes, in the same
transaction, what players must see (outbox `TourPost` rows in its thread, `TourMatch` rows
that give each new match its thread). Its matches are ordinary matches: when one ends (any
way: a move, a resignation, a claim, an agreed draw) `on_match_end` runs in the transaction
that ended it, records the result and, when the round is over, pairs the next one. A round is
paired once: `tournament_rounds` refuses a second row for it, and the transaction that tried
fails whole.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from games import Game, GameError, Outcome, Phrase, Termination, get_game, phrase, shorten

from .. import outbox, ratings
from .. import tournaments as engine
from ..clocks import Duration, DurationError, parse_duration
from ..store import SeatRow, TournamentRow, Tx
from ..store.db import Conflict
from ..words import strings
from .clocks import parse_time
from .core import BadRequest, Context, Effects, Forbidden, Match, NotFound, Player, WrongPhase
from .matches import Matches

FORMATS = engine.FORMATS
DRAW_BREAKS = ("extra_game", "minimatch")
MAX_PLAYERS = 64
MIN_ROUNDS, MAX_ROUNDS = 1, 20
# a tournament's rating floor; the cog's Range uses these so Discord refuses a wrong one as typed
MIN_MIN_RATING, MAX_MIN_RATING = 0, 5000
DEFAULT_ROUND = 7 * 86400
DEFAULT_SIGNUP = 2 * 86400
MIN_WINDOW = 60
MAX_WINDOW = 90 * 86400
DEFAULT_RATING = 1500
STALLED_PAIRING = 15 * 60  # a Swiss round unpaired this long with no job: enqueue it again

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Spec:
    """A checked /tournament create request."""

    game: Game
    options: dict[str, str]
    format: str
    rounds: int
    double: bool
    draw_break: str
    rated: bool
    min_rating: int | None
    move_seconds: int | None
    round_seconds: int
    signup_seconds: int
    name: str


@dataclass(frozen=True)
class Tournament:
    """A stored tournament with its engine data."""

    row: TournamentRow
    data: engine.Tournament

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game(self) -> Game:
        return get_game(self.row.game)

    def names(self) -> dict[int, str]:
        return {p.id: p.name for p in self.data.players}


def wrap(row: TournamentRow) -> Tournament:
    return Tournament(row, engine.from_json(row.data))


def _window(text: str | None, default: int, bad: str, out_of_range: str) -> int:
    """A round's or the sign-up's time in seconds (the default when not given or `none`); its
    errors name that option and its own range, not the time per move's."""
    if text is None:
        return default
    try:
        value = parse_duration(text)
    except DurationError:
        raise BadRequest(bad, text=shorten(text).replace("`", "'")) from None
    if value is None:
        return default
    if not MIN_WINDOW <= value <= MAX_WINDOW:
        raise BadRequest(out_of_range)
    return value


def match_points(match: Match, table_max: int) -> tuple[float, ...]:
    """A finished match's points per seat: 1, 1/2 or 0 for two seats; by placement (the
    engine's `pod_points`) for a table of more."""
    outcome = match.outcome()
    n = len(match.seats)
    if outcome is None:
        return (0.0,) * n
    if n == 2:
        if len(outcome.winners) == 1:
            return tuple(1.0 if s == outcome.winners[0] else 0.0 for s in range(2))
        if len(outcome.winners) == 2 or outcome.draw:
            return (0.5, 0.5)
        return (0.0, 0.0)
    scores = match.game.scores(match.state) if match.state is not None else None
    places = ratings.places(outcome, n, scores)
    return engine.pod_points(tuple(places), table_max)


class Tournaments:
    """Creating, joining, starting and running tournaments (see the module's docstring)."""

    def __init__(self, ctx: Context, matches: Matches):
        self.ctx = ctx
        self.matches = matches
        ctx.end_hooks.append(self.on_match_end)

    # -- reading -------------------------------------------------------------------------
    async def get(self, tournament_id: int) -> Tournament:
        row = await self.ctx.store.tournament(tournament_id)
        if row is None:
            raise NotFound(strings.NO_SUCH_TOURNAMENT, tournament_id=tournament_id)
        return wrap(row)

    async def find(self, tournament_id: int | None, guild_id: int | None,
                   channel_id: int) -> Tournament:
        """The tournament named (of this server only), else the one of this thread."""
        if tournament_id is not None:
            row = await self.ctx.store.tournament(tournament_id)
            if row is None or row.guild_id != guild_id:
                raise NotFound(strings.NO_SUCH_TOURNAMENT, tournament_id=tournament_id)
            return wrap(row)
        row = await self.ctx.store.tournament_in_channel(channel_id)
        if row is None or row.guild_id != guild_id:
            raise NotFound(strings.NO_TOURNAMENT_HERE)
        return wrap(row)

    @staticmethod
    async def _locked(tx: Tx, tournament_id: int) -> Tournament:
        row = await tx.lock_tournament(tournament_id)
        if row is None:
            raise NotFound(strings.NO_SUCH_TOURNAMENT, tournament_id=tournament_id)
        return wrap(row)

    async def may_organise(self, guild_id: int, *, is_manager: bool,
                           role_ids: tuple[int, ...]) -> bool:
        if is_manager:
            return True
        role = await self.ctx.store.organiser_role(guild_id)
        return role is not None and role in role_ids

    async def set_organiser_role(self, guild_id: int, role_id: int | None, *,
                                 is_manager: bool) -> None:
        if not is_manager:
            raise Forbidden(strings.SETTINGS_FORBIDDEN)
        async with self.ctx.store.transaction() as tx:
            await tx.set_organiser_role(guild_id, role_id)

    # -- creating ------------------------------------------------------------------------
    def check_create(self, *, game_id: str, options: dict[str, str], format: str,
                     rounds: int | None, double: bool, draw_break: str, rated: bool,
                     min_rating: int | None, move_time: str | None, round_time: str | None,
                     signup_time: str | None, name: str | None, may_create: bool) -> Spec:
        """Everything a creation needs, checked before its thread is made."""
        if not may_create:
            raise Forbidden(strings.TOURNAMENT_CREATE_FORBIDDEN)
        try:
            game = get_game(game_id)
            resolved = game.resolve_options(options)
        except GameError as exc:
            raise BadRequest(strings.BAD_OPTION, reason=exc.phrase) from None
        if format not in FORMATS:
            raise BadRequest(strings.TOURNAMENT_BAD_FORMAT, text=shorten(format))
        info = game.info
        if format == "pods":
            if info.max_seats <= 2:
                raise BadRequest(strings.TOURNAMENT_PODS_ONLY_MULTI, game=Phrase(game.name))
        elif not info.min_seats <= 2 <= info.max_seats:
            raise BadRequest(strings.TOURNAMENT_TWO_PLAYER_ONLY, game=Phrase(game.name))
        if format in ("swiss", "pods"):
            if rounds is None or not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
                raise BadRequest(strings.TOURNAMENT_BAD_ROUNDS, max=MAX_ROUNDS)
        elif rounds is not None:
            raise BadRequest(strings.TOURNAMENT_NO_ROUNDS)
        if draw_break not in DRAW_BREAKS:
            raise BadRequest(strings.TOURNAMENT_BAD_FORMAT, text=shorten(draw_break))
        if min_rating is not None and not MIN_MIN_RATING <= min_rating <= MAX_MIN_RATING:
            raise BadRequest(strings.TOURNAMENT_BAD_MIN_RATING)
        move = parse_time(move_time)
        round_seconds = _window(round_time, DEFAULT_ROUND, strings.TOURNAMENT_BAD_ROUND_TIME,
                                strings.TOURNAMENT_ROUND_TIME_RANGE)
        signup = _window(signup_time, DEFAULT_SIGNUP, strings.TOURNAMENT_BAD_SIGNUP,
                         strings.TOURNAMENT_SIGNUP_RANGE)
        if not (MIN_WINDOW <= round_seconds <= MAX_WINDOW and MIN_WINDOW <= signup <= MAX_WINDOW):
            raise BadRequest(strings.TOURNAMENT_BAD_WINDOW)
        move_seconds = None if move is None or not isinstance(move, int) else move
        if move_seconds is not None and move_seconds > round_seconds:
            raise BadRequest(strings.TOURNAMENT_MOVE_OVER_ROUND)
        printable = "".join(ch if ch.isprintable() else " " for ch in name or "")
        title = " ".join(printable.replace("`", "'").split())[:60] or game.name
        return Spec(game, resolved, format, rounds or 0, double, draw_break, rated, min_rating,
                    move_seconds, round_seconds, signup, title)

    async def create(self, spec: Spec, *, guild_id: int, parent_channel_id: int,
                     channel_id: int, organiser: Player) -> Tournament:
        now = self.ctx.clock()
        info = spec.game.info
        pods = spec.format == "pods"
        settings = engine.Settings(
            format=spec.format,  # type: ignore[arg-type]
            rounds=spec.rounds, double=spec.double,
            # pods seat three or more (ICO is played by 2-4: its pods are tables of 3-4)
            table_min=max(3, info.min_seats) if pods else 2,
            table_max=info.max_seats if pods else 2,
            draw_break=spec.draw_break,  # type: ignore[arg-type]
            name=spec.name)
        data = engine.Tournament(settings=settings, players=())
        try:
            async with self.ctx.store.transaction() as tx:
                tournament_id = await tx.create_tournament(
                    guild_id=guild_id, parent_channel_id=parent_channel_id,
                    channel_id=channel_id, organiser_id=organiser.user_id, game=spec.game.id,
                    options=spec.options, format=spec.format, rated=spec.rated,
                    min_rating=spec.min_rating, move_seconds=spec.move_seconds,
                    round_seconds=spec.round_seconds, signup_until=now + spec.signup_seconds,
                    data=engine.to_json(data), now=now)
                found = await self._locked(tx, tournament_id)
                await self._signup_message(Effects(tx, now), found)
        except Conflict:
            raise WrongPhase(strings.TRY_AGAIN) from None
        self.ctx.on_commit()
        return found

    async def _signup_message(self, effects: Effects, t: Tournament) -> None:
        await effects.post(outbox.TourPost(tournament_id=t.id, channel_id=t.row.channel_id,
                                           signup=True))

    def describe(self, t: Tournament) -> Phrase:
        """The tournament in a line or two: game, format, times, rating."""
        row = t.row
        fmt = phrase(strings.FORMAT_NAMES[row.format])
        rounds = (phrase(strings.TOURNAMENT_ROUNDS, rounds=t.data.settings.rounds)
                  if row.format in ("swiss", "pods") else "")
        move = Duration(row.move_seconds) if row.move_seconds else phrase(strings.NO_LIMIT)
        rated = phrase(strings.TOURNAMENT_RATED if row.rated else strings.TOURNAMENT_UNRATED)
        minimum = (phrase(strings.TOURNAMENT_MIN_RATING, rating=row.min_rating)
                   if row.min_rating else "")
        return phrase(strings.TOURNAMENT_DESCRIPTION, tournament_id=t.id,
                      name=t.data.settings.name, game=t.game.name, format=fmt, rounds=rounds,
                      move=move, round=Duration(row.round_seconds), rated=rated,
                      minimum=minimum)

    def signup_text(self, t: Tournament) -> Phrase:
        players = [p for p in t.data.players if p.withdrawn_round is None]
        listing: Phrase | str = "\n".join(f"{i}. {p.name}" for i, p in enumerate(players, 1))
        if not players:
            listing = phrase(strings.TOURNAMENT_NOBODY)
        if t.row.status == "signup":
            state = phrase(strings.TOURNAMENT_SIGNUP_OPEN,
                           until=f"<t:{int(t.row.signup_until)}:R>")
        else:
            state = phrase(strings.TOURNAMENT_SIGNUP_CLOSED)
        return phrase(strings.TOURNAMENT_SIGNUP, description=self.describe(t), state=state,
                      count=len(players), players=listing)

    # -- signing up ----------------------------------------------------------------------
    async def _rating(self, tx: Tx, user_id: int, game: str) -> int:
        skill = (await tx.skills([user_id], game)).get(user_id)
        return DEFAULT_RATING if skill is None else ratings.Skill(skill.mu, skill.sigma).display

    async def join(self, tournament_id: int, player: Player, guild_id: int | None
                   ) -> Tournament:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            t = await self._locked(tx, tournament_id)
            if t.row.guild_id != guild_id:
                raise NotFound(strings.NO_SUCH_TOURNAMENT, tournament_id=tournament_id)
            known = {p.id: p for p in t.data.players}
            if player.user_id in known:
                raise BadRequest(strings.TOURNAMENT_ALREADY_IN, tournament_id=t.id)
            if t.row.status in ("finished", "cancelled"):
                raise WrongPhase(strings.TOURNAMENT_OVER, tournament_id=t.id)
            if t.row.status == "running" and t.row.format in ("round_robin", "knockout"):
                raise WrongPhase(strings.TOURNAMENT_NO_LATE_JOIN, tournament_id=t.id,
                                 format=phrase(strings.FORMAT_NAMES[t.row.format]))
            if len(t.data.players) >= MAX_PLAYERS:
                raise WrongPhase(strings.TOURNAMENT_FULL, tournament_id=t.id, max=MAX_PLAYERS)
            rating = await self._rating(tx, player.user_id, t.row.game)
            if t.row.min_rating is not None and rating < t.row.min_rating:
                raise Forbidden(strings.TOURNAMENT_RATING_TOO_LOW, rating=rating,
                                minimum=t.row.min_rating, game=t.game.name)
            new = engine.Player(id=player.user_id, rating=rating, name=player.name[:40])
            if t.row.status == "running":
                data = engine.add_player(t.data, new)
            else:
                data = replace(t.data, players=(*t.data.players, new))
            t = await self._save(tx, t, now, data=data)
            await self._signup_message(Effects(tx, now), t)
        self.ctx.on_commit()
        return t

    async def leave(self, tournament_id: int, user_id: int, guild_id: int | None) -> Tournament:
        """Leave before the start; after it, leaving is a withdrawal."""
        t = await self.get(tournament_id)
        if t.row.guild_id != guild_id:
            raise NotFound(strings.NO_SUCH_TOURNAMENT, tournament_id=tournament_id)
        if t.row.status != "signup":
            return await self.withdraw(tournament_id, user_id, by=user_id, is_manager=False)
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            t = await self._locked(tx, tournament_id)
            if t.row.status != "signup":
                raise WrongPhase(strings.RACE_LOST)
            if all(p.id != user_id for p in t.data.players):
                raise BadRequest(strings.TOURNAMENT_NOT_IN, tournament_id=t.id)
            data = replace(t.data, players=tuple(p for p in t.data.players if p.id != user_id))
            t = await self._save(tx, t, now, data=data)
            await self._signup_message(Effects(tx, now), t)
        self.ctx.on_commit()
        return t

    def minimum_players(self, t: Tournament) -> int:
        fmt = t.row.format
        if fmt == "swiss":
            return max(3, t.data.settings.rounds + 1)
        if fmt == "pods":
            return t.data.settings.table_max
        return 3

    async def start(self, tournament_id: int, user_id: int, *, is_manager: bool,
                    guild_id: int | None) -> Tournament:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            t = await self._locked(tx, tournament_id)
            if t.row.guild_id != guild_id:
                raise NotFound(strings.NO_SUCH_TOURNAMENT, tournament_id=tournament_id)
            if user_id != t.row.organiser_id and not is_manager:
                raise Forbidden(strings.TOURNAMENT_ORGANISER_ONLY, tournament_id=t.id)
            if t.row.status != "signup":
                raise WrongPhase(strings.TOURNAMENT_STARTED, tournament_id=t.id)
            need = self.minimum_players(t)
            if len(t.data.players) < need:
                raise WrongPhase(strings.TOURNAMENT_TOO_FEW, tournament_id=t.id, count=need,
                                 have=len(t.data.players))
            t = await self._begin(tx, t, now)
        self.ctx.on_commit()
        return t

    async def _begin(self, tx: Tx, t: Tournament, now: float) -> Tournament:
        t = await self._save(tx, t, now, status="running")
        effects = Effects(tx, now)
        await self._signup_message(effects, t)
        return await self._advance(tx, effects, t, now)

    # -- withdrawals ---------------------------------------------------------------------
    async def withdraw(self, tournament_id: int, user_id: int, *, by: int, is_manager: bool,
                       guild_id: int | None = None) -> Tournament:
        """A player leaves a running tournament (themselves, or removed by its organiser):
        their results stand, their games still running are lost by forfeit, and they are
        paired no more."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            t = await self._locked(tx, tournament_id)
            if guild_id is not None and t.row.guild_id != guild_id:
                raise NotFound(strings.NO_SUCH_TOURNAMENT, tournament_id=tournament_id)
            if by != user_id and by != t.row.organiser_id and not is_manager:
                raise Forbidden(strings.TOURNAMENT_ORGANISER_ONLY, tournament_id=t.id)
            known = {p.id: p for p in t.data.players}
            if user_id not in known or known[user_id].withdrawn_round is not None:
                raise BadRequest(strings.TOURNAMENT_NOT_IN if by == user_id
                                 else strings.TOURNAMENT_NOT_A_PLAYER, tournament_id=t.id)
            if t.row.status in ("finished", "cancelled"):
                raise WrongPhase(strings.TOURNAMENT_OVER, tournament_id=t.id)
            effects = Effects(tx, now)
            if t.row.status == "signup":
                data = replace(t.data, players=tuple(p for p in t.data.players
                                                     if p.id != user_id))
                t = await self._save(tx, t, now, data=data)
                await self._signup_message(effects, t)
            else:
                t = await self._save(tx, t, now, data=engine.withdraw(t.data, user_id))
                name = known[user_id].name
                await self._post(effects, t, phrase(strings.TOURNAMENT_WITHDRAWN, name=name,
                                                    tournament_id=t.id))
                t = await self._advance(tx, effects, t, now)
        self.ctx.on_commit()
        # their matches still running end now, each in a transaction of its own that locks
        # the match before the tournament (as a move that ends a match does: no deadlock);
        # one left running by a crash here is decided by the round's deadline
        for entry in await self.ctx.store.tournament_matches(t.id):
            await self._end_if_running(entry.match_id, loser=user_id, reason="withdrawn")
        return await self.get(t.id)

    async def _end_if_running(self, match_id: int, *, loser: int | None, reason: str) -> None:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if loser is not None and match.row.seat_of(loser) is None:
                return
            if match.status == "active":
                await self._end_match(tx, Effects(tx, now), match, loser=loser, reason=reason,
                                      now=now)
            elif match.status == "open":
                await self._drop_unplaced(tx, match_id, now)
            else:
                return
        self.ctx.on_commit()

    async def _drop_unplaced(self, tx: Tx, match_id: int, now: float) -> None:
        """A match whose thread was not made yet is aborted (its result is the engine's)."""
        match = await self.ctx.locked(tx, match_id)
        if match.status == "open":
            await self.ctx.save(tx, match, now=now, status="aborted",
                                result={"aborted_by": None, "reason": "tournament"})

    async def _end_match(self, tx: Tx, effects: Effects, match: Match, *, loser: int | None,
                         reason: str, now: float) -> None:
        """End a running tournament match: `loser` resigned (a withdrawal), or (None) the
        round's deadline passed and the player to move loses on time."""
        seats = len(match.seats)
        if loser is None:
            mover = match.to_move()
            loser = mover.user_id if mover is not None else None
        lost = match.row.seat_of(loser) if loser is not None else None
        if lost is None:
            outcome = Outcome(tuple(range(seats)), Termination.AGREEMENT, draw=True)
            result: dict[str, Any] = {**outcome.to_json()}
        elif reason == "withdrawn":
            outcome = Outcome(tuple(s for s in range(seats) if s != lost),
                              Termination.RESIGNATION)
            result = {**outcome.to_json(), "resigned": loser, "withdrawn": True}
        else:
            outcome = Outcome(tuple(s for s in range(seats) if s != lost), Termination.TIMEOUT)
            result = {**outcome.to_json(), "deadline": True}
        match = await self.ctx.save(tx, match, now=now, status="finished", result=result)
        await tx.void_offers(match.id)
        lead = phrase(strings.TOURNAMENT_DEADLINE_END if reason == "deadline"
                      else strings.TOURNAMENT_WITHDRAWAL_END, match_id=match.id)
        await self.matches.announce_end(tx, effects, match, lead=lead)

    # -- results and rounds --------------------------------------------------------------
    async def on_match_end(self, tx: Tx, effects: Effects, match: Match) -> None:
        """A match ended (in the transaction that ended it): a tournament's records it, and
        pairs the next round once this one is over."""
        entry = await tx.tournament_match(match.id)
        if entry is None:
            return
        t = await self._locked(tx, entry.tournament_id)
        if t.row.status != "running":
            return
        game = t.data.rounds[entry.round - 1].games[entry.game_index]
        if game.points is not None:  # decided already (a withdrawal's forfeit, a deadline)
            await self._advance(tx, effects, t, effects.now)
            return
        points = match_points(match, t.data.settings.table_max)
        result = match.row.result or {}
        data = engine.record(t.data, entry.round, entry.game_index, points,
                             forfeit=bool(result.get("withdrawn")) or game.forfeit)
        t = await self._save(tx, t, effects.now, data=data)
        await self._advance(tx, effects, t, effects.now)

    async def _advance(self, tx: Tx, effects: Effects, t: Tournament, now: float) -> Tournament:
        """Pair every round that can be paired now (a round of byes alone is over at once),
        or end the tournament. A Swiss round is paired by a worker process (`pair_job`,
        from an outbox row written here): its matching costs tens of milliseconds for 64
        players, too long for the event loop."""
        while True:
            data = t.data
            if data.rounds and not all(r.finished for r in data.rounds):
                return t
            if t.row.format == "swiss":
                if data.rounds and len(data.rounds) >= data.settings.rounds:
                    return await self._finish(tx, effects, t, now)
                await effects.post(outbox.TourPair(tournament_id=t.id,
                                                   number=len(data.rounds) + 1))
                # no deadline while the pairing is worked out (the clock leaves it be)
                return await self._save(tx, t, now, round_deadline=None)
            if data.rounds and (t.row.format == "round_robin" or engine.is_finished(data)):
                return await self._finish(tx, effects, t, now)
            if t.row.format == "round_robin":
                new = engine.schedule(data).rounds
            else:
                try:
                    new = (engine.pair_next_round(data),)
                except engine.PairingError:
                    return await self._finish(tx, effects, t, now)
            if not new:
                return await self._finish(tx, effects, t, now)
            t = await self._apply(tx, effects, t, new, now)

    async def pair_job(self, tournament_id: int, number: int,
                       compute: Callable[[str], Awaitable[str | None]]) -> bool:
        """Pair round `number` of a Swiss: `compute` (a worker process) turns the engine's
        JSON into the same with the round added (None: no legal pairing, the tournament
        ends), and one transaction applies it if the tournament has not changed meanwhile
        (else it is worked out again). False when there was nothing to do: paired already,
        or the round before is not over (a row repeated after a restart)."""
        for _ in range(5):
            t = await self.get(tournament_id)
            rounds = t.data.rounds
            if (t.row.status != "running" or len(rounds) != number - 1
                    or (rounds and not rounds[-1].finished)):
                return False
            paired = await compute(t.row.data)
            now = self.ctx.clock()
            async with self.ctx.store.transaction() as tx:
                current = await self._locked(tx, tournament_id)
                if current.row.data != t.row.data or current.row.status != "running":
                    continue
                effects = Effects(tx, now)
                if paired is None:
                    await self._finish(tx, effects, current, now)
                else:
                    rnd = engine.from_json(paired).rounds[-1]
                    current = await self._apply(tx, effects, current, (rnd,), now)
                    await self._advance(tx, effects, current, now)
            self.ctx.on_commit()
            return True
        raise WrongPhase(strings.TRY_AGAIN)

    async def _apply(self, tx: Tx, effects: Effects, t: Tournament,
                     new: tuple[engine.Round, ...], now: float) -> Tournament:
        """Add paired rounds: a row per round (a second pairing of one fails the whole
        transaction), an ordinary match per table, the announcement."""
        data = t.data
        entries: list[PairingLine] = []
        for rnd in new:
            data = engine.add_round(data, rnd)
            await tx.add_tournament_round(t.id, rnd.number, now)
            for index, g in enumerate(rnd.games):
                if g.points is None:
                    match_id = await self._open_game(tx, effects, t, rnd.number, index,
                                                     g.seats, now)
                    entries.append(PairingLine(game_line(match_id, g.seats), g.seats, match_id))
                elif len(g.seats) == 1:
                    entries.append(PairingLine(phrase(strings.TOURNAMENT_BYE_LINE,
                                                      player=f"<@{g.seats[0]}>"), g.seats))
                elif g.seats:
                    entries.append(PairingLine(phrase(
                        strings.TOURNAMENT_FORFEIT_LINE,
                        players=" – ".join(f"<@{s}>" for s in g.seats)), g.seats))
        count = len(new) if t.row.format == "round_robin" else 1
        deadline = now + t.row.round_seconds * count
        t = await self._save(tx, t, now, data=data, round_deadline=deadline)
        first = new[0].number
        picture = ("bracket" if t.row.format == "knockout"
                   else "standings" if first > 1 else None)
        # the pairings in as many messages as Discord's limit asks (a round robin of 16 pairs
        # 120 games at once), each game's number a link to its thread once it is made
        for part, chunk in enumerate(pairing_chunks(entries)):
            lines = _lines([entry.line for entry in chunk])
            text = lines if part else phrase(
                strings.TOURNAMENT_ROUND_PAIRED if count == 1 else strings.TOURNAMENT_ALL_PAIRED,
                tournament_id=t.id, round=first, deadline=f"<t:{int(deadline)}:f>",
                pairings=lines)
            await effects.post(outbox.TourPost(
                tournament_id=t.id, channel_id=t.row.channel_id, text=text,
                mention=tuple(sorted({s for entry in chunk for s in entry.seats})),
                picture=None if part else picture,
                data=engine.to_json(t.data) if picture and not part else None,
                games=tuple(e.match_id for e in chunk if e.match_id is not None) or None))
        return t

    async def _open_game(self, tx: Tx, effects: Effects, t: Tournament, number: int,
                         index: int, seats: tuple[int, ...], now: float) -> int:
        """An ordinary match for a table, seats in the engine's order (first = white); it
        starts once its thread is made (the `TourMatch` row)."""
        game = t.game
        names = t.names()
        options = game.draw_options(dict(t.row.options), self.ctx.dice)
        placeholder = -(t.id * 1_000_000 + number * 1000 + index + 1)
        match_id = await tx.create_match(
            game=game.id, options=options, seat_count=len(seats), guild_id=t.row.guild_id,
            channel_id=placeholder, in_thread=True, parent_channel_id=t.row.parent_channel_id,
            host_id=seats[0], invited_id=None, first_seat="me", status="open",
            move_seconds=t.row.move_seconds,
            seats=[SeatRow(i, uid, names.get(uid, "?")) for i, uid in enumerate(seats)],
            now=now, rated=t.row.rated)
        await tx.add_tournament_match(match_id, t.id, number, index)
        title = phrase(strings.TOURNAMENT_MATCH_THREAD, tournament_id=t.id, round=number,
                       names=" – ".join(names.get(s, "?")[:20] for s in seats))
        await effects.post(outbox.TourMatch(tournament_id=t.id, match_id=match_id,
                                            parent_channel_id=t.row.parent_channel_id,
                                            name=title))
        return match_id

    async def place(self, match_id: int, thread_id: int) -> bool:
        """A tournament match's thread is made: the match moves there and starts. False when
        it had been placed already (or ended without being placed)."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if match.row.channel_id >= 0 or match.status != "open":
                return False
            await tx.move_match(match_id, thread_id, True)
            match = await self.ctx.locked(tx, match_id)
            await self.matches.begin(tx, match, now)
        self.ctx.on_commit()
        return True

    async def _finish(self, tx: Tx, effects: Effects, t: Tournament, now: float) -> Tournament:
        t = await self._save(tx, t, now, status="finished", round_deadline=None)
        await self._signup_message(effects, t)  # its Join button goes
        table = engine.standings(t.data)
        winners = [r.player_id for r in table.rows if r.rank == 1]
        await self._post(effects, t, phrase(
            strings.TOURNAMENT_FINISHED, tournament_id=t.id, name=t.data.settings.name,
            winners=" & ".join(f"<@{w}>" for w in winners),
            standings=self.standings_lines(t)), mention=winners,
            picture="bracket" if t.row.format == "knockout" else "standings")
        return t

    def standings_lines(self, t: Tournament, limit: int = 20) -> str:
        table = engine.standings(t.data)
        names = t.names()
        out = []
        for row in table.rows[:limit]:
            breaks = " ".join(_number(x) for x in row.tiebreaks)
            out.append(f"{row.rank}. {names.get(row.player_id, '?')} — {_number(row.points)}"
                       + (f" ({breaks})" if breaks else ""))
        return "\n".join(out)

    async def _post(self, effects: Effects, t: Tournament, text: Phrase, *,
                    mention: list[int] | tuple[int, ...] = (), picture: str | None = None
                    ) -> None:
        await effects.post(outbox.TourPost(
            tournament_id=t.id, channel_id=t.row.channel_id, text=text,
            mention=tuple(sorted(set(mention))), picture=picture,
            data=engine.to_json(t.data) if picture else None))

    async def _save(self, tx: Tx, t: Tournament, now: float, *,
                    data: engine.Tournament | None = None, **changes: Any) -> Tournament:
        if data is not None:
            changes["data"] = engine.to_json(data)
        await tx.update_tournament(t.id, now=now, **changes)
        row = await tx.lock_tournament(t.id)
        assert row is not None
        return wrap(row)

    # -- time ----------------------------------------------------------------------------
    async def tick(self) -> int:
        """Sign-up windows that closed and round deadlines that passed (each once: the row
        is locked and looked at again in the transaction that acts; a deadline ends each
        running match in a transaction of its own, match locked first, then settles the
        round, so a tick cut short by a restart is finished by the next one)."""
        now = self.ctx.clock()
        done = 0
        for tournament_id in await self.ctx.store.due_tournaments(now):
            row = await self.ctx.store.tournament(tournament_id)
            if row is not None and row.status == "running":
                for entry in await self.ctx.store.tournament_matches(tournament_id):
                    match = await self.ctx.store.get_match(entry.match_id)
                    if match is not None and match.status in ("active", "open"):
                        await self._end_if_running(entry.match_id, loser=None,
                                                   reason="deadline")
            async with self.ctx.store.transaction(background=True) as tx:
                t = await self._locked(tx, tournament_id)
                effects = Effects(tx, now)
                if t.row.status == "signup" and t.row.signup_until <= now:
                    if len(t.data.players) >= self.minimum_players(t):
                        await self._begin(tx, t, now)
                    else:
                        t = await self._save(tx, t, now, status="cancelled")
                        await self._signup_message(effects, t)
                        await self._post(effects, t, phrase(
                            strings.TOURNAMENT_CANCELLED, tournament_id=t.id,
                            count=self.minimum_players(t)),
                            mention=[p.id for p in t.data.players])
                    done += 1
                elif (t.row.status == "running" and t.row.round_deadline is not None
                      and t.row.round_deadline <= now):
                    await self._settle(tx, effects, t, now)
                    done += 1
        done += await self._restart_pairings(now)
        if done:
            self.ctx.on_commit()
        return done

    async def _restart_pairings(self, now: float) -> int:
        """The watchdog: a Swiss round waiting for its pairing with no job in the outbox
        (it gave up after its retries, or was lost) gets a new job; pairing twice is
        impossible (`tournament_rounds`), and `pair_job` does nothing for a round paired."""
        restarted = 0
        for tournament_id in await self.ctx.store.stalled_pairings(now - STALLED_PAIRING):
            async with self.ctx.store.transaction(background=True) as tx:
                t = await self._locked(tx, tournament_id)
                if (t.row.status != "running" or t.row.round_deadline is not None
                        or t.row.updated_at > now - STALLED_PAIRING):
                    continue  # paired or changed meanwhile
                await self._advance(tx, Effects(tx, now), t, now)
            log.warning("tournament #%d: round %d was still unpaired after %d s with no "
                        "pairing job; pairing it again", tournament_id,
                        len(t.data.rounds) + 1, STALLED_PAIRING)
            restarted += 1
        return restarted

    async def _settle(self, tx: Tx, effects: Effects, t: Tournament, now: float) -> None:
        """After a deadline: a game whose match never started (or was aborted) scores
        nothing for anyone; then the next round, or the end."""
        entries = {(e.round, e.game_index): e.match_id
                   for e in await tx.tournament_matches(t.id)}
        data = t.data
        for rnd in data.rounds:
            for index, g in enumerate(rnd.games):
                if g.points is not None:
                    continue
                match_id = entries.get((rnd.number, index))
                row = await tx.get_match(match_id) if match_id is not None else None
                if row is not None and row.status == "active":
                    return  # placed meanwhile: its end (or the next tick) settles the round
                data = engine.record(data, rnd.number, index, (0.0,) * len(g.seats),
                                     forfeit=True)
        if data is not t.data:
            t = await self._save(tx, t, now, data=data)
        await self._advance(tx, effects, t, now)

    # -- export --------------------------------------------------------------------------
    def export(self, t: Tournament) -> tuple[str | None, str]:
        """(TRF text for two-player formats, else None; JSON text)."""
        trf = engine.to_trf(t.data) if t.row.format != "pods" else None
        return trf, engine.to_json(t.data)


MESSAGE_LIMIT = 2000  # characters of a Discord message's content
# room kept in each pairing message for its heading ("Tournament #3, round 2 (ends …):", in
# any language) and for what a line's translation adds to the English
HEADING_ROOM = 300
# what linking a game's number adds to its line at most: "[#8](<https://discord.com/channels/
# GUILD/THREAD>)" for "#8", Discord's ids being at most 20 digits
LINK_ROOM = len("[](<https://discord.com/channels//>)") + 2 * 20


@dataclass(frozen=True)
class PairingLine:
    """A line of a round's pairings: a game (its match), a bye or a forfeit."""

    line: Phrase | str
    seats: tuple[int, ...]
    match_id: int | None = None


def game_line(match_id: int, seats: tuple[int, ...]) -> str:
    """A paired game: its match's number (which the delivery links to the match's thread,
    `link_games`) and its players."""
    return f"#{match_id}: " + " – ".join(f"<@{s}>" for s in seats)


def pairing_chunks(entries: list[PairingLine]) -> list[list[PairingLine]]:
    """The pairings in messages of at most `MESSAGE_LIMIT` characters once the heading is
    added and every game's number is linked: each line counted at its longest (the longest
    of its translations, with the longest link)."""
    from ..words.i18n import LANGUAGES, Texts

    texts = [Texts(language) for language in LANGUAGES]
    budget = MESSAGE_LIMIT - HEADING_ROOM
    chunks: list[list[PairingLine]] = [[]]
    used = 0
    for entry in entries:
        size = 1 + max(len(t(entry.line)) for t in texts) + \
            (LINK_ROOM if entry.match_id is not None else 0)
        if chunks[-1] and used + size > budget:
            chunks.append([])
            used = 0
        chunks[-1].append(entry)
        used += size
    return chunks


def link_games(text: str, links: dict[int, str]) -> str:
    """A pairing message with each game's number ("#8: <@1> – <@2>", at a line's start) made
    a link to its match (`links`: match id -> URL; a game without one is left as it is). The
    URL in <> so that Discord shows no preview of it."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        head, colon, rest = line.partition(": ")
        if colon and head.startswith("#") and head[1:].isdigit() and int(head[1:]) in links:
            lines[i] = f"[{head}](<{links[int(head[1:])]}>): {rest}"
    return "\n".join(lines)


def _lines(items: list[Phrase | str]) -> Phrase | str:
    """Lines, one under the other, each translated on its own."""
    if not items:
        return ""
    text = items[0]
    for item in items[1:]:
        text = phrase("{above}\n{line}", above=text, line=item)
    return text


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}".rstrip("0").rstrip(".")
