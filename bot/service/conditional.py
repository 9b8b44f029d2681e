"""Conditional moves: "if they play X, I play Y", queued by the player who just moved, in
two-player matches without hidden information or chance (what each game declares in its
`GameInfo`; no game is named here).

A player's queue is a line of moves from the match's current ply (`ConditionalRow`): the
opponent's move, then the reply, pair after pair. A "move" here is a whole turn: in a game
where a player may move again (a bonus turn), X and Y are each every ply of that turn. The
opponent's next ply either is the line's head (taken off; once the opponent's turn is over,
the reply is played at once, in the same transaction as their move, through the same saving
and logging as any move) or clears the queue. A takeback clears it too. The pair being
entered (`draft`) is kept beside the line, so that entering it survives a restart as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import GameError, Phrase, phrase

from ..store import ConditionalRow, Tx
from ..words import strings
from .core import (
    BadRequest,
    Context,
    Effects,
    IllegalMove,
    Match,
    StaleAction,
    WrongPhase,
    refusal,
)

MAX_PLIES = 24  # in a queue (line and draft): a few pairs, even with bonus turns


def eligible(match: Match) -> bool:
    """Two players, no hidden information, no chance: a reply can be decided in advance."""
    info = match.game.info
    return len(match.row.seats) == 2 and not info.hidden_information and not info.chance


@dataclass(frozen=True)
class Pair:
    theirs: tuple[str, ...]
    mine: tuple[str, ...]


@dataclass(frozen=True)
class ConditionalView:
    """A player's queue as they see it: complete pairs, the pair being entered, and the
    position after both, where the next ply is entered (by `mover`'s seat)."""

    match: Match
    user_id: int
    seat: int
    line: tuple[str, ...]
    draft: tuple[str, ...]
    position: Any
    pairs: tuple[Pair, ...]
    draft_pair: Pair

    @property
    def size(self) -> int:
        return len(self.line) + len(self.draft)

    @property
    def over(self) -> bool:
        """No further ply can be entered (the line ends the game, or the queue is full)."""
        return (self.match.game.outcome(self.position) is not None
                or self.size >= MAX_PLIES)

    @property
    def entering_mine(self) -> bool:
        """The next ply entered is the player's own reply (else the opponent's move)."""
        return self.match.game.to_move(self.position) == self.seat


class Conditionals:
    """Queueing, showing and clearing conditional moves, and playing them when they match."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def _check(self, match: Match, user_id: int) -> int:
        seat = self.ctx.check_active_player(match, user_id)
        if not eligible(match):
            raise BadRequest(strings.CONDITIONAL_NOT_HERE, game=Phrase(match.game.name))
        mover = match.to_move()
        if mover is None or mover.user_id == user_id:
            raise WrongPhase(strings.CONDITIONAL_YOUR_TURN, match_id=match.id)
        return seat

    def _view(self, match: Match, user_id: int, seat: int,
              rows: list[ConditionalRow]) -> ConditionalView:
        row = next((r for r in rows if r.user_id == user_id), None)
        line, draft = ((row.line, row.draft) if row is not None and row.base_ply == match.ply()
                       else ((), ()))
        game = match.game
        try:
            pairs, theirs, mine, state = _group(game, match.state, line, seat)
            if theirs or mine:
                pairs.append(Pair(tuple(theirs), tuple(mine)))
            more, theirs, mine, state = _group(game, state, draft, seat)
        except GameError:  # a queue the rules no longer take: as good as none
            return self._view(match, user_id, seat, [])
        if more:  # a draft is less than a pair: never stored so
            return self._view(match, user_id, seat, [])
        return ConditionalView(match, user_id, seat, line, draft, state, tuple(pairs),
                               Pair(tuple(theirs), tuple(mine)))

    async def conditional_view(self, match: Match, user_id: int) -> ConditionalView:
        """The player's queue in `match`, refused unless they may queue replies now."""
        seat = self._check(match, user_id)
        return self._view(match, user_id, seat, await self.ctx.store.conditional_moves(match.id))

    async def add_conditional(self, match_id: int, user_id: int, ply: int, size: int,
                              notation: str) -> ConditionalView:
        """One more ply of the pair being entered, on the view seen at `ply` with `size`
        plies queued; a pair is complete once the player's reply hands the turn back."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            seat = self._check(match, user_id)
            view = self._view(match, user_id, seat, await tx.conditional_moves(match.id))
            if match.ply() != ply or view.size != size:
                raise StaleAction(strings.CONDITIONAL_STALE)
            if view.over:
                raise BadRequest(strings.CONDITIONAL_FULL)
            game, before = match.game, view.position
            mine = game.to_move(before) == seat
            try:
                move = game.parse_move(before, notation)
                canonical = game.format_move(before, move)
                after = game.apply(before, move)
            except GameError as exc:
                raise IllegalMove(refusal(exc, notation)) from None
            ended = game.outcome(after) is not None
            if ended and not mine:
                raise BadRequest(strings.CONDITIONAL_ENDS, notation=canonical)
            line, draft = view.line, view.draft + (canonical,)
            if mine and (ended or game.to_move(after) != seat):  # the reply is complete
                line, draft = line + draft, ()
            await tx.set_conditional_moves(
                ConditionalRow(match.id, user_id, match.ply(), line, draft), now)
            return self._view(match, user_id, seat,
                              [ConditionalRow(match.id, user_id, match.ply(), line, draft)])

    async def clear_conditional(self, match_id: int, user_id: int) -> None:
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if match.row.seat_of(user_id) is None:
                self.ctx.check_active_player(match, user_id)  # the refusal
            await tx.clear_conditional_moves(match.id, user_id)

    async def respond(self, tx: Tx, match: Match, mover_id: int, ply: int, canonical: str,
                      now: float, lines: list[Phrase],
                      effects: Effects | None = None) -> tuple[Match, int | None]:
        """After `mover_id` played `canonical` at `ply` (in `tx`): the queues it matches
        advance, and their replies due now are played; the others are cleared, and their
        owners are told so through `effects` (a DM, or a note at their next interaction: the
        view they entered it in would otherwise refuse without saying why). Returns the
        match and who replied (None if nobody did)."""
        if not eligible(match) or match.row.has_conditionals is False:
            return match, None  # none queued when the match was read (as before: a queue
            # saved after that read and before this commit is cleared at the next move)
        rows = await tx.conditional_moves(match.id)
        replier = None
        for row in rows:
            if (row.user_id == mover_id or row.base_ply != ply or not row.line
                    or row.line[0] != canonical):
                await tx.clear_conditional_moves(match.id, row.user_id)
                if (effects is not None and row.user_id != mover_id and row.base_ply == ply
                        and row.line):  # a live queue the move did not match
                    name = next((s.name for s in match.row.seats if s.user_id == mover_id),
                                "?")
                    await effects.dm(row.user_id, match, phrase(
                        strings.CONDITIONAL_CLEARED_BY_MOVE, match_id=match.id, name=name,
                        notation=canonical, expected=row.line[0]), fallback="note")
                continue
            line = row.line[1:]
            seat = match.row.seat_of(row.user_id)
            try:
                while (line and match.status == "active"
                       and match.game.to_move(match.state) == seat):
                    match = await self._reply(tx, match, row.user_id, line[0], now, lines)
                    replier, line = row.user_id, line[1:]
            except GameError:  # cannot happen in a game without chance; cleared if it does
                line = ()
            if line and match.status == "active":
                await tx.set_conditional_moves(
                    ConditionalRow(match.id, row.user_id, match.ply(), line, row.draft), now)
            else:
                await tx.clear_conditional_moves(match.id, row.user_id)
        return match, replier

    async def _reply(self, tx: Tx, match: Match, user_id: int, notation: str, now: float,
                     lines: list[Phrase]) -> Match:
        """A queued reply, saved and logged as any move is."""
        game, before = match.game, match.state
        move = game.parse_move(before, notation)
        canonical = game.format_move(before, move)
        public = game.public_notation(before, move)
        after = game.apply(before, move)
        outcome = game.outcome(after)
        seq = match.row.version
        mover = match.row.user_at(game.to_move(before) or 0)
        match = await self.ctx.save(tx, match, now=now, state=after, clock=True,
                                    status="finished" if outcome else None,
                                    result=outcome.to_json() if outcome else None,
                                    board_version=seq + 1)
        await tx.append_log(match.id, seq, ply=game.ply(before), kind="move",
                            notation=canonical, actor_id=user_id, now=now)
        effects = game.move_effects(before, move, after)
        name = mover.name if mover is not None else "?"
        lines.append(phrase(strings.CONDITIONAL_PLAYED_EFFECTS, name=name, notation=public,
                            effects=effects) if effects else
                     phrase(strings.CONDITIONAL_PLAYED, name=name, notation=public))
        return match


def _group(game: Any, state: Any, plies: tuple[str, ...], seat: int
           ) -> tuple[list[Pair], list[str], list[str], Any]:
    """`plies` from `state` as pairs (the opponent's turn, then `seat`'s), the last pair's
    parts left open, and the state after them."""
    pairs: list[Pair] = []
    theirs: list[str] = []
    mine: list[str] = []
    for notation in plies:
        if game.to_move(state) == seat:
            mine.append(notation)
        else:
            if mine:
                pairs.append(Pair(tuple(theirs), tuple(mine)))
                theirs, mine = [], []
            theirs.append(notation)
        state = game.play(state, notation)
    return pairs, theirs, mine, state
