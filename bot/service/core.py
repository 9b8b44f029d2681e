"""What every part of the service shares: refusals, the Match view of a stored row, and the
effects a change writes to the outbox in its own transaction."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games import Game, GameError, Outcome, Phrase, Termination, get_game, nphrase, phrase, shorten

from .. import outbox, ratings
from ..ai import is_ai
from ..clocks import HALF
from ..outbox import Via
from ..store import MatchRow, Moved, SeatRow, Store, Tx
from ..words import strings

DAY = 86400.0


class ServiceError(Exception):
    """A refusal with a user-facing message (a Phrase the bot translates)."""

    def __init__(self, message: Phrase | str, /, **fields: Any):
        self.phrase = message if isinstance(message, Phrase) else phrase(message, **fields)
        super().__init__(str(self.phrase))


class NotFound(ServiceError): ...
class NotAPlayer(ServiceError): ...
class NotYourTurn(ServiceError): ...
class IllegalMove(ServiceError): ...
class StaleAction(ServiceError): ...
class Forbidden(ServiceError): ...
class WrongPhase(ServiceError): ...
class BadRequest(ServiceError): ...


class ConfirmRepeat(ServiceError):
    """A typed move that repeats the mover's move of a moment ago, legal again (a bonus
    turn): it may be a retry of a move whose answer was lost, so it waits for a yes."""

    def __init__(self, match_id: int, notation: str, ply: int):
        super().__init__(strings.CONFIRM_REPEAT, notation=notation, match_id=match_id)
        self.match_id, self.notation, self.ply = match_id, notation, ply


class AlreadyOpen(ServiceError):
    """A retried /play found the match it already opened."""

    def __init__(self, match: Match):
        if match.row.channel_id < 0:  # its thread is still being made
            super().__init__(strings.ALREADY_OPENING, match_id=match.id,
                             link=f"<#{match.row.parent_channel_id}>")
        else:
            super().__init__(strings.ALREADY_OPEN, match_id=match.id,
                             link=match.row.link)
        self.match = match


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

    def waiting_on(self) -> int | None:
        """The human the match waits on (an AI seat is never timed or reminded)."""
        mover = self.to_move()
        return None if mover is None or is_ai(mover.user_id) else mover.user_id

    def outcome(self) -> Outcome | None:
        if self.row.status == "finished" and self.row.result is not None:
            return Outcome.from_json(self.row.result)
        return None

    def ply(self) -> int:
        return 0 if self.state is None else self.game.ply(self.state)

    def observe(self, viewer: int | None) -> Any:
        return self.game.observe(self.state, viewer)


def wrap(row: MatchRow) -> Match:
    game = get_game(row.game)
    state = None if row.state is None else game.from_json(row.state)
    return Match(row, game, state)


def result_phrase(match: Match) -> Phrase | None:
    """How a finished match ended, in words: the platform's endings (resignation, a timeout
    claim, an agreed draw) or the game's own."""
    result = match.row.result
    outcome = match.outcome()
    if result is None or outcome is None:
        return None
    names = match.names()
    if outcome.reason is Termination.RESIGNATION:
        resigned = match.row.seat_of(int(result.get("resigned", 0)))
        who = names[resigned] if resigned is not None else "?"
        winners = " & ".join(names[w] for w in outcome.winners if w < len(names))
        template = strings.RESIGNED_WIN if len(outcome.winners) == 1 else strings.RESIGNED_WIN_MANY
        return phrase(template, name=who, winners=winners)
    if outcome.reason is Termination.TIMEOUT:
        claimer = outcome.winners[0]
        absent = [n for i, n in enumerate(names) if i != claimer]
        return phrase(strings.TIMEOUT_WIN, absent=" & ".join(absent), claimer=names[claimer])
    if outcome.reason is Termination.AGREEMENT:
        return phrase(strings.AGREED_DRAW)
    if match.state is not None:
        return match.game.describe_outcome(match.state)
    return phrase(strings.RESULT_DRAW) if outcome.draw else None


def refusal(error: GameError, text: str) -> Phrase:
    """A game's refusal of `text`, quoting the input once and shortly."""
    from games import InvalidMoveError

    template = strings.NOT_A_MOVE if isinstance(error, InvalidMoveError) else strings.ILLEGAL_MOVE
    return phrase(template, text=shorten(text, 40).replace("`", "'"), reason=error.phrase)


def moves_count(n: int) -> Phrase:
    return nphrase(*strings.MOVES_COUNT, n)


def people(user_ids: Iterable[int]) -> list[int]:
    """Whom a message may ping: Discord users only, once each. An AI seat's id is not a
    snowflake, and Discord refuses a message whose allowed_mentions name one (50035)."""
    return sorted({u for u in user_ids if not is_ai(u)})


