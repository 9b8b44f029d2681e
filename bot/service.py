"""What a match can do, with no Discord in sight: open, join, accept, start, move, resign, abort.

Commands and buttons resolve their arguments, call one of these, and render the result.
Every refusal is a `ServiceError` whose text is ready to show the user; nothing is changed
when one is raised.
"""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

from games import Game, GameError, Outcome, Termination, get_game
from games.base import reason_of

from . import strings
from .store import ChannelBusy, MatchRow, NewMove, SeatRow, StaleVersion, Store


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


def parse_options(text: str | None) -> dict[str, str]:
    """`pits=17 repetition=off` -> {'pits': '17', 'repetition': 'off'}."""
    options: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise BadRequest(strings.BAD_OPTION_SYNTAX.format(text=text))
        options[name.lower()] = value
    return options


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

    async def rebuild(self, match_id: int) -> Any:
        """The state replayed from the move log (the log is the source of truth)."""
        match = await self.get(match_id)
        state = match.game.new(match.row.seat_count, match.row.options)
        for move in await self.store.moves(match_id):
            state = match.game.play(state, move.notation)
        return state

    def legal_moves_for(self, match: Match, user_id: int) -> list[str]:
        mover = match.to_move()
        if mover is None or mover.user_id != user_id:
            return []
        return match.game.legal_notations(match.state)

    # -- opening -----------------------------------------------------------------------
    async def open_match(self, *, game_id: str, options: dict[str, str], host: Player,
                         opponent: Player | None, guild_id: int | None, channel_id: int,
                         in_thread: bool = False, first: str = "random") -> Match:
        game, resolved = self.check_opening(game_id=game_id, options=options, host=host,
                                            opponent=opponent, first=first)
        resolved = game.draw_options(resolved, self.dice)  # e.g. ICO's random start face
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
        if opponent is not None:
            # the invited player's seat is reserved by name so the lobby text can show it
            row = await self.store.save(
                row.id, row.version, now=self.clock(),
                seats=row.seats + (SeatRow(1, opponent.user_id, opponent.name),))
        return self._wrap(row)

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
                               state=match.game.to_json(state))
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
            move=NewMove(game.ply(before), canonical, user_id))
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
                                   move=NewMove(game.ply(match.state), notation, None))
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

    async def _save(self, match: Match, **changes) -> MatchRow:
        try:
            return await self.store.save(match.id, match.row.version, now=self.clock(), **changes)
        except StaleVersion:
            raise StaleAction(strings.RACE_LOST) from None
