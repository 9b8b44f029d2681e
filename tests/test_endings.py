"""Endings: the platform's reasons in `Termination`, each game's own in its kit, and stored
results of every version loading and reading the same."""

import json

import pytest

from bot import ratings
from bot.service.stats import seat_result
from games import REGISTRY, Ending, InvalidStateError, Outcome, Termination

# every reason the shared enum of version 1 had, and the games that ended with it
V1_GAME_REASONS = {
    "target": {"progressive-mancala", "pastoral-square", "ghostone", "ico", "consequence"},
    "repetition": {"progressive-mancala", "pastoral-square", "ghostone", "consequence"},
    "no-legal-move": {"progressive-mancala", "ghostone", "ico"},
    "tie-break": {"consequence"},
    "pickup-failure": {"pastoral-square"},
}
V1_PLATFORM_REASONS = ("resignation", "agreement", "timeout")


def v1(reason, winners=(0,), draw=False, **extra):
    """A result as version 1 stored it (no version key)."""
    return json.loads(json.dumps({"winners": list(winners), "reason": reason, "draw": draw,
                                  **extra}))


def test_termination_holds_only_the_platforms_reasons():
    assert {t.value for t in Termination} == {"rules", *V1_PLATFORM_REASONS}


@pytest.mark.parametrize("reason", sorted(V1_GAME_REASONS))
def test_every_old_game_reason_loads_as_the_games_own_ending(reason):
    for draw in (False, True):
        outcome = Outcome.from_json(v1(reason, (0, 1) if draw else (1,), draw))
        assert outcome.reason is Termination.RULES and outcome.ending == reason
        assert outcome.cause == reason  # what `python -m games play` prints
        assert outcome.draw is draw and outcome.winners == ((0, 1) if draw else (1,))
        # saved again, it is version 2 and reads the same
        again = Outcome.from_json(json.loads(json.dumps(outcome.to_json())))
        assert again == outcome and outcome.to_json()["version"] == 2
        assert seat_result(v1(reason, (1,)), 1) == "win" and seat_result(v1(reason, (1,)), 0) \
            == "loss"
        assert ratings.counts(rated=True, user_ids=(1, 2), outcome=outcome, plies=1)
    # the value is one of the ending's members in every game that ended that way
    for game_id in V1_GAME_REASONS[reason]:
        endings = REGISTRY[game_id].info.endings
        assert [e for e in endings if e == reason], (game_id, reason)


@pytest.mark.parametrize("reason", V1_PLATFORM_REASONS)
def test_every_old_platform_reason_loads_unchanged(reason):
    outcome = Outcome.from_json(v1(reason, (1,), resigned=12))
    assert outcome.reason is Termination(reason) and outcome.ending is None
    assert outcome.cause == reason
    assert Outcome.from_json(outcome.to_json()) == outcome
    # the rules that read the platform's reasons still see them
    assert not ratings.counts(rated=True, user_ids=(1, 2), outcome=outcome, plies=1)
    assert ratings.places(outcome, 2, (5, 9)) == [2, 1]


def test_unknown_reasons_and_versions_are_refused():
    for data in (v1("rules"), v1("checkmate"), {"version": 3, "winners": [0], "reason": "rules"},
                 {"version": 2, "winners": [0], "reason": "target"},
                 {"version": 2, "winners": [0], "reason": "rules", "ending": 7},
                 {"winners": "x", "reason": "target"}, {"reason": "target"}):
        with pytest.raises(InvalidStateError):
            Outcome.from_json(data)


def test_every_game_declares_its_endings_and_each_round_trips():
    for game in REGISTRY.values():
        endings = game.info.endings
        assert endings and all(isinstance(e, Ending) for e in endings), game.id
        assert len({e.value for e in endings}) == len(endings)
        for ending in endings:
            outcome = Outcome((0,), ending=ending)
            data = json.loads(json.dumps(outcome.to_json()))
            assert data == {"version": 2, "winners": [0], "reason": "rules", "draw": False,
                            "ending": ending.value}
            assert Outcome.from_json(data) == outcome
