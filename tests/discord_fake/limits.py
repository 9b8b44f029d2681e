"""What Discord refuses with 50035 Invalid Form Body, checked cheaply.

Sources (discord-api-docs): resources/message (create message: content up to 2000
characters, up to 10 embeds, embed limits, a nonce of up to 25 characters, allowed_mentions,
the empty message), components/reference (5 action rows, 5 buttons or one select a row,
custom_id 1-100 and unique in a message, label 80, placeholder 150, 25 options of 100-character
label/value/description, min_values 0-25 and max_values 1-25),
interactions/receiving-and-responding (25 autocomplete choices, modal title 45, 1-5 modal
components), interactions/application-commands (naming regex, lowercase, descriptions 1-100,
25 options and 25 choices, required options first, 8000 characters a command),
resources/channel (thread name 1-100, auto-archive durations) and reference#locales.

Inner error codes: those quoted from Discord's answers in public reports are BASE_TYPE_*
(MAX_LENGTH "Must be 2000 or fewer in length.", BAD_LENGTH "Must be between 1 and 5 in
length.", REQUIRED, CHOICES), COMPONENT_CUSTOM_ID_DUPLICATED (discord-api-docs issue #3673),
COMPONENT_LAYOUT_WIDTH_EXCEEDED, APPLICATION_COMMAND_INVALID_NAME,
APPLICATION_COMMANDS_DUPLICATE_NAME, APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID,
APPLICATION_COMMAND_OPTIONS_TYPE_INVALID, APPLICATION_COMMAND_TOO_LARGE (docs) and
MODEL_TYPE_CONVERT (issue #3784). MAX_EMBED_SIZE_EXCEEDED, NONCE_TYPE_TOO_LONG,
MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE, NUMBER_TYPE_MIN/MAX,
SELECT_COMPONENT_OPTION_VALUE_DUPLICATED and BUTTON_COMPONENT_CUSTOM_ID_REQUIRED follow another
public Discord imitation. Approximations (no report found): NUMBER_TYPE_MAX for min_values
above max_values, BASE_TYPE_MIN_LENGTH for fewer options than max_values, BASE_TYPE_CHOICES for
an unknown locale, a response type the interaction does not take, or a misplaced option type.
Tests should rely on the 50035 and the path; the inner code is informative.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from .errors import Form, Path

IS_COMPONENTS_V2 = 1 << 15

LOCALES = ("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
           "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk",
           "hi", "th", "zh-CN", "ja", "zh-TW", "ko")

BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 2, 3, 4, 18
SELECTS = {3, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6


# -- messages ---------------------------------------------------------------------------------
def check_message(form: Form, body: dict[str, Any], at: Path = ()) -> None:
    """The limits of the fields present in a message body (a create or an edit)."""
    if body.get("content") is not None:
        form.at_most(at + ("content",), body["content"], 2000)
    if body.get("embeds"):
        check_embeds(form, body["embeds"], at + ("embeds",))
    if body.get("components"):
        v2 = bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2)
        check_components(form, body["components"], at + ("components",), v2=v2)
    if body.get("allowed_mentions"):
        check_allowed_mentions(form, body["allowed_mentions"], at + ("allowed_mentions",))
    nonce = body.get("nonce")
    if nonce is not None and len(str(nonce)) > 25:
        form.add(at + ("nonce",), "NONCE_TYPE_TOO_LONG", "Must be 25 or fewer characters long.")
    form.at_most(at + ("sticker_ids",), body.get("sticker_ids"), 3)


def check_allowed_mentions(form: Form, allowed: dict[str, Any], at: Path) -> None:
    """`parse` is exclusive with `users` / `roles` lists; at most 100 ids each
    (resources/message#allowed-mentions-object)."""
    parse = allowed.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in ("users", "roles", "everyone"):
            form.choices(at + ("parse", index), ("users", "roles", "everyone"))
    for kind in ("users", "roles"):
        form.at_most(at + (kind,), allowed.get(kind), 100)
        if kind in parse and allowed.get(kind):
            form.add(at, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                     f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')


def is_empty(message: dict[str, Any], *, files: bool = False) -> bool:
    """No content, embeds, components, stickers, poll, attachments or files: 50006."""
    return not ((message.get("content") or "").strip() or message.get("embeds")
                or message.get("components") or message.get("sticker_ids")
                or message.get("sticker_items") or message.get("poll")
                or message.get("attachments") or files)


def _text(value: Any) -> str:
    """Embed texts are measured trimmed."""
    return str(value or "").strip()


def check_embeds(form: Form, embeds: list[dict[str, Any]], at: Path) -> None:
    if len(embeds) > 10:
        form.max_length(at, 10)
        return
    total = 0
    for index, embed in enumerate(embeds):
        here = at + (index,)
        texts = {("title",): (_text(embed.get("title")), 256),
                 ("description",): (_text(embed.get("description")), 4096),
                 ("footer", "text"): (_text((embed.get("footer") or {}).get("text")), 2048),
                 ("author", "name"): (_text((embed.get("author") or {}).get("name")), 256)}
        for key, (text, limit) in texts.items():
            form.at_most(here + key, text, limit)
            total += len(text)
        fields = embed.get("fields") or []
        form.at_most(here + ("fields",), fields, 25)
        for number, item in enumerate(fields[:25]):
            name, value = _text(item.get("name")), _text(item.get("value"))
            form.between(here + ("fields", number, "name"), name, 1, 256)
            form.between(here + ("fields", number, "value"), value, 1, 1024)
            total += len(name) + len(value)
    if total > 6000:
        form.add(at, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


# -- components -------------------------------------------------------------------------------
def check_components(form: Form, rows: list[dict[str, Any]], at: Path, *,
                     v2: bool = False) -> None:
    seen: set[str] = set()
    if v2:  # the newer layout components: only the custom ids are checked
        for path, item in walk_components(rows, at):
            _check_custom_id(form, item, path, seen)
        return
    form.at_most(at, rows, 5)
    for index, row in enumerate(rows):
        here = at + (index,)
        if row.get("type") != 1:
            form.choices(here + ("type",), (1,))
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= 5:
            form.bad_length(here + ("components",), 1, 5)
        if len(items) > 1 and any(item.get("type") in SELECTS for item in items):
            for number in range(1, len(items)):  # a select fills its row
                form.add(here + ("components", number), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                         "The specified component exceeds the maximum width")
        for number, item in enumerate(items):
            check_item(form, item, here + ("components", number), seen)


def walk_components(components: list[dict[str, Any]],
                    at: Path = ()) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every component with its path, rows and containers included."""
    for index, item in enumerate(components):
        yield at + (index,), item
        if isinstance(item.get("components"), list):
            yield from walk_components(item["components"], at + (index, "components"))
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                yield at + (index, key), item[key]


def _check_custom_id(form: Form, item: dict[str, Any], at: Path, seen: set[str]) -> None:
    custom_id = item.get("custom_id")
    if custom_id is None:
        return
    form.between(at + ("custom_id",), custom_id, 1, 100)
    if custom_id in seen:
        form.add(at + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED",
                 "Component custom id was already specified")
    seen.add(custom_id)


def check_item(form: Form, item: dict[str, Any], at: Path, seen: set[str]) -> None:
    kind = item.get("type")
    if kind == BUTTON:
        form.at_most(at + ("label",), item.get("label"), 80)
        if item.get("style") in (LINK_STYLE, PREMIUM_STYLE):
            return
        if not item.get("custom_id"):
            form.add(at + ("custom_id",), "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                     "A custom id is required")
            return
    elif kind in SELECTS:
        check_select(form, item, at)
    else:
        form.choices(at + ("type",), (BUTTON, *sorted(SELECTS)))
        return
    _check_custom_id(form, item, at, seen)


def check_select(form: Form, select: dict[str, Any], at: Path) -> None:
    form.at_most(at + ("placeholder",), select.get("placeholder"), 150)
    low, high = int(select.get("min_values", 1)), int(select.get("max_values", 1))
    form.number_range(at + ("min_values",), low, 0, 25)
    form.number_range(at + ("max_values",), high, 1, 25)
    if low > high:
        form.add(at + ("min_values",), "NUMBER_TYPE_MAX",
                 f"int value should be less than or equal to {high}.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    form.between(at + ("options",), options, 1, 25)
    if options and high > len(options):
        form.min_length(at + ("options",), high)
    values: set[str] = set()
    for number, option in enumerate(options[:25]):
        here = at + ("options", number)
        form.between(here + ("label",), option.get("label"), 1, 100)
        form.between(here + ("value",), option.get("value"), 1, 100)
        form.at_most(here + ("description",), option.get("description"), 100)
        if option.get("value") in values:
            form.add(here + ("value",), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                     "The specified option value is already used")
        values.add(option.get("value"))


# -- interaction answers -----------------------------------------------------------------------
def check_choices(form: Form, choices: Any, at: Path) -> None:
    """An autocomplete answer: at most 25 choices of 1-100-character names and values."""
    if choices is None:
        form.required(at)
        return
    form.at_most(at, choices, 25)
    for index, choice in enumerate(choices[:25]):
        _check_choice(form, choice, at + (index,))


def _check_choice(form: Form, choice: dict[str, Any], at: Path) -> None:
    form.between(at + ("name",), choice.get("name"), 1, 100)
    value = choice.get("value")
    if value is None:
        form.required(at + ("value",))
    elif isinstance(value, str):
        form.at_most(at + ("value",), value, 100)


def check_modal(form: Form, data: dict[str, Any], at: Path) -> None:
    form.between(at + ("custom_id",), data.get("custom_id"), 1, 100)
    form.between(at + ("title",), data.get("title"), 1, 45)
    rows = data.get("components")
    form.between(at + ("components",), rows, 1, 5)
    for index, row in enumerate(rows or []):
        here = at + ("components", index)
        if row.get("type") == LABEL:  # the newer form: a label around one component
            form.between(here + ("label",), row.get("label"), 1, 45)
            inputs = [(here + ("component",), row.get("component") or {})]
        else:
            items = row.get("components") or []
            if len(items) != 1:
                form.bad_length(here + ("components",), 1, 1)
            inputs = [(here + ("components", n), item) for n, item in enumerate(items)]
        for path, item in inputs:
            form.between(path + ("custom_id",), item.get("custom_id"), 1, 100)
            if item.get("type") == TEXT_INPUT:
                if row.get("type") != LABEL:
                    form.between(path + ("label",), item.get("label"), 1, 45)
                form.at_most(path + ("placeholder",), item.get("placeholder"), 100)
                form.at_most(path + ("value",), item.get("value"), 4000)


# -- threads ----------------------------------------------------------------------------------
def check_thread(form: Form, body: dict[str, Any]) -> None:
    form.between(("name",), body.get("name"), 1, 100)
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in (60, 1440, 4320, 10080):
        form.choices(("auto_archive_duration",), (60, 1440, 4320, 10080))
    if body.get("type") is not None and body["type"] not in (10, 11, 12):
        form.choices(("type",), (10, 11, 12))


# -- application commands ---------------------------------------------------------------------
def valid_chat_input_name(name: Any) -> bool:
    """^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase where a letter has a lowercase
    form (Python's str.isalnum() stands in for \\p{L}\\p{N}; Devanagari and Thai marks are let
    through by their Unicode names)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch.isalnum() or ch in "-_'" or _deva_or_thai(ch) for ch in name)


def _deva_or_thai(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith(("DEVANAGARI", "THAI"))


def check_commands(form: Form, commands: Any) -> None:
    if not isinstance(commands, list):
        form.add((), "MODEL_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = command.get("type", 1)
        key = (kind, command.get("name"))
        if key in names:
            form.add((index,), "APPLICATION_COMMANDS_DUPLICATE_NAME",
                     "Application command names must be unique")
        names.add(key)
        check_command(form, command, (index,))


def check_command(form: Form, command: dict[str, Any], at: Path) -> None:
    kind = command.get("type", 1)
    if kind == 1:
        _check_named(form, command, at)
        _check_options(form, command.get("options") or [], at + ("options",), parent=0)
    else:  # user and message commands: any case, spaces allowed, no description
        form.between(at + ("name",), command.get("name"), 1, 32)
        if command.get("description"):
            form.max_length(at + ("description",), 0)
    if _size(command) > 8000:
        form.add(at, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")


def _check_named(form: Form, item: dict[str, Any], at: Path) -> None:
    """A chat-input command or option: its name, description and their localizations."""
    if not valid_chat_input_name(item.get("name")):
        form.add(at + ("name",), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    form.between(at + ("description",), item.get("description"), 1, 100)
    for key in ("name_localizations", "description_localizations"):
        for locale, text in (item.get(key) or {}).items():
            here = at + (key, locale)
            if locale not in LOCALES:
                form.choices(here, LOCALES)
            elif key == "name_localizations" and not valid_chat_input_name(text):
                form.add(here, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            elif key == "description_localizations":
                form.between(here, text, 1, 100)


# option types allowed under a command (0), a sub-command group (2) and a sub-command (1)
ALLOWED_OPTION_TYPES = {0: tuple(range(1, 12)), 2: (1,), 1: tuple(range(3, 12))}


def _check_options(form: Form, options: list[dict[str, Any]], at: Path, parent: int) -> None:
    form.at_most(at, options, 25)
    optional_seen = False
    subcommands = [o for o in options if o.get("type") in (1, 2)]
    if subcommands and len(subcommands) != len(options):
        form.add(at, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                 "Sub-command and sub-command group option types are mutually exclusive to all "
                 "other types")
    for index, option in enumerate(options):
        here = at + (index,)
        kind = option.get("type")
        if kind not in ALLOWED_OPTION_TYPES[parent]:
            form.choices(here + ("type",), ALLOWED_OPTION_TYPES[parent])
            continue
        _check_named(form, option, here)
        if kind in (1, 2):
            _check_options(form, option.get("options") or [], here + ("options",), parent=kind)
            continue
        if option.get("required"):
            if optional_seen:
                form.add(here + ("required",), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                         "Required options must be placed before non-required options")
        else:
            optional_seen = True
        choices = option.get("choices")
        if choices:
            form.at_most(here + ("choices",), choices, 25)
            for number, choice in enumerate(choices[:25]):
                _check_choice(form, choice, here + ("choices", number))
                for locale, text in (choice.get("name_localizations") or {}).items():
                    path = here + ("choices", number, "name_localizations", locale)
                    if locale not in LOCALES:
                        form.choices(path, LOCALES)
                    else:
                        form.between(path, text, 1, 100)


def _size(item: dict[str, Any]) -> int:
    """Characters counted against a command's 8000: names, descriptions and choice values,
    each at its longest localization."""
    total = 0
    for key in ("name", "description"):
        texts = [str(item.get(key) or "")] + list((item.get(f"{key}_localizations") or {})
                                                  .values())
        total += max(len(t) for t in texts)
    for choice in item.get("choices") or []:
        total += _size(choice) + len(str(choice.get("value", "")))
    return total + sum(_size(option) for option in item.get("options") or [])
