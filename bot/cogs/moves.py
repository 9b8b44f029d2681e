"""Moves: /move (with autocomplete) and its "Play it again" question, /board (the picture,
or in words: `text:` and `at:`, bot/textboard.py), and the move buttons of boards posted
before the step flow. The step flow's own components are bot/ui.py's."""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands

from games import phrase

from ..boards import board_buttons, board_controls, board_layout, reply_layout
from ..interactions import Handling, Interaction, Tree, note_match, reply, texts_for, via
from ..lobby import lobby_message
from ..pictures import board_card
from ..pool import Workers
from ..service import ConfirmRepeat, Service, ServiceError, result_phrase
from ..textboard import describe_text, point_choices, point_text, reply_pages
from ..ui import ID, NOTATION, Component, StaticView, match_here, played, template
from ..words import strings
from .conditional import after_move_view

PLY_SUFFIX = re.compile(r"^(?P<move>.*?)\s*#(?P<ply>[0-9]{1,6})$")


def split_ply(text: str) -> tuple[str, int | None]:
    """`k #12` (what autocomplete fills in) -> ('k', 12): the move and the ply it was chosen
    at, so that a repeat of a /move whose answer was lost is recognised."""
    found = PLY_SUFFIX.match(text.strip())
    if found is None:
        return text, None
    return found["move"], int(found["ply"])


def register(tree: Tree, service: Service, handling: Handling, pictures: Workers) -> None:
    @tree.command(name="move", description="Play a move in this channel's match")
    @app_commands.describe(notation="Your move (the list shows your legal moves)")
    async def move(interaction: Interaction, notation: str) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            text, ply = split_ply(notation[:200])
            try:
                result = await service.play(
                    match.id, interaction.user.id, text, expected_ply=ply,
                    interaction_id=interaction.id, seen=match, via=via(interaction),
                    confirm_repeat=True)
            except ConfirmRepeat as ask:
                await ask_to_repeat(interaction, ask)
                return
            queue = None if result.already else after_move_view(
                result.match, interaction.user.id, texts_for(interaction))
            if queue is not None:
                await reply(interaction, played(result), view=queue)
            else:
                await reply(interaction, played(result))

    @move.autocomplete("notation")
    async def move_notation(interaction: Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        try:
            match = await service.in_channel(interaction.channel_id or 0)
        except ServiceError:
            return []
        typed = split_ply(current)[0].strip().lower()
        legal = service.legal_moves_for(match, interaction.user.id)
        ply = match.ply()
        return [app_commands.Choice(name=n[:100], value=f"{n} #{ply}"[:100]) for n in legal
                if n.lower().startswith(typed)][:25]

    @tree.command(name="board", description="Show this channel's match")
    @app_commands.describe(public="Post it for everyone (default: only you see it)",
                           text="The whole position in words, for a screen reader (only you "
                                "see it)",
                           at="What is on one place of the board: a pit, a cell, a face")
    async def board(interaction: Interaction, public: bool = False, text: bool = False,
                    at: str | None = None) -> None:
        async with handling(interaction):
            if at is not None or text:
                match = await service.in_channel(interaction.channel_id or 0)
                note_match(match.id)
                texts = texts_for(interaction)
                await reply_pages(interaction, point_text(
                    match, interaction.user.id, at, texts) if at is not None else
                    await describe_text(service, match, interaction.user.id, texts))
                return
            await show_board(service, pictures, interaction, public)

    @board.autocomplete("at")
    async def board_at(interaction: Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        try:
            match = await service.in_channel(interaction.channel_id or 0)
        except ServiceError:
            return []
        typed = current.strip().lower()
        return [app_commands.Choice(name=name[:100], value=name[:100])
                for name in point_choices(match, interaction.user.id)
                if name.lower().startswith(typed)][:25]


async def ask_to_repeat(interaction: Interaction, ask: ConfirmRepeat) -> None:
    """The typed move repeats the player's own move of a moment ago: a button plays it."""
    texts = texts_for(interaction)
    view = StaticView()
    view.add_item(RepeatButton(ask.match_id, ask.ply, ask.notation, label=texts(phrase(
        strings.BUTTON_PLAY_AGAIN, notation=ask.notation))))
    await reply(interaction, ask.phrase, view=view)


class RepeatButton(Component[discord.ui.Button[Any]],
                   template=template(rf"c1:y:(?P<match>{ID}):(?P<ply>{ID}):(?P<move>{NOTATION})")):
    """"Play it again": a typed move that repeats the player's own move of a moment ago,
    at the ply the question was asked at."""

    def __init__(self, match_id: int, ply: int, notation: str, *, label: str = "") -> None:
        self.match_id, self.ply, self.notation = match_id, ply, notation
        super().__init__(discord.ui.Button(
            label=label[:80], custom_id=f"c1:y:{match_id}:{ply}:{notation}"[:100],
            style=discord.ButtonStyle.primary))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["ply"]), found["move"])

    async def handle(self, interaction: Interaction) -> None:
        match = await match_here(self.service, interaction, self.match_id)
        result = await self.service.play(match.id, interaction.user.id, self.notation,
                                         expected_ply=self.ply, interaction_id=interaction.id,
                                         seen=match, via=via(interaction))
        await interaction.response.edit_message(content=texts_for(interaction)(played(result)),
                                                view=None)


