"""ICO in words, from an `IcoView` only: the picture's alt text and the text board.

A reader who cannot see the map needs what the map shows: whose turn, the active triangle with
its three edges (what is on each, where the triangle rolls over it), how far each colour is from
the level's pattern, and every marker. Faces are named as the map numbers them and as the
notation does ("face 6 (f5)": the map's numbers are shared by antipodal faces, the f-index is
not); edges as the moves write them (e12).
"""

from __future__ import annotations

from ..base import N_, Description, InvalidMoveError, Phrase, Seat, nphrase, phrase, shorten
from .game import (
    ACROSS,
    ANTIPODE,
    BELTS,
    BIG_TRIANGLES,
    EDGES,
    FACE_EDGES,
    FACE_NUMBERS,
    FACES,
    IcoView,
)

COLOUR_WORDS = (N_("Red"), N_("Blue"), N_("Yellow"), N_("Green"))  # the map's seat labels
# each level's winning pattern, as "completed ..." in the results names it
PATTERN_WORDS = {"1": N_("a face"), "1+": N_("a face and its opposite face"),
                 "2": N_("a belt"), "2+": N_("a big triangle"),
                 "2+antipodal": N_("a big triangle and its opposite")}


def colour(seat: int) -> Phrase:
    return phrase(COLOUR_WORDS[seat])


def face_words(face: int) -> Phrase:
    """A face by the map's number and the notation's index: "face 6 (f5)"."""
    return phrase(N_("face {number} ({name})"), number=FACE_NUMBERS[face], name=f"f{face}")


def markers_words(view: IcoView, edge: int) -> Phrase | tuple[Phrase, ...]:
    """The markers on one edge: "Red, 2 Blue" (a list, written as the reader's language
    writes lists), or "no marker"."""
    found = tuple(colour(seat) if n == 1 else phrase(N_("{n} {colour}"), colour=colour(seat), n=n)
                  for seat, n in enumerate(view.markers[edge]) if n)
    return found if found else phrase(N_("no marker"))


def _pattern_key(view: IcoView) -> str:
    return "2+antipodal" if view.level == "2+" and view.antipodal else view.level


def patterns(view: IcoView) -> tuple[tuple[int, ...], ...]:
    """The edge sets that win at the view's level."""
    if view.level == "1":
        return FACE_EDGES
    if view.level == "1+":
        return tuple(FACE_EDGES[f] + FACE_EDGES[ANTIPODE[f]]
                     for f in range(len(FACES)) if f < ANTIPODE[f])
    if view.level == "2":
        return tuple(BELTS.values())
    if view.antipodal:
        return tuple(BIG_TRIANGLES[f] + BIG_TRIANGLES[ANTIPODE[f]]
                     for f in range(len(FACES)) if f < ANTIPODE[f])
    return BIG_TRIANGLES


def missing(view: IcoView, seat: int) -> tuple[int, list[tuple[int, ...]]]:
    """How many edges `seat` still needs for the nearest pattern, and the missing edges of
    every pattern that near."""
    held = {e for e, counts in enumerate(view.markers) if counts[seat]}
    gaps = [tuple(sorted(set(edges) - held)) for edges in patterns(view)]
    fewest = min(len(gap) for gap in gaps)
    return fewest, [gap for gap in gaps if len(gap) == fewest]


def need_words(view: IcoView, seat: int, compact: bool) -> Phrase:
    """What a colour still needs, with the edges: every edge that completes a pattern when
    one is enough, else the edges of one nearest pattern. `compact` (the alt text) leaves
    out the pattern's name (the text board's goal line says it) and, beyond 3 edges, the
    edges."""
    fewest, gaps = missing(view, seat)
    if compact:
        if fewest == 1:
            edges = _completing(gaps)
            if len(edges) == 1:
                return phrase(N_("1 more edge: {edges}"), edges=edges)
            return phrase(N_("1 more edge, any of {edges}"), edges=edges)
        if fewest > 3:
            return phrase(N_("{n} more edges"), n=fewest)
        return phrase(N_("{n} more edges, such as {edges}"), n=fewest,
                      edges=tuple(f"e{e}" for e in gaps[0]))
    pattern = phrase(PATTERN_WORDS[_pattern_key(view)])
    if fewest == 1:
        edges = _completing(gaps)
        if len(edges) == 1:
            return phrase(N_("1 more edge for {pattern}: {edges}"), pattern=pattern,
                          edges=edges)
        return phrase(N_("1 more edge for {pattern}, any of {edges}"), pattern=pattern,
                      edges=edges)
    return phrase(N_("{n} more edges for {pattern}, such as {edges}"), n=fewest,
                  pattern=pattern, edges=tuple(f"e{e}" for e in gaps[0]))


def _completing(gaps: list[tuple[int, ...]]) -> tuple[str, ...]:
    """The edges that each complete a pattern (gaps of one edge)."""
    return tuple(f"e{e}" for e in sorted({gap[0] for gap in gaps}))


