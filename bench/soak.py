"""SIGKILL soak: the real bot against the loopback Discord imitation, killed at random moments
while matches of every game are played, then restarted; at the end every logged move must have
been announced exactly once, in order, and each turn's mention sent once.

    python bench/soak.py [--kills 100] [--seed 1] [--dir /tmp/corral-soak]

Players send `/move <notation> #<ply>` (what autocomplete fills in), and send it again when
the answer was lost with the bot: a repeat for a ply already played is recognised, so the log
never holds a move twice. Interactions sent while the bot is down are lost, as on Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from discord_fake import FakeDiscord, Picture, UserRef  # noqa: E402

from games import EXTRA_KITS_VARIABLE, REGISTRY  # noqa: E402

# every game, with its fewest seats (the matches open with their default options)
GAMES = tuple((game_id, game.info.min_seats) for game_id, game in REGISTRY.items())
PLAYED = re.compile(r"\*\*(?P<name>[^*]+)\*\* played `(?P<notation>[^`]+)`")


@dataclass
class Table:
    game_id: str
    channel_id: int
    users: list[int]
    match_id: int | None = None
    done: bool = False
    sent: int = 0


@dataclass
class Report:
    kills: int = 0
    moves_sent: int = 0
    logged_moves: int = 0
    boards: int = 0
    missing: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    out_of_order: list[str] = field(default_factory=list)
    ping_errors: list[str] = field(default_factory=list)
    pings: int = 0
    finished: int = 0
    matches: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.missing or self.duplicated or self.out_of_order or self.ping_errors)


class Bot:
    def __init__(self, fake: FakeDiscord, folder: Path, env: dict[str, str] | None = None):
        self.fake, self.folder = fake, folder
        self.extra_env = env or {}
        self.database = folder / "corral.sqlite3"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.fake.ready.clear()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CORRAL_"))}
        env.update({"DISCORD_TOKEN": "soak", "CORRAL_DATABASE": str(self.database),
                    "DISCORD_API_BASE": self.fake.api_base,
                    "DISCORD_GATEWAY_URL": self.fake.gateway_url, "CORRAL_LOG_LEVEL": "WARNING",
                    "CORRAL_RETRY_SECONDS": "0.2", "CORRAL_WORKERS": "1",
                    "PYTHONUNBUFFERED": "1",  # this checkout's bot, and the kits this soak plays
                    "PYTHONPATH": os.pathsep.join(
                        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(
                            os.pathsep) if p])})
        if EXTRA_KITS_VARIABLE in os.environ:  # the bot offers every game GAMES lists
            env[EXTRA_KITS_VARIABLE] = os.environ[EXTRA_KITS_VARIABLE]
        env.update(self.extra_env)
        with open(self.folder / "bot.log", "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=str(self.folder), env=env, stdout=log,
                stderr=log)
        await asyncio.wait_for(self.fake.ready.wait(), 60)

    async def kill(self) -> None:
        if self.proc and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()

    async def stop(self) -> None:
        if self.proc and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                await self.kill()


def read_db(database: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def replayed(database: Path, table: Table) -> tuple[Any, list[tuple[str, int | None]]]:
    """The match's state from the bot's log, and the log (notation, actor)."""
    game = REGISTRY[table.game_id]
    (options,) = read_db(database, "SELECT options FROM matches WHERE id = ?", table.match_id)[0]
    log = read_db(database, "SELECT notation, actor_id, kind FROM moves WHERE match_id = ?"
                  " ORDER BY seq", table.match_id)
    state = game.new(len(table.users), json.loads(options))
    entries = []
    for notation, actor, kind in log:
        assert kind == "move", kind
        state = game.play(state, notation)
        entries.append((notation, actor))
    return state, entries


async def open_table(fake: FakeDiscord, bot: Bot, index: int, game_id: str,
                     seats: int) -> Table:
    """A match in a channel of its own, started; each step is sent again until the bot
    (which may be killed meanwhile) has done it."""
    channel = fake.add_channel(fake.guild_id, f"soak-{index}")
    users = [fake.add_user(f"P{index}-{s}") for s in range(seats)]
    table = Table(game_id, channel, users)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rows = read_db(bot.database, "SELECT id, status FROM matches WHERE channel_id = ?"
                       " ORDER BY id DESC LIMIT 1", channel)
        status = rows[0][1] if rows else None
        if status == "active":
            table.match_id = rows[0][0]
            return table
        lobby = [m for m in fake.channel_messages(channel) if fake.custom_ids(m)]
        if status is None:
            options = {"opponent": UserRef(users[1])} if seats == 2 else {}
            await fake.slash(users[0], "play", channel_id=channel, game=game_id, first="me",
                             **options)
        elif lobby:
            message = fake.messages[int(lobby[-1]["id"])]
            ids = fake.custom_ids(message)
            if seats == 2 and any(":accept:" in c for c in ids):
                await fake.click(users[1], message, next(c for c in ids if ":accept:" in c))
            else:
                seated = read_db(bot.database, "SELECT user_id FROM seats WHERE match_id = ?",
                                 rows[0][0])
                waiting = [u for u in users if (u,) not in seated]
                if waiting and any(":join:" in c for c in ids):
                    await fake.click(waiting[0], message, next(c for c in ids if ":join:" in c))
                elif any(":start:" in c for c in ids):
                    await fake.click(users[0], message, next(c for c in ids if ":start:" in c))
        await asyncio.sleep(1.0)
    raise TimeoutError(f"could not open a {game_id} match")


async def open_tables(fake: FakeDiscord, bot: Bot, rng: random.Random) -> list[Table]:
    tables = []
    for index, (game_id, seats) in enumerate(GAMES):
        tables.append(await open_table(fake, bot, len(fake.channels) + index, game_id, seats))
    return tables


async def play(fake: FakeDiscord, bot: Bot, tables: list[Table], rng: random.Random,
               stop: asyncio.Event, report: Report) -> None:
    """Every player to move sends their move; an answer lost with the bot is simply sent
    again (for the same ply) on the next round."""
    while not stop.is_set():
        active = [t for t in tables if not t.done]
        if not active:  # every match is over: a new round, so kills keep landing mid-match
            for index, (game_id, seats) in enumerate(GAMES):
                with contextlib.suppress(TimeoutError, sqlite3.OperationalError):
                    tables.append(await open_table(fake, bot, len(fake.channels) + index,
                                                   game_id, seats))
            continue
        for table in active:
            if stop.is_set():
                return
            try:
                state, _ = replayed(bot.database, table)
            except sqlite3.OperationalError:
                await asyncio.sleep(0.05)
                continue
            game = REGISTRY[table.game_id]
            if game.outcome(state) is not None:
                table.done = True
                continue
            seat = game.to_move(state)
            if seat is None:  # a roll is due (the bot makes it on its next start)
                continue
            notation = random.Random(f"{table.match_id}:{game.ply(state)}").choice(
                game.legal_notations(state))
            record = await fake.slash(table.users[seat], "move", channel_id=table.channel_id,
                                      notation=f"{notation} #{game.ply(state)}")
            report.moves_sent += 1
            with contextlib.suppress(AssertionError, TimeoutError):
                await fake.answered(record, timeout=1.5)
        await asyncio.sleep(0.01)


async def killer(bot: Bot, kills: int, rng: random.Random, report: Report) -> None:
    while report.kills < kills:
        await asyncio.sleep(rng.uniform(0.2, 1.6))
        await bot.kill()
        report.kills += 1
        await asyncio.sleep(rng.uniform(0.0, 0.3))
        await bot.start()


def played_in(text: str) -> list[str]:
    """The moves a board's words announce, each with its player."""
    return [found[0] for found in PLAYED.finditer(text)]


