"""What a match can do, with no Discord in sight: open, join, accept, start, move, resign, abort.

Commands and buttons resolve their arguments, call one of these, and render the result.
Every refusal is a `ServiceError` whose text is ready to show the user; nothing is changed
when one is raised.
"""

from __future__ import annotations

import calendar
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

from games import Game, GameError, Outcome, Termination, get_game
from games.base import reason_of

from . import strings
from .clocks import MAX_SECONDS, MIN_SECONDS, Clock, DurationError, clock_for, format_duration, \
    parse_duration
from .store import UNSET, ChannelBusy, MatchRow, NewMove, SeatRow, StaleVersion, Store

DAY = 86400.0
VACATION_DAYS_PER_YEAR = 30


class ServiceError(Exception):
    """A refusal with a user-facing message."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(ServiceError): ...
class NotAPlayer(ServiceError): ...
class NotYourTurn(ServiceError): ...
class IllegalMove(ServiceError): ...
class StaleAction(ServiceError): ...
class Forbidden(ServiceError): ...
class WrongPhase(ServiceError): ...
class BadRequest(ServiceError): ...


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str


@dataclass(frozen=True)
class Match:
    """A stored match with its game and decoded state."""

    row: MatchRow
    game: Game
    state: Any | None  # None before the start

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def seats(self) -> tuple[SeatRow, ...]:
        return self.row.seats

    def names(self) -> list[str]:
        return [seat.name for seat in self.row.seats]

    def to_move(self) -> SeatRow | None:
        if self.state is None or self.row.status != "active":
            return None
        seat = self.game.to_move(self.state)
        return None if seat is None else self.row.user_at(seat)

    def outcome(self) -> Outcome | None:
        if self.row.status == "finished" and self.row.result is not None:
            return Outcome.from_json(self.row.result)
        return None

    def ply(self) -> int:
        return 0 if self.state is None else self.game.ply(self.state)

    def observe(self, viewer: int | None):
        return self.game.observe(self.state, viewer)


@dataclass(frozen=True)
class MoveResult:
    match: Match
    mover: SeatRow
    notation: str  # full notation (the log, the mover)
    public: str  # what the channel may see
    before: Any
    rolls: tuple[str, ...] = ()  # chance moves the host made right after this move


@dataclass(frozen=True)
class Reminder:
    match: Match
    user_id: int
    stage: str  # 'half' or 'last'
    clock: Clock


@dataclass(frozen=True)
class Expired:
    match: Match
    absent: SeatRow


@dataclass(frozen=True)
class Digest:
    user_id: int
    waiting: list[tuple[Match, float, Clock | None]]  # match, seconds waited, clock


@dataclass(frozen=True)
class Offer:
    id: int
    match: Match
    kind: str
    from_user: SeatRow
    notation: str | None = None  # the move a takeback would undo


def parse_time(text: str | None) -> int | None | object:
    """A /play or settings time per move; UNSET when not given."""
    if text is None:
        return UNSET
    try:
        seconds = parse_duration(text)
    except DurationError:
        raise BadRequest(strings.BAD_DURATION.format(text=text)) from None
    if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise BadRequest(strings.DURATION_RANGE)
    return seconds


def parse_options(text: str | None) -> dict[str, str]:
    """`pits=17 repetition=off` -> {'pits': '17', 'repetition': 'off'}."""
    options: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise BadRequest(strings.BAD_OPTION_SYNTAX.format(text=text))
        options[name.lower()] = value
    return options


def replace_offer(offer: "Offer", notation: str) -> "Offer":
    return Offer(offer.id, offer.match, offer.kind, offer.from_user, notation)


class MatchService:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None, dice: random.Random | None = None):
        self.store = store
        self.clock = clock
        self.rng = rng or random.SystemRandom()  # seat order
        self.dice = dice or secrets.SystemRandom()  # chance moves: unpredictable, then logged

    # -- reading -----------------------------------------------------------------------
    def _wrap(self, row: MatchRow) -> Match:
        game = get_game(row.game)
        state = None if row.state is None else game.from_json(row.state)
        return Match(row, game, state)

    async def get(self, match_id: int) -> Match:
        row = await self.store.get_match(match_id)
        if row is None:
            raise NotFound(strings.NO_SUCH_MATCH.format(match_id=match_id))
        return self._wrap(row)

    async def in_channel(self, channel_id: int) -> Match:
        row = await self.store.live_match_in(channel_id)
        if row is None:
            raise NotFound(strings.NO_MATCH_HERE)
        return self._wrap(row)

    async def live_matches_of(self, user_id: int) -> list[Match]:
        return [self._wrap(row) for row in await self.store.live_matches_of(user_id)]

    async def rebuild(self, match_id: int, *, drop_last: bool = False) -> Any:
        """The state replayed from the move log (the log is the source of truth): moves and
        skips in order, each takeback removing the entry before it."""
        match = await self.get(match_id)
        game = match.game
        effective: list[tuple[str, str]] = []
        for entry in await self.store.moves(match_id):
            if entry.kind == "takeback":
                effective.pop()
            else:
                effective.append((entry.kind, entry.notation))
        if drop_last:
            effective.pop()
        state = game.new(len(match.seats), match.row.options)
        for kind, notation in effective:
            state = game.skip(state) if kind == "skip" else game.play(state, notation)
        return state

    def legal_moves_for(self, match: Match, user_id: int) -> list[str]:
        mover = match.to_move()
        if mover is None or mover.user_id != user_id:
            return []
        return match.game.legal_notations(match.state)

    # -- opening -----------------------------------------------------------------------
    async def open_match(self, *, game_id: str, options: dict[str, str], host: Player,
                         opponent: Player | None, guild_id: int | None, channel_id: int,
                         in_thread: bool = False, first: str = "random",
                         move_seconds: Any = UNSET, parent_channel_id: int | None = None) -> Match:
        game, resolved = self.check_opening(game_id=game_id, options=options, host=host,
                                            opponent=opponent, first=first)
        resolved = game.draw_options(resolved, self.dice)  # e.g. ICO's random start face
        settings = await self.store.guild_settings(guild_id)
        await self.check_channel(guild_id, parent_channel_id or channel_id)
        if move_seconds is UNSET:
            move_seconds = settings["move_seconds"]
        existing = await self.store.live_match_in(channel_id)
        if existing is not None:
            raise WrongPhase(strings.CHANNEL_BUSY.format(match_id=existing.id))
        try:
            row = await self.store.create_match(
                game=game.id, options=resolved, seat_count=game.info.min_seats,
                guild_id=guild_id, channel_id=channel_id, in_thread=in_thread,
                host_id=host.user_id, host_name=host.name,
                invited_id=opponent.user_id if opponent else None, first_seat=first,
                status="invited" if opponent else "open", now=self.clock())
        except ChannelBusy:
            existing = await self.store.live_match_in(channel_id)
            raise WrongPhase(strings.CHANNEL_BUSY.format(
                match_id=existing.id if existing else "?")) from None
        extra_seat = (row.seats + (SeatRow(1, opponent.user_id, opponent.name),)
                      if opponent is not None else None)  # the invited player's seat, reserved
        row = await self.store.save(row.id, row.version, now=self.clock(), seats=extra_seat,
                                    move_seconds=move_seconds)
        return self._wrap(row)

    async def check_channel(self, guild_id: int | None, channel_id: int) -> None:
        allowed = (await self.store.guild_settings(guild_id))["channels"]
        if allowed and channel_id not in allowed:
            raise BadRequest(strings.CHANNEL_NOT_ALLOWED.format(
                channels=", ".join(f"<#{c}>" for c in allowed)))

    def check_opening(self, *, game_id: str, options: dict[str, str], host: Player,
                      opponent: Player | None, first: str = "random") -> tuple[Game, dict]:
        """Validate a /play request before anything is created (a thread, a row)."""
        try:
            game = get_game(game_id)
        except GameError as exc:
            raise BadRequest(strings.UNKNOWN_GAME.format(reason=exc)) from None
        try:
            resolved = game.resolve_options(options)
        except GameError as exc:
            raise BadRequest(strings.BAD_OPTION.format(reason=exc)) from None
        if first not in ("me", "opponent", "random"):
            raise BadRequest(strings.BAD_OPTION.format(reason=f"first={first!r}"))
        if opponent is not None and opponent.user_id == host.user_id:
            raise BadRequest(strings.OPPONENT_IS_YOU)
        if opponent is not None and game.info.min_seats > 2:
            raise BadRequest(strings.MULTI_SEAT_NO_OPPONENT.format(game=game.name,
                                                                   players=game.seats_text()))
        return game, resolved

    async def join(self, match_id: int, player: Player) -> Match:
        match = await self.get(match_id)
        if match.status != "open":
            raise WrongPhase(strings.NOT_A_LOBBY.format(match_id=match_id))
        if match.row.seat_of(player.user_id) is not None:
            raise BadRequest(strings.ALREADY_SEATED.format(match_id=match_id))
        if len(match.seats) >= match.game.info.max_seats:
            raise WrongPhase(strings.LOBBY_FULL.format(match_id=match_id))
        seats = match.seats + (SeatRow(len(match.seats), player.user_id, player.name),)
        row = await self._save(match, seats=seats)
        return self._wrap(row)

    async def start(self, match_id: int, user_id: int) -> Match:
        match = await self.get(match_id)
        if match.status != "open":
            raise WrongPhase(strings.NOT_A_LOBBY.format(match_id=match_id))
        if user_id != match.row.host_id:
            host = match.row.user_at(0)
            raise Forbidden(strings.ONLY_HOST_STARTS.format(
                name=host.name if host else "the host", match_id=match_id))
        need = match.game.info.min_seats
        if len(match.seats) < need:
            raise WrongPhase(strings.NOT_ENOUGH_PLAYERS.format(
                match_id=match_id, count=need, have=len(match.seats)))
        return await self._begin(match)

    async def accept(self, match_id: int, user_id: int) -> Match:
        match = await self.get(match_id)
        self._check_invitation(match, user_id)
        return await self._begin(match)

    async def decline(self, match_id: int, user_id: int) -> Match:
        match = await self.get(match_id)
        if match.status == "invited" and user_id == match.row.host_id:
            return self._wrap(await self._save(match, status="aborted"))
        self._check_invitation(match, user_id)
        return self._wrap(await self._save(match, status="aborted"))

    def _check_invitation(self, match: Match, user_id: int) -> None:
        if match.status != "invited":
            raise WrongPhase(strings.NOT_AN_INVITATION.format(match_id=match.id))
        if user_id != match.row.invited_id:
            invited = match.row.user_at(1)
            raise NotAPlayer(strings.NOT_INVITED.format(name=invited.name if invited else "?"))

    async def _begin(self, match: Match) -> Match:
        seats = list(match.seats)
        host = seats[0]
        others = seats[1:]
        if match.row.first_seat == "random":
            self.rng.shuffle(seats)
        elif match.row.first_seat == "opponent":
            seats = others + [host]
        ordered = tuple(SeatRow(i, s.user_id, s.name) for i, s in enumerate(seats))
        try:
            state = match.game.new(len(ordered), match.row.options)
        except GameError as exc:
            raise BadRequest(strings.BAD_OPTION.format(reason=exc)) from None
        row = await self._save(match, status="active", seats=ordered,
                               state=match.game.to_json(state), turn_started_at=self.clock())
        return self._wrap(row)

    # -- playing -----------------------------------------------------------------------
    def check_turn(self, match: Match, user_id: int, *, expected_ply: int | None = None) -> SeatRow:
        """The mover's seat, or the reason this user cannot move now."""
        if match.status in ("finished", "aborted"):
            raise WrongPhase(strings.MATCH_OVER.format(match_id=match.id))
        if match.status != "active":
            raise WrongPhase(strings.NOT_STARTED.format(match_id=match.id))
        seat = match.row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(strings.NOT_A_PLAYER.format(match_id=match.id))
        if expected_ply is not None and expected_ply != match.ply():
            raise StaleAction(strings.STALE_BOARD.format(ply=match.ply() + 1))
        mover = match.to_move()
        if mover is None or mover.user_id != user_id:
            raise NotYourTurn(strings.NOT_YOUR_TURN.format(
                match_id=match.id, name=mover.name if mover else "nobody"))
        return mover

    async def play(self, match_id: int, user_id: int, notation: str, *,
                   expected_ply: int | None = None) -> MoveResult:
        match = await self.get(match_id)
        if match.state is not None and match.game.is_chance(match.state):
            match, _ = await self.resolve_chance(match)  # a roll left pending by a crash
        mover = self.check_turn(match, user_id, expected_ply=expected_ply)
        game, before = match.game, match.state
        try:
            move = game.parse_move(before, notation)
            canonical = game.format_move(before, move)
            public = game.public_notation(before, move)
            after = game.apply(before, move)
        except GameError as exc:
            raise IllegalMove(strings.ILLEGAL_MOVE.format(
                notation=notation.strip(), reason=reason_of(exc, notation).rstrip("."))) from None
        outcome = game.outcome(after)
        row = await self._save(
            match, state=game.to_json(after),
            status="finished" if outcome else None,
            result=outcome.to_json() if outcome else None,
            move=NewMove(game.ply(before), canonical, user_id), turn_started_at=self.clock())
        match, rolls = await self.resolve_chance(Match(row, game, after))
        return MoveResult(match, mover, canonical, public, before, tuple(rolls))

    async def resolve_chance(self, match: Match) -> tuple[Match, list[str]]:
        """Make the chance moves that are due (die rolls), each logged with no actor, so that
        replaying the log reproduces the match."""
        rolls: list[str] = []
        game = match.game
        while match.status == "active" and game.is_chance(match.state):
            move = self.dice.choice(game.legal_moves(match.state))
            notation = game.format_move(match.state, move)
            after = game.apply(match.state, move)
            outcome = game.outcome(after)
            row = await self._save(match, state=game.to_json(after),
                                   status="finished" if outcome else None,
                                   result=outcome.to_json() if outcome else None,
                                   move=NewMove(game.ply(match.state), notation, None),
                                   turn_started_at=self.clock())
            match = Match(row, game, after)
            rolls.append(notation)
        return match, rolls

    async def resign(self, match_id: int, user_id: int) -> Match:
        match = await self.get(match_id)
        if match.status != "active":
            raise WrongPhase(strings.NOT_STARTED.format(match_id=match_id)
                             if match.status in ("open", "invited")
                             else strings.MATCH_OVER.format(match_id=match_id))
        seat = match.row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(strings.NOT_A_PLAYER.format(match_id=match_id))
        winners = tuple(s.seat for s in match.seats if s.seat != seat)
        outcome = Outcome(winners, Termination.RESIGNATION)
        result = {**outcome.to_json(), "resigned": user_id}
        return self._wrap(await self._save(match, status="finished", result=result))

    async def abort(self, match_id: int, user_id: int, *, is_manager: bool) -> Match:
        match = await self.get(match_id)
        if match.status not in ("open", "invited", "active"):
            raise WrongPhase(strings.MATCH_OVER.format(match_id=match_id))
        allowed = is_manager or (match.status != "active" and user_id == match.row.host_id)
        if not allowed:
            raise Forbidden(strings.ABORT_FORBIDDEN.format(match_id=match_id))
        return self._wrap(await self._save(match, status="aborted",
                                           result={"aborted_by": user_id}))

    # -- clocks, reminders, timeouts --------------------------------------------------------
    async def clock_of(self, match: Match) -> Clock | None:
        """The clock of the seat to move, or None when the match has no time limit."""
        mover = match.to_move()
        if (mover is None or match.row.move_seconds is None
                or match.row.turn_started_at is None):
            return None
        vacations = await self.store.vacations(mover.user_id)
        return clock_for(match.row.move_seconds, match.row.turn_started_at, self.clock(),
                         vacations)

    async def tick(self) -> list[Reminder | Expired | Digest]:
        """Everything time has made due since the last tick (also after a restart): each
        reminder and each expiry at most once per match and turn, digests once a day."""
        now = self.clock()
        notices: list[Reminder | Expired | Digest] = []
        for row in await self.store.active_matches():
            match = self._wrap(row)
            mover = match.to_move()
            clock = await self.clock_of(match)
            if mover is None or clock is None:
                continue
            turn = row.version
            if clock.expired:
                if await self.store.claim_notice(match.id, turn, "expired", now):
                    notices.append(Expired(match, mover))
                continue
            stage = clock.stage()
            if stage is None or await self.store.reminder_mode(mover.user_id) != "on":
                continue
            if stage == "last":
                await self.store.claim_notice(match.id, turn, "half", now)  # never after it
            if await self.store.claim_notice(match.id, turn, stage, now):
                notices.append(Reminder(match, mover.user_id, stage, clock))
        for user_id in await self.store.users_with_mode("digest"):
            last = await self.store.last_digest(user_id)
            if last is not None and now - last < DAY:
                continue
            waiting = []
            for match in await self.live_matches_of(user_id):
                mover = match.to_move()
                if mover is not None and mover.user_id == user_id:
                    started = match.row.turn_started_at or match.row.updated_at
                    waiting.append((match, now - started, await self.clock_of(match)))
            if waiting:
                await self.store.mark_digest(user_id, now)
                notices.append(Digest(user_id, sorted(waiting, key=lambda w: -w[1])))
        return notices

    async def claim(self, match_id: int, user_id: int, *, expected_version: int) -> tuple[Match, SeatRow, bool]:
        """An opponent of a timed-out player claims the win (two seats) or skips the absent
        seat's turn (three or more). Returns (match, absent seat, skipped?)."""
        match = await self.get(match_id)
        if match.status != "active":
            raise WrongPhase(strings.MATCH_OVER.format(match_id=match_id))
        if match.row.version != expected_version:
            raise StaleAction(strings.STALE_BOARD.format(ply=match.ply() + 1))
        claimer = match.row.seat_of(user_id)
        if claimer is None:
            raise NotAPlayer(strings.NOT_A_PLAYER.format(match_id=match_id))
        absent = match.to_move()
        clock = await self.clock_of(match)
        if absent is None or clock is None:
            raise WrongPhase(strings.NO_CLOCK.format(match_id=match_id))
        if absent.user_id == user_id:
            raise Forbidden(strings.NOT_OPPONENT.format(name=absent.name))
        if not clock.expired:
            raise WrongPhase(strings.NOT_EXPIRED.format(name=absent.name, match_id=match_id,
                                                        left=format_duration(clock.remaining)))
        game = match.game
        if len(match.seats) == 2:
            outcome = Outcome((claimer,), Termination.TIMEOUT)
            row = await self._save(match, status="finished",
                                   result={**outcome.to_json(), "claimed_by": user_id})
            return self._wrap(row), absent, False
        if not game.can_skip(match.state):
            raise WrongPhase(strings.CANNOT_SKIP.format(name=absent.name,
                                                        reason=strings.NOT_STARTED.format(
                                                            match_id=match_id)))
        after = game.skip(match.state)
        outcome = game.outcome(after)
        row = await self._save(match, state=game.to_json(after),
                               status="finished" if outcome else None,
                               result=outcome.to_json() if outcome else None,
                               move=NewMove(game.ply(match.state), "skip", user_id, kind="skip"),
                               turn_started_at=self.clock())
        skipped, _ = await self.resolve_chance(Match(row, game, after))
        return skipped, absent, True

    # -- offers ------------------------------------------------------------------------
    async def offer_draw(self, match_id: int, user_id: int) -> Offer:
        match = await self._active_player_match(match_id, user_id)
        if len(match.seats) != 2:
            raise BadRequest(strings.DRAW_ONLY_TWO)
        offer_id = await self.store.add_offer(match.id, "draw", user_id, match.row.version,
                                              self.clock())
        return Offer(offer_id, match, "draw", match.row.user_at(match.row.seat_of(user_id)))

    async def request_takeback(self, match_id: int, user_id: int) -> Offer:
        match = await self._active_player_match(match_id, user_id)
        if match.game.info.hidden_information:
            raise BadRequest(strings.NO_TAKEBACK_HIDDEN)
        log = await self.store.moves(match.id)
        last = log[-1] if log else None
        if last is None or last.kind != "move" or last.actor_id != user_id:
            raise BadRequest(strings.NO_TAKEBACK)
        offer_id = await self.store.add_offer(match.id, "takeback", user_id, match.row.version,
                                              self.clock())
        return Offer(offer_id, match, "takeback",
                     match.row.user_at(match.row.seat_of(user_id)), last.notation)

    async def answer_offer(self, offer_id: int, user_id: int, accept: bool) -> tuple[Offer, Match]:
        data = await self.store.get_offer(offer_id)
        if data is None or data["status"] != "open":
            raise StaleAction(strings.OFFER_GONE)
        match = await self.get(data["match_id"])
        seat = match.row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(strings.NOT_A_PLAYER.format(match_id=match.id))
        if user_id == data["from_user"]:
            raise Forbidden(strings.OFFER_OWN)
        offer = Offer(offer_id, match, data["kind"],
                      match.row.user_at(match.row.seat_of(data["from_user"])))
        if match.status != "active" or match.row.version != data["version"]:
            await self.store.close_offer(offer_id, "void")
            raise StaleAction(strings.OFFER_GONE)
        if not await self.store.close_offer(offer_id, "accepted" if accept else "declined"):
            raise StaleAction(strings.OFFER_GONE)
        if not accept:
            return offer, match
        if offer.kind == "draw":
            outcome = Outcome(tuple(range(len(match.seats))), Termination.AGREEMENT, draw=True)
            row = await self._save(match, status="finished", result=outcome.to_json())
            return offer, self._wrap(row)
        log = await self.store.moves(match.id)
        before = await self.rebuild(match.id, drop_last=True)
        row = await self._save(match, state=match.game.to_json(before),
                               move=NewMove(match.ply(), f"takeback {log[-1].notation}", user_id,
                                            kind="takeback"),
                               turn_started_at=self.clock())
        return replace_offer(offer, log[-1].notation), self._wrap(row)

    async def _active_player_match(self, match_id: int, user_id: int) -> Match:
        match = await self.get(match_id)
        if match.status != "active":
            raise WrongPhase(strings.NOT_STARTED.format(match_id=match_id)
                             if match.status in ("open", "invited")
                             else strings.MATCH_OVER.format(match_id=match_id))
        if match.row.seat_of(user_id) is None:
            raise NotAPlayer(strings.NOT_A_PLAYER.format(match_id=match_id))
        return match

    async def rematch(self, match_id: int, user: Player) -> Match:
        """A new match in the same channel, same game and options; the other player(s) invited,
        and the first move passes to the other side."""
        match = await self.get(match_id)
        seat = match.row.seat_of(user.user_id)
        if seat is None:
            raise NotAPlayer(strings.REMATCH_ONLY_PLAYERS.format(match_id=match_id))
        if match.status != "finished":
            raise WrongPhase(strings.REMATCH_NOT_OVER.format(match_id=match_id))
        opponent = None
        if len(match.seats) == 2:
            other = match.row.user_at(1 - seat)
            opponent = Player(other.user_id, other.name)
        return await self.open_match(
            game_id=match.game.id, options=dict(match.row.options), host=user, opponent=opponent,
            guild_id=match.row.guild_id, channel_id=match.row.channel_id,
            in_thread=match.row.in_thread, first="opponent" if seat == 0 else "me",
            move_seconds=match.row.move_seconds)

    # -- vacations and reminder preferences ------------------------------------------------
    async def vacation_days_left(self, user_id: int) -> float:
        now = self.clock()
        start = calendar.timegm((time.gmtime(now).tm_year, 1, 1, 0, 0, 0))
        used = sum(max(0.0, min(b, start + 366 * DAY) - max(a, start))
                   for a, b in await self.store.vacations(user_id))
        return VACATION_DAYS_PER_YEAR - used / DAY

    async def start_vacation(self, user_id: int, days: int) -> tuple[float, float]:
        """Pause the user's clocks for `days`; returns (until, days left this year)."""
        now = self.clock()
        if not 1 <= days <= VACATION_DAYS_PER_YEAR:
            raise BadRequest(strings.VACATION_RANGE.format(max=VACATION_DAYS_PER_YEAR))
        running = [b for a, b in await self.store.vacations(user_id) if a <= now < b]
        if running:
            raise WrongPhase(strings.VACATION_ALREADY.format(until=f"<t:{int(max(running))}:f>"))
        left = await self.vacation_days_left(user_id)
        if days > left + 1e-9:
            raise BadRequest(strings.VACATION_ALLOWANCE.format(
                left=int(left), s="" if int(left) == 1 else "s", total=VACATION_DAYS_PER_YEAR))
        until = now + days * DAY
        await self.store.add_vacation(user_id, now, until)
        return until, left - days

    async def end_vacation(self, user_id: int) -> None:
        if not await self.store.end_vacations(user_id, self.clock()):
            raise WrongPhase(strings.VACATION_NONE)

    async def set_reminders(self, user_id: int, mode: str) -> None:
        if mode not in ("on", "off", "digest"):
            raise BadRequest(strings.BAD_OPTION.format(reason=f"reminders={mode!r}"))
        await self.store.set_reminder_mode(user_id, mode)

    async def may_talk(self, channel_id: int, user_id: int, guild_id: int | None) -> bool:
        """In a match thread whose server keeps spectators quiet, only players may talk."""
        row = await self.store.live_match_in(channel_id)
        if row is None or not row.in_thread:
            return True
        if (await self.store.guild_settings(guild_id))["spectators_talk"]:
            return True
        return row.seat_of(user_id) is not None

    async def _save(self, match: Match, **changes) -> MatchRow:
        try:
            return await self.store.save(match.id, match.row.version, now=self.clock(), **changes)
        except StaleVersion:
            raise StaleAction(strings.RACE_LOST) from None
