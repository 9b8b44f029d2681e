"""Helpers for driving the bot through the imitation and reading what it posted."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from discord_fake import EPHEMERAL, UserRef


def board_buttons(fake, message: dict[str, Any]) -> dict[str, str]:
    """Move buttons on a board message: notation -> custom id."""
    return {cid.rsplit(":", 1)[1]: cid for cid in fake.custom_ids(message)
            if cid.startswith("corral:mv:")}


def boards(fake, channel_id: int | None = None) -> list[dict[str, Any]]:
    return [m for m in fake.channel_messages(channel_id) if m["attachments"]]


def is_ephemeral(message: dict[str, Any]) -> bool:
    return bool(message["flags"] & EPHEMERAL)


async def challenge_and_accept(fake, host: int, guest: int, *, first: str = "me",
                               options: str | None = None, channel_id: int | None = None):
    """`/play` with an opponent, then Accept. Returns the first board message."""
    record = await fake.answered(await fake.slash(
        host, "play", channel_id=channel_id, game="progressive-mancala", opponent=UserRef(guest),
        first=first, options=options))
    invitation = record.original
    assert invitation is not None and not is_ephemeral(invitation), record.callbacks
    accept = next(c for c in fake.custom_ids(invitation) if ":accept:" in c)
    before = len(boards(fake, channel_id))
    await fake.answered(await fake.click(guest, invitation, accept))
    return await fake.wait_for(lambda: len(boards(fake, channel_id)) > before and
                               boards(fake, channel_id)[-1], what="the first board")


async def play_button(fake, user: int, board: dict[str, Any], notation: str,
                      channel_id: int | None = None) -> dict[str, Any]:
    """Click a move button; returns the new board."""
    before = len(boards(fake, channel_id))
    record = await fake.answered(await fake.click(user, board, board_buttons(fake, board)[notation]))
    assert record.kind == 7, record.callbacks  # the used board is updated (buttons retired)
    return await fake.wait_for(lambda: len(boards(fake, channel_id)) > before and
                               boards(fake, channel_id)[-1], what=f"the board after {notation}")


async def play_slash(fake, user: int, notation: str, channel_id: int | None = None):
    record = await fake.answered(await fake.slash(user, "move", channel_id=channel_id,
                                                  notation=notation))
    return record


def decode_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image