class LegacyMoveButton(Component[discord.ui.Button[Any]],
                       template=template(rf"corral:mv:(?P<match>{ID}):(?P<ply>{ID})"
                                         rf":(?P<move>{NOTATION})")):
    """A move button of a board posted before the step flow (never sent any more)."""

    def __init__(self, match_id: int, ply: int, notation: str) -> None:
        self.match_id, self.ply, self.notation = match_id, ply, notation
        super().__init__(discord.ui.Button(label=notation[:80],
                                           custom_id=f"corral:mv:{match_id}:{ply}:{notation}"))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["ply"]), found["move"])

    async def handle(self, interaction: Interaction) -> None:
        match = await match_here(self.service, interaction, self.match_id)
        result = await self.service.play(match.id, interaction.user.id, self.notation,
                                         expected_ply=self.ply, interaction_id=interaction.id,
                                         seen=match, via=via(interaction))
        await reply(interaction, played(result))


COMPONENTS: tuple[type[Component[Any]], ...] = (RepeatButton, LegacyMoveButton)


async def show_board(service: Service, pictures: Workers, interaction: Interaction,
                     public: bool) -> None:
    """The current board: to the caller only (with the move's first question if it is their
    turn), or posted for everyone as the match's live board."""
    match = await service.in_channel(interaction.channel_id or 0)
    note_match(match.id)
    texts = texts_for(interaction)
    if match.state is None:
        content, view = lobby_message(match, texts)
        await reply(interaction, content, view=view)
        return
    if public:
        await service.repost_board(match.id)
        await reply(interaction, phrase(strings.BOARD_HEADER, match_id=match.id,
                                        game=match.game.name, ply=match.ply()))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = result_phrase(match)
    picture, alt, accent = await pictures.run(
        board_card, match.game.id, match.row.state, match.names(),
        texts(result, match.names()) if result else None, texts.language,
        match.status == "finished")
    header = texts(phrase(strings.BOARD_HEADER, match_id=match.id, game=match.game.name,
                          ply=match.ply()))
    mover = match.to_move()
    lines = [header]
    if result is not None:
        lines.append(texts(result, match.names()))
    elif mover is not None:
        lines.append(texts(phrase(strings.STATUS_WAITING, name=mover.name)))
    mine = mover is not None and mover.user_id == interaction.user.id
    layout = board_layout("\n".join(lines), alt, accent=accent, controls=board_controls(
        match.game, match.state, match.id, match.ply(), running=mine, texts=texts),
        buttons=board_buttons(match.game, match.state, match.id, match.ply(), running=mine,
                              finished=False, texts=texts))
    await reply_layout(interaction, layout, picture, alt)
