"""What happens on each command and button: resolve, call the service, render, reply.

Refusals (`ServiceError`) become ephemeral messages; nothing else is touched when one occurs.
Board messages are new messages each turn; a board whose button was used loses its buttons.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from . import strings
from .catalogue import PLAYABLE
from .boards import (board_message, mention_only, private_changes, private_message,
                     split_two_step, turn_card)
from .components import MoveButton, ResignButton, RocksSelect, TileSelect, lobby_view
from .dm import send_dm
from .clocks import format_duration
from .components import ClaimButton, OfferButton
from .service import (Digest, Expired, Match, MatchService, Player, Reminder, ServiceError,
                      parse_options, parse_time)

if TYPE_CHECKING:
    from .client import CorralBot

log = logging.getLogger(__name__)


def player(user: discord.abc.User) -> Player:
    return Player(user.id, getattr(user, "display_name", None) or user.name)


def options_text(match: Match) -> str:
    defaults = {spec.name: spec.default for spec in match.game.info.options}
    changed = [f"{k}={v}" for k, v in match.row.options.items() if defaults.get(k) != v]
    return f", {' '.join(changed)}" if changed else ""


def channel_link(match: Match) -> str:
    return f"<#{match.row.channel_id}>"


class Flows:
    def __init__(self, client: "CorralBot", service: MatchService):
        self.client = client
        self.service = service

    async def board_of(self, match: Match, **kwargs):
        """The board message, with the mover's clock when the match has one."""
        return await board_message(match, clock=await self.service.clock_of(match), **kwargs)

    # -- replies ---------------------------------------------------------------------
    @staticmethod
    async def tell(interaction: discord.Interaction, message: str) -> None:
        """An ephemeral message to the user who acted."""
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)

    # -- /play and the lobby -------------------------------------------------------------
    async def open(self, interaction: discord.Interaction, game_id: str,
                   opponent: discord.abc.User | None, options: str | None, first: str,
                   time_per_move: str | None = None) -> None:
        try:
            if interaction.guild is None or interaction.channel is None:
                raise ServiceError(strings.NOT_IN_GUILD)
            if opponent is not None and opponent.bot:
                raise ServiceError(strings.OPPONENT_IS_BOT.format(name=opponent.display_name))
            if game_id not in PLAYABLE:
                raise ServiceError(strings.UNKNOWN_GAME.format(reason=f"'{game_id}' is not offered here yet"))
            host = player(interaction.user)
            guest = player(opponent) if opponent else None
            parsed = parse_options(options)
            move_seconds = parse_time(time_per_move)
            game, _ = self.service.check_opening(game_id=game_id, options=parsed, host=host,
                                                 opponent=guest, first=first)
            parent = getattr(interaction.channel, "parent_id", None) or interaction.channel.id
            await self.service.check_channel(interaction.guild.id, parent)
            target = interaction.channel
            in_thread = False
            if (await self.service.store.uses_threads(interaction.guild.id)
                    and isinstance(target, discord.TextChannel)):
                names = host.name + (f" vs {guest.name}" if guest else "")
                target = await target.create_thread(
                    name=strings.THREAD_NAME.format(game=game.name, names=names)[:100],
                    type=discord.ChannelType.public_thread, auto_archive_duration=10080)
                in_thread = True
            match = await self.service.open_match(
                game_id=game_id, options=parsed, host=host, opponent=guest,
                guild_id=interaction.guild.id, channel_id=target.id, in_thread=in_thread,
                first=first, move_seconds=move_seconds, parent_channel_id=parent)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        content, view = self.lobby_payload(match)
        mention = mention_only(guest.user_id if guest else None)
        if in_thread:
            await target.send(content, view=view, allowed_mentions=mention)
            await interaction.response.send_message(
                strings.THREAD_OPENED.format(match_id=match.id, link=target.mention),
                allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(content, view=view, allowed_mentions=mention)

    def lobby_payload(self, match: Match) -> tuple[str, discord.ui.View]:
        opts = options_text(match)
        if match.status == "invited":
            invited = match.row.user_at(1)
            content = strings.INVITATION.format(
                opponent=f"<@{invited.user_id}>", host=match.row.user_at(0).name,
                game=match.game.name, match_id=match.id, options=opts)
            return content, lobby_view(match.id, ("accept", "decline"))
        content = strings.LOBBY_OPEN.format(host=match.row.user_at(0).name, game=match.game.name,
                                            match_id=match.id, options=opts)
        content += "\n" + strings.LOBBY_SEATS.format(names=", ".join(match.names()))
        return content, lobby_view(match.id, ("join", "start", "cancel"))

    async def lobby(self, interaction: discord.Interaction, action: str, match_id: int) -> None:
        user = player(interaction.user)
        try:
            if action == "join":
                match = await self.service.join(match_id, user)
                content, view = self.lobby_payload(match)
                await interaction.response.edit_message(content=content, view=view,
                                                        allowed_mentions=mention_only(None))
            elif action in ("start", "accept"):
                match = await (self.service.start(match_id, user.user_id) if action == "start"
                               else self.service.accept(match_id, user.user_id))
                await self.started(interaction, match)
            elif action == "decline":
                match = await self.service.decline(match_id, user.user_id)
                await interaction.response.edit_message(
                    content=strings.DECLINED.format(name=user.name, match_id=match_id), view=None,
                    allowed_mentions=mention_only(None))
            elif action == "cancel":
                match = await self.service.abort(match_id, user.user_id,
                                                 is_manager=_is_manager(interaction))
                await interaction.response.edit_message(
                    content=strings.ABORTED.format(match_id=match_id, name=user.name), view=None,
                    allowed_mentions=mention_only(None))
        except ServiceError as exc:
            await self.tell(interaction, exc.message)

    async def started(self, interaction: discord.Interaction, match: Match) -> None:
        seats = ", ".join(strings.SEAT_LINE.format(seat_no=s.seat + 1, name=s.name)
                          for s in match.seats)
        await interaction.response.edit_message(
            content=strings.MATCH_STARTED.format(match_id=match.id, game=match.game.name,
                                                 seats=seats),
            view=None, allowed_mentions=mention_only(None))
        delivered = await asyncio.gather(*(
            send_dm(self.client, seat.user_id, strings.DM_MATCH_STARTED.format(
                match_id=match.id, game=match.game.name, link=channel_link(match),
                seat_no=seat.seat + 1, first=strings.DM_FIRST if seat.seat == 0 else ""))
            for seat in match.seats))
        board = await self.board_of(match)
        posted = await interaction.followup.send(**board.kwargs(), wait=True)
        await self.send_turn_card(match, board.content, posted.edit)
        if match.game.info.hidden_information:
            await self.send_private_views(match, [seat.seat for seat in match.seats])
        for seat, ok in zip(match.seats, delivered):
            if not ok and seat.user_id == interaction.user.id:
                await interaction.followup.send(
                    strings.DM_CLOSED.format(match_id=match.id, link=channel_link(match)),
                    ephemeral=True)

    # -- moves -----------------------------------------------------------------------
    async def move(self, interaction: discord.Interaction, match_id: int | None, notation: str,
                   *, expected_ply: int | None = None, from_button: bool = False) -> None:
        try:
            if match_id is None:
                match_id = (await self.service.in_channel(interaction.channel_id)).id
            result = await self.service.play(match_id, interaction.user.id, notation,
                                             expected_ply=expected_ply)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        board = await self.board_of(result.match, result=result)
        match = result.match
        if match.game.info.hidden_information:
            # the full notation only to the mover; the channel gets a plain bot message, so no
            # "used /move" header can show the command's options
            done = strings.YOU_PLAYED.format(notation=result.notation, match_id=match.id)
            if from_button:
                await interaction.response.edit_message(content=done, view=None)
            else:
                await interaction.response.send_message(done, ephemeral=True)
            channel = self.client.get_partial_messageable(match.row.channel_id)
            posted = await channel.send(**board.kwargs())
            await self.send_private_views(match, private_changes(result.before, match.state))
            return
        if from_button:
            await interaction.response.edit_message(view=None)  # retire the used board
            posted = await interaction.followup.send(**board.kwargs(), wait=True)
            edit = posted.edit
        else:
            await interaction.response.send_message(**board.kwargs())
            edit = interaction.edit_original_response
        await self.send_turn_card(match, board.content, edit)

    async def send_private_views(self, match: Match, seats: list[int]) -> list[bool]:
        """DM each of these seats their private picture and hand."""
        results = []
        for seat in seats:
            row = match.row.user_at(seat)
            if row is None:
                continue
            content, png = await private_message(match, seat)
            results.append(await send_dm(self.client, row.user_id, content, png=png))
        return results

    async def private_view(self, interaction: discord.Interaction, match_id: int | None) -> None:
        """`/hand` and the "My view" button: the caller's private picture, ephemerally."""
        try:
            match = (await self.service.get(match_id) if match_id is not None
                     else await self.service.in_channel(interaction.channel_id))
            seat = match.row.seat_of(interaction.user.id)
            if seat is None:
                raise ServiceError(strings.NOT_A_PLAYER.format(match_id=match.id))
            if not match.game.info.hidden_information:
                raise ServiceError(strings.NO_PRIVATE_VIEW.format(game=match.game.name))
            if match.state is None:
                raise ServiceError(strings.NOT_STARTED.format(match_id=match.id))
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        content, png = await private_message(match, seat)
        await interaction.response.send_message(
            content, file=discord.File(io.BytesIO(png), filename="view.png"), ephemeral=True)

    async def tile_flow(self, interaction: discord.Interaction, match_id: int, ply: int,
                        step: str, arg: str | None, value: str | None) -> None:
        """The private steps of a hidden-information move: what, where, how. Each step edits
        the same ephemeral message; the last one offers move buttons with the full notation."""
        match = await self._mover_match(interaction, match_id, ply)
        if match is None:
            return
        legal = self.service.legal_moves_for(match, interaction.user.id)
        places: dict[str, dict[str, list[str]]] = {}
        slides: dict[str, list[str]] = {}
        for notation in legal:
            if "@" in notation:
                kind, _, rest = notation.partition("@")
                square, _, direction = rest.partition(">")
                places.setdefault(kind, {}).setdefault(square, []).append(direction)
            else:
                origin, _, target = notation.partition("-")
                slides.setdefault(origin, []).append(target)
        view = discord.ui.View(timeout=None)
        hand = list(getattr(match.observe(match.row.seat_of(interaction.user.id)), "hand", ()) or ())
        if step == "start":
            options = [discord.SelectOption(
                label=strings.TILE_PLACE_KIND.format(kind=strings.TILE_KINDS[k], n=hand.count(k)),
                value=k) for k in sorted(places)]
            if slides:
                options.append(discord.SelectOption(label=strings.TILE_MOVE, value="move"))
            view.add_item(TileSelect(match.id, ply, "act", None, options, strings.TILE_ACTION))
            await interaction.response.send_message(strings.TILE_ACTION, view=view,
                                                    ephemeral=True)
            return
        if step == "act" and value == "move":
            options = [discord.SelectOption(label=o, value=o) for o in sorted(slides)]
            view.add_item(TileSelect(match.id, ply, "origin", None, options, strings.TILE_ORIGIN))
            content = strings.TILE_ORIGIN
        elif step == "act" and value in places:
            kind = strings.TILE_KINDS[value]
            options = [discord.SelectOption(label=sq, value=sq) for sq in sorted(places[value])]
            view.add_item(TileSelect(match.id, ply, "kind", value, options,
                                     strings.TILE_SQUARE.format(kind=kind)))
            content = strings.TILE_SQUARE.format(kind=kind)
        elif step == "kind" and arg in places and value in places[arg]:
            for direction in places[arg][value]:
                notation = f"{arg}@{value}" + (f">{direction}" if direction else "")
                label = (strings.TILE_PUSH_BUTTON.format(direction=direction) if direction
                         else strings.TILE_PLACE_BUTTON)
                view.add_item(MoveButton(match.id, ply, notation, label=label))
            content = strings.TILE_HOW.format(kind=strings.TILE_KINDS[arg], square=value)
        elif step == "origin" and value in slides:
            for target in slides[value]:
                view.add_item(MoveButton(match.id, ply, f"{value}-{target}", label=f"→ {target}"))
            content = strings.TILE_TARGET.format(origin=value)
        else:
            await self.tell(interaction, strings.STALE_BOARD.format(ply=match.ply() + 1))
            return
        await interaction.response.edit_message(content=content, view=view)

    async def send_turn_card(self, match: Match, content: str, edit) -> None:
        """DM the next player their private card; note it on the board if DMs are closed."""
        card = turn_card(match)
        mover = match.to_move()
        if card is None or mover is None:
            return
        if not await send_dm(self.client, mover.user_id, card):
            note = strings.TURN_CARD_UNDELIVERED.format(name=mover.name)
            await edit(content=f"{content}\n{note}", allowed_mentions=mention_only(None))

    async def _mover_match(self, interaction: discord.Interaction, match_id: int,
                           ply: int) -> Match | None:
        """The match if it is the caller's turn at `ply`; otherwise tell them why (None)."""
        try:
            match = await self.service.get(match_id)
            self.service.check_turn(match, interaction.user.id, expected_ply=ply)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return None
        return match

    async def pick_cell(self, interaction: discord.Interaction, match_id: int, ply: int,
                        cell: str) -> None:
        """Second step of a two-step move: an ephemeral row of stone counts for `cell`."""
        match = await self._mover_match(interaction, match_id, ply)
        if match is None:
            return
        _, cells = split_two_step(self.service.legal_moves_for(match, interaction.user.id))
        view = discord.ui.View(timeout=None)
        for count in cells.get(cell, []):
            view.add_item(MoveButton(match.id, ply, f"{cell}:{count}", label=str(count)))
        await interaction.response.send_message(strings.HOW_MANY.format(cell=cell), view=view,
                                                ephemeral=True)

    async def finish_step(self, interaction: discord.Interaction, match_id: int, ply: int,
                          prefix: str) -> None:
        """Second half of a two-part move (a pawn step's rock direction), privately."""
        match = await self._mover_match(interaction, match_id, ply)
        if match is None:
            return
        endings = [n for n in self.service.legal_moves_for(match, interaction.user.id)
                   if n.split(" ", 1)[0] == prefix]
        view = discord.ui.View(timeout=None)
        for notation in endings:
            ending = notation.partition(" ")[2]
            label = strings.ROCK_BUTTON.format(direction=ending) if ending else strings.NO_ROCK
            view.add_item(MoveButton(match.id, ply, notation, label=label))
        await interaction.response.send_message(
            strings.STEP_ENDING.format(prefix=prefix.replace("-", "→"),
                                       origin=prefix.split("-")[0]),
            view=view, ephemeral=True)

    async def pick(self, interaction: discord.Interaction, match_id: int, ply: int, mode: str,
                   plate: str) -> None:
        """A plate chosen in a board menu: the ghost goes there, or a pawn's set-up begins."""
        if mode == "ghost":
            await self.move(interaction, match_id, f"ghost {plate}", expected_ply=ply,
                            from_button=True)
            return
        match = await self._mover_match(interaction, match_id, ply)
        if match is None:
            return
        plates = sorted({p for n in self.service.legal_moves_for(match, interaction.user.id)
                         if n.split(":", 1)[0] == plate
                         for p in n.split(":", 1)[1].split(",")})
        view = discord.ui.View(timeout=None)
        view.add_item(RocksSelect(match.id, ply, plate,
                                  [discord.SelectOption(label=p, value=p) for p in plates],
                                  strings.SETUP_ROCKS.format(plate=plate)[:100]))
        await interaction.response.send_message(strings.SETUP_ROCKS.format(plate=plate),
                                                view=view, ephemeral=True)

    async def move_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        try:
            match = await self.service.in_channel(interaction.channel_id)
        except ServiceError:
            return []
        typed = current.strip().lower()
        legal = self.service.legal_moves_for(match, interaction.user.id)
        return [app_commands.Choice(name=n, value=n) for n in legal
                if n.lower().startswith(typed)][:25]

    # -- other commands ------------------------------------------------------------------
    async def board(self, interaction: discord.Interaction, public: bool) -> None:
        try:
            match = await self.service.in_channel(interaction.channel_id)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        if match.state is None:
            content, view = self.lobby_payload(match)
            await interaction.response.send_message(content, view=view, ephemeral=True,
                                                    allowed_mentions=mention_only(None))
            return
        header = strings.BOARD_HEADER.format(match_id=match.id, game=match.game.name,
                                             ply=match.ply())
        board = await self.board_of(match, lead=header)
        mover = match.to_move()
        mine = mover is not None and mover.user_id == interaction.user.id
        kwargs = board.kwargs(with_buttons=mine and not public)
        kwargs["allowed_mentions"] = mention_only(None)  # showing a board pings nobody
        await interaction.response.send_message(**kwargs, ephemeral=not public)

    async def resign(self, interaction: discord.Interaction, match_id: int | None = None,
                     *, confirmed: bool = False) -> None:
        try:
            if not confirmed:
                match = await self.service.in_channel(interaction.channel_id)
                if match.row.seat_of(interaction.user.id) is None:
                    raise ServiceError(strings.NOT_A_PLAYER.format(match_id=match.id))
                if match.status != "active":
                    raise ServiceError(strings.NOT_STARTED.format(match_id=match.id))
                view = discord.ui.View(timeout=None)
                view.add_item(ResignButton(match.id))
                await interaction.response.send_message(
                    strings.RESIGN_CONFIRM.format(match_id=match.id), view=view, ephemeral=True)
                return
            match = await self.service.resign(match_id, interaction.user.id)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        await interaction.response.edit_message(
            content=strings.RESIGN_DONE.format(match_id=match.id), view=None)
        board = await self.board_of(match, lead=strings.RESIGNED.format(
            name=player(interaction.user).name, match_id=match.id))
        await interaction.followup.send(**board.kwargs())

    async def abort(self, interaction: discord.Interaction) -> None:
        try:
            match = await self.service.in_channel(interaction.channel_id)
            match = await self.service.abort(match.id, interaction.user.id,
                                             is_manager=_is_manager(interaction))
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        await interaction.response.send_message(
            strings.ABORTED.format(match_id=match.id, name=player(interaction.user).name),
            allowed_mentions=mention_only(None))

    async def list_matches(self, interaction: discord.Interaction) -> None:
        matches = await self.service.live_matches_of(interaction.user.id)
        if not matches:
            await self.tell(interaction, strings.MATCHES_NONE)
            return
        lines = [strings.MATCHES_HEADER]
        now = self.service.clock()

        def waited(match: Match) -> float:  # how long the match has waited on this user
            if _waiting_on(match) != interaction.user.id:
                return -1.0
            return now - (match.row.turn_started_at or match.row.updated_at)

        for match in sorted(matches, key=waited, reverse=True):
            status = _status(match, interaction.user.id)
            if waited(match) >= 0:
                clock = await self.service.clock_of(match)
                due = strings.DUE_IN.format(left=format_duration(clock.remaining)) if clock else ""
                status += f" (waiting {format_duration(waited(match))}{due})"
            lines.append(strings.MATCH_LINE.format(
                match_id=match.id, game=match.game.name, link=channel_link(match), status=status))
        await self.tell(interaction, "\n".join(lines)[:2000])

    async def rules(self, interaction: discord.Interaction, game_id: str | None) -> None:
        """One game's summary, or every game's, one message each (Discord's 2000 characters)."""
        games = ", ".join(f"`{g}`" for g in PLAYABLE)
        if game_id is None:
            texts = [strings.RULES[g] for g in PLAYABLE if g in strings.RULES]
        else:
            texts = [strings.RULES.get(game_id) or strings.RULES_UNKNOWN.format(game=game_id,
                                                                                games=games)]
        await interaction.response.send_message(texts[0][:2000], ephemeral=True)
        for text in texts[1:]:
            await interaction.followup.send(text[:2000], ephemeral=True)

    async def help(self, interaction: discord.Interaction) -> None:
        games = ", ".join(g.name for g in PLAYABLE.values())
        await interaction.response.send_message(strings.HELP.format(games=games), ephemeral=True)

    async def settings(self, interaction: discord.Interaction, threads: bool | None = None,
                       time_per_move: str | None = None, spectators_talk: bool | None = None,
                       channel: discord.abc.GuildChannel | None = None,
                       channel_action: str | None = None) -> None:
        if interaction.guild is None:
            await self.tell(interaction, strings.NOT_IN_GUILD)
            return
        if not _is_manager(interaction):
            await self.tell(interaction, strings.SETTINGS_FORBIDDEN)
            return
        store, guild_id = self.service.store, interaction.guild.id
        try:
            changes: dict = {}
            if threads is not None:
                changes["use_threads"] = threads
            if time_per_move is not None:
                changes["move_seconds"] = parse_time(time_per_move)
            if spectators_talk is not None:
                changes["spectators_talk"] = spectators_talk
            if channel_action == "all":
                changes["channels"] = None
            elif channel is not None:
                current = set((await store.guild_settings(guild_id))["channels"] or [])
                if channel_action == "disallow":
                    current.discard(channel.id)
                else:
                    current.add(channel.id)
                changes["channels"] = sorted(current) or None
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        if changes:
            await store.update_guild_settings(guild_id, **changes)
        now = await store.guild_settings(guild_id)
        await self.tell(interaction, strings.SETTINGS_LINES.format(
            threads=strings.SETTINGS_THREADS_ON if now["use_threads"] else strings.SETTINGS_THREADS_OFF,
            time=format_duration(now["move_seconds"]) if now["move_seconds"] else strings.NO_LIMIT,
            channels=", ".join(f"<#{c}>" for c in now["channels"]) if now["channels"]
            else strings.SETTINGS_ALL_CHANNELS,
            spectators=strings.SPECTATORS_TALK if now["spectators_talk"] else strings.SPECTATORS_QUIET))

    # -- clocks, offers, vacations ---------------------------------------------------------
    async def claim(self, interaction: discord.Interaction, match_id: int, version: int) -> None:
        try:
            match, absent, skipped = await self.service.claim(match_id, interaction.user.id,
                                                              expected_version=version)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        name = player(interaction.user).name
        lead = (strings.SKIPPED if skipped else strings.CLAIMED_WIN).format(
            name=name, absent=absent.name, match_id=match.id)
        await interaction.response.edit_message(view=None)
        board = await self.board_of(match, lead=lead)
        await interaction.followup.send(**board.kwargs())

    async def offer(self, interaction: discord.Interaction, kind: str) -> None:
        try:
            match = await self.service.in_channel(interaction.channel_id)
            offer = await (self.service.offer_draw(match.id, interaction.user.id) if kind == "draw"
                           else self.service.request_takeback(match.id, interaction.user.id))
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        others = [s for s in offer.match.seats if s.user_id != interaction.user.id]
        mentions = ", ".join(f"<@{s.user_id}>" for s in others)
        text = (strings.OFFER_DRAW if kind == "draw" else strings.OFFER_TAKEBACK).format(
            name=offer.from_user.name, match_id=offer.match.id, mention=mentions,
            notation=offer.notation)
        view = discord.ui.View(timeout=None)
        view.add_item(OfferButton(offer.id, "accept", strings.ACCEPT))
        view.add_item(OfferButton(offer.id, "decline", strings.DECLINE))
        await interaction.response.send_message(
            text, view=view, allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(s.user_id) for s in others]))

    async def answer_offer(self, interaction: discord.Interaction, offer_id: int,
                           accept: bool) -> None:
        try:
            offer, match = await self.service.answer_offer(offer_id, interaction.user.id, accept)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        name = player(interaction.user).name
        if not accept:
            await interaction.response.edit_message(
                content=strings.OFFER_DECLINED.format(name=name, kind=offer.kind,
                                                      match_id=match.id), view=None)
            return
        lead = (strings.DRAW_AGREED.format(match_id=match.id) if offer.kind == "draw" else
                strings.TAKEBACK_DONE.format(name=name, notation=offer.notation))
        await interaction.response.edit_message(content=lead, view=None)
        board = await self.board_of(match)
        await interaction.followup.send(**board.kwargs())

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        try:
            match = await self.service.rematch(match_id, player(interaction.user))
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        content, view = self.lobby_payload(match)
        invited = match.row.invited_id
        await interaction.response.send_message(content, view=view,
                                                allowed_mentions=mention_only(invited))

    async def vacation(self, interaction: discord.Interaction, days: int | None,
                       end: bool) -> None:
        try:
            if end:
                await self.service.end_vacation(interaction.user.id)
                await self.tell(interaction, strings.VACATION_ENDED)
                return
            until, left = await self.service.start_vacation(interaction.user.id, days or 7)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        days = days or 7
        await self.tell(interaction, strings.VACATION_SET.format(
            until=f"<t:{int(until)}:f>", days=days, s="" if days == 1 else "s", left=int(left)))

    async def reminders(self, interaction: discord.Interaction, mode: str) -> None:
        try:
            await self.service.set_reminders(interaction.user.id, mode)
        except ServiceError as exc:
            await self.tell(interaction, exc.message)
            return
        await self.tell(interaction, strings.REMINDERS_SET[mode])

    async def deliver(self, notices) -> None:
        """Send what the clock made due: reminders and digests by DM, expiries to the match."""
        for notice in notices:
            try:
                if isinstance(notice, Reminder):
                    match = notice.match
                    template = strings.REMINDER_HALF if notice.stage == "half" else strings.REMINDER_LAST
                    await send_dm(self.client, notice.user_id, template.format(
                        match_id=match.id, game=match.game.name, link=channel_link(match),
                        left=format_duration(notice.clock.remaining)))
                elif isinstance(notice, Digest):
                    lines = [strings.DIGEST_HEADER.format(n=len(notice.waiting),
                                                          es="" if len(notice.waiting) == 1 else "es")]
                    for match, waited, clock in notice.waiting:
                        due = strings.DUE_IN.format(left=format_duration(clock.remaining)) \
                            if clock else ""
                        lines.append(strings.DIGEST_LINE.format(
                            match_id=match.id, game=match.game.name, link=channel_link(match),
                            waited=format_duration(waited), due=due))
                    await send_dm(self.client, notice.user_id, "\n".join(lines)[:2000])
                elif isinstance(notice, Expired):
                    await self._post_expiry(notice)
            except discord.HTTPException as exc:
                log.warning("could not deliver %s: %s", type(notice).__name__, exc)

    async def _post_expiry(self, notice: Expired) -> None:
        match = notice.match
        others = [s for s in match.seats if s.user_id != notice.absent.user_id]
        two = len(match.seats) == 2
        view = discord.ui.View(timeout=None)
        view.add_item(ClaimButton(match.id, match.row.version,
                                  strings.CLAIM_BUTTON if two else strings.SKIP_BUTTON))
        text = strings.EXPIRED.format(
            absent=notice.absent.name, match_id=match.id,
            mentions=", ".join(f"<@{s.user_id}>" for s in others),
            action=strings.ACTION_CLAIM if two else strings.ACTION_SKIP)
        channel = self.client.get_partial_messageable(match.row.channel_id)
        await channel.send(text, view=view, allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(s.user_id) for s in others]))


def _is_manager(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def _waiting_on(match: Match) -> int | None:
    mover = match.to_move()
    return mover.user_id if mover else None


def _status(match: Match, user_id: int) -> str:
    if match.status == "open":
        return strings.STATUS_LOBBY.format(have=len(match.seats),
                                           need=match.game.info.min_seats)
    if match.status == "invited":
        return strings.STATUS_INVITED.format(name=match.row.user_at(1).name)
    mover = match.to_move()
    if mover is None:
        return ""
    if mover.user_id == user_id:
        return strings.STATUS_YOUR_TURN
    return strings.STATUS_WAITING.format(name=mover.name)
