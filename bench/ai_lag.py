"""Does the bot stay responsive while the AI thinks? The real bot against the imitation: two
matches against the `hard` AI keep its searches running while a third user sends `/matches`
every 50 ms; reported: that command's first-response p50/p99/max (the event loop's lag as a
user feels it), the number of AI moves made meanwhile, and the AI's think time per move
(from the human move's board to the AI's board).

    python bench/ai_lag.py [--seconds 30] [--level hard]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from discord_fake import FakeDiscord  # noqa: E402
from soak import Bot  # noqa: E402

from games.mancala import GAME  # noqa: E402


def boards_in(fake: FakeDiscord, channel: int) -> list[dict]:
    return [m for m in fake.channel_messages(channel) if m.get("attachments")]


async def human(fake: FakeDiscord, channel: int, user: int, level: str, stop: asyncio.Event,
                thinks: list[float], rng: random.Random) -> int:
    """Play random moves against the AI in `channel` until stopped; returns AI moves seen."""
    await fake.answered(await fake.slash(user, "play", channel_id=channel, game=GAME.id,
                                         ai=level, first="me"), timeout=30)
    ai_moves = 0
    while not stop.is_set():
        board = await fake.wait_for(lambda: boards_in(fake, channel)
                                    and boards_in(fake, channel)[-1], timeout=60)
        ids = [c for c in fake.custom_ids(board) if c.startswith("c1:s:")]
        if "🏁" in board["content"]:
            return ai_moves
        if not ids:  # the AI is to move
            count = len(boards_in(fake, channel))
            started = time.perf_counter()
            await fake.wait_for(lambda n=count: len(boards_in(fake, channel)) > n, timeout=60)
            thinks.append(time.perf_counter() - started)
            ai_moves += 1
            continue
        count = len(boards_in(fake, channel))
        await fake.answered(await fake.click(user, board, rng.choice(ids)), timeout=30)
        await fake.wait_for(lambda n=count: len(boards_in(fake, channel)) > n, timeout=60)
    return ai_moves


async def main_async(seconds: float, level: str) -> None:
    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        bot = Bot(fake, Path(folder), {"CORRAL_WORKERS": "1", "CORRAL_AI_PAUSE": "0.05"})
        try:
            await bot.start()
            stop = asyncio.Event()
            thinks: list[float] = []
            rng = random.Random(3)
            players = [asyncio.create_task(human(
                fake, fake.add_channel(fake.guild_id, f"ai-{i}"), fake.add_user(f"H{i}"),
                level, stop, thinks, rng)) for i in range(2)]
            watcher = fake.add_user("Watcher")
            lags: list[float] = []
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                record = await fake.answered(await fake.slash(watcher, "matches"), timeout=30)
                lags.append(record.answered_after or 0.0)
                await asyncio.sleep(0.05)
            stop.set()
            ai_moves = sum(await asyncio.gather(*players, return_exceptions=False))
            ordered = sorted(lags)
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            print(f"/matches while two {level} AI searches run: n={len(lags)}"
                  f" p50 {statistics.median(lags) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms,"
                  f" max {max(lags) * 1000:.1f} ms; AI moves {ai_moves}; AI think+post"
                  f" p50 {statistics.median(thinks) if thinks else float('nan'):.2f} s")
        finally:
            await bot.stop()
            await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    args = parser.parse_args()
    asyncio.run(main_async(args.seconds, args.level))


if __name__ == "__main__":
    main()
