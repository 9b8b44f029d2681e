"""Draw and takeback offers: each offer, its answer and its effect in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from games import Outcome, Phrase, Termination, phrase

from ..outbox import OfferButtons
from ..store import Tx
from ..words import strings
from .core import BadRequest, Context, Effects, Forbidden, Match, NotAPlayer, StaleAction
from .matches import Matches
from .moves import Moves, effective_log


@dataclass(frozen=True)
class Offer:
    id: int
    match: Match
    kind: str
    from_name: str
    notation: str | None = None  # the move a takeback would undo


class Offers:
    """Draw and takeback offers, their answers and their effects."""

    def __init__(self, ctx: Context, matches: Matches, moves: Moves):
        self.ctx = ctx
        self.matches = matches
        self.moves = moves

    async def offer_draw(self, match_id: int, user_id: int) -> Offer:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            seat = self.ctx.check_active_player(match, user_id)
            if len(match.seats) != 2:
                raise BadRequest(strings.DRAW_ONLY_TWO)
            name = match.seats[seat].name
            offer_id, withdrawn = await tx.add_offer(match.id, "draw", user_id,
                                                     match.row.version, now)
            await self._post_offer(Effects(tx, now), match, offer_id, withdrawn, user_id,
                                   phrase(strings.OFFER_DRAW, name=name, match_id=match.id,
                                          mention=self._others(match, user_id)))
        self.ctx.on_commit()
        return Offer(offer_id, match, "draw", name)

    async def request_takeback(self, match_id: int, user_id: int) -> Offer:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            seat = self.ctx.check_active_player(match, user_id)
            if match.game.info.hidden_information:
                raise BadRequest(strings.NO_TAKEBACK_HIDDEN)
            log = await tx.moves(match.id)
            last = log[-1] if log else None
            if last is None or last.kind != "move" or last.actor_id != user_id:
                raise BadRequest(strings.NO_TAKEBACK)
            name = match.seats[seat].name
            offer_id, withdrawn = await tx.add_offer(match.id, "takeback", user_id,
                                                     match.row.version, now)
            await self._post_offer(Effects(tx, now), match, offer_id, withdrawn, user_id,
                                   phrase(strings.OFFER_TAKEBACK, name=name,
                                          notation=last.notation, match_id=match.id,
                                          mention=self._others(match, user_id)))
        self.ctx.on_commit()
        return Offer(offer_id, match, "takeback", name, last.notation)

    @staticmethod
    def _others(match: Match, user_id: int) -> str:
        return ", ".join(f"<@{s.user_id}>" for s in match.seats
                         if s.user_id != user_id and s.user_id > 0)  # AI seats: no mention

    @staticmethod
    async def _post_offer(effects: Effects, match: Match, offer_id: int, withdrawn: list[int],
                          user_id: int, text: Phrase) -> None:
        if withdrawn:
            await effects.retire(match, offer_ids=withdrawn)
        await effects.notice(match, text, mention=[s.user_id for s in match.seats
                                                   if s.user_id != user_id],
                             buttons=[OfferButtons(offer_id)], live="offer",
                             offer_id=offer_id)

    async def answer_offer(self, offer_id: int, user_id: int, accept: bool, *,
                           channel_id: int | None = None, from_dm: bool = False
                           ) -> tuple[Offer, Match]:
        """Accept or decline; an offer made before the match moved on is void. With
        `channel_id`, the offer's match must be played there (a forged button is refused),
        or, `from_dm`, be one whose notices reach its players' DMs (`MatchRow.reach`)."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            data = await tx.get_offer(offer_id)
            if data is None or data.status != "open":
                raise StaleAction(strings.OFFER_GONE)
            match = await self.ctx.locked(tx, data.match_id)
            if (channel_id is not None and channel_id not in match.row.channels
                    and not (match.row.by_interactions and from_dm)):
                raise Forbidden(strings.WRONG_CHANNEL, match_id=match.id)
            if match.row.seat_of(user_id) is None:
                raise NotAPlayer(strings.NOT_A_PLAYER, match_id=match.id)
            if user_id == data.from_user:
                raise Forbidden(strings.OFFER_OWN)
            from_seat = match.row.seat_of(data.from_user)
            offer = Offer(offer_id, match, data.kind,
                          match.seats[from_seat].name if from_seat is not None else "?")
            if match.status != "active" or match.row.version != data.version:
                await tx.close_offer(offer_id, "void")
                stale = True
            else:
                stale = False
                # the offer is closed once: an answer that finds it already closed (another
                # process's, read before this one locked the match) changes nothing
                if not await tx.close_offer(offer_id, "accepted" if accept else "declined",
                                            user_id):
                    raise StaleAction(strings.OFFER_GONE)
            name = match.seats[match.row.seat_of(user_id) or 0].name
            effects = Effects(tx, now)
            if stale:
                await effects.retire(match, offer_ids=[offer_id])
            elif not accept:
                await effects.retire(match, offer_ids=[offer_id], text=phrase(
                    strings.OFFER_DECLINED, name=name, match_id=match.id,
                    kind=phrase(strings.OFFER_KIND_DRAW if offer.kind == "draw"
                                else strings.OFFER_KIND_TAKEBACK)))
            elif offer.kind == "draw":
                outcome = Outcome(tuple(range(len(match.seats))), Termination.AGREEMENT,
                                  draw=True)
                match = await self.ctx.save(tx, match, now=now, status="finished",
                                        result=outcome.to_json())
                await self.matches.announce_end(tx, effects, match, lead=phrase(
                    strings.DRAW_AGREED, name=name, match_id=match.id))
            else:
                offer, match = await self._take_back(tx, effects, match, offer, user_id, name,
                                                     now)
        self.ctx.on_commit()
        if stale:
            raise StaleAction(strings.OFFER_GONE)
        return offer, match

    async def _take_back(self, tx: Tx, effects: Effects, match: Match, offer: Offer,
                         user_id: int, name: str, now: float) -> tuple[Offer, Match]:
        log = await tx.moves(match.id)
        effective = effective_log(log)
        taken = effective[-1]
        game = match.game
        state = game.new(len(match.seats), match.row.options)
        for entry in effective[:-1]:
            state = game.skip(state) if entry.kind == "skip" else game.play(state, entry.notation)
        previous = match.waiting_on()
        seq = match.row.version
        match = await self.ctx.save(tx, match, now=now, state=state, clock=True)
        await tx.append_log(match.id, seq, ply=game.ply(state), kind="takeback",
                            notation=f"takeback {taken.notation}", actor_id=user_id, now=now)
        await tx.clear_conditional_moves(match.id)  # queued on a position taken back
        await self.moves.after_change(tx, effects, match, [], previous=previous, lead=phrase(
            strings.TAKEBACK_DONE, name=name, notation=taken.notation))
        return Offer(offer.id, match, offer.kind, offer.from_name, taken.notation), match

