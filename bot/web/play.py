"""Moves on the match page, for a signed-in player (bot/web/signin.py), and what only that
player may see there.

The page asks the same questions as Discord's buttons: the game's declaration of how a move
is entered (`Game.move_input`, through `Service.move_input`, steps with a single option
answered at once), as HTML forms: a button per option, a menu for many, check boxes where a
step takes several. Each form posts to `/m/<token>/move` with the answers so far, the match's
version the page showed and the session's CSRF token; the server checks all three, and a
finished entry is played by `Service.play`, the call a Discord click makes: the same checks,
the same transaction, the same outbox (the channel gets its board, once, as for any move).
No script is needed: every answer is a redirect (303) back to the page.

Refusals change nothing: a signed-out browser, a missing or wrong CSRF token, another site's
form, someone who is not a player, a player whose turn it is not (the service's refusal), a
page whose version has moved (the page comes back as the match is now and says so), a form
posted again (its version has moved).

Hidden information: a signed-in player of a game that hides some (Consequence's tiles) sees
their own view (`observe(state, seat)`) at `/m/<token>/mine/...png`, a picture sent with
`Cache-Control: private, no-store` to that session only; everyone else gets the public view,
as before. A private step's options are on that player's page only.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web
from aiohttp_session import get_session

from games import N_, Answer, GameError, Step, phrase

from ..words import strings
from ..words.i18n import Texts
from .signin import User, csrf_ok, same_origin, signed_in

if TYPE_CHECKING:
    from ..service.core import Match
    from ..store import MatchRow

log = logging.getLogger(__name__)

MAX_BUTTONS = 25  # more options than this: a menu (a list of 40 buttons helps nobody)
MAX_FLASH = 400

# -- words ---------------------------------------------------------------------------------------
SIGN_IN = N_("Sign in with Discord")
SIGN_OUT = N_("Sign out")
SIGNED_IN_AS = N_("Signed in as {name}")
SIGN_IN_TO_MOVE = N_("Players: sign in with Discord to move here.")
YOUR_MOVE = N_("Your move")
PRIVATE_STEP = N_("Only you see this question and its answer.")
CHOOSE = N_("Choose")
BACK = N_("Back")
CHOSEN = N_("Chosen so far: {answers}")
STALE = N_("The match moved on since this page was loaded: here it is as it is now. Nothing "
           "was played.")
NOT_A_PLAYER = N_("Only the match's players can move.")
FORM_EXPIRED = N_("This form was not accepted (it expired, or came from elsewhere): nothing was "
                  "played. Try again from this page.")
SIGNED_OUT = N_("Sign in with Discord to move: nothing was played.")
PLAYED = N_("Played: {notation}.")
BY_DM_NOTE = N_("Corral can post in this match's conversation only in answer to a click there: "
                "the board of a move made here goes to the players' DMs with Corral.")
YOUR_VIEW = N_("Your view (only you see it):")
PICK_COUNT = N_("Choose {count}.")


@dataclass(frozen=True)
class Control:
    """One option of a step as the page offers it."""

    value: str
    label: str
    description: str = ""


@dataclass
class Panel:
    """What the match page shows a signed-in player: who they are, their move's current
    question (if it is their turn), and their own view of a game that hides information."""

    user: User
    seat: int | None
    csrf: str
    version: int
    flash: str = ""
    prompt: str = ""
    private: bool = False
    picks: int = 1
    controls: list[Control] = field(default_factory=list)
    menu: bool = False  # a <select> (many options) rather than buttons
    answers: str = ""  # the answers so far, encoded as Discord's custom ids carry them
    chosen: str = ""  # those answers in words
    back: bool = False
    mine: str | None = None  # the player's own view's picture
    mine_alt: str = ""
    by_dm: bool = False


def step_controls(step: Step, texts: Texts) -> list[Control]:
    return [Control(o.value, texts(o.label)[:100],
                    texts(o.description)[:100] if o.description is not None else "")
            for o in step.options]


async def panel(request: web.Request, row: MatchRow, match: Match, service: Any,
                language: str) -> Panel | None:
    """The signed-in visitor's part of the match page (None: nobody is signed in)."""
    from ..service.core import ServiceError
    from ..ui import encode_answers, manual_answers

    user = await signed_in(request)
    if user is None:
        return None
    session = await get_session(request)
    flash = session.pop("flash", "") if "flash" in session else ""
    texts = Texts(language)
    seat = row.seat_of(user.id)
    result = Panel(user, seat, user.csrf, row.version, flash=str(flash)[:MAX_FLASH],
                   by_dm=row.by_interactions)
    if seat is None or match.state is None:
        return result
    if match.game.info.hidden_information and row.status == "active":
        result.mine = f"/m/{row.web_token}/mine/{row.version}-{language}.png"
        from ..words.descriptions import alt_text, view_of
        result.mine_alt = alt_text(match.game, view_of(match.game, match.state, seat), texts,
                                   match.names())
    mover = match.to_move()
    if row.status != "active" or mover is None or mover.user_id != user.id:
        return result
    answers = entry_of(session, row)
    try:
        step, answers = service.move_input(match, user.id, answers)
    except ServiceError:  # answers kept from before that no longer fit: start again
        step, answers = service.move_input(match, user.id, ())
    if isinstance(step, str):  # a single legal move: still asked, as one button
        result.prompt = texts(YOUR_MOVE)
        result.controls = [Control("=" + step, step)]
    else:
        result.prompt = texts(step.prompt)
        result.private = step.private
        result.picks = step.picks
        result.controls = step_controls(step, texts)
        result.menu = step.picks == 1 and len(result.controls) > MAX_BUTTONS
    result.answers = encode_answers(answers)
    result.back = manual_answers(match.game, match.state, answers) > 0
    if answers:
        result.chosen = texts(phrase(CHOSEN, answers=" / ".join(
            chosen_words(match, answers, texts))))
    return result


