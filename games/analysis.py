"""Post-game analysis: each seat's chance of winning along a finished game, and its mistakes.

Pure and standard library only, so that the bot can run it in its worker pool as it runs the
AI (`analyse_job` takes and returns plain data) and `python -m games analyse FILE` can print it.

Every position of the game is searched once by an AI level (`games.ai.estimate`): that gives
the move the level prefers there and each seat's estimated chance of winning before the move.
A move's loss is how much it lowered its mover's chance: the estimate before it minus the
estimate of the position it led to (the next position's search, or the result once the game is
over), never below 0, and 0 when the move is the one the level prefers (the two estimates
differ only by the search's horizon, which is no fault of the player). The mistakes are the
three largest losses beyond the search's own noise (`NOISE`), largest first.

Each position's search is cut to `position_cap(level)` seconds (at most the level's cap), so
that the bot can show its progress position by position.

Each mistake is explained by two lines of a few plies (`LINE_PLIES`), searched at the same
level with a share of a position's budget (`LINE_SHARE`) at each ply: the refutation (the move
played, then the best replies to it) and the better line (the preferred move, then the best
replies to it). A line stops early at the end of the game or where a die roll is due.

Die rolls are moves of the record too (they count in the indexes), played by nobody: their seat
and preferred move are None, their loss 0, and their estimate is the position after the roll
(the search cannot run where a roll is due).

Hidden information: a finished Consequence game shows every tile, so its whole record is public
at its end; even so each position is searched, as the AI always is, from the observation of the
seat to move alone (what that player could know when they moved). A record that is not finished
is refused for such a game: its record still holds what a seat has not shown. Every ply of
a line is searched the same way, from the observation of the seat to move there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from . import get_game
from .base import Game, GameError
from .record import RecordError, parse_record, replay_record

# A move's loss counts as a mistake only beyond the search's own noise at that level, each kit's
# (`Knowledge.noise`: the 95th percentile of how far apart the search's estimates of the
# mover's chance fall where nothing was lost, measured by bench/analysis_noise.py); these are
# the defaults for a kit that has not measured its own.
NOISE: dict[str, float] = {"easy": 0.10, "normal": 0.06, "hard": 0.06}
# and never below this, whatever the noise: a smaller swing is not worth a player's attention
NOTICEABLE = 0.05
POSITION_CAP = 2.0  # seconds of search per position at most (less if the level's cap is less)
LINE_PLIES = 3  # plies of a line: the move, then two replies
LINE_SHARE = 0.25  # of a position's budget (iterations and cap), for each ply of a line


def noise(game: Game, level: str) -> float:
    """The largest loss of chance that is no mistake at `level`: the search's own noise, at
    least `NOTICEABLE`."""
    from .ai import knowledge_for

    return max(NOTICEABLE, knowledge_for(game).noise.get(level, NOISE[level]))


def position_cap(level: str) -> float:
    """The seconds an analysis searches one position at `level`."""
    from .ai import LEVELS

    return min(LEVELS[level].time_cap, POSITION_CAP)


class AnalysisError(GameError):
    """A record that cannot be analysed (not finished with hidden information, no moves)."""


@dataclass
class MoveNote:
    index: int  # 1-based position among all moves of the record, die rolls included
    seat: int | None  # 0-based seat that played it; None for a die roll
    move: str  # its notation
    best: str | None  # the move the level prefers; None for a die roll
    win: list[float]  # each seat's estimated chance of winning before the move
    loss: float  # how much the move lowered its mover's chance (0 for the level's choice)
    # for a mistake: [seat, notation] of each ply of the refutation (the move played first) and
    # of the better line (the preferred move first); empty for every other move
    refutation: list[list[Any]] = field(default_factory=list)
    better: list[list[Any]] = field(default_factory=list)


@dataclass
class Analysis:
    game: str
    level: str
    moves: list[MoveNote] = field(default_factory=list)
    mistakes: list[int] = field(default_factory=list)  # indexes, largest loss first
    final: list[float] = field(default_factory=list)  # each seat's share of the result

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape (seats 1-based, chances rounded to 3 decimals)."""
        return {
            "game": self.game,
            "moves": [{"index": m.index, "seat": None if m.seat is None else m.seat + 1,
                       "move": m.move, "best": m.best,
                       "win": [round(w, 3) for w in m.win], "loss": round(m.loss, 3),
                       **({"refutation": _seats_1(m.refutation), "better": _seats_1(m.better)}
                          if m.refutation or m.better else {})}
                      for m in self.moves],
            "mistakes": self.mistakes,
        }


