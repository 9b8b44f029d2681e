"""The store's SQL is written once and run as written (issue 29): no driver rewrites it with a
regular expression, guesses from its first letters whether it only reads, or is told apart
by `dialect` branches in shared code; and no private API of a database library is used."""

import io
import re
import tokenize
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"
STORE = BOT / "store"
STORAGE = [STORE / name for name in ("db.py", "sqlite.py", "pg.py", "__init__.py", "migrate.py")]


def _code(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_no_storage_module_rewrites_sql_with_a_regular_expression():
    for path in STORAGE:
        text = _code(path)
        assert not re.search(r"^\s*import re\b|^\s*from re import", text, re.M), path.name
        assert "re.sub(" not in text and "re.compile(" not in text, path.name


def test_nothing_sniffs_a_statement_to_tell_a_read_from_a_write():
    for path in BOT.rglob("*.py"):
        text = _code(path)
        # `sql.lstrip()[:6].upper() == "SELECT"`, `sql.startswith("SELECT")` and the like
        assert not re.search(r"\bsql\w*(\.\w+\(\))*(\[:\d+\](\.\w+\(\))*\s*[=!]=|"
                             r"\.startswith\()", text, re.I), path.relative_to(BOT)
        assert not re.search(r"[=!]=\s*['\"](SELECT|INSERT|UPDATE|DELETE|WITH)['\"]", text,
                             re.I), path.relative_to(BOT)


def test_shared_code_has_no_dialect_branches():
    for path in BOT.rglob("*.py"):
        if path.name in ("sqlite.py", "pg.py"):
            continue
        text = _code(path)
        assert not re.search(r"dialect\s*[!=]=|isinstance\([^)]*(Sqlite|Postgres)Database",
                             text), path.relative_to(BOT)


def test_aiosqlite_is_the_sqlite_drivers_alone():
    """aiosqlite is imported by `bot/store/sqlite.py` only: everything else goes through
    `bot/store/db.py`."""
    importers = {path.relative_to(BOT).as_posix() for path in BOT.rglob("*.py")
                 if re.search(r"^\s*(import|from) aiosqlite\b", _code(path), re.M)}
    assert importers == {"store/sqlite.py"}


def test_no_private_api_of_a_database_library():
    """Nothing in the bot reads a name with a leading underscore from another object than its
    own (`self`, `cls`): no `Connection._execute` of aiosqlite's, no `conn._con` of asyncpg's.
    (`os._exit` is the standard library's public API.)"""
    found = []
    for path in BOT.rglob("*.py"):
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(_code(path)).readline)
                  if t.type in (tokenize.NAME, tokenize.OP)]
        for owner, dot, name in zip(tokens, tokens[1:], tokens[2:], strict=False):
            if (dot.string == "." and name.type == tokenize.NAME
                    and name.string.startswith("_") and not name.string.startswith("__")
                    and owner.string not in ("self", "cls")
                    and f"{owner.string}.{name.string}" != "os._exit"):
                found.append(f"{path.relative_to(BOT)}:{owner.start[0]} "
                             f"{owner.string}.{name.string}")
    assert not found, found


def test_the_store_sql_has_only_placeholders_both_drivers_bind():
    """`$1, $2, …` only: a `?` would be bound by SQLite and refused by PostgreSQL."""
    source = (STORE / "__init__.py").read_text(encoding="utf-8")
    strings = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
               if t.type == tokenize.STRING]
    sql = [s for s in strings if re.search(r"\b(SELECT|INSERT|UPDATE|DELETE)\b", s)]
    assert len(sql) > 50
    assert not [s for s in sql if "?" in s]
    assert not [s for s in sql if "::" in s]  # SQLite would read `$1::int` as one name
