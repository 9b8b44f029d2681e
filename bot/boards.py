"""A board message: what it says and which components it carries, from an outbox row
(`outbox.Board`), and what its own components do (My view, Moves, Rematch; the move's steps
are bot/ui.py's).

The text is composed when the row is delivered, in the reader's language, from the phrases the
service stored; the components only on the newest board (an older one still being delivered
after a restart gets none, and pings nobody).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import discord

from games import ALT_TEXT_LIMIT, Game, Phrase, phrase
from games.analysis import public_at_end

from .analysis_ui import AnalysisButton
from .clocks import absolute_time, relative_time
from .interactions import MAX_CONTENT, Interaction, fit, note_match, player, reply, texts_for
from .outbox import Board, Text
from .pictures import board_picture
from .pool import Workers
from .service import Match, Service, ServiceError
from .textboard import describe_button
from .ui import (
    BOARD_FILE,
    ID,
    Component,
    PlayButton,
    StaticLayout,
    StaticView,
    StepButton,
    add_step,
    button,
    first_step,
)
from .ui import template as id_template
from .words import strings
from .words.descriptions import alt_text, view_of
from .words.i18n import Texts


def allowed(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Ping exactly these users and nobody else. Rows queued before AI seats were left out of
    mention lists may still name one (a negative id, which Discord refuses): it is dropped."""
    users = [discord.Object(u) for u in user_ids if u > 0]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=users or False)


def text_of(value: Text, texts: Texts, names: Sequence[str] | None = None) -> str:
    """A stored phrase (or plain text) in the reader's language."""
    if value is None:
        return ""
    return value if isinstance(value, str) else texts(value, names)


def board_text(board: Board, texts: Texts, *, current: bool) -> tuple[str, list[int]]:
    """The board's content and whom it pings (nobody on a stale board)."""
    names = board.names()
    lines: list[str] = []
    if board.lead:
        lines.append(texts(board.lead, names))
    if board.reposted and not board.lead:
        lines.append(texts(strings.REPOSTED))
    for line in board.lines:
        lines.append(texts(line or "", names))
    if board.scores:
        lines.append(texts(phrase(strings.SCORES, scores=" · ".join(
            f"{name} {score}" for name, score in zip(names, board.scores, strict=False)))))
    mentions = list(board.mention) if current else []
    if board.final:
        result = board.result or phrase(strings.RESULT_DRAW)
        lines.append(texts(phrase(strings.RESULT_LINE, match_id=board.match_id,
                                  result=result), names))
        if board.ratings:
            named = dict(board.seats)
            lines.append(texts(phrase(strings.RATINGS_LINE, changes=" · ".join(
                texts(phrase(strings.RATING_CHANGE, name=named.get(uid, "?"), before=before,
                             after=after, delta=f"{delta:+d}".replace("-", "−")))
                for uid, before, after, delta in board.ratings))))
        lines.append(texts(phrase(strings.PLAYERS_LINE, mentions=tuple(
            f"<@{uid}>" if uid > 0 else name for uid, name in board.seats))))
    elif board.turn is not None and board.turn < 0:  # an AI seat: no mention
        name = next((n for uid, n in board.seats if uid == board.turn), "?")
        lines.append(texts(phrase(strings.AI_THINKING, name=name)))
    elif board.turn is not None:
        mention = f"<@{board.turn}>"
        note = board.turn_note
        lines.append(texts(phrase(strings.YOUR_TURN_NOTE, mention=mention, note=note)
                           if note else phrase(strings.YOUR_TURN, mention=mention), names))
        if board.vacation_until:
            who = next((n for uid, n in board.seats if uid == board.turn), "?")
            lines.append(texts(phrase(strings.ON_VACATION, name=who,
                                      until=absolute_time(board.vacation_until))))
        if board.due_at:
            lines.append(texts(phrase(strings.DUE, relative=relative_time(board.due_at),
                                      absolute=absolute_time(board.due_at))))
    return fit("\n".join(lines)), mentions


def result_text(board: Board, texts: Texts) -> str | None:
    """The final board's result in words, for the picture."""
    if not board.final:
        return None
    return texts(board.result or phrase(strings.RESULT_DRAW), board.names())


MAX_LAYOUT_TEXT = 4000  # characters of text a Components V2 message shows, all displays together


