"""Time: the clock of the seat to move, reminders, digests, expiries and claims, vacations, and
how each player wants to be told."""

from __future__ import annotations

import asyncio
import calendar
import time
from dataclasses import dataclass
from typing import Any

from games import GameError, Outcome, Phrase, Termination, nphrase, phrase

from ..clocks import (
    MAX_SECONDS,
    MIN_SECONDS,
    Clock,
    DurationError,
    absolute_time,
    clock_for,
    parse_duration,
    relative_time,
)
from ..outbox import ClaimButton
from ..store import UNSET, MatchRow, SeatRow, Tx
from ..words import strings
from .core import (
    DAY,
    BadRequest,
    Context,
    Effects,
    Forbidden,
    Match,
    NotAPlayer,
    StaleAction,
    WrongPhase,
)
from .matches import Matches
from .moves import Moves

VACATION_DAYS_PER_YEAR = 30
TICK_BATCH = 100  # due matches handled per transaction; the loop yields between batches
REMINDER_MODES = ("on", "digest", "off")
NOTIFY_MODES = ("channel", "dm", "both")


def parse_time(text: str | None) -> Any:
    """A /play or settings time per move in seconds (None: no limit); UNSET when not given."""
    if text is None:
        return UNSET
    try:
        seconds = parse_duration(text)
    except DurationError:
        from games import shorten

        raise BadRequest(strings.BAD_DURATION, text=shorten(text).replace("`", "'")) from None
    if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise BadRequest(strings.DURATION_RANGE)
    return seconds


@dataclass(frozen=True)
class TickReport:
    checked: int = 0
    reminders: int = 0
    expiries: int = 0
    digests: int = 0


