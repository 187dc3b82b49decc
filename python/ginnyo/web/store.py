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
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATABASE_NAME = "games.sqlite3"
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
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = [row[1] for row in self._db.execute("PRAGMA table_info(games)")]
        if "game" not in columns:   # a file from before Crazy Rummy: its games are Ginny-O's
            self._db.execute("ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'ginny-o'")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_game(self, row: GameRow, token_hashes: dict[int, str]) -> None:
        """Store a new game and its seats' token hashes in one transaction (and mark
        the game it is the rematch of)."""
        with self._lock, self._db:
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
        with self._lock, self._db:
            self._db.execute("INSERT OR IGNORE INTO tokens (hash, game, seat) VALUES (?, ?, ?)",
                             (digest, game, seat))

    def append_action(self, game: str, number: int, text: str, finished: bool) -> None:
        """Store action ``number`` of ``game`` (and the game's end), on disk when this returns."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT INTO actions (game, n, text, created) VALUES (?, ?, ?, ?)",
                             (game, number, text, time.time()))
            if finished:
                self._db.execute("UPDATE games SET status = 'finished' WHERE id = ?", (game,))

    def games(self, status: str | None = None) -> list[GameRow]:
        """Every stored game (of ``status``, "playing" or "finished", when given), oldest first."""
        where, values = ("", ()) if status is None else (" WHERE status = ?", (status,))
        with self._lock:
            rows = self._db.execute(f"SELECT {ROW_COLUMNS} FROM games{where} ORDER BY created, rowid",
                                    values).fetchall()
        return [_game_row(row) for row in rows]

    def game(self, game: str) -> GameRow | None:
        """The stored game ``game``, None if there is none."""
        with self._lock:
            row = self._db.execute(f"SELECT {ROW_COLUMNS} FROM games WHERE id = ?", (game,)).fetchone()
        return None if row is None else _game_row(row)

    def last_activity(self, status: str = "playing") -> dict[str, float]:
        """Each game of ``status``'s last activity: when (``time.time()``) its last action, else itself, was made."""
        with self._lock:
            rows = self._db.execute(
                "SELECT games.id, MAX(games.created, COALESCE(MAX(actions.created), 0)) FROM games"
                " LEFT JOIN actions ON actions.game = games.id WHERE games.status = ? GROUP BY games.id",
                (status,)).fetchall()
        return {game: when for game, when in rows}

    def actions(self, game: str) -> list[str]:
        """The actions of ``game`` in the order they were applied."""
        with self._lock:
            rows = self._db.execute("SELECT n, text FROM actions WHERE game = ? ORDER BY n", (game,)).fetchall()
        for expected, (number, _) in enumerate(rows, 1):
            if number != expected:
                raise RuntimeError(f"game {game}: action {expected} is missing from the database")
        return [text for _, text in rows]

    def tokens(self, game: str | None = None) -> list[tuple[str, str, int]]:
        """Every ``(token hash, game, seat)`` (of ``game`` when given)."""
        where, values = ("", ()) if game is None else (" WHERE game = ?", (game,))
        with self._lock:
            rows = self._db.execute(f"SELECT hash, game, seat FROM tokens{where}", values).fetchall()
        return [(digest, game, seat) for digest, game, seat in rows]


def _game_row(row: tuple[Any, ...]) -> GameRow:
    """A ``games`` row (its :data:`ROW_COLUMNS`) as a :class:`GameRow`."""
    id, seats, names, seed, think, status, rematch_of, rematch, game = row
    return GameRow(id, tuple(json.loads(seats)), tuple(json.loads(names)), seed, think, status, rematch_of, rematch,
                   game)


__all__ = ["Store", "GameRow", "DATABASE_NAME", "SYNC_MODES", "GINNYO", "CRAZY"]
