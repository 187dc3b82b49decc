"""The SQLite file every web game lives in (DATA/games.sqlite3): the deal, the seat tokens' hashes, the actions.

A game is its seats, names, seed and think time plus the actions applied in
order (their notation); :mod:`.tables` rebuilds it by dealing from the seed
and applying them.  The file is in WAL mode: an action is committed when
:meth:`Store.append_action` returns, before the move is acknowledged.  With
``synchronous=NORMAL`` (the default) the commit is in the operating system's
hands, so it survives the server's death by any signal (SIGKILL included) and
the file is never left half-written, but a power cut or a crash of the system
may undo the last commits; with ``synchronous=FULL`` each commit also waits for
the disk (an fsync).  Seat tokens are never stored, only their SHA-256.

The file is marked as ginnyo's (SQLite's ``application_id``, :data:`APPLICATION_ID`, and
``user_version``, :data:`SCHEMA_VERSION`); a file of an earlier ginnyo (unmarked, but exactly
ginnyo's tables) is upgraded and marked, and any other file is refused before a byte of it is
written (:func:`identify`).  A write that finds the disk full is :class:`StoreUnavailable`, with
nothing saved; a page SQLite cannot read is a :class:`StoreError`.
"""

from __future__ import annotations

import contextlib
import errno
import json
import sqlite3
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Literal

from ..errors import StoreError, StoreRefused, StoreUnavailable

DATABASE_NAME = "games.sqlite3"
LOCK_NAME = "games.lock"          # held (flock) by the one server of a data directory
APPLICATION_ID = int.from_bytes(b"GNYO", "big")   # SQLite's application_id of ginnyo's files
SCHEMA_VERSION = 1                # SQLite's user_version: the schema below (an earlier file has 0)
SYNC_MODES = ("normal", "full")   # SQLite's synchronous= for the file; the first is the default
GINNYO = "ginny-o"                # the game kinds: Ginny-O ...
CRAZY = "crazy"                   # ... and Crazy Rummy (docs/RULES.md §7)

ROW_COLUMNS = "id, seats, names, seed, think, status, rematch_of, rematch, game"   # a GameRow's, in its order

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    seats TEXT NOT NULL,          -- JSON list of seat kinds: "human" or a bot kind
    names TEXT NOT NULL,          -- JSON list of names
    seed INTEGER NOT NULL,
    think REAL NOT NULL,          -- the sim bots' seconds a move
    status TEXT NOT NULL,         -- "playing" or "finished"
    rematch_of TEXT,              -- the finished game this one is the rematch of
    rematch TEXT,                 -- the rematch of this game, once made
    game TEXT NOT NULL DEFAULT 'ginny-o'   -- the game kind: 'ginny-o' or 'crazy'
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,        -- sha256 hex of the seat's token
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,           -- 1 for the first action
    text TEXT NOT NULL,           -- the action in the project's notation
    created REAL NOT NULL,
    PRIMARY KEY (game, n)
);
"""


# the tables and columns of a file of an earlier ginnyo (before application_id): games (maybe without
# its game column) and the others, each with these columns if it is there at all
EARLIER_TABLES = {"games": {"id", "created", "seats", "names", "seed", "think", "status", "rematch_of", "rematch"},
                  "tokens": {"hash", "game", "seat"}, "actions": {"game", "n", "text", "created"}}
SQLITE_MAGIC = b"SQLite format 3\0"
SQLITE_FULL, FULL_MESSAGE = 13, "database or disk is full"   # SQLite's result code for a full disk, its words


def identify(path: Path) -> Literal["new", "ours", "earlier"]:
    """Whether the file at ``path`` is to be made (absent or empty), ginnyo's, or ginnyo's from before
    the file was marked (its tables are ours: games, and tokens and actions where they are there);
    StoreRefused for any other file.  It writes nothing:
    the header is read as bytes, and an unmarked file's tables through a read-only connection."""
    try:
        with open(path, "rb") as file:
            header = file.read(100)
    except (FileNotFoundError, NotADirectoryError):
        return "new"
    except OSError as error:
        raise StoreRefused(f"{path}: cannot be read ({error.strerror})") from None
    if not header:
        return "new"
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise StoreRefused(f"{path}: is not a SQLite database, so not ginnyo's games database")
    application_id = int.from_bytes(header[68:72], "big")
    version = int.from_bytes(header[60:64], "big")
    if application_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise StoreRefused(f"{path}: is a games database of a later ginnyo (schema version {version})")
        return "ours"
    if application_id != 0:
        raise StoreRefused(f"{path}: is another program's SQLite database (application_id {application_id:#010x})")
    tables = _tables_read_only(path)
    games = EARLIER_TABLES["games"]
    if "games" not in tables or not tables.keys() <= EARLIER_TABLES.keys() or tables["games"] not in (
            games, games | {"game"}) or any(tables[name] != EARLIER_TABLES[name] for name in tables if name != "games"):
        shown = ", ".join(sorted(tables)) or "none"
        raise StoreRefused(f"{path}: is not ginnyo's games database (its tables: {shown})")
    return "earlier"


