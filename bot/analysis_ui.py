"""Asking for a post-game analysis: the Analysis button of a finished match's board (its end
notice) and `/analysis` (bot/cogs/analysis.py) both come here.

The first request of a match answers in the channel, and that answer shows the progress until
the result is posted below it (bot/analysis_runner.py); a request while the job runs is told
so privately; a request once it is done gets the stored result posted again (never a second
analysis)."""

from __future__ import annotations

import re
import time
from typing import Any, Self

import discord

from games import phrase

from .interactions import TOKEN_LIFETIME, Interaction, note_match, reply, texts_for
from .service import Service
from .ui import ID, Component, button
from .ui import template as id_template
from .words import strings


async def ask_analysis(service: Service, interaction: Interaction, match_id: int) -> None:
    note_match(match_id)
    texts = texts_for(interaction)
    found = await service.request_analysis(
        match_id, interaction.user.id, channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id, token=interaction.token,
        token_expires=time.time() + TOKEN_LIFETIME, language=texts.language)
    match, job = found.match, found.job
    if found.outcome == "queued":
        await reply(interaction, phrase(strings.ANALYSIS_QUEUED, match_id=match.id,
                                        game=match.game.name), ephemeral=False)
    elif found.outcome == "running":
        await reply(interaction, phrase(strings.ANALYSIS_ALREADY, match_id=match.id,
                                        n=len(job.judged), total=job.total,
                                        link=f"<#{job.channel_id}>"))
    else:
        await reply(interaction, phrase(strings.ANALYSIS_AGAIN, match_id=match.id))


class AnalysisButton(Component[discord.ui.Button[Any]],
                     template=id_template(rf"c1:A:(?P<match>{ID})")):
    """Analysis, on a finished match's board."""

    def __init__(self, match_id: int, *, label: str = "", row: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:A:{match_id}", style=discord.ButtonStyle.secondary,
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        await ask_analysis(self.service, interaction, self.match_id)
