"""What an outbox row asks for, typed: one dataclass per kind of row, and one encoder and
decoder between them and the JSON the store keeps.

The service writes these in a change's transaction (`service.core.Effects`); the delivery
worker (`bot/delivery.py`) and the AI's worker (`bot/ai_turns.py`) read them. The JSON is the
one earlier versions wrote, key for key, so rows already stored decode as they are: a key an
older version did not write takes its field's default, a key a newer one added is ignored.
Phrases are stored with `i18n.phrase_to_json` and come back as phrases.

A row's lane keeps its order (rows of one lane go out one after another, in commit order):
a match's channel messages `m:<match>`, its DMs `d:<match>` (a slow DM never holds a board
back), a user's digests `u:<user>`, a match's AI turns `a:<match>` (boards never wait for
the AI's search), a match's analyses `x:<match>`.
"""

from __future__ import annotations

import contextvars
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games import Phrase

from .words.i18n import phrase_from_json, phrase_to_json

Text = Phrase | str | None  # a phrase translated when delivered, or text as it is
Seats = tuple[tuple[int, str], ...]  # (user id, name) by seat


class BadPayload(ValueError):
    """A stored row this version cannot read (a key it needs is missing or malformed)."""


@dataclass(frozen=True)
class Via:
    """The interaction a change answers: its board may go out as that interaction's follow-up
    (Discord does not count follow-ups against a bot's 50 requests a second, which channel
    posts share). `expires_at` is wall-clock time, a little before Discord forgets the token
    (15 minutes); the board goes out as a channel message after that, or in another channel."""

    interaction_id: int
    token: str
    channel_id: int
    expires_at: float
    # the channel message whose component was clicked (the interaction's @original), if any:
    # a board shown again in place edits it through the token
    message_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"interaction_id": self.interaction_id, "token": self.token,
                                "channel_id": self.channel_id, "expires_at": self.expires_at}
        if self.message_id is not None:
            data["message_id"] = self.message_id
        return data

    @classmethod
    def from_json(cls, data: Any) -> Via | None:
        if not isinstance(data, dict):
            return None
        message_id = data.get("message_id")
        return cls(int(data["interaction_id"]), str(data["token"]), int(data["channel_id"]),
                   float(data["expires_at"]),
                   int(message_id) if message_id is not None else None)


# The interaction being answered, where the bot can reach a channel only through interactions
# (a DM or group DM between users, a server that did not install Corral): the rows a change
# writes for that channel go out as its follow-ups (`Effects` reads it). Elsewhere None: in a
# server the bot posts itself, and only a move's board follows its interaction up.
ANSWERING: contextvars.ContextVar[Via | None] = contextvars.ContextVar("corral_answering",
                                                                      default=None)


# -- the parts of payloads ---------------------------------------------------------------------
@dataclass(frozen=True)
class ClaimButton:
    """A notice's Claim the win (or Skip their turn, `skip`) button for a timed-out turn."""

    version: int
    skip: bool = False


@dataclass(frozen=True)
class OfferButtons:
    """A notice's Accept and Decline buttons for a draw or takeback offer."""

    offer_id: int


NoticeButton = ClaimButton | OfferButtons


@dataclass(frozen=True)
class Picture:
    """A private view attached to a DM: the state as it was, seen from `seat`."""

    state: Any
    seat: int
    version: int | None = None


# -- the rows ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Board:
    """The match's board as it was at `version`, posted in its channel. `message_id` and
    `posted_in` are written back once it is posted (a retried row does not post it again)."""

    kind: ClassVar[str] = "board"
    match_id: int
    version: int
    channel_id: int
    game: str
    state: Any
    seats: Seats
    ply: int = 0
    parent_channel_id: int | None = None
    lead: Text = None
    lines: tuple[Text, ...] = ()
    mention: tuple[int, ...] = ()
    turn: int | None = None
    turn_note: Text = None
    due_at: float | None = None
    vacation_until: float | None = None
    result: Text = None
    final: bool = False
    reposted: bool = False
    scores: tuple[Any, ...] = ()
    ratings: tuple[tuple[int, str, str, int], ...] = ()  # user, before, after, change
    via: Via | None = None
    message_id: int | None = None
    posted_in: int | None = None
    # the earlier board this one replaces in place (a quick match), written before the edit:
    # a retried row edits the same message again rather than posting a second board
    edits: int | None = None

    @property
    def lane(self) -> str:
        return f"m:{self.match_id}"

    def names(self) -> list[str]:
        return [name for _, name in self.seats]