def verify(fake: FakeDiscord, bot: Bot, tables: list[Table], report: Report) -> None:
    for table in tables:
        state, log = replayed(bot.database, table)
        game = REGISTRY[table.game_id]
        # every position the channel was shown, in order: a new board, or a board shown
        # again in place of the last one (bot/quick.py), with what it said then
        shown: list[Picture] = []
        for picture in (p for p in fake.pictures if p.channel_id == table.channel_id):
            if shown and shown[-1].message_id == picture.message_id and played_in(
                    shown[-1].text) == played_in(picture.text):
                continue  # an edit repeated after a kill: the same board, no move more
            shown.append(picture)
        report.boards += len(shown)
        report.matches += 1
        report.finished += game.outcome(state) is not None
        players = [(n, a) for n, a in log if a is not None]
        report.logged_moves += len(players)
        announced = [found["notation"] for p in shown for found in PLAYED.finditer(p.text)]
        expected = []
        replay = game.new(len(table.users), json.loads(read_db(
            bot.database, "SELECT options FROM matches WHERE id = ?", table.match_id)[0][0]))
        for notation, actor in log:
            move = game.parse_move(replay, notation)
            if actor is not None:
                expected.append(game.public_notation(replay, move))
            replay = game.apply(replay, move)
        where = f"match {table.match_id} ({table.game_id})"
        if len(announced) < len(expected):
            report.missing.append(f"{where}: {len(expected) - len(announced)} moves")
        if len(announced) > len(expected):
            report.duplicated.append(f"{where}: {len(announced) - len(expected)} extra")
        if announced != expected[:len(announced)]:
            report.out_of_order.append(where)
            if os.environ.get("SOAK_DEBUG"):
                print(where, expected, [(p.message_id, played_in(p.text), p.route)
                                        for p in shown], file=sys.stderr)
        if len(shown) != len(players) + 1:
            (report.missing if len(shown) < len(players) + 1 else report.duplicated).append(
                f"{where}: {len(shown)} boards for {len(players)} moves")
        # a mention goes only to the player whose turn the board announces, never on two
        # boards in a row (a board posted after its turn was already played pings nobody);
        # only a new message pings (an edit in place notifies nobody)
        previous: set[int] = set()
        posted: set[int] = set()
        for picture in shown:
            first = picture.message_id not in posted
            posted.add(picture.message_id)
            pinged = fake.notified.get(picture.message_id, set()) if first else set()
            final = "🏁" in picture.text
            if pinged and not final and pinged == previous:
                report.ping_errors.append(f"{where}: {pinged} pinged on two boards in a row")
            if pinged and not final and not all(f"<@{u}>, your turn" in picture.text
                                                for u in pinged):
                report.ping_errors.append(f"{where}: pinged someone not to move")
            previous = pinged
            report.pings += len(pinged) if not final else 0


