"""The lobby or invitation message of a match that has not started."""

from __future__ import annotations

import discord

from games import phrase

from . import strings
from .boards import fit
from .i18n import Texts
from .service import Match
from .ui import StaticView, button

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
        view.add_item(button(texts(LABELS[action]), f"c1:l:{action}:{match.id}",
                             style=STYLES[action]))
    return fit(content), view
