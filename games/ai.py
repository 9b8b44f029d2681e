"""A computer opponent for every game: the entry points, levels, and what a seat may know.

The search is generic (games/search.py, ISMCTS); what it knows of a game comes from the game's
kit (`Kit.ai`, a module defining `KNOWLEDGE`, imported on the first search of that game), and a
kit may bring a search of its own: the two-player perfect-information games (Progressive
Mancala, Pastoral Square, two-player ICO) play normal and hard with alpha-beta over their kit's
fast engine (`games.search.AlphaBeta`), each kit's docstring saying why.

What the AI may know is fixed here, by construction: for a game with hidden information the
search gets neither the true state nor anything built from it, only a sampler built by the
kit's resampler from `observe(state, seat)`.

Levels are iteration budgets with a wall-clock cap (a kit may scale the budget: `Tuning.budget`).
Given a seed and a budget the choice is deterministic, as long as the cap does not stop the
search first (`time_cap=None` disables it).

What the levels mean (issue 30, measured by bench/strength.py against a uniformly random
player and a one-ply greedy one): easy is a beginner, who beats random play but loses to a
player who sees one move ahead; normal is a casual player, who beats greedy and a depth-2
alpha-beta; hard is as strong as its cap allows. In the two-player games easy is a small search
with a deliberate imperfection, chosen by each kit: Progressive Mancala, the Monte Carlo search
(80 iterations, which sees captures but not their replies); Pastoral Square, one ply over an
evaluation of its own chances only, with softmax noise (`games.search.noisy_one_ply`: it never
misses a win at once, and otherwise draws a move with weight exp(value / temperature), from the
seed); two-seat ICO, a few random continuations of each move (seven at level 1, three at the
bigger patterns) in which the opponent overlooks its wins (`games.ico.ai.glance`). All stay
deterministic given the seed.

Standard library only. For the bot (run it in a process pool, it is CPU-bound):

    choose_move_job(game_id, state_json, seat, level="normal", seed=0) -> notation
    random_legal_move(game_id, state_json, seed=0) -> notation   (a cheap fallback)

and for post-game analysis `estimate(game, state, level=...) -> (move, chance per seat)`
(games/analysis.py replays a finished game through it).

Both raise AiError (a GameError) when the game is over, a die roll is due or `seat` is not
to move. A search takes at most its level's cap (easy 0.2 s, normal 1.8 s, hard 5 s) plus
a few milliseconds; a single legal move is returned at once.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any

from . import get_game, get_kit
from .base import Game
from .search import (  # noqa: F401  (re-exported: the AI's vocabulary in one place)
    DEFAULT_KNOWLEDGE,
    AiError,
    Decision,
    Knowledge,
    Sampler,
    Search,
    Tuning,
    outcome_rewards,
)


@dataclass(frozen=True)
class Level:
    name: str
    iterations: int
    time_cap: float  # seconds of search at most


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 80, 0.2),
    "normal": Level("normal", 800, 1.8),
    "hard": Level("hard", 2400, 5.0),
}

_knowledge: dict[str, Knowledge] = {}


def knowledge_for(game: Game) -> Knowledge:
    """The kit's knowledge of `game` (imported once per process), or the defaults."""
    found = _knowledge.get(game.id)
    if found is None:
        path = get_kit(game.id).ai
        found = DEFAULT_KNOWLEDGE if path is None else importlib.import_module(path).KNOWLEDGE
        if not isinstance(found, Knowledge):
            raise TypeError(f"{path}.KNOWLEDGE is not a games.search.Knowledge")
        _knowledge[game.id] = found
    return found


def sampler_for(game: Game, state: Any, seat: int) -> Sampler:
    """What `seat` may search from. For a game with hidden information only the seat's
    observation goes into the sampler: the true state goes no further than this function."""
    if game.info.hidden_information:
        resampler = knowledge_for(game).resampler
        if resampler is None:
            raise AiError(f"{game.name} hides information and its kit has no resampler")
        return resampler(game.observe(state, seat))
    return lambda rng: state


# -- the entry points ------------------------------------------------------------------------
def _check_turn(game: Game, state: Any) -> int:
    if game.outcome(state) is not None:
        raise AiError("the game is over")
    if game.is_chance(state):
        raise AiError("a die roll is due: the host rolls before anyone moves")
    seat = game.to_move(state)
    if seat is None:
        raise AiError("nobody is to move")
    return seat


def choose_move(game: Game, state: Any, *, level: str = "normal", seed: int = 0,
                iterations: int | None = None, time_cap: float | None = -1.0,
                seat: int | None = None) -> Any:
    """The move the AI plays for the seat to move (raises AiError if nobody can move).

    `iterations` overrides the level's budget; `time_cap` -1 means the level's cap, None no
    cap. A single legal move is played at once."""
    to_move = _check_turn(game, state)
    if seat is not None and seat != to_move:
        raise AiError(f"seat {seat + 1} is not to move")
    legal = game.legal_moves(state)
    if len(legal) == 1:
        return legal[0]
    return knowledge_for(game).choose(_decision(game, state, level, seed, iterations,
                                                time_cap, seat))


def estimate(game: Game, state: Any, *, level: str = "hard", seed: int = 0,
             iterations: int | None = None, time_cap: float | None = -1.0) -> tuple[Any, list]:
    """(the move the AI plays for the seat to move, each seat's estimated chance of winning),
    for post-game analysis (games/analysis.py). It knows what `choose_move` knows: with
    hidden information only the observation of the seat to move. A single legal move is
    still searched, for its estimate."""
    decision = _decision(game, state, level, seed, iterations, time_cap, None)
    return knowledge_for(game).judge(decision)


def _decision(game: Game, state: Any, level: str, seed: int, iterations: int | None,
              time_cap: float | None, seat: int | None) -> Decision:
    to_move = _check_turn(game, state)
    if seat is not None and seat != to_move:
        raise AiError(f"seat {seat + 1} is not to move")
    spec = LEVELS[level]
    legal = game.legal_moves(state)
    knowledge = knowledge_for(game)
    budget = (round(spec.iterations * knowledge.tuning.budget) if iterations is None
              else iterations)
    hidden = game.info.hidden_information
    return Decision(
        game=game, seat=to_move, seats=game.seats(state), legal=legal,
        sampler=sampler_for(game, state, to_move), position=None if hidden else state,
        level=level, iterations=budget, time_cap=spec.time_cap if time_cap == -1.0 else time_cap,
        seed=seed)


def choose_move_job(game_id: str, state_json: dict, seat: int, level: str = "normal",
                    seed: int = 0) -> str:
    """For a process pool (top level, picklable arguments): the notation of the AI's move
    for `seat` in the saved state `state_json`."""
    game = get_game(game_id)
    state = game.from_json(state_json)
    return game.format_move(state, choose_move(game, state, level=level, seed=seed, seat=seat))


def random_legal_move(game_id: str, state_json: dict, seed: int = 0) -> str:
    """A cheap fallback: a uniformly random legal move's notation."""
    game = get_game(game_id)
    state = game.from_json(state_json)
    _check_turn(game, state)
    legal = game.legal_moves(state)
    return game.format_move(state, random.Random(seed).choice(legal))
