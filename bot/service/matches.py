"""Opening, joining, starting, resigning, aborting and rematching a match."""

from __future__ import annotations

from typing import Any

from games import Game, GameError, Outcome, Phrase, Termination, get_game, phrase, shorten

from ..ai import ai_name, ai_names, ai_user_id, is_ai
from ..clocks import Duration
from ..store import UNSET, ChannelBusy, SeatRow, Tx
from ..words import strings
from .core import (
    AlreadyOpen,
    BadRequest,
    Context,
    Effects,
    Forbidden,
    Match,
    NotAPlayer,
    Player,
    WrongPhase,
    wrap,
)

FIRST_CHOICES = ("random", "me", "opponent")
RETRY_WINDOW = 15 * 60.0  # a /play repeated this soon finds the match it opened


class Matches:
    """Opening, joining, starting, resigning, aborting and rematching a match, and the notices
    of a turn and of an end that every change of a match sends."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    # -- opening -----------------------------------------------------------------------
    def check_opening(self, *, game_id: str, options: dict[str, str], host: Player,
                      opponent: Player | None,
                      first: str = "random") -> tuple[Game, dict[str, str]]:
        """Validate a /play request before anything is created (a thread, a row)."""
        try:
            game = get_game(game_id)
        except GameError as exc:
            raise BadRequest(strings.UNKNOWN_GAME, reason=exc.phrase) from None
        try:
            resolved = game.resolve_options(options)
        except GameError as exc:
            raise BadRequest(strings.BAD_OPTION, reason=exc.phrase) from None
        if first not in FIRST_CHOICES:
            raise BadRequest(strings.BAD_FIRST, text=shorten(first))
        if opponent is not None and opponent.user_id == host.user_id:
            raise BadRequest(strings.OPPONENT_IS_YOU)
        if opponent is not None and game.info.min_seats > 2:
            raise BadRequest(strings.MULTI_SEAT_NO_OPPONENT, game=Phrase(game.name),
                             players=game.seats_text())
        return game, resolved

    @staticmethod
    def check_rated(game: Game, opponent: Player | None, rated: bool | None) -> bool:
        """Whether a new match is rated: by default, when it is made for two humans (an
        invitation, or a lobby of a two-player game); never against the AI."""
        if opponent is not None and is_ai(opponent.user_id):
            if rated:
                raise BadRequest(strings.AI_NEVER_RATED)
            return False
        if rated is None:
            return opponent is not None or game.info.max_seats == 2
        return rated

    async def check_channel(self, guild_id: int | None, channel_id: int) -> None:
        allowed = (await self.ctx.store.guild_settings(guild_id))["channels"]
        if allowed and channel_id not in allowed:
            raise BadRequest(strings.CHANNEL_NOT_ALLOWED,
                             channels=", ".join(f"<#{c}>" for c in allowed))

    async def find_retry(self, *, game_id: str, host: Player, opponent: Player | None,
                         channel_id: int) -> None:
        """Raise AlreadyOpen if this host opened the same match from this channel moments ago
        (their first /play's answer was lost, and they asked again)."""
        row = await self.ctx.store.recent_opening(
            host.user_id, channel_id, game_id, opponent.user_id if opponent else None,
            self.ctx.clock() - RETRY_WINDOW)
        if row is not None:
            raise AlreadyOpen(wrap(row))

    async def open_match(self, *, game_id: str, options: dict[str, str], host: Player,
                         opponent: Player | None, guild_id: int | None, channel_id: int,
                         in_thread: bool = False, first: str = "random",
                         move_seconds: Any = UNSET, parent_channel_id: int | None = None,
                         announce: bool = True, rated: bool | None = None,
                         ai_seats: tuple[str, ...] = (), reach: str = "channel") -> Match:
        """A lobby (no opponent) or an invitation, with its seats and its message, in one
        transaction. Without `announce` (a thread still being made: `channel_id` is then a
        negative placeholder) nothing is posted until `place_match`. `ai_seats` (levels, no
        opponent): every other seat an AI from the start, so it starts at once, no lobby (a
        lesson's closing match, with the lesson's number of seats). `reach`: how the bot
        reaches the channel (`MatchRow.reach`)."""
        game, resolved = self.check_opening(game_id=game_id, options=options, host=host,
                                            opponent=opponent, first=first)
        if ai_seats and (opponent is not None or not game.info.min_seats
                         <= 1 + len(ai_seats) <= game.info.max_seats):
            raise BadRequest(strings.AI_NOT_HERE)
        rated = False if ai_seats else self.check_rated(game, opponent, rated)
        resolved = game.draw_options(resolved, self.ctx.dice)  # e.g. ICO's random start face
        await self.check_channel(guild_id, parent_channel_id or channel_id)
        if move_seconds is UNSET:
            move_seconds = (await self.ctx.store.guild_settings(guild_id))["move_seconds"]
        now = self.ctx.clock()
        seats = [SeatRow(0, host.user_id, host.name)]
        if opponent is not None:  # the invited player's seat, reserved
            seats.append(SeatRow(1, opponent.user_id, opponent.name))
        ais = [ai_user_id(level, index) for index, level in enumerate(ai_seats)]
        names = ai_names(ais)
        seats += [SeatRow(1 + index, user_id, names[user_id]) for index, user_id in enumerate(ais)]
        try:
            async with self.ctx.store.transaction() as tx:
                existing = await tx.live_match_in(channel_id)
                if existing is not None:
                    raise WrongPhase(strings.CHANNEL_BUSY, match_id=existing.id)
                match_id = await tx.create_match(
                    game=game.id, options=resolved, seat_count=max(game.info.min_seats,
                                                                   len(seats)),
                    guild_id=guild_id, channel_id=channel_id, in_thread=in_thread,
                    parent_channel_id=parent_channel_id if in_thread else None,
                    host_id=host.user_id, invited_id=opponent.user_id if opponent else None,
                    first_seat=first, status="invited" if opponent else "open",
                    move_seconds=move_seconds, seats=seats, now=now, rated=rated, reach=reach)
                match = await self.ctx.locked(tx, match_id)
                if announce and (ai_seats or opponent is not None and is_ai(opponent.user_id)):
                    match = await self._begin(tx, match, now)  # the AI accepts at once
                elif announce:
                    await Effects(tx, now).lobby(match, [opponent.user_id] if opponent else [])
        except ChannelBusy:
            existing_row = await self.ctx.store.live_match_in(channel_id)
            raise WrongPhase(strings.CHANNEL_BUSY,
                             match_id=existing_row.id if existing_row else "?") from None
        self.ctx.on_commit()
        return match

    async def place_match(self, match_id: int, channel_id: int, *, in_thread: bool) -> Match:
        """Move a match opened with a placeholder channel to its thread (or, when no thread
        could be made, to the channel itself) and post its lobby there."""
        now = self.ctx.clock()
        try:
            async with self.ctx.store.transaction() as tx:
                match = await self.ctx.locked(tx, match_id)
                if match.row.channel_id >= 0 or match.status not in ("open", "invited"):
                    return match
                await tx.move_match(match_id, channel_id, in_thread)
                match = await self.ctx.locked(tx, match_id)
                invited = match.row.invited_id
                if invited is not None and is_ai(invited) or _ais_seated(match):
                    match = await self._begin(tx, match, now)
                else:
                    await Effects(tx, now).lobby(match, [invited] if invited else [])
        except ChannelBusy:
            await self.abort(match_id, match.row.host_id, is_manager=True)
            existing = await self.ctx.store.live_match_in(channel_id)
            raise WrongPhase(strings.CHANNEL_BUSY,
                             match_id=existing.id if existing else "?") from None
        self.ctx.on_commit()
        return match

    async def abandon_placeholders(self, older_than: float) -> int:
        """Matches whose thread was never made (the bot stopped in between) are aborted."""
        count = 0
        for match_id in await self.ctx.store.placeholder_matches(older_than):
            async with self.ctx.store.transaction() as tx:
                match = await self.ctx.locked(tx, match_id)
                if match.row.channel_id >= 0 or match.status not in ("open", "invited"):
                    continue  # placed meanwhile (or another process got here first)
                await self.ctx.save(tx, match, now=self.ctx.clock(), status="aborted",
                                result={"aborted_by": None, "reason": "not placed"})
                count += 1
        return count

    # -- the lobby -----------------------------------------------------------------------
    async def join(self, match_id: int, player: Player) -> Match:
        """Take a seat; a lobby that fills up starts at once."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if match.status != "open":
                raise WrongPhase(strings.NOT_A_LOBBY, match_id=match_id)
            if match.row.seat_of(player.user_id) is not None:
                raise BadRequest(strings.ALREADY_SEATED, match_id=match_id)
            if len(match.seats) >= match.game.info.max_seats:
                raise WrongPhase(strings.LOBBY_FULL, match_id=match_id)
            seats = match.seats + (SeatRow(len(match.seats), player.user_id, player.name),)
            names = ai_names([seat.user_id for seat in seats])  # two AIs: told apart
            seats = tuple(SeatRow(s.seat, s.user_id, names.get(s.user_id, s.name))
                          for s in seats)
            match = await self.ctx.save(tx, match, now=now, seats=seats)
            if len(seats) >= match.game.info.max_seats:
                match = await self._begin(tx, match, now)
        self.ctx.on_commit()
        return match

    async def add_ai(self, match_id: int, user_id: int, level: str = "normal") -> Match:
        """The host seats an AI player in the lobby (a full lobby starts at once)."""
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
        if match.status == "open" and user_id != match.row.host_id:
            host = match.row.user_at(0)
            raise Forbidden(strings.ONLY_HOST_ADDS_AI,
                            name=host.name if host else phrase(strings.HOST))
        index = sum(1 for s in match.seats if is_ai(s.user_id))
        return await self.join(match_id, Player(ai_user_id(level, index), ai_name(level)))

    async def start(self, match_id: int, user_id: int) -> Match:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if match.status != "open":
                raise WrongPhase(strings.NOT_A_LOBBY, match_id=match_id)
            if user_id != match.row.host_id:
                host = match.row.user_at(0)
                raise Forbidden(strings.ONLY_HOST_STARTS,
                                name=host.name if host else phrase(strings.HOST),
                                match_id=match_id)
            need = match.game.info.min_seats
            if len(match.seats) < need:
                raise WrongPhase(strings.NOT_ENOUGH_PLAYERS, match_id=match_id, count=need,
                                 have=len(match.seats))
            match = await self._begin(tx, match, now)
        self.ctx.on_commit()
        return match

    async def accept(self, match_id: int, user_id: int) -> Match:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            self._check_invitation(match, user_id)
            match = await self._begin(tx, match, now)
        self.ctx.on_commit()
        return match

    async def decline(self, match_id: int, user_id: int) -> Match:
        """The invited player declines, or the host withdraws the invitation."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if not (match.status == "invited" and user_id == match.row.host_id):
                self._check_invitation(match, user_id)
            match = await self.ctx.save(tx, match, now=now, status="aborted",
                                    result={"declined_by": user_id})
            await Effects(tx, now).retire(match, below_version=match.row.version)
        self.ctx.on_commit()
        return match

    def _check_invitation(self, match: Match, user_id: int) -> None:
        if match.status != "invited":
            raise WrongPhase(strings.NOT_AN_INVITATION, match_id=match.id)
        if user_id != match.row.invited_id:
            invited = match.row.user_at(1)
            raise NotAPlayer(strings.NOT_INVITED, name=invited.name if invited else "?")

    async def begin(self, tx: Tx, match: Match, now: float) -> Match:
        """Start a match made elsewhere (a tournament's), in the caller's transaction."""
        return await self._begin(tx, match, now)

    async def _begin(self, tx: Tx, match: Match, now: float) -> Match:
        """Seat order, the first position, the first board and the start DMs."""
        seats = list(match.seats)
        host, others = seats[0], seats[1:]
        if match.row.first_seat == "random":
            self.ctx.rng.shuffle(seats)
        elif match.row.first_seat == "opponent":
            seats = others + [host]
        ordered = tuple(SeatRow(i, s.user_id, s.name) for i, s in enumerate(seats))
        try:
            state = match.game.new(len(ordered), match.row.options)
        except GameError as exc:
            raise BadRequest(strings.BAD_OPTION, reason=exc.phrase) from None
        match = await self.ctx.save(tx, match, now=now, status="active", seats=ordered,
                                state=state, clock=True)
        effects = Effects(tx, now)
        listing = tuple(phrase(strings.SEATED, seat=match.game.seat_title(s.seat), name=s.name)
                         for s in ordered)
        mention, _ = await self.announce_turn(tx, effects, match, previous=None)
        await effects.board(match, lead=phrase(strings.MATCH_STARTED, match_id=match.id,
                                               game=match.game.name, seats=listing),
                            mention=mention)
        prefs = await tx.users(s.user_id for s in ordered)
        for seat in ordered:
            if is_ai(seat.user_id):
                continue
            hidden = match.game.info.hidden_information
            if prefs[seat.user_id].notify != "channel" or hidden:
                await effects.dm(seat.user_id, match, phrase(
                    strings.DM_MATCH_STARTED, match_id=match.id, game=match.game.name,
                    link=match.row.link, seat=match.game.seat_title(seat.seat)),
                    picture_seat=seat.seat if hidden else None, kind="start", fallback="note")
        return match

    # -- leaving -------------------------------------------------------------------------
    async def resign(self, match_id: int, user_id: int) -> Match:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            seat = self.ctx.check_active_player(match, user_id)
            winners = tuple(s.seat for s in match.seats if s.seat != seat)
            outcome = Outcome(winners, Termination.RESIGNATION)
            match = await self.ctx.save(tx, match, now=now, status="finished",
                                    result={**outcome.to_json(), "resigned": user_id})
            await self.announce_end(tx, Effects(tx, now), match)
        self.ctx.on_commit()
        return match

    async def abort(self, match_id: int, user_id: int, *, is_manager: bool,
                    name: str | None = None) -> Match:
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            self.ctx.check_live(match)
            allowed = is_manager or (match.status != "active" and user_id == match.row.host_id)
            if not allowed:
                raise Forbidden(strings.ABORT_FORBIDDEN, match_id=match_id)
            name = name or next((s.name for s in match.seats if s.user_id == user_id), None)
            match = await self.ctx.save(tx, match, now=now, status="aborted",
                                    result={"aborted_by": user_id})
            await tx.void_offers(match.id)
            effects = Effects(tx, now)
            await effects.retire(match, below_version=match.row.version)
            await effects.notice(match, phrase(strings.ABORTED, match_id=match.id,
                                               name=name or f"<@{user_id}>"))
        self.ctx.on_commit()
        return match

    async def channel_gone(self, match_id: int) -> bool:
        """The match's channel (or thread) was deleted: nothing can be posted or played there
        any more. The match ends unrated, without a result (its record is kept: `/matches`,
        `/record`), and each player is told by DM. False if it had ended already."""
        now = self.ctx.clock()
        async with self.ctx.store.transaction() as tx:
            match = await self.ctx.locked(tx, match_id)
            if match.status not in ("open", "invited", "active"):
                return False
            match = await self.ctx.save(tx, match, now=now, status="aborted",
                                    result={"channel_gone": True})
            await tx.void_offers(match.id)
            effects = Effects(tx, now)
            for seat in match.seats:
                if not is_ai(seat.user_id):
                    await effects.dm(seat.user_id, match, phrase(
                        strings.CHANNEL_GONE, match_id=match.id, game=match.game.name),
                        kind="info")
        self.ctx.on_commit()
        return True

    async def rematch(self, match_id: int, user: Player) -> Match:
        """A new match in the same channel, same game and options; the other player(s)
        invited, and the first move passes to the other side."""
        match = await self.ctx.get(match_id)
        seat = match.row.seat_of(user.user_id)
        if seat is None:
            raise NotAPlayer(strings.REMATCH_ONLY_PLAYERS, match_id=match_id)
        if match.status != "finished":
            raise WrongPhase(strings.REMATCH_NOT_OVER, match_id=match_id)
        opponent = None
        if len(match.seats) == 2:
            other = match.row.user_at(1 - seat)
            assert other is not None
            opponent = Player(other.user_id, other.name)
        return await self.open_match(
            game_id=match.game.id, options=dict(match.row.options), host=user, opponent=opponent,
            guild_id=match.row.guild_id, channel_id=match.row.channel_id,
            in_thread=match.row.in_thread, first="opponent" if seat == 0 else "me",
            move_seconds=match.row.move_seconds, parent_channel_id=match.row.parent_channel_id,
            rated=match.row.rated and not any(is_ai(s.user_id) for s in match.seats),
            reach=match.row.reach)

    # -- announcing ------------------------------------------------------------------------
    async def announce_turn(self, tx: Tx, effects: Effects, match: Match,
                            previous: int | None) -> tuple[list[int], bool]:
        """The turn notice: a mention when the turn passes to a different player (not for
        their extra moves), and a DM for those who chose DMs. Returns (mention, dm sent)."""
        mover = match.to_move()
        if mover is not None and is_ai(mover.user_id):
            await effects.ai_turn(match, mover.user_id)  # extra moves too: each is a turn
        waiting = match.waiting_on()
        if waiting is None or waiting == previous:
            return [], False
        prefs = await tx.user(waiting)
        mention = [waiting] if prefs.notify in ("channel", "both") else []
        dm = prefs.notify in ("dm", "both")
        if dm:
            seat = match.row.seat_of(waiting)
            assert seat is not None
            card = match.game.turn_card(match.state, seat)
            text = phrase(strings.DM_YOUR_TURN, match_id=match.id, game=match.game.name,
                          link=match.row.link)
            if card is not None:
                text = phrase("{notice}\n{card}", notice=text, card=card)
            await effects.dm(waiting, match, text, kind="turn",
                             fallback="note" if mention else "mention")
        return mention, dm

    async def announce_end(self, tx: Tx, effects: Effects, match: Match,
                           lines: list[Any] | None = None, lead: Any = None) -> None:
        """The final board mentions every player once; those who chose DMs get a summary."""
        await effects.board(match, lines=lines or [], lead=lead)
        prefs = await tx.users(s.user_id for s in match.seats)
        from .core import moves_count, result_phrase

        result = result_phrase(match)
        duration = _duration_words(effects.now - match.row.created_at)
        for seat in match.seats:
            if is_ai(seat.user_id) or prefs[seat.user_id].notify == "channel":
                continue
            await effects.dm(seat.user_id, match, phrase(
                strings.DM_GAME_OVER, match_id=match.id, game=match.game.name,
                link=match.row.link, result=result or "",
                moves_text=moves_count(match.ply()), duration=duration, board=""),
                kind="end", board_version=match.row.version)
        for hook in self.ctx.end_hooks:
            await hook(tx, effects, match)


def _duration_words(seconds: float) -> Duration:
    return Duration(int(seconds))


def parse_options(text: str | None) -> dict[str, str]:
    """`pits=17 repetition=off` -> {'pits': '17', 'repetition': 'off'}."""
    options: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise BadRequest(strings.BAD_OPTION_SYNTAX, text=shorten(text or "", 40))
        key = name.lower()
        if key in options:
            raise BadRequest(strings.REPEATED_OPTION, name=shorten(key))
        options[key] = value
    return options


def _ais_seated(match: Match) -> bool:
    """A match opened with every other seat an AI (`open_match`'s `ai_seats`): it starts
    once placed, without a lobby."""
    return match.status == "open" and len(match.seats) > 1 and all(
        is_ai(seat.user_id) for seat in match.seats[1:])
