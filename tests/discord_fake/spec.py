"""Request bodies checked against Discord's official OpenAPI description, as Discord checks them.

The description is `openapi.json` of discord/discord-api-spec (OpenAPI 3.1, whose schemas are
JSON Schema 2020-12), read from `../shared/discord-api-spec/` beside the checkout, or from the
file that DISCORD_API_SPEC names. Each request's method and path are looked up among its `paths`
(templates such as `/channels/{channel_id}/messages`; a literal segment such as `@original`
wins over a parameter) and its JSON body, or a multipart body's `payload_json`, is validated
against that operation's request schema by `jsonschema` (Draft 2020-12), `$ref`s resolved
within the document by `referencing`. A body that fails is answered as Discord answers it: 400,
code 50035 "Invalid Form Body", with an `errors` tree naming each offending field.

Where the description and Discord differ, Discord wins:
  - snowflakes (`SnowflakeType`, a string of digits in the description) are taken as strings
    of digits or as integers, as Discord takes them (discord.py sends allowed_mentions ids as
    integers), from 0 to 2^64 - 1; a negative, non-numeric or too large id is refused with
    NUMBER_TYPE_COERCE 'Value "-1" is not snowflake.';
  - `oneOf` is read as `anyOf`: Discord picks a union's branch by its discriminator (a
    component's or option's `type`), and a body that fits two branches is not refused;
  - formats are asserted where Discord's rule is known: snowflake and the int32 and int64
    ranges. date-time, uri and the others are annotations here;
  - the extensions (`x-discord-union`, ...) and OpenAPI's own keywords are annotations.
What the description cannot say (a field that depends on another, a bot's 2000-character
channel message where the description allows a user's 4000, unique custom ids, the 6000
characters of all embeds, ...) is checked by hand in limits.py, after this.

Compiled once per process (`load`), a validator per operation on first use. For speed, each
plain `{"$ref": "#/components/schemas/X"}` is replaced by the schema it names (the same object:
recursive schemas stay recursive), so validation does not look references up at every step
(3x faster on a board message), any other reference still resolved by the registry; the
description's enumerations, written as a `oneOf` of `const`s, are read as the `enum`s they mean;
a union whose branches each take their own values of a `type` field (components, command
options, interaction answers) goes straight to the branch the body's `type` names (the only one
that can fit: 4x faster on a command sync); and a body found valid is remembered (the same sync
at every start). The whole e2e suite's ~2,000 bodies take about 1 s.

Inner error codes: BASE_TYPE_MAX_LENGTH "Must be N or fewer in length.", BASE_TYPE_BAD_LENGTH
"Must be between A and B in length." (a length bounded both ways), BASE_TYPE_REQUIRED,
NUMBER_TYPE_COERCE 'Value "x" is not int.' and '... is not snowflake.', DICT_TYPE_CONVERT are
quoted from Discord's answers in public reports; BASE_TYPE_MIN_LENGTH, BASE_TYPE_CHOICES,
NUMBER_TYPE_MIN/MAX and NONCE_TYPE_TOO_LONG follow limits.py; the other type errors and those
of uniqueness and patterns are approximations. Tests should rely on the 50035 and the path; the
inner code is informative. A union's failure is reported as its most relevant branch's: the
branch whose discriminator fits, then the one with fewer type errors, deeper errors, fewer
errors; when no branch's discriminator fits, one BASE_TYPE_CHOICES error lists what would.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .errors import INVALID_FORM_BODY, ApiError, Form

log = logging.getLogger(__name__)

ENV = "DISCORD_API_SPEC"
DEFAULT = (Path(__file__).resolve().parents[2].parent / "shared" / "discord-api-spec"
           / "openapi.json")
BASE_URI = "urn:discord-api-spec:openapi.json"
SCHEMAS = "#/components/schemas/"
MAX_SNOWFLAKE = 2**64 - 1
DIGITS = re.compile(r"0|[1-9][0-9]*")
UNIONS = ("anyOf", "oneOf")
VALID_KEPT = 512  # bodies remembered as valid

ErrorPath = tuple[str | int, ...]
Leaf = tuple[ErrorPath, str, str]  # (path, inner code, message)


def spec_path() -> Path:
    """Where the description is read from: $DISCORD_API_SPEC, else ../shared beside the
    checkout."""
    return Path(os.environ.get(ENV) or DEFAULT)


def required() -> bool:
    """With CI=true the description must be there."""
    return os.environ.get("CI", "").lower() == "true"


class SpecMissing(RuntimeError):
    """The description is absent where it is required."""


# -- formats ----------------------------------------------------------------------------------
def _is_snowflake(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= MAX_SNOWFLAKE
    if isinstance(value, str):
        return DIGITS.fullmatch(value) is not None and int(value) <= MAX_SNOWFLAKE
    return False


FORMAT_BOUNDS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}


def _within(fmt: str) -> Any:
    low, high = FORMAT_BOUNDS[fmt]

    def check(value: object) -> bool:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return low <= value <= high
        return True  # not a number: the type keyword says so
    return check


FORMATS = FormatChecker(formats=())
FORMATS.checks("snowflake")(_is_snowflake)
for _fmt in FORMAT_BOUNDS:
    FORMATS.checks(_fmt)(_within(_fmt))

_ANY_OF = Draft202012Validator.VALIDATORS["anyOf"]
_DISPATCH: dict[int, tuple[list[Any], dict[Any, int] | None]] = {}  # id(branches) -> table


def _dispatch_table(branches: list[Any]) -> dict[Any, int] | None:
    """A union discriminated by its branches' `type` field (components, command options,
    interaction answers): each allowed value -> the one branch that takes it. None for another
    union."""
    table: dict[Any, int] = {}
    for index, branch in enumerate(branches):
        if not isinstance(branch, dict) or "type" not in branch.get("required", ()):
            return None
        field = (branch.get("properties") or {}).get("type")
        values = field.get("enum") if isinstance(field, dict) else None
        if not values or any(isinstance(v, bool | dict | list) or v in table for v in values):
            return None
        table.update((value, index) for value in values)
    return table


def _discriminated(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Any:
    """anyOf (and oneOf, read as anyOf), straight to the branch whose discriminator the
    instance names when the union has one: only that branch can fit, and its errors are the
    ones that tell what is wrong. Otherwise (no discriminator, or a value no branch takes) the
    plain anyOf, whose error lists every branch's."""
    cached = _DISPATCH.get(id(branches))
    if cached is None or cached[0] is not branches:
        cached = _DISPATCH[id(branches)] = (branches, _dispatch_table(branches))
    table = cached[1]
    if table is not None and isinstance(instance, dict):
        kind = instance.get("type")
        index = table.get(kind) if isinstance(kind, int | str) and not isinstance(kind,
                                                                                  bool) else None
        if index is not None:
            yield from validator.descend(instance, branches[index], schema_path=index)
            return
    yield from _ANY_OF(validator, branches, instance, schema)


