"""Move a live server from SQLite to PostgreSQL:

    python -m bot migrate-db --from sqlite:PATH --to postgresql://user@host/db

Stop the bot first. The target is migrated to the source's schema version, must be empty (a
non-empty target is refused, never overwritten), and receives every table in one transaction;
then row counts and every match's move log are compared, and the serial counters are moved
past the copied ids. Exit 0 when the copy checks out, 1 with the reason otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

# parents before children (foreign keys); every table of the schema
TABLES = ("matches", "seats", "moves", "notices", "offers", "users", "vacations",
          "guild_settings", "outbox", "live_messages", "meta", "ratings", "rating_history",
          "rating_members", "analyses", "tournaments", "tournament_rounds",
          "tournament_matches", "puzzles", "puzzle_attempts", "puzzle_ratings",
          "lesson_progress", "conditional_moves")  # every table (tests/test_postgres.py)
SERIALS = ("matches", "offers", "vacations", "outbox")  # BIGSERIAL ids to move past
USAGE = "Copy a SQLite store into an empty PostgreSQL database."  # an admin tool: English


class MigrationError(Exception):
    """Why the copy was refused or did not check out."""


def _sqlite_rows(path: str, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cursor = conn.execute(f"SELECT * FROM {table}")  # table names from TABLES only
        columns = [d[0] for d in cursor.description]
        return columns, cursor.fetchall()
    finally:
        conn.close()


def _sqlite_version(path: str) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


async def migrate(source: str, target: str, *, out: Any = sys.stdout) -> dict[str, int]:
    """Copy the SQLite store at `source` (an existing file: the caller checks) into the
    PostgreSQL database `target`; returns the rows copied per table. The SQLite reads block:
    this runs as a command of its own, never inside the bot."""
    import asyncpg

    from .db import migration_scripts
    from .pg import PostgresDatabase

    version = _sqlite_version(source)
    latest = migration_scripts("sqlite")[-1][0]
    if version != latest:
        raise MigrationError(f"the SQLite store is at schema {version}, this Corral at "
                             f"{latest}: start the bot once on it (it migrates), stop it, "
                             "then copy")
    db = await PostgresDatabase.open(target, min_size=1, max_size=2)
    try:
        await db.migrate()
        conn = await asyncpg.connect(target)
        try:
            for table in TABLES:
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise MigrationError(f"the target is not empty (table {table} has rows): "
                                         "refusing to overwrite it")
            copied: dict[str, int] = {}
            async with conn.transaction():
                for table in TABLES:
                    columns, rows = _sqlite_rows(source, table)
                    copied[table] = len(rows)
                    if not rows:
                        continue
                    rows = await _typed(conn, table, columns, rows)
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
                    print(f"{table}: {len(rows)} rows", file=out)
                for table in SERIALS:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" GREATEST((SELECT COALESCE(MAX(id), 0) FROM {table}), 1))")
                await _check(conn, source, copied)  # a mismatch rolls the copy back
        finally:
            await conn.close()
    finally:
        await db.close()
    return copied


async def _typed(conn: Any, table: str, columns: list[str],
                 rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """SQLite may keep a whole number in a REAL column; PostgreSQL's binary copy wants a
    float for double precision (and an int for integers)."""
    types = {r["column_name"]: r["data_type"] for r in await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1",
        table)}
    floats = [i for i, c in enumerate(columns) if types.get(c) == "double precision"]
    if not floats:
        return rows
    fixed = []
    for row in rows:
        values = list(row)
        for i in floats:
            if values[i] is not None:
                values[i] = float(values[i])
        fixed.append(tuple(values))
    return fixed


async def _check(conn: Any, source: str, copied: dict[str, int]) -> None:
    for table, count in copied.items():
        found = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
        if found != count:
            raise MigrationError(f"{table}: {count} rows in SQLite, {found} in PostgreSQL")
    columns, moves = _sqlite_rows(source, "moves")
    index = {name: i for i, name in enumerate(columns)}
    wanted = sorted((m[index["match_id"]], m[index["seq"]], m[index["kind"]],
                     m[index["notation"]], m[index["actor_id"]]) for m in moves)
    rows = await conn.fetch("SELECT match_id, seq, kind, notation, actor_id FROM moves"
                            " ORDER BY match_id, seq")
    got = [tuple(r) for r in rows]
    if got != wanted:
        raise MigrationError("the move logs differ after the copy")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot migrate-db", description=USAGE)
    parser.add_argument("--from", dest="source", required=True, help="sqlite:PATH")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://...")
    args = parser.parse_args(argv)
    if not args.source.startswith("sqlite:"):
        print("--from takes sqlite:PATH (the SQLite file the bot used)", file=sys.stderr)
        return 2
    if not args.target.startswith(("postgresql://", "postgres://")):
        print("--to takes a postgresql:// URL", file=sys.stderr)
        return 2
    source = args.source.removeprefix("sqlite:")
    if not Path(source).is_file():
        print(f"migrate-db: no SQLite database at {source}", file=sys.stderr)
        return 1
    try:
        copied = asyncio.run(migrate(source, args.target))
    except MigrationError as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"migrate-db: cannot reach PostgreSQL: {exc}", file=sys.stderr)
        return 1
    moves = copied.get("moves", 0)
    print(f"copied {sum(copied.values())} rows ({copied.get('matches', 0)} matches, {moves} "
          "logged moves); row counts and move logs check out", file=sys.stdout)
    return 0
