"""Durations and move clocks: pure helpers shared by the service and the bot."""

from __future__ import annotations

import re
from dataclasses import dataclass

UNITS = {"d": 86400, "h": 3600, "m": 60}
MIN_SECONDS, MAX_SECONDS = 60, 30 * 86400
_DURATION = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$")


class DurationError(ValueError):
    pass


def parse_duration(text: str) -> int | None:
    """'3d', '12h', '1d12h', '90m' -> seconds; 'none' -> None (no deadline)."""
    token = text.strip().lower().replace(" ", "")
    if token in ("none", "off", "no"):
        return None
    found = _DURATION.match(token)
    if not token or not found:
        raise DurationError(text)
    days, hours, minutes = (int(g) if g else 0 for g in found.groups())
    return days * 86400 + hours * 3600 + minutes * 60


def format_duration(seconds: float) -> str:
    """A short human reading: '2d 3h', '5h 20m', '45m', 'less than a minute'."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    return f"{minutes}m" if minutes else "less than a minute"


def overlap(periods: list[tuple[float, float]], start: float, end: float) -> float:
    """Seconds of [start, end] covered by the (possibly overlapping) periods."""
    covered, cursor = 0.0, start
    for a, b in sorted(periods):
        a, b = max(a, cursor), min(b, end)
        if b > a:
            covered += b - a
            cursor = b
    return covered


@dataclass(frozen=True)
class Clock:
    """The clock of the seat to move."""

    move_seconds: int
    remaining: float  # may be negative once expired
    on_vacation_until: float | None

    @property
    def expired(self) -> bool:
        return self.remaining <= 0

    def stage(self) -> str | None:
        """Which reminder is due: 'last' in the last tenth, 'half' past half, else None."""
        if self.expired or self.on_vacation_until is not None:
            return None
        if self.remaining <= self.move_seconds * 0.1:
            return "last"
        if self.remaining <= self.move_seconds * 0.5:
            return "half"
        return None


def clock_for(move_seconds: int, turn_started_at: float, now: float,
              vacations: list[tuple[float, float]]) -> Clock:
    """Time runs only while the player is not on vacation."""
    paused = overlap(vacations, turn_started_at, now)
    remaining = move_seconds - (now - turn_started_at - paused)
    current = [b for a, b in vacations if a <= now < b]
    return Clock(move_seconds, remaining, max(current) if current else None)
