"""What the AI knows of Pastoral Square: a fast move generator, playouts on plain lists that
take a bingo and stop the opponent's, a fitted evaluation of a cut playout, and the move that
wins at once (`decisive`), for the generic Monte Carlo search (`TUNING`); an alpha-beta engine
on the same lists for normal and hard (why: see "alpha-beta" below); and for easy, one ply over
the evaluation cut down to the mover's own chances, with noise (why: see "easy" below). Since
issue 30 no level searches with the Monte Carlo tuning (easy did): it stays, with its tests,
as the kit's `Knowledge.tuning`."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from ..search import (
    Decision,
    Engine,
    Knowledge,
    Rewards,
    Tuning,
    alphabeta,
    alphabeta_estimate,
    noisy_one_ply,
    outcome_rewards,
)
from . import game as rules

_MOVES = tuple(tuple(rules.PastoralMove(cell, n)
                     for n in range(rules.MAX_STACK + 1)) for cell in range(64))


def legal(game: Any, state: Any) -> list:
    """Pastoral Square's `legal_moves` (in the same order), from the simulation's move
    generator rather than a refusal built for each of the 320 candidate moves."""
    if game.outcome(state) is not None:
        return []
    seat = state.to_move
    found = sim_moves(state.owner, state.count, state.held[seat], state.blocked, seat)
    found.sort()
    return [rules.SAVE] + [_MOVES[cell][n] for cell, n in found]


# Pastoral Square's playouts run on plain lists (the rules' states build a repetition key and a
# new dataclass every ply, which costs more than the rest of a playout); the tests play the
# simulation against the rules move by move. Repetition is not tracked inside a playout.
_EMPTY = rules.EMPTY
_VALUE = tuple(rules.VALUE.get(cell, 0) for cell in range(64))
_CORRAL = tuple(cell in rules.CORRAL for cell in range(64))
_CORRAL_CELLS = tuple(sorted(rules.CORRAL))
# per cattle cell X: (A, Y) of every mutilation square X is B or C of
_PARTNERS = tuple(tuple((a, y) for a, y, _ in rules.PARTNERS.get(cell, ()))
                  for cell in range(64))
# per corral cell A: (X, Y) for each mutilation square at A, both ways round
_SQUARES_AT = tuple(tuple(pair for sq in rules.SQUARES if sq.a == cell
                          for pair in ((sq.b, sq.c), (sq.c, sq.b))) for cell in range(64))
_LINES = rules.LINES
_LINES_THROUGH = tuple(tuple(line for line in _LINES if cell in line) for cell in range(64))


def win(owner: Any, count: Any, held: int, blocked: Any, seat: int) -> Any:
    """A bingo `seat` can make at once with `held` stones, as (cell, stones), or None."""
    empty, value = _EMPTY, _VALUE
    for a, b, c in _LINES:
        oa, ob, oc = owner[a], owner[b], owner[c]
        mine = (oa == seat) + (ob == seat) + (oc == seat)
        if mine == 3:
            na, nb, nc = count[a], count[b], count[c]
            if na == nb and nc < na and na - nc <= held:
                return c, na - nc
            if na == nc and nb < na and na - nb <= held:
                return b, na - nb
            if nb == nc and na < nb and nb - na <= held:
                return a, nb - na
        elif mine == 2:
            if oa == empty:
                cell, k, other = a, count[b], count[c]
            elif ob == empty:
                cell, k, other = b, count[a], count[c]
            elif oc == empty:
                cell, k, other = c, count[a], count[b]
            else:
                continue
            if k == other and value[cell] == k and k <= held and cell not in blocked:
                return cell, k
    return None


def decisive(game: Any, state: Any) -> Any:
    seat = state.to_move
    found = win(state.owner, state.count, state.held[seat], state.blocked, seat)
    return None if found is None else _MOVES[found[0]][found[1]]


def sim_moves(owner: list[int], count: list[int], held: int, blocked: Any,
              seat: int) -> list[tuple[int, int]]:
    """Every legal action but `save`, as (cell, stones)."""
    empty, opponent, value = _EMPTY, 1 - seat, _VALUE
    moves = []
    for cell in _CORRAL_CELLS:
        who = owner[cell]
        if who == empty:
            if value[cell] <= held and cell not in blocked:
                moves.append((cell, value[cell]))
        elif who == seat:
            for n in range(1, min(held, 5 - count[cell]) + 1):
                moves.append((cell, n))
    # a cattle action on X is legal when, for some square A-X-Y with A the opponent's and Y
    # empty or the mover's, the x stones left on X divide A's (a reach) or x * stones(Y)
    # equals them (a mutilation, Y the mover's)
    targets: dict[int, list[tuple[int, int]]] = {}
    for a in _CORRAL_CELLS:
        if owner[a] == opponent:
            stones_a = count[a]
            for cell, y in _SQUARES_AT[a]:
                who_y = owner[y]
                if owner[cell] != opponent and who_y != opponent:
                    targets.setdefault(cell, []).append(
                        (stones_a, count[y] if who_y == seat else 0))
    for cell, aims in targets.items():
        base = count[cell]
        for n in range(1, min(held, 5 - base) + 1):
            x = base + n
            for stones_a, stones_y in aims:
                if stones_a % x == 0 or stones_a == x * stones_y:
                    moves.append((cell, n))
                    break
    return moves


def sim_apply(owner: list[int], count: list[int], held: list[int],
              stock: list[int], seat: int, cell: int, n: int) -> tuple[Any, bool]:
    """Plays (cell, n) for `seat` in place: (the cells the opponent may not place on next,
    whether it is a bingo)."""
    opponent = 1 - seat
    fired = []
    if not _CORRAL[cell]:
        x = count[cell] + n
        for a, y in _PARTNERS[cell]:
            if owner[a] == opponent and owner[y] == seat and count[a] == x * count[y]:
                fired.append((a, y))
    owner[cell] = seat
    count[cell] += n
    held[seat] -= n
    if fired:
        cells = {cell}
        for a, y in fired:
            cells.add(a)
            cells.add(y)
        total = 0
        for c in cells:
            total += count[c]
            owner[c], count[c] = _EMPTY, 0
        odd = total % 2
        stock[0] += (total - odd) // 2
        stock[1] += (total - odd) // 2
        held[seat] += odd
        return frozenset(a for a, _ in fired), False
    if _CORRAL[cell]:
        for a, b, c in _LINES_THROUGH[cell]:
            if owner[a] == owner[b] == owner[c] == seat and count[a] == count[b] == count[c]:
                return (), True
    return (), False


# The evaluation of a cut playout: a logistic model of the mover's chance to win, fitted on
# positions of 300 games of the AI against itself (fit_eval.py). A line
# is alive for a player while the opponent owns none of its cells; it is counted by the actions
# it still needs (a claim, and a stack where the cell's count is short of the line's target).
# Stones kept back weigh against a player: the old evaluation (stones left and corral cells)
# pointed the other way, and more search only followed it further (hard lost to normal).
WEIGHTS_MOVER = (0.0, 2.0, 0.57, 0.06, -0.28, -0.28, -0.28)  # lines by actions needed
WEIGHTS_OTHER = (0.0, -1.2, -0.49, -0.07, 0.27, 0.27, 0.27)
WEIGHT_CELLS, WEIGHT_STONES, WEIGHT_HELD, BIAS = 0.11, -0.26, 0.39, -0.23


def line_needs(owner: Any, count: Any, seat: int) -> list[int]:
    """How many of `seat`'s live lines need 1, 2, ... 6 more actions (index 0: a bingo)."""
    opponent, value = 1 - seat, _VALUE
    needs = [0] * 7
    for line in _LINES:
        target = 0
        for cell in line:
            who = owner[cell]
            if who == opponent:
                break
            n = count[cell] if who == seat else value[cell]
            if n > target:
                target = n
        else:
            actions = 0
            for cell in line:
                if owner[cell] == seat:
                    actions += count[cell] < target
                else:
                    actions += 1 + (value[cell] < target)
            needs[actions] += 1
    return needs


