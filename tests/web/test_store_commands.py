"""``ginnyo db`` (migrate, copy) and ``ginnyo serve --database`` (issue 43): a SQLite store copied into
PostgreSQL reads back equal, a PostgreSQL store behind is refused by serve until migrated, and every
refusal is one line, never a traceback."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import psycopg
import pytest

from ginnyo.web.store import SCHEMA_VERSION, GameRow, Store
from services import free_port, postgresql, postgresql_database  # noqa: F401
from web_helpers import WAIT_SECONDS


def ginnyo(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ginnyo", *words], capture_output=True, text=True,
                          timeout=WAIT_SECONDS * 4)


def one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    """The one line of a command that must fail (exit 2, no traceback)."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def filled_sqlite_store(data: Path) -> None:
    store = Store(data)
    for number in range(30):
        game = f"game{number:02d}"
        store.create_game(GameRow(game, ("human", "greedy"), ("Ann", "Bot"), number * 2 ** 58, 0.25,
                                  "finished" if number % 3 == 0 else "playing", None, None,
                                  "crazy" if number % 5 == 0 else "ginny-o"), {0: f"{number:064x}"})
        for action in range(1, number + 2):
            store.append_action(game, action, f"return {action}C", False)
    store.close()


def contents(store: Store) -> tuple[object, ...]:
    games = store.games()
    return (games, sorted(store.tokens()), {game.id: store.actions(game.id) for game in games},
            store.last_activity(), store.last_activity("finished"))


def test_a_sqlite_store_copied_into_postgresql_reads_back_equal(tmp_path: Path, postgresql_database: str) -> None:
    filled_sqlite_store(tmp_path)
    done = ginnyo("db", "copy", "--from", str(tmp_path / "games.sqlite3"), "--to", postgresql_database)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == ("ginnyo: copied 30 games, 30 seat tokens and 465 moves into"
                                                    f" {postgresql_database}")
    source, target = Store(tmp_path), Store(database=postgresql_database)
    try:
        assert contents(target) == contents(source)
    finally:
        source.close()
        target.close()
    again = one_line_refusal(ginnyo("db", "copy", "--from", str(tmp_path), "--to", postgresql_database))
    assert again == f"ginnyo: error: {postgresql_database}: holds games already (--into-non-empty to copy into it" \
                    " all the same)"


def test_serve_refuses_a_postgresql_store_behind_until_it_is_migrated(postgresql_database: str,
                                                                      tmp_path: Path) -> None:
    line = one_line_refusal(ginnyo("serve", "--port", "0", "--database", postgresql_database))
    assert line == (f"ginnyo: error: --database: {postgresql_database}: is at schema version 0, this ginnyo needs"
                    f" {SCHEMA_VERSION}: run ginnyo db migrate --database URL")
    done = ginnyo("db", "migrate", "--database", postgresql_database)
    assert done.returncode == 0 and done.stdout == f"ginnyo: {postgresql_database} is at schema version" \
                                                   f" {SCHEMA_VERSION}\n", done.stderr
    server = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(tmp_path),
                               "--database", postgresql_database], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("ginnyo: serving on "), line
        with httpx.Client(base_url=line.split()[3], timeout=WAIT_SECONDS) as client:
            made = client.post("/api/games", json={"seats": ["human", "human"], "names": ["Ann", "Bo"]})
            assert made.status_code == 201, made.text
            game = made.json()["id"]
    finally:
        server.terminate()
        _, err = server.communicate(timeout=WAIT_SECONDS)
    assert "Traceback" not in err
    with psycopg.connect(postgresql_database) as connection:
        assert connection.execute("SELECT id FROM games").fetchall() == [(game,)]
    assert not (tmp_path / "games.sqlite3").exists()   # the data directory's SQLite file is not used


def test_db_migrate_upgrades_the_sqlite_file_of_an_earlier_ginnyo(tmp_path: Path) -> None:
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    database.executescript("CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, seats TEXT NOT NULL,"
                           " names TEXT NOT NULL, seed INTEGER NOT NULL, think REAL NOT NULL, status TEXT NOT NULL,"
                           " rematch_of TEXT, rematch TEXT);")
    database.close()
    done = ginnyo("db", "migrate", "--data", str(tmp_path))
    assert done.returncode == 0, done.stderr
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    assert database.execute("SELECT version_num FROM alembic_version").fetchall() == [(f"{SCHEMA_VERSION:04d}",)]
    assert database.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    database.close()


def test_db_refusals_are_one_line(tmp_path: Path, postgresql_database: str) -> None:
    filled_sqlite_store(tmp_path)
    with psycopg.connect(postgresql_database) as connection:
        connection.execute("CREATE TABLE notes (id integer PRIMARY KEY)")
    unreachable = f"postgresql://nobody@127.0.0.1:{free_port()}/games"
    refusals = {
        ("db", "migrate", "--database", "mysql://me@host/games"): "is not a PostgreSQL URL",
        ("db", "migrate", "--database", unreachable): f"{unreachable}: cannot be used (",
        ("db", "copy", "--from", str(tmp_path), "--to", unreachable): f"{unreachable}: cannot be used (",
        ("db", "copy", "--from", str(tmp_path), "--to", postgresql_database): "is not ginnyo's games database"
                                                                            " (its tables: notes)",
        ("db", "copy", "--from", str(tmp_path / "none"), "--to", postgresql_database): "there is no such file",
    }
    for words, expected in refusals.items():
        line = one_line_refusal(ginnyo(*words))
        assert line.startswith("ginnyo: error: ") and expected in line, (words, line)
