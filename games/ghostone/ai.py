"""What the AI knows of Ghostone: playouts on plain lists (`GhostSim`), the scores so far as
normal's evaluation, a fitted one for hard's.

Why the generic search (ISMCTS with max^n rewards, games/search.py) and not alpha-beta: Ghostone
has three or four players and a die. Alpha-beta needs two sides with opposite interests;
expectimax over the die's outcomes multiplies the tree by every roll. Monte Carlo tree search
samples the rolls as they come, keeps a reward per seat (each seat picks what is best for
itself, max^n) and cuts its playouts after a few dozen plies, where the scores so far value
the position; the playouts run on `GhostSim`'s lists, many times faster than the rules.

Hard knows more than normal. Random playouts let escapes go by and hand them to the next
seat, so a playout says little of a position's worth: hard's playouts take the best escape on
offer and avoid emptying a plate beside another seat's pawn (`GhostSim.greedy_action`), but
push the rock any open way: a rock always pushed after the pawn leaves no plate empty, and
such playouts nearly never ended (1 escape in 400 plies). Hard cuts them after 12 plies, where
`GhostSim.value` gives each seat's chance of winning from what it holds (score, pawns, rocks
under them, escapes on offer, stuck pawns, bonuses to come), with weights fitted (multinomial
logit) to the results of 16 playouts to the end from each of ~9,000 (3 seats) and ~10,000
(4 seats) positions of such play: it predicts who wins better than the scores and the best
escape on offer did (held-out log-loss 0.83 against 0.90, 3 seats; 0.93 against 1.00, 4
seats), and after a few plies of playout better than after 32 (cut after 8-16 plies best).
Ghostone's iterations are cheap, so hard also searches HARD_BUDGET times its level's
iterations, its median think time under 2 s of CPU and well under its cap. Measured against
two normals (three seats, bench/strength.py): 58 % of 90 games (47-67 %), as the frozen
playouts cut after 40 plies did (58 % of 43, 43-72 %) on a fifth more CPU: not clearly better;
four seats 44 % of 24 (27-64 %, fair 25 %).
What the games show that the evaluation does not: a seat that escapes its pawns early leaves
the last rocks to the seats still on the board."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from ..search import Decision, Knowledge, Rewards, Tuning, ismcts_estimate, share
from . import game as rules


def evaluate(state: Any, seats: int) -> Rewards:
    scores = [sum(p + b for p, b in escapes) for escapes in state.escaped]
    return share([float(s) for s in scores], 2.5)


# Ghostone's playouts run on plain lists too (a rules' move builds a new state and a position
# key every ply); tests play the simulation against the rules move by move. Repetition is not
# tracked inside a playout.
ORTHO = tuple(rules.ORTHOGONAL)  # a step's rock direction index: N E S W
_ROLLS = tuple(rules.DIRECTIONS)
# per plate: (direction index, the plate a step leads to or -1 off the board), N E S W
_STEPS = tuple(tuple((i, -1 if (to := rules.step(p, d)) is None else to)
                     for i, d in enumerate(ORTHO)) for p in range(rules.PLATES))
# per plate: the plates a pawn's step reaches (on the board), N E S W
_TARGETS = tuple(tuple(to for _, to in steps if to >= 0) for steps in _STEPS)
_WRAP = tuple(tuple(rules.wrap_step(p, d) for p in range(rules.PLATES)) for d in _ROLLS)
_SETUPS = tuple(tuple(m.rocks for m in rules.SETUP_MOVES[p]) for p in range(rules.PLATES))
_PHASES = {rules.SETUP: 0, rules.PLAY: 1, rules.GHOST: 2, rules.ROLL: 3, rules.OVER: 4}


class GhostSim:
    """A Ghostone position on plain lists. Actions: (0, pawn, rocks) set-up, (1, origin,
    target, rock direction index or -1) a step, (2, plate) the ghost, (3, roll index)."""

    __slots__ = ("ended", "escapes", "flipped", "ghost", "passes", "pawns", "phase", "rocks",
                 "scores", "seats", "setup_index", "to_move", "where")

    def __init__(self, state: Any):
        self.seats = state.seats
        self.rocks = list(state.rocks)
        self.pawns = list(state.pawns)
        self.flipped = [p in state.flipped for p in range(rules.PLATES)]
        self.scores = [sum(p + b for p, b in escapes) for escapes in state.escaped]
        self.escapes = state.escapes()
        self.ghost = -1 if state.ghost is None else state.ghost
        self.phase = _PHASES[state.phase]
        self.to_move = state.to_move
        self.setup_index = state.setup_index
        self.passes = state.passes
        self.ended = state.end is not None
        # each seat's pawns' plates in order (playouts ask for one seat's steps every ply)
        self.where = [[p for p in range(rules.PLATES) if self.pawns[p] == s]
                      for s in range(self.seats)]

    def steps(self, seat: int) -> list[tuple[int, int]]:
        pawns, flipped = self.pawns, self.flipped
        found = []
        for origin in self.where[seat]:
            for target in _TARGETS[origin]:
                if pawns[target] < 0 and not flipped[target]:
                    found.append((origin, target))
        return found

    def _can_step(self, seat: int) -> bool:
        pawns, flipped = self.pawns, self.flipped
        for origin in self.where[seat]:
            for target in _TARGETS[origin]:
                if pawns[target] < 0 and not flipped[target]:
                    return True
        return False

    def actions(self) -> list[tuple]:
        if self.ended:
            return []
        phase = self.phase
        if phase == 3:
            return [(3, i) for i in range(8)]
        if phase == 2:
            return [(2, p) for p in range(rules.PLATES) if not self.flipped[p]]
        if phase == 0:
            return [(0, p, rocks) for p in range(rules.PLATES) if self.pawns[p] < 0
                    for rocks in _SETUPS[p]]
        rocks, flipped = self.rocks, self.flipped
        found: list[tuple] = []
        for origin, target in self.steps(self.to_move):
            escapes = rocks[target] == 0
            before = len(found)
            if rocks[origin] and not (escapes and self._ends_after(origin)):
                for d, to in _STEPS[origin]:
                    if to < 0 or not (flipped[to] or (escapes and to == target)):
                        found.append((1, origin, target, d))
            if len(found) == before:  # no rock to move, or no direction open
                found.append((1, origin, target, -1))
        return found

    def random_setup(self, rng: random.Random) -> tuple:
        """A set-up action drawn uniformly from `actions()`."""
        free = [p for p in range(rules.PLATES) if self.pawns[p] < 0]
        index = rng.randrange(sum(len(_SETUPS[p]) for p in free))
        for pawn in free:
            if index < len(_SETUPS[pawn]):
                return 0, pawn, _SETUPS[pawn][index]
            index -= len(_SETUPS[pawn])
        raise AssertionError("unreachable")

    def _ends_after(self, origin: int) -> bool:
        """Whether the pawns left after the one on `origin` (-1: none) escapes belong to one
        seat."""
        mover = self.pawns[origin] if origin >= 0 else -1
        left = 0
        for seat, plates in enumerate(self.where):
            if len(plates) > (seat == mover):
                left += 1
                if left > 1:
                    return False
        return True

    def apply(self, action: tuple) -> None:
        kind = action[0]
        if kind == 1:
            _, origin, target, d = action
            seat, rocks, pawns = self.to_move, self.rocks, self.pawns
            pawns[origin] = -1
            mine = self.where[seat]
            mine.remove(origin)
            self.passes = 0
            if rocks[target] == 0:
                self.scores[seat] += rocks[origin] + (3 - self.escapes if self.escapes < 3
                                                      else 0)
                self.escapes += 1
                self.flipped[target] = True
                if self._ends_after(-1):
                    self.ended, self.phase = True, 4
                    return
                escaped = True
            else:
                pawns[target] = seat
                mine.append(target)
                mine.sort()
                escaped = False
            if d >= 0:
                rocks[origin] -= 1
                to = _STEPS[origin][d][1]
                if to >= 0:
                    rocks[to] += 1
            if escaped and self.escapes == 3:
                self.phase = 2
                return
            self._next_turn((seat + 1) % self.seats)
        elif kind == 3:
            direction, origin = _WRAP[action[1]], self.ghost
            here, flipped = origin, self.flipped
            for _ in range(rules.PLATES):
                here = direction[here]
                if here == origin or not flipped[here]:
                    break
            if not (here == origin and flipped[origin]) and self.rocks[origin] > 0:
                self.rocks[origin] -= 1
            self.ghost = here
            self._begin_turn(0)
        elif kind == 2:
            self.ghost = action[1]
            self._next_turn((self.to_move + 1) % self.seats)
        else:
            _, pawn, plates = action
            self.pawns[pawn] = self.to_move
            self.where[self.to_move].append(pawn)
            self.where[self.to_move].sort()
            for plate in plates:
                self.rocks[plate] += 1
            self.setup_index += 1
            order = rules.SETUP_ORDER[self.seats]
            if self.setup_index < len(order):
                self.to_move = order[self.setup_index]
            else:
                self.phase = 1
                self._next_turn(self.seats - 1)

    def _next_turn(self, seat: int) -> None:
        if seat == 0 and self.ghost >= 0:
            self.phase, self.to_move = 3, 0
        else:
            self._begin_turn(seat)

    def _begin_turn(self, seat: int) -> None:
        while True:
            self.phase, self.to_move = 1, seat
            if self._can_step(seat):
                return
            self.passes += 1
            if self.passes >= self.seats:
                self.ended, self.phase = True, 4
                return
            seat = (seat + 1) % self.seats
            if seat == 0 and self.ghost >= 0:
                self.phase, self.to_move = 3, 0
                return

    def greedy_action(self, rng: random.Random) -> tuple:
        """A step as a player makes it without reading ahead (the play phase only): the best
        escape on offer (most rocks on the plate left), else a random step, drawn twice if
        the first leaves an empty plate beside another seat's pawn; the rock goes any open
        way. Why a random rock: a rock always pushed onto the pawn's new plate (or onto an
        empty plate) leaves no plate empty, and such playouts froze (1 escape in 400 plies,
        3 seats): they showed nothing of who would escape next. One of `actions()`."""
        seat, rocks, flipped = self.to_move, self.rocks, self.flipped
        steps = self.steps(seat)
        escape, most = None, -1
        for origin, target in steps:
            if rocks[target] == 0 and rocks[origin] > most:
                escape, most = (origin, target), rocks[origin]
        if escape is not None and rng.random() < ESCAPE_TAKEN:
            origin, target = escape
        else:
            origin, target = steps[rng.randrange(len(steps))]
            if rocks[origin] == 1 and self._opens(origin, seat):
                origin, target = steps[rng.randrange(len(steps))]  # a second draw
        escapes = rocks[target] == 0
        if rocks[origin] == 0 or (escapes and self._ends_after(origin)):
            return 1, origin, target, -1
        open_ = [d for d, to in _STEPS[origin]
                 if to < 0 or not (flipped[to] or (escapes and to == target))]
        if not open_:
            return 1, origin, target, -1
        return 1, origin, target, open_[rng.randrange(len(open_))]

    def _opens(self, origin: int, seat: int) -> bool:
        """Whether another seat's pawn stands beside `origin` (which a step would empty)."""
        pawns = self.pawns
        return any(to >= 0 and pawns[to] >= 0 and pawns[to] != seat for _, to in _STEPS[origin])

    def value(self) -> Rewards:
        """The cut-off evaluation: the result if the game is over (the scores during the
        set-up), else each seat's chance of winning as a soft-max of a weighted sum
        (`WEIGHTS`) of what it holds: its score, its pawns, the rocks under them, the escapes
        on offer to them (the best one's worth, more for the seat to move; how many), its
        pawns that cannot move, and the bonuses still to take."""
        if self.ended or self.phase == 0:
            return self.rewards()
        rocks, pawns, flipped = self.rocks, self.pawns, self.flipped
        (w_score, w_pawn, w_rocks, w_top, w_square, w_offer, w_move, w_offers, w_stuck,
         w_bonus) = WEIGHTS[self.seats]
        bonus = 3 - self.escapes if self.escapes < 3 else 0
        mover = self.to_move if self.phase == 1 else -1
        logits = []
        for seat, plates in enumerate(self.where):
            total = top = squares = offer = offers = stuck = 0
            for origin in plates:
                r = rocks[origin]
                total += r
                squares += r * r
                if r > top:
                    top = r
                free = near = False
                for to in _TARGETS[origin]:
                    if pawns[to] < 0 and not flipped[to]:
                        free = True
                        if rocks[to] == 0:
                            near = True
                if near:
                    offers += 1
                    if r + bonus > offer:
                        offer = r + bonus
                elif not free:
                    stuck += 1
            n = len(plates)
            logits.append(w_score * self.scores[seat] + (w_pawn + w_bonus * bonus) * n
                          + w_rocks * total + w_top * top + w_square * squares
                          + (w_offer + (w_move if seat == mover else 0.0)) * offer
                          + w_offers * offers + w_stuck * stuck)
        return share(logits, 1.0)

    def rewards(self) -> Rewards:
        scores = self.scores
        if self.ended:
            best = max(scores)
            winners = [s for s in range(self.seats) if scores[s] == best]
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(self.seats)]
        return share([float(s) for s in scores], 2.5)