def value(owner: Any, count: Any, held: Any, stock: Any, seat: int) -> Rewards:
    """The evaluation's rewards when `seat` is to move."""
    other = 1 - seat
    mine = line_needs(owner, count, seat)
    theirs = line_needs(owner, count, other)
    z = BIAS
    for i in range(1, 7):
        z += WEIGHTS_MOVER[i] * mine[i] + WEIGHTS_OTHER[i] * theirs[i]
    cells = 0
    for cell in _CORRAL_CELLS:
        who = owner[cell]
        cells += (who == seat) - (who == other)
    z += (WEIGHT_CELLS * cells
          + WEIGHT_STONES * (held[seat] + stock[seat] - held[other] - stock[other])
          + WEIGHT_HELD * (held[seat] - held[other]))
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    return [p, 1.0 - p] if seat == 0 else [1.0 - p, p]


def evaluate(state: Any, seats: int) -> Rewards:
    return value(state.owner, state.count, state.held, state.stock, state.to_move)


def pickup(held: list[int], stock: list[int], seat: int) -> bool:
    """`seat`'s pick-up at the start of their turn, in place; False if the stock is short."""
    need = 2 if held[seat] <= 3 else 1 if held[seat] == 4 else 0
    if stock[seat] < need:
        return False
    held[seat] += need
    stock[seat] -= need
    return True


