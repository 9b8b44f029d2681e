"""Direct messages that never break a flow: a closed inbox is reported, not raised."""

from __future__ import annotations

import io
import logging

import discord

log = logging.getLogger(__name__)


async def send_dm(client: discord.Client, user_id: int, content: str, *,
                  png: bytes | None = None) -> bool:
    """Send `content` (and a picture) to a user privately; False if their DMs are closed.

    Works from the id alone, so no member cache (and no privileged intent) is needed."""
    try:
        channel = await client.create_dm(discord.Object(user_id))
        file = discord.File(io.BytesIO(png), filename="board.png") if png else discord.utils.MISSING
        await channel.send(content, file=file, allowed_mentions=discord.AllowedMentions.none())
        return True
    except discord.Forbidden:  # 50007: cannot send messages to this user
        return False
    except discord.HTTPException as exc:
        log.warning("DM to %s failed: %s", user_id, exc)
        return False
