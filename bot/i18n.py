"""Words in the reader's language: phrases translated through gettext catalogs.

Message ids are the English sentences of `bot/strings.py`, of the games (their errors, steps
and results) and of the pictures. Catalogs live in `bot/locale/<lang>/LC_MESSAGES/corral.po`;
they are compiled in memory on first use (see `bot.catalogs`). English needs no catalog.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from bot.catalogs import compiled
from games import Phrase, Seat, render_phrase

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


class Texts:
    """Translate phrases for one language; Seat fields become player names."""

    def __init__(self, language: str = DEFAULT_LANGUAGE):
        self.language = language_of(language)
        self.catalog = translations(self.language)

    def __call__(self, text: Phrase | str, names: Sequence[str] | None = None) -> str:
        return render_phrase(text, self.catalog.gettext, self.catalog.ngettext,
                             _seat_names(names))

    def gettext(self, message: str) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)


def _seat_names(names: Sequence[str] | None) -> Callable[[Any], Any]:
    def resolve(value: Any) -> Any:
        if isinstance(value, Seat):
            if names is not None and 0 <= value.index < len(names):
                return names[value.index]
            return str(value)
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
        if "list" in value:
            return tuple(_value_from_json(v) for v in value["list"])
    return value


