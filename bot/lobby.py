"""The lobby or invitation message of a match that has not started, and its buttons: Join,
Add AI player, Start, Cancel (a lobby); Accept, Decline (an invitation)."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from games import phrase

from .interactions import Interaction, fit, is_manager, note_match, player, texts_for
from .service import Match
from .ui import ID, Component, StaticView, button, template
from .words import strings
from .words.i18n import Texts

STYLES = {"join": discord.ButtonStyle.primary, "start": discord.ButtonStyle.success,
          "cancel": discord.ButtonStyle.secondary, "accept": discord.ButtonStyle.success,
          "decline": discord.ButtonStyle.danger, "ai": discord.ButtonStyle.secondary}
LABELS = {"join": strings.BUTTON_JOIN, "start": strings.BUTTON_START,
          "cancel": strings.BUTTON_CANCEL, "accept": strings.BUTTON_ACCEPT,
          "decline": strings.BUTTON_DECLINE, "ai": strings.BUTTON_ADD_AI}


def options_text(match: Match) -> str:
    """The options that differ from the game's defaults, as `, name=value ...`."""
    defaults = {spec.name: spec.default for spec in match.game.info.options}
    changed = [f"{k}={v}" for k, v in match.row.options.items() if defaults.get(k) != v]
    return f", {' '.join(changed)}" if changed else ""


def lobby_message(match: Match, texts: Texts) -> tuple[str, StaticView]:
    host = match.row.user_at(0)
    host_name = host.name if host else "?"
    view = StaticView()
    if match.status == "invited":
        invited = match.row.user_at(1)
        content = texts(phrase(
            strings.INVITATION, opponent=f"<@{invited.user_id}>" if invited else "?",
            host=host_name, game=match.game.name, match_id=match.id,
            options=options_text(match)))
        actions: tuple[str, ...] = ("accept", "decline")
    else:
        content = texts(phrase(strings.LOBBY_OPEN, host=host_name, game=match.game.name,
                               match_id=match.id, options=options_text(match),
                               max=match.game.info.max_seats))
        content += "\n" + texts(phrase(strings.LOBBY_SEATS, names=tuple(match.names())))
        actions = ("join", "start", "cancel")
        if match.game.info.max_seats > 2:  # the host may fill seats with AI players
            actions = ("join", "ai", "start", "cancel")
    if match.row.rated and all(s.user_id > 0 for s in match.seats):  # AI seats: unrated
        content += "\n" + texts(strings.LOBBY_RATED)
    for action in actions:
        view.add_item(LobbyButton(action, match.id, label=texts(LABELS[action])))
    return fit(content), view


class LobbyButton(Component[discord.ui.Button[Any]],
                  template=template(rf"c1:l:(?P<action>join|start|cancel|accept|decline|ai)"
                                    rf":(?P<match>{ID})")):
    """A lobby's or an invitation's button."""

    def __init__(self, action: str, match_id: int, *, label: str = "") -> None:
        self.action, self.match_id = action, match_id
        super().__init__(button(label, f"c1:l:{action}:{match_id}", style=STYLES[action]))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(found["action"], int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        service = self.service
        match_id = self.match_id
        note_match(match_id)
        user = player(interaction.user)
        texts = texts_for(interaction)
        action = self.action
        match: Match
        if action in ("join", "ai"):
            match = await (service.join(match_id, user) if action == "join"
                           else service.add_ai(match_id, user.user_id))
            if match.status == "open":
                content, view = lobby_message(match, texts)
                await interaction.response.edit_message(content=content, view=view)
                return
            await _started(interaction, match)
        elif action in ("start", "accept"):
            match = await (service.start(match_id, user.user_id) if action == "start"
                           else service.accept(match_id, user.user_id))
            await _started(interaction, match)
        elif action == "decline":
            match = await service.decline(match_id, user.user_id)
            said = strings.WITHDRAWN if user.user_id == match.row.host_id else strings.DECLINED
            await interaction.response.edit_message(
                content=texts(phrase(said, name=user.name, match_id=match.id)), view=None)
        else:
            match = await service.abort(match_id, user.user_id,
                                        is_manager=is_manager(interaction), name=user.name)
            await interaction.response.edit_message(
                content=texts(phrase(strings.ABORTED, match_id=match.id, name=user.name)),
                view=None)


async def _started(interaction: Interaction, match: Match) -> None:
    seats = tuple(phrase(strings.SEATED, seat=match.game.seat_title(s.seat), name=s.name)
                   for s in match.seats)
    await interaction.response.edit_message(
        content=texts_for(interaction)(phrase(strings.MATCH_STARTED, match_id=match.id,
                                              game=match.game.name, seats=seats)), view=None)
