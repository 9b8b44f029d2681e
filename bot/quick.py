"""Quick matches keep one board: when everyone the next board is for is there (an AI, or a
player who moved in this match a moment ago) and nothing was posted in the channel since the
match's board, that board is edited in place instead of a new one posted below it. A match
against the AI then shows one board per human turn at most (most often one board in all), and
two players who answer within minutes are not flooded with a picture per move. A board is
posted anew (with its mention) as soon as the turn passes to someone who is not there, when
the channel moved on (someone wrote, another match posted), or after a restart (what was last
shown is known only in memory: a new board is always safe).

What "there" means: the player moved in this match within `WINDOW` seconds (match clock).
What "the channel moved on" means: the newest message the gateway announced in the channel is
newer than the board (MESSAGE_CREATE of anyone, the bot included; ephemeral answers are not
messages of the channel and do not count). A channel the bot heard nothing of since it started
is taken as moved on.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

WINDOW = 300.0  # seconds since a player's last move in the match during which they are there
KEPT = 20_000  # channels and matches remembered (the oldest are forgotten first)


@dataclass(frozen=True)
class Shown:
    """The board a match last showed: its message, where, when (wall clock), and the token
    of the interaction whose follow-up it is while Discord keeps it (an edit through it is
    not counted against the bot's global limit)."""

    message_id: int
    channel_id: int
    version: int
    at: float
    token: str | None = None
    token_expires: float | None = None


class Bounded(collections.OrderedDict[K, V], Generic[K, V]):
    """A dict that forgets its oldest keys beyond `size` (each write makes a key newest)."""

    def __init__(self, size: int = KEPT) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class ChannelHeads:
    """The newest message id the gateway announced per channel (see the module docstring)."""

    def __init__(self, size: int = KEPT) -> None:
        self._heads: Bounded[int, int] = Bounded(size)

    def saw(self, channel_id: int, message_id: int) -> None:
        if message_id > self._heads.get(channel_id, 0):
            self._heads[channel_id] = message_id

    def quiet_since(self, channel_id: int, message_id: int) -> bool:
        """Nothing newer than `message_id` was posted in the channel (as far as we heard:
        the board's own MESSAGE_CREATE may still be on its way, which counts as quiet)."""
        head = self._heads.get(channel_id)
        return head is not None and head <= message_id


def there(user_id: int, moved_at: dict[int, float], now: float) -> bool:
    """An AI seat (a negative id) is always there; a person who moved within WINDOW is."""
    if user_id < 0:
        return True
    at = moved_at.get(user_id)
    return at is not None and now - at <= WINDOW
