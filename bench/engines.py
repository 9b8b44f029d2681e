"""Engine speed: random playouts per second per game, this tree against a reference commit.

Every kit's set-ups (`Kit.setups`) are measured.

    python bench/engines.py [--ref fb413fb] [--seconds 3] [--rounds 3] [--only ico]

The reference is the `games/` package of another commit (default: where the AI work began),
loaded next to the current one as the package `games_ref`, so both are measured in the same
process, alternately, on the same random games (the same seed gives the same moves when the
rules agree, which the bench also checks: equal plies per playout).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BASE_COMMIT = "13cf446"  # where the AI work began


def load_reference(commit: str) -> object:
    """The `games` package of `commit` (its kits' packages included), importable as
    `games_ref`."""
    target = Path(tempfile.mkdtemp(prefix="engines-ref-")) / "games_ref"
    target.mkdir()
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", commit,
                            "games/"], check=True, capture_output=True, text=True).stdout.split()
    for name in names:
        if name.endswith(".py"):
            text = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{name}"],
                                  check=True, capture_output=True, text=True).stdout
            path = target / Path(name).relative_to("games")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(target.parent))
    return importlib.import_module("games_ref")


def playouts(game, seats, options, seconds: float, seed: int) -> tuple[float, float]:
    """(playouts per second, plies per playout) of uniformly random play."""
    rng = random.Random(seed)
    start = game.new(seats, options)
    count = plies = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = start
        while game.outcome(state) is None:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            plies += 1
        count += 1
    return count / (time.perf_counter() - began), plies / max(count, 1)


def same_games(new, ref, seats, options, games: int = 5) -> bool:
    """Both engines play the same random games to the same end (the rules agree)."""
    for seed in range(games):
        ends = []
        for game in (new, ref):
            rng = random.Random(seed)
            state = game.new(seats, options)
            notations = []
            while game.outcome(state) is None:
                move = rng.choice(game.legal_moves(state))
                notations.append(game.format_move(state, move))
                state = game.apply(state, move)
            ends.append((notations, game.outcome(state).winners))
        if ends[0] != ends[1]:
            return False
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default=BASE_COMMIT, help="reference commit ('' for none)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating measurements")
    parser.add_argument("--only", help="game ids containing this text")
    args = parser.parse_args(argv)
    import games

    ref = load_reference(args.ref) if args.ref else None
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, "
          f"python {sys.version.split()[0]}, reference {args.ref or '-'}")
    print(f"{'game':<22}{'seats':>6} {'options':<36}{'plies':>6}{'now/s':>9}{'ref/s':>9}"
          f"{'speed-up':>9}  same rules")
    for kit in games.KITS.values():
        if args.only and args.only not in kit.id:
            continue
        for setup in kit.setups:
            measure(games, ref, kit.id, setup.seats, set_up(kit.game, setup.options), args)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at the end")
    return 0


def set_up(game, options: dict) -> dict:
    """A set-up's options with the host's chance drawn once (ICO's start face), and no other
    default spelled out (a reference commit may not know every option)."""
    drawn = game.draw_options(options, random.Random(0))
    defaults = game.resolve_options(options)
    return {k: v for k, v in drawn.items() if k in options or defaults.get(k) != v}


def measure(games, ref, game_id: str, seats: int, options: dict, args) -> None:
    new = games.get_game(game_id)
    old = ref.get_game(game_id) if ref is not None else None  # type: ignore[attr-defined]
    now, before, plies = [], [], 0.0
    for round_ in range(args.rounds):
        rate, plies = playouts(new, seats, options, args.seconds, round_)
        now.append(rate)
        if old is not None:
            before.append(playouts(old, seats, options, args.seconds, round_)[0])
    rate_now = statistics.median(now)
    rate_ref = statistics.median(before) if before else float("nan")
    agree = same_games(new, old, seats, options) if old is not None else "-"
    text = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
    print(f"{game_id:<22}{seats:>6} {text:<36}{plies:>6.0f}{rate_now:>9.1f}"
          f"{rate_ref:>9.1f}{rate_now / rate_ref:>8.2f}x  {agree}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
