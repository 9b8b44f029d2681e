"""Draw a game record, or the whole picture gallery, without Discord:

    python -m render FILE -o board.png             the public picture after the record
    python -m render FILE --animate -o game.gif    every position from the start, one frame each
    python -m render draw FILE -o board.png        the same (`draw` may be left out)
    python -m render gallery OUT_DIR [--seed N]    every kind of picture, an index and a
                                                   contact sheet at phone width (render/gallery.py)

The picture is the public one throughout, as the channel saw it. Errors in a record exit with
status 2 and `line N: '<text>': <reason>` on stderr, as `python -m games` does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from games import Game
from games.record import Record, RecordError, parse_record, replay_record

from . import animate, render_observation


class CliError(Exception):
    """Exit with status 2 and this message."""


def _positions(record: Record, game: Game) -> list[Any]:
    """The states after 0, 1, … n moves of a record already checked by `replay_record`."""
    state = game.new(record.seats, record.options)
    states = [state]
    for _, notation in record.moves:
        state = game.play(state, notation)
        states.append(state)
    return states


def draw(path: str, output: str, animated: bool, out: TextIO) -> None:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"{path}: cannot read the record: {exc}") from None
    try:
        record = parse_record(text)
        game, state = replay_record(record)
    except RecordError as exc:
        raise CliError(str(exc)) from None
    names = [n.strip() for n in record.meta.get("players", "").split(",") if n.strip()]
    try:
        if animated:
            data = animate(game.id, [game.observe(s, None) for s in _positions(record, game)],
                           names=names or None)
        else:
            data = render_observation(game.id, game.observe(state, None), names=names or None)
    except ValueError as exc:
        raise CliError(f"{path}: {exc}") from None
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise CliError(f"{output}: cannot write the picture: {exc}") from None
    out.write(f"wrote {output} ({len(data)} bytes)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m render",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--animate", action="store_true",
                        help="write an animated GIF of every position, one frame per move")
    return parser


GALLERY_HELP = "draw every kind of picture Corral makes, with an index and a contact sheet"


def gallery_parser() -> argparse.ArgumentParser:
    # a module constant: a literal `description=` would be taken for a command's (bot/catalogs)
    parser = argparse.ArgumentParser(prog="python -m render gallery", description=GALLERY_HELP)
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=0,
                        help="the random play's seed (the same seed draws the same pictures)")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["gallery"]:
        options = gallery_parser().parse_args(argv[1:])
        from .gallery import write

        try:
            write(Path(options.out_dir), options.seed, log=lambda line: out.write(line + "\n"))
        except OSError as exc:
            print(f"{options.out_dir}: cannot write the gallery: {exc}", file=sys.stderr)
            return 2
        return 0
    if argv[:1] == ["draw"]:  # the record's subcommand, named (it is the default)
        argv = argv[1:]
    args = build_parser().parse_args(argv)
    try:
        draw(args.file, args.output, args.animate, out)
    except CliError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
