"""Gettext catalogs: extracting the messages and compiling the `.po` files at run time.

The message ids are the English sentences marked `N_("...")` (one message),
`NP_("one", "many")` (a plural pair) and `NC_("context", "...")` (a message with a context,
gettext's msgctxt: the same English in different words per game) in `bot/words/strings.py` and the
games; in the games, `nphrase(N_("one"), N_("many"), n, ...)` is a plural pair as well. To
refresh the template and the catalogs after changing a sentence (run from the repository root,
in the venv):

    pybabel extract -F babel.cfg -k N_ -k NP_:1,2 -k NC_:1c,2 --no-wrap --sort-by-file \
        --project=Corral --copyright-holder=Corral -o bot/words/locale/corral.pot bot games render
    pybabel update -i bot/words/locale/corral.pot -d bot/words/locale -D corral --no-wrap

then translate the new or fuzzy entries of `bot/words/locale/ja/LC_MESSAGES/corral.po`
(`tests/test_i18n.py` fails until every message is translated and the template is fresh).
A new language starts with
`pybabel init -i bot/words/locale/corral.pot -d bot/words/locale -D corral -l <lang>`.

No `.mo` file is committed or needed: `compiled(language)` reads the `.po` with Babel and
compiles it in memory on first use (Babel's `write_mo` into a BytesIO, then
`gettext.GNUTranslations`). `pybabel compile -d bot/words/locale -D corral` still works for
checking a catalog by hand (`--statistics`), but its output is not used by the bot.
"""

from __future__ import annotations

import ast
import gettext
import io
import threading
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "corral"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
MAPPING = Path(__file__).resolve().parents[2] / "babel.cfg"

_lock = threading.Lock()
_compiled: dict[tuple[str, Path], gettext.GNUTranslations | None] = {}


def po_path(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_po(source: IO[bytes], locale: str | None = None) -> gettext.GNUTranslations:
    """A `.po` file (bytes) as translations, compiled in memory. Fuzzy entries are left out,
    as `msgfmt` and `pybabel compile` do."""
    catalog = read_po(source, locale=locale, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def compiled(language: str, locale_dir: Path = LOCALE_DIR) -> gettext.GNUTranslations | None:
    """The catalog of `language` compiled from its `.po`, once per process; None if there is
    no catalog for that language."""
    key = (language, locale_dir)
    with _lock:
        if key not in _compiled:
            path = po_path(language, locale_dir)
            if path.is_file():
                with path.open("rb") as source:
                    _compiled[key] = compile_po(source, locale=language)
            else:
                _compiled[key] = None
        return _compiled[key]


# -- extraction -------------------------------------------------------------------------------
_SINGULAR = "N_"
_PLURAL = "NP_"
_CONTEXT = "NC_"
_NPHRASE = "nphrase"

_Extracted = tuple[int, str, "str | tuple[str, str]", list[str]]


def extract_corral(fileobj: IO[bytes], keywords: Collection[str],
                   comment_tags: Collection[str],
                   options: Mapping[str, Any]) -> Iterator[_Extracted]:
    """A Babel extraction method (see `babel.cfg`) for Corral's Python sources.

    Yields `N_("text")` as a message, `NP_("one", "many")` as a plural pair and
    `NC_("context", "text")` as a message with a context, like Babel's Python extractor with
    `-k N_ -k NP_:1,2 -k NC_:1c,2`, and also `nphrase(N_("one"), N_("many"), ...)`
    as a plural pair (reported as `NP_`). Adjacent string literals are joined, as Python
    does. Comments are not extracted."""
    encoding = str(options.get("encoding", "utf-8"))
    tree = ast.parse(fileobj.read().decode(encoding))
    found: list[tuple[int, int, str, str | tuple[str, str]]] = []
    inside_nphrase: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name.endswith("Labels"):
            # the pictures' words: each default of a render `...Labels` dataclass (a default
            # written NC_("context", "text") is found below, as every NC_ call is)
            for item in node.body:
                if not isinstance(item, ast.AnnAssign) or item.value is None:
                    continue
                values = (item.value.elts if isinstance(item.value, ast.Tuple)
                          else [item.value])
                for value in values:
                    text = _literal(value)
                    if text and _SINGULAR in keywords:
                        found.append((value.lineno, value.col_offset, _SINGULAR, text))
            continue
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        if name == _NPHRASE and _PLURAL in keywords and len(node.args) >= 2:
            one, many = (_marked(arg) for arg in node.args[:2])
            if one is not None and many is not None:
                found.append((node.lineno, node.col_offset, _PLURAL, (one, many)))
                inside_nphrase.update(id(arg) for arg in node.args[:2])
        elif name == _PLURAL and _PLURAL in keywords and len(node.args) == 2:
            one, many = (_literal(arg) for arg in node.args)
            if one is not None and many is not None:
                found.append((node.lineno, node.col_offset, _PLURAL, (one, many)))
        elif name == _CONTEXT and _CONTEXT in keywords:
            pair = _context_pair(node)
            if pair is not None:
                found.append((node.lineno, node.col_offset, _CONTEXT, pair))
        elif name == _SINGULAR and _SINGULAR in keywords and len(node.args) == 1:
            text = _literal(node.args[0])
            if text is not None and id(node) not in inside_nphrase:
                found.append((node.lineno, node.col_offset, _SINGULAR, text))
        # slash commands: descriptions, option descriptions and choice names (see
        # bot/words/translator.py), written as plain literals where discord.py wants them
        for keyword in node.keywords:
            wanted = (keyword.arg == "description" or name == "describe"
                      or (name == "Choice" and keyword.arg == "name"))
            text = _literal(keyword.value) if wanted else None
            if text is not None and _SINGULAR in keywords:
                found.append((keyword.value.lineno, keyword.value.col_offset, _SINGULAR, text))
    # ast.walk visits an nphrase call before the N_ calls inside it, but sort into file order
    for lineno, _col, funcname, message in sorted(found, key=lambda item: item[:2]):
        yield lineno, funcname, message, []


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _context_pair(node: ast.expr) -> tuple[str, str] | None:
    """The context and text of `NC_("context", "text")`, else None."""
    if isinstance(node, ast.Call) and _call_name(node) == _CONTEXT and len(node.args) == 2:
        context, text = (_literal(arg) for arg in node.args)
        if context is not None and text is not None:
            return context, text
    return None


def _marked(node: ast.expr) -> str | None:
    """The text of `N_("text")`, else None."""
    if isinstance(node, ast.Call) and _call_name(node) == _SINGULAR and len(node.args) == 1:
        return _literal(node.args[0])
    return None
