"""Square boards in algebraic coordinates (files a.., ranks 1.., north = higher rank), as the
rule books' shared conventions define them. Squares are numbered `file + size * rank`."""

from __future__ import annotations

from dataclasses import dataclass

from .base import NC_, Phrase, phrase

DIRECTIONS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1),
              "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
ORTHOGONAL = {d: DIRECTIONS[d] for d in ("N", "E", "S", "W")}
# the directions as words (English shows the notation itself; Japanese 北, 北東 ...)
COMPASS = {"N": NC_("compass", "N"), "NE": NC_("compass", "NE"), "E": NC_("compass", "E"),
           "SE": NC_("compass", "SE"), "S": NC_("compass", "S"), "SW": NC_("compass", "SW"),
           "W": NC_("compass", "W"), "NW": NC_("compass", "NW")}


def compass(direction: str) -> Phrase:
    """A direction of the notation (`NE`) as a word in the reader's language (北東)."""
    return phrase(COMPASS[direction])


@dataclass(frozen=True)
class Grid:
    size: int

    @property
    def files(self) -> str:
        return "abcdefgh"[: self.size]

    def name(self, square: int) -> str:
        return f"{self.files[square % self.size]}{square // self.size + 1}"

    def parse(self, text: str) -> int | None:
        """The square named `text` (e.g. 'b2'), or None."""
        ranks = "12345678"[: self.size]
        if len(text) == 2 and text[0] in self.files and text[1] in ranks:
            return self.files.index(text[0]) + self.size * ranks.index(text[1])
        return None

    def step(self, square: int, direction: str) -> int | None:
        """The next square in a direction, or None off the board."""
        df, dr = DIRECTIONS[direction]
        f, r = square % self.size + df, square // self.size + dr
        return f + self.size * r if 0 <= f < self.size and 0 <= r < self.size else None

    def wrap_step(self, square: int, direction: str) -> int:
        """The next square on the torus (edges joined north-south and east-west)."""
        df, dr = DIRECTIONS[direction]
        return (square % self.size + df) % self.size + self.size * (
            (square // self.size + dr) % self.size)

    def neighbours(self, square: int) -> list[int]:
        """The up to 8 squares around, diagonals included, in square order."""
        return sorted(n for d in DIRECTIONS if (n := self.step(square, d)) is not None)