def playout(game: Any, state: Any, rng: random.Random, depth: int,
            seats: int) -> Rewards:
    """Uniformly random play (the die's rolls among the plies) to the end, or `depth` plies
    and then the scores so far."""
    sim = GhostSim(state)
    for _ in range(depth):
        if sim.phase == 0:  # up to ~300 set-ups: draw one without listing them
            sim.apply(sim.random_setup(rng))
            continue
        actions = sim.actions()
        if not actions:
            break
        sim.apply(actions[rng.randrange(len(actions))])
    return sim.rewards()


ESCAPE_TAKEN = 0.9  # how often a greedy playout takes the best escape on offer
# per number of seats: the weights of `GhostSim.value` (score, pawns, rocks under them, the
# most under one, their squares, the best escape on offer, more for the seat to move, escapes
# on offer, stuck pawns, bonus times pawns)
WEIGHTS = {
    3: (0.460, 1.009, -0.036, -0.015, 0.015, 0.181, 0.077, -0.266, -0.099, 0.413),
    4: (0.711, 1.713, -0.045, -0.121, 0.034, 0.287, 0.115, -0.601, -0.121, 0.560),
}


def greedy_playout(game: Any, state: Any, rng: random.Random, depth: int,
                   seats: int) -> Rewards:
    """Play by `GhostSim.greedy_action` (random set-ups, ghost placements and rolls) to the
    end, or `depth` plies after the set-up and then `GhostSim.value`. The set-up's placements
    do not count: the evaluation knows play positions, and a placement is judged by the play
    that follows it."""
    sim = GhostSim(state)
    while sim.phase == 0:
        sim.apply(sim.random_setup(rng))
    for _ in range(depth):
        phase = sim.phase
        if phase == 1:
            sim.apply(sim.greedy_action(rng))
        elif phase == 4:
            break
        else:
            actions = sim.actions()
            sim.apply(actions[rng.randrange(len(actions))])
    return sim.value()


def evaluate_hard(state: Any, seats: int) -> Rewards:
    return GhostSim(state).value()


TUNING = Tuning(40, evaluate, playout=playout)
# hard: greedy playouts and the escapes on offer, and more iterations (HARD_BUDGET times the
# level's): its median think time stays well under its cap
HARD = Tuning(12, evaluate_hard, playout=greedy_playout)
HARD_BUDGET = 5.0


def search(decision: Decision) -> Any:
    return estimate(decision)[0]


def estimate(decision: Decision) -> tuple[Any, Rewards]:
    if decision.level != "hard":
        return ismcts_estimate(decision, TUNING)
    more = dataclasses.replace(decision, iterations=round(decision.iterations * HARD_BUDGET))
    return ismcts_estimate(more, HARD)


# The search's own noise in a post-game analysis, per level (a smaller loss of chance is no
# mistake): `python bench/analysis_noise.py --positions 10 --seeds 3`, 2 shared cores,
# load 2 to 5 (the larger 95th percentile of two seeds' spread and of the drop after the
# move the search prefers).
KNOWLEDGE = Knowledge(TUNING, search=search, estimate=estimate,
                      noise={"easy": 0.17, "normal": 0.04, "hard": 0.03})