def holdings(view: IcoView, seat: int, compact: bool) -> Phrase:
    """The edges holding a colour ("e0, e5 (2 markers)"); `compact` (the alt text): the shorter of
    the edges held and those lacking, without redoubling counts."""
    held = [e for e, counts in enumerate(view.markers) if counts[seat]]
    if not held:
        return phrase(N_("no marker placed yet"))
    if compact:
        if len(held) > len(EDGES) // 2:
            lacking = tuple(f"e{e}" for e in range(len(EDGES)) if e not in held)
            if not lacking:
                return phrase(N_("has every edge"))
            return phrase(N_("has every edge but {edges}"), edges=lacking)
        return phrase(N_("has {edges}"), edges=tuple(f"e{e}" for e in held))
    return phrase(N_("markers on {edges}"), edges=tuple(
        f"e{e}" if view.markers[e][seat] == 1 else
        phrase(N_("{edge} ({n} markers)"), edge=f"e{e}", n=view.markers[e][seat])
        for e in held))


def seat_words(view: IcoView, seat: int, compact: bool) -> Phrase:
    """One colour: its player, markers left, what it still needs (while the game runs) and
    the edges it holds."""
    fields = {"player": Seat(seat), "colour": colour(seat),
              "holdings": holdings(view, seat, compact)}
    left = view.left[seat]
    if compact:
        if view.outcome is None:
            return phrase(N_("{player} ({colour}, {n} left) needs {need}; {holdings}."),
                          n=left, need=need_words(view, seat, True), **fields)
        return phrase(N_("{player} ({colour}, {n} left): {holdings}."), n=left, **fields)
    if view.outcome is None:
        return nphrase(N_("{player} ({colour}, {n} marker left) needs {need}; {holdings}."),
                       N_("{player} ({colour}, {n} markers left) needs {need}; {holdings}."),
                       left, need=need_words(view, seat, False), **fields)
    return nphrase(N_("{player} ({colour}, {n} marker left): {holdings}."),
                   N_("{player} ({colour}, {n} markers left): {holdings}."), left, **fields)


def status_words(view: IcoView) -> tuple[Phrase, ...]:
    """Whose turn, or how the game ended."""
    outcome = view.outcome
    if outcome is None:
        mover = view.to_move if view.to_move is not None else 0
        return (phrase(N_("{player} ({colour}) to move."), player=Seat(mover),
                       colour=colour(mover)),)
    if outcome.draw:
        return (phrase(N_("Game over: {result}."),
                       result=phrase(N_("Drawn: {n} turns in a row without a marker placed"),
                                     n=2 * view.seats)),)
    winner = Seat(outcome.winners[0])
    key = _pattern_key(view)
    ended = {"1": N_("{winner} completed a face"),
             "1+": N_("{winner} completed a face and its opposite face"),
             "2": N_("{winner} completed a belt"),
             "2+": N_("{winner} completed a big triangle"),
             "2+antipodal": N_("{winner} completed a big triangle and its opposite")}[key]
    lines = [phrase(N_("Game over: {result}."), result=phrase(ended, winner=winner))]
    if view.winning_edges:
        lines.append(phrase(N_("Winning edges: {edges}."),
                            edges=tuple(f"e{e}" for e in sorted(view.winning_edges))))
    return tuple(lines)


def edge_to_words(view: IcoView, face: int, edge: int, compact: bool = False) -> Phrase:
    """An edge of a face, what is on it and the face across it; `compact` (the alt text)
    names that face by its number alone, as the map does."""
    across = ACROSS[(face, edge)]
    return phrase(N_("{edge} ({markers}) to {face}"), edge=f"e{edge}",
                  markers=markers_words(view, edge),
                  face=phrase(N_("face {number}"), number=FACE_NUMBERS[across]) if compact
                  else face_words(across))


def active_words(view: IcoView, compact: bool) -> Phrase:
    """The active triangle and its edges; `compact` (the alt text) says the level too (the
    picture's header does), the text board has a line of its own for it."""
    edges = tuple(edge_to_words(view, view.active, e, compact)
                  for e in FACE_EDGES[view.active])
    if compact:
        return phrase(N_("Level {level}; active triangle {face}: {edges}."), level=view.level,
                      face=face_words(view.active), edges=edges)
    return phrase(N_("Active triangle: {face}; its edges: {edges}."),
                  face=face_words(view.active), edges=edges)


def choice_words(view: IcoView) -> Phrase | None:
    """What the player to move may do (the balance rules' edges)."""
    if view.to_move is None or not view.legal_edges:
        return None
    mover = Seat(view.to_move)
    edges = tuple(f"e{e}" for e in view.legal_edges)
    if not _places(view):
        return phrase(N_("{player} cannot place a marker and rolls over one of {edges}."),
                      player=mover, edges=tuple(f"-{e}" for e in edges))
    return phrase(N_("{player} may place on {edges}."), player=mover, edges=edges)


