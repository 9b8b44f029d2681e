"""What the AI knows of Consequence: a fast move generator and playouts on plain lists, final
placements made for pairs, the count so far as the evaluation, and how to deal the tiles a seat
cannot see (the resampler: the search itself never sees them).

Why information-set MCTS (games/search.py) and not alpha-beta: Consequence hides the symbols of
the tiles in the opponent's hand and of tiles that went into it. A search over the true state
would play as if it saw them; one over a single guessed deal would trust the guess. ISMCTS deals
the unseen tiles afresh for every iteration from the seat's observation alone (`resampler`),
consistently with everything that seat has seen, and grows one tree over all the deals, so a
move is judged by how it does across what the opponent may hold.

Hard searches more deals per move (HARD_BUDGET times its level's iterations) and plays half of
its playout moves as a player counting pairs would (`best_place`: the tile and square that add
the most of the seat's pairs less the opponent's); a playout sees its deal, as every
determinized playout does, and the deal comes from the seat's observation alone."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from ..search import (
    AiError,
    Decision,
    Knowledge,
    Rewards,
    Sampler,
    Tuning,
    ismcts,
    ismcts_estimate,
    outcome_rewards,
    share,
)
from . import game as rules

_PAIRS = tuple((a, b) for a in range(rules.SQUARES)
               for b in rules.neighbours(a) if a < b)
_SYMBOL = tuple(kind[1] for kind in rules.KINDS)


def evaluate(state: Any, seats: int) -> Rewards:
    """The count so far: pairs of neighbouring moons (the moon player's) and suns."""
    grid, symbol = state.grid, _SYMBOL
    moons = suns = 0
    for a, b in _PAIRS:
        x, y = grid[a], grid[b]
        if x >= 0 and y >= 0 and symbol[x] == symbol[y]:
            if symbol[x] == "M":
                moons += 1
            elif symbol[x] == "S":
                suns += 1
    return share([float(moons), float(suns)], 1.5)


_STEP8 = tuple(tuple(rules.step(sq, d) for d in rules.DIRECTIONS)
               for sq in range(rules.SQUARES))
_DIRECTION_NAMES = tuple(rules.DIRECTIONS)


def candidate(game: Any, state: Any, index: int, kinds: list[str],
              empty: list[int], occupied: list[int]) -> Any:
    """Candidate `index` of Consequence's move space (placements, then a slide of each tile
    in each of 8 directions, then a placement pushing in each of 8 directions), or None when
    the rules refuse it. Each legal move is exactly one candidate (tests check)."""
    c = rules
    places = len(kinds) * len(empty)
    if index < places:
        return c.Place(kinds[index // len(empty)], empty[index % len(empty)])
    if state.phase != c.PLAY:
        return None
    index -= places
    slides = len(occupied) * 8
    if index < slides:
        origin = occupied[index // 8]
        target = _STEP8[origin][index % 8]
        if (target is None or state.grid[target] != c.EMPTY
                or state.grid[origin] == state.just_moved):
            return None
        return c.Slide(origin, target)
    index -= slides
    kind, rest = kinds[index // (len(empty) * 8)], index % (len(empty) * 8)
    square, direction = empty[rest // 8], _DIRECTION_NAMES[rest % 8]
    if game.push_run(state, square, direction, check=False) is None:
        return None
    return c.Push(kind, square, direction)


def space(state: Any) -> tuple[list[str], list[int], list[int], int]:
    c = rules
    kinds = sorted({c.KINDS[t] for t in state.hands[state.to_move]})
    empty = [s for s in range(c.SQUARES) if state.grid[s] == c.EMPTY]
    occupied = [s for s in range(c.SQUARES) if state.grid[s] != c.EMPTY]
    size = len(kinds) * len(empty)
    if state.phase == c.PLAY:
        size += len(occupied) * 8 + len(kinds) * len(empty) * 8
    return kinds, empty, occupied, size


def random_move(game: Any, state: Any, rng: random.Random) -> Any:
    """A uniformly random legal move (None at the end): candidates drawn until one is legal
    (placements always are, and one is always possible while the game runs)."""
    if game.outcome(state) is not None:
        return None
    kinds, empty, occupied, size = space(state)
    for _ in range(500):
        move = candidate(game, state, rng.randrange(size), kinds, empty, occupied)
        if move is not None:
            return move
    moves = game.legal_moves(state)
    return moves[rng.randrange(len(moves))] if moves else None



# Consequence's playouts run on plain lists too (a rules state copies its hands, knowledge and
# history every ply); the tests play the simulation against the rules move by move. Moves
# are drawn uniformly among the legal ones, as `random_move` does; repetition is not
# tracked inside a playout (a playout is a few dozen plies).
_KIND = rules.KINDS
_SYMBOL_OF = tuple(kind[1] for kind in rules.KINDS)
_LINES = rules.LINES


def counts(grid: Any) -> tuple[int, int, int]:
    """(moon pairs, sun pairs, the tie-break: 0 or 1 for the one seat with a line, else -1)."""
    symbol = _SYMBOL_OF
    moons = suns = 0
    for a, b in _PAIRS:
        x, y = grid[a], grid[b]
        if x >= 0 and y >= 0:
            sx = symbol[x]
            if sx == symbol[y]:
                if sx == "M":
                    moons += 1
                elif sx == "S":
                    suns += 1
    if moons != suns:
        return moons, suns, -1
    lined = set()
    for line in _LINES:
        first = grid[line[0]]
        if first >= 0 and symbol[first] != "D" and all(
                grid[sq] >= 0 and symbol[grid[sq]] == symbol[first] for sq in line):
            lined.add(0 if symbol[first] == "M" else 1)
    return moons, suns, lined.pop() if len(lined) == 1 else -1


def result(grid: Any) -> Rewards:
    """The final count's rewards: the winner's 1 (shared on a draw), as the rules decide."""
    moons, suns, line = counts(grid)
    if moons != suns:
        return [1.0, 0.0] if moons > suns else [0.0, 1.0]
    if line >= 0:
        return [1.0, 0.0] if line == 0 else [0.0, 1.0]
    return [0.5, 0.5]


def sim_move(grid: list[int], hands: list[list[int]], seat: int, phase: str,
             just_moved: int, just_placed: int,
             rng: random.Random) -> tuple[Any, ...] | None:
    """A uniformly random legal action for `seat`: ("place", tile, square), ("slide", origin,
    target) or ("push", tile, square, direction index); None if there is none."""
    c = rules
    tiles: dict[str, int] = {}
    for tile in hands[seat]:
        tiles.setdefault(_KIND[tile], tile)
    kinds = list(tiles.values())
    empty = [sq for sq in range(c.SQUARES) if grid[sq] < 0]
    places = len(kinds) * len(empty)
    if phase != c.PLAY:
        if not places:
            return None
        i = rng.randrange(places)
        return ("place", kinds[i // len(empty)], empty[i % len(empty)])
    occupied = [sq for sq in range(c.SQUARES) if grid[sq] >= 0]
    slides = len(occupied) * 8
    size = places + slides + places * 8
    for _ in range(500):
        i = rng.randrange(size)
        if i < places:
            return ("place", kinds[i // len(empty)], empty[i % len(empty)])
        i -= places
        if i < slides:
            origin = occupied[i // 8]
            target = _STEP8[origin][i % 8]
            if target is not None and grid[target] < 0 and grid[origin] != just_moved:
                return ("slide", origin, target)
            continue
        i -= slides
        tile, rest = kinds[i // (len(empty) * 8)], i % (len(empty) * 8)
        square, d = empty[rest // 8], rest % 8
        here = _STEP8[square][d]
        if here is None or grid[here] < 0:
            continue
        while here is not None and grid[here] >= 0:
            last, here = here, _STEP8[here][d]
        if here is None and grid[last] == just_placed:
            continue  # the opponent's tile just placed may not be pushed off
        return ("push", tile, square, d)
    return ("place", kinds[0], empty[0]) if places else None


def sim_apply(grid: list[int], hands: list[list[int]], seat: int,
              action: tuple[Any, ...]) -> tuple[int, int]:
    """Plays `action` for `seat` in place: (the tile just moved, the tile just placed), -1
    for none."""
    if action[0] == "slide":
        _, origin, target = action
        tile = grid[target] = grid[origin]
        grid[origin] = -1
        return tile, -1
    tile, square = action[1], action[2]
    hands[seat].remove(tile)
    if action[0] == "place":
        grid[square] = tile
        return -1, tile
    d = action[3]
    run = []
    here = _STEP8[square][d]
    while here is not None and grid[here] >= 0:
        run.append(here)
        here = _STEP8[here][d]
    if here is None:  # the last tile falls off, into the opponent's hand
        hands[1 - seat].append(grid[run[-1]])
        grid[run[-1]] = -1
        run.pop()
    for sq in reversed(run):
        grid[_STEP8[sq][d]] = grid[sq]
    grid[_STEP8[square][d]] = tile
    return -1, tile


_NEIGHBOURS = tuple(tuple(sq for sq in row if sq is not None) for row in _STEP8)


def place_last(grid: list[int], hand: list[int], seat: int,
               rng: random.Random) -> None:
    """The final placements as a player who counts pairs makes them, not at random: each
    tile of the hand in turn (the seat's own symbol first) on the empty square where it makes
    the most of the seat's pairs, or the fewest of the opponent's (ties at random). The
    seat that places last can no longer be stopped, so random placements undervalued it."""
    symbol, mine = _SYMBOL_OF, "MS"[seat]
    for tile in sorted(hand, key=lambda t: (symbol[t] != mine, rng.random())):
        kind = symbol[tile]
        best: list[int] = []
        best_value = -99
        for square in range(16):
            if grid[square] >= 0:
                continue
            value = 0
            if kind != "D":
                value = sum(1 for n in _NEIGHBOURS[square]
                            if grid[n] >= 0 and symbol[grid[n]] == kind)
                if kind != mine:
                    value = -value
            if value > best_value:
                best, best_value = [square], value
            elif value == best_value:
                best.append(square)
        grid[best[rng.randrange(len(best))]] = tile
    hand.clear()


def playout(game: Any, state: Any, rng: random.Random, depth: int,
            seats: int) -> Rewards:
    """Uniformly random play to the final placements, which count pairs (see
    `place_last`), then the final count (or `depth` plies and the count so
    far)."""
    return _play_out(game, state, rng, depth, seats, 0.0)


def best_place(grid: list[int], hand: list[int], seat: int,
               rng: random.Random) -> tuple[Any, ...] | None:
    """The placement a player who counts pairs makes: the tile and empty square that add
    the most of the seat's pairs less the opponent's (ties at random), or None when no
    placement adds any."""
    symbol, mine = _SYMBOL_OF, "MS"[seat]
    best: list[tuple[int, int]] = []
    best_value = 0
    kinds: dict[str, int] = {}
    for tile in hand:
        kinds.setdefault(symbol[tile], tile)
    for kind, tile in kinds.items():
        if kind == "D":
            continue
        sign = 1 if kind == mine else -1
        for square in range(16):
            if grid[square] >= 0:
                continue
            value = sign * sum(1 for n in _NEIGHBOURS[square]
                               if grid[n] >= 0 and symbol[grid[n]] == kind)
            if value > best_value:
                best, best_value = [(tile, square)], value
            elif value == best_value and value > 0:
                best.append((tile, square))
    if not best:
        return None
    tile, square = best[rng.randrange(len(best))]
    return ("place", tile, square)


GREEDY = 0.5  # how often a hard playout's move is `best_place` when it finds one


def greedy_playout(game: Any, state: Any, rng: random.Random, depth: int,
                   seats: int) -> Rewards:
    """`playout`, but half the moves are the placement that adds the most pairs (when one
    adds any), as a player counting pairs makes them."""
    return _play_out(game, state, rng, depth, seats, GREEDY)


def _play_out(game: Any, state: Any, rng: random.Random, depth: int, seats: int,
              greedy: float) -> Rewards:
    """A playout whose moves are `best_place`'s with probability `greedy`, else random (no
    draw of the random source for that when `greedy` is 0: random playouts stay as seeded)."""
    c = rules
    if game.outcome(state) is not None:
        return outcome_rewards(game, state, seats)
    grid = list(state.grid)
    hands = [list(state.hands[0]), list(state.hands[1])]
    seat, phase = state.to_move, state.phase
    just_moved = -1 if state.just_moved is None else state.just_moved
    just_placed = -1 if state.just_placed is None else state.just_placed
    for _ in range(depth):
        if phase == c.FINAL:
            place_last(grid, hands[seat], seat, rng)
            return result(grid)
        action = None
        if greedy and rng.random() < greedy:
            action = best_place(grid, hands[seat], seat, rng)
        if action is None:
            action = sim_move(grid, hands, seat, phase, just_moved, just_placed, rng)
        if action is None:
            break
        just_moved, just_placed = sim_apply(grid, hands, seat, action)
        if phase == c.OPENING:
            phase, seat = c.PLAY, 1 - seat
        elif phase == c.PLAY:
            if not hands[seat]:
                phase = c.FINAL
            seat = 1 - seat
    if phase == c.FINAL and not hands[seat]:
        return result(grid)
    moons, suns, _ = counts(grid)
    return share([float(moons), float(suns)], 1.5)


# -- what a seat may know ---------------------------------------------------------------------
def _dealer(view: rules.ConsequenceView) -> tuple[
        dict[str, list[int]], dict[str, list[int]],
        Callable[[dict[str, list[int]]], rules.ConsequenceState]]:
    """Deals Consequence's hidden tiles from `view` (one seat's observation) alone: the tiles
    it cannot identify (symbols on the grid it never saw, the opponent's hand) are shuffled
    among the places of the right colour. Colours are public; the opponent's hand holds what
    of each colour is neither on the grid nor in the seat's own hand."""
    c = rules
    seat = view.viewer
    if seat is None or view.hand is None:
        raise AiError("a determinization needs a seat's own view")
    other = 1 - seat
    by_kind: dict[str, list[int]] = {}
    for tile, kind in enumerate(c.KINDS):
        by_kind.setdefault(kind, []).append(tile)
    free = {kind: list(ids) for kind, ids in by_kind.items()}

    def take(kind: str) -> int:
        return free[kind].pop(0)

    own = frozenset(take(kind) for kind in view.hand)
    grid: list[int | None] = [c.EMPTY] * c.SQUARES
    unknown_squares: dict[str, list[int]] = {"B": [], "R": []}
    seen: set[int] = set(own)
    for square, seen_tile in enumerate(view.grid):
        if seen_tile is None:
            continue
        if seen_tile.symbol is not None:
            tile = take(seen_tile.colour + seen_tile.symbol)
            grid[square] = tile
            seen.add(tile)
        else:
            grid[square] = None
            unknown_squares[seen_tile.colour].append(square)
    pool = {colour: [t for kind, ids in free.items() if kind[0] == colour for t in ids]
            for colour in "BR"}
    opp_count = {colour: len(pool[colour]) - len(unknown_squares[colour]) for colour in "BR"}
    if (any(n < 0 for n in opp_count.values())
            or sum(opp_count.values()) != view.hand_sizes[other]):
        raise AiError("the observation is not consistent")
    last = view.last
    phase, to_move = view.phase, view.to_move
    if to_move is None:
        raise AiError("the game is over")

    def deal(order: dict[str, list[int]]) -> rules.ConsequenceState:
        """The state where each colour's unseen tiles go, last first, to the unknown squares
        of that colour and the rest to the opponent's hand."""
        cells = list(grid)
        theirs: list[int] = []
        for colour in "BR":
            tiles = list(order[colour])
            for square in unknown_squares[colour]:
                cells[square] = tiles.pop()
            theirs.extend(tiles)
        just_moved = just_placed = None
        if last is not None:
            if last["kind"] == "move":
                just_moved = cells[last["target"]]
            else:
                where = last["run"][0] if last["kind"] == "push" else last["square"]
                just_placed = cells[where]
        board = tuple(t if t is not None else c.EMPTY for t in cells)
        on_grid = frozenset(t for t in board if t != c.EMPTY)
        hands: list[frozenset[int]] = [frozenset(), frozenset()]
        hands[seat], hands[other] = own, frozenset(theirs)
        known: list[frozenset[int]] = [frozenset(), frozenset()]
        known[seat] = frozenset(seen) | own
        known[other] = on_grid | hands[other]
        state = c.ConsequenceState(
            grid=board, hands=(hands[0], hands[1]), known=(known[0], known[1]),
            to_move=to_move, phase=phase, just_moved=just_moved, just_placed=just_placed,
            repetition=False, ply=view.ply)
        return state

    return pool, unknown_squares, deal


def resampler(view: rules.ConsequenceView) -> Sampler:
    """Deals Consequence's hidden tiles from `view` (one seat's observation) alone: the tiles
    it cannot identify (symbols on the grid it never saw, the opponent's hand) are shuffled
    among the places of the right colour (`_dealer`)."""
    pool, _, deal = _dealer(view)

    def sample(rng: random.Random) -> rules.ConsequenceState:
        order = {}
        for colour in "BR":
            tiles = list(pool[colour])
            rng.shuffle(tiles)
            order[colour] = tiles
        return deal(order)

    return sample


MAX_WORLDS = 300  # an exhaustive puzzle check over more deals than this is skipped


def worlds(view: rules.ConsequenceView) -> list[rules.ConsequenceState] | None:
    """Every deal of the tiles `view`'s seat cannot identify (as `resampler` draws them),
    tiles of one kind being alike: each different assignment of symbols to the unknown
    squares (and so to the opponent's hand) once; None beyond MAX_WORLDS."""
    pool, unknown, deal = _dealer(view)
    per_colour: dict[str, list[list[int]]] = {}
    total = 1
    for colour in "BR":
        by_kind: dict[str, list[int]] = {}
        for tile in pool[colour]:
            by_kind.setdefault(rules.KINDS[tile], []).append(tile)
        orders = [list(o) for o in _arrangements(by_kind, len(unknown[colour]))]
        per_colour[colour] = orders
        total *= len(orders)
        if total > MAX_WORLDS:
            return None
    return [deal({"B": b, "R": r}) for b in per_colour["B"] for r in per_colour["R"]]


def _arrangements(by_kind: dict[str, list[int]], slots: int) -> list[tuple[int, ...]]:
    """Tile orders (the hand's tiles first, then the squares' from last to first, as `deal`
    pops them) that differ in the kinds put on the `slots` squares."""
    found: list[tuple[int, ...]] = []

    def place(left: dict[str, list[int]], chosen: tuple[int, ...]) -> None:
        if len(chosen) == slots:
            rest = tuple(t for tiles in left.values() for t in tiles)
            found.append(rest + tuple(reversed(chosen)))
            return
        for kind in sorted(left):
            if left[kind]:
                place({**left, kind: left[kind][1:]}, chosen + (left[kind][0],))

    place(by_kind, ())
    return found



# the levels' own budgets: twice the iterations gained nothing measurable (as the second seat
# against random play, 94% with 1,600 against 94.5% with 800, 100 games each; 800 iterations
# won 97.5/100 and 90.5/100 in two later runs of other games). Nor did a reward shaped by the
# margin (92/100 against 97.5/100 on the same games) or playouts taking the best of three
# random actions half the time (69.5/72, the same as plain random ones). Final placements that
# count pairs did: 156.5/160 against 150.5/160 for random ones (the same 160 games, 800
# iterations without the time cap, 80 in each seat).
TUNING = Tuning(400, random_move=random_move, playout=playout)
# hard searches HARD_BUDGET times the level's iterations: a Consequence iteration is cheap
# (hard's median think time stays well under its cap) and more deals per move sharpen its
# estimates of what the opponent may hold
HARD_BUDGET = 3.0


def _levelled(decision: Decision) -> Decision:
    if decision.level != "hard":
        return decision
    return dataclasses.replace(decision, iterations=round(decision.iterations * HARD_BUDGET))


HARD = Tuning(400, random_move=random_move, playout=greedy_playout)


def search(decision: Decision) -> Any:
    return ismcts(_levelled(decision), HARD if decision.level == "hard" else TUNING)


def estimate(decision: Decision) -> tuple[Any, Rewards]:
    return ismcts_estimate(_levelled(decision), HARD if decision.level == "hard" else TUNING)


# The search's own noise in a post-game analysis, per level (a smaller loss of chance is no
# mistake): `python bench/analysis_noise.py --positions 10 --seeds 3`, 2 shared cores,
# load 2 to 5 (the larger 95th percentile of two seeds' spread and of the drop after the
# move the search prefers). Hard again on a quiet machine (load 0.0 to 1.0), 20 positions:
# `python bench/analysis_noise.py --levels hard --positions 20 --seeds 3 --games ico,consequence`
# (under load the 2 s cap stops the deepening at different depths: the figure doubles or more).
KNOWLEDGE = Knowledge(TUNING, resampler=resampler, search=search, estimate=estimate,
                      worlds=worlds, noise={"easy": 0.34, "normal": 0.3, "hard": 0.29})
