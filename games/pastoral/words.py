"""Pastoral Square in words: the alt text and the text board of a position, written from the
view alone. The kit's own vocabulary: 先攻/後攻 through Seat fields, held stones (持ち石) and
the stock (在庫), the corral, the cattle area and the holding areas, "mutilation" as the move
effects say it."""

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
from .game import (
    CORRAL,
    EMPTY,
    HOLDING,
    VALUE,
    PastoralEnding,
    PastoralView,
    cell_name,
    parse_cell,
)

COLOURS = {"black": N_("black"), "white": N_("white")}  # the stones, as the picture shows them


def sentence(line: Phrase) -> Phrase:
    """A line of the alt text ends as a sentence (a screen reader pauses; the cut at 1,024
    characters keeps whole sentences)."""
    return phrase(N_("{sentence}."), sentence=line)


def _reading_order() -> tuple[int, ...]:
    """The cells as the picture is read: rank 8 (north) first, each rank from file a to h."""
    return tuple(file + 8 * rank for rank in range(7, -1, -1) for file in range(8))


READING_ORDER = _reading_order()


def describe(view: PastoralView) -> Description:
    """Essentials first (the result or who plays, what each player holds and has in stock,
    cells closed to the mover), then every stone on the board by owner; the text board splits
    the stones by area and lists the free corral cells with the stones a claim takes."""
    head = _status(view)
    seats = [_seat(view, seat) for seat in (0, 1)]
    blocked = _blocked(view)
    alt = [*head, *seats, *blocked]
    full = [*head, *seats, *blocked]
    for seat in (0, 1):
        cells = _stones(view, seat, None)
        alt.append(phrase(N_("{name}'s stones: {cells}"), name=Seat(seat), cells=cells)
                   if cells else phrase(N_("{name} has no stones on the board"),
                                        name=Seat(seat)))
        for corral, template in ((True, N_("{name}'s stones in the corral: {cells}")),
                                 (False, N_("{name}'s stones in the cattle area: {cells}"))):
            found = _stones(view, seat, corral)
            full.append(phrase(template, name=Seat(seat),
                               cells=found or (phrase(N_("none")),)))
    free = tuple(phrase(N_("{cell}: {n}"), cell=cell_name(c), n=VALUE[c])
                 for c in READING_ORDER if c in CORRAL and view.owner[c] == EMPTY)
    if free:
        full.append(phrase(N_("Free corral cells, with the stones a claim takes: {cells}"),
                           cells=free))
    last = _last(view)
    alt += last
    full += last
    return Description(alt=tuple(sentence(line) for line in alt), full=tuple(full))


def _status(view: PastoralView) -> list[Phrase]:
    if view.outcome is not None or view.to_move is None:
        return [phrase(N_("Game over: {result}"), result=_result(view))]
    return [phrase(N_("{name} to move {picked}"), name=Seat(view.to_move),
                   picked=phrase(N_("(picked up {n})"), n=view.picked))]


def _result(view: PastoralView) -> Phrase:
    outcome = view.outcome
    if outcome is None:
        return phrase(N_("The game is not over"))
    if outcome.ending == PastoralEnding.BINGO and view.bingo is not None:
        line = view.bingo
        return nphrase(N_("{winner} made a bingo: {cells} with {n} stone each"),
                       N_("{winner} made a bingo: {cells} with {n} stones each"),
                       view.count[line[0]], winner=Seat(outcome.winners[0]),
                       cells=tuple(cell_name(c) for c in line))
    if outcome.ending == PastoralEnding.PICKUP_FAILURE:
        winner = outcome.winners[0]
        return phrase(N_("{loser}'s stock could not cover the pick-up: {winner} wins"),
                      loser=Seat(1 - winner), winner=Seat(winner))
    if outcome.ending == PastoralEnding.REPETITION:
        return phrase(N_("Drawn: the same position came up a third time"))
    if outcome.draw:
        return phrase(N_("Drawn"))
    return phrase(N_("{winner} wins"), winner=Seat(outcome.winners[0]))


def _seat(view: PastoralView, seat: int) -> Phrase:
    colour = COLOURS.get(view.first_colour if seat == 0 else
                         ("white" if view.first_colour == "black" else "black"))
    return phrase(N_("{name} ({colour}): {held} held, {stock} in stock"), name=Seat(seat),
                  colour=phrase(colour) if colour else "", held=view.held[seat],
                  stock=view.stock[seat])


def _blocked(view: PastoralView) -> list[Phrase]:
    if not view.blocked or view.to_move is None:
        return []
    return [phrase(N_("{name} may not place on {cells} this turn (just mutilated)"),
                   name=Seat(view.to_move),
                   cells=tuple(cell_name(c) for c in READING_ORDER if c in view.blocked))]


def _stones(view: PastoralView, seat: int, corral: bool | None) -> tuple[Phrase, ...]:
    """`seat`'s stacks as "cell: stones", in reading order (`corral`: only the corral's or
    only the cattle area's; None: all)."""
    return tuple(phrase(N_("{cell}: {n}"), cell=cell_name(c), n=view.count[c])
                 for c in READING_ORDER
                 if view.owner[c] == seat and (corral is None or (c in CORRAL) == corral))


def _last(view: PastoralView) -> list[Phrase]:
    last = view.last
    if last is None:
        return []
    move = "save" if last.cell is None else f"{cell_name(last.cell)}:{last.stones}"
    lines = [phrase(N_("Last move: {name} {move}"), name=Seat(last.seat), move=move)]
    mutilation = last.mutilation
    if mutilation is not None:
        gone = tuple(f"{cell_name(c)} ({n})" for c, _, n in mutilation.removed)
        lines.append(nphrase(N_("mutilation: {cells} removed, {n} stone back to each stock"),
                             N_("mutilation: {cells} removed, {n} stones back to each stock"),
                             mutilation.to_stocks, cells=gone))
        if mutilation.to_held:
            lines.append(phrase(N_("one stone back to the mover's hand")))
    return lines


def point_names(view: PastoralView) -> tuple[str, ...]:
    """Every cell, named as the notation names it (d4), in reading order."""
    return tuple(cell_name(c) for c in READING_ORDER)


def describe_point(view: PastoralView, name: str) -> Phrase:
    cell = parse_cell(name.strip().lower())
    if cell is None:
        raise InvalidMoveError(N_("There is no place {name} on this board."), name=shorten(name))
    where = cell_name(cell)
    if cell in HOLDING:
        return phrase(N_("{cell} is in a holding area, where no stones are played"), cell=where)
    owner, n = view.owner[cell], view.count[cell]
    if cell in CORRAL:
        if owner != EMPTY:
            return nphrase(N_("{cell}, corral: {n} stone of {name}"),
                           N_("{cell}, corral: {n} stones of {name}"), n, cell=where,
                           name=Seat(owner))
        if cell in view.blocked and view.to_move is not None:
            return phrase(N_("{cell}, corral: empty, a claim takes {value} stones; {name} may "
                             "not place here this turn"), cell=where, value=VALUE[cell],
                          name=Seat(view.to_move))
        return phrase(N_("{cell}, corral: empty, a claim takes {value} stones"), cell=where,
                      value=VALUE[cell])
    if owner != EMPTY:
        return nphrase(N_("{cell}, cattle area: {n} stone of {name}"),
                       N_("{cell}, cattle area: {n} stones of {name}"), n, cell=where,
                       name=Seat(owner))
    return phrase(N_("{cell}, cattle area: empty"), cell=where)
