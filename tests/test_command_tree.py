"""The bot's whole command tree, as `setup_hook` and `sync_commands` build and sync it, checked
as Discord checks the bulk overwrite (`PUT /applications/{id}/commands`, and the guild variant):
against Discord's OpenAPI description (tests/discord_fake/spec.py), then the rules it cannot
say (tests/discord_fake/limits.py). One bad option and Discord refuses the whole sync: no
command would appear on any server. No Discord needed."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from discord_fake import limits, spec
from discord_fake.errors import Form

with warnings.catch_warnings():  # discord.player imports audioop, deprecated in 3.11
    warnings.simplefilter("ignore", DeprecationWarning)
    import discord

from bot import cogs
from bot.client import CorralBot
from bot.config import Settings
from bot.words.translator import CatalogTranslator

UNUSED: Any = None
GLOBAL = "/applications/{application_id}/commands"
GUILD = "/applications/{application_id}/guilds/{guild_id}/commands"


async def synced_payload(guild_id: int | None = None) -> list[dict[str, Any]]:
    """The body `tree.sync` sends: the commands registered as at start, translated by the
    bot's translator (bot/client.py, setup_hook and sync_commands)."""
    bot = CorralBot(Settings(token="unused", guild_id=guild_id))
    # what the commands use is only used when they run
    cogs.register_all(bot.tree, service=UNUSED, handling=UNUSED, pictures=UNUSED)
    await bot.tree.set_translator(CatalogTranslator())
    guild = discord.Object(guild_id) if guild_id else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    translator = bot.tree.translator
    assert translator is not None
    return [await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands(guild=guild)]


def refusals(template: str, payload: list[dict[str, Any]]) -> list[str]:
    """What Discord would answer 50035 for, one line per error, its path spelled with the
    commands' and options' names (`/record > match > max_value`)."""
    form = Form()
    described = spec.load()
    if described is not None:  # else skipped, as the report header says (not with CI=true)
        form = described.body_errors(described.template("PUT", template), payload)
    if not form.errors:  # the hand rules run on what the description let through
        limits.check_commands(form, payload)
    return [f"{named(path, payload)}: {code} {message}"
            for path, code, message in walk(form.errors)]


def walk(tree: dict[str, Any], at: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str, str]]:
    found = [(at, e["code"], e["message"]) for e in tree.get("_errors", [])]
    for key, sub in tree.items():
        if key != "_errors":
            found += walk(sub, at + (key,))
    return found


def named(path: tuple[str, ...], payload: Any) -> str:
    parts, node = [], payload
    for key in path:
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
            parts.append(f"{node.get('name', key)}" if isinstance(node, dict) else key)
        elif isinstance(node, dict) and key in node:
            node = node[key]
            if key not in ("options", "choices"):
                parts.append(key)
        else:
            node = None
            parts.append(key)
    return "/" + " > ".join(parts)


@pytest.mark.parametrize(("guild_id", "template"), [(None, GLOBAL), (987654321012345678, GUILD)],
                         ids=["global", "guild"])
async def test_the_synced_command_tree_is_what_discord_accepts(guild_id, template):
    payload = await synced_payload(guild_id)
    assert len(payload) >= 5 and all(c["name"] for c in payload)
    json.dumps(payload)  # what is sent must be JSON
    errors = refusals(template, payload)
    assert not errors, "Discord would refuse the whole sync (50035):\n" + "\n".join(errors)


async def test_an_option_bound_past_2_53_is_refused_and_named(monkeypatch):
    """The defect 8a4f568 fixed: /record's and /replay's `match` declared max_value 2**53,
    which Discord refuses (an Int53 is at most 2**53 - 1), and with it the whole sync."""
    if spec.load() is None:
        pytest.skip(spec.status())
    from bot.cogs import info, stats

    monkeypatch.setattr(info, "MAX_MATCH_ID", 2**53)
    monkeypatch.setattr(stats, "MAX_MATCH_ID", 2**53)
    errors = refusals(GLOBAL, await synced_payload())
    too_big = "NUMBER_TYPE_MAX int value should be less than or equal to 9007199254740991."
    assert sorted(errors) == [f"/record > match > max_value: {too_big}",
                              f"/replay > match > max_value: {too_big}"], errors


async def test_the_hand_rules_name_the_offending_option_too():
    payload = await synced_payload()
    command = next(c for c in payload if c.get("options"))
    first = command["options"][0]
    broken = [*payload, {**command, "options": [{**first, "name": "Not Lowercase"}]}]
    errors = refusals(GLOBAL, broken)
    assert f"/{command['name']}: APPLICATION_COMMANDS_DUPLICATE_NAME" in errors[0]
    assert any(e.startswith(f"/{command['name']} > Not Lowercase > name: "
                            "APPLICATION_COMMAND_INVALID_NAME") for e in errors), errors


async def test_tournament_create_bounds_are_the_services():
    """Issue 51 point 10: /tournament create told Discord rounds 1-99 and min_rating 0-99,999
    while the service takes 1-20 and 0-5,000, so the refusal came after the player typed it.
    The synced options must carry the service's own bounds."""
    from bot.service import tournaments as service

    payload = await synced_payload()
    group = next(c for c in payload if c["name"] == "tournament")
    create = next(o for o in group["options"] if o["name"] == "create")
    options = {o["name"]: o for o in create["options"]}
    assert (options["rounds"]["min_value"], options["rounds"]["max_value"]) == (
        service.MIN_ROUNDS, service.MAX_ROUNDS)
    assert (options["min_rating"]["min_value"], options["min_rating"]["max_value"]) == (
        service.MIN_MIN_RATING, service.MAX_MIN_RATING)
