"""Figures for drawing the boards: CPU and wall milliseconds to render and encode, PNG bytes.

Positions come from seeded random playouts through each game's `legal_moves`/`apply`, spread
over whole games (the final positions included), so the figures cover boards of every shape a
match goes through, not one middle position. Each case first draws one board untimed (fonts and
base layers load once per worker process in the bot too). Then every position is timed on its
first render, as the bot draws it (its own labels -- the last move, whose turn -- not yet
cached), and again `--repeat` times warm. The first-render figures are the ones the targets
apply to.

    python bench/render_board.py [--games 6] [--repeat 5] [--baseline] [--against REV]

`--baseline` also times the same positions encoded the old way (the picture converted to RGB
and written as truecolour PNG, zlib level 2, no filter), to show what the palette encoding saves.
`--against REV` first runs the same figures on a git revision (its tree exported to a temporary
directory, run in its own process), then on the working tree: a before/after back to back.
Targets: p99 CPU <= 5 ms per board and PNG <= 60 KB.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from games import KITS, REGISTRY
from render import render_observation
from render.common import to_png

# every kit's set-ups (`Kit.setups`) that have a picture
CASES = tuple((kit.id, setup.seats, dict(setup.options), setup.label)
              for kit in KITS.values() if kit.picture is not None for setup in kit.setups)
NAMES = ["Alice", "Bob", "Carol", "Dave"]


def game_positions(game, seats: int, options: dict, seed: int, every: int):
    rng = random.Random(seed)
    state = game.new(seats, game.draw_options(options, rng))
    states = [state]
    while game.outcome(state) is None and len(states) < 2000:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    picked = states[::every]
    if picked[-1] is not states[-1]:
        picked.append(states[-1])
    return picked


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run_revision(revision: str, argv: list[str]) -> None:
    """This benchmark as it is at `revision`, on that revision's code, in its own process."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(root), "archive", revision], check=True,
                             capture_output=True).stdout
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                tar.extractall(folder, filter="data")
            else:
                tar.extractall(folder)  # our own repository's archive
        print(f"-- {revision}", flush=True)
        subprocess.run([sys.executable, str(Path(folder) / "bench" / "render_board.py"), *argv],
                       check=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6, help="random games per case")
    parser.add_argument("--every", type=int, default=3, help="take every n-th position")
    parser.add_argument("--repeat", type=int, default=5, help="timed renders per position")
    parser.add_argument("--baseline", action="store_true")
    parser.add_argument("--against", metavar="REV",
                        help="first run on this git revision, then on the working tree")
    args = parser.parse_args()
    if args.against:
        run_revision(args.against, ["--games", str(args.games), "--every", str(args.every),
                                    "--repeat", str(args.repeat)]
                     + (["--baseline"] if args.baseline else []))
        print("-- working tree", flush=True)
    header = (f"{'game':<34}{'boards':>7}{'cpu p50':>9}{'cpu p99':>9}{'wall p50':>9}"
              f"{'wall p99':>9}{'warm p50':>9}{'warm p99':>9}{'KB p50':>8}{'KB max':>8}")
    if args.baseline:
        header += f"{'RGB enc p50':>12}{'P enc p50':>10}"
    print(header)
    worst_cpu, worst_size = 0.0, 0
    for game_id, seats, options, label in CASES:
        game = REGISTRY[game_id]
        views = [game.observe(state, None)
                 for seed in range(args.games)
                 for state in game_positions(game, seats, options, seed, args.every)]
        cpu, wall, warm, sizes, rgb_enc, p_enc = [], [], [], [], [], []
        render_observation(game_id, views[-1], names=NAMES[:seats])  # fonts, base layers
        for view in views:
            c0, w0 = time.process_time(), time.perf_counter()
            png = render_observation(game_id, view, names=NAMES[:seats])
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
            sizes.append(len(png))
            for _ in range(args.repeat):
                c0 = time.process_time()
                render_observation(game_id, view, names=NAMES[:seats])
                warm.append((time.process_time() - c0) * 1000)
            if args.baseline:
                image = Image.open(io.BytesIO(png))
                image.load()
                rgb = image.convert("RGB")
                c0 = time.process_time()
                to_png(rgb)
                rgb_enc.append((time.process_time() - c0) * 1000)
                from render.common import encode_png
                palette = image.getpalette() or []
                colours = [tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)]
                c0 = time.process_time()
                encode_png(image, colours)  # type: ignore[arg-type]
                p_enc.append((time.process_time() - c0) * 1000)
        line = (f"{game_id + ' ' + label:<34}{len(views):>7}{statistics.median(cpu):>9.2f}"
                f"{percentile(cpu, 0.99):>9.2f}{statistics.median(wall):>9.2f}"
                f"{percentile(wall, 0.99):>9.2f}{statistics.median(warm):>9.2f}"
                f"{percentile(warm, 0.99):>9.2f}{statistics.median(sizes) / 1000:>8.1f}"
                f"{max(sizes) / 1000:>8.1f}")
        if args.baseline:
            line += f"{statistics.median(rgb_enc):>12.2f}{statistics.median(p_enc):>10.2f}"
        print(line, flush=True)
        worst_cpu, worst_size = max(worst_cpu, percentile(cpu, 0.99)), max(worst_size,
                                                                            max(sizes))
    print(f"worst first-render p99 CPU {worst_cpu:.2f} ms (target <= 5), "
          f"largest PNG {worst_size / 1000:.1f} KB (target <= 60); "
          "milliseconds per board, render + encode")


if __name__ == "__main__":
    main()
