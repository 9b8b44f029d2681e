"""A throwaway PostgreSQL server for the tests, from the machine's PostgreSQL binaries.

`initdb` and `pg_ctl` refuse to run as root, so as root the server runs as the `postgres` user
(or `nobody`) in a temporary folder it owns; it listens on 127.0.0.1 only, on a free port, with
trust authentication for the one local user, and is stopped (and its folder removed) at the end
of the session. `fresh_database()` gives each test the schema of the latest migration with no rows (one
database, emptied between tests).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "corral"


def binaries() -> Path | None:
    """The folder of `initdb` and `pg_ctl`: PATH first, then Debian's versioned folders."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run_as() -> str | None:
    """The unprivileged account to run the server as, when we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("running as root and no unprivileged user (postgres, nobody) exists")


class PostgresServer:
    def __init__(self) -> None:
        folder = binaries()
        if folder is None:
            raise FileNotFoundError("PostgreSQL's initdb/pg_ctl were not found")
        self.bin = folder
        self.root = Path(tempfile.mkdtemp(prefix="corral-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = _run_as()
        self.count = 0
        self.template_ready = False

    def _cmd(self, *args: str) -> None:
        kwargs: dict = {"check": True, "capture_output": True, "text": True}
        if self.user is not None:
            kwargs["user"] = self.user
            kwargs["cwd"] = str(self.root)
        try:
            subprocess.run(list(args), **kwargs, timeout=120)
        except subprocess.CalledProcessError as exc:
            raise RuntimeError(f"{args[0]} failed: {exc.stderr or exc.stdout}") from None

    def start(self) -> None:
        if self.user is not None:
            account = pwd.getpwnam(self.user)
            os.chown(self.root, account.pw_uid, account.pw_gid)
        os.chmod(self.root, 0o700)
        self._cmd(str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "-A", "trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root}"
                   " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                   " -c max_connections=200")
        self._cmd(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                  "-l", str(self.root / "server.log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            self._cmd(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                      "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    async def fresh_database(self) -> str:
        """An empty database with the current schema. The first call makes and migrates it;
        later calls empty every table (and restart the id counters) instead of making a new
        database, which would copy megabytes per test."""
        import asyncpg

        from bot.store.pg import PostgresDatabase

        url = self.url("corral_test")
        if not self.template_ready:
            admin = await asyncpg.connect(self.url())
            try:
                await admin.execute("CREATE DATABASE corral_test")
            finally:
                await admin.close()
            db = await PostgresDatabase.open(url, min_size=1, max_size=1)
            await db.migrate()
            await db.close()
            self.template_ready = True
            return url
        conn = await asyncpg.connect(url)
        try:
            tables = [r["tablename"] for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename <> 'schema_migrations'")]
            await conn.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
        finally:
            await conn.close()
        return url

    async def empty_database(self, name: str) -> str:
        """A database with no schema at all (for migrate-db's target)."""
        import asyncpg

        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f"CREATE DATABASE {name}")
        finally:
            await admin.close()
        return self.url(name)
