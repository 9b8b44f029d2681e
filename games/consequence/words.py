"""Consequence in words, from a `ConsequenceView` only: the picture's alt text and the text
board.

Everything here reads the view and nothing else, so a text can say no more than its view
shows: the public view has no symbol before the final count, and a face-down tile is told as a
tile back of its colour ("face-down blue tile"); a seat's own view names the symbols that seat
knows (its hand, the tiles it placed and follows), as its private picture does. Squares are
named as the notation names them (b2), in reading order: rank 4 first, as the picture draws it.
"""

from __future__ import annotations

from ..base import (
    N_,
    Description,
    InvalidMoveError,
    Phrase,
    Seat,
    Termination,
    nphrase,
    phrase,
    shorten,
)
from ..grid import compass
from .game import (
    FILES,
    KINDS,
    OPENING,
    PLAY,
    SIZE,
    ConsequenceEnding,
    ConsequenceView,
    TileView,
    describe_kind,
    square_name,
)

COLOUR_WORDS = {"B": N_("blue"), "R": N_("red")}
ROLE_WORDS = (N_("the moon player"), N_("the sun player"))  # the seat titles
# reading order: rank 4 to rank 1, file a to d
READING = tuple(file + SIZE * rank for rank in range(SIZE - 1, -1, -1) for file in range(SIZE))
KIND_ORDER = ("M", "S", "D")


def colour(letter: str) -> Phrase:
    return phrase(COLOUR_WORDS[letter])


def role(seat: int) -> Phrase:
    return phrase(ROLE_WORDS[seat])


def tile_words(tile: TileView | None) -> Phrase:
    """One square's content: empty, a face-down tile of a colour, or a known symbol."""
    if tile is None:
        return phrase(N_("empty"))
    if tile.symbol is None:
        return phrase(N_("face-down {colour} tile"), colour=colour(tile.colour))
    return describe_kind(tile.colour + tile.symbol)


def _kind_words(view: ConsequenceView, kind: str) -> Phrase:
    """A known symbol on the grid: face up at the final count, else face down."""
    if _face_up(view):
        return describe_kind(kind)
    return phrase(N_("face-down {kind}"), kind=describe_kind(kind))


def _face_up(view: ConsequenceView) -> bool:
    """Whether the tiles have been turned over (the final count; a quiz's view of it keeps
    the game's end but not its points, `without_hints`)."""
    outcome = view.outcome
    return view.scores is not None or (
        outcome is not None and outcome.reason == Termination.RULES
        and outcome.ending != ConsequenceEnding.REPETITION)


def status_words(view: ConsequenceView) -> Phrase:
    """Whose turn and what they may do, or how the game ended."""
    outcome = view.outcome
    if outcome is None:
        seat = view.to_move if view.to_move is not None else 0
        fields = {"player": Seat(seat), "role": role(seat)}
        if view.phase == OPENING:
            return phrase(N_("{player} ({role}) to move: place the opening tile."), **fields)
        if view.phase == PLAY:
            return phrase(N_("{player} ({role}) to move."), **fields)
        return phrase(N_("{player} ({role}) places the last tiles, one a turn."), **fields)
    if view.scores is None and _face_up(view):  # a quiz's view: the count is the question
        return phrase(N_("Game over: every tile is turned over for the count."))
    if outcome.ending == ConsequenceEnding.REPETITION or view.scores is None:
        result = phrase(N_("Drawn: the same position came up a third time"))
    else:
        moons, suns = view.scores
        if outcome.draw:
            result = phrase(N_("Drawn {moons}-{suns}"), moons=moons, suns=suns)
        elif outcome.ending == ConsequenceEnding.TIE_BREAK:
            result = phrase(N_("{moons}-{suns}, and {winner} wins with four in a line"),
                            moons=moons, suns=suns, winner=Seat(outcome.winners[0]))
        else:
            result = phrase(N_("{winner} wins the count, moons {moons} to suns {suns}"),
                            winner=Seat(outcome.winners[0]), moons=moons, suns=suns)
    return phrase(N_("Game over: {result}."), result=result)