class Clocks:
    """The clock of the seat to move, the tick (reminders, expiries, digests), timeout claims,
    vacations and how each player wants to be told."""

    def __init__(self, ctx: Context, matches: Matches, moves: Moves):
        self.ctx = ctx
        self.matches = matches
        self.moves = moves

    async def clock_of(self, match: Match) -> Clock | None:
        """The clock of the seat to move, or None when the match has no time limit."""
        mover = match.to_move()
        if (mover is None or match.row.move_seconds is None
                or match.row.turn_started_at is None):
            return None
        return clock_for(match.row.move_seconds, match.row.turn_started_at, self.ctx.clock(),
                         await self.ctx.store.vacations(mover.user_id))

    # -- the tick --------------------------------------------------------------------------
    async def tick(self, *, batch: int = TICK_BATCH) -> TickReport:
        """Everything time has made due since the last tick (also after a restart): each
        reminder and expiry at most once per match and turn, digests once a day. Only due
        rows are read (an index on next_check_at), nothing is decoded, and the loop yields
        to other work between batches."""
        now = self.ctx.clock()
        report = TickReport()
        while True:
            checked = await self._check_clocks(now, batch)
            report = _add(report, checked)
            if checked.checked < batch:
                break
            await asyncio.sleep(0)
        while True:
            users = await self.ctx.store.digests_due(now, batch)
            for user_id in users:
                report = _add(report, TickReport(digests=await self._digest(user_id, now)))
            if len(users) < batch:
                break
            await asyncio.sleep(0)
        if report.reminders or report.expiries or report.digests:
            self.ctx.on_commit()
        return report

    async def _check_clocks(self, now: float, batch: int) -> TickReport:
        """One batch of due matches, read and locked in the transaction that claims their
        notices (another process's tick skips the rows this one holds, and sees its notices
        once it commits)."""
        reminders = expiries = 0
        async with self.ctx.store.transaction(background=True) as tx:
            rows = await tx.due_matches(now, batch, lock=True)
            if not rows:
                return TickReport()
            waiting = [row.waiting_on for row in rows if row.waiting_on is not None]
            vacations = await tx.vacations_of(waiting)
            prefs = await tx.users(waiting)
            effects = Effects(tx, now, batched=True)
            sent = await tx.claimed_notices([row.id for row in rows])
            claims: list[tuple[int, int, str]] = []
            checks: list[tuple[int, float | None]] = []

            def claim(match_id: int, turn: int, kind: str) -> bool:
                if (match_id, turn, kind) in sent:
                    return False
                sent.add((match_id, turn, kind))
                claims.append((match_id, turn, kind))
                return True

            for row in rows:
                mover = row.waiting_on
                if mover is None or row.move_seconds is None or row.turn_started_at is None:
                    checks.append((row.id, None))
                    continue
                clock = clock_for(row.move_seconds, row.turn_started_at, now,
                                  vacations.get(mover, []))
                turn = row.version
                if clock.expired:
                    if claim(row.id, turn, "expired"):
                        await self._expiry_notice(effects, row, mover)
                        expiries += 1
                    checks.append((row.id, None))
                    continue
                stage = clock.stage()
                if stage is not None and prefs[mover].reminders == "on":
                    if stage == "last":
                        claim(row.id, turn, "half")  # never after it
                    if claim(row.id, turn, stage):
                        await self._reminder(effects, row, mover, stage, clock)
                        reminders += 1
                checks.append((row.id, clock.next_check()))
            await tx.add_notices(claims, now)
            await tx.set_clock_checks(checks)
            await effects.flush()
        return TickReport(checked=len(rows), reminders=reminders, expiries=expiries)

    async def _expiry_notice(self, effects: Effects, row: MatchRow, absent_id: int) -> None:
        match = Match(row, _game(row.game), None)
        absent = next(s for s in row.seats if s.user_id == absent_id)
        others = [s for s in row.seats if s.user_id != absent_id]
        two = len(row.seats) == 2
        await effects.notice(match, phrase(
            strings.EXPIRED, absent=absent.name, match_id=row.id,
            mentions=tuple(f"<@{s.user_id}>" for s in others if s.user_id > 0),
            action=phrase(strings.ACTION_CLAIM if two else strings.ACTION_SKIP)),
            mention=[s.user_id for s in others if s.user_id > 0],
            buttons=[ClaimButton(row.version, skip=not two)],
            live="expiry")

    async def _reminder(self, effects: Effects, row: MatchRow, user_id: int, stage: str,
                        clock: Clock) -> None:
        match = Match(row, _game(row.game), None)
        template = strings.REMINDER_HALF if stage == "half" else strings.REMINDER_LAST
        await effects.dm(user_id, match, phrase(
            template, match_id=row.id, game=match.game.name, link=row.link,
            relative=relative_time(clock.due_at)), kind="reminder")

    async def _digest(self, user_id: int, now: float) -> int:
        sent = 0
        async with self.ctx.store.transaction(background=True) as tx:
            if not await tx.claim_digest(user_id, now, now + DAY):
                return 0  # not due (any more), or another process sent it
            lines: list[Phrase] = []
            waiting: list[tuple[float, Phrase]] = []
            vacations = await tx.vacations(user_id)
            for match_id in await tx.matches_waiting_on(user_id):
                row = await tx.get_match(match_id)
                if row is None or row.turn_started_at is None:
                    continue
                due: Phrase | str = ""
                if row.move_seconds is not None:
                    clock = clock_for(row.move_seconds, row.turn_started_at, now, vacations)
                    if clock.expired:
                        continue  # its time-up notice is in the channel already
                    due = phrase(strings.DUE_SUFFIX, relative=relative_time(clock.due_at))
                waiting.append((row.turn_started_at, phrase(
                    strings.DIGEST_LINE, match_id=row.id, game=_game(row.game).name,
                    link=row.link, since=relative_time(row.turn_started_at),
                    due=due)))
            if waiting:
                lines = [line for _, line in sorted(waiting, key=lambda w: w[0])]
                await Effects(tx, now).digest(
                    user_id, lines, nphrase(*strings.DIGEST_HEADER, len(lines)))
                sent = 1
        return sent

    # -- claims ----------------------------------------------------------------------------
    async def claim(self, match_id: int, user_id: int, *, expected_version: int) -> Match:
        """An opponent of a timed-out player claims the win (two seats) or skips the absent
        seat's turn (three or more)."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            claimer = self.ctx.check_active_player(match, user_id)
            if match.row.version != expected_version:
                raise StaleAction(strings.STALE_BOARD, ply=match.ply() + 1)
            absent = match.to_move()
            if absent is None or match.row.move_seconds is None \
                    or match.row.turn_started_at is None:
                raise WrongPhase(strings.NO_CLOCK, match_id=match_id)
            if absent.user_id == user_id:
                raise Forbidden(strings.CLAIM_OWN_TURN)
            clock = clock_for(match.row.move_seconds, match.row.turn_started_at, now,
                              await tx.vacations(absent.user_id))
            if not clock.expired:
                raise WrongPhase(strings.NOT_EXPIRED, name=absent.name, match_id=match_id,
                                 relative=relative_time(clock.due_at))
            effects = Effects(tx, now)
            if len(match.seats) == 2:
                outcome = Outcome((claimer,), Termination.TIMEOUT)
                match = await self.ctx.save(tx, match, now=now, status="finished",
                                        result={**outcome.to_json(), "claimed_by": user_id})
                await tx.void_offers(match.id)
                await self.matches.announce_end(tx, effects, match)
            else:
                match = await self._skip(tx, effects, match, absent, user_id, now)
        self.ctx.on_commit()
        return match

    async def _skip(self, tx: Tx, effects: Effects, match: Match, absent: SeatRow,
                    user_id: int, now: float) -> Match:
        game = match.game
        if not game.can_skip(match.state):
            raise WrongPhase(strings.CANNOT_SKIP, name=absent.name,
                             reason=phrase(strings.NOT_STARTED, match_id=match.id))
        try:
            after = game.skip(match.state)
        except GameError as exc:
            raise WrongPhase(strings.CANNOT_SKIP, name=absent.name, reason=exc.phrase) from None
        outcome = game.outcome(after)
        seq = match.row.version
        claimer = next(s.name for s in match.seats if s.user_id == user_id)
        match = await self.ctx.save(tx, match, now=now, state=after, clock=True,
                                status="finished" if outcome else None,
                                result=outcome.to_json() if outcome else None)
        await tx.append_log(match.id, seq, ply=game.ply(after) - 1, kind="skip",
                            notation="skip", actor_id=user_id, now=now)
        lines: list[Phrase] = [phrase(strings.CLAIMED_SKIP, name=claimer, absent=absent.name)]
        news: set[int] = set()
        match = await self.moves.roll(tx, match, now, lines, news)
        await self.moves.after_change(tx, effects, match, lines, previous=absent.user_id, news=news)
        return match

    # -- vacations and preferences ---------------------------------------------------------
    async def vacation_days_left(self, user_id: int) -> float:
        now = self.ctx.clock()
        start = calendar.timegm((time.gmtime(now).tm_year, 1, 1, 0, 0, 0))
        used = sum(max(0.0, min(b, start + 366 * DAY) - max(a, start))
                   for a, b in await self.ctx.store.vacations(user_id))
        return VACATION_DAYS_PER_YEAR - used / DAY

    async def start_vacation(self, user_id: int, days: int) -> tuple[float, float]:
        """Pause the user's clocks for `days`; returns (until, days left this year)."""
        now = self.ctx.clock()
        if not 1 <= days <= VACATION_DAYS_PER_YEAR:
            raise BadRequest(strings.VACATION_RANGE, max=VACATION_DAYS_PER_YEAR)
        running = [b for a, b in await self.ctx.store.vacations(user_id) if a <= now < b]
        if running:
            raise WrongPhase(strings.VACATION_ALREADY, until=absolute_time(max(running)))
        left = await self.vacation_days_left(user_id)
        if days > left + 1e-9:
            raise BadRequest(nphrase(*strings.VACATION_ALLOWANCE, int(left),
                                     total=VACATION_DAYS_PER_YEAR))
        until = now + days * DAY
        async with self.ctx.store.transaction() as tx:
            await tx.add_vacation(user_id, now, until)
        return until, left - days

    async def end_vacation(self, user_id: int) -> None:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            if not await tx.end_vacations(user_id, now):
                raise WrongPhase(strings.VACATION_NONE)
            await tx.check_clocks_of(user_id, now)

    async def set_reminders(self, user_id: int, mode: str) -> None:
        if mode not in REMINDER_MODES:
            raise BadRequest(strings.BAD_CHOICE, text=mode[:20],
                             choices=tuple(phrase(m) for m in REMINDER_MODES))
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            await tx.set_user(user_id, reminders=mode,
                              next_digest_at=now if mode == "digest" else None)

    async def set_notify(self, user_id: int, mode: str) -> None:
        if mode not in NOTIFY_MODES:
            raise BadRequest(strings.BAD_CHOICE, text=mode[:20],
                             choices=tuple(phrase(m) for m in NOTIFY_MODES))
        async with self.ctx.store.transaction() as tx:
            await tx.set_user(user_id, notify=mode)


def _add(a: TickReport, b: TickReport) -> TickReport:
    return TickReport(a.checked + b.checked, a.reminders + b.reminders,
                      a.expiries + b.expiries, a.digests + b.digests)


def _game(game_id: str) -> Any:
    from games import get_game

    return get_game(game_id)


__all__ = ["Clocks", "NOTIFY_MODES", "NotAPlayer", "REMINDER_MODES", "TickReport",
           "parse_time"]
