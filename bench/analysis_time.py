"""What a post-game analysis costs against the AI it uses: for the same finished match, side
by side in one process, (a) the AI choosing a move at the level in each of the match's
positions, as it would playing them, and (b) the whole analysis as the bot's runner does it
(`judge_job` per position, `assemble_job`, then `explain_job` per swing), (a) and (b) taking
turns position by position so that the machine's load falls on both alike. The analysis must
take at most 1.5 times (a).

    python bench/analysis_time.py [--game progressive-mancala] [--level hard] [--plies 32]
                                  [--repeats 3] [--seed 1] [--moves "j c k …"]

The match: the easy AI self-plays from seeds `--seed`, `--seed` + 1, … until a finished game
of about `--plies` plies (the closest of the first 40; the easy AI's cap makes it depend on
the load), or `--moves`, a finished match's notations. It prints each repeat, the median
and the worst of each and the ratio of the medians, the slowest single position of the
analysis (how long its progress can stand still), and the load at the start and end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_game
from games.ai import choose_move
from games.analysis import assemble_job, explain_job, judge_job


def match(game_id: str, plies: int, seed: int) -> list[list[str]]:
    game = get_game(game_id)
    best: list[list[str]] = []
    for k in range(40):
        state = game.new(2, {})
        entries: list[list[str]] = []
        while game.outcome(state) is None and len(entries) < 4 * plies:
            move = choose_move(game, state, level="easy", seed=seed + 1000 * k + len(entries))
            entries.append(["move", game.format_move(state, move)])
            state = game.apply(state, move)
        if game.outcome(state) is not None and (
                not best or abs(len(entries) - plies) < abs(len(best) - plies)):
            best = entries
        if len(best) == plies:
            break
    return best


def side_by_side(game_id: str, entries: list[list[str]], level: str,
                 seed: int) -> tuple[float, float, float, int, float]:
    """Position by position, (a) the AI choosing its move there then (b) the analysis judging
    it (`judge_job`), then the rest of the analysis (`assemble_job`, `explain_job` per swing):
    (a's seconds, b's seconds in all, b's slowest step, swings, seconds explaining them)."""
    game = get_game(game_id)
    state = game.new(2, {})
    chose = 0.0
    steps = []
    judged = []
    for i, (_, notation) in enumerate(entries):
        t = time.perf_counter()
        if not game.is_chance(state):
            choose_move(game, state, level=level, seed=seed + i)
        chose += time.perf_counter() - t
        t = time.perf_counter()
        judged.append(judge_job(game_id, 2, {}, entries, i, level, seed + i))
        steps.append(time.perf_counter() - t)
        state = game.play(state, notation)
    t = time.perf_counter()
    result = assemble_job(game_id, 2, {}, entries, judged, level, seed)
    steps.append(time.perf_counter() - t)
    explaining = time.perf_counter()
    for index in result["mistakes"]:
        t = time.perf_counter()
        explain_job(game_id, 2, {}, entries, index, result["moves"][index - 1]["best"], level,
                    seed)
        steps.append(time.perf_counter() - t)
    lines = time.perf_counter() - explaining
    return chose, sum(steps), max(steps), len(result["mistakes"]), lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="progressive-mancala")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--plies", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", help="the match's notations, separated by spaces")
    args = parser.parse_args()
    print(f"load at start: {os.getloadavg()[0]:.2f}", flush=True)
    entries = ([["move", n] for n in args.moves.split()] if args.moves
               else match(args.game, args.plies, args.seed))
    print(f"{args.game}, {len(entries)} plies, level {args.level}", flush=True)
    chose, analysed, slowest = [], [], []
    for repeat in range(args.repeats):
        a, total, step, swings, lines = side_by_side(args.game, entries, args.level, args.seed)
        chose.append(a)
        analysed.append(total)
        slowest.append(step)
        print(f"repeat {repeat + 1}: choosing {chose[-1]:.1f} s, analysis {total:.1f} s "
              f"({swings} swings explained in {lines:.1f} s, slowest step {step:.1f} s), "
              f"ratio {total / chose[-1]:.2f}, "
              f"load {os.getloadavg()[0]:.2f}", flush=True)
    a, b = statistics.median(chose), statistics.median(analysed)
    print(f"choosing a move in each position: p50 {a:.1f} s, max {max(chose):.1f} s")
    print(f"the analysis:                     p50 {b:.1f} s, max {max(analysed):.1f} s, "
          f"slowest step {max(slowest):.1f} s")
    print(f"ratio of the medians: {b / a:.2f} (at most 1.5)")
    print(f"load at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
