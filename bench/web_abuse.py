"""The web pages under hostile load (issue 51): the real bot (pages inside it) against the
loopback Discord imitation, its descriptors limited as `deploy/corral.service` limits them
(LimitNOFILE=16384), attacked from a client process of its own (at nice 10) on loopback only,
each phase bounded in count and time:

1. churn: `--churners` loops open and close a quiet match's live page for `--churn-seconds`;
   the bot's RSS before, right after, and `--settle` seconds later;
2. idle streams: `--streams` live streams held open over `--watched` matches (the unit's
   limit, the default caps), with `/healthz` asked every 0.5 s and moves played on other
   matches at `--rate` moves/s; the moves' first response p50/p99 against a run without the
   streams in the same bench, and the bot's RSS per stream;
3. slow headers: `--slow` sockets that send half a request and nothing more: how long until
   the bot drops each (its header time limit is 10 s), with /healthz asked throughout;
4. a flood: `--flood` sockets opened at once and left silent for 12 s, with /healthz asked
   throughout; the most descriptors the bot had open, and how many log lines it wrote.
   `--nofile 1024 --flood 1100` is a bot started from a shell without the unit's limit;
5. malformed requests: `--bad` requests with a broken header line, one connection each, as
   fast as they go: how many bytes the bot's log grew, and what the answers carried.

    python bench/web_abuse.py [--churners 20] [--churn-seconds 30] [--streams 10000]
                              [--watched 10] [--rate 10] [--seconds 30] [--slow 500]
                              [--flood 1100] [--bad 1000] [--nofile 16384]
                              [--skip churn,streams,slow,flood,bad]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

UNIT_NOFILE = 16384  # deploy/corral.service's LimitNOFILE


# -- the attacker (a process of its own) ----------------------------------------------------------
async def _open_stream(host: str, port: int, path: str) -> tuple[Any, Any] | None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        writer.close()
        return None
    data = b""
    while b"\n\n" not in data:  # the match as it is: the first event
        chunk = await reader.read(65536)
        if not chunk:
            return None
        data += chunk
    return reader, writer


async def churn(host: str, port: int, path: str, loops: int, seconds: float) -> None:
    """Open a live stream, read its first event, close; `loops` at once for `seconds`."""
    end = time.monotonic() + seconds
    done = refused = 0

    async def loop() -> None:
        nonlocal done, refused
        while time.monotonic() < end:
            try:
                opened = await _open_stream(host, port, path)
            except OSError:
                refused += 1
                continue
            if opened is None:
                refused += 1
                continue
            opened[1].close()
            done += 1

    await asyncio.gather(*(loop() for _ in range(loops)))
    print(json.dumps({"connections": done, "refused": refused}), flush=True)


async def hold(host: str, port: int, paths: list[str], count: int) -> None:
    """`count` live streams over `paths`, held until stdin closes."""
    held: list[Any] = []
    refused = 0
    for i in range(count):
        try:
            opened = await _open_stream(host, port, paths[i % len(paths)])
        except OSError:
            opened = None
        if opened is None:
            refused += 1
        else:
            held.append(opened)
        if i % 100 == 99:
            await asyncio.sleep(0.01)
    print(json.dumps({"held": len(held), "refused": refused}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for _, writer in held:
        writer.close()


async def slow(host: str, port: int, count: int) -> None:
    """`count` sockets that send half a request; how long each stays open."""
    began = time.monotonic()
    opened = [await asyncio.open_connection(host, port) for _ in range(count)]
    for _, writer in opened:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n")  # never finished

    async def until_dropped(reader: Any) -> float:
        try:
            await asyncio.wait_for(reader.read(), 120)
        except (TimeoutError, OSError):
            pass
        return time.monotonic() - began

    times = await asyncio.gather(*(until_dropped(r) for r, _ in opened))
    print(json.dumps({"dropped_after": sorted(times)}), flush=True)


async def flood(host: str, port: int, count: int, seconds: float) -> None:
    """`count` sockets opened at once and left silent for `seconds`."""
    opened, failed = [], 0
    for _ in range(count):
        try:
            opened.append(await asyncio.open_connection(host, port))
        except OSError:
            failed += 1
    await asyncio.sleep(seconds)
    closed = sum(1 for reader, _ in opened if reader.at_eof())
    for _, writer in opened:
        writer.close()
    print(json.dumps({"opened": len(opened), "failed": failed, "closed_by_bot": closed}),
          flush=True)


async def malformed(host: str, port: int, count: int) -> None:
    """`count` requests with a broken header line; what came back."""
    answers: dict[str, int] = {}
    echoed = secured = 0
    for i in range(count):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(b"GET /m/<script>%d HTTP/1.1\r\nHost: bench\r\nBad Header Line\r\n\r\n" % i)
        answer = await reader.read()
        writer.close()
        status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
        answers[status] = answers.get(status, 0) + 1
        echoed += b"Bad Header Line" in answer or b"<script>" in answer
        secured += b"Content-Security-Policy" in answer
    print(json.dumps({"answers": answers, "echoed": echoed, "secured": secured}), flush=True)


def attacker(argv: list[str]) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    mode, host, port, *rest = argv
    if mode == "churn":
        asyncio.run(churn(host, int(port), rest[0], int(rest[1]), float(rest[2])))
    elif mode == "hold":
        asyncio.run(hold(host, int(port), rest[1:], int(rest[0])))
    elif mode == "bad":
        asyncio.run(malformed(host, int(port), int(rest[0])))
    elif mode == "flood":
        asyncio.run(flood(host, int(port), int(rest[0]), float(rest[1])))
    else:
        asyncio.run(slow(host, int(port), int(rest[0])))


# -- the run --------------------------------------------------------------------------------------
class Health:
    """/healthz asked every 0.5 s: how many answers were not 200 or took over a second."""

    def __init__(self, base: str):
        self.base, self.asked, self.bad, self.slowest = base, 0, 0, 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        import aiohttp

        timeout = aiohttp.ClientTimeout(total=5)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while True:
                began = time.perf_counter()
                try:
                    async with session.get(f"{self.base}/healthz") as response:
                        ok = response.status == 200
                except (aiohttp.ClientError, TimeoutError):
                    ok = False
                took = time.perf_counter() - began
                self.asked += 1
                self.slowest = max(self.slowest, took)
                if not ok or took > 1.0:
                    self.bad += 1
                await asyncio.sleep(0.5)

    def __enter__(self) -> Health:
        self._task = asyncio.create_task(self._run())
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._task is not None
        self._task.cancel()

    def text(self) -> str:
        return (f"/healthz asked {self.asked} times: {self.bad} not 200 within 1 s, slowest "
                f"{self.slowest * 1000:.0f} ms")


async def spawn(*args: str, stdin: bool = False) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--attack", *args, stdout=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.PIPE if stdin else None, preexec_fn=lambda: os.nice(10))


async def output(child: asyncio.subprocess.Process, seconds: float) -> dict[str, Any]:
    assert child.stdout is not None
    line = await asyncio.wait_for(child.stdout.readline(), seconds)
    result: dict[str, Any] = json.loads(line)
    return result


async def start_limited(bot: Any, nofile: int) -> None:
    """Start the bot with its descriptors limited to `nofile` (soft and hard), as systemd's
    LimitNOFILE does; this process and the attackers keep theirs."""
    spawn_original = asyncio.create_subprocess_exec

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    async def spawn_limited(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        return await spawn_original(*args, preexec_fn=limited, **kwargs)

    asyncio.create_subprocess_exec = spawn_limited  # type: ignore[assignment]
    try:
        await bot.start()
    finally:
        asyncio.create_subprocess_exec = spawn_original  # type: ignore[assignment]


async def run(args: argparse.Namespace) -> None:
    from discord_fake import FakeDiscord
    from load import Load
    from soak import Bot
    from web_load import token_of

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    host, base = "127.0.0.1", f"http://127.0.0.1:{port}"
    fake = FakeDiscord(check_spec=False)
    fake.global_rate_limit = None
    fake.route_limits = {}
    await fake.start()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the imitation's sockets
    with tempfile.TemporaryDirectory() as folder:
        bot = Bot(fake, Path(folder), {"CORRAL_WEB_BIND": f"{host}:{port}",
                                        "CORRAL_WEB_URL": base})
        await start_limited(bot, min(args.nofile, hard))
        try:
            assert bot.proc is not None
            pid = bot.proc.pid
            await asyncio.sleep(2.0)
            watched = Load(fake, bot)
            await asyncio.gather(*(watched.open(i) for i in range(args.watched)))
            played = Load(fake, bot)
            await asyncio.gather(*(played.open(100 + i) for i in range(10)))
            paths = [f"/m/{token_of(t.board)}/live?lang=en" for t in watched.tables.values()]
            limit = Path(f"/proc/{pid}/limits").read_text()
            nofile = next(line for line in limit.splitlines() if "open files" in line)
            print(f"bot pid {pid}: {' '.join(nofile.split())}; load average "
                  f"{os.getloadavg()[0]:.2f}", flush=True)
            skip = set(args.skip.split(",")) if args.skip else set()
            if "churn" not in skip:
                await churn_phase(args, host, port, base, pid, paths[0])
            if "streams" not in skip:
                await streams_phase(args, host, port, base, pid, paths, played)
            if "slow" not in skip:
                await slow_phase(args, host, port, base)
            if "flood" not in skip:
                await flood_phase(args, host, port, base, pid, Path(folder) / "bot.log")
            if "bad" not in skip:
                await bad_phase(args, host, port, Path(folder) / "bot.log")
        finally:
            await bot.stop()
            await fake.stop()


async def churn_phase(args: argparse.Namespace, host: str, port: int, base: str, pid: int,
                      path: str) -> None:
    """1. open and close a quiet match's live page from `--churners` loops."""
    from load import rss_mb

    before = rss_mb(pid)[0]
    with Health(base) as health:
        child = await spawn("churn", host, str(port), path, str(args.churners),
                            str(args.churn_seconds))
        got = await output(child, args.churn_seconds + 60)
        await child.wait()
    after = rss_mb(pid)[0]
    await asyncio.sleep(args.settle)
    settled = rss_mb(pid)[0]
    print(f"churn: {got['connections']} live pages opened and closed by {args.churners} loops "
          f"in {args.churn_seconds:g} s ({got['refused']} refused); bot RSS {before:.1f} -> "
          f"{after:.1f} MB (+{after - before:.1f}), {settled:.1f} MB {args.settle:g} s later "
          f"(+{settled - before:.1f}); {health.text()}", flush=True)


