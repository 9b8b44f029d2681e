"""Autocomplete for `/play options:`: completes the option being typed, offers every option of
the chosen game with its own short help, and never repeats a key already given."""

from __future__ import annotations

from discord import app_commands

from games import Game, phrase

from ..words import strings
from ..words.i18n import Texts

MAX_CHOICES = 25


def option_choices(game: Game | None, current: str,
                   texts: Texts) -> list[app_commands.Choice[str]]:
    if game is None:
        return []
    current = current[:100]
    done, _, typing = current.rpartition(" ")
    given = {part.partition("=")[0].lower() for part in done.split() if "=" in part}
    prefix = f"{done} " if done.strip() else ""
    specs = {spec.name: spec for spec in game.info.options}
    key, sep, value = typing.partition("=")
    key = key.lower()
    offers: list[tuple[str, str]] = []
    if sep and key in specs and key not in given:
        spec = specs[key]
        for choice in spec.choices:
            if choice.startswith(value.lower()):
                shown = f"{key}={choice}"
                if choice == spec.default:
                    shown = texts(phrase(strings.OPTION_DEFAULT, choice=shown))
                offers.append((f"{prefix}{key}={choice}",
                               f"{shown} — {texts.gettext(spec.help)}"))
    else:
        for spec in game.info.options:
            if spec.name in given or not spec.name.startswith(key):
                continue
            offers.append((f"{prefix}{spec.name}=",
                           f"{spec.name}=… ({'|'.join(spec.choices[:6])}"
                           f"{'|…' if len(spec.choices) > 6 else ''}) — "
                           f"{texts.gettext(spec.help)}"))
    return [app_commands.Choice(name=name[:100], value=value_[:100])
            for value_, name in offers[:MAX_CHOICES]]
