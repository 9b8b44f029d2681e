"""Durations and move clocks: pure helpers shared by the service and the bot."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from games import N_

MIN_SECONDS, MAX_SECONDS = 60, 30 * 86400
# ASCII digits only (`\d` would take other scripts' digits), at most 4 of them per unit: a
# number is bounded before it is converted
_DURATION = re.compile(r"^(?:([0-9]{1,4})d)?(?:([0-9]{1,4})h)?(?:([0-9]{1,5})m)?$")
HALF, LAST = 0.5, 0.1  # reminders: half the time gone, and the last tenth


class DurationError(ValueError):
    pass


# the same in Japanese, as the Japanese help texts write it: 3日, 12時間, 1日12時間, 90分, なし
_JAPANESE_UNITS = (("日", "d"), ("時間", "h"), ("分", "m"))
_JAPANESE_NONE = ("なし", "無し", "無制限")
_FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def parse_duration(text: str) -> int | None:
    """'3d', '12h', '1d12h', '90m' -> seconds; 'none' -> None (no deadline). Japanese units
    are read as well ('1日12時間', '90分', 'なし'), and full-width digits as ASCII ones."""
    token = text.translate(_FULL_WIDTH_DIGITS).strip().lower()
    token = token.replace(" ", "").replace("\u3000", "")
    if token in ("none", "off", "no") or token in _JAPANESE_NONE:
        return None
    for unit, letter in _JAPANESE_UNITS:
        token = token.replace(unit, letter)
    found = _DURATION.match(token) if len(token) <= 20 else None
    if not token or not found:
        raise DurationError(text)
    days, hours, minutes = (int(g) if g else 0 for g in found.groups())
    return days * 86400 + hours * 3600 + minutes * 60


def _english(message: str) -> str:
    return message


# the words of a duration, in the reader's language through the catalogs (2日3時間)
DAYS_HOURS = N_("{days}d {hours}h")
HOURS_MINUTES = N_("{hours}h {minutes}m")
DAYS, HOURS, MINUTES = N_("{n}d"), N_("{n}h"), N_("{n}m")
UNDER_A_MINUTE = N_("<1m")


def format_duration(seconds: float, gettext: Callable[[str], str] = _english) -> str:
    """A short reading: '2d 3h', '5h 20m', '45m', '<1m' in English, '2日3時間' in Japanese
    with that catalog's `gettext` (for settings, not for deadlines: those are Discord
    timestamps that every reader sees in their own time zone)."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return (gettext(DAYS_HOURS).format(days=days, hours=hours) if hours
                else gettext(DAYS).format(n=days))
    if hours:
        return (gettext(HOURS_MINUTES).format(hours=hours, minutes=minutes) if minutes
                else gettext(HOURS).format(n=hours))
    return gettext(MINUTES).format(n=minutes) if minutes else gettext(UNDER_A_MINUTE)


@dataclass(frozen=True)
class Duration:
    """A length of time inside a Phrase: whoever shows the phrase writes it in the reader's
    language (`Texts`), as `format_duration` does; `str()` is the English."""

    seconds: int

    def __str__(self) -> str:
        return format_duration(self.seconds)


def relative_time(at: float) -> str:
    """A Discord timestamp shown relative to the reader's now ("in 3 hours")."""
    return f"<t:{int(at)}:R>"


def absolute_time(at: float) -> str:
    """A Discord timestamp shown in the reader's own time zone."""
    return f"<t:{int(at)}:f>"


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
    now: float

    @property
    def expired(self) -> bool:
        return self.remaining <= 0

    @property
    def due_at(self) -> float:
        """When the time runs out if the clock keeps running from now."""
        start = self.on_vacation_until if self.on_vacation_until is not None else self.now
        return start + max(0.0, self.remaining)

    def stage(self) -> str | None:
        """Which reminder is due: 'last' in the last tenth, 'half' past half, else None."""
        if self.expired or self.on_vacation_until is not None:
            return None
        if self.remaining <= self.move_seconds * LAST:
            return "last"
        if self.remaining <= self.move_seconds * HALF:
            return "half"
        return None

    def next_check(self) -> float | None:
        """When something may next come due (a reminder, then the expiry); None once expired.
        A vacation pauses the clock: look again when it ends."""
        if self.expired:
            return None
        if self.on_vacation_until is not None:
            return self.on_vacation_until
        for fraction in (HALF, LAST, 0.0):
            mark = self.move_seconds * fraction
            if self.remaining > mark:
                return self.now + (self.remaining - mark)
        return self.now


def clock_for(move_seconds: int, turn_started_at: float, now: float,
              vacations: list[tuple[float, float]]) -> Clock:
    """Time runs only while the player is not on vacation."""
    paused = overlap(vacations, turn_started_at, now)
    remaining = move_seconds - (now - turn_started_at - paused)
    current = [b for a, b in vacations if a <= now < b]
    return Clock(move_seconds, remaining, max(current) if current else None, now)
