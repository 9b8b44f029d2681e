"""The web companion under load: the real bot (pages inside it, CORRAL_WEB_URL set) against the
loopback Discord imitation, `--matches` matches moving at `--rate` moves/s offered (as
bench/load.py plays them: /move, Poisson arrivals), in `--rounds` rounds of a run without
viewers and then a run with `--viewers` open live streams (server-sent events) spread over the
matches: the figures of each kind are pooled, so a p99 rests on every round's moves and a
drift of the machine's load over the minutes falls on both alike.

    python bench/web_load.py [--matches 100] [--viewers 1000] [--rate 20] [--seconds 20]
                             [--rounds 3] [--workers 2] [--pages bot|process]
                             [--pages-cpus server|clients]
                             [--viewer-nice 19] [--no-pin]

`--pages process`: the viewers watch `python -m bot.web` beside the bot on the same store
(new moves found by polling the watched versions) instead of the pages inside the bot; it
runs on the server's CPUs, or with `--pages-cpus clients` on the others (as a web server on a
core or a machine of its own would, the way the README suggests for a busy deployment).

The viewers stand for browsers on other machines: they run in a process of their own at
`--viewer-nice` (19 by default), so that on a two-core machine the thousand simulated clients
parsing their streams do not take the bot's cores (the CPU they used is reported; 0 puts them
on an equal footing with the bot). Niceness alone does not keep them off the bot's core: a
woken viewer still runs on whichever core is free at that instant and the bot's next callback
waits its turn there, so by default the server side (the bot, its picture workers, the pages
process) runs on the first half of the CPUs and this process (the imitation, the players) and
the viewers on the other half (`--no-pin`: wherever the kernel puts them).

Reported: the bot's first response p50/p99 (from the interaction to its first answer, on the
imitation's clock, as bench/load.py measures it) without and with the viewers, and the bot's
CPU per move (its process and picture workers, from /proc) in each; from each move (its
interaction sent) to each viewer's stream delivering the new version, p50/p99/max, and how
many deliveries were missed; the bot's RSS per open connection; the bot's garbage collector
pauses in each kind of run, by generation, from its /metrics (a pause stops the whole bot, so
it shows in the first response's tail).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from discord_fake import FakeDiscord  # noqa: E402
from load import Figures, Load, Table, cpu_seconds, quantiles, rss_mb  # noqa: E402
from soak import Bot  # noqa: E402

from games.mancala import GAME  # noqa: E402


class Timed(Load):
    """bench/load.py's players, noting when each move was sent and which entry it made."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sent: dict[tuple[str, int], float] = {}  # (token, entries after) -> wall time
        self.tokens: dict[int, str] = {}  # channel -> its match's token

    async def move(self, table: Table, rng: random.Random, figures: Figures) -> None:
        token = self.tokens.get(table.channel)
        if token is None or GAME.outcome(table.state) is not None:
            self.tokens.pop(table.channel, None)  # a new match: its old page is not watched
            await super().move(table, rng, figures)
            return
        entries = GAME.ply(table.state) + 1
        self.sent[(token, entries)] = time.time()
        await super().move(table, rng, figures)