class Effects:
    """What players must see after a change: outbox rows (`bot/outbox.py`) written in the
    change's transaction, each in its lane (see there)."""

    def __init__(self, tx: Tx, now: float, *, batched: bool = False, via: Via | None = None):
        self.tx = tx
        self.now = now
        # the interaction answered: a move's (its board follows it up), or any interaction
        # where the bot reaches the channel only through interactions (outbox.ANSWERING)
        self.via = via or outbox.ANSWERING.get()
        self.count = 0
        # batched: rows are kept and written in one statement by `flush` (the clock tick
        # writes a hundred at a time; one round trip each would cost more than the work)
        self.pending: list[tuple[str, str, dict[str, Any]]] | None = [] if batched else None

    async def _put(self, payload: outbox.Payload) -> None:
        kind, data = outbox.encode(payload)
        if self.pending is not None:
            self.pending.append((payload.lane, kind, data))
        else:
            await self.tx.enqueue_many([(payload.lane, kind, data)], self.now)
        self.count += 1

    async def flush(self) -> None:
        """Write the kept rows, in the order they were made (the outbox id keeps it)."""
        if self.pending:
            await self.tx.enqueue_many(self.pending, self.now)
            self.pending.clear()

    async def board(self, match: Match, *, lines: Sequence[Phrase] = (), lead: Phrase | None = None,
                    mention: Iterable[int] = (), reposted: bool = False,
                    ping_all_at_end: bool = True) -> None:
        """The board of the match as it is now, posted in its channel; a final board
        mentions every player (once: `ping_all_at_end` is off when it is shown again)."""
        row = match.row
        mover = match.to_move()
        vacation_until = None
        due_at = None
        if mover is not None and row.move_seconds is not None and row.turn_started_at is not None:
            from ..clocks import clock_for
            clock = clock_for(row.move_seconds, row.turn_started_at, self.now,
                              await self.tx.vacations(mover.user_id))
            due_at = clock.due_at
            vacation_until = clock.on_vacation_until
        final = match.status == "finished"
        players = [s.user_id for s in match.seats]
        await self._put(outbox.Board(
            match_id=row.id, version=row.version, ply=match.ply(),
            channel_id=row.channel_id, parent_channel_id=row.parent_channel_id,
            game=match.game.id, seats=_seats(match), state=row.state, lead=lead,
            lines=tuple(lines),
            mention=tuple(people(players if final and ping_all_at_end else mention)),
            turn=mover.user_id if mover else None,
            turn_note=match.game.turn_note(match.state) if mover is not None else None,
            due_at=due_at, vacation_until=vacation_until,
            result=result_phrase(match) if final else None,
            final=final, reposted=reposted,
            scores=tuple(match.game.scores(match.state) or ()) if match.state else (),
            ratings=await self._rating_lines(match) if final else (),
            via=self._via(row.channel_id)))
        if row.board_version != row.version:  # else written with the change itself
            await self.tx.set_board_version(row.id, row.version)

    def _via(self, channel_id: int) -> Via | None:
        """The interaction to answer through, if it came from the channel the row posts in."""
        if self.via is None or self.via.channel_id != channel_id:
            return None
        return self.via

    async def _rating_lines(self, match: Match) -> tuple[tuple[int, str, str, int], ...]:
        """(user, rating before, after, change) of a finished rated match, as shown."""
        lines = []
        for change in await self.tx.rating_changes(match.id):
            old = ratings.Skill(change.mu_before, change.sigma_before)
            new = ratings.Skill(change.mu_after, change.sigma_after)
            lines.append((change.user_id, old.text(), new.text(), new.display - old.display))
        return tuple(lines)

    async def dm(self, user_id: int, match: Match, text: Phrase, *,
                 picture_seat: int | None = None, kind: str = "info",
                 fallback: str | None = None, board_version: int | None = None) -> None:
        """A direct message about a match; `picture_seat`: attach that seat's private view.
        `fallback` says what the channel gets when the DM can't be delivered: "note" (a
        line without a ping) or "mention" (the turn notice as a mention). With
        `board_version`, the field {board} links to that version's board, so the DM waits
        in the channel's lane until that board is posted. An AI seat has no DMs: nothing is
        queued for it (Discord would refuse the user id, and its view reaches only its search)."""
        if is_ai(user_id):
            return
        await self._put(outbox.Dm(
            user_id=user_id, match_id=match.id, channel_id=match.row.channel_id,
            game=match.game.id, seats=_seats(match), text=text, what=kind, fallback=fallback,
            picture=None if picture_seat is None else outbox.Picture(
                match.row.state, picture_seat, match.row.version),
            board_version=board_version))

    async def ai_turn(self, match: Match, user_id: int) -> None:
        """The AI seat `user_id` is to move: its search and move follow from the outbox (in
        a lane of its own, so boards never wait for it), after a restart too."""
        await self._put(outbox.AiTurn(
            match_id=match.id, user_id=user_id, ply=match.ply(), version=match.row.version,
            via=self._via(match.row.channel_id)))

    async def notice(self, match: Match, text: Phrase, *, mention: Iterable[int] = (),
                     buttons: Sequence[outbox.NoticeButton] = (),
                     live: str | None = None, offer_id: int | None = None) -> None:
        """A message in the match's channel (expiry, offers, answers); with buttons, it is a
        live message retired once the match moves on."""
        await self._put(outbox.Notice(
            match_id=match.id, channel_id=match.row.channel_id,
            parent_channel_id=match.row.parent_channel_id, seats=_seats(match), text=text,
            mention=tuple(people(mention)),
            buttons=tuple(buttons),
            live=live, version=match.row.version, offer_id=offer_id,
            via=self._via(match.row.channel_id) if match.row.by_interactions else None))

    async def lobby(self, match: Match, mention: Iterable[int] = ()) -> None:
        """The lobby or invitation message, with its buttons."""
        await self._put(outbox.Lobby(
            match_id=match.id, channel_id=match.row.channel_id,
            parent_channel_id=match.row.parent_channel_id, version=match.row.version,
            mention=tuple(people(mention)),
            via=self._via(match.row.channel_id) if match.row.by_interactions else None))

    async def retire(self, match: Match, *, below_version: int | None = None,
                     offer_ids: Sequence[int] = (), text: Phrase | None = None) -> None:
        """Remove the components of a match's live messages (all older than `below_version`,
        or those of these offers); `text` replaces their content."""
        await self._put(outbox.Retire(match_id=match.id, below_version=below_version,
                                      offer_ids=tuple(offer_ids), text=text))

    async def post(self, payload: outbox.Payload) -> None:
        """Any other row (a tournament's: `outbox.TourPost`, `outbox.TourMatch`)."""
        await self._put(payload)

    async def digest(self, user_id: int, lines: Sequence[Phrase], header: Phrase) -> None:
        await self._put(outbox.Digest(user_id=user_id, header=header, lines=tuple(lines)))


