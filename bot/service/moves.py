"""Playing: a move, the die rolls it makes due, and what players are told, in one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import Answer, GameError, Phrase, Step, phrase

from ..store import LiveMessage, Moved, MoveRow, Tx
from ..store.db import Conflict
from ..words import strings
from .conditional import Conditionals
from .core import (
    DAY,
    ConfirmRepeat,
    Context,
    Effects,
    IllegalMove,
    Match,
    ServiceError,
    StaleAction,
    Via,
    WrongPhase,
    refusal,
)
from .matches import Matches

# a typed move that repeats the mover's own move of less than this many seconds ago (legal again:
# a bonus turn) is asked about first: the first one's answer may have been lost, and the player
# retyping it would otherwise play it twice
REPEAT_WINDOW = 120.0


class _SeenStale(Exception):
    """The match a move was played on had moved on by the time it was written."""


@dataclass(frozen=True)
class MoveResult:
    match: Match
    notation: str  # full notation (the log, the mover)
    public: str  # what the channel may see
    ply: int  # the ply the move was played at
    already: bool = False  # a retry of a move this player had already made
    moved: Moved | None = None  # what live pages are handed once it is committed


def effective_log(entries: list[MoveRow]) -> list[MoveRow]:
    """The log with taken-back entries removed (a takeback removes the entry before it)."""
    effective: list[MoveRow] = []
    for entry in entries:
        if entry.kind == "takeback":
            if effective:
                effective.pop()
        else:
            effective.append(entry)
    return effective


WEB_TOKENS_AT_ONCE = 500  # matches given a web token per transaction at start (`recover`)


class Moves:
    """Playing a move, the die rolls it makes due, the board players are shown after a change,
    and what recovery at start finishes."""

    def __init__(self, ctx: Context, matches: Matches):
        self.ctx = ctx
        self.matches = matches
        self.conditionals = Conditionals(ctx)

    def legal_moves_for(self, match: Match, user_id: int) -> list[str]:
        mover = match.to_move()
        if mover is None or mover.user_id != user_id:
            return []
        return match.game.legal_notations(match.state)

    def move_input(self, match: Match, user_id: int, answers: tuple[Answer, ...], *,
                   expected_ply: int | None = None) -> tuple[Step | str, tuple[Answer, ...]]:
        """The next question of the mover's step-by-step entry after `answers` (steps with a
        single option are answered at once), or the finished notation; with the answers
        actually used. Refusals are ServiceErrors."""
        self.ctx.check_turn(match, user_id, expected_ply=expected_ply)
        answers = tuple(answers)
        while True:
            try:
                step = match.game.move_input(match.state, answers)
            except GameError as exc:
                raise IllegalMove(strings.ILLEGAL_CHOICE, reason=exc.phrase) from None
            if isinstance(step, str) or len(step.options) > step.picks:
                return step, answers
            answers = answers + (tuple(o.value for o in step.options),)

    async def play(self, match_id: int, user_id: int, text: str, *,
                   expected_ply: int | None = None, interaction_id: int | None = None,
                   answered_on: int | None = None, seen: Match | None = None,
                   via: Via | None = None, confirm_repeat: bool = False) -> MoveResult:
        """Play `text` for `user_id`. A repeat of a move this player already made (the same
        interaction delivered twice, or the same move sent again for the same ply because the
        answer was lost) is reported as `already`, never played twice. `answered_on`: the
        board message whose components the move's answer removes (a click on it), so the
        outbox does not edit it again (`board_kept_live` undoes this if the answer fails).

        The move is one `Store.atomic` body, which the store may run more than once (on
        SQLite, first ahead of its write lock). `seen`: the match as the caller just read it
        (committed data); the body's first run plays on it without reading the match again:
        the match's UPDATE checks its version, so a move that commits was played on the match
        as it is. If the match had moved on, or the move is refused, the body runs again on
        the match as the transaction reads it, so that no answer rests on an old read.

        `via`: the interaction the move answers; its board (and an AI's reply) may go out as
        that interaction's follow-up. `confirm_repeat` (a typed move): refuse with
        `ConfirmRepeat` a move that repeats the mover's own move of a moment ago."""
        guard = REPEAT_WINDOW if confirm_repeat else None
        now = self.ctx.clock()
        start = [seen] if seen is not None and seen.id == match_id and not (
            seen.status == "active" and seen.game.is_chance(seen.state)) else []

        async def move(tx: Tx) -> MoveResult:
            hint = start.pop() if start else None  # the caller's read: the first run only
            if hint is None:
                return await self._move(tx, await self.ctx.locked(tx, match_id), user_id, text,
                                        expected_ply, interaction_id, answered_on, now, via,
                                        guard, stale=None)
            try:
                return await self._move(tx, hint, user_id, text, expected_ply, interaction_id,
                                        answered_on, now, via, guard, stale=_SeenStale())
            except ServiceError:
                raise _SeenStale() from None

        try:
            result = await self.ctx.store.atomic(move, again_on=(_SeenStale,))
        except (ServiceError, Conflict):
            # an interaction delivered again is looked up only when its move fails (the
            # log's unique interaction id refuses it at the latest): not on every move
            if interaction_id is not None:
                found = await self.ctx.store.move_by_interaction(interaction_id)
                if found is not None:
                    return await self._already(found[0], found[1])
            raise
        if not result.already:
            self.ctx.moves_played += 1
            assert result.moved is not None  # a move played says what it wrote
            self.ctx.on_moved(result.moved)
        return result

    async def _move(self, tx: Tx, match: Match, user_id: int, text: str,
                    expected_ply: int | None, interaction_id: int | None,
                    answered_on: int | None, now: float, via: Via | None,
                    guard: float | None, stale: Exception | None) -> MoveResult:
        """The move on `match` as `tx` sees it (or as the caller read it: then the match's
        UPDATE fails with `stale` if it has moved on)."""
        if expected_ply is not None and match.state is not None and expected_ply < match.ply():
            entry = await self._played_before(tx, match, user_id, expected_ply, text)
            if entry is not None:
                return MoveResult(match, entry.notation, entry.notation, entry.ply, True)
        since = match.row.version
        effects = Effects(tx, now, via=via)
        lines: list[Phrase] = []
        news: set[int] = set()
        if match.status == "active" and match.game.is_chance(match.state):
            match = await self.roll(tx, match, now, lines, news)  # left pending by a crash
        mover = self.ctx.check_turn(match, user_id, expected_ply=expected_ply)
        game, before = match.game, match.state
        try:
            move = game.parse_move(before, text)
            canonical = game.format_move(before, move)
            public = game.public_notation(before, move)
            after = game.apply(before, move)
        except GameError as exc:
            raise IllegalMove(refusal(exc, text)) from None
        if guard is not None and await self._repeats(tx, match, user_id, canonical, now - guard):
            raise ConfirmRepeat(match.id, canonical, match.ply())
        lines.append(self.move_line(mover.name, public, game.move_effects(before, move, after)))
        news |= set(game.private_news(before, after))
        outcome = game.outcome(after)
        seq = match.row.version
        # no die roll follows: this version's board is the one `after_change` sends, so
        # its number goes into the same UPDATE (a statement saved on every move)
        board = {} if outcome is None and game.is_chance(after) else {"board_version": seq + 1}
        match = await self.ctx.save(tx, match, now=now, state=after, clock=True,
                                    status="finished" if outcome else None,
                                    result=outcome.to_json() if outcome else None,
                                    stale=stale, **board)
        await tx.append_log(match.id, seq, ply=game.ply(before), kind="move",
                            notation=canonical, actor_id=user_id, now=now,
                            interaction_id=interaction_id)
        await tx.void_offers(match.id)
        if answered_on is not None:
            await tx.forget_live_message(match.id, answered_on)
        match = await self.roll(tx, match, now, lines, news)
        # a reply queued by the opponent for exactly this move is played now, in this
        # transaction (and the queues it does not match are cleared)
        match, replier = await self.conditionals.respond(tx, match, user_id, game.ply(before),
                                                         canonical, now, lines, effects)
        await self.after_change(tx, effects, match, lines, previous=replier or user_id,
                                news=news)
        return MoveResult(match, canonical, public, game.ply(before), moved=Moved(
            match.row, since, tuple(tx.logged), dict(tx.vacations_read)))

    async def move_made_at(self, match_id: int, user_id: int, ply: int) -> MoveRow | None:
        """This user's move at `ply`, if they made one (and it was not taken back): what a
        click on a board of that ply did, when it reaches the bot after the move (the same
        click in two processes, or a click replayed after the board was answered)."""
        for entry in effective_log(await self.ctx.store.moves(match_id)):
            if entry.ply == ply and entry.kind == "move":
                return entry if entry.actor_id == user_id else None
        return None

    @staticmethod
    async def _repeats(tx: Tx, match: Match, user_id: int, canonical: str,
                       since: float) -> bool:
        """Whether the log's newest entry is this user's `canonical`, played at the ply just
        before this one and after `since`."""
        last = await tx.last_entry(match.id)
        return (last is not None and last.kind == "move" and last.actor_id == user_id
                and last.notation == canonical and last.ply == match.ply() - 1
                and last.played_at >= since)

    async def board_kept_live(self, match: Match, message_id: int, channel_id: int, *,
                              retired: str | None = None) -> None:
        """The answer that was to remove a clicked board's components failed: the board is
        live again, and the outbox retires it (after the board of the move); `retired`: what
        a V2 board keeps then (`LiveMessage.retired`)."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            await tx.add_live_message(
                LiveMessage(message_id, channel_id, match.id, "board", 0, None,
                            retired=retired), now)
            await Effects(tx, now).retire(match, below_version=match.row.version)
        self.ctx.on_commit()

    @staticmethod
    def move_line(name: str, notation: str, effects: tuple[Phrase, ...]) -> Phrase:
        if effects:
            return phrase(strings.MOVE_PLAYED_EFFECTS, name=name, notation=notation,
                          effects=effects)
        return phrase(strings.MOVE_PLAYED, name=name, notation=notation)

    async def _already(self, match_id: int, entry: MoveRow) -> MoveResult:
        match = await self.ctx.get(match_id)
        return MoveResult(match, entry.notation, entry.notation, entry.ply, True)

    async def _played_before(self, tx: Tx, match: Match, user_id: int, ply: int,
                             text: str) -> MoveRow | None:
        """The log entry of this user's move at `ply`, if `text` is that move."""
        try:
            canonical = match.game.format_move(match.state,
                                               match.game.parse_move(match.state, text))
        except GameError:
            return None
        for entry in effective_log(await tx.moves(match.id)):
            if entry.ply == ply and entry.kind == "move":
                if entry.actor_id == user_id and entry.notation == canonical:
                    return entry
                return None
        return None

    async def roll(self, tx: Tx, match: Match, now: float, lines: list[Phrase],
                    news: set[int]) -> Match:
        """Make the chance moves that are due (die rolls), each logged with no actor, so that
        replaying the log reproduces the match."""
        game = match.game
        while match.status == "active" and game.is_chance(match.state):
            before = match.state
            move = self.ctx.dice.choice(game.legal_moves(before))
            notation = game.format_move(before, move)
            after = game.apply(before, move)
            outcome = game.outcome(after)
            seq = match.row.version
            # as for a move: the last roll's version is the board `after_change` sends
            board: dict[str, Any] = ({} if outcome is None and game.is_chance(after)
                                     else {"board_version": seq + 1})
            match = await self.ctx.save(tx, match, now=now, state=after, clock=True,
                                    status="finished" if outcome else None,
                                    result=outcome.to_json() if outcome else None, **board)
            await tx.append_log(match.id, seq, ply=game.ply(before), kind="move",
                                notation=notation, actor_id=None, now=now)
            effects = game.move_effects(before, move, after)
            lines.append(phrase(strings.ROLL_LINE, effects=effects or (notation,)))
            news |= set(game.private_news(before, after))
        return match

    async def after_change(self, tx: Tx, effects: Effects, match: Match, lines: list[Phrase],
                           *, previous: int | None, news: set[int] = frozenset(),  # type: ignore[assignment]
                           lead: Phrase | None = None) -> None:
        """The new board (its mention only for a player whose turn just began), the turn DM,
        and private views for the seats that learnt something hidden."""
        if match.status == "finished":
            await self.matches.announce_end(tx, effects, match, lines, lead=lead)
            return
        mention, _ = await self.matches.announce_turn(tx, effects, match, previous)
        await effects.board(match, lines=lines, lead=lead, mention=mention)
        for seat in sorted(news):
            row = match.row.user_at(seat)
            if row is not None:
                await effects.dm(row.user_id, match, self.private_text(match), picture_seat=seat,
                                 kind="private", fallback="note")

    @staticmethod
    def private_text(match: Match) -> Phrase:
        return phrase(strings.PRIVATE_VIEW, match_id=match.id, game=match.game.name,
                      link=match.row.link)

    async def repost_board(self, match_id: int) -> Match:
        """Post the current board again for everyone (`/board public:True`); it becomes the
        live board and the older ones lose their components."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if match.state is None:
                raise WrongPhase(strings.NOT_STARTED, match_id=match.id)
            await Effects(tx, now).board(match, lead=phrase(
                strings.BOARD_HEADER, match_id=match.id, game=match.game.name, ply=match.ply()),
                ping_all_at_end=False)
        self.ctx.on_commit()
        return match

    # -- recovery at start ---------------------------------------------------------------
    async def recover(self) -> int:
        """After a crash or an upgrade: a die roll left pending is rolled, the clock columns
        of old rows are filled in, and a match whose latest state never had its board sent
        gets one; matches opened before web pages existed get their page's token. Returns how
        many matches needed something (tokens aside)."""
        now = self.ctx.clock()
        while True:
            async with self.ctx.store.transaction(background=True) as tx:
                given = await tx.give_web_tokens(WEB_TOKENS_AT_ONCE)
            if given < WEB_TOKENS_AT_ONCE:
                break
        fixed = await self.matches.abandon_placeholders(now - 300)
        for match_id in await self.ctx.store.unsettled_matches(now - DAY):
            try:
                async with self.ctx.store.transaction() as tx:
                    match = await self.ctx.locked(tx, match_id)
                    fixed += await self._settle(tx, match, now)
            except StaleAction:
                continue
        if fixed:
            self.ctx.on_commit()
        return fixed

    async def _settle(self, tx: Tx, match: Match, now: float) -> int:
        effects = Effects(tx, now)
        if match.status == "active" and match.state is not None:
            if match.game.is_chance(match.state):
                lines: list[Phrase] = []
                news: set[int] = set()
                match = await self.roll(tx, match, now, lines, news)
                await self.after_change(tx, effects, match, lines, previous=None, news=news)
                return 1
            if match.row.waiting_on != match.waiting_on():
                await tx.set_waiting_on(match.id, match.waiting_on())
                if match.row.move_seconds is not None:
                    await tx.set_clock_check(match.id, now)
        if match.row.board_version != match.row.version and match.state is not None:
            mention: list[Any] = []
            if match.status == "active":
                mention, _ = await self.matches.announce_turn(tx, effects, match, previous=None)
            await effects.board(match, lead=phrase(strings.REPOSTED), mention=mention)
            return 1
        return 0
