"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2022 revision) for puzzle ratings, as
Lichess rates puzzles: the player and the puzzle are two players of a game the player wins by
finding the solution, and every answer is a rating period of its own (both ratings move at
once). A newcomer starts at 1500 with the paper's deviation for an unrated player (350): the
first answers move them a lot, later ones less and less (after twenty, a few dozen points);
the deviation keeps Lichess's bounds (45 to 500), so that a rating never freezes.

Written here rather than taken from a package: PyPI's `glicko2` (the one maintained package)
computes the volatility's function f with the rating where the paper has the deviation (so its
volatility drifts), has no types, and keeps its state in name-mangled attributes; the
algorithm is forty lines, tested against the paper's own worked example
(tests/test_puzzles.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's internal scale: (rating - 1500) / SCALE
START = 1500.0
START_DEVIATION = 350.0  # the paper's for an unrated player: the first swings near ±150
START_VOLATILITY = 0.09  # Lichess's
MIN_DEVIATION = 45.0  # Lichess's floor: a rating never freezes
MAX_DEVIATION = 500.0  # Lichess's ceiling, reached only by a rating long unused
PROVISIONAL_DEVIATION = 110.0  # shown with a "?" above it (Lichess's)
TAU = 0.75  # the system constant: how fast the volatility may change (Lichess's)
EPSILON = 0.000001


@dataclass(frozen=True)
class Glicko:
    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def display(self) -> int:
        return round(self.rating)

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    def text(self) -> str:
        return f"{self.display}?" if self.provisional else str(self.display)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Glicko, results: Sequence[tuple[Glicko, float]], *, tau: float = TAU,
         bounds: tuple[float, float] = (MIN_DEVIATION, MAX_DEVIATION)) -> Glicko:
    """The player's rating after one rating period: `results` are (opponent, score), score 1 for
    a win, 0 for a loss, 0.5 for a draw. `bounds`: the deviation's (None-free; the paper's
    example passes (0, inf))."""
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    low, high = bounds
    if not results:  # step 6 alone: the deviation grows
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Glicko(player.rating, min(max(grown, low), high), sigma)
    opponents = [((o.rating - START) / SCALE, o.deviation / SCALE, float(s)) for o, s in results]
    v = 1 / sum(_g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j))
                for mu_j, phi_j, _ in opponents)
    gain = sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    delta = v * gain
    sigma_new = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * gain
    deviation = min(max(phi_new * SCALE, low), high)
    return Glicko(START + mu_new * SCALE, deviation, sigma_new)


def answered(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """Both ratings after a player's answer: the player wins if they solved it."""
    score = 1.0 if solved else 0.0
    return rate(player, [(puzzle, score)]), rate(puzzle, [(player, 1.0 - score)])


def from_openskill(mu: float, sigma: float, scale: float = 60.0) -> Glicko:
    """An OpenSkill puzzle rating (bot/ratings.py's, shown as mu × 60) carried over: the same
    number shown, its uncertainty on the same scale, no more than a newcomer's (OpenSkill's
    newcomer, 25/3 × 60 = 500, is Glicko's) and no less than the floor. Migration 0014 does the
    same in SQL."""
    return Glicko(mu * scale, min(max(sigma * scale, MIN_DEVIATION), START_DEVIATION))