async def streams_phase(args: argparse.Namespace, host: str, port: int, base: str, pid: int,
                        paths: list[str], played: Any) -> None:
    """2. idle streams held open, with moves and /healthz beside them."""
    from load import quantiles, rss_mb

    quiet, _ = await played.run(args.seconds, args.rate, 1)
    print(f"moves without streams: first response p50/p99 {quantiles(quiet.first)} ms "
          f"({quiet.moves} moves, {quiet.failed} failed)", flush=True)
    before = rss_mb(pid)[0]
    began = time.monotonic()
    with Health(base) as health:
        child = await spawn("hold", host, str(port), str(args.streams), *paths, stdin=True)
        got = await output(child, 600)
        opened = time.monotonic() - began
        await asyncio.sleep(2.0)
        held = rss_mb(pid)[0]
        busy, _ = await played.run(args.seconds, args.rate, 2)
        assert child.stdin is not None
        child.stdin.close()
        await child.wait()
    per = (held - before) * 1024 / max(1, got["held"])
    print(f"idle streams: {got['held']} held ({got['refused']} refused) over {len(paths)} "
          f"matches, opened in {opened:.0f} s; bot RSS {before:.1f} -> {held:.1f} MB, "
          f"{per:.1f} kB per stream", flush=True)
    ratio = (sorted(busy.first)[int(len(busy.first) * 0.99)]
             / max(1e-9, sorted(quiet.first)[int(len(quiet.first) * 0.99)])
             if busy.first and quiet.first else float("nan"))
    print(f"moves with the streams: first response p50/p99 {quantiles(busy.first)} ms "
          f"({busy.moves} moves, {busy.failed} failed; p99 {ratio:.2f}x without); "
          f"{health.text()}", flush=True)
    await asyncio.sleep(3.0)
    print(f"after the streams closed: bot RSS {rss_mb(pid)[0]:.1f} MB", flush=True)