def _seats(match: Match) -> tuple[tuple[int, str], ...]:
    return tuple((s.user_id, s.name) for s in match.seats)


class Context:
    """What every part of the service shares: the store, the clock, the random sources, what
    to call once a change is committed (the delivery worker's wake-up); and the reads, checks
    and saving of a match that all of them use."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 rng: Any = None, dice: random.Random | None = None,
                 on_commit: Callable[[], None] | None = None):
        self.store = store
        self.clock = clock
        self.rng = rng or random.SystemRandom()  # seat order
        self.dice = dice or secrets.SystemRandom()  # chance moves: unpredictable, then logged
        self.on_commit = on_commit or (lambda: None)
        # called instead of `on_commit` once a move is committed, with the match's row as the
        # move wrote it, the log entries and vacations it wrote and read: live web pages show
        # the new version without reading any of it back
        self.on_moved: Callable[[Moved], None] = lambda moved: self.on_commit()
        # called once an analysis is queued (the analysis runner's wake-up: not on every
        # commit, where its claim would take the write lock from players' moves)
        self.on_analysis_queued: Callable[[], None] = lambda: None
        self.moves_played = 0  # by this process, since it started (the metrics read it)
        # called in the transaction that ends a match, after its final board is written
        # (tournaments record the result there): (tx, effects, match)
        self.end_hooks: list[Callable[[Tx, Effects, Match], Awaitable[None]]] = []

    # -- reading -----------------------------------------------------------------------
    async def get(self, match_id: int) -> Match:
        row = await self.store.get_match(match_id)
        if row is None:
            raise NotFound(strings.NO_SUCH_MATCH, match_id=match_id)
        return wrap(row)

    async def in_channel(self, channel_id: int) -> Match:
        row = await self.store.live_match_in(channel_id)
        if row is None:
            raise NotFound(strings.NO_MATCH_HERE)
        return wrap(row)

    async def live_matches_of(self, user_id: int) -> list[Match]:
        return [wrap(row) for row in await self.store.live_matches_of(user_id)]

    async def finished_matches_of(self, user_id: int, limit: int = 10) -> list[Match]:
        return [wrap(row) for row in await self.store.finished_matches_of(user_id, limit)]

    @staticmethod
    async def locked(tx: Tx, match_id: int) -> Match:
        row = await tx.lock_match(match_id)
        if row is None:
            raise NotFound(strings.NO_SUCH_MATCH, match_id=match_id)
        return wrap(row)

    # -- checks ------------------------------------------------------------------------
    @staticmethod
    def check_live(match: Match) -> None:
        if match.status == "finished":
            raise WrongPhase(strings.MATCH_OVER, match_id=match.id)
        if match.status == "aborted":
            raise WrongPhase(strings.MATCH_ABORTED, match_id=match.id)

    def check_active_player(self, match: Match, user_id: int) -> int:
        self.check_live(match)
        if match.status != "active":
            raise WrongPhase(strings.NOT_STARTED, match_id=match.id)
        seat = match.row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(strings.NOT_A_PLAYER, match_id=match.id)
        return seat

    def check_turn(self, match: Match, user_id: int, *, expected_ply: int | None = None) -> SeatRow:
        """The mover's seat, or the reason this user cannot move now."""
        self.check_active_player(match, user_id)
        if expected_ply is not None and expected_ply != match.ply():
            raise StaleAction(strings.STALE_BOARD, ply=match.ply() + 1)
        mover = match.to_move()
        if mover is None:
            raise NotYourTurn(strings.NOT_YOUR_TURN_ROLL, match_id=match.id)
        if mover.user_id != user_id:
            raise NotYourTurn(strings.NOT_YOUR_TURN, match_id=match.id, name=mover.name)
        return mover

    # -- writing -------------------------------------------------------------------------
    def clock_columns(self, match: Match, now: float) -> dict[str, Any]:
        """The indexed clock columns of a match in this state: who it waits on and when the
        tick should first look at it."""
        waiting = match.waiting_on() if match.status == "active" else None
        check = None
        if waiting is not None and match.row.move_seconds is not None:
            check = now + match.row.move_seconds * HALF
        return {"waiting_on": waiting, "next_check_at": check, "turn_started_at": now}

    async def save(self, tx: Tx, match: Match, *, now: float, state: Any = None,
                   clock: bool = False, stale: Exception | None = None,
                   **changes: Any) -> Match:
        """Write a change of `match` (to `state` if given) and return the new Match. With
        `clock`, the turn starts now: the clock columns are recomputed. If the match moved
        on meanwhile, the transaction fails with `stale` (by default: the race is lost)."""
        game = match.game
        new_state = match.state if state is None else state
        status = changes.get("status") or match.status
        if clock:  # whose turn it is by the seats as they are after this change
            preview = Match(_with_status(match.row, status, changes.get("seats")), game,
                            new_state)
            changes.update(self.clock_columns(preview, now))
        finishing = status == "finished" and match.status != "finished"
        if finishing:
            changes.setdefault("finished_at", now)
            changes.setdefault("waiting_on", None)
            changes.setdefault("next_check_at", None)
            changes.setdefault("plies", game.ply(new_state) if new_state is not None else 0)
        if status == "aborted":
            changes.setdefault("waiting_on", None)
            changes.setdefault("next_check_at", None)
        encoded = None if state is None else game.to_json(state)
        # the state written is `new_state` (states are immutable, and the codec's round trip
        # is exact: tests/test_conformance.py) so it is not decoded again from the row
        saved = Match(await tx.rewrite_match(match.row, now=now, state=encoded,
                                             stale=stale or StaleAction(strings.RACE_LOST),
                                             **changes), game, new_state)
        if finishing:
            await self.rate(tx, saved, now)
        if finishing or (status == "aborted" and match.status != "aborted"):
            await tx.clear_conditional_moves(match.id)  # replies to a match that is over
        return saved

    @staticmethod
    async def rate(tx: Tx, match: Match, now: float) -> None:
        """A finished match's rating changes, in the transaction that finished it (so a
        retried or replayed finish can never count twice: the match finishes once)."""
        outcome = match.outcome()
        user_ids = [s.user_id for s in match.seats]
        if outcome is None or not ratings.counts(rated=match.row.rated, user_ids=user_ids,
                                                 outcome=outcome, plies=match.ply()):
            return
        scores = match.game.scores(match.state) if match.state is not None else None
        places = ratings.places(outcome, len(user_ids), scores)
        await tx.lock_ratings()
        current = await tx.skills(user_ids, match.game.id)
        before = [ratings.Skill(r.mu, r.sigma) if (r := current.get(uid)) is not None
                  else ratings.Skill.new() for uid in user_ids]
        after = ratings.rate(before, places)
        await tx.record_ratings(match.id, match.game.id, match.row.guild_id, [
            (seat.user_id, seat.name, place, old.mu, old.sigma, new.mu, new.sigma)
            for seat, place, old, new in zip(match.seats, places, before, after, strict=True)],
            now)


def _with_status(row: MatchRow, status: str, seats: Any = None) -> MatchRow:
    from dataclasses import replace

    return replace(row, status=status, seats=row.seats if seats is None else tuple(seats))
