"""The real bot under load: N channels of Progressive Mancala moving at once, against the
loopback Discord imitation (in this process, so its CPU is not the bot's).

    python bench/load.py [--channels 50] [--rate 60] [--seconds 20] [--workers 2,threads]
                         [--setups sqlite,pg-1,pg-2] [--by command|buttons] [--discord-limits]
    python bench/load.py --memory 5000 --workers 2     (RSS after 5,000 matches and moves)

The imitation's rate limits are off unless `--discord-limits`: this bench measures the bot;
bench/ratelimits.py measures what it holds within Discord's limits.

Setups: `sqlite` (the default: one process, a SQLite file), `pg-1` (one process on
PostgreSQL), `pg-2` (two shard processes sharing PostgreSQL, the channels split between a guild
of each shard; CPU and RSS summed over both). PostgreSQL is a throwaway server started from the
machine's binaries (tests/pg_server.py).

For each worker mode: an open run with Poisson arrivals at `--rate` moves/s offered across the
channels (a channel's next move waits for its board), then a saturation run (every channel
moves again as soon as its board is posted). A channel whose match ends starts another (a
/play, then a click on Accept: `starts`, whose time and requests count in the run's figures),
so the number of channels in play stays the same to the end of a run. Reported: first
response p50/p99 (from the interaction to the bot's first answer, on the imitation's clock),
board posted p50/p99 (from the interaction to the new board in the channel), moves/s, the
bot's CPU per move (its process and its picture workers, from /proc; then its main process
alone), the cores it used, the cores this process (the imitation and the players) used, the
bot's REST requests per move, and the bot's RSS idle and after the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from discord_fake import FakeDiscord, UserRef  # noqa: E402
from e2e_helpers import board_buttons  # noqa: E402
from soak import Bot  # noqa: E402

from games.mancala import GAME  # noqa: E402

TICKS = 100  # clock ticks per second for /proc/<pid>/stat


def cpu_seconds(pid: int, children: bool = True) -> float:
    """CPU of a process and (`children`) its live children (the picture workers)."""
    total = 0.0
    pids = [pid]
    if children:
        for task in Path(f"/proc/{pid}/task").iterdir():
            pids += [int(c) for c in (task / "children").read_text().split()]
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def rss_mb(pid: int) -> tuple[float, float, float]:
    """(the bot's own RSS, with its workers, the PSS of it with its workers) in MB. RSS counts
    the pages the processes share (libraries) once in each; PSS splits them among them."""
    def one(p: int, field: str = "Rss:") -> float:
        for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) / 1024
        return 0.0

    own = one(pid)
    children = [int(c) for t in Path(f"/proc/{pid}/task").iterdir()
                for c in (t / "children").read_text().split()]
    return (own, own + sum(one(c) for c in children),
            sum(one(p, "Pss:") for p in [pid, *children]))


def memory_text(rows: list[tuple[float, float, float]]) -> str:
    return (f"{sum(r[0] for r in rows):.0f} MB (with workers {sum(r[1] for r in rows):.0f} MB,"
            f" PSS {sum(r[2] for r in rows):.0f} MB)")


@dataclass
class Table:
    channel: int
    users: list[int]
    state: Any = None
    boards: int = 0
    board_posted: asyncio.Event = field(default_factory=asyncio.Event)
    board_at: float = 0.0
    board: Any = None  # the newest board message


@dataclass
class Figures:
    first: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    moves: int = 0
    failed: int = 0


class Load:
    def __init__(self, fake: FakeDiscord, bot: Bot, by: str = "command"):
        self.fake, self.bot, self.by = fake, bot, by
        self.tables: dict[int, Table] = {}
        self.started = 0  # matches started (each a /play and a click on Accept)
        # the imitation (tests/discord_fake) has no hook for the messages it posts: the bench
        # wraps its private method, as a test double would
        original = fake._new_message  # noqa: SLF001

        def shown(message: Any) -> None:
            table = self.tables.get(int(message["channel_id"]))
            if table is not None:
                table.boards += 1
                table.board = message
                table.board_at = time.perf_counter()
                table.board_posted.set()

        def watched(channel_id: int, body: Any, files: Any, **kwargs: Any) -> Any:
            message = original(channel_id, body, files, **kwargs)
            if message.get("attachments"):
                shown(message)
            return message

        # a quick match shows its next board in place of the last (bot/quick.py): an edit
        # that uploads a new picture is a board shown too
        edit = fake._update  # noqa: SLF001

        async def edited(message: Any, body: Any, files: Any, *args: Any, **kwargs: Any) -> Any:
            result = await edit(message, body, files, *args, **kwargs)
            if files:
                shown(result)
            return result

        fake._new_message = watched  # type: ignore[method-assign]  # noqa: SLF001
        fake._update = edited  # type: ignore[method-assign]  # noqa: SLF001

    async def open(self, index: int, guild_id: int | None = None) -> None:
        fake = self.fake
        channel = fake.add_channel(guild_id or fake.guild_id, f"load-{index}")
        users = [fake.add_user(f"L{index}-{s}") for s in range(2)]
        table = Table(channel, users)
        self.tables[channel] = table
        await self.start_match(table)

    async def start_match(self, table: Table) -> None:
        """A new match in the table's channel: /play against its second player, accepted."""
        fake, channel, users = self.fake, table.channel, table.users
        posted_before = int(fake.channels[channel]["last_message_id"] or 0)

        def invitation() -> Any:  # the newest message since the /play with an Accept button
            for message in reversed(fake.channel_messages(channel)):
                if int(message["id"]) <= posted_before:
                    return None
                if any(":accept:" in c for c in fake.custom_ids(message)):
                    return message
            return None

        await fake.answered(await fake.slash(users[0], "play", channel_id=channel,
                                             game=GAME.id, first="me", opponent=UserRef(users[1])),
                            timeout=60)
        invite = await fake.wait_for(invitation, timeout=60, what="the invitation")
        accept = next(c for c in fake.custom_ids(invite) if ":accept:" in c)
        before = table.boards
        await fake.answered(await fake.click(users[1], invite, accept), timeout=60)
        while table.boards == before:
            table.board_posted.clear()
            await asyncio.wait_for(table.board_posted.wait(), 60)
        table.state = GAME.new(2)
        self.started += 1

    async def move(self, table: Table, rng: random.Random, figures: Figures) -> None:
        if GAME.outcome(table.state) is not None:  # over: the players start another
            await self.start_match(table)
            return
        seat = GAME.to_move(table.state)
        assert seat is not None
        notation = rng.choice(GAME.legal_notations(table.state))
        ply = GAME.ply(table.state)
        before = table.boards
        table.board_posted.clear()
        sent = time.perf_counter()
        if self.by == "buttons":  # the newest board's button for that pit
            button = board_buttons(self.fake, table.board).get(notation)
            if button is None:
                figures.failed += 1
                return
            record = await self.fake.click(table.users[seat], table.board, button)
        else:
            record = await self.fake.slash(table.users[seat], "move", channel_id=table.channel,
                                           notation=f"{notation} #{ply}")
        try:
            await self.fake.answered(record, timeout=30)
            again = [c for c in self.fake.custom_ids(record.original or {})
                     if c.startswith("c1:y:")]
            if again:  # the same pit again after a bonus turn: the bot asks; the player says yes
                await self.fake.answered(await self.fake.click(
                    table.users[seat], record.original, again[0]), timeout=30)
            while table.boards == before:
                table.board_posted.clear()
                await asyncio.wait_for(table.board_posted.wait(), 30)
        except (AssertionError, TimeoutError):
            figures.failed += 1
            return
        figures.first.append(record.answered_after or 0.0)
        figures.board.append(table.board_at - sent)
        figures.moves += 1
        table.state = GAME.play(table.state, notation)

    async def run(self, seconds: float, rate: float | None, seed: int) -> tuple[Figures, float]:
        """Open (Poisson at `rate`) or saturated (`rate` None) for `seconds`."""
        figures = Figures()
        rng = random.Random(seed)
        end = time.perf_counter() + seconds
        tables = list(self.tables.values())
        per_channel = None if rate is None else rate / len(tables)

        async def channel(table: Table) -> None:
            local = random.Random(rng.random())
            while time.perf_counter() < end:
                if per_channel is not None:  # the next arrival, or the end if that is sooner
                    wait = local.expovariate(per_channel)
                    await asyncio.sleep(min(wait, max(0.0, end - time.perf_counter())))
                    if time.perf_counter() >= end:
                        return
                await self.move(table, local, figures)

        started = time.perf_counter()
        await asyncio.gather(*(channel(t) for t in tables))
        return figures, time.perf_counter() - started


def quantiles(values: list[float]) -> str:
    if not values:
        return "     -/-     "
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{statistics.median(ordered) * 1000:6.1f}/{p99 * 1000:6.1f}"


async def mode(setup: str, workers: str, args: argparse.Namespace) -> None:
    fake = FakeDiscord(check_spec=False)  # its figures are the bot's: no body validation
    if not args.discord_limits:
        fake.global_rate_limit = None
        fake.route_limits = {}
    await fake.start()
    server = None
    with tempfile.TemporaryDirectory() as folder:
        envs: list[dict[str, str]] = [{"CORRAL_WORKERS": workers}]
        guilds = [fake.guild_id]
        if setup.startswith("pg-"):
            from pg_server import PostgresServer

            server = PostgresServer()
            server.start()
            url = await server.fresh_database()
            count = int(setup.split("-")[1])
            envs = [{"CORRAL_WORKERS": workers, "CORRAL_DATABASE": url} for _ in range(count)]
            if count > 1:
                for i, env in enumerate(envs):
                    env.update({"CORRAL_SHARDS": str(count), "CORRAL_SHARD_IDS": str(i)})
                guilds = [fake.add_guild(f"load {i}", shard=(i, count)).guild_id
                          for i in range(count)]
        bots = []
        for i, env in enumerate(envs):
            (Path(folder) / f"p{i}").mkdir()
            bots.append(Bot(fake, Path(folder) / f"p{i}", env))
        label_setup = f"{setup}/{workers}"
        try:
            for bot in bots:
                await bot.start()
            await fake.wait_for(lambda: len([s for s in fake.sessions if s.ws is not None])
                                >= len(bots), timeout=60, what="every process connected")
            await asyncio.sleep(2.0)
            pids = [bot.proc.pid for bot in bots if bot.proc is not None]
            idle = [rss_mb(pid) for pid in pids]
            load = Load(fake, bots[0], args.by)
            if args.memory:
                await memory_run(load, args.memory, pids, idle, label_setup, args.seed)
                return
            await asyncio.gather(*(load.open(i, guilds[i % len(guilds)])
                                   for i in range(args.channels)))
            for label, rate in ((f"open {args.rate:g}/s", float(args.rate)),
                                ("saturated", None)):
                started_before = load.started
                cpu_before = sum(cpu_seconds(pid) for pid in pids)
                main_before = sum(cpu_seconds(pid, children=False) for pid in pids)
                own_before = time.process_time()
                requests_before = len(fake.requests)
                figures, took = await load.run(args.seconds, rate, args.seed)
                requests = len(fake.requests) - requests_before
                cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
                main = sum(cpu_seconds(pid, children=False) for pid in pids) - main_before
                imitation = time.process_time() - own_before
                per_move = cpu / figures.moves * 1000 if figures.moves else float("nan")
                main_per_move = main / figures.moves * 1000 if figures.moves else float("nan")
                print(f"{label_setup:>14} {label:>12} {figures.moves / took:8.1f}"
                      f" {quantiles(figures.first):>14} {quantiles(figures.board):>14}"
                      f" {per_move:8.2f} {main_per_move:8.2f} {cpu / took:6.2f}"
                      f" {imitation / took:6.2f}"
                      f" {requests / max(1, figures.moves):5.2f} {figures.failed:5d}"
                      f" {load.started - started_before:6d}", flush=True)
            after = [rss_mb(pid) for pid in pids]
            print(f"{label_setup:>14} RSS idle {memory_text(idle)}; after {len(load.tables)}"
                  f" matches {memory_text(after)}, {len(pids)} process(es)", flush=True)
        finally:
            for bot in bots:
                await bot.stop()
            await fake.stop()
            if server is not None:
                server.stop()


async def memory_run(load: Load, matches: int, pids: list[int],
                     idle: list[tuple[float, float, float]], label: str, seed: int) -> None:
    """`--memory N`: N matches opened (25 at a time) and one move played in each, then the
    bot's RSS, against the idle figure (the target: <= 100 MB after 5,000 and 5,000)."""
    rng, figures, batch = random.Random(seed), Figures(), 25
    started = time.perf_counter()
    for first in range(0, matches, batch):
        await asyncio.gather(*(load.open(i) for i in range(first, min(matches, first + batch))))
    opened = time.perf_counter() - started
    tables = list(load.tables.values())
    for first in range(0, len(tables), batch):
        await asyncio.gather(*(load.move(t, rng, figures) for t in tables[first:first + batch]))
    after = [rss_mb(pid) for pid in pids]
    print(f"{label:>14} RSS idle {memory_text(idle)}; after {len(tables)} matches (opened in"
          f" {opened:.0f} s) and {figures.moves} moves ({figures.failed} failed)"
          f" {memory_text(after)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--rate", type=float, default=60.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", default="2,threads",
                        help="worker modes to compare: a process count, or 'threads'")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--by", choices=("command", "buttons"), default="command",
                        help="how players move: /move, or the board's buttons")
    parser.add_argument("--discord-limits", action="store_true",
                        help="keep the imitation's rate limits on (Discord's: 50 requests/s)")
    parser.add_argument("--setups", default="sqlite",
                        help="sqlite, pg-1 (one process on PostgreSQL), pg-2 (two shards)")
    parser.add_argument("--memory", type=int, default=0, metavar="N",
                        help="instead of the timed runs: open N matches, play a move in each,"
                             " and report the RSS")
    args = parser.parse_args()
    print(f"{'setup/workers':>14} {'run':>12} {'moves/s':>8} {'first p50/p99':>14}"
          f" {'board p50/p99':>14} {'cpu ms/mv':>8} {'main ms':>8} {'cores':>6} {'fake':>6}"
          f" {'req/mv':>6} {'fail':>5} {'starts':>6}")
    for setup in args.setups.split(","):
        for workers in args.workers.split(","):
            asyncio.run(mode(setup, workers, args))


if __name__ == "__main__":
    main()
