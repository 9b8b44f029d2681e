"""Command line for game records, usable without Discord.

    python -m games list
    python -m games replay FILE
    python -m games moves FILE
    python -m games play GAME [--seats N] [--option name=value ...] [--out FILE]
                         [--ai easy|normal|hard] [--ai-seat N ...]
    python -m games ai FILE [--level easy|normal|hard] [--seed N] [--iterations N]
    python -m games learn GAME [--lang en|ja]
    python -m games analyse FILE [--level easy|normal|hard] [--json] [--seed N]
    python -m games puzzles GAME [--count N] [--seed S] [--out PATH]

Errors in a record exit with status 2 and `line N: '<text>': <reason>` on stderr. Pictures of a
record: `python -m render FILE -o board.png` (render/__main__.py).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from . import REGISTRY, Game, GameError, get_game, replay
from .record import Record, RecordError, format_record, parse_record, replay_record


class CliError(Exception):
    """Exit with status 2 and this message."""


def _load(path: str) -> tuple[Record, Game, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"{path}: cannot read the record: {exc}") from None
    try:
        record = parse_record(text)
        game, state = replay_record(record)
    except RecordError as exc:
        raise CliError(str(exc)) from None
    return record, game, state


def cmd_list(args, out: TextIO) -> None:
    for game in REGISTRY.values():
        opts = "; ".join(f"{o.name}={'|'.join(o.choices)} (default {o.default})"
                         for o in game.info.options) or "no options"
        out.write(f"{game.id:<20} {game.name:<20} players {game.seats_text():<4} {opts}\n")


def cmd_replay(args, out: TextIO) -> None:
    record, game, state = _load(args.file)
    outcome = game.outcome(state)
    to_move = game.to_move(state)
    scores = game.scores(state)
    summary = {
        "game": game.id,
        "finished": outcome is not None,
        "winners": [seat + 1 for seat in outcome.winners] if outcome else [],
        "scores": list(scores) if scores is not None else None,
        "to_move": None if to_move is None else to_move + 1,
        "moves": len(record.moves),
    }
    out.write(json.dumps(summary) + "\n")


def cmd_moves(args, out: TextIO) -> None:
    _, game, state = _load(args.file)
    for notation in game.legal_notations(state):
        out.write(notation + "\n")


def cmd_ai(args, out: TextIO) -> None:
    """One legal move for the seat to move after the record, and nothing else on stdout.
    With --seed or --iterations the wall-clock cap is off (unless --time-cap), so that the
    same input gives the same move."""
    from .ai import AiError, choose_move

    _, game, state = _load(args.file)
    deterministic = args.seed is not None or args.iterations is not None
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    time_cap = args.time_cap if args.time_cap is not None else (None if deterministic else -1.0)
    try:
        move = choose_move(game, state, level=args.level, seed=seed,
                           iterations=args.iterations, time_cap=time_cap)
    except AiError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    out.write(game.format_move(state, move) + "\n")


def cmd_analyse(args, out: TextIO) -> None:
    """Each seat's estimated chance of winning before every move of a record, the move the
    level prefers, and the three largest mistakes (games/analysis.py). With --json one object:
    {"game", "moves": [{"index", "seat", "move", "best", "win", "loss"}], "mistakes"}, seats
    1-based as in `replay`, `index` counting every move of the record, die rolls included."""
    from .ai import LEVELS
    from .analysis import AnalysisError, analyse_record, format_table

    if args.level not in LEVELS:
        raise CliError(f"unknown level '{args.level}': use {', '.join(LEVELS)}")
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"{args.file}: cannot read the record: {exc}") from None
    progress = None
    if not args.json and not args.quiet:
        def progress(i: int, n: int) -> None:
            print(f"analysing move {i} of {n}", end="\r", file=sys.stderr, flush=True)
    try:
        analysis = analyse_record(text, level=args.level, seed=args.seed, progress=progress)
    except (RecordError, AnalysisError) as exc:
        raise CliError(f"{args.file}: {exc}") from None
    if progress is not None:
        print(" " * 40, end="\r", file=sys.stderr, flush=True)
    if args.json:
        out.write(json.dumps(analysis.to_json()) + "\n")
    else:
        out.write(format_table(analysis))


def cmd_play(args, out: TextIO, inp: TextIO = sys.stdin) -> None:
    try:
        game = get_game(args.game)
        options = game.draw_options(dict(_split_option(o) for o in args.option),
                                    secrets.SystemRandom())  # e.g. ICO's start face
        state = game.new(args.seats, options)
    except GameError as exc:
        raise CliError(str(exc)) from None
    start = state
    moves: list[str] = []
    ai_seats: set[int] = set()
    if args.ai is not None:
        seats = game.seats(state)
        ai_seats = ({s - 1 for s in args.ai_seat} if args.ai_seat
                    else set(range(1, seats)))  # the human plays seat 1
        if not ai_seats or any(not 0 <= s < seats for s in ai_seats):
            raise CliError(f"--ai-seat: seats are 1 to {seats}")
    out.write(f"{game.name}: type a move, 'undo', or 'quit'. Seat 1 moves first.\n")
    if ai_seats:
        out.write("the AI plays seat " + ", ".join(str(s + 1) for s in sorted(ai_seats))
                  + f" ({args.ai})\n")
    dice = secrets.SystemRandom()
    while game.outcome(state) is None:
        if game.is_chance(state):  # the host's roll, drawn here and kept in the record
            move = dice.choice(game.legal_moves(state))
            moves.append(game.format_move(state, move))
            out.write(f"the host: {moves[-1]}\n")
            state = game.apply(state, move)
            continue
        if game.to_move(state) in ai_seats:
            from .ai import choose_move

            move = choose_move(game, state, level=args.ai, seed=dice.randrange(2**32))
            moves.append(game.format_move(state, move))
            # the channel's notation: the AI's hidden choices stay hidden from the human
            out.write(f"the AI (seat {(game.to_move(state) or 0) + 1}): "
                      f"{game.public_notation(state, move)}\n")
            state = game.apply(state, move)
            continue
        out.write("\n" + game.describe(state) + "\n")
        seat = game.to_move(state)
        out.write(f"legal: {' '.join(game.legal_notations(state))}\n")
        out.write(f"seat {(seat or 0) + 1}> ")
        out.flush()
        line = inp.readline()
        if not line:
            break
        text = line.strip()
        if not text:
            continue
        if text in ("quit", "exit"):
            break
        if text == "undo":
            # take back the AI's and the host's moves since the human's last one, and it
            kept = list(moves)
            while moves and _not_human(game, start, moves, ai_seats):
                moves.pop()
            if moves:
                moves.pop()
                state = replay(game, moves, seats=args.seats, options=options)
            else:
                moves = kept
                out.write("nothing to undo\n")
            continue
        try:
            move = game.parse_move(state, text)
            notation = game.format_move(state, move)
            state = game.apply(state, move)
        except GameError as exc:
            out.write(f"not played: {exc}\n")
            continue
        moves.append(notation)
    out.write("\n" + game.describe(state) + "\n")
    outcome = game.outcome(state)
    if outcome is not None:
        if outcome.draw:
            out.write(f"draw ({outcome.cause})\n")
        else:
            won = ", ".join(f"seat {w + 1}" for w in outcome.winners)
            out.write(f"{won} wins ({outcome.cause})\n")
    meta = {"date": dt.date.today().isoformat()}
    if outcome is not None:
        meta["result"] = ("draw" if outcome.draw else
                          "winners " + " ".join(str(w + 1) for w in outcome.winners))
    path = Path(args.out or f"{game.id}-{dt.datetime.now():%Y%m%d-%H%M%S}.txt")
    path.write_text(format_record(game, start, moves, meta=meta), encoding="utf-8")
    out.write(f"record saved to {path}\n")


def cmd_learn(args, out: TextIO, inp: TextIO | None = None) -> None:
    """A game's lesson in the terminal, as /learn plays it in Discord (games/lessons.py)."""
    from . import lessons

    inp = inp if inp is not None else sys.stdin

    try:
        lesson = lessons.lesson_for(args.game)
    except GameError as exc:
        raise CliError(str(exc)) from None
    except lessons.LessonError as exc:
        raise CliError(f"the lesson of {args.game} is broken: {exc}") from None
    if lesson is None:
        raise CliError(f"{args.game} has no lesson yet")
    lang = args.lang
    game = lesson.game
    out.write(f"{lesson.title.get(lang)}  ('quit' to stop)\n")
    state = lessons.start(lesson)
    shown = -1
    while not lessons.done(lesson, state):
        step = lessons.current(lesson, state)
        assert step is not None
        if shown != state.step:
            shown = state.step
            out.write(f"\n[{state.step + 1}/{len(lesson.steps)}] {step.text.get(lang)}\n\n")
            out.write(game.describe(step.position) + "\n\n")
            out.write(step.task.get(lang) + "\n")
            if step.is_question:
                for number, choice in enumerate(step.choices, 1):
                    out.write(f"  {number}. {choice.text.get(lang)}\n")
            else:
                out.write(f"legal: {' '.join(game.legal_notations(step.position))}\n")
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line or line.strip() in ("quit", "exit"):
            out.write("\n")
            return
        text = line.strip()
        if not text:
            continue
        if step.is_question and text.isdigit() and 1 <= int(text) <= len(step.choices):
            text = step.choices[int(text) - 1].id
        state, verdict = lessons.answer(lesson, state, text)
        mark = "right" if verdict.correct else "not quite"
        words = f": {verdict.text.get(lang)}" if verdict.text is not None else ""
        out.write(f"{mark}{words}\n")
        if verdict.reply:
            out.write(f"reply: {' '.join(verdict.reply)}\n")
    out.write(f"\nlesson done ({state.mistakes} wrong answer(s) on the way). "
              f"Try a match: python -m games play {game.id} --ai easy\n")