def turn_words(view: IcoView) -> Phrase | None:
    """Whose turn and the edges they may take, in one sentence (the alt text)."""
    if view.to_move is None or not view.legal_edges:
        return None
    fields = {"player": Seat(view.to_move), "colour": colour(view.to_move)}
    edges = tuple(f"e{e}" for e in view.legal_edges)
    if not _places(view):
        return phrase(N_("{player} ({colour}) to move: cannot place a marker, rolls over one "
                         "of {edges}."), edges=tuple(f"-{e}" for e in edges), **fields)
    return phrase(N_("{player} ({colour}) to move: may place on {edges}."), edges=edges,
                  **fields)


def _places(view: IcoView) -> bool:
    """Whether the mover places (else rolls only): no marker left, or every edge of the
    active face holds their colour in level 1+ (the game's own rule, read from the view)."""
    seat = view.to_move
    if seat is None or view.left[seat] == 0:
        return False
    holds = all(view.markers[e][seat] for e in FACE_EDGES[view.active])
    return not (holds and view.level in ("1", "1+"))


def last_words(view: IcoView, compact: bool) -> Phrase | None:
    """The last move; `compact`: as the picture writes it under the map ("Last: Bob e21")."""
    if view.last is None or view.previous_active is None:
        return None
    seat, edge, placed = view.last
    if compact:
        return phrase(N_("Last: {name} {move}"), name=Seat(seat),
                      move=f"e{edge}" if placed else f"-e{edge}")
    origin = view.previous_active
    template = (N_("Last move: {player} placed a marker on {edge}; the active triangle rolled "
                   "from {origin} onto {face}.") if placed else
                N_("Last move: {player} rolled over {edge} without placing; the active "
                   "triangle rolled from {origin} onto {face}."))
    return phrase(template, player=Seat(seat), edge=f"e{edge}", origin=face_words(origin),
                  face=face_words(ACROSS.get((origin, edge), view.active)))


def face_line(view: IcoView, face: int) -> Phrase:
    edges = tuple(phrase(N_("{edge} ({markers})"), edge=f"e{e}", markers=markers_words(view, e))
                  for e in FACE_EDGES[face])
    if face == view.active and view.outcome is None:
        return phrase(N_("Face {number} ({name}), the active triangle: {edges}."),
                      number=FACE_NUMBERS[face], name=f"f{face}", edges=edges)
    return phrase(N_("Face {number} ({name}): {edges}."), number=FACE_NUMBERS[face],
                  name=f"f{face}", edges=edges)


def goal_words(view: IcoView) -> Phrase:
    return phrase(N_("Level {level}: the first to hold every edge of {pattern} wins."),
                  level=view.level, pattern=phrase(PATTERN_WORDS[_pattern_key(view)]))


def describe(view: IcoView) -> Description:
    seats = range(view.seats)
    status = status_words(view)
    running = view.outcome is None
    turn = turn_words(view) if running else None
    choice = choice_words(view) if running else None
    alt = (*(status if turn is None else (turn,)),
           *((active_words(view, True),) if running else ()),
           *(seat_words(view, s, True) for s in seats),
           *filter(None, (last_words(view, True),)))
    full = (*status, goal_words(view),
            *((active_words(view, False),) if running else ()),
            *filter(None, (choice, last_words(view, False))),
            *(seat_words(view, s, False) for s in seats),
            *(face_line(view, f) for f in range(len(FACES))))
    return Description(alt=alt, full=full)


def point_names(view: IcoView) -> tuple[str, ...]:
    """Faces f0-f19 (north to south, as the notation of the start option numbers them),
    then edges e0-e29 (as moves name them)."""
    return tuple(f"f{f}" for f in range(len(FACES))) + tuple(f"e{e}" for e in range(len(EDGES)))


def describe_point(view: IcoView, name: str) -> Phrase:
    key = name.strip().lower()
    if key in point_names(view):
        number = int(key[1:])
        if key[0] == "f":
            edges = tuple(edge_to_words(view, number, e) for e in FACE_EDGES[number])
            template = (N_("Face {number} ({name}), the active triangle: {edges}; opposite "
                           "face: {opposite}.")
                        if number == view.active and view.outcome is None else
                        N_("Face {number} ({name}): {edges}; opposite face: {opposite}."))
            return phrase(template, number=FACE_NUMBERS[number], name=key, edges=edges,
                          opposite=face_words(ANTIPODE[number]))
        first, second = (f for f in range(len(FACES)) if number in FACE_EDGES[f])
        return phrase(N_("{edge}: {markers}; between {first} and {second}."), edge=key,
                      markers=markers_words(view, number), first=face_words(first),
                      second=face_words(second))
    raise InvalidMoveError(N_("There is no place {name} on this board."), name=shorten(name))