# Draft 2020-12, its unions as above (see the docstring)
Validator = validators.extend(Draft202012Validator, {"anyOf": _discriminated,
                                                     "oneOf": _discriminated})


# -- preparing the description ----------------------------------------------------------------
def _enums(node: Any) -> None:
    """`"oneOf": [{"const": 1}, {"const": 2}]`, how the description writes an enumeration,
    becomes the `"enum": [1, 2]` it means."""
    if isinstance(node, dict):
        for key in UNIONS:
            branches = node.get(key)
            if (isinstance(branches, list) and branches
                    and all(isinstance(b, dict) and "const" in b
                            and set(b) <= {"const", "title", "description"} for b in branches)):
                del node[key]
                node["enum"] = [b["const"] for b in branches]
        for value in node.values():
            _enums(value)
    elif isinstance(node, list):
        for value in node:
            _enums(value)


def _inline(node: Any, schemas: dict[str, Any]) -> None:
    """Each `{"$ref": "#/components/schemas/X"}` below `node` replaced by X itself. Not
    recursive through the schemas put in (each is inlined as an entry of `schemas`)."""
    items: Iterable[tuple[Any, Any]]
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return
    for key, value in items:
        if (isinstance(value, dict) and len(value) == 1
                and str(value.get("$ref", "")).startswith(SCHEMAS)
                and value["$ref"][len(SCHEMAS):] in schemas):
            node[key] = schemas[value["$ref"][len(SCHEMAS):]]
        else:
            _inline(value, schemas)


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    pointer: str | None  # JSON pointer to its request body's schema; None: it takes no body


