"""/help lists every command the bot registers (from its command tree, so that no command
added later is left out), grouped, each with its description in the reader's language, within
Discord's limits."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from discord_fake import limits
from discord_fake.errors import Form

with warnings.catch_warnings():  # discord.player imports audioop, deprecated in 3.11
    warnings.simplefilter("ignore", DeprecationWarning)
    from discord import app_commands

from bot import cogs
from bot.client import CorralBot
from bot.cogs.info import HELP_SECTIONS, help_messages
from bot.config import Settings
from bot.words.i18n import COMMAND_GROUPS, COMMAND_IDS, Texts, command_groups

UNUSED: Any = None


def the_tree() -> app_commands.CommandTree:
    bot = CorralBot(Settings(token="unused"))
    cogs.register_all(bot.tree, service=UNUSED, handling=UNUSED, pictures=UNUSED)
    return bot.tree


def shown(tree, language: str) -> tuple[str, list[dict[str, Any]]]:
    """/help as sent: its text, and each message's body."""
    intro, messages = help_messages(tree, Texts(language))
    bodies = [{"content": intro if number == 0 else "",
               "embeds": [e.to_dict() for e in embeds]} for number, embeds in enumerate(messages)]
    text = "\n".join([intro, *(e["description"] for b in bodies for e in b["embeds"])])
    return text, bodies


def client_name(texts: Texts, word: str) -> str:
    found = texts.gettext(f"name:{word}")
    return word if found == f"name:{word}" else found


@pytest.fixture
def mentions():
    """The commands' ids as the bot knows them once they are registered: texts mention them."""
    saved, groups = dict(COMMAND_IDS), dict(COMMAND_GROUPS)
    yield COMMAND_IDS
    COMMAND_IDS.clear()
    COMMAND_IDS.update(saved)
    COMMAND_GROUPS.clear()
    COMMAND_GROUPS.update(groups)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_help_lists_every_registered_command_with_its_description(language):
    tree = the_tree()
    texts = Texts(language)
    text, _ = shown(tree, language)
    commands = tree.get_commands()
    assert len(commands) >= 20
    for command in commands:
        assert f"`/{client_name(texts, command.name)}" in text, command.name
        subcommands = getattr(command, "commands", [])  # a group of one: its subcommand's
        described = subcommands[0] if len(subcommands) == 1 else command
        assert texts.gettext(described.description) in text, command.name
    for name in ("puzzle", "analysis", "tournament"):  # the ones /help used to leave out
        assert f"`/{client_name(texts, name)}" in text


@pytest.mark.parametrize("language", ["en", "ja"])
def test_help_mentions_every_command_once_the_ids_are_known(language, mentions):
    tree = the_tree()
    for number, command in enumerate(tree.get_commands()):
        mentions[command.name] = 1_100_000_000_000_000_000 + number
    COMMAND_GROUPS.update(command_groups(tree))  # as the bot does once its tree is built
    text, _ = shown(tree, language)
    for command in tree.get_commands():
        assert f"</{command.name}" in text, command.name
        # a group is mentioned by its subcommands only: Discord cannot open a bare group
        for sub in getattr(command, "commands", []):
            assert f"</{command.name} {sub.name}:" in text, (command.name, sub.name)
        if getattr(command, "commands", None):
            assert f"</{command.name}:" not in text, command.name
    assert "</corral settings:" in text


def test_a_command_added_later_is_listed_too():
    tree = the_tree()

    @tree.command(name="newthing", description="Something new")
    async def newthing(interaction) -> None: ...

    text, _ = shown(tree, "en")
    assert "`/newthing` — Something new" in text
    assert "**More**" in text


def test_every_section_names_registered_commands_only():
    """A renamed command would otherwise drop silently into More."""
    registered = {c.name for c in the_tree().get_commands()}
    named = [name for _, names in HELP_SECTIONS for name in names]
    assert set(named) <= registered and len(named) == len(set(named))


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("with_ids", [False, True])
def test_help_is_within_discords_limits(language, with_ids, mentions):
    tree = the_tree()
    if with_ids:
        for number, command in enumerate(tree.get_commands()):
            mentions[command.name] = 1_100_000_000_000_000_000 + number
    _, bodies = shown(tree, language)
    assert len(bodies) == 1  # one message today; help_messages splits when it must
    for body in bodies:
        form = Form()
        limits.check_message(form, body)
        assert not form.errors, form.errors
        for embed in body["embeds"]:
            assert len(embed["description"]) <= 4096
