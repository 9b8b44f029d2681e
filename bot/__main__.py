"""`python -m bot`: run Corral. Exits with status 1 and a clear message on bad settings."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from .config import ConfigError, Settings, load_settings


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at another REST base or gateway (a proxy, or the test imitation)."""
    import yarl

    discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


async def run(settings: Settings) -> None:
    from .client import CorralBot

    apply_endpoints(settings)
    async with CorralBot(settings) as client:
        await client.start(settings.token)


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN: reset it in the developer portal "
              "(Bot -> Reset Token) and update your .env.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