class Spec:
    """The description, its operations by method and path, and a validator for each operation
    (compiled on first use; `load` keeps one Spec per process)."""

    def __init__(self, document: dict[str, Any], source: Path | None = None) -> None:
        self.source = source
        document = copy.deepcopy(document)
        schemas = document["components"]["schemas"]
        # snowflakes as Discord takes them: digits as a string or an integer (see the docstring)
        schemas["SnowflakeType"] = {"type": ["string", "integer"], "format": "snowflake"}
        _enums(document)
        for name in list(schemas):
            _inline(schemas[name], schemas)
        _inline(document["paths"], schemas)
        self.document = document
        self.registry: Registry[Any] = Registry().with_resource(
            BASE_URI, Resource.from_contents(document, default_specification=DRAFT202012))
        # (METHOD, number of segments) -> [(segments, None for a parameter; operation)], the
        # ones with fewer parameters first
        self._routes: dict[tuple[str, int], list[tuple[tuple[str | None, ...], Operation]]] = {}
        for template, item in document["paths"].items():
            segments = tuple(None if s.startswith("{") else s for s in template.split("/"))
            for method, operation in item.items():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue  # "parameters", "summary"...
                self._routes.setdefault((method.upper(), len(segments)), []).append(
                    (segments, Operation(method.upper(), template,
                                         _body_pointer(template, method, operation))))
        for candidates in self._routes.values():
            candidates.sort(key=lambda c: sum(s is None for s in c[0]))
        self._validators: dict[str, Any] = {}
        self._valid: set[bytes] = set()  # bodies found valid, with their schema's pointer
        self._lock = threading.Lock()

    def operation(self, method: str, path: str) -> Operation | None:
        """The described operation of a request (`POST`, `/channels/1/messages`), if any."""
        segments = path.split("/")
        for pattern, operation in self._routes.get((method.upper(), len(segments)), ()):
            if all(s != "" if p is None else p == s for p, s in zip(pattern, segments,
                                                                     strict=True)):
                return operation
        return None

    def template(self, method: str, template: str) -> Operation:
        """A described operation by its template (`/applications/{application_id}/commands`)."""
        for _, operation in self._routes.get((method.upper(), len(template.split("/"))), ()):
            if operation.template == template:
                return operation
        raise KeyError(f"{method} {template} is not in the description")

    def validator(self, pointer: str) -> Any:
        found = self._validators.get(pointer)
        if found is None:
            with self._lock:
                found = self._validators.get(pointer)
                if found is None:
                    found = Validator({"$ref": f"{BASE_URI}#{pointer}"}, registry=self.registry,
                                      format_checker=FORMATS)
                    self._validators[pointer] = found
        return found

    def body_errors(self, operation: Operation | None, body: Any) -> Form:
        """The 50035 field errors of a body sent to an operation (none if it is valid, or if
        the operation takes no described body)."""
        form = Form()
        if operation is None or operation.pointer is None or body is None:
            return form
        try:  # a body already found valid (the same command sync at each start) is not redone
            key: bytes | None = operation.pointer.encode() + b"\0" + orjson.dumps(body)
        except TypeError:  # orjson.JSONEncodeError: integers past 64 bits
            key = None
        if key is not None and key in self._valid:
            return form
        validator = self.validator(operation.pointer)
        if validator.is_valid(body):
            if key is not None:
                if len(self._valid) >= VALID_KEPT:
                    self._valid.clear()
                self._valid.add(key)
        else:
            schema_errors(form, validator.iter_errors(body))
        return form

    def errors(self, method: str, path: str, body: Any) -> Form:
        return self.body_errors(self.operation(method, path), body)

    def check(self, method: str, path: str, body: Any) -> None:
        """Discord's 50035 answer, raised, if the body does not fit its operation's schema."""
        form = self.errors(method, path, body)
        if form.errors:
            raise ApiError(*INVALID_FORM_BODY, errors=form.errors)


