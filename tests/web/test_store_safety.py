"""The games' database refuses what is not its own and never crashes on damage (issue 40, item 6):
ginnyo's mark on the file, files of other programs left untouched, damaged files and rows, one server a
data directory, and a full disk (503, and a bot that moves again once there is room)."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from ginnyo.game import Game
from ginnyo.web.store import APPLICATION_ID, SCHEMA, SCHEMA_VERSION, GameRow, Store
from ginnyo.players.players import make_player
from ginnyo.web.games.rebuilds import rebuilders
from ginnyo.web.live.registry import Tables
from ginnyo.web.live.seats import token_hash
from web_helpers import WAIT_SECONDS, act, bearer, best_action, client_of, create, view

FULL = "the server's disk is full: the move was not saved; try again later"

# the schema of the ginnyo before Crazy Rummy: the games had no game column, the file no mark
EARLIER_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, seats TEXT NOT NULL, names TEXT NOT NULL,
                    seed INTEGER NOT NULL, think REAL NOT NULL, status TEXT NOT NULL, rematch_of TEXT, rematch TEXT);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL);
CREATE TABLE actions (game TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, text TEXT NOT NULL,
                      created REAL NOT NULL, PRIMARY KEY (game, n));
"""


def serve_refused(data: Path) -> str:
    """``ginnyo serve --data DATA``, which must refuse to start: exit 2 and one line (returned)."""
    done = subprocess.run([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(data)],
                          capture_output=True, text=True, timeout=WAIT_SECONDS)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("ginnyo: error: --data: ")
    return lines[0]


def stored_game(store: Store, game_id: str, seats: tuple[str, ...] = ("human", "human"), seed: int = 3,
                status: str = "playing") -> None:
    """A game put in the store as the server would, its human seats holding :func:`seat_token`."""
    tokens = {seat: token_hash(seat_token(game_id, seat)) for seat, kind in enumerate(seats) if kind == "human"}
    store.create_game(GameRow(game_id, seats, tuple(f"P{seat}" for seat in range(len(seats))), seed, 0.0, status,
                              None, None), tokens)


