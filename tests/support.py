"""Shared test doubles: an injectable clock, a deterministic seat order, named players."""

from bot.service import Player


class FakeClock:
    """An injectable clock: tests move time by hand, nothing sleeps."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FirstFixed:
    """A stand-in for the seat shuffle that keeps the join order (deterministic tests)."""

    def shuffle(self, seq):
        return None


ALICE = Player(101, "Alice")
BOB = Player(202, "Bob")
CAROL = Player(303, "Carol")