@dataclass(frozen=True)
class Notice:
    """A message in the match's channel (a timeout, an offer, an answer); with buttons, a live
    message (`live` names its kind) retired once the match moves on."""

    kind: ClassVar[str] = "notice"
    match_id: int
    channel_id: int
    version: int
    text: Text
    seats: Seats = ()
    parent_channel_id: int | None = None
    mention: tuple[int, ...] = ()
    buttons: tuple[NoticeButton, ...] = ()
    live: str | None = None
    offer_id: int | None = None
    message_id: int | None = None
    # the interaction it may follow up, where the bot reaches the channel only so (ANSWERING)
    via: Via | None = None

    @property
    def lane(self) -> str:
        return f"m:{self.match_id}"

    def names(self) -> list[str]:
        return [name for _, name in self.seats]


@dataclass(frozen=True)
class Lobby:
    """The lobby or invitation message of a match not started, with its buttons."""

    kind: ClassVar[str] = "lobby"
    match_id: int
    channel_id: int
    version: int
    parent_channel_id: int | None = None
    mention: tuple[int, ...] = ()
    via: Via | None = None  # as a Notice's
    message_id: int | None = None  # written back once posted (a retry posts it no more)

    @property
    def lane(self) -> str:
        return f"m:{self.match_id}"


@dataclass(frozen=True)
class Retire:
    """Take the components off the match's live messages older than `below_version` (all of
    them when None), or off those of these offers; `text` replaces their content."""

    kind: ClassVar[str] = "retire"
    match_id: int
    below_version: int | None = None
    offer_ids: tuple[int, ...] = ()
    text: Text = None

    @property
    def lane(self) -> str:
        return f"m:{self.match_id}"


@dataclass(frozen=True)
class Dm:
    """A direct message about a match. `fallback`: what the channel gets when the DM cannot
    be delivered ("note": the user is told at their next interaction; "mention": the turn
    notice as a mention). With `board_version` the field {board} links to that version's
    board, so the DM waits in the channel's lane until that board is posted."""

    kind: ClassVar[str] = "dm"
    user_id: int
    match_id: int
    channel_id: int
    game: str
    text: Text
    seats: Seats = ()
    what: str = "info"  # stored as "kind": turn, reminder, private, info
    fallback: str | None = None
    picture: Picture | None = None
    board_version: int | None = None

    @property
    def lane(self) -> str:
        return f"m:{self.match_id}" if self.board_version is not None else f"d:{self.match_id}"

    def names(self) -> list[str]:
        return [name for _, name in self.seats]


@dataclass(frozen=True)
class Digest:
    """The daily DM listing every match waiting on the user."""

    kind: ClassVar[str] = "digest"
    user_id: int
    header: Text
    lines: tuple[Text, ...] = ()

    @property
    def lane(self) -> str:
        return f"u:{self.user_id}"


@dataclass(frozen=True)
class AiTurn:
    """The AI seat `user_id` is to move at `ply`: its search and move, answering `via`."""

    kind: ClassVar[str] = "ai"
    match_id: int
    user_id: int
    ply: int
    version: int | None = None
    via: Via | None = None

    @property
    def lane(self) -> str:
        return f"a:{self.match_id}"


@dataclass(frozen=True)
class AnalysisPost:
    """A finished match's analysis (stored in the store's analyses) to post in `channel_id`,
    in the language of the server `guild_id`."""

    kind: ClassVar[str] = "analysis"
    match_id: int
    channel_id: int
    guild_id: int | None = None
    message_id: int | None = None

    @property
    def lane(self) -> str:
        return f"x:{self.match_id}"