def board_controls(game: Game, state: Any, match_id: int, ply: int, *, running: bool,
                   texts: Texts, playable: bool = True) -> list[discord.ui.ActionRow[Any]]:
    """The move's controls, as action rows: the first question of the move (or Play… when
    it is private, one button when the move is forced); none while an AI seat is to move."""
    if not (running and playable):
        return []
    scratch = StaticView()  # add_step places items by row: read them back row by row
    step, answers = first_step(game, state)
    if isinstance(step, str):  # a forced move: one button plays it
        scratch.add_item(StepButton(match_id, ply, answers, label=step, row=0))
    elif step.private:
        scratch.add_item(PlayButton(match_id, ply, label=texts(strings.BUTTON_PLAY), row=0))
    else:
        add_step(scratch, step, match_id, ply, answers, texts)
    rows: list[list[discord.ui.Item[Any]]] = []
    at: dict[int, int] = {}
    for item in scratch.children:
        if item.row is None:  # a menu (its row is not kept by its wrapper): a row of its own
            rows.append([item])
            continue
        if item.row not in at:
            at[item.row] = len(rows)
            rows.append([])
        rows[at[item.row]].append(item)
    return [discord.ui.ActionRow(*items) for items in rows]


def board_buttons(game: Game, state: Any, match_id: int, ply: int, *, running: bool,
                  finished: bool, texts: Texts, link: str | None = None,
                  describe: discord.ui.Item[Any] | None = None,
                  activity: bool = False) -> list[discord.ui.Item[Any]]:
    """The board's other buttons, in reading order: Moves, My view (games with hidden
    information), Describe, the web page, Open board (the page inside Discord, while the
    match runs, with CORRAL_ACTIVITY on), and Rematch and Analysis at the end."""
    items: list[discord.ui.Item[Any]] = [
        MovesButton(match_id, label=texts(strings.BUTTON_MOVES))]
    if game.info.hidden_information and (running or finished):
        items.append(MyViewButton(match_id, label=texts(strings.BUTTON_MY_VIEW)))
    # Describe (bot/textboard.py): the board in words, privately, for whoever asks
    items.append(describe if describe is not None else describe_button(match_id, texts))
    if link is not None:
        items.append(link_button(link, texts))
        if activity and running:
            items.append(OpenBoardButton(match_id, label=texts(strings.BUTTON_OPEN_BOARD)))
    if finished:
        items.append(RematchButton(match_id, label=texts(strings.BUTTON_REMATCH)))
        if ply > 0 and public_at_end(game, state):  # an analysis shows nothing hidden
            items.append(AnalysisButton(match_id, label=texts(strings.BUTTON_ANALYSIS)))
    return items


def board_layout(text: str, alt: str, *, accent: int | None = None,
                 controls: Sequence[discord.ui.ActionRow[Any]] = (),
                 buttons: Sequence[discord.ui.Item[Any]] = (),
                 picture: str = BOARD_FILE) -> StaticLayout:
    """A board as one Components V2 container: its text (who moved, scores, whose turn), the
    picture with its alt text, the move's controls, then the other buttons (five a row); the
    accent is the colour of the side to move. Within Discord's limits: 40 components (at most
    3 + 4 rows of 5 controls + 2 rows of buttons = 35) and 4,000 characters of text."""
    children: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(fit(text, MAX_LAYOUT_TEXT) or "\u200b"),
        discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{picture}", description=alt[:ALT_TEXT_LIMIT] or None))]
    children += list(controls)
    children += [discord.ui.ActionRow(*buttons[i:i + 5]) for i in range(0, len(buttons), 5)]
    layout = StaticLayout()
    layout.add_item(discord.ui.Container(*children, accent_colour=accent))
    return layout


def link_button(url: str, texts: Texts, row: int | None = None) -> discord.ui.Button[Any]:
    """A URL button to the match's web page (a link: Discord opens it, no click comes back)."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                             label=texts(strings.BUTTON_WEB), row=row)


def tournament_button(url: str, texts: Texts) -> discord.ui.Button[Any]:
    """A URL button to a tournament's web page."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                             label=texts(strings.BUTTON_TOURNAMENT_WEB))


