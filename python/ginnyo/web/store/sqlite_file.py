"""The SQLite file of a data directory (DATA/games.sqlite3): whether it is ginnyo's, read from its
header and through a read-only connection before a byte of it is written, and the directory's lock.

A file is marked as ginnyo's by SQLite's ``application_id`` (:data:`APPLICATION_ID`); its
``user_version`` is the schema version it is at (:data:`.migrations.HEAD_VERSION` once migrated,
kept by the migrations in step with Alembic's ``alembic_version`` table, the authority).  A file of
an earlier ginnyo (unmarked, but exactly ginnyo's tables) is upgraded and marked by the store; any
other file is refused."""

from __future__ import annotations

import sqlite3
import urllib.parse
from pathlib import Path
from typing import IO, Literal

from ...errors import StoreRefused
from .migrations import HEAD_VERSION

DATABASE_NAME = "games.sqlite3"
LOCK_NAME = "games.lock"          # held (flock) by the one server of a data directory
APPLICATION_ID = int.from_bytes(b"GNYO", "big")   # SQLite's application_id of ginnyo's files

# the tables and columns of a file of an earlier ginnyo (before application_id): games (maybe without
# its game column) and the others, each with these columns if it is there at all
EARLIER_TABLES = {"games": {"id", "created", "seats", "names", "seed", "think", "status", "rematch_of", "rematch"},
                  "tokens": {"hash", "game", "seat"}, "actions": {"game", "n", "text", "created"}}
SQLITE_MAGIC = b"SQLite format 3\0"


def identify(path: Path) -> Literal["new", "ours", "earlier"]:
    """Whether the file at ``path`` is to be made (absent or empty), ginnyo's, or ginnyo's from before
    the file was marked (its tables are ours: games, and tokens and actions where they are there);
    StoreRefused for any other file, and for one of a later ginnyo (a schema version past this one's).
    It writes nothing: the header is read as bytes, and an unmarked file's tables through a read-only
    connection."""
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
        if version > HEAD_VERSION:
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


__all__ = ["DATABASE_NAME", "LOCK_NAME", "APPLICATION_ID", "EARLIER_TABLES", "identify", "lock_data"]
