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

Components V2 (the IS_COMPONENTS_V2 flag, 1 << 15), from components/reference ("Once a message
has been sent with this flag, it can't be removed"; content and embeds no longer work, poll and
stickers are disabled; attachments are not shown unless a component shows them; up to 40
components in all), discord-api-docs PR #7534 (40 components counting nested ones, no
top-level limit), PR #8562 (the text displays of a message total at most 4000 characters),
PR #7560 and #7852 (the flag cannot be unset; an edit that sets it must reset `content`,
`embeds`, `sticker_ids` and `poll` to empty, else 400) and issue #7910 (a deferred answer's
flags ignore it: the follow-up or the edit of @original sets it). With the flag, a legacy field
answers MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2 "The 'content' field cannot be used
when using MessageFlags.IS_COMPONENTS_V2" (quoted in public bots' code and notes); without it, a
newer component at the top answers UNION_TYPE_CHOICES 'Value of field "type" must be one of
(1,).' (discord-net/Discord.Net issue #3132: an edit with flags 0 of a V2 message). An edit's
components are read by the flags it sends, or else the message's; the stored flag stays. An
action row keeps its classic rules wherever it is (5 buttons or one select). A File component
takes only `attachment://` (components/reference#file); every `attachment://name` names an
attachment the message will have (uploaded now or kept), and a component `id` is unique in
the message (components/reference#anatomy-of-a-component). Approximations (no report found):
BASE_TYPE_MAX_LENGTH for over 40 components or 4000 characters, and
UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND / COMPONENT_ID_DUPLICATED /
FILE_COMPONENT_ATTACHMENT_REQUIRED for the last three. The description already bounds
accent_color (0-0xFFFFFF), 1-10 gallery items, 1-3 texts a section, alt text of 1024.
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

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 1, 2, 3, 4, 18
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9, 10, 11, 12, 13, 14, 17)
V2_COMPONENTS = 40  # every component of a V2 message, nested ones included
V2_TEXT = 4000  # the text displays of a V2 message together
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")
ATTACHMENT = "attachment://"
SELECTS = {3, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6


# -- messages ---------------------------------------------------------------------------------
BOT_CONTENT = 2000  # a bot's message; the description allows a channel message 4000 (Nitro's)


def is_v2(message: dict[str, Any] | None) -> bool:
    return bool(message and int(message.get("flags") or 0) & IS_COMPONENTS_V2)


def check_message(form: Form, body: dict[str, Any], at: Path = (), *,
                  before: dict[str, Any] | None = None,
                  attachments: set[str] | None = None) -> None:
    """What the description cannot say of a message body: a create, or an edit of `before`.
    `attachments`: the file names the message will have (for `attachment://` references)."""
    layout_v2 = is_v2(body) if body.get("flags") is not None else is_v2(before)
    if layout_v2 or is_v2(before):  # the message is (or becomes) a V2 message
        _check_legacy_fields(form, body, at, before)
    if body.get("content") is not None:
        form.at_most(at + ("content",), body["content"], BOT_CONTENT)
    if body.get("embeds"):
        check_embeds(form, body["embeds"], at + ("embeds",))
    if body.get("components"):
        check_components(form, body["components"], at + ("components",), v2=layout_v2,
                         attachments=attachments)
    if body.get("allowed_mentions"):
        check_allowed_mentions(form, body["allowed_mentions"], at + ("allowed_mentions",))


def _check_legacy_fields(form: Form, body: dict[str, Any], at: Path,
                         before: dict[str, Any] | None) -> None:
    """No content, embeds, stickers or poll with IS_COMPONENTS_V2; an edit that sets the flag
    on a classic message resets those it had."""
    for key in LEGACY_FIELDS:
        if key in body:
            used = body[key]
        elif before is not None and not is_v2(before):
            used = before.get("sticker_items" if key == "sticker_ids" else key)
        else:
            continue
        if used:  # null, "" and [] are empty
            form.add(at + (key,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                     f"The '{key}' field cannot be used when using "
                     "MessageFlags.IS_COMPONENTS_V2")


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
                     v2: bool = False, attachments: set[str] | None = None) -> None:
    """Custom ids unique in a message; without IS_COMPONENTS_V2, at most 5 action rows and
    nothing else at the top; in every action row a select alone; a button's custom id unless
    it links; a select's value counts against its options. (The lengths, the 5 items of a row,
    the types a row takes, a select's 1-25 options: the description.) With the flag, the V2
    rules (check_v2)."""
    seen: set[str] = set()
    if v2:
        check_v2(form, rows, at, seen, attachments)
        return
    form.at_most(at, rows, 5)
    for index, row in enumerate(rows):
        here = at + (index,)
        if row.get("type") != ACTION_ROW:
            form.add(here + ("type",), "UNION_TYPE_CHOICES",
                     'Value of field "type" must be one of (1,).')
            continue
        check_row(form, row, here, seen)


def check_v2(form: Form, components: list[dict[str, Any]], at: Path, seen: set[str],
             attachments: set[str] | None) -> None:
    """A V2 message: at most 40 components in all and 4000 characters of text displays; ids
    unique; action rows (at the top or in a container) and section buttons as in classic
    messages; media references name the message's attachments."""
    ids: set[int] = set()
    count = text = 0
    for path, item in walk_components(components, at):
        count += 1
        kind = item.get("type")
        if item.get("id"):  # 0 or null: Discord numbers it
            if item["id"] in ids:
                form.add(path + ("id",), "COMPONENT_ID_DUPLICATED",
                         "Component id was already specified")
            ids.add(item["id"])
        if kind == ACTION_ROW:
            check_row(form, item, path, seen)
        elif kind == TEXT_DISPLAY:
            text += len(str(item.get("content") or ""))
        elif kind == BUTTON and path[-1] == "accessory":
            check_item(form, item, path, seen)
        elif kind in (THUMBNAIL, MEDIA_GALLERY, FILE):
            for where, media in media_of(item, path):
                _check_media(form, media, where, attachments, file=kind == FILE)
    if count > V2_COMPONENTS:
        form.max_length(at, V2_COMPONENTS)
    if text > V2_TEXT:
        form.max_length(at, V2_TEXT)


def media_of(item: dict[str, Any], at: Path = ()) -> Iterator[tuple[Path, dict[str, Any]]]:
    """The unfurled media items of a thumbnail, a media gallery (each item) or a file."""
    if item.get("type") == MEDIA_GALLERY:
        for index, entry in enumerate(item.get("items") or []):
            if isinstance(entry.get("media"), dict):
                yield at + ("items", index, "media"), entry["media"]
    for key in ("media", "file"):
        if isinstance(item.get(key), dict):
            yield at + (key,), item[key]


def _check_media(form: Form, media: dict[str, Any], at: Path, attachments: set[str] | None,
                 *, file: bool) -> None:
    url = str(media.get("url") or "")
    if not url.startswith(ATTACHMENT):
        if file:
            form.add(at + ("url",), "FILE_COMPONENT_ATTACHMENT_REQUIRED",
                     "A file component only takes an attachment:// reference")
        return
    if attachments is not None and url[len(ATTACHMENT):] not in attachments:
        form.add(at + ("url",), "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                 f"No attachment named {url[len(ATTACHMENT):]!r}")


def check_row(form: Form, row: dict[str, Any], here: Path, seen: set[str]) -> None:
    """An action row: a select fills it; each item's own rules."""
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
