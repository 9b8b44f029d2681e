"""Helpers for driving the bot through the imitation and reading what it posted."""

from __future__ import annotations

import io
from typing import Any

from discord_fake import EPHEMERAL, UserRef
from PIL import Image


def judged_at(lesson: Any, state: Any, given: str) -> tuple[list[tuple[str, ...]], Any]:
    """A wrong answer as a learner enters it: its parts up to the one /learn judges it at
    (the first no accepted answer starts with, or the whole move), and that verdict."""
    from games.lessons import answer, answer_parts

    step = lesson.steps[state.step]
    if step.is_question:
        return [(given,)], answer(lesson, state, given)[1]
    path = list(lesson.game.input_path(step.position, lesson.game.parse_move(step.position,
                                                                            given)))
    for depth in range(1, len(path)):
        judged = answer_parts(lesson, state, path[:depth])
        if judged is not None:
            return path[:depth], judged[1]
    return path, answer(lesson, state, given)[1]


INTERACTIVE = {2, 3, 5, 6, 7, 8}  # buttons and menus


def walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a message, nested ones (a V2 container's) in reading order."""
    found = []
    for item in items:
        found.append(item)
        found += walk(item.get("components") or [])
        if isinstance(item.get("accessory"), dict):
            found += walk([item["accessory"]])
    return found


def components(message: dict[str, Any], kind: int | None = None) -> list[dict[str, Any]]:
    """Buttons (2) and menus (3) of a message, in order (a V2 board's inside its container)."""
    return [c for c in walk(message.get("components", []))
            if (c.get("type") in INTERACTIVE if kind is None else c.get("type") == kind)]


def says(message: dict[str, Any]) -> str:
    """What a message says: its content, or a V2 message's text displays, one a line."""
    shown = [c.get("content", "") for c in walk(message.get("components", []))
             if c.get("type") == 10]
    return "\n".join(([message["content"]] if message.get("content") else []) + shown)


def alt_texts(message: dict[str, Any]) -> list[str]:
    """Every alt text a message carries: its attachments' descriptions and its media items'."""
    found = [a["description"] for a in message.get("attachments", []) if a.get("description")]
    for c in walk(message.get("components", [])):
        items = c.get("items", []) if c.get("type") == 12 else [c] if c.get("type") == 11 else []
        found += [i["description"] for i in items if i.get("description")]
    return found


def step_answers(custom_id: str) -> list[tuple[str, ...]]:
    """The answers a step button or menu carries (`c1:s:<m>:<p>:<answers>`)."""
    parts = custom_id.split(":")
    text = parts[4] if len(parts) > 4 else ""
    return [tuple(part.split(".")) for part in text.split("/")] if text else []


def board_buttons(fake, message: dict[str, Any]) -> dict[str, str]:
    """Step buttons on a message: the value they choose -> custom id."""
    return {step_answers(c["custom_id"])[-1][0]: c["custom_id"]
            for c in components(message, 2) if c.get("custom_id", "").startswith("c1:s:")}


def labels(message: dict[str, Any]) -> list[str]:
    return [c.get("label", "") for c in components(message, 2)]


def button_with(message: dict[str, Any], prefix: str) -> str:
    return next(c["custom_id"] for c in components(message, 2)
                if c.get("custom_id", "").startswith(prefix))


def boards(fake, channel_id: int | None = None) -> list[dict[str, Any]]:
    """The boards shown in the channel, oldest first, each as its message is now: a message
    with a picture, counted again for each new picture it was edited to show (a quick match
    shows its next board in place, bot/quick.py), from the imitation's record of every
    picture shown (no showing is missed between two looks)."""
    channel = channel_id or fake.channel_id
    public = {int(m["id"]) for m in fake.channel_messages(channel_id)}
    seen: dict[int, tuple[str | None, str]] = {}
    shown = []
    for picture in fake.pictures:
        if picture.channel_id != channel or picture.message_id not in public:
            continue
        said = (picture.alt, picture.text)
        if seen.get(picture.message_id) == said:
            continue  # the same board shown again (its retirement re-sends its layout)
        seen[picture.message_id] = said
        shown.append(fake.messages[picture.message_id])
    return shown


def is_ephemeral(message: dict[str, Any]) -> bool:
    return bool(message["flags"] & EPHEMERAL)


def live_boards(fake, channel_id: int | None = None) -> list[dict[str, Any]]:
    """Boards that still carry components (only the newest should)."""
    found = {int(m["id"]): m for m in boards(fake, channel_id)
             if components(fake.messages[int(m["id"])])}
    return list(found.values())


async def only_live(fake, board: dict[str, Any], channel_id: int | None = None) -> None:
    """Wait until `board` is the match's only board with components (the older ones are
    retired right after a new board is posted)."""
    await fake.wait_for(lambda: [m["id"] for m in live_boards(fake, channel_id)] == [board["id"]],
                        what="the older boards retired")


async def next_board(fake, before: int, channel_id: int | None = None, what: str = "a board",
                     timeout: float = 15.0) -> dict[str, Any]:
    return await fake.wait_for(lambda: len(boards(fake, channel_id)) > before
                               and boards(fake, channel_id)[-1], what=what, timeout=timeout)


async def posted(fake, condition, what: str, channel_id: int | None = None,
                 timeout: float = 10.0) -> dict[str, Any]:
    """The newest channel message satisfying `condition`."""
    return await fake.wait_for(
        lambda: ([m for m in fake.channel_messages(channel_id) if condition(m)] or [None])[-1],
        what=what, timeout=timeout)


async def open_invitation(fake, host: int, guest: int, *, game: str = "progressive-mancala",
                          first: str = "me", options: str | None = None,
                          channel_id: int | None = None, **more: Any) -> dict[str, Any]:
    """`/play` with an opponent: the ephemeral answer, then the invitation the bot posts."""
    before = {m["id"] for m in fake.channel_messages(channel_id)}
    record = await fake.answered(await fake.slash(
        host, "play", channel_id=channel_id, game=game, opponent=UserRef(guest), first=first,
        options=options, **more))
    assert record.original is not None and is_ephemeral(record.original), record.callbacks
    return await posted(fake, lambda m: m["id"] not in before and any(
        ":accept:" in c for c in fake.custom_ids(m)), "the invitation", channel_id)


async def challenge_and_accept(fake, host: int, guest: int, *, game: str = "progressive-mancala",
                               first: str = "me", options: str | None = None,
                               channel_id: int | None = None, **more: Any) -> dict[str, Any]:
    """`/play` with an opponent, then Accept. Returns the first board message."""
    invitation = await open_invitation(fake, host, guest, game=game, first=first,
                                       options=options, channel_id=channel_id, **more)
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    before = len(boards(fake, channel_id))
    record = await fake.answered(await fake.click(guest, invitation, accept))
    assert record.kind == 7, record.callbacks  # the invitation is updated: buttons gone
    return await next_board(fake, before, channel_id, "the first board")


async def play_button(fake, user: int, board: dict[str, Any], value: str,
                      channel_id: int | None = None) -> dict[str, Any]:
    """Click a one-step move button on a board; returns the new board."""
    before = len(boards(fake, channel_id))
    record = await fake.answered(await fake.click(user, board, board_buttons(fake, board)[value]))
    assert record.kind == 7, record.callbacks  # the used board is updated (components retired)
    return await next_board(fake, before, channel_id, f"the board after {value}")


async def play_slash(fake, user: int, notation: str, channel_id: int | None = None):
    return await fake.answered(await fake.slash(user, "move", channel_id=channel_id,
                                                notation=notation))


async def slash_move(fake, user: int, notation: str, channel_id: int | None = None, *,
                     expect: str = "You played"):
    """/move, then the board the bot posts after it."""
    before = len(boards(fake, channel_id))
    record = await play_slash(fake, user, notation, channel_id)
    assert is_ephemeral(record.original), record.callbacks
    assert expect in record.original["content"], record.original["content"]
    return record, await next_board(fake, before, channel_id, f"the board after {notation}")


async def enter_move(fake, user: int, board: dict[str, Any], game, state, notation: str,
                     channel_id: int | None = None, timeout: float = 15.0) -> dict[str, Any]:
    """Play `notation` with components only, as a player on a phone would: answer each of
    the game's steps on the board, then in the private message that follows. Steps with a
    single option are answered by the bot, so they show no component."""
    path = list(game.input_path(state, game.parse_move(state, notation)))
    before = len(boards(fake, channel_id))
    message = fake.messages[int(board["id"])]
    if any(c.get("custom_id", "").startswith("c1:p:") for c in components(message, 2)):
        record = await fake.answered(await fake.click(user, message,
                                                      button_with(message, "c1:p:")))
        message = record.original
        assert message is not None and is_ephemeral(message), record.callbacks
    while path:
        answer = path.pop(0)
        wanted = tuple(sorted(answer))
        record = None
        for button in components(message, 2):
            cid = button.get("custom_id", "")
            if cid.startswith("c1:s:") and tuple(sorted(step_answers(cid)[-1])) == wanted:
                record = await fake.answered(await fake.click(user, message, cid))
                break
        else:
            for menu in components(message, 3):
                values = {o["value"] for o in menu["options"]}
                if set(answer) <= values:
                    record = await fake.answered(await fake.select(user, message,
                                                                   menu["custom_id"],
                                                                   list(answer)))
                    break
        if record is None:
            continue  # answered by the bot (a single option)
        assert record.kind in (4, 7), record.callbacks
        if record.kind == 4:
            message = record.original
            assert message is not None and is_ephemeral(message), message
            assert components(message), message["content"]  # a question, not a refusal
        else:
            message = fake.messages.get(record.source_message_id or 0, message)
    return await next_board(fake, before, channel_id, f"the board after {notation}",
                            timeout=timeout)


def decode_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def mover(board: dict[str, Any], users: list[int]) -> int | None:
    """Who the board says is to move."""
    for user in users:
        if f"<@{user}>, your turn" in says(board):
            return user
    return None