async def slow_phase(args: argparse.Namespace, host: str, port: int, base: str) -> None:
    """3. sockets that send half a request."""
    with Health(base) as health:
        child = await spawn("slow", host, str(port), str(args.slow))
        got = await output(child, 200)
        await child.wait()
    times = got["dropped_after"]
    within = sum(1 for t in times if t <= 11.0)
    print(f"slow headers: {len(times)} sockets, dropped after p50 {times[len(times) // 2]:.1f} "
          f"s, max {times[-1]:.1f} s; {within} within 11 s of the first opening; "
          f"{health.text()}", flush=True)


async def flood_phase(args: argparse.Namespace, host: str, port: int, base: str, pid: int,
                      log: Path) -> None:
    """4. silent sockets opened at once; the bot's descriptors and log meanwhile."""
    logged = log.stat().st_size
    most = 0
    with Health(base) as health:
        child = await spawn("flood", host, str(port), str(args.flood), "12")
        while True:
            try:
                got = await output(child, 0.2)
                break
            except TimeoutError:
                most = max(most, len(os.listdir(f"/proc/{pid}/fd")))
        await child.wait()
    print(f"flood: {got['opened']} silent sockets ({got['failed']} could not connect, "
          f"{got['closed_by_bot']} closed by the bot within 12 s); the bot had at most {most} "
          f"descriptors open; its log grew {log.stat().st_size - logged} bytes; "
          f"{health.text()}", flush=True)


async def bad_phase(args: argparse.Namespace, host: str, port: int, log: Path) -> None:
    """5. malformed requests: the log, and the answers."""
    logged = log.stat().st_size
    began = time.monotonic()
    child = await spawn("bad", host, str(port), str(args.bad))
    got = await output(child, 300)
    await child.wait()
    took = time.monotonic() - began
    print(f"malformed: {args.bad} requests in {took:.1f} s, answered {got['answers']}; "
          f"{got['secured']} with the security headers, {got['echoed']} echoing the request; "
          f"the bot's log grew {log.stat().st_size - logged} bytes", flush=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--attack":
        attacker(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--churners", type=int, default=20)
    parser.add_argument("--churn-seconds", type=float, default=30.0)
    parser.add_argument("--settle", type=float, default=15.0)
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--watched", type=int, default=10)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--flood", type=int, default=1100)
    parser.add_argument("--bad", type=int, default=1000)
    parser.add_argument("--nofile", type=int, default=UNIT_NOFILE,
                        help="the bot's descriptor limit (the unit's LimitNOFILE)")
    parser.add_argument("--skip", default="", help="phases to skip: churn,streams,slow,flood")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
