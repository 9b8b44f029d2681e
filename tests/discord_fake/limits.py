"""What Discord refuses with 50035 Invalid Form Body that its OpenAPI description cannot say.

Every field's own type, length, range and choices are checked against the description first
(spec.py); the rules here run after it, in the route handlers, only on bodies that passed: a
rule that ties two fields or items together, depends on a flag or on the request's route, or
where Discord is stricter than its description.

Sources (discord-api-docs): resources/message (a bot's content up to 2000 characters where the
description allows 4000, allowed_mentions' exclusive `parse`, 6000 characters of embeds, a
field's name and value required, the empty message), components/reference (without
IS_COMPONENTS_V2: at most 5 action rows and only rows at the top, one select fills a row;
custom ids unique in a message, a non-link button's custom_id, min_values up to max_values, no
more values than options, option values unique), interactions/receiving-and-responding
(autocomplete choices required, 1-5 modal components, a text input alone in its action row and
labelled there), interactions/application-commands (naming regex and lowercase, a chat-input
command's description 1-100 and a user or message command's none, string choices of 100
characters where the description allows 6000, required options first, sub-commands not mixed
with other options, 8000 characters a command, names unique) and reference#locales (the keys
of localizations).

Inner error codes: those quoted from Discord's answers in public reports are BASE_TYPE_*
(MAX_LENGTH "Must be 2000 or fewer in length.", BAD_LENGTH "Must be between 1 and 5 in
length.", REQUIRED, CHOICES), COMPONENT_CUSTOM_ID_DUPLICATED (discord-api-docs issue #3673),
COMPONENT_LAYOUT_WIDTH_EXCEEDED, APPLICATION_COMMAND_INVALID_NAME,
APPLICATION_COMMANDS_DUPLICATE_NAME, APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID,
APPLICATION_COMMAND_OPTIONS_TYPE_INVALID and APPLICATION_COMMAND_TOO_LARGE (docs).
MAX_EMBED_SIZE_EXCEEDED, MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE,
SELECT_COMPONENT_OPTION_VALUE_DUPLICATED and BUTTON_COMPONENT_CUSTOM_ID_REQUIRED follow another
public Discord imitation. Approximations (no report found): NUMBER_TYPE_MAX for min_values
above max_values, BASE_TYPE_MIN_LENGTH for fewer options than max_values, BASE_TYPE_CHOICES for
an unknown locale or a response type the interaction does not take.
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
BOT_CONTENT = 2000  # a bot's message; the description allows a channel message 4000 (Nitro's)


def check_message(form: Form, body: dict[str, Any], at: Path = ()) -> None:
    """What the description cannot say of a message body (a create or an edit)."""
    if body.get("content") is not None:
        form.at_most(at + ("content",), body["content"], BOT_CONTENT)
    if body.get("embeds"):
        check_embeds(form, body["embeds"], at + ("embeds",))
    if body.get("components"):
        v2 = bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2)
        check_components(form, body["components"], at + ("components",), v2=v2)
    if body.get("allowed_mentions"):
        check_allowed_mentions(form, body["allowed_mentions"], at + ("allowed_mentions",))


def check_allowed_mentions(form: Form, allowed: dict[str, Any], at: Path) -> None:
    """`parse` is exclusive with `users` / `roles` lists (resources/message#allowed-mentions-
    object)."""
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
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
    """A field's name and value are not blank; all embeds' texts make at most 6000
    characters. (Each text's own limit, the 10 embeds and 25 fields: the description.)"""
    total = 0
    for index, embed in enumerate(embeds):
        here = at + (index,)
        for text in (embed.get("title"), embed.get("description"),
                     (embed.get("footer") or {}).get("text"),
                     (embed.get("author") or {}).get("name")):
            total += len(_text(text))
        for number, item in enumerate(embed.get("fields") or []):
            for key in ("name", "value"):
                text = _text(item.get(key))
                if not text:
                    form.required(here + ("fields", number, key))
                total += len(text)
    if total > 6000:
        form.add(at, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


# -- components -------------------------------------------------------------------------------
def check_components(form: Form, rows: list[dict[str, Any]], at: Path, *,
                     v2: bool = False) -> None:
    """Custom ids unique in a message; without IS_COMPONENTS_V2, at most 5 action rows and
    nothing else at the top, a select alone in its row; a button's custom id unless it links;
    a select's value counts against its options. (The lengths, the 5 items of a row, the types
    a row takes, a select's 1-25 options: the description.)"""
    seen: set[str] = set()
    if v2:  # the newer layout components: only the custom ids
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
    if custom_id in seen:
        form.add(at + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED",
                 "Component custom id was already specified")
    seen.add(custom_id)


def check_item(form: Form, item: dict[str, Any], at: Path, seen: set[str]) -> None:
    kind = item.get("type")
    if kind == BUTTON:
        if item.get("style") == LINK_STYLE:
            check_link(form, item, at)
            return
        if item.get("style") == PREMIUM_STYLE:
            return
        if not item.get("custom_id"):
            form.add(at + ("custom_id",), "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                     "A custom id is required")
            return
    elif kind in SELECTS:
        check_select(form, item, at)
    _check_custom_id(form, item, at, seen)


def check_link(form: Form, item: dict[str, Any], at: Path) -> None:
    """A link button has a url (http, https or discord, at most 512 characters) and no
    custom id (Discord: 50035 with these codes)."""
    url = item.get("url")
    if not isinstance(url, str) or not url:
        form.add(at + ("url",), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required")
    elif len(url) > 512:
        form.add(at + ("url",), "BASE_TYPE_MAX_LENGTH", "Must be 512 or fewer in length.")
    elif url.split(":", 1)[0].lower() not in ("http", "https", "discord") or "://" not in url \
            or any(c.isspace() for c in url):
        form.add(at + ("url",), "URL_TYPE_INVALID_URL", "Not a well formed URL.")
    if item.get("custom_id") is not None:
        form.add(at + ("custom_id",), "BUTTON_COMPONENT_INVALID_FIELDS",
                 "A link button cannot have a custom id")


def check_select(form: Form, select: dict[str, Any], at: Path) -> None:
    low, high = (1 if select.get(k) is None else int(select[k]) for k in ("min_values",
                                                                          "max_values"))
    if low > high:
        form.add(at + ("min_values",), "NUMBER_TYPE_MAX",
                 f"int value should be less than or equal to {high}.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if options and high > len(options):
        form.min_length(at + ("options",), high)
    values: set[str] = set()
    for number, option in enumerate(options):
        if option.get("value") in values:
            form.add(at + ("options", number, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                     "The specified option value is already used")
        values.add(option.get("value"))


# -- interaction answers -----------------------------------------------------------------------
CHOICE_VALUE = 100  # a string choice's value (the docs; the description allows 6000)


def check_choices(form: Form, choices: Any, at: Path) -> None:
    """An autocomplete answer has its choices (optional in the description), each string value
    of at most 100 characters."""
    if choices is None:
        form.required(at)
        return
    for index, choice in enumerate(choices):
        _check_choice(form, choice or {}, at + (index,))


def _check_choice(form: Form, choice: dict[str, Any], at: Path) -> None:
    value = choice.get("value")
    if isinstance(value, str):
        form.at_most(at + ("value",), value, CHOICE_VALUE)


def check_modal(form: Form, data: dict[str, Any], at: Path) -> None:
    """1-5 rows (the docs; the description allows 40), an action row holding exactly one text
    input, which then has a label (a Label component labels its own)."""
    rows = data.get("components") or []
    form.at_most(at + ("components",), rows, 5)
    for index, row in enumerate(rows):
        here = at + ("components", index)
        if row.get("type") != 1:
            continue
        items = row.get("components") or []
        if len(items) != 1:
            form.bad_length(here + ("components",), 1, 1)
        for number, item in enumerate(items):
            if item.get("type") == TEXT_INPUT and item.get("label") is None:
                form.required(here + ("components", number, "label"))


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


def check_commands(form: Form, commands: list[dict[str, Any]]) -> None:
    """Names unique by type; each command's own rules."""
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = command.get("type") or 1
        key = (kind, command.get("name"))
        if key in names:
            form.add((index,), "APPLICATION_COMMANDS_DUPLICATE_NAME",
                     "Application command names must be unique")
        names.add(key)
        check_command(form, command, (index,))


def check_command(form: Form, command: dict[str, Any], at: Path) -> None:
    """What the description cannot say of a command: a chat-input command's name pattern and
    description (1-100; a user or message command has none), the locales of localizations,
    required options before optional ones, sub-commands not mixed with other options, a choice's
    string value of 100 characters, 8000 characters in all. (Lengths, counts, types, the options
    each level takes, integer bounds: the description.)"""
    kind = command.get("type") or 1
    if kind == 1:
        _check_named(form, command, at)
        if command.get("description") is None:
            form.required(at + ("description",))
        elif not command["description"]:
            form.bad_length(at + ("description",), 1, 100)
        _check_options(form, command.get("options") or [], at + ("options",))
    elif command.get("description"):  # user and message commands: any case, spaces allowed
        form.max_length(at + ("description",), 0)
    if _size(command) > 8000:
        form.add(at, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")


def _check_named(form: Form, item: dict[str, Any], at: Path) -> None:
    """A chat-input command or option: its name, and the locales of its localizations."""
    if not valid_chat_input_name(item.get("name")):
        form.add(at + ("name",), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    for key in ("name_localizations", "description_localizations"):
        for locale, text in (item.get(key) or {}).items():
            here = at + (key, locale)
            if locale not in LOCALES:
                form.choices(here, LOCALES)
            elif key == "name_localizations" and not valid_chat_input_name(text):
                form.add(here, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_options(form: Form, options: list[dict[str, Any]], at: Path) -> None:
    optional_seen = False
    subcommands = [o for o in options if o.get("type") in (1, 2)]
    if subcommands and len(subcommands) != len(options):
        form.add(at, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                 "Sub-command and sub-command group option types are mutually exclusive to all "
                 "other types")
    for index, option in enumerate(options):
        here = at + (index,)
        _check_named(form, option, here)
        if option.get("type") in (1, 2):
            _check_options(form, option.get("options") or [], here + ("options",))
            continue
        if option.get("required"):
            if optional_seen:
                form.add(here + ("required",), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                         "Required options must be placed before non-required options")
        else:
            optional_seen = True
        for number, choice in enumerate(option.get("choices") or []):
            _check_choice(form, choice, here + ("choices", number))
            for locale in choice.get("name_localizations") or {}:
                if locale not in LOCALES:
                    form.choices(here + ("choices", number, "name_localizations", locale),
                                 LOCALES)


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