def _body_pointer(template: str, method: str, operation: dict[str, Any]) -> str | None:
    """The JSON body's schema (a multipart body's payload_json is the same object)."""
    content = (operation.get("requestBody") or {}).get("content") or {}
    for kind in ("application/json", "multipart/form-data"):
        if kind in content:
            parts = ("paths", template, method, "requestBody", "content", kind, "schema")
            return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)
    return None


# -- jsonschema's errors -> Discord's errors tree -----------------------------------------------
def schema_errors(form: Form, errors: Iterable[ValidationError]) -> None:
    """Add each failure to the form, once per path and code."""
    seen: set[tuple[ErrorPath, str]] = set()
    for path, code, message in _leaves(errors):
        if (path, code) not in seen:
            seen.add((path, code))
            form.add(path, code, message)


def _leaves(errors: Iterable[ValidationError]) -> Iterator[Leaf]:
    """Each failure as (path, code, message); a union's replaced by its most relevant branch's
    failures."""
    for error in errors:
        if error.validator in UNIONS:
            yield from _union(error)
        else:
            yield _translate(error)


def _union(error: ValidationError) -> list[Leaf]:
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    if not branches:
        return [_translate(error)]
    refused = {index: _discriminator(subs) for index, subs in branches.items()}
    places = {key[0] for key in refused.values() if key is not None}
    if all(key is not None for key in refused.values()) and len(places) == 1:
        # no branch takes the discriminator: one error listing every value that would do
        allowed: list[Any] = []
        for key in refused.values():
            allowed.extend(v for v in (key[1] if key else ()) if v not in allowed)
        allowed.sort(key=lambda v: (type(v).__name__, v))
        return [(tuple(error.absolute_path) + places.pop(), *_choices(allowed))]
    leaves = {index: list(_leaves(subs)) for index, subs in branches.items()}

    def rank(index: int) -> tuple[bool, bool, bool, int, int, int]:
        found = leaves[index]
        wrong_type = [s for s in branches[index] if s.validator == "type" and not s.relative_path]
        only_null = any(s.validator_value == "null" for s in wrong_type)  # `null` explains least
        typed = sum(code.endswith(("_COERCE", "_CONVERT")) for _, code, _ in found)
        depth = max((len(path) for path, _, _ in found), default=0)
        return (bool(wrong_type), only_null, refused[index] is not None, typed, -depth,
                len(found))
    return leaves[min(branches, key=rank)]


def _discriminator(subs: list[ValidationError]) -> tuple[ErrorPath, list[Any]] | None:
    """A branch refused for its discriminator, an enum or const failing on the instance itself
    or on its `type` field: (that relative path, the values allowed there)."""
    for sub in subs:
        path = tuple(sub.relative_path)
        if path not in ((), ("type",)):
            continue
        if sub.validator == "enum":
            return path, list(sub.validator_value)
        if sub.validator == "const":
            return path, [sub.validator_value]
    return None


def _choices(allowed: list[Any]) -> tuple[str, str]:
    shown = ", ".join(repr(a) if isinstance(a, str) else str(a) for a in allowed)
    return "BASE_TYPE_CHOICES", f"Value must be one of ({shown})."


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