async def gc_pauses(base: str) -> dict[str, float]:
    """The bot's garbage collector pauses so far, from its /metrics: per generation, how many
    and their total seconds, and how many lasted over 10 ms (a pause stops the whole bot)."""
    import aiohttp

    async with aiohttp.ClientSession() as session, session.get(f"{base}/metrics") as response:
        text = await response.text()
    found: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("corral_gc_pause_seconds"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    figures: dict[str, float] = {}
    for gen in ("0", "1", "2"):
        count = found.get(f'corral_gc_pause_seconds_count{{generation="{gen}"}}', 0.0)
        short = found.get(f'corral_gc_pause_seconds_bucket{{generation="{gen}",le="0.01"}}', 0.0)
        figures[f"gen{gen}"] = count
        figures[f"gen{gen} s"] = found.get(f'corral_gc_pause_seconds_sum{{generation="{gen}"}}',
                                           0.0)
        figures[f"gen{gen} >10ms"] = count - short
    return figures


def token_of(message: dict[str, Any]) -> str:
    """The match's page token, from the board's link button (in an action row, or one in a
    Components V2 container)."""
    items = list(message.get("components", []))
    while items:
        item = items.pop(0)
        if item.get("type") == 2 and item.get("style") == 5:
            return str(item["url"]).rsplit("/", 1)[1].split("?", 1)[0]
        items += item.get("components", [])
    raise AssertionError("the board has no link to its page")


# -- the viewers (a process of their own) -------------------------------------------------------
async def viewers(base: str, tokens: list[str], count: int) -> None:
    """`count` live streams over `tokens`; prints "ready" once all are open, and at the end
    (stdin closed) one JSON line: [viewer, token, entries, wall time] per state received."""
    import aiohttp

    seen: list[tuple[int, str, int, float]] = []
    opened = 0
    ready = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        async def one(viewer: int, token: str) -> None:
            nonlocal opened
            async with session.get(f"{base}/m/{token}/live?lang=en") as response:
                first = True
                async for line in response.content:
                    if line.startswith(b"data: "):
                        at = time.time()
                        data = json.loads(line[6:])
                        if first:
                            first = False
                            opened += 1
                            if opened == count:
                                ready.set()
                            continue
                        seen.append((viewer, token, len(data["moves"]), at))

        tasks = []
        for i in range(count):
            tasks.append(asyncio.create_task(one(i, tokens[i % len(tokens)])))
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # a crowd arriving, not one burst
        await ready.wait()
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"seen": seen, "cpu": time.process_time()}), flush=True)


