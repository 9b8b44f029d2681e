"""Moves: /move (with autocomplete), the generic step-by-step flow on boards and in private
messages, and /board."""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from games import Answer, Phrase, phrase

from .. import strings
from ..boards import board_view
from ..interactions import Interaction, handling, note_match, reply, texts_for, via
from ..pictures import board_picture
from ..service import (
    ConfirmRepeat,
    Match,
    MoveResult,
    ServiceError,
    StaleAction,
    result_phrase,
)
from ..ui import Custom, StaticView, button, manual_answers, repeat_id, step_view

if TYPE_CHECKING:
    from ..client import CorralBot

PLY_SUFFIX = re.compile(r"^(?P<move>.*?)\s*#(?P<ply>[0-9]{1,6})$")


def split_ply(text: str) -> tuple[str, int | None]:
    """`k #12` (what autocomplete fills in) -> ('k', 12): the move and the ply it was chosen
    at, so that a repeat of a /move whose answer was lost is recognised."""
    found = PLY_SUFFIX.match(text.strip())
    if found is None:
        return text, None
    return found["move"], int(found["ply"])


def register(tree: app_commands.CommandTree[CorralBot], bot: CorralBot) -> None:
    @tree.command(name="move", description="Play a move in this channel's match")
    @app_commands.describe(notation="Your move (the list shows your legal moves)")
    @app_commands.guild_only()
    async def move(interaction: Interaction, notation: str) -> None:
        async with handling(interaction):
            match = await bot.service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            text, ply = split_ply(notation[:200])
            try:
                result = await bot.service.play(
                    match.id, interaction.user.id, text, expected_ply=ply,
                    interaction_id=interaction.id, seen=match, via=via(interaction),
                    confirm_repeat=True)
            except ConfirmRepeat as ask:
                await ask_to_repeat(interaction, ask)
                return
            await reply(interaction, played(result))

    @move.autocomplete("notation")
    async def move_notation(interaction: Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        try:
            match = await bot.service.in_channel(interaction.channel_id or 0)
        except ServiceError:
            return []
        typed = split_ply(current)[0].strip().lower()
        legal = bot.service.legal_moves_for(match, interaction.user.id)
        ply = match.ply()
        return [app_commands.Choice(name=n[:100], value=f"{n} #{ply}"[:100]) for n in legal
                if n.lower().startswith(typed)][:25]

    @tree.command(name="board", description="Show this channel's match")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    @app_commands.guild_only()
    async def board(interaction: Interaction, public: bool = False) -> None:
        async with handling(interaction):
            await show_board(bot, interaction, public)


async def ask_to_repeat(interaction: Interaction, ask: ConfirmRepeat) -> None:
    """The typed move repeats the player's own move of a moment ago: a button plays it."""
    texts = texts_for(interaction)
    view = StaticView()
    view.add_item(button(texts(phrase(strings.BUTTON_PLAY_AGAIN, notation=ask.notation)),
                         repeat_id(ask.match_id, ask.ply, ask.notation)))
    await reply(interaction, ask.phrase, view=view)


async def on_repeat(bot: CorralBot, interaction: Interaction, custom: Custom) -> None:
    """"Play it again", pressed: the move, at the ply the question was asked at."""
    match = await _match_for(bot, interaction, custom)
    result = await bot.service.play(match.id, interaction.user.id, custom.notation,
                                    expected_ply=custom.ply, interaction_id=interaction.id,
                                    seen=match, via=via(interaction))
    await interaction.response.edit_message(content=texts_for(interaction)(played(result)),
                                            view=None)


def played(result: MoveResult) -> Phrase:
    if result.already:
        return phrase(strings.ALREADY_PLAYED, notation=result.notation, ply=result.ply + 1)
    return phrase(strings.YOU_PLAYED, notation=result.notation, match_id=result.match.id)


async def _match_for(bot: CorralBot, interaction: Interaction, custom: Custom) -> Match:
    assert custom.match_id is not None
    note_match(custom.match_id)
    match = await bot.service.get(custom.match_id)
    if interaction.channel_id not in match.row.channels:
        raise ServiceError(strings.WRONG_CHANNEL, match_id=match.id)
    return match


async def on_step(bot: CorralBot, interaction: Interaction, custom: Custom,
                  values: list[str] | None = None) -> None:
    """A click on a step's button or menu: the next question, or the move once complete."""
    match = await _match_for(bot, interaction, custom)
    answers: tuple[Answer, ...] = custom.answers
    if custom.kind == "S":
        answers = answers + (tuple(values or ()),)
    elif custom.kind == "b":
        keep = max(0, manual_answers(match.game, match.state, answers) - 1)
        answers = answers[:keep]
    elif custom.kind == "p":
        answers = ()
    await advance(bot, interaction, match, answers, custom.ply)


async def advance(bot: CorralBot, interaction: Interaction, match: Match,
                  answers: tuple[Answer, ...], ply: int | None) -> None:
    try:
        step, answers = bot.service.move_input(match, interaction.user.id, answers,
                                               expected_ply=ply)
    except StaleAction:
        made = None if ply is None else await bot.service.move_made_at(
            match.id, interaction.user.id, ply)
        if made is None:
            raise
        await reply(interaction, phrase(strings.ALREADY_PLAYED, notation=made.notation,
                                        ply=made.ply + 1))
        return
    private_message = bool(interaction.message and interaction.message.flags.ephemeral)
    texts = texts_for(interaction)
    if isinstance(step, str):
        board = interaction.message if interaction.message and not private_message else None
        result = await bot.service.play(match.id, interaction.user.id, step, expected_ply=ply,
                                        interaction_id=interaction.id,
                                        answered_on=board.id if board else None, seen=match,
                                        via=via(interaction))
        if private_message:
            await interaction.response.edit_message(content=texts(played(result)), view=None,
                                                    attachments=[])
        elif result.already:
            await reply(interaction, played(result))
        else:  # the board clicked on is retired at once (no edit later); the new one follows
            try:
                await interaction.response.edit_message(view=None)
            except discord.HTTPException:
                if board is not None:
                    await bot.service.board_kept_live(result.match, board.id, board.channel.id)
                raise
        return
    content = texts(phrase(strings.STEP_PROMPT, match_id=match.id, ply=match.ply() + 1,
                           prompt=step.prompt))
    if step.private:
        content += " " + texts(strings.PRIVATE_HINT)
    view = step_view(step, match.id, match.ply(), answers, texts,
                     back=manual_answers(match.game, match.state, answers) > 0)
    if private_message:
        await interaction.response.edit_message(content=content, view=view, attachments=[])
    else:
        await interaction.response.send_message(content, view=view, ephemeral=True)


async def on_legacy_move(bot: CorralBot, interaction: Interaction, custom: Custom) -> None:
    """A move button of a board posted before the generic flow."""
    match = await _match_for(bot, interaction, custom)
    result = await bot.service.play(match.id, interaction.user.id, custom.notation,
                                    expected_ply=custom.ply, interaction_id=interaction.id,
                                    seen=match, via=via(interaction))
    await reply(interaction, played(result))


async def show_board(bot: CorralBot, interaction: Interaction, public: bool) -> None:
    """The current board: to the caller only (with the move's first question if it is their
    turn), or posted for everyone as the match's live board."""
    match = await bot.service.in_channel(interaction.channel_id or 0)
    note_match(match.id)
    texts = texts_for(interaction)
    if match.state is None:
        from ..lobby import lobby_message

        content, view = lobby_message(match, texts)
        await reply(interaction, content, view=view)
        return
    if public:
        await bot.service.repost_board(match.id)
        await reply(interaction, phrase(strings.BOARD_HEADER, match_id=match.id,
                                        game=match.game.name, ply=match.ply()))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = result_phrase(match)
    picture = await bot.workers.run(board_picture, match.game.id, match.row.state, None,
                                    match.names(), texts(result, match.names()) if result
                                    else None, texts.language)
    header = texts(phrase(strings.BOARD_HEADER, match_id=match.id, game=match.game.name,
                          ply=match.ply()))
    mover = match.to_move()
    lines = [header]
    if result is not None:
        lines.append(texts(result, match.names()))
    elif mover is not None:
        lines.append(texts(phrase(strings.STATUS_WAITING, name=mover.name)))
    mine = mover is not None and mover.user_id == interaction.user.id
    view = board_view(match.game, match.state, match.id, match.ply(), running=mine,
                      finished=False, texts=texts)
    await reply(interaction, "\n".join(lines), view=view,
                file=discord.File(io.BytesIO(picture), filename="board.png"))