TYPE_ERRORS = {  # the JSON type wanted -> (code, message)
    "integer": ("NUMBER_TYPE_COERCE", 'Value "{}" is not int.'),
    "number": ("NUMBER_TYPE_COERCE", 'Value "{}" is not a number.'),
    "string": ("STRING_TYPE_CONVERT", 'Could not interpret "{}" as string.'),
    "boolean": ("BOOLEAN_TYPE_COERCE", 'Value "{}" is not a boolean.'),
    "array": ("LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"),
    "object": ("DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"),
}
LENGTHS = ("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties")


def _translate(error: ValidationError) -> Leaf:
    path: ErrorPath = tuple(error.absolute_path)
    keyword, value = error.validator, error.validator_value
    schema = error.schema if isinstance(error.schema, dict) else {}
    fmt = schema.get("format")
    if fmt == "nonce" and keyword == "maxLength":
        return path, "NONCE_TYPE_TOO_LONG", f"Must be {value} or fewer characters long."
    if fmt == "snowflake":
        return path, "NUMBER_TYPE_COERCE", f'Value "{_shown(error.instance)}" is not snowflake.'
    if keyword in LENGTHS:
        kind = keyword[3:]
        low, high = schema.get("min" + kind, 0), schema.get("max" + kind)
        if low and high is not None:
            return path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        if keyword.startswith("max"):
            return path, "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
        return path, "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
    if keyword == "required":  # one error for each missing property: the one it names
        missing = next((name for name in value
                        if error.message == f"{name!r} is a required property"), None)
        if missing is None:
            missing = next((name for name in value if name not in error.instance), "")
        return path + (missing,), "BASE_TYPE_REQUIRED", "This field is required"
    if keyword in ("enum", "const"):
        return (path, *_choices(list(value) if keyword == "enum" else [value]))
    if keyword in ("maximum", "exclusiveMaximum"):
        return path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
    if keyword in ("minimum", "exclusiveMinimum"):
        return path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
    if keyword == "format" and fmt in FORMAT_BOUNDS:
        low, high = FORMAT_BOUNDS[fmt]
        if error.instance > high:
            return path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}."
        return path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
    if keyword == "type":
        wanted = [value] if isinstance(value, str) else [t for t in value if t != "null"]
        code, message = TYPE_ERRORS.get(wanted[0] if wanted else "",
                                        ("BASE_TYPE_INVALID", "Invalid value."))
        if wanted[:1] == ["object"] and "properties" in schema:
            code, message = "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
        return path, code, message.format(_shown(error.instance))
    if keyword == "uniqueItems":
        return path, "SET_TYPE_ALREADY_CONTAINS_VALUE", "The set already contains this value"
    if keyword == "pattern":
        return path, "STRING_TYPE_REGEX", "String value did not match validation regex."
    return path, "BASE_TYPE_INVALID", f"Invalid value ({keyword})."


# -- once per process ---------------------------------------------------------------------------
_loaded: Spec | None = None
_absent = False
_load_lock = threading.Lock()


def load() -> Spec | None:
    """The description, read and prepared once per process. If it is absent: None (the check
    is skipped, said once in the log), or SpecMissing with CI=true."""
    global _loaded, _absent
    if _loaded is None and not _absent:
        with _load_lock:
            if _loaded is None and not _absent:
                source = spec_path()
                if source.is_file():
                    _loaded = Spec(json.loads(source.read_bytes()), source)
                else:
                    _absent = True
                    log.warning("%s", status())
    if _loaded is None and required():
        raise SpecMissing(status())
    return _loaded


def status() -> str:
    """One line saying whether request bodies are checked, for a test report's header."""
    source = spec_path()
    if source.is_file():
        return f"Discord API description: {source} (every request body is checked against it)"
    line = (f"Discord API description: not found at {source}: request bodies are not checked "
            f"against it (set {ENV}, or put discord-api-spec in ../shared)")
    return line + ("; CI=true requires it: the tests that use the Discord imitation fail"
                   if required() else "")
