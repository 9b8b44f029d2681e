"""The real bot against the rate-limited Discord imitation: what load it holds within Discord's
limits (tests/discord_fake/ratelimits.py: 50 bot-token requests a second, 5 messages per 5 s a
channel, edits likewise, interaction routes outside the global limit).

    python bench/ratelimits.py [--rate 10,30,60,120] [--channels 200] [--seconds 20]
                               [--by buttons|command] [--limits on|off|on,off]

For each offered load: a fresh imitation and bot (one process, SQLite, as bench/load.py's
`sqlite` setup), `--channels` matches of Progressive Mancala opened (25 at a time; not
measured), then `--seconds` of Poisson arrivals at the offered moves/s spread over the
channels (a channel's next move waits for its board; a finished match starts another, as in
bench/load.py). Reported per load: `/chan` the offered moves a second in each channel;
`boards/s` moves whose board was posted, a second; first response p50/p99 (interaction to the
bot's first answer, on the imitation's clock) and board posted p50/p99 (interaction to the new
board in the channel), in ms; `bot r/s` bot-token requests a second, 429s included (the global
limit allows 50 a second, 429s not counted); requests per move by route kind: `cb` interaction
callbacks, `hook` interaction webhooks (neither counted by the global limit), `bot` everything
sent with the bot token; the 429s the imitation answered: `glob` global, `bucket` a route
bucket of a bot-token route, `intr` any on an interaction route; `fail` moves without a board
within 30 s; `load1` the machine's load average when the load ended. Below the table:
requests per move and 429s, by route.

The bot runs with CORRAL_RETRY_SECONDS=1 (the production default): a row that discord.py gives
up on after five 429s is retried by the bot's outbox after 1 s, then 2, 4, ...
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from discord_fake import FakeDiscord  # noqa: E402
from discord_fake.ratelimits import route_kind, route_name, summary  # noqa: E402
from load import Load, quantiles  # noqa: E402
from soak import Bot  # noqa: E402

HEADER = (f"{'limits':>6} {'offered':>7} {'chan':>5} {'/chan':>5} {'boards/s':>8}"
          f" {'first p50/p99':>14}"
          f" {'board p50/p99':>14} {'bot r/s':>7} {'cb/mv':>5} {'hook/mv':>7} {'bot/mv':>6}"
          f" {'glob':>5} {'bucket':>6} {'intr':>5} {'fail':>5} {'load1':>5}")


async def level(rate: float, limits: bool, args: argparse.Namespace) -> list[str]:
    """One offered load on a fresh imitation and bot; returns the 429s by route."""
    fake = FakeDiscord()
    if not limits:
        fake.global_rate_limit = None
        fake.route_limits = {}
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        bot = Bot(fake, Path(folder), {"CORRAL_WORKERS": args.workers,
                                       "CORRAL_RETRY_SECONDS": "1"})
        try:
            await bot.start()
            await asyncio.sleep(2.0)
            load = Load(fake, bot, args.by)
            for first in range(0, args.channels, 25):
                await asyncio.gather(*(load.open(i) for i in
                                       range(first, min(args.channels, first + 25))))
            await asyncio.sleep(6.0)  # every window of the set-up closed
            requests_before = len(fake.requests)
            refused_before = len(fake.rate_limited())
            figures, took = await load.run(args.seconds, rate, args.seed)
            requests = fake.requests[requests_before:]
            refused = fake.rate_limited()[refused_before:]
        finally:
            await bot.stop()
            await fake.stop()
    kinds = Counter(route_kind(r.path) for r in requests)
    moves = max(1, figures.moves)
    counts = summary(refused)
    interaction = sum(1 for r in refused if r.kind != "bot")
    bucket = sum(1 for r in refused if r.kind == "bot" and r.scope == "user")
    print(f"{'on' if limits else 'off':>6} {rate:7g} {args.channels:5d}"
          f" {rate / args.channels:5.2f}"
          f" {figures.moves / took:8.1f} {quantiles(figures.first):>14}"
          f" {quantiles(figures.board):>14} {kinds['bot'] / took:7.1f}"
          f" {kinds['callback'] / moves:5.2f} {kinds['webhook'] / moves:7.2f}"
          f" {kinds['bot'] / moves:6.2f} {counts['global']:5d} {bucket:6d} {interaction:5d}"
          f" {figures.failed:5d} {os.getloadavg()[0]:5.2f}", flush=True)
    label = f"{'on' if limits else 'off'} {rate:g}/s"
    routes = Counter(route_name(r.method, r.path) for r in requests)
    return ([f"{label}: requests per move: " + ", ".join(
                f"{name} {n / moves:.2f}" for name, n in routes.most_common())]
            + [f"{label}: 429 {name} x{n}" for name, n in sorted(counts.items()) if " " in name])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", default="10,30,60,120",
                        help="offered loads, moves a second (comma-separated)")
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--by", choices=("command", "buttons"), default="buttons",
                        help="how players move: the board's buttons, or /move")
    parser.add_argument("--limits", default="on", help="on, off, or on,off")
    parser.add_argument("--workers", default="2", help="CORRAL_WORKERS for the bot")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"by {args.by}, {args.seconds:g} s a load, {args.channels} channels")
    print(HEADER, flush=True)
    details: list[str] = []
    for limits in args.limits.split(","):
        for rate in args.rate.split(","):
            details += asyncio.run(level(float(rate), limits == "on", args))
    for line in details:
        print(line)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s)")
