"""Progressive Mancala in words: the alt text and the text board of a position, written from
the view alone (nothing is hidden in this game, but a picture's words still come from what the
picture shows). The kit's own vocabulary: 先手/後手 through Seat fields, "bonus move", "sow",
"relay" and "goal" as the picture and the move effects already say them."""

from __future__ import annotations

from ..base import (
    N_,
    Description,
    InvalidMoveError,
    Phrase,
    Seat,
    nphrase,
    phrase,
    shorten,
)
from .game import GOAL, MancalaEnding, MancalaView, last_move_effects, pit_letter


def sentence(line: Phrase) -> Phrase:
    """A line of the alt text ends as a sentence, so that a screen reader pauses there and the
    cut at 1,024 characters can keep whole sentences."""
    return phrase(N_("{sentence}."), sentence=line)


def describe(view: MancalaView) -> Description:
    """Essentials first (the result or who sows, bonus moves, the score), then the goal and
    the pits; the text board has a line per pit and the whole last move."""
    head = _status(view)
    score = phrase(N_("Score: {first} {a}, {second} {b} (first to {target})"),
                   first=Seat(0), second=Seat(1), a=view.scores[0], b=view.scores[1],
                   target=view.target)
    goal = _goal(view)
    pits = phrase(N_("Pits: {pits}"), pits=tuple(
        phrase(N_("{pit}: {n}"), pit=pit_letter(i), n=n) for i, n in enumerate(view.pits)))
    alt = [*head, score, goal, pits]
    full = [*head, score, *(_directions(view)), goal]
    full += [describe_pit(view, i) for i in range(len(view.pits))]
    if view.last is not None:
        last = view.last
        effects = last_move_effects(view.last, relay=False)
        alt.append(phrase(N_("Last move: {name} {move} ({effects})"), name=Seat(last.seat),
                          move=pit_letter(last.pit), effects=effects) if effects else
                   phrase(N_("Last move: {name} {move}"), name=Seat(last.seat),
                          move=pit_letter(last.pit)))
        full.append(phrase(N_("Last move: {name} {move}"), name=Seat(last.seat),
                           move=pit_letter(last.pit)))
        full += last_move_effects(view.last)
    return Description(alt=tuple(sentence(line) for line in alt), full=tuple(full))


def _status(view: MancalaView) -> list[Phrase]:
    if view.outcome is not None or view.to_move is None:
        return [phrase(N_("Game over: {result}"), result=_result(view))]
    seat = view.to_move
    lines = [_sows(view, seat, N_("{name} to move, sowing from {start} to {end} and into the "
                                  "goal"))]
    if view.extra_moves > 0:
        lines.append(nphrase(N_("{n} bonus move to make after this one"),
                             N_("{n} bonus moves to make after this one"), view.extra_moves))
    if view.owed > 0:
        lines.append(phrase(N_("Bonus moves for {name} next turn: {n}"), name=Seat(1 - seat),
                            n=view.owed))
    return lines


def _sows(view: MancalaView, seat: int, template: str) -> Phrase:
    """The sowing direction of `seat`: the first player sows k, j... a, the second a... k."""
    ends = (pit_letter(len(view.pits) - 1), "a")
    start, end = ends if seat == 0 else ends[::-1]
    return phrase(template, name=Seat(seat), start=start, end=end)


def _directions(view: MancalaView) -> list[Phrase]:
    return [_sows(view, seat, N_("{name} sows from {start} to {end}, then into the goal"))
            for seat in (0, 1)]


def _result(view: MancalaView) -> Phrase:
    outcome = view.outcome
    if outcome is None:
        return phrase(N_("The game is not over"))
    if outcome.ending == MancalaEnding.TARGET:
        seat = outcome.winners[0]
        return phrase(N_("{winner} reached {score} seeds (first to {target})"),
                      winner=Seat(seat), score=view.scores[seat], target=view.target)
    if outcome.ending == MancalaEnding.REPETITION:
        return phrase(N_("Drawn: the same position came up a third time"))
    if outcome.ending == MancalaEnding.NO_LEGAL_MOVE:
        return phrase(N_("Drawn: no pit can be sown"))
    if outcome.draw:
        return phrase(N_("Drawn"))
    return phrase(N_("{winner} wins"), winner=Seat(outcome.winners[0]))


def _goal(view: MancalaView) -> Phrase:
    return nphrase(N_("Goal: {n} seed"), N_("Goal: {n} seeds"), view.goal)


def describe_pit(view: MancalaView, pit: int) -> Phrase:
    n = view.pits[pit]
    if n == 0:
        return phrase(N_("Pit {pit}: empty"), pit=pit_letter(pit))
    return nphrase(N_("Pit {pit}: {n} seed"), N_("Pit {pit}: {n} seeds"), n,
                   pit=pit_letter(pit))


def point_names(view: MancalaView) -> tuple[str, ...]:
    """The pits by their letters, left to right as the notation names them, then the goal."""
    return (*(pit_letter(i) for i in range(len(view.pits))), GOAL)


def describe_point(view: MancalaView, name: str) -> Phrase:
    key = name.strip().lower()
    if key == GOAL:
        return _goal(view)
    if len(key) == 1 and "a" <= key <= pit_letter(len(view.pits) - 1):
        return describe_pit(view, ord(key) - ord("a"))
    raise InvalidMoveError(N_("There is no place {name} on this board."), name=shorten(name))