def _tables_read_only(path: Path) -> dict[str, set[str]]:
    """The tables of the SQLite file ``path`` and their columns, read without writing: with no
    write-ahead log beside it the file is opened immutable, so that SQLite makes no -wal or -shm file."""
    wal = Path(f"{path}-wal")
    immutable = "" if wal.exists() and wal.stat().st_size else "&immutable=1"
    uri = f"file:{urllib.parse.quote(str(path.absolute()))}?mode=ro{immutable}"
    try:
        database = sqlite3.connect(uri, uri=True)
        try:
            names = [name for name, in database.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite^_%' ESCAPE '^'")]
            return {name: {row[1] for row in database.execute(
                'PRAGMA table_info("' + name.replace('"', '""') + '")')} for name in names}
        finally:
            database.close()
    except sqlite3.DatabaseError as error:
        raise StoreRefused(f"{path}: cannot be read as a SQLite database ({error})") from None


def lock_data(data_dir: str | Path) -> IO[bytes]:
    """Hold DATA/games.lock for as long as the file returned is open: one server a data directory
    (a lock file, so that a server's own worker processes may share the database); StoreRefused
    if another holds it."""
    path = Path(data_dir) / LOCK_NAME
    file = open(path, "ab")
    try:
        import fcntl
    except ImportError:   # pragma: no cover - no flock on this system (Windows): no lock
        return file
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.close()
        raise StoreRefused(f"{data_dir}: another ginnyo serve is using this data directory") from None
    return file


@dataclass(frozen=True)
class GameRow:
    """A game as stored: what deals it (its actions are read apart)."""

    id: str
    seats: tuple[str, ...]
    names: tuple[str, ...]
    seed: int
    think: float
    status: str
    rematch_of: str | None
    rematch: str | None
    game: str = GINNYO


class Store:
    """The database of ``data_dir`` (created if need be), committing with ``sync`` (one
    of :data:`SYNC_MODES`); its methods may be called from any thread (one connection, one lock)."""

    def __init__(self, data_dir: str | Path, sync: str = SYNC_MODES[0]) -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self.path = Path(data_dir) / DATABASE_NAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        found = identify(self.path)   # before a byte is written: a file that is not ours is refused untouched
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            if found == "new":   # marked ours in the file's header before anything else, outside the WAL
                self._db.executescript(f"BEGIN; PRAGMA application_id={APPLICATION_ID};"
                                       f" PRAGMA user_version={SCHEMA_VERSION}; {SCHEMA} COMMIT;")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={sync.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            if found == "earlier":   # a file of an earlier ginnyo: upgraded and marked ours in one transaction
                columns = [row[1] for row in self._db.execute("PRAGMA table_info(games)")]
                self._db.executescript(
                    f"BEGIN IMMEDIATE; {SCHEMA}"   # the tables it lacks
                    + ("" if "game" in columns   # a file from before Crazy Rummy: its games are Ginny-O's
                       else " ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'ginny-o';")
                    + f" PRAGMA application_id={APPLICATION_ID}; PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreRefused(f"{self.path}: the games' database is damaged ({error})") from None

    def check(self) -> None:
        """Read every page of the file (SQLite's quick_check): StoreRefused if any is damaged."""
        with self._lock:
            try:
                problems = [row[0] for row in self._db.execute("PRAGMA quick_check(3)")]
            except sqlite3.DatabaseError as error:
                problems = [str(error)]
        if problems != ["ok"]:
            raise StoreRefused(f"{self.path}: the games' database is damaged ({'; '.join(problems)})")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """A transaction, committed at the block's end or rolled back; a full disk (SQLite's
        SQLITE_FULL, or ENOSPC) is StoreUnavailable, saying that ``what`` was not saved."""
        try:
            with self._lock, self._db:
                yield
        except (sqlite3.OperationalError, OSError) as error:
            full = (error.errno == errno.ENOSPC if isinstance(error, OSError)   # (sqlite_errorcode: Python 3.11+)
                    else getattr(error, "sqlite_errorcode", None) == SQLITE_FULL or str(error) == FULL_MESSAGE)
            if full:
                raise StoreUnavailable(f"the server's disk is full: {what} was not saved; try again later") from None
            raise

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Under the lock; a file SQLite cannot read (a damaged page) is a StoreError naming it."""
        try:
            with self._lock:
                yield
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path} could not be read ({error})") from None

    def create_game(self, row: GameRow, token_hashes: dict[int, str]) -> None:
        """Store a new game and its seats' token hashes in one transaction (and mark
        the game it is the rematch of)."""
        with self._writing("the game"):
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO games (id, created, seats, names, seed, think, status, rematch_of, rematch, game)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                (row.id, time.time(), json.dumps(row.seats), json.dumps(row.names), row.seed, row.think,
                 row.status, row.rematch_of, row.game))
            self._db.executemany("INSERT INTO tokens (hash, game, seat) VALUES (?, ?, ?)",
                                 [(digest, row.id, seat) for seat, digest in token_hashes.items()])
            if row.rematch_of is not None:
                self._db.execute("UPDATE games SET rematch = ? WHERE id = ?", (row.id, row.rematch_of))

    def add_token(self, digest: str, game: str, seat: int) -> None:
        """Store a seat's token hash (a rematch seat's, made when first asked for); once."""
        with self._writing("the seat's token"):
            self._db.execute("INSERT OR IGNORE INTO tokens (hash, game, seat) VALUES (?, ?, ?)",
                             (digest, game, seat))

    def append_action(self, game: str, number: int, text: str, finished: bool) -> None:
        """Store action ``number`` of ``game`` (and the game's end), on disk when this returns."""
        with self._writing("the move"):
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT INTO actions (game, n, text, created) VALUES (?, ?, ?, ?)",
                             (game, number, text, time.time()))
            if finished:
                self._db.execute("UPDATE games SET status = 'finished' WHERE id = ?", (game,))

    def games(self, status: str | None = None,
              left_out: Callable[[str, str], None] | None = None) -> list[GameRow]:
        """Every stored game (of ``status``, "playing" or "finished", when given), oldest first.  A row
        that does not read (a file changed by hand) is told to ``left_out`` (its id, why) and skipped;
        without ``left_out`` it is a ValueError."""
        where, values = ("", ()) if status is None else (" WHERE status = ?", (status,))
        with self._reading():
            rows = self._db.execute(f"SELECT {ROW_COLUMNS} FROM games{where} ORDER BY created, rowid",
                                    values).fetchall()
        return list(_rows_read(rows, _game_row, left_out))

    def game(self, game: str) -> GameRow | None:
        """The stored game ``game``, None if there is none (ValueError if its row does not read)."""
        with self._reading():
            row = self._db.execute(f"SELECT {ROW_COLUMNS} FROM games WHERE id = ?", (game,)).fetchone()
        return None if row is None else _game_row(row)

    def last_activity(self, status: str = "playing") -> dict[str, float]:
        """Each game of ``status``'s last activity: when (``time.time()``) its last action, else itself, was made."""
        with self._reading():
            rows = self._db.execute(
                "SELECT games.id, MAX(games.created, COALESCE(MAX(actions.created), 0)) FROM games"
                " LEFT JOIN actions ON actions.game = games.id WHERE games.status = ? GROUP BY games.id",
                (status,)).fetchall()
        return {game: when for game, when in rows}

    def actions(self, game: str) -> list[str]:
        """The actions of ``game`` in the order they were applied."""
        with self._reading():
            rows = self._db.execute("SELECT n, text FROM actions WHERE game = ? ORDER BY n", (game,)).fetchall()
        for expected, (number, text) in enumerate(rows, 1):
            if number != expected:
                raise RuntimeError(f"game {game}: action {expected} is missing from the database")
            if not isinstance(text, str):
                raise ValueError(f"game {game}: stored action {number} is not text")
        return [text for _, text in rows]

    def tokens(self, game: str | None = None,
               left_out: Callable[[str, str], None] | None = None) -> list[tuple[str, str, int]]:
        """Every ``(token hash, game, seat)`` (of ``game`` when given); a row that does not read is
        told to ``left_out`` and skipped, as :meth:`games` does."""
        where, values = ("", ()) if game is None else (" WHERE game = ?", (game,))
        with self._reading():
            rows = self._db.execute(f"SELECT hash, game, seat FROM tokens{where}", values).fetchall()
        return list(_rows_read(rows, _token_row, left_out))


def _rows_read(rows: list[Any], read: Callable[[Any], Any],
               left_out: Callable[[str, str], None] | None) -> Iterator[Any]:
    """Each row as ``read`` makes it; one that does not read told to ``left_out`` (its game, why) and
    skipped, or its ValueError raised when there is no ``left_out``."""
    for row in rows:
        try:
            yield read(row)
        except ValueError as error:
            if left_out is None:
                raise
            left_out(str(row[0] if read is _game_row else row[1]), str(error))


def _game_row(row: tuple[Any, ...]) -> GameRow:
    """A ``games`` row (its :data:`ROW_COLUMNS`) as a :class:`GameRow`; ValueError naming the column
    that does not read."""
    id, seats, names, seed, think, status, rematch_of, rematch, game = row
    read = GameRow(id, _texts(seats, "seats"), _texts(names, "names"), seed, think, status, rematch_of, rematch,
                   game)
    kinds = {"id": (str,), "seed": (int,), "think": (int, float), "status": (str,), "rematch_of": (str, type(None)),
             "rematch": (str, type(None)), "game": (str,)}
    for column, types in kinds.items():
        if not isinstance(getattr(read, column), types):
            raise ValueError(f"its {column} is a {type(getattr(read, column)).__name__}")
    if len(read.names) != len(read.seats):
        raise ValueError(f"it has {len(read.seats)} seats but {len(read.names)} names")
    return read


def _texts(value: object, column: str) -> tuple[str, ...]:
    """A column holding a JSON list of strings, as a tuple; ValueError naming the column."""
    try:
        texts = json.loads(value) if isinstance(value, (str, bytes)) else None
    except ValueError:
        raise ValueError(f"its {column} are not JSON") from None
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise ValueError(f"its {column} are not a JSON list of strings")
    return tuple(texts)


def _token_row(row: tuple[Any, ...]) -> tuple[str, str, int]:
    """A ``tokens`` row as ``(hash, game, seat)``; ValueError if one of them is of the wrong type."""
    digest, game, seat = row
    if not (isinstance(digest, str) and isinstance(game, str) and type(seat) is int):
        raise ValueError("one of its seat tokens is not a (text, text, integer) row")
    return digest, game, seat


__all__ = ["Store", "GameRow", "DATABASE_NAME", "LOCK_NAME", "SYNC_MODES", "GINNYO", "CRAZY", "APPLICATION_ID",
           "SCHEMA_VERSION", "identify", "lock_data"]
