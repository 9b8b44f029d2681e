"""Words in the reader's language: phrases translated through gettext catalogs.

Message ids are the English sentences of `bot/words/strings.py`, of the games (their errors, steps
and results) and of the pictures. Catalogs live in `bot/locale/<lang>/LC_MESSAGES/corral.po`;
they are compiled in memory on first use (see `bot.words.catalogs`). English needs no catalog.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from babel.lists import format_list

from bot.clocks import Duration, format_duration
from bot.words.catalogs import compiled
from games import N_, Phrase, Seat, english_list, phrase, render_phrase

DOMAIN = "corral"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "ja")
DEFAULT_LANGUAGE = "en"


def language_of(locale: str | None) -> str:
    """One of LANGUAGES for a Discord locale ("ja", "en-US", "en-GB", "fr", ...)."""
    if not locale:
        return DEFAULT_LANGUAGE
    code = str(locale).split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalog of `language`, compiled from its `.po` on first use (no `.mo` files).
    English is the message ids themselves; a language without a catalog reads English."""
    if language == "en":
        return gettext.NullTranslations()
    catalog = compiled(language, LOCALE_DIR)
    return catalog if catalog is not None else gettext.NullTranslations()


# A seat named where no player's name is known (a record without names)
SEAT_N = N_("seat {n}")

# The application commands' ids, by name, once the bot has registered them (`bot.client`):
# a text naming a command then mentions it (`</play:123>`), which Discord shows as the
# command's name in the reader's own language, clickable. Empty until then (and in tests).
COMMAND_IDS: dict[str, int] = {}
# each command group's subcommands, from the command tree (bot/client.py): a mention of a
# group must name a subcommand (`</tournament create:id>`), which Discord shows as clickable
COMMAND_GROUPS: dict[str, frozenset[str]] = {}


def command_groups(tree: Any) -> dict[str, frozenset[str]]:
    """The subcommands of each group of a discord.py command tree (a group has `commands`)."""
    return {command.name: frozenset(sub.name for sub in command.commands)
            for command in tree.get_commands() if hasattr(command, "commands")}

# a command as the texts write it, with what follows it: `/play`, `/vacation end:True`,
# `/play game [opponent] [options]`, `/corral settings`
_COMMAND = re.compile(r"`/([a-z]+)((?: [^`]*)?)`")
_ARGUMENT_WORD = re.compile(r"[a-z]+")


class Texts:
    """Translate phrases for one language; Seat fields become player names, Duration fields
    and lists are written as the language writes them, and `/command` in a text becomes the
    command as the reader's client shows it."""

    def __init__(self, language: str = DEFAULT_LANGUAGE):
        self.language = language_of(language)
        self.catalog = translations(self.language)

    def __call__(self, text: Phrase | str, names: Sequence[str] | None = None) -> str:
        """`text` in this language: a Phrase, or a message id given alone (a button's
        `strings.BUTTON_RESIGN`), which is translated too."""
        if not isinstance(text, Phrase):
            text = Phrase(str(text))
        return self.commands(render_phrase(text, self.catalog.gettext, self.catalog.ngettext,
                                           self._resolver(names), self.join))

    def gettext(self, message: str) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)

    def join(self, items: Sequence[str]) -> str:
        """A list as the language writes it: "a, b" in English, "a、b" in Japanese."""
        if self.language == "en" or not items:
            return english_list(items)
        return format_list(list(items), locale=self.language)

    def commands(self, text: str) -> str:
        """Every `/command` in `text` as the reader sees it: a mention (`</play:123>`) once the
        command's id is known, which Discord shows in the reader's language, else the command
        by its name in this language (`/対局`); its option names follow (`/休暇 終了:True`)."""
        return _COMMAND.sub(self._command, text)

    def _command(self, found: re.Match[str]) -> str:
        name, rest = found.group(1), found.group(2)
        words = rest.split(" ")
        # a subcommand (`/corral settings`) is part of the command's name
        command = [name]
        if len(words) > 1 and words[1] in COMMAND_GROUPS.get(name, ()):
            command.append(words.pop(1))
        arguments = _ARGUMENT_WORD.sub(lambda w: self._name(w.group(0)), " ".join(words).strip())
        known = COMMAND_IDS.get(name)
        if known is not None:
            mention = f"</{' '.join(command)}:{known}>"
            return f"{mention} `{arguments}`" if arguments else mention
        shown = " ".join(self._name(word) for word in command)
        return f"`/{shown} {arguments}`" if arguments else f"`/{shown}`"

    def _name(self, word: str) -> str:
        """A command's or option's name as this language's client shows it."""
        key = f"name:{word}"
        found = self.catalog.gettext(key)
        return word if found == key else found

    def _resolver(self, names: Sequence[str] | None) -> Callable[[Any], Any]:
        def resolve(value: Any) -> Any:
            if isinstance(value, Seat):
                if names is not None and 0 <= value.index < len(names):
                    return names[value.index]
                return self(phrase(SEAT_N, n=value.index + 1))
            if isinstance(value, Duration):
                return format_duration(value.seconds, self.catalog.gettext)
            return value

        return resolve


ENGLISH = Texts("en")


# -- phrases in the outbox: JSON ------------------------------------------------------------
def phrase_to_json(text: Phrase | str | None) -> Any:
    if text is None or isinstance(text, str):
        return text
    return {"t": text.template, "p": text.plural,
            "f": [[name, _value_to_json(value)] for name, value in text.fields]}


def _value_to_json(value: Any) -> Any:
    if isinstance(value, Phrase):
        return {"phrase": phrase_to_json(value)}
    if isinstance(value, Seat):
        return {"seat": value.index}
    if isinstance(value, Duration):
        return {"duration": value.seconds}
    if isinstance(value, (list, tuple)):
        return {"list": [_value_to_json(v) for v in value]}
    if isinstance(value, (str, int, float)) or value is None:
        return value
    return str(value)


def phrase_from_json(data: Any) -> Phrase | str | None:
    if data is None or isinstance(data, str):
        return data
    fields = tuple((name, _value_from_json(value)) for name, value in data["f"])
    return Phrase(data["t"], fields, data.get("p"))


def _value_from_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        if "phrase" in value:
            return phrase_from_json(value["phrase"])
        if "seat" in value:
            return Seat(int(value["seat"]))
        if "duration" in value:
            return Duration(int(value["duration"]))
        if "list" in value:
            return tuple(_value_from_json(v) for v in value["list"])
    return value