def stops(owner: list[int], count: list[int], held: list[int], stock: list[int],
          seat: int, move: tuple[int, int] | None) -> bool:
    """Whether `move` (None: save) leaves the opponent of `seat` without a bingo next turn."""
    owner, count, held, stock = list(owner), list(count), list(held), list(stock)
    blocked: Any = ()
    if move is not None:
        blocked, bingo = sim_apply(owner, count, held, stock, seat, move[0], move[1])
        if bingo:
            return True
    other = 1 - seat
    if not pickup(held, stock, other):
        return True
    return win(owner, count, held[other], blocked, other) is None


def playout(game: Any, state: Any, rng: random.Random, depth: int,
            seats: int) -> Rewards:
    """Random play for `depth` plies, then the evaluation. A player takes a bingo when there
    is one, and otherwise stops the opponent's next-turn bingo when it can (a random move of
    those that do); when it cannot, the opponent's win is scored at once."""
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome_rewards(game, state, seats)
    owner, count = list(state.owner), list(state.count)
    held, stock = list(state.held), list(state.stock)
    seat, blocked = state.to_move, state.blocked
    wins = ([1.0, 0.0], [0.0, 1.0])
    for _ in range(depth):
        if win(owner, count, held[seat], blocked, seat) is not None:
            return wins[seat]
        moves: list[Any] = sim_moves(owner, count, held[seat], blocked, seat)
        moves.append(None)  # save
        other = 1 - seat
        need = 2 if held[other] <= 3 else 1 if held[other] == 4 else 0
        if win(owner, count, min(5, held[other] + need), (), other) is None:
            move = moves[rng.randrange(len(moves))]
        else:  # a threat: a random move of those that stop it
            while True:
                i = rng.randrange(len(moves))
                move = moves[i]
                if stops(owner, count, held, stock, seat, move):
                    break
                moves[i] = moves[-1]
                moves.pop()
                if not moves:
                    return wins[other]
        blocked = ()
        if move is not None:
            blocked, bingo = sim_apply(owner, count, held, stock, seat, *move)
            if bingo:
                return wins[seat]
        if not pickup(held, stock, other):
            return wins[seat]
        seat = other
    return value(owner, count, held, stock, seat)



# -- alpha-beta (normal and hard) ------------------------------------------------------------
# Pastoral Square is two-player, perfect-information and without chance, with a few dozen
# actions a turn and a win (a bingo) that a player must see coming two turns ahead: the ground
# of alpha-beta, as in the connection games' engines. The playouts above cannot see that a
# move lets the opponent force a bingo; a search of a few plies does. Normal and hard search
# with `games.search.AlphaBeta` on the simulation's lists, valued by the fitted evaluation
# (`value`). Repetition is not tracked inside the search.
#
# An engine position: (owner, count, held, stock, seat to move, blocked cells, winner or -1).

def ab_enter(state: Any) -> tuple:
    line = rules.bingo_line(state.owner, state.count)
    winner = state.owner[line[0]] if line is not None else \
        1 - state.to_move if state.pickup_failed else -1
    return (state.owner, state.count, state.held, state.stock, state.to_move,
            state.blocked, winner)