def seat_token(game_id: str, seat: int) -> str:
    """The seat token of a game made by :func:`stored_game` (a well-formed one, of this game only)."""
    return f"{game_id}{seat}".ljust(43, "x")


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of ``directory``: its bytes and its modification time."""
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in directory.iterdir()}


# -- the mark ---------------------------------------------------------------------------------

def test_a_new_database_is_marked_as_ginnyos(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        create(client, ["human", "greedy"])
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    assert database.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID == 0x474E594F   # "GNYO"
    assert database.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    database.close()


@pytest.mark.parametrize("game_column", [False, True], ids=["before Crazy Rummy", "before the mark"])
def test_a_database_of_an_earlier_ginnyo_is_upgraded_and_marked(tmp_path: Path, game_column: bool) -> None:
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    database.execute("PRAGMA journal_mode=WAL")
    database.executescript(EARLIER_SCHEMA)
    if game_column:
        database.execute("ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'ginny-o'")
    with database:
        database.execute("INSERT INTO games VALUES ('old', 0, '[\"human\", \"human\"]', '[\"Ann\", \"Bo\"]', 3, 0,"
                         " 'playing', NULL, NULL" + (", 'ginny-o')" if game_column else ")"))
        database.execute("INSERT INTO tokens VALUES (?, 'old', 0)", (token_hash(seat_token("old", 0)),))
    database.close()
    with client_of(tmp_path) as client:
        assert view(client, "old", seat_token("old", 0))["version"] == 0
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    assert database.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert database.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert database.execute("SELECT game FROM games").fetchall() == [("ginny-o",)]
    database.close()


# -- other programs' files: refused, untouched -----------------------------------------------

def _sqlite_file(path: Path, script: str, wal: bool = False) -> None:
    database = sqlite3.connect(path)
    if wal:
        database.execute("PRAGMA journal_mode=WAL")
    database.executescript(script)
    database.close()


FOREIGN: dict[str, Callable[[Path], object]] = {
    "another program's tables": lambda path: _sqlite_file(
        path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');"),
    "another program's tables, in WAL mode": lambda path: _sqlite_file(
        path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('x');", True),
    "no tables at all": lambda path: _sqlite_file(path, "PRAGMA user_version = 7;"),
    "ginnyo's tables and one more": lambda path: _sqlite_file(path, SCHEMA + "CREATE TABLE extra (x);"),
    "ginnyo's tables under another application_id": lambda path: _sqlite_file(
        path, SCHEMA + "PRAGMA application_id = 305419896;"),
    "a later ginnyo's schema": lambda path: _sqlite_file(
        path, SCHEMA + f"PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION + 1};"),
    "not a SQLite file": lambda path: path.write_bytes(b"name,score\n" + b"ann,3\n" * 1000),
}


@pytest.mark.parametrize("make", FOREIGN.values(), ids=FOREIGN.keys())
def test_a_database_that_is_not_ginnyos_is_refused_without_a_byte_written(tmp_path: Path,
                                                                           make: Callable[[Path], object]) -> None:
    path = tmp_path / "games.sqlite3"
    make(path)
    before = snapshot(tmp_path)
    line = serve_refused(tmp_path)
    assert str(path) in line
    assert snapshot(tmp_path) == before   # the same bytes, times and files: no -wal, -shm or lock file


# -- damage ---------------------------------------------------------------------------------------

def _real_store(data: Path) -> Path:
    """A store of 20 games with actions (a file of many pages), closed; its path."""
    store = Store(data)
    for number in range(20):
        stored_game(store, f"game{number:02d}", status="finished")
        for action in range(1, 30):
            store.append_action(f"game{number:02d}", action, f"return {action}C" * 20, False)
    store.close()
    return data / "games.sqlite3"


def test_garbage_pages_behind_a_valid_header_are_refused_with_one_line(tmp_path: Path) -> None:
    path = _real_store(tmp_path)
    content = bytearray(path.read_bytes())
    page = 4096
    assert len(content) > 8 * page
    garbage = random.Random(1).randbytes(len(content))
    for number in range(2, len(content) // page, 2):   # every other page after the first
        content[number * page:(number + 1) * page] = garbage[number * page:(number + 1) * page]
    path.write_bytes(bytes(content))
    line = serve_refused(tmp_path)
    assert str(path) in line and "damaged" in line


def test_a_truncated_database_is_refused_with_one_line(tmp_path: Path) -> None:
    path = _real_store(tmp_path)
    with open(path, "r+b") as file:
        file.truncate(path.stat().st_size // 2)
    line = serve_refused(tmp_path)
    assert str(path) in line and "damaged" in line


def test_a_game_whose_row_does_not_read_is_left_out_with_one_line(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for game in ("good", "seats", "seed", "names"):
        stored_game(store, game, seed=5)
    store.close()
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    with database:
        database.execute("UPDATE games SET seats = '[\"human\", ' WHERE id = 'seats'")
        database.execute("UPDATE games SET seed = 'five' WHERE id = 'seed'")
        database.execute("UPDATE games SET names = '[\"Ann\"]' WHERE id = 'names'")
    database.close()
    process = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("ginnyo: serving on "), line
        import httpx
        url = line.split()[3]
        with httpx.Client(base_url=url, timeout=WAIT_SECONDS) as client:
            assert client.get("/api/games/good", headers=bearer(seat_token("good", 0))).json()["version"] == 0
            assert client.get("/api/games/seats", headers=bearer(seat_token("seats", 0))).status_code == 404
    finally:
        process.terminate()
        _, err = process.communicate(timeout=WAIT_SECONDS)
    assert "Traceback" not in err
    assert "ginnyo: game seats left out: its seats are not JSON" in err.splitlines()
    assert "ginnyo: game seed left out: its seed is a str" in err.splitlines()
    assert "ginnyo: game names left out: it has 2 seats but 1 names" in err.splitlines()


def test_a_finished_game_on_damaged_pages_is_left_out_when_asked_for(tmp_path: Path) -> None:
    store = Store(tmp_path)
    stored_game(store, "live")
    stored_game(store, "done", status="finished")
    for action in range(1, 40):   # two rows a page: pages of their own, after the tables' first ones
        store.append_action("done", action, "x" * 2000, False)
    store.close()
    path = tmp_path / "games.sqlite3"
    database = sqlite3.connect(path)
    last_root = max(root for root, in database.execute("SELECT rootpage FROM sqlite_master"))
    database.close()
    content = bytearray(path.read_bytes())
    first = last_root * 4096   # the pages made after the schema's: the finished game's actions
    content[first:] = random.Random(2).randbytes(len(content) - first)
    path.write_bytes(bytes(content))

    lines: list[str] = []
    from ginnyo.commands.serve import web_app
    from web_helpers import TestClient
    with TestClient(web_app(tmp_path, lines.append), raise_server_exceptions=True) as client:
        assert view(client, "live", seat_token("live", 0))["version"] == 0
        answer = client.get("/api/games/done", headers=bearer(seat_token("done", 0)))
        assert answer.status_code == 404 and set(answer.json()) == {"error", "code", "args"}
        assert view(client, "live", seat_token("live", 1))["version"] == 0   # the server goes on
    assert len(lines) == 1 and lines[0].startswith(f"ginnyo: game done left out: {path} could not be read")


# -- one server a data directory ----------------------------------------------------------------

def test_a_second_server_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    first = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().startswith("ginnyo: serving on ")
        line = serve_refused(tmp_path)
        assert line == f"ginnyo: error: --data: {tmp_path}: another ginnyo serve is using this data directory"
    finally:
        first.terminate()
        first.communicate(timeout=WAIT_SECONDS)
    second = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:   # the first gone, its lock is too
        assert second.stdout is not None
        assert second.stdout.readline().startswith("ginnyo: serving on ")
    finally:
        second.terminate()
        second.communicate(timeout=WAIT_SECONDS)


# -- a full disk --------------------------------------------------------------------------------

def fill_up(store: Store) -> None:
    """Make the store's file full, as a full disk would: SQLite may add no page (max_page_count), and the
    page the actions go to is filled to the brim (rows of a game of no seats, never served)."""
    with store._lock:
        database = store._db
        database.execute("INSERT INTO games (id, created, seats, names, seed, think, status)"
                         " VALUES ('~filler', 0, '[]', '[]', 0, 0, 'finished')")
        database.execute(f"PRAGMA max_page_count = {database.execute('PRAGMA page_count').fetchone()[0]}")
        number = 0
        for size in (1000, 100, 10, 1):
            while True:
                number += 1
                try:
                    database.execute("INSERT INTO actions VALUES ('~filler', ?, ?, 0)", (number, "x" * size))
                except sqlite3.OperationalError as error:
                    assert str(error) == "database or disk is full"
                    break


def make_room(store: Store) -> None:
    with store._lock:
        store._db.execute("PRAGMA max_page_count = 1000000")


def test_a_move_on_a_full_disk_is_refused_with_503_and_nothing_acknowledged(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        made = create(client, ["human", "human"], seed=9)
        game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
        before = view(client, game, tokens[0])
        fill_up(client.app.state.tables.store)   # type: ignore[attr-defined]
        answer = act(client, game, tokens[0], best_action(before), before["version"])
        assert answer.status_code == 503 and answer.json()["error"] == FULL
        assert answer.headers["Retry-After"].isdigit()
        assert view(client, game, tokens[0]) == before
        make_room(client.app.state.tables.store)   # type: ignore[attr-defined]
        answer = act(client, game, tokens[0], best_action(before), before["version"])
        assert answer.status_code == 200 and answer.json()["version"] == before["version"] + 1
        assert view(client, game, tokens[1])["version"] == before["version"] + 1


@pytest.fixture
def full_store(tmp_path: Path) -> Iterator[Store]:
    """A store holding a game whose bot (greedy) is to move, full before any server loads it."""
    store = Store(tmp_path)
    seed = 4
    first = Game.deal(2, seed).to_move
    stored_game(store, "botgame", seats=("greedy", "human") if first == 0 else ("human", "greedy"), seed=seed)
    fill_up(store)
    yield store
    store.close()


def test_a_bot_whose_move_could_not_be_saved_moves_once_there_is_room(full_store: Store) -> None:
    lines: list[str] = []
    heard = threading.Event()

    def warn(line: str) -> None:
        lines.append(line)
        heard.set()

    tables = Tables(full_store, rebuilders(make_player))
    try:
        tables.load(warn)
        assert heard.wait(WAIT_SECONDS), "the bot's move was never tried"
        assert lines == [f"ginnyo: game botgame: the bot's move was not saved ({FULL}); the bot will try again"]
        assert full_store.actions("botgame") == []
        make_room(full_store)
        deadline = time.monotonic() + WAIT_SECONDS
        while not full_store.actions("botgame"):
            assert time.monotonic() < deadline, "the bot did not move again once there was room"
            time.sleep(0.05)
        table = tables.get("botgame")
        with table.lock:
            assert table.kinds[table.to_move] == "human" and table.actions == full_store.actions("botgame")
        assert len(lines) == 1
    finally:
        tables.close()

