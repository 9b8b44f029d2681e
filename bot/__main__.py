"""`python -m bot`: run Corral. Exits with status 1 and a clear message on bad settings, and
with status 0 after a clean stop on SIGTERM or SIGINT.

`python -m bot migrate-db --from sqlite:PATH --to postgresql://...` copies a SQLite store into
an empty PostgreSQL database (see bot/store/migrate.py); `python -m bot backup [PATH]` and
`python -m bot restore PATH` copy the store out and back (bot/store/backup.py).

A second bot on the same SQLite file, or on a shard another process of the same PostgreSQL
deployment runs, exits 1 with one line (bot/store/instance.py)."""

from __future__ import annotations

import asyncio
import faulthandler
import logging
import signal
import sys

import discord

from .config import ConfigError, Settings, load_settings
from .store.instance import AlreadyRunning, is_postgres, lock_postgres, lock_sqlite

SWITCH_INTERVAL = 0.001  # seconds; see main()


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at another REST base or gateway (a proxy, or the test imitation)."""
    import yarl

    discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


async def run(settings: Settings) -> None:
    apply_endpoints(settings)
    holder = await lock_postgres(settings) if is_postgres(settings.database) else None
    try:
        await _run(settings)
    finally:
        if holder is not None:
            await holder.close()


async def _run(settings: Settings) -> None:
    from .client import make_bot

    async with make_bot(settings) as client:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(client.close()))
        await client.start(settings.token)
    await client.close()  # the gateway closing ends start(): wait for the rest of the stop


def setup_logging(level: str) -> None:
    from .interactions import ContextFilter

    handler = logging.StreamHandler()
    handler.addFilter(ContextFilter())
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s [%(ctx)s]: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["migrate-db"]:
        from .store.migrate import main as migrate_main

        return migrate_main(args[1:])
    if args[:1] in (["backup"], ["restore"]):
        from .store.backup import main as backup_main

        return backup_main(args[0], args[1:])
    if args:
        print(f"unknown command {args[0][:40]!r}: run `python -m bot` (the bot), "
              "`python -m bot backup [PATH]`, `python -m bot restore PATH` or "
              "`python -m bot migrate-db --from sqlite:PATH --to postgresql://...`",
              file=sys.stderr)
        return 2
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    lock = None
    try:
        if not is_postgres(settings.database):
            lock = lock_sqlite(settings)  # held until the process ends
    except AlreadyRunning as exc:
        print(f"not starting: {exc}", file=sys.stderr)
        return 1
    setup_logging(settings.log_level)
    # The database threads and the picture pool's threads hand their results to the event
    # loop; while the loop is busy, a thread waits up to the interpreter's switch interval
    # (5 ms) for each turn with the lock, and a few such waits per call made the slowest
    # answers under load hundreds of milliseconds late. 1 ms bounds that wait; a switch is
    # only forced while another thread is waiting, so an idle bot pays nothing.
    sys.setswitchinterval(SWITCH_INTERVAL)
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # `kill -USR1`: where is it stuck?
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN: reset it in the developer portal "
              "(Bot -> Reset Token) and update your .env.", file=sys.stderr)
        return 1
    except AlreadyRunning as exc:
        print(f"not starting: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        if lock is not None:
            lock.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