def chosen_words(match: Match, answers: tuple[Answer, ...], texts: Texts) -> list[str]:
    """The answers so far as their options' labels (what the buttons said), not values."""
    said = []
    for depth, answer in enumerate(answers):
        try:
            step = match.game.move_input(match.state, answers[:depth])
        except GameError:
            step = None
        labels = ({o.value: texts(o.label) for o in step.options}
                  if isinstance(step, Step) else {})
        said.append(", ".join(labels.get(value, value) for value in answer))
    return said


async def flash(request: web.Request, text: str) -> None:
    session = await get_session(request)
    session["flash"] = text[:MAX_FLASH]


def entry_of(session: Any, row: MatchRow) -> tuple[Answer, ...]:
    """The answers of a move being entered on this match at this version, kept in the
    session: never in the page's address, where a private answer (which hidden tile) would
    stay in the history, a proxy's log or a Referer."""
    from ..ui import decode_answers

    kept = session.get("entry")
    if not isinstance(kept, dict) or kept.get("match") != row.id \
            or kept.get("version") != row.version or not isinstance(kept.get("answers"), str):
        return ()
    return decode_answers(kept["answers"][:200]) or ()


async def move(request: web.Request, row: MatchRow, service: Any, base_url: str | None,
               language: str, frame_origin: str | None = None) -> str:
    """A form's answer: checked, then the next question or the move played. Returns the
    address the browser goes to next (the match page); raises an HTTP error page's reason
    (403) for what is refused before the match is looked at."""
    from ..service.core import ServiceError
    from ..ui import decode_answers, encode_answers, manual_answers

    page = f"/m/{row.web_token}?lang={language}"
    user = await signed_in(request)
    if user is None:
        raise Refused(403, SIGNED_OUT)
    form = await request.post()
    if not same_origin(request, base_url, frame_origin) or not csrf_ok(
            user, form_text(form, "csrf")):
        raise Refused(403, FORM_EXPIRED)
    texts = Texts(language)
    if row.seat_of(user.id) is None:
        raise Refused(403, NOT_A_PLAYER)
    version = form_text(form, "version")
    if version != str(row.version):
        await flash(request, texts(STALE))
        return page + "&stale=1"
    answers = decode_answers(form_text(form, "answers")[:200])
    if answers is None:
        raise Refused(400, FORM_EXPIRED)
    match = await service.get(row.id)
    session = await get_session(request)
    session.pop("entry", None)
    if match.status != "active" or match.state is None:
        await flash(request, texts(phrase(strings.NOT_STARTED if match.state is None
                                          else strings.MATCH_OVER, match_id=match.id)))
        return page
    ply = match.ply()
    # an option's value is short (ASCII letters, digits, + and -); a single legal move's
    # whole notation (`=`) may be longer
    chosen = [str(v)[:64 if str(v).startswith("=") else 16]
              for v in form.getall("choice", [])][:25]
    try:
        if form_text(form, "back"):
            keep = max(0, manual_answers(match.game, match.state, answers) - 1)
            step, answers = service.move_input(match, user.id, answers[:keep],
                                               expected_ply=ply)
        elif len(chosen) == 1 and chosen[0].startswith("="):  # the one legal move
            step = chosen[0][1:]
        else:
            if not chosen:
                raise Refused(400, FORM_EXPIRED)
            step, answers = service.move_input(match, user.id, answers + (tuple(chosen),),
                                               expected_ply=ply)
        if isinstance(step, str):
            result = await service.play(match.id, user.id, step, expected_ply=ply, seen=match)
            await flash(request, texts(phrase(PLAYED, notation=result.public)))
            return page
    except ServiceError as exc:
        await flash(request, texts(exc.phrase))
        return page
    except GameError as exc:
        await flash(request, texts(exc.phrase))
        return page
    session["entry"] = {"match": row.id, "version": row.version,
                        "answers": encode_answers(answers)}
    return page + "#move"


class Refused(Exception):
    """A request refused before anything was read or changed: its status and sentence."""

    def __init__(self, status: int, sentence: str):
        super().__init__(sentence)
        self.status, self.sentence = status, sentence


def form_text(form: Any, name: str) -> str:
    """A form's text field (a file or a missing field: empty)."""
    value = form.get(name, "")
    return value if isinstance(value, str) else ""
