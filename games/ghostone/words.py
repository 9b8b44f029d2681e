"""Ghostone in words: the alt text and the text board of a position, written from the view
alone (the public view shows everything: pawns, rocks, flipped plates, the ghost, the die). The
kit's own vocabulary: pawns (駒), rocks (岩), plates (プレート), the ghost (オバケ), the die
(賽子) and its compass words, seats through Seat fields."""

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
from ..grid import compass
from .game import (
    GAME,
    GHOST,
    NO_PAWN,
    PLATES,
    ROLL,
    SETUP,
    SIZE,
    GhostoneEnding,
    GhostoneView,
    GhostPlacement,
    PawnMove,
    Roll,
    parse_plate,
    plate_name,
)


def sentence(line: Phrase) -> Phrase:
    """A line of the alt text ends as a sentence (a screen reader pauses; the cut at 1,024
    characters keeps whole sentences)."""
    return phrase(N_("{sentence}."), sentence=line)


READING_ORDER = tuple(file + SIZE * rank for rank in range(SIZE - 1, -1, -1)
                      for file in range(SIZE))  # rank 4 (north) first, a to d


def describe(view: GhostoneView) -> Description:
    """Essentials first (the result or whose turn, each seat's score and pawns), then the
    ghost, the die, the rocks and flipped plates; the text board has a line per plate."""
    head = [_status(view), *(_seat(view, seat) for seat in range(view.seats))]
    ghost = _ghost(view)
    removed = nphrase(N_("{n} rock out of the game"), N_("{n} rocks out of the game"),
                      view.removed)
    alt = [*head]
    if view.ghost is not None or any(view.escaped):
        alt += ghost
    if view.removed:
        alt.append(removed)
    if view.last_roll is not None and isinstance(view.last_roll.move, Roll):
        alt.append(phrase(N_("Die: {direction}"),
                          direction=compass(view.last_roll.move.direction)))
    rocks = tuple(phrase(N_("{plate}: {n}"), plate=plate_name(p), n=view.rocks[p])
                  for p in READING_ORDER if p not in view.flipped)
    alt.append(phrase(N_("Rocks: {plates}"), plates=rocks))
    flipped = tuple(plate_name(p) for p in READING_ORDER if p in view.flipped)
    if flipped:
        alt.append(phrase(N_("Flipped plates: {plates}"), plates=flipped))
    full = [*head, *ghost, removed, *(describe_plate(view, p) for p in READING_ORDER)]
    last = _last(view)
    if last is not None:
        move, effects = last
        alt.append(phrase(N_("Last move: {name} {move} ({effects})"), name=move.field("name"),
                          move=move.field("move"), effects=effects) if effects else move)
        full += [move, *effects]
    roll = _roll(view)
    full += roll
    return Description(alt=tuple(sentence(line) for line in alt), full=tuple(full))


def _status(view: GhostoneView) -> Phrase:
    if view.outcome is not None:
        return phrase(N_("Game over: {result}"), result=_result(view))
    if view.phase == ROLL or view.to_move is None:
        return phrase(N_("The host rolls the die"))
    seat = Seat(view.to_move)
    if view.phase == SETUP:
        return phrase(N_("Set-up: {name} places a pawn and 3 rocks"), name=seat)
    if view.phase == GHOST:
        return phrase(N_("{name} places the ghost"), name=seat)
    return phrase(N_("{name} to move"), name=seat)


def _result(view: GhostoneView) -> Phrase:
    outcome = view.outcome
    if outcome is None:
        return phrase(N_("The game is not over"))
    best = view.scores[outcome.winners[0]]
    if outcome.draw:
        result = phrase(N_("{winners} share the lead with {score}"),
                        winners=tuple(Seat(w) for w in outcome.winners), score=best)
    else:
        result = phrase(N_("{winner} wins with {score}"), winner=Seat(outcome.winners[0]),
                        score=best)
    last = view.last
    if outcome.ending == GhostoneEnding.PAWNS and last is not None and last.seat is not None:
        return phrase(N_("{last} escaped last: {result}"), last=Seat(last.seat), result=result)
    if outcome.ending == GhostoneEnding.PASSES:
        return phrase(N_("Nobody could move for a whole round: {result}"), result=result)
    if outcome.ending == GhostoneEnding.REPETITION:
        return phrase(N_("The same position came up a third time: {result}"), result=result)
    return result