async def open_viewers(watched: str, tokens: list[str], count: int,
                       nice: int) -> asyncio.subprocess.Process:
    """The viewers' process (this script's `--viewers-of`) at niceness `nice`, once its `count`
    live streams over `tokens` are all open."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--viewers-of", watched, "--viewers", str(count), "--",
        *tokens, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        preexec_fn=functools.partial(os.nice, nice))
    assert child.stdout is not None and child.stdin is not None
    line = await asyncio.wait_for(child.stdout.readline(), 120)
    assert line.strip() == b"ready", line
    return child


async def close_viewers(child: asyncio.subprocess.Process) -> dict[str, Any]:
    """What the viewers saw ({"seen": [...], "cpu": seconds}), a few seconds after the last
    move (so that it reaches them), their process ended."""
    assert child.stdout is not None and child.stdin is not None
    await asyncio.sleep(3.0)  # the last moves reach their viewers
    child.stdin.close()
    out: dict[str, Any] = json.loads(await asyncio.wait_for(child.stdout.read(), 60))
    await child.wait()
    return out


async def kill_viewers(child: asyncio.subprocess.Process | None) -> None:
    if child is not None and child.returncode is None:
        child.kill()
        await child.wait()


# -- the run --------------------------------------------------------------------------------------
def seen_by_viewers(seen: list[Any], sent: dict[tuple[str, int], float], tokens: list[str],
                    count: int) -> tuple[list[float], int]:
    """(from each move to each of its match's viewers seeing it, in seconds; how many such
    deliveries never came). A viewer sees a move when a state with it arrives (a state may
    bring two moves made close together: the page shows the newest, which holds both)."""
    states: dict[int, list[tuple[int, float]]] = {}
    for viewer, _, entries, at in seen:
        states.setdefault(viewer, []).append((entries, at))
    sent_by_token: dict[str, list[tuple[int, float]]] = {}
    for (token, entries), at in sent.items():
        sent_by_token.setdefault(token, []).append((entries, at))
    delays, missed = [], 0
    for viewer in range(count):
        mine = states.get(viewer, [])
        for entries, sent_at in sent_by_token.get(tokens[viewer % len(tokens)], []):
            arrived = [at for n, at in mine if n >= entries]
            if arrived:
                delays.append(min(arrived) - sent_at)
            else:
                missed += 1
    return delays, missed


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def imitation() -> FakeDiscord:
    """The Discord imitation, started, its rate limits off (the bench measures the bot)."""
    fake = FakeDiscord(check_spec=False)
    fake.global_rate_limit = None
    fake.route_limits = {}
    await fake.start()
    return fake


async def start_pinned(bot: Bot, pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """The bot started on the first half of the CPUs (the picture workers it starts inherit
    them), then this process (the imitation, the players, the viewers it starts) moved to the
    other half; returns the halves (None, None: not pinned)."""
    server_cpus, client_cpus = cpu_halves() if pin else (None, None)
    if server_cpus is not None:
        os.sched_setaffinity(0, server_cpus)
    await bot.start()
    await asyncio.sleep(2.0)
    if client_cpus is not None:
        os.sched_setaffinity(0, client_cpus)
    return server_cpus, client_cpus


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    fake = await imitation()
    with tempfile.TemporaryDirectory() as folder:
        bot = Bot(fake, Path(folder), {"CORRAL_WORKERS": args.workers,
                                        "CORRAL_WEB_BIND": f"127.0.0.1:{port}",
                                        "CORRAL_WEB_URL": base})
        child = None
        pages = None
        try:
            server_cpus, client_cpus = await start_pinned(bot, args.pin)
            assert bot.proc is not None
            bot_pid = pid = bot.proc.pid
            load = Timed(fake, bot)
            await asyncio.gather(*(load.open(i) for i in range(args.matches)))
            for table in load.tables.values():
                load.tokens[table.channel] = token_of(table.board)
            print(f"{args.matches} matches, {args.rate:g} moves/s offered, {args.seconds:g} s"
                  f" per run, {args.rounds} round(s) of a run without viewers then one with"
                  f" {args.viewers}, picture workers {args.workers}, pages in the"
                  f" {args.pages}, viewers at nice {args.viewer_nice}, "
                  + (f"server on CPUs {sorted(server_cpus)}, clients on {sorted(client_cpus)}"
                     if server_cpus and client_cpus else "not pinned")
                  + "; load average"
                  f" {os.getloadavg()[0]:.2f}", flush=True)
            watched = base
            if args.pages == "process":
                watched = f"http://127.0.0.1:{free_port()}"
                env = {k: v for k, v in os.environ.items() if not k.startswith("CORRAL_")}
                env.update({"CORRAL_DATABASE": str(bot.database), "CORRAL_WORKERS": args.workers,
                            "CORRAL_WEB_BIND": watched.rsplit("/", 1)[1],
                            "PYTHONPATH": str(ROOT)})
                pages = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot.web", cwd=folder, env=env,
                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
                    preexec_fn=None if server_cpus is None or client_cpus is None else
                    functools.partial(os.sched_setaffinity, 0, server_cpus
                                      if args.pages_cpus == "server" else client_cpus))
                await asyncio.sleep(3.0)
                pid = pages.pid  # its memory is the one the streams cost
            without, with_ = Figures(), Figures()
            took = {False: 0.0, True: 0.0}
            cpu = {False: 0.0, True: 0.0}
            pauses: dict[bool, dict[str, float]] = {False: {}, True: {}}
            delays: list[float] = []
            missed = 0
            memory: list[float] = []
            viewer_cpu = 0.0
            for round_ in range(args.rounds):
                for watching in (False, True):
                    tokens = list(load.tokens.values())
                    if watching:
                        before = rss_mb(pid)[0]
                        child = await open_viewers(watched, tokens, args.viewers,
                                                   args.viewer_nice)
                        await asyncio.sleep(2.0)
                        memory.append((rss_mb(pid)[0] - before) * 1024 / args.viewers)
                    load.sent.clear()
                    paused = await gc_pauses(base)
                    began = cpu_seconds(bot_pid) + (cpu_seconds(pages.pid) if pages else 0.0)
                    figures, seconds = await load.run(args.seconds, args.rate,
                                                      args.seed + 2 * round_ + watching)
                    cpu[watching] += (cpu_seconds(bot_pid)
                                      + (cpu_seconds(pages.pid) if pages else 0.0) - began)
                    took[watching] += seconds
                    for key, value in (await gc_pauses(base)).items():
                        pauses[watching][key] = pauses[watching].get(key, 0.0) + value - paused[key]
                    total = with_ if watching else without
                    total.first += figures.first
                    total.board += figures.board
                    total.moves += figures.moves
                    total.failed += figures.failed
                    print(f"  round {round_ + 1} {'with' if watching else 'without'}:"
                          f" first response p50/p99 {quantiles(figures.first)} ms, load"
                          f" {os.getloadavg()[0]:.2f}", flush=True)
                    if watching:
                        assert child is not None
                        out = await close_viewers(child)
                        child = None
                        viewer_cpu += out["cpu"]
                        more, lost = seen_by_viewers(out["seen"], load.sent, tokens,
                                                     args.viewers)
                        delays += more
                        missed += lost
                    await asyncio.sleep(1.0)
            for name, figures, watching in (("without viewers", without, False),
                                            (f"with {args.viewers} viewers", with_, True)):
                print(f"{name}: {figures.moves / took[watching]:5.1f} moves/s, first response"
                      f" p50/p99 {quantiles(figures.first)} ms, board posted p50/p99"
                      f" {quantiles(figures.board)} ms, {len(figures.first)} moves, the bot's"
                      f" CPU {cpu[watching] * 1000 / max(1, figures.moves):.2f} ms per move"
                      f" (with its picture workers{' and the pages process' if pages else ''})",
                      flush=True)
                gcs = pauses[watching]
                print("  the bot's garbage collector: " + ", ".join(
                    f"gen{g} {gcs.get(f'gen{g}', 0):.0f} pauses"
                    f" ({gcs.get(f'gen{g} s', 0) * 1000:.0f} ms,"
                    f" {gcs.get(f'gen{g} >10ms', 0):.0f} over 10 ms)" for g in range(3)),
                    flush=True)
            print(f"move -> viewer sees it: p50/p99 {quantiles(delays)} ms, max"
                  f" {max(delays, default=0) * 1000:.0f} ms, {len(delays)} seen,"
                  f" {missed} never seen; the viewers' process used"
                  f" {viewer_cpu * 1000 / max(1, with_.moves):.2f} ms of CPU per move", flush=True)
            owner = "bot" if pages is None else "pages process"
            print(f"{owner} RSS per open connection: {statistics.median(memory):.1f} kB"
                  f" (median of {len(memory)} rounds)", flush=True)
        finally:
            await kill_viewers(child)
            if pages is not None and pages.returncode is None:
                pages.terminate()
                await pages.wait()
            await bot.stop()
            await fake.stop()


def cpu_halves() -> tuple[set[int] | None, set[int] | None]:
    """The CPUs the server side runs on and those the clients run on: halves of this process's
    CPUs (None, None with fewer than two, or where the system cannot pin: not Linux)."""
    if not hasattr(os, "sched_getaffinity"):
        return None, None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None, None
    half = len(cpus) // 2
    return set(cpus[:half]), set(cpus[half:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", default="2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pages", choices=("bot", "process"), default="bot")
    parser.add_argument("--pages-cpus", choices=("server", "clients"), default="server",
                        help="with --pages process: the CPUs it runs on (clients: as a web"
                             " server on a core or machine of its own would)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs without and with viewers, alternated (p99 over all)")
    parser.add_argument("--viewer-nice", type=int, default=19,
                        help="the viewers' CPU priority (they stand for browsers elsewhere)")
    parser.add_argument("--no-pin", dest="pin", action="store_false",
                        help="leave the processes wherever the kernel puts them")
    parser.add_argument("--viewers-of", help=argparse.SUPPRESS)
    parser.add_argument("tokens", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.viewers_of:
        asyncio.run(viewers(args.viewers_of, args.tokens, args.viewers))
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