def cmd_puzzles(args, out: TextIO) -> None:
    """A kit's curated puzzle set from AI self-play, checked by exhaustive search
    (games/puzzles.py), written to the kit's `puzzles` file (or --out): the same arguments
    write the same file."""
    from . import get_kit
    from .puzzles import generate, write_set

    try:
        kit = get_kit(args.game)
    except GameError as exc:
        raise CliError(str(exc)) from None
    path = Path(args.out) if args.out else kit.puzzles
    if path is None:
        raise CliError(f"{kit.id} has no puzzle file: give --out")

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    data = generate(kit.id, count=args.count, seed=args.seed, max_games=args.max_games,
                    progress=None if args.quiet else progress)
    path.write_text(write_set(data), encoding="utf-8")
    goals: dict[str, int] = {}
    for p in data["puzzles"]:
        goals[p["goal"]] = goals.get(p["goal"], 0) + 1
    out.write(f"{len(data['puzzles'])} puzzles of {kit.id} written to {path}: "
              + ", ".join(f"{g} {n}" for g, n in sorted(goals.items())) + "\n")


def _not_human(game: Game, start: Any, moves: list[str], ai_seats: set[int]) -> bool:
    """Whether the last of `moves` was played by the AI or the host."""
    state = start
    for text in moves[:-1]:
        state = game.play(state, text)
    return game.is_chance(state) or game.to_move(state) in ai_seats


def _split_option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise CliError(f"option '{text}': expected name=value")
    return name, value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the games, player counts and options")
    for name, text in (("replay", "replay a record and print a JSON summary"),
                       ("moves", "the legal moves after a record, one per line")):
        p = sub.add_parser(name, help=text)
        p.add_argument("file")
    p = sub.add_parser("play", help="a hot-seat match in the terminal")
    p.add_argument("game")
    p.add_argument("--seats", type=int)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--out", help="where to save the record (default: <game>-<time>.txt)")
    p.add_argument("--ai", choices=("easy", "normal", "hard"),
                   help="play against the AI (you play seat 1 unless --ai-seat says otherwise)")
    p.add_argument("--ai-seat", type=int, action="append", default=[], metavar="N",
                   help="a seat the AI plays (1-based; repeatable; default: every seat but 1)")
    p = sub.add_parser("ai", help="the AI's move for the seat to move after a record")
    p.add_argument("file")
    p.add_argument("--level", choices=("easy", "normal", "hard"), default="normal")
    p.add_argument("--seed", type=int, help="the same seed and record give the same move")
    p.add_argument("--iterations", type=int, help="search budget (overrides the level's)")
    p.add_argument("--time-cap", type=float, help="seconds of search at most")
    p = sub.add_parser("learn", help="a game's lesson, step by step")
    p.add_argument("game")
    p.add_argument("--lang", choices=("en", "ja"), default="en")
    p = sub.add_parser("analyse", help="each seat's chance of winning along a record, and "
                       "its largest mistakes, as the AI sees them")
    p.add_argument("file")
    p.add_argument("--level", default="hard", help="the AI level that judges (easy, normal, "
                   "hard; default hard)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p = sub.add_parser("puzzles", help="a game's curated puzzle set from AI self-play, "
                       "checked by exhaustive search")
    p.add_argument("game")
    p.add_argument("--count", type=int, default=36, help="puzzles in the set (default 36)")
    p.add_argument("--seed", type=int, default=0, help="the first self-play game's seed")
    p.add_argument("--max-games", type=int, default=400, help="self-play games at most")
    p.add_argument("--out", help="where to write the set (default: the kit's puzzles file)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = build_parser().parse_args(argv)
    handler = {"list": cmd_list, "replay": cmd_replay, "moves": cmd_moves,
               "play": cmd_play, "ai": cmd_ai, "learn": cmd_learn,
               "analyse": cmd_analyse, "puzzles": cmd_puzzles}[args.command]
    try:
        handler(args, out)
    except CliError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
