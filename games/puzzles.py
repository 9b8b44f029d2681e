"""Puzzles: positions where exactly one legal move reaches a goal, proved by exhaustive search.

Pure and standard library only (run in a worker process, plain data in and out); nothing here
names a game: what a kit adds comes through its kit (`Kit.baseline` for "most", the AI
knowledge's `worlds` for hidden information, an optional `<kit>.puzzle_themes` module for the
goals it offers and its theme names).

The goals, for the seat to move (the solver), exactly:

- A *turn* is the solver's move and every move after it while the solver stays to move (a
  bonus move, a ghost to place, the last tiles to place): the solver chooses those too.
- "win": the move can be continued, within the turn, so that the game is over with the solver
  its only winner (a shared win or a draw is no win). A die roll inside the solver's turn makes
  the position too large (skipped); rolls between turns never matter to a win.
- "safe": the move can be continued so that, for every die outcome that follows and every
  deal of what the solver cannot see, the next seat to move (the next player only, not later
  ones) has no turn that wins at once (a "win" of its own, with full knowledge of its world),
  and the game has not ended without the solver among its winners. A move that is not safe
  *hands over the win*.
- "most": the most the move can gain this turn of the kit's plain material (its Baseline:
  material at the turn's end minus before; for hidden information the least over the deals)
  beats every other move's by MOST_MARGIN at least; no move wins and the move is safe.

Hidden information: every search runs over every deal consistent with the solver's
observation (`game.observe(state, seat)`; the kit's `Knowledge.worlds`), and a plan of the
solver is one sequence of notations played in every deal (the solver learns nothing in its
own turn). A wrong move fails when some deal defeats every plan. Where the kit cannot list
the deals (too many, or no `worlds`), or a search passes BUDGET moves, the position is skipped.

A position is a puzzle only when exactly one legal move reaches the goal tried (win first, then
safe, then most) and every other fails it; each other move's refutation (at most MAX_LINE
plies, played in the true position) shows the failure there, else the position is skipped:
"win", the turn ending without the win (then the next player's win at once, if it has one);
"safe", the next player's win; "most", the plies of the move's best gain (each move's gain is
in the puzzle's `gains`). The solution's `line` is its turn's plies, for "safe" with the next
ply (a roll or a reply: the game goes on), never another seat's hidden tiles.

Shipped sets (`python -m games puzzles GAME`): AI self-play over the kit's set-ups, every
position scanned, at most PER_GAME puzzles a game and never two of one turn, the goals then
balanced (`generate`); `verify` re-checks a shipped puzzle from scratch.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

from . import KITS, get_game
from .analysis import replayed
from .base import N_, Game, GameError

# What a curated puzzle asks, in words a newcomer understands. Every puzzle states one goal,
# and exhaustive search checked that exactly one legal move reaches it (whatever is rolled or
# hidden where chance or hidden information reaches it).
GOALS: dict[str, str] = {
    "win": N_("Win this turn."),
    "safe": N_("Do not hand over the win: one move only keeps the next player from winning "
               "at once."),
    "most": N_("Gain the most this turn."),
}


def goal_words(game_id: str, goal: str) -> str | None:
    """The sentence of a goal for a game: the kit's own where it says what is counted (its
    `puzzle_themes.GOAL_WORDS`: "Gain the most points on your opponent this turn."), else
    GOALS'; None for an unknown goal."""
    kit = KITS.get(game_id)
    if kit is not None:
        own = getattr(kit_module(kit.game, "puzzle_themes"), "GOAL_WORDS", {})
        if goal in own:
            return str(own[goal])
    return GOALS.get(goal)


@dataclass(frozen=True)
class Curated:
    """One puzzle of a kit's shipped set (`Kit.puzzles`), as `curated(game_id)` loads it."""

    key: str  # stable and unique in the set: "<game>:<source>:<ply>"
    game: str
    seats: int
    options: dict[str, str]
    entries: list[list[str]]  # [kind, notation] from the start to the puzzle's position
    seat: int  # 0-based seat to move: the solver's
    goal: str  # a key of GOALS
    solution: str  # the one move (notation) that reaches the goal
    line: list[str]  # the point of the solution: it and the plies after it (2-3 plies)
    refutations: dict[str, list[str]]  # each other legal move: the line that shows it fails
    themes: list[str]  # theme ids of the set's "themes"
    turn: str  # the turn it comes from ("<source>:<turn>"): two of one turn never in a row
    # "most": each legal move's gain of plain material this turn (what the solver compares)
    gains: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class PuzzleSet:
    puzzles: list[Curated]
    themes: dict[str, dict[str, str]]  # theme id -> its name in every language


