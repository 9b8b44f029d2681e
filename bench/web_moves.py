"""A move from the match's web page against a move from Discord, in the same run: the real bot
(pages inside it, sign-in on: DISCORD_CLIENT_ID/SECRET at the loopback Discord imitation,
CORRAL_WEB_URL) with `--matches` matches of Progressive Mancala, two players each, every
player signed in on the pages once before the runs (tests/test_web_play.py's `sign_in`, each
player a client of their own by X-Forwarded-For, as behind a proxy).

Moves arrive as in bench/web_load.py (Poisson, `--rate` moves/s offered over the matches, a
match's next move waiting for its board), and each match alternates the two kinds, move by
move (half the matches start on the web, half from Discord), so both kinds are offered at
the same rate over the same matches and any drift of the machine falls on both:

- Discord: `/move <pit> #<ply>` (bench/load.py's players); first response = from the
  interaction to the bot's first answer, on the imitation's clock.
- web: the player's page read (its form's csrf, version, answers and a pit; not timed), then
  the form POSTed to /m/<token>/move; first response = from the POST to its 303 answer (the
  move is committed when it answers: `Service.play`, as a click). The browser's GET of the
  page it is sent back to is timed too ("page back").

Each of `--rounds` rounds runs `--seconds` without viewers and then `--seconds` with
`--viewers` live streams (server-sent events, bench/web_load.py's viewers in a process of
their own at nice 19) spread over the matches; figures are pooled per kind of run. The bot
and its picture workers run on the first half of the CPUs, this process (the imitation and
the players) and the viewers on the other half, as in bench/web_load.py (`--no-pin`: not).

    python bench/web_moves.py [--matches 50] [--viewers 1000] [--rate 20] [--seconds 20]
                              [--rounds 2] [--workers 2] [--only-with] [--no-pin]

Reported per kind of move and run: moves, failures, first response p50/p99, board posted in
the channel p50/p99 (from the interaction or the POST), and for the web the page back; the
ratio web/Discord of the first response's p50 and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from discord_fake import APP_ID, FakeDiscord  # noqa: E402
from load import Figures, Table, quantiles  # noqa: E402
from soak import Bot  # noqa: E402
from test_web_play import Browser, form_of, sign_in  # noqa: E402
from web_load import (  # noqa: E402
    Timed,
    close_viewers,
    free_port,
    imitation,
    kill_viewers,
    open_viewers,
    start_pinned,
    token_of,
)

from games.mancala import GAME  # noqa: E402

SIGN_INS_AT_ONCE = 8  # the bot exchanges 4 codes at once; more would only queue


class Both(Timed):
    """bench/web_load.py's players, each match alternating a move from its web page and one
    from Discord."""

    def __init__(self, fake: FakeDiscord, bot: Bot, base: str):
        super().__init__(fake, bot)
        self.base = base
        self.browsers: dict[int, Browser] = {}  # user -> their signed-in browser
        self.pages: dict[int, str] = {}  # channel -> its current match's token
        self.by_web: dict[int, bool] = {}  # channel -> whether its next move is from the page
        self.web = Figures()  # this run's web moves (Load.run returns the Discord ones)
        self.page_back: list[float] = []  # from the POST to the page it sends back, read
        self.refusals: dict[str, int] = {}  # why web moves failed

    async def sign_in_all(self) -> None:
        users = [u for t in self.tables.values() for u in t.users]
        limit = asyncio.Semaphore(SIGN_INS_AT_ONCE)

        async def one(index: int, user: int) -> None:
            async with limit:  # each player a client of its own, as behind a proxy
                forwarded = f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256}"
                self.browsers[user] = await sign_in(self.fake, self.base, user, "/",
                                                    {"X-Forwarded-For": forwarded})

        await asyncio.gather(*(one(i + 1, u) for i, u in enumerate(users)))
        for i, table in enumerate(self.tables.values()):
            self.pages[table.channel] = token_of(table.board)
            self.by_web[table.channel] = i % 2 == 0

    async def close(self) -> None:
        await asyncio.gather(*(b.close() for b in self.browsers.values()))

    async def move(self, table: Table, rng: random.Random, figures: Figures) -> None:
        if GAME.outcome(table.state) is not None:  # a new match (Load.move starts it)
            await super().move(table, rng, figures)
            self.pages[table.channel] = token_of(table.board)
            return
        web = self.by_web[table.channel]
        self.by_web[table.channel] = not web
        if web:
            await self.web_move(table, rng)
        else:
            await super().move(table, rng, figures)

    def refused(self, why: str) -> None:
        self.web.failed += 1
        self.refusals[why] = self.refusals.get(why, 0) + 1

    async def web_move(self, table: Table, rng: random.Random) -> None:
        seat = GAME.to_move(table.state)
        assert seat is not None
        browser = self.browsers[table.users[seat]]
        page = f"/m/{self.pages[table.channel]}?lang=en"
        status, html, _ = await browser.get(page)  # the page as the player has it
        form = form_of(html)
        if status != 200 or not form.choices or "version" not in form.hidden:
            self.refused(f"page {status}, no form")
            return
        choice = rng.choice(form.choices)
        notation = choice.removeprefix("=")
        before = table.boards
        table.board_posted.clear()
        token = self.tokens.get(table.channel)
        if token is not None:  # for the viewers' delays, as Timed does
            self.sent[(token, GAME.ply(table.state) + 1)] = time.time()
        sent = time.perf_counter()
        async with browser.session.post(
                f"{self.base}/m/{self.pages[table.channel]}/move?lang=en",
                data={**form.hidden, "choice": choice}, allow_redirects=False) as response:
            first = time.perf_counter() - sent
            status, going = response.status, response.headers.get("Location", "")
            await response.read()
        if status != 303 or "stale=1" in going or "answers=" in going:
            self.refused(f"{status} {going.rpartition('&')[2][:20]}")
            return
        status, html, _ = await browser.get(going)  # the browser follows the 303
        back = time.perf_counter() - sent
        if "Played: " not in html:
            self.refused("not played")
            return
        try:
            while table.boards == before:
                table.board_posted.clear()
                await asyncio.wait_for(table.board_posted.wait(), 30)
        except TimeoutError:
            self.refused("no board")
            return
        self.web.first.append(first)
        self.web.board.append(table.board_at - sent)
        self.web.moves += 1
        self.page_back.append(back)
        table.state = GAME.play(table.state, notation)


def ratio(web: list[float], discord: list[float]) -> str:
    if not web or not discord:
        return "-"
    w, d = sorted(web), sorted(discord)
    p = [(s[len(s) // 2], s[min(len(s) - 1, int(len(s) * 0.99))]) for s in (w, d)]
    return f"{p[0][0] / p[1][0]:.2f}/{p[0][1] / p[1][1]:.2f}"


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    fake = await imitation()
    fake.oauth_redirect_uris.add(base + "/auth/callback")
    child = None
    load = None
    with tempfile.TemporaryDirectory() as folder:
        bot = Bot(fake, Path(folder), {
            "CORRAL_WORKERS": args.workers, "CORRAL_WEB_BIND": f"127.0.0.1:{port}",
            "CORRAL_WEB_URL": base, "DISCORD_CLIENT_ID": str(APP_ID),
            "DISCORD_CLIENT_SECRET": fake.client_secret})
        try:
            server_cpus, client_cpus = await start_pinned(bot, args.pin)
            load = Both(fake, bot, base)
            await asyncio.gather(*(load.open(i) for i in range(args.matches)))
            for table in load.tables.values():
                load.tokens[table.channel] = token_of(table.board)
            began = time.perf_counter()
            await load.sign_in_all()
            print(f"{args.matches} matches of 2 ({len(load.browsers)} players signed in in"
                  f" {time.perf_counter() - began:.1f} s), each alternating web and Discord"
                  f" moves; {args.rate:g} moves/s offered, {args.seconds:g} s per run,"
                  f" {args.rounds} round(s) of "
                  + ("" if args.only_with else "a run without viewers then ")
                  + f"one with {args.viewers}; picture workers {args.workers}; "
                  + (f"server on CPUs {sorted(server_cpus)}, clients on {sorted(client_cpus)}"
                     if server_cpus and client_cpus else "not pinned")
                  + f"; load average {os.getloadavg()[0]:.2f}", flush=True)
            pooled = {w: (Figures(), Figures(), []) for w in (False, True)}
            took = {False: 0.0, True: 0.0}
            for round_ in range(args.rounds):
                for watching in ((True,) if args.only_with else (False, True)):
                    if watching:
                        child = await open_viewers(base, list(load.tokens.values()),
                                                   args.viewers, args.viewer_nice)
                        await asyncio.sleep(2.0)
                    load.sent.clear()
                    load.web, load.page_back = Figures(), []
                    discord, seconds = await load.run(args.seconds, args.rate,
                                                      args.seed + 2 * round_ + watching)
                    took[watching] += seconds
                    d, w, back = pooled[watching]
                    for total, figures in ((d, discord), (w, load.web)):
                        total.first += figures.first
                        total.board += figures.board
                        total.moves += figures.moves
                        total.failed += figures.failed
                    back += load.page_back
                    print(f"  round {round_ + 1} {'with' if watching else 'without'}: first"
                          f" response p50/p99 Discord {quantiles(discord.first)} ms, web"
                          f" {quantiles(load.web.first)} ms, ratio"
                          f" {ratio(load.web.first, discord.first)} ({discord.moves}/"
                          f"{load.web.moves} moves), load {os.getloadavg()[0]:.2f}", flush=True)
                    if watching:
                        assert child is not None
                        await close_viewers(child)
                        child = None
                    await asyncio.sleep(1.0)
            print(f"{'run':>14} {'kind':>8} {'moves':>6} {'fail':>5} {'first p50/p99':>14}"
                  f" {'board p50/p99':>14} {'page back':>14}")
            for watching in ((True,) if args.only_with else (False, True)):
                d, w, back = pooled[watching]
                name = f"{args.viewers} viewers" if watching else "no viewers"
                for kind, figures, extra in (("Discord", d, ""), ("web", w, quantiles(back))):
                    print(f"{name:>14} {kind:>8} {figures.moves:6d} {figures.failed:5d}"
                          f" {quantiles(figures.first):>14} {quantiles(figures.board):>14}"
                          f" {extra:>14}")
                print(f"{name:>14} web/Discord first response p50/p99:"
                      f" {ratio(w.first, d.first)};"
                      f" {(d.moves + w.moves) / max(took[watching], 1e-9):.1f} moves/s",
                      flush=True)
            if load.refusals:
                print(f"web moves that failed: {load.refusals}", flush=True)
        finally:
            await kill_viewers(child)
            if load is not None:
                await load.close()
            await bot.stop()
            await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=50, help="of two players each")
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=20.0,
                        help="moves/s offered over all matches (half of them from the web)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", default="2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only-with", action="store_true",
                        help="only runs with the viewers (no run without them)")
    parser.add_argument("--viewer-nice", type=int, default=19)
    parser.add_argument("--no-pin", dest="pin", action="store_false",
                        help="leave the processes wherever the kernel puts them")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