def ab_moves(s: tuple) -> list:
    """A move that makes a bingo first, the other actions, `save` (None) last."""
    owner, count, held, _, seat, blocked, winner = s
    if winner >= 0:
        return []
    found: list[Any] = sim_moves(list(owner), list(count), held[seat], blocked, seat)
    bingo = win(owner, count, held[seat], blocked, seat)
    if bingo is not None:
        found.remove(bingo)
        found.insert(0, bingo)
    found.append(None)
    return found


def ab_play(s: tuple, move: Any) -> tuple:
    owner, count, held, stock, seat, _, _ = s
    owner, count, held, stock = list(owner), list(count), list(held), list(stock)
    blocked: Any = frozenset()
    if move is not None:
        fired, bingo = sim_apply(owner, count, held, stock, seat, move[0], move[1])
        if bingo:
            return (tuple(owner), tuple(count), tuple(held), tuple(stock), seat, blocked, seat)
        blocked = frozenset(fired)
    other = 1 - seat
    winner = -1 if pickup(held, stock, other) else seat
    return (tuple(owner), tuple(count), tuple(held), tuple(stock), other, blocked, winner)


def ab_result(s: tuple) -> float | None:
    winner = s[6]
    return None if winner < 0 else 1.0 if winner == 0 else -1.0


def ab_value(s: tuple) -> float:
    p0 = value(s[0], s[1], s[2], s[3], s[4])[0]
    return 2.0 * p0 - 1.0


def ab_to_rules(move: Any) -> Any:
    return rules.SAVE if move is None else _MOVES[move[0]][move[1]]


ENGINE = Engine(enter=ab_enter, moves=ab_moves, play=ab_play, mover=lambda s: s[4],
                result=ab_result, evaluate=ab_value, key=lambda s: s[:6],
                to_rules=ab_to_rules, nodes_per_iteration=16.0)
TUNING = Tuning(16, evaluate, legal=legal, playout=playout, decisive=decisive)


# -- easy: a beginner who sees its own chances, not the opponent's --------------------------
# Easy looks one move ahead (`noisy_one_ply`) with the fitted evaluation cut down to what the
# player who has just moved builds: its own live lines and its stones, and it keeps the 5 stones
# it needs to hold and stock so as not to fail a pick-up. It does not weigh the opponent's
# lines, so it does not see a bingo coming; the noise (EASY_TEMPERATURE) makes it play a lesser
# move now and then. The Monte Carlo search it replaces (80 iterations, playouts that stop a
# bingo) beat the one-ply greedy baseline 85% (bench/strength.py): no beginner.
EASY_TEMPERATURE = 0.6
STARVING = 5.0  # the evaluation's penalty for fewer than 5 stones held and in stock


def easy_value(s: tuple) -> float:
    """Easy's evaluation of an engine position for seat 0, seen by the seat that just moved."""
    owner, count, held, stock, seat = s[0], s[1], s[2], s[3], s[4]
    mover = 1 - seat
    lines = line_needs(owner, count, mover)
    z = BIAS + WEIGHT_STONES * (held[mover] + stock[mover] - held[seat] - stock[seat])
    for i in range(1, 7):
        z += WEIGHTS_MOVER[i] * lines[i]
    if held[mover] + stock[mover] < rules.MAX_STACK:
        z -= STARVING
    v = 2.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))) - 1.0
    return v if mover == 0 else -v


EASY_ENGINE = replace(ENGINE, evaluate=easy_value)


def search(decision: Decision) -> Any:
    if decision.level == "easy":
        return noisy_one_ply(decision, EASY_ENGINE, EASY_TEMPERATURE)[0]
    return alphabeta(decision, ENGINE)


def estimate(decision: Decision) -> tuple[Any, list[float]]:
    """The move `search` plays and each seat's chance of winning (post-game analysis)."""
    if decision.level == "easy":
        return noisy_one_ply(decision, EASY_ENGINE, EASY_TEMPERATURE)
    return alphabeta_estimate(decision, ENGINE)


# The search's own noise in a post-game analysis, per level (a smaller loss of chance is no
# mistake): `python bench/analysis_noise.py --positions 10 --seeds 3`, 2 shared cores,
# load 2 to 5 (the larger 95th percentile of two seeds' spread and of the drop after the
# move the search prefers).
KNOWLEDGE = Knowledge(TUNING, search=search, estimate=estimate,
                      noise={"easy": 0.42, "normal": 0.16, "hard": 0.17})