@cache
def curated(game_id: str) -> PuzzleSet:
    """A kit's shipped puzzle set (empty for a kit without one). The file is
    {"format": 1, "game": id, "themes": {id: {"en": .., "ja": ..}}, "puzzles": [Curated as a
    JSON object, without "game"]}."""
    kit = KITS[game_id]
    if kit.puzzles is None or not kit.puzzles.exists():
        return PuzzleSet([], {})
    data = json.loads(kit.puzzles.read_text(encoding="utf-8"))
    if data.get("format") != 1 or data.get("game") != game_id:
        raise ValueError(f"{kit.puzzles}: not a format 1 puzzle set of {game_id}")
    themes: Mapping[str, dict[str, str]] = data.get("themes", {})
    found = [Curated(game=game_id, **p) for p in data["puzzles"]]
    for p in found:
        if p.goal not in GOALS or any(t not in themes for t in p.themes):
            raise ValueError(f"{kit.puzzles}: {p.key} has an unknown goal or theme")
    return PuzzleSet(found, dict(themes))



# -- the exhaustive search ----------------------------------------------------------------------
BUDGET = 5_000  # moves applied while checking one position, at most (else it is skipped)
MOST_MARGIN = 2.0  # "most": the solution gains at least this much more than any other move
MAX_LINE = 4  # plies of a line at most (the move, a bonus move or a roll, the reply)
MAX_PER_MATCH = 3  # puzzles kept from one analysed match at most

# every puzzle has its goal's theme; kits add their own (`<kit>.puzzle_themes.THEMES`)
GOAL_THEMES: dict[str, tuple[str, dict[str, str]]] = {
    "win": ("finish", {"en": "Finishing move", "ja": "決め手"}),
    "safe": ("defence", {"en": "Defence", "ja": "守り"}),
    "most": ("gain", {"en": "Biggest gain", "ja": "最大の得"}),
}
# the solver moves more than once in the solution's turn
CONTINUED = ("continued", {"en": "More than one move in a turn", "ja": "1手番に2回以上の着手"})


class Skipped(Exception):
    """The position cannot be checked exhaustively (too many moves or deals): no puzzle."""


