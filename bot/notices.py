"""A notice's buttons (`outbox.Notice`): Claim the win or Skip their turn after a timeout,
Accept and Decline of a draw or takeback offer; and what they do."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from .interactions import Interaction, note_match
from .outbox import ClaimButton, NoticeButton
from .ui import ID, Component, StaticView, button, match_here, template
from .words import strings
from .words.i18n import Texts


def notice_view(match_id: int, buttons: tuple[NoticeButton, ...], texts: Texts) -> StaticView:
    view = StaticView()
    for spec in buttons:
        if isinstance(spec, ClaimButton):
            label = strings.BUTTON_SKIP if spec.skip else strings.BUTTON_CLAIM
            view.add_item(Claim(match_id, spec.version, label=texts(label)))
        else:
            view.add_item(OfferAnswer(spec.offer_id, True, label=texts(strings.BUTTON_ACCEPT)))
            view.add_item(OfferAnswer(spec.offer_id, False,
                                      label=texts(strings.BUTTON_DECLINE)))
    return view


class Claim(Component[discord.ui.Button[Any]],
            template=template(rf"c1:c:(?P<match>{ID}):(?P<version>{ID})")):
    """Claim the win (two players) or Skip their turn (more) of a player whose time ran out,
    while the match is still at `version`."""

    def __init__(self, match_id: int, version: int, *, label: str = "") -> None:
        self.match_id, self.version = match_id, version
        super().__init__(button(label, f"c1:c:{match_id}:{version}",
                                style=discord.ButtonStyle.danger))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]), int(found["version"]))

    async def handle(self, interaction: Interaction) -> None:
        match = await match_here(self.service, interaction, self.match_id)
        await self.service.claim(match.id, interaction.user.id, expected_version=self.version)
        await interaction.response.edit_message(view=None)


class OfferAnswer(Component[discord.ui.Button[Any]],
                  template=template(rf"c1:o:(?P<offer>{ID}):(?P<answer>a|d)")):
    """Accept (`a`) or Decline (`d`) of a draw or takeback offer."""

    def __init__(self, offer_id: int, accept: bool, *, label: str = "") -> None:
        self.offer_id, self.accept = offer_id, accept
        super().__init__(button(
            label, f"c1:o:{offer_id}:{'a' if accept else 'd'}",
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["offer"]), found["answer"] == "a")

    async def handle(self, interaction: Interaction) -> None:
        # an offer that reached a player's DM (its match's channel out of Corral's reach)
        # is answered there
        _, match = await self.service.answer_offer(
            self.offer_id, interaction.user.id, self.accept, channel_id=interaction.channel_id,
            from_dm=bool(interaction.context.dm_channel))
        note_match(match.id)
        await interaction.response.edit_message(view=None)


NOTICE_COMPONENTS: tuple[type[Component[Any]], ...] = (Claim, OfferAnswer)