def hand_words(view: ConsequenceView) -> Phrase:
    """The hands: their sizes (public), and the viewer's own tiles in their own view."""
    if view.viewer is None or view.hand is None:
        return phrase(N_("Tiles in hand: {first} {a}, {second} {b}."), first=Seat(0),
                      a=view.hand_sizes[0], second=Seat(1), b=view.hand_sizes[1])
    other = 1 - view.viewer
    n = view.hand_sizes[other]
    if not view.hand:
        return nphrase(N_("Your hand is empty; {opponent} holds {n} tile."),
                       N_("Your hand is empty; {opponent} holds {n} tiles."), n,
                       opponent=Seat(other))
    return nphrase(N_("Your hand: {tiles}. {opponent} holds {n} tile."),
                   N_("Your hand: {tiles}. {opponent} holds {n} tiles."), n,
                   tiles=tuple(describe_kind(k) for k in view.hand), opponent=Seat(other))


def grid_groups(view: ConsequenceView) -> tuple[Phrase, ...]:
    """The grid told compactly (the alt text): the squares of each face-down colour, of each
    symbol the view shows, then the empty squares, each list in reading order."""
    groups: dict[str, list[str]] = {}
    empty: list[str] = []
    for square in READING:
        tile = view.grid[square]
        if tile is None:
            empty.append(square_name(square))
        else:
            groups.setdefault(tile.colour + (tile.symbol or ""), []).append(square_name(square))
    lines: list[Phrase] = []
    for letter in "BR":
        hidden = groups.get(letter)
        if hidden:
            lines.append(nphrase(N_("{n} face-down {colour} tile: {squares}."),
                                 N_("{n} face-down {colour} tiles: {squares}."), len(hidden),
                                 colour=colour(letter), squares=tuple(hidden)))
        for symbol in KIND_ORDER:
            shown = groups.get(letter + symbol)
            if shown:
                template = (N_("Face-up {kind}: {squares}.") if _face_up(view) else
                            N_("Face-down {kind}: {squares}."))
                lines.append(phrase(template, kind=describe_kind(letter + symbol),
                                    squares=tuple(shown)))
    if empty:
        lines.append(nphrase(N_("{n} empty square: {squares}."),
                             N_("{n} empty squares: {squares}."), len(empty),
                             squares=tuple(empty)))
    return tuple(lines)


def rank_lines(view: ConsequenceView) -> tuple[Phrase, ...]:
    """The grid square by square, one line a rank, rank 4 first (the text board)."""
    lines = []
    for rank in range(SIZE - 1, -1, -1):
        cells = tuple(phrase(N_("{square} {tile}"), square=square_name(file + SIZE * rank),
                             tile=_cell(view, file + SIZE * rank)) for file in range(SIZE))
        lines.append(phrase(N_("Rank {rank}: {cells}."), rank=rank + 1, cells=cells))
    return tuple(lines)


def _cell(view: ConsequenceView, square: int) -> Phrase:
    tile = view.grid[square]
    if tile is not None and tile.symbol is not None:
        return _kind_words(view, tile.colour + tile.symbol)
    return tile_words(tile)


def _moved_tile(notation: str) -> Phrase:
    """The placed tile as the view's notation names it: a colour (the public form `B@b2`),
    or a kind (the mover's own, or every move once the game is over)."""
    kind = notation.partition("@")[0]
    if len(kind) == 2 and kind in KINDS:
        return describe_kind(kind)
    return phrase(N_("{colour} tile"), colour=colour(kind[:1] if kind[:1] in "BR" else "B"))


