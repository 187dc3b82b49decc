"""Throw-away database servers for the store's tests: a PostgreSQL (initdb and pg_ctl in a temporary
directory) and a Redis, each on a free loopback port, started once a test session and removed at its
end.  Without Debian's ``postgresql`` or ``redis-server`` the tests that need them skip, unless CI is
set, when they fail (as the browser tests do).  A test module imports the fixtures it uses
(``from services import postgresql, store_url``): a conftest.py here would share its module name with
tests/conftest.py, which mypy refuses."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator, NoReturn

import pytest

from ginnyo.web.store import Store

START_SECONDS = 60
POSTGRES_USER = "postgres"   # the system user that runs PostgreSQL when the tests run as root (it refuses root)
_databases = itertools.count(1)


def unavailable(reason: str) -> NoReturn:
    """Skip a test that needs a database server, or fail it when CI is set (they must run there)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI is set: the store's tests must run on PostgreSQL and Redis")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", POSTGRES_USER, "--", *command] if os.geteuid() == 0 else command


@pytest.fixture(scope="session")
def postgresql() -> Iterator[str]:
    """A PostgreSQL server of the session, trusting connections from 127.0.0.1 only, with its socket in
    its own directory and no fsync; the URL of its ``postgres`` database."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not binaries:
        unavailable("PostgreSQL is not installed (Debian's postgresql)")
    bin_dir = Path(binaries[-1]).parent
    home = Path(tempfile.mkdtemp(prefix="ginnyo-postgresql-"))
    if os.geteuid() == 0:
        shutil.chown(home, POSTGRES_USER)
    port = free_port()
    data = home / "data"
    try:
        subprocess.run(_as_server_user([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                                        "-E", "UTF8", "--locale=C", "--no-sync"]),
                       check=True, capture_output=True, timeout=START_SECONDS)
        options = (f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={home} -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off")
        subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(home / "log"), "-w",
                                        "-o", options, "start"]), check=True, capture_output=True, timeout=START_SECONDS)
    except subprocess.CalledProcessError as error:
        shutil.rmtree(home, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {error.stderr.decode(errors='replace').strip()}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=START_SECONDS)
        shutil.rmtree(home, ignore_errors=True)


def new_database(server: str) -> str:
    """A new, empty database on the PostgreSQL ``server`` (its URL)."""
    import psycopg
    name = f"test_{os.getpid()}_{next(_databases)}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def postgresql_database(postgresql: str) -> str:
    """The URL of an empty database of its own on the session's PostgreSQL."""
    return new_database(postgresql)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store is: a data directory of its own (SQLite), or a database of its own on the
    session's PostgreSQL (its URL)."""
    if request.param == "sqlite":
        return str(tmp_path)
    return new_database(request.getfixturevalue("postgresql"))


def open_store(store_url: str) -> Store:
    """The store at ``store_url`` (:func:`store_url`), made and at the current schema."""
    if store_url.startswith("postgresql://"):
        return Store(database=store_url, migrate=True)
    return Store(store_url)


@pytest.fixture(scope="session")
def redis() -> Iterator[str]:
    """A Redis server of the session on 127.0.0.1, keeping nothing on disk; its URL."""
    server = shutil.which("redis-server")
    if server is None:
        unavailable("Redis is not installed (Debian's redis-server)")
    port = free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("Redis did not start")
                time.sleep(0.02)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=START_SECONDS)


__all__ = ["postgresql", "postgresql_database", "store_url", "redis", "open_store", "new_database", "free_port"]