def _seat(view: GhostoneView, seat: int) -> Phrase:
    """A seat's score and the plates of its pawns still on the board."""
    pawns = tuple(plate_name(p) for p in READING_ORDER if view.pawns[p] == seat)
    points = nphrase(N_("{n} point"), N_("{n} points"), view.scores[seat])
    if not pawns:
        return phrase(N_("{name}: {points}, no pawn on the board"), name=Seat(seat),
                      points=points)
    return nphrase(N_("{name}: {points}, pawn on {plates}"),
                   N_("{name}: {points}, pawns on {plates}"), len(pawns), name=Seat(seat),
                   points=points, plates=pawns)


def _ghost(view: GhostoneView) -> list[Phrase]:
    if view.ghost is not None:
        return [phrase(N_("The ghost is on {plate}"), plate=plate_name(view.ghost))]
    escapes = sum(len(e) for e in view.escaped)
    return [phrase(N_("The ghost comes out after the third escape ({n} so far)"), n=escapes)]


def describe_plate(view: GhostoneView, plate: int) -> Phrase:
    """One plate: flipped or its pawn and rocks, and the ghost when it is there."""
    contents: list[Phrase] = []
    if view.ghost == plate:
        contents.append(phrase(N_("the ghost")))
    if plate in view.flipped:
        contents.append(phrase(N_("flipped")))
    else:
        pawn = view.pawns[plate]
        if pawn != NO_PAWN:
            contents.append(phrase(N_("{name}'s pawn"), name=Seat(pawn)))
        n = view.rocks[plate]
        if n:
            contents.append(nphrase(N_("{n} rock"), N_("{n} rocks"), n))
        elif view.outcome is None:
            contents.append(phrase(N_("no rock: a pawn stepping here escapes")))
        else:
            contents.append(phrase(N_("no rock")))
    return phrase(N_("{plate}: {contents}"), plate=plate_name(plate), contents=tuple(contents))


def _last(view: GhostoneView) -> tuple[Phrase, tuple[Phrase, ...]] | None:
    """The last set-up, step or ghost placement in notation, and what it did."""
    last = view.last
    if last is None or last.seat is None:
        return None
    move = last.move
    text = _notation(move)
    effects = []
    if last.escaped is not None:
        points, bonus = last.escaped
        effects.append(nphrase(N_("escaped: {n} rock + {bonus} bonus"),
                               N_("escaped: {n} rocks + {bonus} bonus"), points, bonus=bonus))
    if isinstance(move, PawnMove) and move.rock is not None:
        effects.append(phrase(N_("a rock went off the board")) if last.rock_to is None
                       else phrase(N_("a rock went to {plate}"), plate=plate_name(last.rock_to)))
    if isinstance(move, GhostPlacement):  # in words: Japanese has no "ghost" to read
        return (phrase(N_("Last move: {name} placed the ghost on {plate}"),
                       name=Seat(last.seat), plate=plate_name(move.plate)), ())
    return (phrase(N_("Last move: {name} {move}"), name=Seat(last.seat), move=text),
            tuple(effects))


def _notation(move: object) -> str:
    """The kit's notation of a move (format_move reads only the move, not the state)."""
    return GAME.format_move(None, move)  # type: ignore[arg-type]


def _roll(view: GhostoneView) -> list[Phrase]:
    roll = view.last_roll
    if roll is None or not isinstance(roll.move, Roll) or roll.ghost_from is None \
            or view.ghost is None:
        return []
    lines = [phrase(N_("the die shows {direction}: the ghost moves {origin} → {target}"),
                    direction=compass(roll.move.direction), origin=plate_name(roll.ghost_from),
                    target=plate_name(view.ghost))]
    if roll.ghost_took:
        lines.append(phrase(N_("the ghost takes a rock from {plate}"),
                            plate=plate_name(roll.ghost_from)))
    return lines


def point_names(view: GhostoneView) -> tuple[str, ...]:
    """The 16 plates, named as the notation names them (b2), in reading order."""
    return tuple(plate_name(p) for p in READING_ORDER)


def describe_point(view: GhostoneView, name: str) -> Phrase:
    plate = parse_plate(name.strip().lower())
    if plate is None or not 0 <= plate < PLATES:
        raise InvalidMoveError(N_("There is no place {name} on this board."), name=shorten(name))
    return describe_plate(view, plate)