@dataclass
class Searcher:
    """One position's exhaustive search: the game, the solver and the moves applied so far."""

    game: Game
    budget: int = BUDGET
    applied: int = 0

    def branches(self, states: Sequence[Any]) -> Iterator[tuple[str, list[Any]]]:
        """Each notation legal in every one of `states` (the deals of one position), with the
        states it leads to, in the first state's order; lazily (a search stops at its first
        success)."""
        game = self.game
        first = game.legal_moves(states[0])
        if self.applied + len(first) * len(states) > 4 * self.budget:
            raise Skipped("too many moves and deals")  # not even worth listing them
        tables = [{game.format_move(s, m): m for m in game.legal_moves(s)} for s in states]
        for notation in tables[0]:
            if all(notation in t for t in tables[1:]):
                self.applied += len(states)
                if self.applied > self.budget:
                    raise Skipped("too many moves")
                yield notation, [game.apply(s, t[notation])
                                 for s, t in zip(states, tables, strict=True)]

    def rolls(self, states: Sequence[Any]) -> list[Any]:
        """`states` with every chance node replaced by each of its outcomes (recursively)."""
        out: list[Any] = []
        for state in states:
            if self.game.outcome(state) is None and self.game.is_chance(state):
                out.extend(self.rolls([b[1][0] for b in self.branches([state])]))
            else:
                out.append(state)
        return out

    def win_plan(self, states: Sequence[Any], seat: int, depth: int = -1
                 ) -> list[str] | None:
        """The solver's plies that win in every one of `states` within its turn (see the
        module's docstring), [] when already won, None when none does (or none of at most
        `depth` plies, when it is not negative)."""
        game = self.game
        live = []
        for state in states:
            outcome = game.outcome(state)
            if outcome is not None:
                if outcome.draw or tuple(outcome.winners) != (seat,):
                    return None
            elif game.is_chance(state):
                if any(game.to_move(s) == seat for s in self.rolls([state])):
                    raise Skipped("a roll inside the solver's turn")
                return None
            elif game.to_move(state) != seat:
                return None
            else:
                live.append(state)
        if not live:
            return []
        if len(live) != len(states):
            raise Skipped("the deals disagree on the game's end")
        if depth == 0:
            return None
        for notation, after in self.branches(live):
            plan = self.win_plan(after, seat, depth - 1)
            if plan is not None:
                return [notation] + plan
        return None

    def safe_plan(self, states: Sequence[Any], seat: int) -> list[str] | None:
        """The solver's plies after which, in every deal and roll, the next seat cannot win at
        once (and the game has not ended without the solver among its winners), or None."""
        game = self.game
        live = []
        expanded = self.rolls(states)
        for state in expanded:
            outcome = game.outcome(state)
            if outcome is not None:
                if seat not in outcome.winners:
                    return None
                continue
            mover = game.to_move(state)
            if mover == seat:
                live.append(state)
            elif mover is not None and self.win_plan([state], mover) is not None:
                return None
        if not live:
            return []
        if len(live) != len(expanded):
            raise Skipped("the deals or rolls disagree on who moves")
        for notation, after in self.branches(live):
            plan = self.safe_plan(after, seat)
            if plan is not None:
                return [notation] + plan
        return None

    def most(self, states: Sequence[Any], seat: int, material: Callable[[Any, int], float]
             ) -> tuple[float, list[str]]:
        """The most material the solver can be sure of at its turn's end (the least over the
        deals), and the plies that get it."""
        game = self.game
        if all(game.outcome(s) is not None or game.is_chance(s) or game.to_move(s) != seat
               for s in states):
            return min(material(s, seat) for s in states), []
        if any(game.outcome(s) is not None or game.is_chance(s) or game.to_move(s) != seat
               for s in states):
            raise Skipped("the deals disagree on the turn's end")
        best: tuple[float, list[str]] | None = None
        for notation, after in self.branches(states):
            value, plan = self.most(after, seat, material)
            if best is None or value > best[0]:
                best = (value, [notation] + plan)
        assert best is not None
        return best


