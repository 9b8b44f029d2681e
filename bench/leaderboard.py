"""`/leaderboard` and `/profile` queries with many finished rated matches.

    python bench/leaderboard.py [--matches 100000] [--players 20000] [--guilds 50] [--runs 200]

Seeds a store with `--matches` finished rated two-player matches (one real match through the
service, cloned in SQL, each with its two rating-history rows; ratings and server membership
computed with OpenSkill in order, as the service does) among `--players` players in
`--guilds` servers, then times the service's leaderboard (global and one server's, with the
caller's own rank) and a profile, each `--runs` times on the committed-data reader: p50/p99.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from bot import ratings  # noqa: E402
from bot.service import Player, Service  # noqa: E402
from bot.store import Store  # noqa: E402

DAY = 86400.0
START = 1_800_000_000.0
GAME = "progressive-mancala"
WHOLE_GAME = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def one_real_match(path: Path) -> None:
    store = await Store.open(path)
    service = Service(store, clock=Clock())
    match = await service.open_match(game_id=GAME, options={}, host=Player(1, "P1"),
                                     opponent=Player(2, "P2"), guild_id=1, channel_id=1,
                                     first="me")
    match = await service.accept(match.id, 2)
    for notation in WHOLE_GAME:
        match = (await service.play(match.id, match.to_move().user_id, notation)).match
    await store.close()


def seed(path: Path, matches: int, players: int, guilds: int) -> None:
    """Clone the real match's row `matches` times and rate them in order."""
    rng = random.Random(1)
    conn = sqlite3.connect(path)
    template = conn.execute("SELECT * FROM matches WHERE id = 1").fetchone()
    names = [r[1] for r in conn.execute("PRAGMA table_info(matches)")]
    row = dict(zip(names, template, strict=True))
    conn.execute("DELETE FROM rating_history")
    conn.execute("DELETE FROM ratings")
    conn.execute("DELETE FROM rating_members")
    skill = {uid: ratings.Skill.new() for uid in range(1, players + 1)}
    strength = {uid: rng.gauss(0, 1) for uid in skill}
    games = dict.fromkeys(skill, 0)
    last = dict.fromkeys(skill, 0.0)
    history, members, match_rows, seat_rows = [], {}, [], []
    now = START - 120 * DAY
    step = 120 * DAY / matches
    for i in range(matches):
        match_id = i + 2
        a, b = rng.sample(range(1, players + 1), 2)
        guild = 1 + (a + b) % guilds
        winner = 0 if strength[a] + rng.gauss(0, 1) > strength[b] + rng.gauss(0, 1) else 1
        places = [1, 2] if winner == 0 else [2, 1]
        after = ratings.rate([skill[a], skill[b]], places)
        now += step
        for uid, place, new in ((a, places[0], after[0]), (b, places[1], after[1])):
            old = skill[uid]
            history.append((match_id, uid, GAME, place, old.mu, old.sigma, new.mu, new.sigma,
                            now, i + 1))
            skill[uid] = new
            games[uid] += 1
            last[uid] = now
            members[(guild, uid)] = now
        values = dict(row, id=match_id, channel_id=10_000 + match_id, guild_id=guild,
                      host_id=a, invited_id=b, finished_at=now, created_at=now - DAY,
                      result=json.dumps({"winners": [winner], "reason": "target", "draw": False}))
        match_rows.append(tuple(values[n] for n in names))
        seat_rows += [(match_id, 0, a, f"P{a}", now), (match_id, 1, b, f"P{b}", now)]
    with conn:
        conn.executemany(f"INSERT INTO matches ({', '.join(names)}) VALUES "
                         f"({', '.join('?' * len(names))})", match_rows)
        conn.executemany("INSERT INTO seats (match_id, seat, user_id, name, joined_at)"
                         " VALUES (?, ?, ?, ?, ?)", seat_rows)
        conn.executemany("INSERT INTO rating_history (match_id, user_id, game, place, mu_before,"
                         " sigma_before, mu_after, sigma_after, rated_at, seq)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", history)
        conn.executemany("INSERT INTO ratings (user_id, game, name, mu, sigma, games,"
                         " last_played_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(uid, GAME, f"P{uid}", s.mu, s.sigma, games[uid], last[uid])
                          for uid, s in skill.items() if games[uid]])
        conn.executemany("INSERT INTO rating_members (guild_id, game, user_id, last_played_at)"
                         " VALUES (?, ?, ?, ?)",
                         [(g, GAME, uid, t) for (g, uid), t in members.items()])
    conn.execute("ANALYZE")
    conn.close()


async def timed(runs: int, make) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await make()
        times.append((time.perf_counter() - started) * 1000)
    return times


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{name:<32} p50 {statistics.median(ordered):7.2f} ms   p99 {p99:7.2f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--guilds", type=int, default=50)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "corral.sqlite3"
        await one_real_match(path)
        started = time.perf_counter()
        seed(path, args.matches, args.players, args.guilds)
        print(f"seeded {args.matches} finished rated matches, {args.players} players, "
              f"{args.guilds} servers in {time.perf_counter() - started:.1f} s")
        store = await Store.open(path)
        clock = Clock()
        service = Service(store, clock=clock)
        rng = random.Random(2)
        users = [rng.randint(1, args.players) for _ in range(args.runs)]
        it = iter(users * 4)
        print(summary("leaderboard global + own rank",
                      await timed(args.runs, lambda: service.leaderboard(GAME, next(it)))))
        print(summary("leaderboard one server + rank", await timed(
            args.runs, lambda: service.leaderboard(GAME, next(it), guild_id=7))))
        print(summary("profile (all games)",
                      await timed(args.runs, lambda: service.profile(next(it)))))
        board = await service.leaderboard(GAME, 1)
        print("top 3:", ", ".join(f"{r.name} {ratings.Skill(r.mu, r.sigma).text()} "
                                  f"({r.games})" for r in board.rows[:3]))
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