def _seats_1(line: list[list[Any]]) -> list[list[Any]]:
    return [[seat + 1, notation] for seat, notation in line]


def result_shares(game: Game, state: Any) -> list[float]:
    """Each seat's share of a finished game's result (a shared win split)."""
    outcome = game.outcome(state)
    seats = game.seats(state)
    shares = [0.0] * seats
    if outcome is None:
        return [1.0 / seats] * seats
    for seat in outcome.winners:
        shares[seat] = 1.0 / len(outcome.winners)
    return shares


def analyse(game: Game, start: Any, notations: list[str], *, level: str = "hard",
            seed: int = 0, time_cap: float | None = -1.0,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse the game played from `start` by `notations` (raises GameError on an illegal
    move). `progress(i, n)` is called before position i of n is searched."""
    from .ai import LEVELS

    if level not in LEVELS:
        raise AnalysisError(f"unknown level {level!r}: {', '.join(LEVELS)}")
    states, moves = replayed(game, start, [("move", text) for text in notations])
    final = states[-1]
    if game.info.hidden_information and game.outcome(final) is None:
        raise AnalysisError("the game is not finished: a game with hidden information is "
                            "analysed only once everything in it is public")
    judged: list[Judgement] = []
    for i, state in enumerate(states[:-1]):
        if progress is not None:
            progress(i + 1, len(moves))
        judged.append(judge(game, state, level=level, seed=seed + i, time_cap=time_cap))
    return assemble(game, states, moves, judged, level=level, seed=seed, time_cap=time_cap)


# What the search said of one position: (the move it prefers, each seat's chance), or None
# where nobody chooses (a die roll is due, or the turn was skipped after a timeout); a forced
# move (a single legal one) is not searched: (it, []), its chances those of the next position
Judgement = tuple[Any, list[float]] | None
SKIP = "—"  # how a skipped turn (a platform action, not a move) is written in an analysis


def replayed(game: Game, start: Any, entries: Sequence[Sequence[str]]
             ) -> tuple[list[Any], list[Any]]:
    """The states after 0, 1, … n entries ((kind, notation): "move", or "skip" for a turn
    skipped after a timeout) and the moves played (None for a skip)."""
    states = [start]
    moves: list[Any] = []
    for kind, text in entries:
        if kind == "skip":
            moves.append(None)
            states.append(game.skip(states[-1]))
            continue
        move = game.parse_move(states[-1], text)
        moves.append(move)
        states.append(game.apply(states[-1], move))
    return states, moves


def judge(game: Game, state: Any, *, level: str, seed: int, time_cap: float | None = -1.0,
          iterations: int | None = None, skipped: bool = False) -> Judgement:
    """One position's judgement (None where a die roll is due, or the turn was `skipped`).
    `time_cap` -1 is the analysis's cap at the level (`position_cap`)."""
    from .ai import estimate

    if skipped or game.is_chance(state):
        return None
    legal = game.legal_moves(state)
    if len(legal) == 1:  # a forced move changes no one's chances: those of the next position
        return legal[0], []
    best, chances = estimate(game, state, level=level, seed=seed,
                             time_cap=position_cap(level) if time_cap == -1.0 else time_cap,
                             iterations=iterations)
    return best, list(chances)


Line = list[list[Any]]  # [seat, notation] a ply


def line_from(game: Game, state: Any, first: Any, *, level: str, seed: int,
              time_cap: float | None = -1.0, plies: int = LINE_PLIES) -> Line:
    """The line that starts with the move `first` in `state`, then the moves the level plays
    (each searched from the observation of the seat to move, with `LINE_SHARE` of a position's
    budget), `plies` in all or fewer if the game ends or a die roll is due."""
    from .ai import LEVELS, choose_move, knowledge_for

    cap = position_cap(level) if time_cap == -1.0 else time_cap
    budget = max(1, round(LEVELS[level].iterations * knowledge_for(game).tuning.budget
                          * LINE_SHARE))
    seat = game.to_move(state)
    assert seat is not None
    line: Line = [[seat, game.format_move(state, first)]]
    state = game.apply(state, first)
    while len(line) < plies and game.outcome(state) is None and not game.is_chance(state):
        mover = game.to_move(state)
        if mover is None:
            break
        move = choose_move(game, state, level=level, seed=seed + len(line), iterations=budget,
                           time_cap=None if cap is None else cap * LINE_SHARE)
        line.append([mover, game.format_move(state, move)])
        state = game.apply(state, move)
    return line


def explain(game: Game, state: Any, played: Any, best: Any, *, level: str, seed: int,
            time_cap: float | None = -1.0) -> tuple[Line, Line]:
    """(the refutation, the better line) of the move `played` in `state`, where the level
    prefers `best`."""
    return (line_from(game, state, played, level=level, seed=seed, time_cap=time_cap),
            line_from(game, state, best, level=level, seed=seed + 100, time_cap=time_cap))


def assemble(game: Game, states: list[Any], moves: list[Any], judged: list[Judgement], *,
             level: str, seed: int = 0, time_cap: float | None = -1.0,
             lines: bool = True) -> Analysis:
    """The analysis of a game from each position's judgement (`states` has one more item
    than `moves` and `judged`: the final position), its mistakes explained if `lines` (else
    `explain_job` does it, one mistake at a time)."""
    from .ai import estimate

    final = states[-1]
    cap = position_cap(level) if time_cap == -1.0 else time_cap
    after = result_shares(game, final) if game.outcome(final) is not None else (
        list(estimate(game, final, level=level, seed=seed + len(moves),
                      time_cap=cap)[1]) if not game.is_chance(final) else None)
    chances: list[list[float] | None] = [None if j is None or not j[1] else list(j[1])
                                         for j in judged]
    chances.append(after)
    for i in range(len(chances) - 2, -1, -1):  # a roll or a forced move: the position after it
        if chances[i] is None:
            chances[i] = chances[i + 1]
    seats = game.seats(states[0])
    even = [1.0 / seats] * seats
    analysis = Analysis(game.id, level, final=result_shares(game, final))
    for i, (state, move) in enumerate(zip(states[:-1], moves, strict=True)):
        before = chances[i] or even
        nxt = chances[i + 1] or before
        note = judged[i]
        if note is None:
            text = SKIP if move is None else game.format_move(state, move)
            analysis.moves.append(MoveNote(i + 1, None, text, None, before, 0.0))
            continue
        seat = game.to_move(state)
        assert seat is not None
        best, _ = note
        loss = 0.0 if best == move else max(0.0, before[seat] - nxt[seat])
        analysis.moves.append(MoveNote(i + 1, seat, game.format_move(state, move),
                                       game.format_move(state, best), before, loss))
    threshold = noise(game, level)
    ranked = sorted((m for m in analysis.moves if m.loss > threshold),
                    key=lambda m: (-m.loss, m.index))
    analysis.mistakes = [m.index for m in ranked[:3]]
    if lines:
        for index in analysis.mistakes:
            state, note = states[index - 1], judged[index - 1]
            assert note is not None
            m = analysis.moves[index - 1]
            m.refutation, m.better = explain(game, state, moves[index - 1], note[0],
                                             level=level, seed=seed + 1000 * index,
                                             time_cap=time_cap)
    return analysis


def public_at_end(game: Game, state: Any) -> bool:
    """Whether nothing of `state` is hidden from anyone any more: always for a game without
    hidden information; for one with it, when every seat's observation, its own hand left
    aside (which must be empty), is the public one (a finished Consequence game at its final
    count shows every tile; one ended by a repetition, a resignation or a timeout does not)."""
    if not game.info.hidden_information:
        return True
    public = game.observe(state, None)
    for seat in range(game.seats(state)):
        seen = game.observe(state, seat)
        if (not dataclasses.is_dataclass(seen) or isinstance(seen, type)
                or getattr(seen, "hand", None)):
            return False
        names = {f.name for f in dataclasses.fields(seen)}
        leave = {name: None for name in ("viewer", "hand") if name in names}
        if dataclasses.replace(seen, **leave) != dataclasses.replace(public, **leave):
            return False
    return True


def analyse_record(text: str, *, level: str = "hard", seed: int = 0,
                   time_cap: float | None = -1.0,
                   progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse a record's text (games/record.py; raises RecordError naming the line)."""
    record = parse_record(text)
    game, _ = replay_record(record)  # every line checked, errors name it
    start = game.new(record.seats, record.options)
    if not record.moves:
        raise RecordError(1, f"# game: {record.game}", "the record has no moves to analyse")
    return analyse(game, start, [notation for _, notation in record.moves], level=level,
                   seed=seed, time_cap=time_cap, progress=progress)


def analyse_job(game_id: str, start_json: dict, notations: list[str], level: str = "hard",
                seed: int = 0) -> dict[str, Any]:
    """For a process pool (top level, plain data in and out): `Analysis` as a dict."""
    game = get_game(game_id)
    return asdict(analyse(game, game.from_json(start_json), notations, level=level, seed=seed))


def judge_job(game_id: str, seat_count: int, options: dict[str, str],
              entries: Sequence[Sequence[str]], index: int, level: str = "hard",
              seed: int = 0) -> list[Any] | None:
    """For a process pool: the judgement of the position before entry `index` (0-based) of
    a match's effective log, as plain data ([preferred notation, chances], or None)."""
    game = get_game(game_id)
    states, _ = replayed(game, game.new(seat_count, options), entries[:index])
    found = judge(game, states[-1], level=level, seed=seed,
                  skipped=entries[index][0] == "skip")
    if found is None:
        return None
    return [game.format_move(states[-1], found[0]), found[1]]


def assemble_job(game_id: str, seat_count: int, options: dict[str, str],
                 entries: Sequence[Sequence[str]], judged: Sequence[Any], level: str = "hard",
                 seed: int = 0) -> dict[str, Any]:
    """For a process pool: the analysis (`Analysis` as a dict) from every position's
    judgement as `judge_job` gave it."""
    game = get_game(game_id)
    states, moves = replayed(game, game.new(seat_count, options), entries)
    if len(judged) != len(moves):
        raise AnalysisError(f"{len(judged)} judgements for {len(moves)} moves")
    notes: list[Judgement] = [
        None if j is None else (game.parse_move(state, j[0]), [float(w) for w in j[1]])
        for state, j in zip(states, judged, strict=False)]
    return asdict(assemble(game, states, moves, notes, level=level, seed=seed, lines=False))


def explain_job(game_id: str, seat_count: int, options: dict[str, str],
                entries: Sequence[Sequence[str]], index: int, best: str, level: str = "hard",
                seed: int = 0) -> list[Line]:
    """For a process pool: [the refutation, the better line] of the move at entry `index`
    (1-based, as in `Analysis.mistakes`), where the level prefers the notation `best`."""
    game = get_game(game_id)
    states, moves = replayed(game, game.new(seat_count, options), entries[:index])
    refutation, better = explain(game, states[-2], moves[-1], game.parse_move(states[-2], best),
                                 level=level, seed=seed + 1000 * index)
    return [refutation, better]


def _line_text(line: Line) -> str:
    """A line for the table: "k, seat 2 j, seat 2 f"."""
    return ", ".join(notation if n == 0 else f"seat {seat + 1} {notation}"
                     for n, (seat, notation) in enumerate(line))


def format_table(analysis: Analysis) -> str:
    """A readable table: one line a move, the mistakes marked, then the mistakes listed."""
    seats = len(analysis.final)
    head = f"{'#':>4}  {'seat':<5}{'move':<14}{'best':<14}" + "".join(
        f"{'P' + str(s + 1):>7}" for s in range(seats)) + f"{'loss':>8}"
    lines = [f"{analysis.game}: analysed at level {analysis.level}", head]
    marks = {index: rank for rank, index in enumerate(analysis.mistakes, 1)}
    for m in analysis.moves:
        seat = "-" if m.seat is None else str(m.seat + 1)
        mark = f"  <- mistake {marks[m.index]}" if m.index in marks else ""
        lines.append(f"{m.index:>4}  {seat:<5}{m.move:<14}{m.best or '-':<14}"
                     + "".join(f"{w:>7.0%}" for w in m.win) + f"{m.loss:>8.2f}{mark}")
    lines.append("result: " + ", ".join(f"seat {s + 1} {v:.0%}"
                                          for s, v in enumerate(analysis.final)))
    if analysis.mistakes:
        lines.append("largest mistakes: " + "; ".join(
            f"move {m.index} (seat {(m.seat or 0) + 1}) {m.move}, better {m.best}, "
            f"-{m.loss:.0%}" for i in analysis.mistakes for m in [analysis.moves[i - 1]]))
        for i in analysis.mistakes:
            m = analysis.moves[i - 1]
            if m.refutation or m.better:
                lines.append(f"  move {i}: played {_line_text(m.refutation)}; better "
                             f"{_line_text(m.better)}")
    else:
        lines.append("no mistakes found")
    return "\n".join(lines) + "\n"