@dataclass(frozen=True)
class TourPost:
    """A message in a tournament's thread: a round's pairings, the final standings, a note.
    `picture` ("standings" or "bracket") is drawn from `data`, the engine's JSON as it was
    when the row was written. `signup`: the sign-up message instead, posted once with its
    Join / Leave buttons and edited with the list as it is when delivered."""

    kind: ClassVar[str] = "tour"
    tournament_id: int
    channel_id: int
    text: Text = None
    mention: tuple[int, ...] = ()
    picture: str | None = None
    data: str | None = None
    signup: bool = False
    message_id: int | None = None
    # the matches a pairing post names, linked to their threads (absent in older rows)
    games: tuple[int, ...] | None = None

    @property
    def lane(self) -> str:
        return f"t:{self.tournament_id}"


@dataclass(frozen=True)
class TourMatch:
    """A tournament match waits for its thread: made in `parent_channel_id`, then the match
    starts there (its first board and turn notices follow from that change)."""

    kind: ClassVar[str] = "tourmatch"
    tournament_id: int
    match_id: int
    parent_channel_id: int
    name: Text = None  # the thread's name
    thread_id: int | None = None  # the thread, once made (a retry starts the match there)

    @property
    def lane(self) -> str:
        return f"m:{self.match_id}"


@dataclass(frozen=True)
class TourPair:
    """Round `number` of a Swiss is to be paired (by a worker process: see
    `Tournaments.pair_job`); in the tournament's lane, so its announcement follows the
    posts before it."""

    kind: ClassVar[str] = "tourpair"
    tournament_id: int
    number: int

    @property
    def lane(self) -> str:
        return f"t:{self.tournament_id}"


Payload = (Board | Notice | Lobby | Retire | Dm | Digest | AiTurn | AnalysisPost | TourPost
           | TourMatch | TourPair)
KINDS: dict[str, type[Payload]] = {cls.kind: cls for cls in (
    Board, Notice, Lobby, Retire, Dm, Digest, AiTurn, AnalysisPost, TourPost, TourMatch,
    TourPair)}


# -- the codec -------------------------------------------------------------------------------
def _texts_out(values: Sequence[Text]) -> list[Any]:
    return [phrase_to_json(v) for v in values]


def _texts_in(value: Any) -> tuple[Text, ...]:
    return tuple(phrase_from_json(v) for v in value or ())


def _seats_out(seats: Seats) -> list[list[Any]]:
    return [[user_id, name] for user_id, name in seats]


def _seats_in(value: Any) -> Seats:
    return tuple((int(user_id), str(name)) for user_id, name in value or ())


def _ints_in(value: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in value or ())


def _via_out(via: Via | None) -> Any:
    return None if via is None else via.to_json()


def _ratings_out(lines: Sequence[tuple[int, str, str, int]]) -> list[list[Any]]:
    return [list(line) for line in lines]


def _ratings_in(value: Any) -> tuple[tuple[int, str, str, int], ...]:
    return tuple((int(u), str(before), str(after), int(delta))
                 for u, before, after, delta in value or ())


def _button_out(button: NoticeButton) -> dict[str, Any]:
    if isinstance(button, ClaimButton):
        return {"kind": "claim", "version": button.version, "skip": button.skip}
    return {"kind": "offer", "offer_id": button.offer_id}


def _button_in(data: Mapping[str, Any]) -> NoticeButton:
    if data.get("kind") == "claim":
        return ClaimButton(int(data["version"]), bool(data.get("skip")))
    if data.get("kind") == "offer":
        return OfferButtons(int(data["offer_id"]))
    raise BadPayload(f"unknown button {dict(data)!r}"[:200])


def _picture_out(picture: Picture | None) -> Any:
    if picture is None:
        return None
    return {"state": picture.state, "seat": picture.seat, "version": picture.version}


def _picture_in(value: Any) -> Picture | None:
    if not value:
        return None
    return Picture(value["state"], int(value["seat"]), value.get("version"))


def _tuple(value: Any) -> tuple[Any, ...]:
    return tuple(value or ())


