"""Private servers for the fault tests: a PostgreSQL cluster and ASGI server processes that the test
may stop, restart or kill without touching the machine's own servers (which the suite itself
runs against)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from glob import glob
from pathlib import Path

import psycopg

from tests.conftest import ROOT, free_port


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's programs (initdb, pg_ctl), if any."""
    found = sorted(glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own in a temporary folder, on a free port.

    PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user, who
    owns the folder."""

    def __init__(self, programs: Path) -> None:
        self.programs = programs
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="club-faults-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.as_owner: list[str] = []
        if os.geteuid() == 0:
            self.as_owner = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.folder, "postgres", "postgres")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, program: str, *args: str) -> None:
        result = subprocess.run(
            [*self.as_owner, str(self.programs / program), *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{program} failed:\n{result.stdout}{result.stderr}\n{self.logs()}")

    def logs(self) -> str:
        return self.log.read_text()[-3000:] if self.log.exists() else ""

    def create(self) -> None:
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        self.start()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def create_database(self, name: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def private_postgres() -> Iterator[PrivatePostgres]:
    """A fixture's body: a running private cluster, removed afterwards."""
    programs = postgres_bin()
    if programs is None:
        raise RuntimeError("PostgreSQL's initdb is needed (apt-get install postgresql)")
    cluster = PrivatePostgres(programs)
    try:
        cluster.create()
        yield cluster
    finally:
        cluster.remove()


def manage(env: dict[str, str], *args: str) -> str:
    """`manage.py <args>` in a process of its own with `env`; its output."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout
