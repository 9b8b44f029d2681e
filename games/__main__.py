"""Command line for game records, usable without Discord.

    python -m games list
    python -m games replay FILE
    python -m games moves FILE
    python -m games render FILE -o board.png
    python -m games play GAME [--seats N] [--option name=value ...] [--out FILE]

Errors in a record exit with status 2 and `line N: '<text>': <reason>` on stderr.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import secrets
import sys
from pathlib import Path
from typing import Sequence, TextIO

from . import CATALOGUE, GameError, get_game, replay
from .record import Record, RecordError, format_record, parse_record, replay_record


class CliError(Exception):
    """Exit with status 2 and this message."""


def _load(path: str) -> tuple[Record, object, object]:
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
    for entry in CATALOGUE:
        game = entry.game
        if game is None:
            out.write(f"{entry.id:<20} {entry.name:<20} players {entry.players:<4} (coming soon)\n")
            continue
        opts = "; ".join(f"{o.name}={'|'.join(o.choices)} (default {o.default})"
                         for o in game.info.options) or "no options"
        out.write(f"{entry.id:<20} {entry.name:<20} players {entry.players:<4} {opts}\n")


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


def cmd_render(args, out: TextIO) -> None:
    from render import render_observation  # Pillow only for this command

    record, game, state = _load(args.file)
    names = [n.strip() for n in record.meta.get("players", "").split(",") if n.strip()]
    try:
        png = render_observation(game.id, game.observe(state, None), names=names or None)
    except ValueError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    Path(args.output).write_bytes(png)
    out.write(f"wrote {args.output} ({len(png)} bytes)\n")


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
    out.write(f"{game.name}: type a move, 'undo', or 'quit'. Seat 1 moves first.\n")
    dice = secrets.SystemRandom()
    while game.outcome(state) is None:
        if game.is_chance(state):  # the host's roll, drawn here and kept in the record
            move = dice.choice(game.legal_moves(state))
            moves.append(game.format_move(state, move))
            out.write(f"the host: {moves[-1]}\n")
            state = game.apply(state, move)
            continue
        out.write("\n" + game.describe(state) + "\n")
        seat = game.to_move(state)
        out.write(f"legal: {' '.join(game.legal_notations(state))}\n")
        out.write(f"seat {seat + 1}> ")
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
            if moves:
                moves.pop()
                state = replay(game, moves, seats=args.seats, options=options)
            else:
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
            out.write(f"draw ({outcome.reason.value})\n")
        else:
            won = ", ".join(f"seat {w + 1}" for w in outcome.winners)
            out.write(f"{won} wins ({outcome.reason.value})\n")
    meta = {"date": dt.date.today().isoformat()}
    if outcome is not None:
        meta["result"] = ("draw" if outcome.draw else
                          "winners " + " ".join(str(w + 1) for w in outcome.winners))
    path = Path(args.out or f"{game.id}-{dt.datetime.now():%Y%m%d-%H%M%S}.txt")
    path.write_text(format_record(game, start, moves, meta=meta), encoding="utf-8")
    out.write(f"record saved to {path}\n")


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
    p = sub.add_parser("render", help="the position after a record as a PNG")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True)
    p = sub.add_parser("play", help="a hot-seat match in the terminal")
    p.add_argument("game")
    p.add_argument("--seats", type=int)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--out", help="where to save the record (default: <game>-<time>.txt)")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = build_parser().parse_args(argv)
    handler = {"list": cmd_list, "replay": cmd_replay, "moves": cmd_moves,
               "render": cmd_render, "play": cmd_play}[args.command]
    try:
        handler(args, out)
    except CliError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