def last_words(view: ConsequenceView) -> tuple[Phrase, ...]:
    """The last action as the view knows it, and a tile it pushed off the grid (its colour
    only: the receiver's hand line names its symbol to the receiver)."""
    last = view.last
    if last is None:
        return ()
    seat, notation = Seat(last["seat"]), last["notation"]
    if last["kind"] == "move":
        lines = [phrase(N_("Last move: {player} moved the tile on {origin} to {target} "
                           "({notation})."), player=seat, origin=square_name(last["origin"]),
                        target=square_name(last["target"]), notation=notation)]
    elif last["kind"] == "push":
        lines = [phrase(N_("Last move: {player} placed a {tile} on {square} and pushed "
                           "{direction} ({notation})."), player=seat,
                        tile=_moved_tile(notation), square=square_name(last["square"]),
                        direction=compass(last["direction"]), notation=notation)]
    else:
        lines = [phrase(N_("Last move: {player} placed a {tile} on {square} ({notation})."),
                        player=seat, tile=_moved_tile(notation),
                        square=square_name(last["square"]), notation=notation)]
    if last.get("ejected") is not None:
        lines.append(phrase(N_("A {colour} tile was pushed off the grid into {receiver}'s "
                               "hand."),
                            colour=colour(last["ejected"][0]),
                            receiver=Seat(last["ejected_to"])))
    return tuple(lines)


def restriction_words(view: ConsequenceView) -> tuple[Phrase, ...]:
    """What the last action forbids the player to move now: moving back the tile just moved,
    pushing off the grid the tile just placed."""
    last = view.last
    if view.outcome is not None or view.phase != PLAY or last is None:
        return ()
    if last["kind"] == "move":
        return (phrase(N_("The tile on {square} was just moved: it cannot be moved this "
                          "turn."), square=square_name(last["target"])),)
    where = last["run"][0] if last["kind"] == "push" else last["square"]
    return (phrase(N_("The tile on {square} was just placed: it may slide but not be pushed "
                      "off the grid."), square=square_name(where)),)


def roles_words() -> Phrase:
    return phrase(N_("{moon} is the moon player (blue tiles) and scores pairs of moons; "
                     "{sun} is the sun player (red tiles) and scores pairs of suns."),
                  moon=Seat(0), sun=Seat(1))


def score_words(view: ConsequenceView) -> tuple[Phrase, ...]:
    """At the final count: each player's scoring pairs and a tie-break line."""
    if view.scores is None:
        return ()
    lines: list[Phrase] = []
    for seat in (0, 1):
        pairs = tuple(f"{square_name(a)}-{square_name(b)}"
                      for who, a, b in view.pairs if who == seat)
        if pairs:
            lines.append(nphrase(N_("{player} scores {n} pair: {pairs}."),
                                 N_("{player} scores {n} pairs: {pairs}."), len(pairs),
                                 player=Seat(seat), pairs=pairs))
        else:
            lines.append(phrase(N_("{player} scores no pair."), player=Seat(seat)))
    for seat, squares in view.lines:
        lines.append(phrase(N_("{player} has four in a line: {squares}."), player=Seat(seat),
                            squares=tuple(square_name(s) for s in squares)))
    return tuple(lines)


def describe(view: ConsequenceView) -> Description:
    status = status_words(view)
    # once the game is over, two empty hands are not worth a line
    hands = () if view.outcome is not None and not any(view.hand_sizes) else \
        (hand_words(view),)
    alt = (status, *hands, *grid_groups(view), *score_words(view), *last_words(view))
    full = (status, roles_words(), *hands, *last_words(view),
            *restriction_words(view), *rank_lines(view), *score_words(view))
    return Description(alt=alt, full=full)


def point_names(view: ConsequenceView) -> tuple[str, ...]:
    """The 16 squares in reading order (a4 b4 c4 d4 a3 ... d1)."""
    return tuple(square_name(square) for square in READING)


def describe_point(view: ConsequenceView, name: str) -> Phrase:
    key = name.strip().lower()
    if len(key) == 2 and key[0] in FILES and key[1] in "1234":
        square = FILES.index(key[0]) + SIZE * (int(key[1]) - 1)
        return phrase(N_("{square}: {tile}."), square=key, tile=_cell(view, square))
    raise InvalidMoveError(N_("There is no place {name} on this board."), name=shorten(name))