# -- the board's own components ----------------------------------------------------------------
class MyViewButton(Component[discord.ui.Button[Any]],
                   template=id_template(rf"c1:v:(?P<match>{ID})")):
    """My view: the clicker's private view of a game with hidden information."""

    pictures: ClassVar[Workers]

    def __init__(self, match_id: int, *, label: str = "", row: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:v:{match_id}", style=discord.ButtonStyle.secondary,
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        await private_view(self.pictures, interaction, await self.service.get(self.match_id))


async def private_view(pictures: Workers, interaction: Interaction, match: Match) -> None:
    """The caller's own view, ephemerally: the picture `observe` gives their seat, and their
    private notes (a hand) in words."""
    note_match(match.id)
    seat = match.row.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError(strings.NOT_A_PLAYER, match_id=match.id)
    if not match.game.info.hidden_information:
        raise ServiceError(strings.NO_PRIVATE_VIEW, game=match.game.name)
    if match.state is None:
        raise ServiceError(strings.NOT_STARTED, match_id=match.id)
    texts = texts_for(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    picture = await pictures.run(board_picture, match.game.id, match.row.state, seat,
                                 match.names(), None, texts.language)
    # the seat's own view in words: this message is the seat's alone (ephemeral)
    alt = alt_text(match.game, view_of(match.game, match.state, seat), texts, match.names())
    lines = [texts(phrase(strings.PRIVATE_VIEW, match_id=match.id, game=match.game.name,
                          link=match.row.link))]
    card = match.game.turn_card(match.state, seat)
    if card is not None:
        lines.append(texts(card, match.names()))
    await reply_layout(interaction, board_layout("\n".join(lines), alt, picture=VIEW_FILE),
                       picture, alt, filename=VIEW_FILE)


async def reply_layout(interaction: Interaction, layout: StaticLayout, picture: bytes, alt: str,
                       *, filename: str = BOARD_FILE) -> None:
    """A private board (a V2 layout with its picture) as the answer to a deferred
    interaction, or as an ephemeral follow-up once it is answered."""
    file = discord.File(io.BytesIO(picture), filename=filename, description=alt or None)
    none = discord.AllowedMentions.none()
    if (interaction.response.type == discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get("answered")):
        interaction.extras["answered"] = True
        await interaction.edit_original_response(view=layout, attachments=[file],
                                                 allowed_mentions=none)
    else:
        await interaction.followup.send(view=layout, file=file, ephemeral=True,
                                        allowed_mentions=none)


class MovesButton(Component[discord.ui.Button[Any]],
                  template=id_template(rf"c1:h:(?P<match>{ID})")):
    """Moves: the numbered move list, ephemerally; the newest moves when it is long."""

    def __init__(self, match_id: int, *, label: str = "", row: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:h:{match_id}", style=discord.ButtonStyle.secondary,
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        await reply(interaction, await moves_text(self.service, self.match_id,
                                                  texts_for(interaction)))


async def moves_text(service: Service, match_id: int, texts: Texts) -> str:
    note_match(match_id)
    match, entries = await service.history(match_id)
    header = texts(phrase(strings.MOVES_HEADER, match_id=match.id, game=match.game.name,
                          players=tuple(match.names())))
    lines = [texts(service.history_line(e), e.names or None) for e in entries] \
        or [texts(strings.MOVES_EMPTY)]
    shown: list[str] = []
    size = len(header) + 80
    for line in reversed(lines):
        if size + len(line) + 1 > MAX_CONTENT:
            break
        shown.insert(0, line)
        size += len(line) + 1
    hidden = len(lines) - len(shown)
    if hidden:
        shown.insert(0, texts(phrase(strings.MOVES_TRUNCATED, n=hidden)))
    return "\n".join([header, *shown])


class RematchButton(Component[discord.ui.Button[Any]],
                    template=id_template(rf"c1:m:(?P<match>{ID})")):
    """Rematch, on a finished match's board: the same players, a new invitation."""

    def __init__(self, match_id: int, *, label: str = "", row: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:m:{match_id}", style=discord.ButtonStyle.success,
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        note_match(self.match_id)
        match = await self.service.rematch(
            self.match_id, player(interaction.user))
        await reply(interaction, opened_phrase(match, interaction.user.id,
                                               match.row.link))


def opened_phrase(match: Match, user_id: int, link: str) -> Phrase:
    """What the player who opened `match` is told: an invitation sent, a lobby open, or a
    match already under way (against the AI, or a lobby the AI filled), and where."""
    if match.status == "invited":
        return phrase(strings.OPENED_HERE, match_id=match.id, link=link)
    if match.status == "open":
        return phrase(strings.OPENED_LOBBY, match_id=match.id, link=link)
    opponents = tuple(seat.name for seat in match.seats if seat.user_id != user_id)
    return phrase(strings.OPENED_STARTED, match_id=match.id, link=link, opponents=opponents)


VIEW_FILE = "view.png"  # a seat's own view (private)

class OpenBoardButton(Component[discord.ui.Button[Any]],
                      template=id_template(rf"c1:a:(?P<match>{ID})")):
    """Open board: the match's page as an Activity inside Discord (LAUNCH_ACTIVITY), where a
    player signs in with one click and plays on the big board (bot/web/). A board kept from
    before the Activity was turned off, or of a match now over, answers in words instead."""

    activity: ClassVar[bool]

    def __init__(self, match_id: int, *, label: str = "", row: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(button(label, f"c1:a:{match_id}", style=discord.ButtonStyle.secondary,
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["match"]))

    async def handle(self, interaction: Interaction) -> None:
        note_match(self.match_id)
        match = await self.service.get(self.match_id)
        if match.status != "active":
            raise ServiceError(strings.MATCH_OVER, match_id=match.id)
        if not getattr(self, "activity", False):
            raise ServiceError(strings.ACTIVITY_OFF)
        await interaction.response.launch_activity()


BOARD_COMPONENTS: tuple[type[Component[Any]], ...] = (MyViewButton, MovesButton, RematchButton,
                                                      OpenBoardButton)
