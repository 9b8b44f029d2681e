"""What a board message says and which components it carries, from an outbox row.

The text is composed when the row is delivered, in the reader's language, from the phrases the
service stored; the components only on the newest board (an older one still being delivered
after a restart gets none, and pings nobody).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from games import Game, Phrase, phrase

from . import strings
from .clocks import absolute_time, relative_time
from .i18n import Texts, phrase_from_json
from .ui import StaticView, add_step, button, first_step

MAX_CONTENT = 2000


def names_of(payload: dict[str, Any]) -> list[str]:
    return [name for _, name in payload["seats"]]


def allowed(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Ping exactly these users and nobody else. Rows queued before AI seats were left out of
    mention lists may still name one (a negative id, which Discord refuses): it is dropped."""
    users = [discord.Object(u) for u in user_ids if u > 0]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=users or False)


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """Discord refuses longer messages: cut at a line end where possible."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 1)
    return (text[:cut] if cut > limit // 2 else text[:limit - 1]) + "…"


def board_text(payload: dict[str, Any], texts: Texts, *, current: bool) -> tuple[str, list[int]]:
    """The board's content and whom it pings (nobody on a stale board)."""
    names = names_of(payload)
    lines: list[str] = []
    lead = phrase_from_json(payload.get("lead"))
    if lead:
        lines.append(texts(lead, names))
    if payload.get("reposted") and not lead:
        lines.append(texts(strings.REPOSTED))
    for line in payload.get("lines") or ():
        lines.append(texts(phrase_from_json(line) or "", names))
    scores = payload.get("scores") or []
    if scores:
        lines.append(texts(phrase(strings.SCORES, scores=" · ".join(
            f"{name} {score}" for name, score in zip(names, scores, strict=False)))))
    mentions = list(payload.get("mention") or []) if current else []
    if payload.get("final"):
        result = phrase_from_json(payload.get("result")) or phrase(strings.RESULT_DRAW)
        lines.append(texts(phrase(strings.RESULT_LINE, match_id=payload["match_id"],
                                  result=result), names))
        if payload.get("ratings"):
            named = dict(payload["seats"])
            lines.append(texts(phrase(strings.RATINGS_LINE, changes=" · ".join(
                texts(phrase(strings.RATING_CHANGE, name=named.get(uid, "?"), before=before,
                             after=after, delta=f"{delta:+d}".replace("-", "−")))
                for uid, before, after, delta in payload["ratings"]))))
        lines.append(texts(phrase(strings.PLAYERS_LINE, mentions=tuple(
            f"<@{uid}>" if uid > 0 else name for uid, name in payload["seats"]))))
    elif payload.get("turn") is not None and payload["turn"] < 0:  # an AI seat: no mention
        name = next((n for uid, n in payload["seats"] if uid == payload["turn"]), "?")
        lines.append(texts(phrase(strings.AI_THINKING, name=name)))
    elif payload.get("turn") is not None:
        mention = f"<@{payload['turn']}>"
        note = phrase_from_json(payload.get("turn_note"))
        lines.append(texts(phrase(strings.YOUR_TURN_NOTE, mention=mention, note=note)
                           if note else phrase(strings.YOUR_TURN, mention=mention), names))
        if payload.get("vacation_until"):
            who = next((n for uid, n in payload["seats"] if uid == payload["turn"]), "?")
            lines.append(texts(phrase(strings.ON_VACATION, name=who,
                                      until=absolute_time(payload["vacation_until"]))))
        if payload.get("due_at"):
            lines.append(texts(phrase(strings.DUE, relative=relative_time(payload["due_at"]),
                                      absolute=absolute_time(payload["due_at"]))))
    return fit("\n".join(lines)), mentions


def result_text(payload: dict[str, Any], texts: Texts) -> str | None:
    """The final board's result in words, for the picture."""
    if not payload.get("final"):
        return None
    result = phrase_from_json(payload.get("result")) or phrase(strings.RESULT_DRAW)
    return texts(result, names_of(payload))


def board_view(game: Game, state: Any, match_id: int, ply: int, *, running: bool,
               finished: bool, texts: Texts, playable: bool = True) -> StaticView:
    """The newest board's components: the first question of the move (or Play… when it is
    private), My view for games with hidden information, Moves, and Rematch at the end."""
    view = StaticView()
    rows = 0
    if running and playable:  # not while an AI seat is to move
        step, answers = first_step(game, state)
        if isinstance(step, str):  # a forced move: one button plays it
            view.add_item(button(step, _forced_id(match_id, ply, answers)))
            rows = 1
        elif step.private:
            view.add_item(button(texts(strings.BUTTON_PLAY), f"c1:p:{match_id}:{ply}", row=0))
            rows = 1
        else:
            rows = add_step(view, step, match_id, ply, answers, texts)
    last = min(rows, 4)
    if game.info.hidden_information and (running or finished):
        view.add_item(button(texts(strings.BUTTON_MY_VIEW), f"c1:v:{match_id}",
                             style=discord.ButtonStyle.secondary, row=last))
    if finished:
        view.add_item(button(texts(strings.BUTTON_REMATCH), f"c1:m:{match_id}",
                             style=discord.ButtonStyle.success, row=last))
    view.add_item(button(texts(strings.BUTTON_MOVES), f"c1:h:{match_id}",
                         style=discord.ButtonStyle.secondary, row=last))
    return view


def _forced_id(match_id: int, ply: int, answers: tuple[tuple[str, ...], ...]) -> str:
    from .ui import step_id

    return step_id(match_id, ply, answers)








def phrase_text(value: Any, texts: Texts, names: Sequence[str] | None = None) -> str:
    text = phrase_from_json(value)
    if text is None:
        return ""
    return texts(text, names) if isinstance(text, Phrase) else text