async def soak(kills: int, seed: int, folder: Path, *, moves_after: float = 5.0) -> Report:
    """Run the soak; returns its report (see `Report.ok`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for leftover in folder.glob("corral.sqlite3*"):
        leftover.unlink()
    started = time.perf_counter()
    rng = random.Random(seed)
    fake = FakeDiscord()
    await fake.start()
    bot = Bot(fake, folder)
    report = Report()
    try:
        await bot.start()
        tables = await open_tables(fake, bot, rng)
        stop = asyncio.Event()
        player = asyncio.create_task(play(fake, bot, tables, rng, stop, report))
        await killer(bot, kills, rng, report)
        # after the last restart, let the matches run on for a while, then let the outbox drain
        await asyncio.sleep(moves_after)
        stop.set()
        with contextlib.suppress(BaseException):
            await player
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            pending = read_db(bot.database, "SELECT COUNT(*) FROM outbox WHERE status = 'pending'")
            if pending[0][0] == 0:
                break
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.5)
        verify(fake, bot, tables, report)
    finally:
        await bot.stop()
        await fake.stop()
    report.seconds = time.perf_counter() - started
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default="/tmp/corral-soak")
    args = parser.parse_args()
    report = asyncio.run(soak(args.kills, args.seed, Path(args.dir)))
    print(json.dumps({**report.__dict__, "ok": report.ok}, indent=2))
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
