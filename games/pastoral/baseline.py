"""Pastoral Square's plain material for the strength bench's classical opponents
(bench/strength.py): my stones on the board minus yours; a move that leaves the mover's held
stones and stock under 5 starves it (its pick-ups stop at 5 held: it is bound to fail one), a
blunder for greedy; the alpha-beta orders its moves by killers and history, and settles most
last plies by arithmetic (`last_ply`)."""

from __future__ import annotations

import math
import operator
from typing import Any

from ..search import Baseline
from . import ai
from . import game as rules


def material(state: Any, seat: int) -> float:
    return sum(n for o, n in zip(state.owner, state.count, strict=True) if o == seat) - \
        sum(n for o, n in zip(state.owner, state.count, strict=True) if o == 1 - seat)


def engine_material(s: Any) -> float:
    """Seat 0's material on a position of the kit's engine (ai.ENGINE): in C, not a loop over
    the 64 cells (a third of the alpha-beta's time). An empty cell holds no stones, so owner *
    count adds up seat 1's stones."""
    return sum(s[1]) - 2 * sum(map(operator.mul, s[0], s[1]))


def starves(state: Any, seat: int) -> bool:
    """Whether `seat` is bound to fail a pick-up even if it saves from now on: the pick-ups
    stop at 5 held stones, so it survives only with held + stock >= 5 (the opponent's
    mutilations, which can only give stones back, are not looked at)."""
    return state.held[seat] + state.stock[seat] < rules.MAX_STACK


# The last ply for the alpha-beta baseline, by arithmetic. When the opponent's next pick-up is
# safe, a placement on the corral adds its stones to the mover's material (or makes a bingo,
# worth more); a move that can neither make a bingo nor mutilate does just that; a mutilation
# gains at most the opponent's stones it may take. So the corral gives a floor and these a
# ceiling, which settle most last plies without generating the moves, and the moves that only
# add stones need not be played. That last ply was nearly all of a depth-6 search's time.
# tests/test_bench_strength.py checks the values against plain minimax.
_SQUARES_AT = tuple(tuple(pair for sq in rules.SQUARES if sq.a == cell
                          for pair in ((sq.b, sq.c), (sq.c, sq.b)))
                    for cell in range(64))
_CORRAL = tuple((cell, rules.VALUE[cell]) for cell in sorted(rules.CORRAL))


def last_ply(e: Any, s: Any, alpha: float, beta: float) -> float | None:
    """The value for its mover of an engine position (not over) searched one ply: exact
    within (alpha, beta), else a bound on the same side (fail-soft); None when the moves' own
    play is simpler (the opponent's next pick-up fails: every move wins)."""
    owner, count, held, stock, seat, blocked, _ = s
    other = 1 - seat
    if stock[other] < rules.required_pickup(held[other]):
        return None
    sign = 1 if seat == 0 else -1
    base = engine_material(s) * sign
    if base >= beta:
        return base  # saving (always legal) keeps it, and no more is asked
    hand, empty, most = held[seat], rules.EMPTY, rules.MAX_STACK
    floor = base
    for cell, stones in _CORRAL:
        who = owner[cell]
        if who == empty:
            n = stones if stones <= hand and cell not in blocked else 0
        else:
            n = min(hand, most - count[cell]) if who == seat else 0
        if base + n > floor:
            floor = base + n
    if floor >= beta:
        return floor
    # the cattle cells X of a square whose A is the opponent's and whose Y is the mover's,
    # where a move may mutilate, with the opponent's stones it would take at most
    takes: dict[int, int] = {}
    for a in range(64):
        if owner[a] == other:
            for x, y in _SQUARES_AT[a]:
                if owner[y] == seat:
                    takes[x] = takes.get(x, 0) + count[a]
    if ai.win(owner, count, hand, blocked, seat) is None:
        ceiling = base + max(min(hand, most), max(takes.values(), default=0))
        if ceiling <= alpha:
            return ceiling
    # the cells where a move may do more than add stones: a line's third cell (a bingo),
    # a mutilation's X
    risky = set(takes)
    for line in rules.LINES:
        if (owner[line[0]] == seat) + (owner[line[1]] == seat) + (owner[line[2]] == seat) >= 2:
            risky.update(line)
    best = -math.inf
    played = []
    for move in e.moves(s):
        if move is None:
            v = base
        elif move[0] in risky:
            played.append(move)
            continue
        else:
            v = base + move[1]
        if v > best:
            best = v
            if v >= beta:
                return v
    for move in played:
        child = e.play(s, move)
        if child is None:
            continue
        r = e.result(child)
        v = 1000.0 * r * sign if r is not None else engine_material(child) * sign
        if v > best:
            best = v
            if v >= beta:
                return v
    return best


BASELINE = Baseline(material, engine_material, last_ply, learn=True, starved=starves)