@dataclass(frozen=True)
class _Key:
    """How one field is stored: under `key`, converted both ways (None: as it is); `omit`:
    not written while None (a key later added by the delivery worker, which older readers
    look for as absent); `required`: a row without it cannot be read."""

    field: str
    key: str
    out: Callable[[Any], Any] | None = None
    into: Callable[[Any], Any] | None = None
    omit: bool = False
    required: bool = False


_TEXT = {"out": phrase_to_json, "into": phrase_from_json}
_TEXTS = {"out": _texts_out, "into": _texts_in}
_SEATS = {"out": _seats_out, "into": _seats_in}
_INTS = {"out": list, "into": _ints_in}
_VIA = {"out": _via_out, "into": Via.from_json}
_CONVERT: dict[type[Any], dict[str, dict[str, Any]]] = {
    Board: {"seats": _SEATS, "lead": _TEXT, "lines": _TEXTS, "mention": _INTS,
            "turn_note": _TEXT, "result": _TEXT, "scores": {"out": list, "into": _tuple},
            "ratings": {"out": _ratings_out, "into": _ratings_in}, "via": _VIA,
            "message_id": {"omit": True}, "posted_in": {"omit": True},
            "edits": {"omit": True}},
    Notice: {"seats": _SEATS, "text": _TEXT, "mention": _INTS,
             "buttons": {"out": lambda bs: [_button_out(b) for b in bs],
                         "into": lambda v: tuple(_button_in(b) for b in v or ())},
             "message_id": {"omit": True}, "via": {**_VIA, "omit": True}},
    Lobby: {"mention": _INTS, "via": {**_VIA, "omit": True}, "message_id": {"omit": True}},
    Retire: {"offer_ids": _INTS, "text": _TEXT},
    Dm: {"seats": _SEATS, "text": _TEXT, "what": {"key": "kind"},
         "picture": {"out": _picture_out, "into": _picture_in}},
    Digest: {"header": _TEXT, "lines": _TEXTS},
    AiTurn: {"via": _VIA},
    AnalysisPost: {"message_id": {"omit": True}},
    TourPost: {"text": _TEXT, "mention": _INTS, "message_id": {"omit": True},
               "games": {**_INTS, "omit": True}},
    TourMatch: {"name": _TEXT, "thread_id": {"omit": True}},
    TourPair: {},
}
# a board is encoded once and decoded once or twice per move: the layouts are worked out here,
# once, so that a row costs a loop over its fields
_LAYOUT: dict[type[Any], tuple[_Key, ...]] = {
    cls: tuple(_Key(f.name, **{
        "key": f.name, "required": (f.default is dataclasses.MISSING
                                    and f.default_factory is dataclasses.MISSING),
        **_CONVERT[cls].get(f.name, {})}) for f in dataclasses.fields(cls))
    for cls in KINDS.values()}


def encode(payload: Payload) -> tuple[str, dict[str, Any]]:
    """(kind, JSON object) of a row, as the store keeps it."""
    data: dict[str, Any] = {}
    for key in _LAYOUT[type(payload)]:
        value = getattr(payload, key.field)
        if value is None:
            if not key.omit:
                data[key.key] = None
        else:
            data[key.key] = value if key.out is None else key.out(value)
    return payload.kind, data


def decode(kind: str, data: Mapping[str, Any]) -> Payload:
    """The payload of a stored row of `kind` (raises `BadPayload` if it cannot be read)."""
    cls = KINDS.get(kind)
    if cls is None:
        raise BadPayload(f"unknown outbox kind {kind!r}")
    values: dict[str, Any] = {}
    try:
        for key in _LAYOUT[cls]:
            if key.key in data:
                value = data[key.key]
                values[key.field] = value if key.into is None else key.into(value)
            elif key.required:
                raise BadPayload(f"{kind} row without {key.key!r}")
        return cls(**values)
    except BadPayload:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise BadPayload(f"{kind} row: {exc!r}"[:300]) from None


__all__ = ["AiTurn", "AnalysisPost", "BadPayload", "Board", "ClaimButton", "Digest", "Dm",
           "KINDS", "Lobby", "Notice", "NoticeButton", "OfferButtons", "Payload", "Picture",
           "Retire", "Seats", "Text", "TourMatch", "TourPair", "TourPost", "Via", "decode",
           "encode"]