def kit_module(game: Game, name: str) -> ModuleType | None:
    """The module `name` of the game's kit package, if it has one (`puzzle_themes`)."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError:
        return None


def most_margin(game: Game) -> float:
    """How much more the solution of a "most" puzzle gains than any other move, at least
    (MOST_MARGIN, or the kit's `puzzle_themes.MOST_MARGIN`)."""
    return float(getattr(kit_module(game, "puzzle_themes"), "MOST_MARGIN", MOST_MARGIN))


def material_of(game: Game) -> Callable[[Any, int], float] | None:
    """The material a "most" puzzle counts: the kit's `puzzle_themes.material` (a score it
    declares for its puzzles), else its plain material (`Kit.baseline`), else None."""
    declared = getattr(kit_module(game, "puzzle_themes"), "material", None)
    if declared is not None:
        return declared
    path = KITS[game.id].baseline if game.id in KITS else None
    if path is None:
        return None
    return importlib.import_module(path).BASELINE.material


def offered_goals(game: Game) -> tuple[str, ...]:
    """The goals a kit's puzzles may ask (its `puzzle_themes.GOALS`; "most" needs material)."""
    module = kit_module(game, "puzzle_themes")
    goals = tuple(getattr(module, "GOALS", tuple(GOALS)))
    return tuple(g for g in goals if g != "most" or material_of(game) is not None)


def theme_names(game: Game) -> dict[str, dict[str, str]]:
    """Every theme a puzzle of `game` may have, with its names."""
    module = kit_module(game, "puzzle_themes")
    names = {theme: dict(words) for theme, words in GOAL_THEMES.values()}
    names[CONTINUED[0]] = dict(CONTINUED[1])
    names.update(getattr(module, "THEMES", {}))
    return names


def worlds_of(game: Game, state: Any, seat: int) -> list[Any]:
    """Every state the solver cannot tell from `state` (just it with perfect information)."""
    if not game.info.hidden_information:
        return [state]
    from .ai import knowledge_for

    lister = knowledge_for(game).worlds
    found = None if lister is None else lister(game.observe(state, seat))
    if not found:
        raise Skipped("the deals cannot be listed")
    return found


@dataclass(frozen=True)
class Found:
    """A position's puzzle, before it is placed in a set."""

    goal: str
    solution: str
    line: list[str]
    refutations: dict[str, list[str]]
    themes: list[str]
    gains: dict[str, float]
    legal: int  # how many legal moves the solver had


def budget_of(game: Game) -> int:
    """The moves one phase of a position's search may apply (BUDGET, or the kit's
    `puzzle_themes.BUDGET`: a game whose moves cost more, or whose deals multiply them, checks
    smaller positions only, so that its shipped set is re-checked quickly)."""
    return int(getattr(kit_module(game, "puzzle_themes"), "BUDGET", BUDGET))


def analyse_goals(game: Game, state: Any, goals: Sequence[str] | None = None,
                  budget: int | None = None) -> Found | None:
    """The puzzle of `state` for its seat to move, or None (see the module's docstring)."""
    if game.outcome(state) is not None or game.is_chance(state):
        return None
    seat = game.to_move(state)
    if seat is None or len(game.legal_moves(state)) < 2:
        return None
    goals = offered_goals(game) if goals is None else goals
    search = Searcher(game, budget_of(game) if budget is None else budget)
    try:
        return _analyse(search, state, seat, goals)
    except (Skipped, RecursionError):
        return None


def _analyse(search: Searcher, state: Any, seat: int, goals: Sequence[str]) -> Found | None:
    game = search.game
    worlds = worlds_of(game, state, seat)
    branches = list(search.branches(worlds))
    if sorted(n for n, _ in branches) != sorted(game.legal_notations(state)):
        return None
    plans = {n: search.win_plan(after, seat) for n, after in branches}
    winning = [n for n, p in plans.items() if p is not None]
    if len(winning) > 1:
        return None
    if winning:
        if "win" not in goals:
            return None
        return _found(search, state, seat, "win", winning[0], plans[winning[0]] or [], {})
    if "safe" in goals:
        search.applied = 0
        try:
            safe = {n: search.safe_plan(after, seat) for n, after in branches}
        except Skipped:  # too large to settle: "most" may still be
            safe = {}
        keeping = [n for n, p in safe.items() if p is not None]
        if len(keeping) == 1:
            return _found(search, state, seat, "safe", keeping[0], safe[keeping[0]] or [], {})
    material = material_of(game)
    if "most" not in goals or material is None:
        return None
    search.applied = 0
    before = min(material(w, seat) for w in worlds)
    values = {n: search.most(after, seat, material) for n, after in branches}
    gains = {n: round(v - before, 3) for n, (v, _) in values.items()}
    best = max(gains, key=lambda n: gains[n])
    if any(g > gains[best] - most_margin(game) for n, g in gains.items() if n != best):
        return None
    search.applied = 0
    if gains[best] <= 0 or search.safe_plan(dict(branches)[best], seat) is None:
        return None
    return _found(search, state, seat, "most", best, values[best][1], gains)


def _found(search: Searcher, state: Any, seat: int, goal: str, solution: str,
           plan: list[str], gains: dict[str, float]) -> Found | None:
    """The puzzle with its lines, or None when a line cannot show its point in the true
    position within MAX_LINE plies."""
    game = search.game
    search.applied = 0  # the lines have a budget of their own
    line = _point(search, state, seat, goal, [solution] + plan)
    if line is None:
        return None
    refutations: dict[str, list[str]] = {}
    worlds = worlds_of(game, state, seat) if goal == "most" else None
    for notation in game.legal_notations(state):
        if notation == solution:
            continue
        search.applied = 0
        found = refutation(search, state, seat, goal, notation, gains, worlds)
        if found is None:
            return None
        refutations[notation] = found
    return Found(goal, solution, line, refutations, themes_of(game, state, seat, goal, line),
                 gains, len(refutations) + 1)


def _point(search: Searcher, state: Any, seat: int, goal: str, plies: list[str]
           ) -> list[str] | None:
    """The solution's line: its plies in the turn, then for "safe" the next ply (a roll or
    the first legal reply: the game goes on), unless it would show hidden tiles."""
    game = search.game
    after = _played(game, state, plies)
    if after is None:
        return None
    line = list(plies)
    if goal == "safe" and game.outcome(after) is None and not game.info.hidden_information:
        line.append(game.legal_notations(after)[0])
    return line if len(line) <= MAX_LINE else None


def _played(game: Game, state: Any, plies: Sequence[str]) -> Any:
    """The state after `plies` (notations), or None if one is not legal (`apply` checks)."""
    try:
        for text in plies:
            state = game.apply(state, game.parse_move(state, text))
    except GameError:
        return None
    return state


def refutation(search: Searcher, state: Any, seat: int, goal: str, notation: str,
               gains: Mapping[str, float], worlds: Sequence[Any] | None = None
               ) -> list[str] | None:
    """A line from `notation` that shows, in the true position, how it fails its goal:
    "win": the turn ends without the win (and the next player's win if it has one);
    "safe": the next player's win at once; "most": the plies of its best gain."""
    game = search.game
    after = _played(game, state, [notation])
    if after is None:
        return None
    if goal == "most":  # the plies of its best sure gain, over every deal
        deals = [_played(game, w, [notation])
                 for w in (worlds_of(game, state, seat) if worlds is None else worlds)]
        plan = search.most(deals, seat, material_of(game) or (lambda s, n: 0.0))[1]
        line = [notation] + plan
        return line if len(line) <= MAX_LINE else None
    found = _losing_line(search, after, seat, MAX_LINE - 1, goal == "safe")
    return None if found is None else [notation] + found


def _losing_line(search: Searcher, state: Any, seat: int, room: int, need_win: bool
                 ) -> list[str] | None:
    """Plies from `state` (the solver's turn going on) to the end of the solver's turn without
    its win and then, if the next player wins at once, its winning plies; with `need_win`
    only a line that ends in the next player's win. At most `room` plies."""
    game = search.game
    outcome = game.outcome(state)
    if outcome is not None:
        if outcome.draw or tuple(outcome.winners) != (seat,):
            return [] if not need_win or seat not in outcome.winners else None
        return None
    mover = game.to_move(state)
    if mover == seat or game.is_chance(state):
        if room <= 0:
            return None
        for notation, (after,) in search.branches([state]):
            rest = _losing_line(search, after, seat, room - 1, need_win)
            if rest is not None:
                return [notation] + rest
        return None
    assert mover is not None
    plan = search.win_plan([state], mover, room)
    if plan is not None:
        return plan
    if need_win:
        return None
    if room <= 0 or game.info.hidden_information:  # another seat's hidden tiles stay hidden
        return []
    return [game.legal_notations(state)[0]]


def themes_of(game: Game, state: Any, seat: int, goal: str, line: Sequence[str]) -> list[str]:
    """The goal's theme, the kit's themes of what the solver's plies of the line do (its
    `puzzle_themes.EFFECTS`: a move effect's template -> theme), and CONTINUED when the
    solver moves more than once in the turn."""
    module = kit_module(game, "puzzle_themes")
    effects: Mapping[str, str] = getattr(module, "EFFECTS", {})
    found = [GOAL_THEMES[goal][0]]
    own = 0
    for text in line:
        if game.is_chance(state) or game.to_move(state) != seat:
            break
        own += 1
        move = game.parse_move(state, text)
        after = game.apply(state, move)
        for effect in game.move_effects(state, move, after):
            theme = effects.get(effect.template)
            if theme is not None and theme not in found:
                found.append(theme)
        state = after
    if own > 1:
        found.append(CONTINUED[0])
    return found


# -- checking a shipped puzzle ---------------------------------------------------------------
def verify(game: Game, puzzle: Curated) -> list[str]:
    """The problems of `puzzle` (empty when sound): its entries replay to a position where
    its seat is to move, exhaustive search finds that the solution reaches the goal and every
    other legal move fails it, each other move has a legal refutation that shows the failure in
    that position, the solution's line is legal and shows its point, and the themes are known
    and are what the solution does."""
    try:
        state = game.new(puzzle.seats, puzzle.options)
        for kind, text in puzzle.entries:
            state = game.skip(state) if kind == "skip" else game.play(state, text)
    except GameError as exc:
        return [f"the entries do not replay: {exc}"]
    if game.outcome(state) is not None or game.is_chance(state) or \
            game.to_move(state) != puzzle.seat:
        return [f"seat {puzzle.seat + 1} is not to move after the entries"]
    if puzzle.goal not in GOALS:
        return [f"unknown goal {puzzle.goal!r}"]
    search = Searcher(game, budget_of(game))
    try:
        return _verify(search, state, puzzle)
    except (Skipped, RecursionError) as exc:
        return [f"cannot be checked exhaustively: {exc}"]


def _verify(search: Searcher, state: Any, puzzle: Curated) -> list[str]:
    game, seat, goal = search.game, puzzle.seat, puzzle.goal
    problems: list[str] = []
    worlds = worlds_of(game, state, seat)
    branches = dict(search.branches(worlds))
    legal = game.legal_notations(state)
    if sorted(branches) != sorted(legal):
        problems.append("the solver's moves differ between the deals it cannot tell apart")
    if puzzle.solution not in legal:
        return problems + [f"the solution {puzzle.solution} is not legal"]
    wins = {n: search.win_plan(after, seat) is not None for n, after in branches.items()}
    search.applied = 0  # each phase has the budget the analysis gave it
    if goal == "win":
        reached = wins
    else:
        problems += [f"{n} wins: the goal should be win" for n, w in wins.items() if w]
        if goal == "safe":
            reached = {n: search.safe_plan(after, seat) is not None
                       for n, after in branches.items()}
    gains: dict[str, float] = {}
    if goal == "most":
        material = material_of(game)
        if material is None:
            return problems + ["the game has no plain material to gain"]
        before = min(material(w, seat) for w in worlds)
        gains = {n: round(search.most(after, seat, material)[0] - before, 3)
                 for n, after in branches.items()}
        search.applied = 0
        if search.safe_plan(branches[puzzle.solution], seat) is None:
            problems.append(f"the solution {puzzle.solution} hands over the win")
        reached = {n: all(g <= gains[n] - most_margin(game) for m, g in gains.items()
                          if m != n)
                   for n in gains}
        if gains.get(puzzle.solution, 0.0) <= 0:
            problems.append("the solution gains nothing")
        if puzzle.gains and puzzle.gains != gains:
            problems.append(f"the gains are {gains}, not {puzzle.gains}")
    if not reached.get(puzzle.solution):
        problems.append(f"the solution {puzzle.solution} does not reach the goal {goal}")
    problems += [f"{n} reaches the goal {goal} too" for n, r in reached.items()
                 if r and n != puzzle.solution]
    search.applied = 0
    problems += _check_line(search, state, worlds, puzzle, puzzle.solution, puzzle.line,
                            True, gains)
    for notation in legal:
        if notation == puzzle.solution:
            continue
        search.applied = 0
        if notation not in puzzle.refutations:
            problems.append(f"{notation} has no refutation")
            continue
        problems += _check_line(search, state, worlds, puzzle, notation,
                                puzzle.refutations[notation], False, gains)
    problems += [f"{n} is a refutation of no legal move" for n in puzzle.refutations
                 if n not in legal or n == puzzle.solution]
    names = theme_names(game)
    problems += [f"unknown theme {t}" for t in puzzle.themes if t not in names]
    if not problems and puzzle.themes != themes_of(game, state, seat, goal, puzzle.line):
        problems.append(f"the themes are {themes_of(game, state, seat, goal, puzzle.line)}")
    return problems


def _check_line(search: Searcher, state: Any, worlds: Sequence[Any], puzzle: Curated,
                move: str, line: list[str], solution: bool, gains: Mapping[str, float]
                ) -> list[str]:
    """The problems of one line: it starts with `move`, is legal, is short, and shows the
    point (the solution) or the failure (another move) in the true position."""
    game, seat, goal = search.game, puzzle.seat, puzzle.goal
    what = "the line" if solution else f"the refutation of {move}"
    if not line or line[0] != move or len(line) > MAX_LINE:
        return [f"{what} must start with {move} and have 1-{MAX_LINE} plies"]
    states = [state]
    for text in line:
        after = _played(game, states[-1], [text])
        if after is None:
            return [f"{what}: {text} is not legal"]
        states.append(after)
    # the end of the solver's turn along the line
    end = next((i for i, s in enumerate(states) if i > 0 and (
        game.outcome(s) is not None or game.is_chance(s) or game.to_move(s) != seat)), None)
    if end is None:
        return [f"{what} does not reach the end of the turn"]
    outcome = game.outcome(states[end])
    won = outcome is not None and not outcome.draw and tuple(outcome.winners) == (seat,)
    last = game.outcome(states[-1])
    if goal == "win":
        if solution != won:
            return [f"{what} does not show {'the win' if solution else 'the failure'}"]
    elif goal == "safe" and not solution:
        if last is None or seat in last.winners or last.draw:
            return [f"{what} does not end in the next player's win"]
    elif goal == "most":  # the least over the deals, as the search counts it
        material = material_of(game)
        assert material is not None
        ends = [_played(game, w, line[:end]) for w in worlds]
        if any(e is None for e in ends):
            return [f"{what} is not legal in every deal"]
        gained = round(min(material(e, seat) for e in ends)
                       - min(material(w, seat) for w in worlds), 3)
        if gained != gains.get(move):
            return [f"{what} gains {gained}, not the most {move} can ({gains.get(move)})"]
    if solution and goal != "win" and last is not None and seat not in last.winners:
        return [f"{what} ends lost"]
    return []


# -- finding puzzles ---------------------------------------------------------------------------
def turns(game: Game, states: Sequence[Any]) -> list[int]:
    """The turn index of each position: a turn starts when a seat other than the last one
    to move is to move (rolls belong to no turn)."""
    found, turn, last = [], 0, None
    for state in states:
        mover = None if game.outcome(state) is not None or game.is_chance(state) \
            else game.to_move(state)
        if mover is not None and mover != last:
            if last is not None:
                turn += 1
            last = mover
        found.append(turn)
    return found


def scan(game: Game, states: Sequence[Any], *, limit: int, budget: int | None = None
         ) -> list[tuple[int, Found]]:
    """Up to `limit` puzzles of one game's positions (index, puzzle), never two of one turn,
    the less common goals and the larger choices first."""
    found: list[tuple[int, Found]] = []
    for i, state in enumerate(states):
        puzzle = analyse_goals(game, state, budget=budget)
        if puzzle is not None:
            found.append((i, puzzle))
    order = {goal: k for k, goal in enumerate(("safe", "win", "most"))}
    found.sort(key=lambda f: (order[f[1].goal], -f[1].legal, f[0]))
    kept: list[tuple[int, Found]] = []
    seen_turns: set[int] = set()
    seen_goals: set[str] = set()
    turn_of = turns(game, states)
    for rank in (0, 1):  # a goal not yet kept first, then any
        for i, puzzle in found:
            if len(kept) >= limit or turn_of[i] in seen_turns or \
                    (rank == 0 and puzzle.goal in seen_goals):
                continue
            kept.append((i, puzzle))
            seen_turns.add(turn_of[i])
            seen_goals.add(puzzle.goal)
    return sorted(kept, key=lambda f: f[0])


def puzzles_job(game_id: str, seat_count: int, options: dict[str, str],
                entries: Sequence[Sequence[str]], judged: Sequence[Any], level: str,
                seed: int = 0) -> list[dict[str, Any]]:
    """For a process pool: the puzzles of an analysed match, by the exhaustive goals (the
    judgements, level and seed are not needed: the search is exact), each {"ply", "seat",
    "solution", "goal", "line", "refutations", "themes", "turn", "margin"} (ply: the entries
    played before it; turn: the match's turn index; margin 1.0: exact)."""
    game = get_game(game_id)
    states, _ = replayed(game, game.new(seat_count, options), entries)
    turn_of = turns(game, states)
    kept = []
    for i, found in scan(game, states[:-1], limit=MAX_PER_MATCH):
        kept.append({"ply": i, "seat": game.to_move(states[i]), "solution": found.solution,
                     "goal": found.goal, "line": found.line,
                     "refutations": found.refutations, "themes": found.themes,
                     "turn": str(turn_of[i]), "gains": found.gains, "margin": 1.0})
    return kept


# -- the shipped sets ------------------------------------------------------------------------
LEVELS_PLAYED = ("easy", "easy", "normal")  # self-play levels, in turn (easy errs more)
PER_GAME = 2  # puzzles kept from one self-play game at most
MAX_PLIES = 400  # a self-play game longer than this is cut (its positions still count)


def self_play(game: Game, seats: int, options: Mapping[str, str], level: str, seed: int
              ) -> tuple[dict[str, str], list[list[str]], list[Any]]:
    """One AI self-play game from the seed (rolls and drawn options from the same seed):
    its options, entries and states."""
    import random

    from .ai import choose_move

    rng = random.Random(seed)
    chosen = game.draw_options(options, rng)
    state = game.new(seats, chosen)
    entries: list[list[str]] = []
    states = [state]
    while game.outcome(state) is None and len(entries) < MAX_PLIES:
        if game.is_chance(state):
            move = rng.choice(game.legal_moves(state))
        else:
            move = choose_move(game, state, level=level, seed=rng.randrange(2**31),
                               time_cap=None)
        entries.append(["move", game.format_move(state, move)])
        state = game.apply(state, move)
        states.append(state)
    return game.options_of(state), entries, states


def generate(game_id: str, count: int = 36, seed: int = 0, max_games: int = 400,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """A kit's puzzle set (the JSON object `curated` reads) from AI self-play over its
    set-ups (those its `puzzle_themes.SETUPS` names, if it does) at LEVELS_PLAYED (or its
    `puzzle_themes.LEVELS`), game after game from
    `seed` until an eighth more than `count` puzzles are found (PER_GAME a game at most) or
    `max_games` are played; then the goals are balanced: each in turn gives its next puzzle
    (the larger choices first) until `count`."""
    kit = KITS[game_id]
    game = kit.game
    pool: list[dict[str, Any]] = []
    wanted = getattr(kit_module(game, "puzzle_themes"), "SETUPS", None)
    setups = [s for s in kit.setups if wanted is None or s.label in wanted]
    levels = tuple(getattr(kit_module(game, "puzzle_themes"), "LEVELS", LEVELS_PLAYED))
    for g in range(max_games):
        setup = setups[g % len(setups)]
        level = levels[g % len(levels)]
        source = f"s{seed + g}"
        options, entries, states = self_play(game, setup.seats, setup.options, level, seed + g)
        turn_of = turns(game, states)
        for i, found in scan(game, states[:-1], limit=PER_GAME):
            pool.append({
                "key": f"{game_id}:{source}:{i}", "seats": game.seats(states[i]),
                "options": options, "entries": entries[:i], "seat": game.to_move(states[i]),
                "goal": found.goal, "solution": found.solution, "line": found.line,
                "refutations": found.refutations, "themes": found.themes,
                "turn": f"{source}:{turn_of[i]}", "gains": found.gains,
                "legal": found.legal})
        if progress is not None:
            progress(f"game {g + 1} ({setup.label}, {level}): {len(pool)} found")
        if len(pool) >= count + count // 8:  # a few more than needed, to balance the goals
            break
    chosen = _balanced(pool, count)
    names = theme_names(game)
    used = sorted({t for p in chosen for t in p["themes"]})
    for p in chosen:
        del p["legal"]
        if not p["gains"]:
            del p["gains"]
    return {"format": 1, "game": game_id, "themes": {t: names[t] for t in used},
            "puzzles": sorted(chosen, key=lambda p: _key_order(p["key"]))}


def _key_order(key: str) -> tuple[int, int]:
    _, source, ply = key.split(":")
    return int(source[1:]), int(ply)


def _balanced(pool: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """`count` puzzles of `pool`, each goal in turn giving its next (most legal moves first,
    a theme not yet chosen first)."""
    by_goal: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(pool, key=lambda p: (-p["legal"], _key_order(p["key"]))):
        by_goal.setdefault(p["goal"], []).append(p)
    chosen: list[dict[str, Any]] = []
    themes: set[str] = set()
    while len(chosen) < count and any(by_goal.values()):
        for goal in sorted(by_goal):
            queue = by_goal[goal]
            if not queue or len(chosen) >= count:
                continue
            fresh = next((p for p in queue if not set(p["themes"]) <= themes), queue[0])
            queue.remove(fresh)
            chosen.append(fresh)
            themes.update(fresh["themes"])
    return chosen


def write_set(data: Mapping[str, Any]) -> str:
    """A set's file text: stable (sorted keys, one puzzle a line block) so that a rerun with
    the same arguments writes the same bytes."""
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
