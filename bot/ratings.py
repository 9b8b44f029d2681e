"""Ratings with OpenSkill's Plackett-Luce model: one rating per player per game.

Plackett-Luce rates any number of players with ties (2-4 seats here) from their finishing
places alone. A rating is (mu, sigma); players see `display` (mu scaled so that a newcomer has
1500) with a "?" while sigma is still large (provisional). The rating change of a match is
computed once, in the transaction that finishes it, from the ratings of that moment; replaying
every rated match in the order they finished gives the same numbers (`replay_ratings`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games import Outcome, Termination

SCALE = 60.0  # mu 25 (a newcomer) shows as 1500
PROVISIONAL_SIGMA = 6.0  # a newcomer has 25/3 = 8.33; about ten games bring it below this
NO_COUNT_REASONS = (Termination.RESIGNATION, Termination.TIMEOUT, Termination.AGREEMENT)
MIN_PLIES = 2  # a resignation, timeout or agreed draw in a match's first two moves: unrated


@lru_cache(maxsize=1)
def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @classmethod
    def new(cls) -> Skill:
        fresh = model().rating()
        return cls(float(fresh.mu), float(fresh.sigma))

    @property
    def display(self) -> int:
        return round(self.mu * SCALE)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def text(self) -> str:
        return f"{self.display}?" if self.provisional else str(self.display)


def rate(before: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """New skills of players who finished at `places` (1 = first; equal places tie)."""
    m = model()
    teams = [[m.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = m.rate(teams, ranks=list(places))
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in after]


def places(outcome: Outcome, seat_count: int,
           scores: Sequence[int] | None = None) -> list[int]:
    """Each seat's finishing place: winners first (together on a draw), then the others, by
    score where the game keeps one and ended by its own rules, else tied."""
    result = [0] * seat_count
    for seat in outcome.winners:
        result[seat] = 1
    others = [s for s in range(seat_count) if s not in outcome.winners]
    use_scores = (scores is not None and len(scores) == seat_count
                  and outcome.reason not in NO_COUNT_REASONS)
    if not use_scores:
        for seat in others:
            result[seat] = 2
        return result
    assert scores is not None
    distinct = sorted({scores[s] for s in others}, reverse=True)
    for seat in others:
        result[seat] = 2 + distinct.index(scores[seat])
    return result


def counts(*, rated: bool, user_ids: Iterable[int], outcome: Outcome, plies: int) -> bool:
    """Whether a finished match changes ratings: opened rated, humans only (AI seats have
    negative ids), and not ended by a resignation, a timeout or an agreed draw within its
    first two moves (nothing was played: no rating can be farmed that way)."""
    if not rated or any(uid < 0 for uid in user_ids):
        return False
    return not (outcome.reason in NO_COUNT_REASONS and plies < MIN_PLIES)


@dataclass(frozen=True)
class RatedMatch:
    """What a rating update needs of a finished match (from the store, or from a replay)."""

    match_id: int
    game: str
    user_ids: tuple[int, ...]  # by seat
    places: tuple[int, ...]  # by seat


def replay_ratings(matches: Iterable[RatedMatch]) -> dict[tuple[int, str], Skill]:
    """Every (user, game)'s rating after rating `matches` in order, starting fresh."""
    current: dict[tuple[int, str], Skill] = {}
    for match in matches:
        keys = [(uid, match.game) for uid in match.user_ids]
        before = [current.get(key) or Skill.new() for key in keys]
        for key, skill in zip(keys, rate(before, match.places), strict=True):
            current[key] = skill
    return current
