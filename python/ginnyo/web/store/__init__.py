"""The store every web game lives in: the deal, the seat tokens' hashes, the actions; on SQLite (the
default: DATA/games.sqlite3, embedded) or on PostgreSQL (``ginnyo serve --database postgresql://...``),
through SQLAlchemy Core, one schema for both (:mod:`.schema`), its revisions Alembic's (:mod:`.migrations`).

A game is its seats, names, seed and think time plus the actions applied in
order (their notation); :mod:`..tables` rebuilds it by dealing from the seed
and applying them.  An action is committed when :meth:`Store.append_action` returns, before
the move is acknowledged, and a game's action n is stored once (the key (game, n)): a second
store of it, by another process, is :class:`MoveAlreadyStored`.  The SQLite file is in WAL mode; with
``synchronous=NORMAL`` (the default) the commit is in the operating system's hands, so it survives
the server's death by any signal (SIGKILL included) and the file is never left half-written, but a
power cut or a crash of the system may undo the last commits; with ``synchronous=FULL`` each commit
also waits for the disk (an fsync).  On PostgreSQL a commit is the server's (its own fsync settings).
Seat tokens are never stored, only their SHA-256.

The SQLite file is marked as ginnyo's and refused untouched if it is not (:mod:`.sqlite_file`); it is
brought to the current schema when opened (a file of an earlier ginnyo included).  A PostgreSQL
database is never migrated by opening it: one that is behind is :class:`StoreRefused`, saying to run
``ginnyo db migrate``.  A write that finds the disk full, or the database server gone, is
:class:`StoreUnavailable`, with nothing saved; a page SQLite cannot read is a :class:`StoreError`.
"""

from __future__ import annotations

import contextlib
import errno
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import Connection, create_engine, event, func, literal_column, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from ...errors import MoveAlreadyStored, StoreError, StoreRefused, StoreUnavailable
from . import migrations
from .puzzle_ratings import PuzzleRatings
from .accounts import AccountRow, AccountTables
from .chat import ChatRow, ChatTables
from .club import ClubTables
from .leases import LeaseTables
from .rows import CRAZY, GINNYO, GameRow, game_row, rows_read, token_row
from .schema import SCHEMA, TABLES, actions, games, tokens
from .sqlite_file import APPLICATION_ID, DATABASE_NAME, LOCK_NAME, identify, lock_data

SCHEMA_VERSION = migrations.HEAD_VERSION   # the schema version of this ginnyo (a SQLite file's user_version)
SYNC_MODES = ("normal", "full")   # SQLite's synchronous= for the file; the first is the default
POOL_SIZE = 8                     # PostgreSQL connections a process keeps open (as many again at a peak)

SQLITE_FULL, FULL_MESSAGE = 13, "database or disk is full"   # SQLite's result code for a full disk, its words
PG_DISK_FULL = "53100"            # PostgreSQL's SQLSTATE for a full disk
PG_UNIQUE = "23505"               # ... for a second row of one key
SQLITE_CONSTRAINT_PRIMARYKEY = 1555
INSERT_ACTION = actions.insert()
ROW_COLUMNS = (games.c.id, games.c.seats, games.c.names, games.c.seed, games.c.think, games.c.status,
               games.c.rematch_of, games.c.rematch, games.c.game, games.c.created, games.c.clock_initial,
               games.c.clock_increment, games.c.watchable)   # a GameRow's, in its order
BEGIN = "ginnyo_begin"            # the connection's info key: how its next SQLite transaction begins


def database_url(text: str) -> str:
    """The SQLAlchemy URL of ``--database``: ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DB`` (psycopg 3);
    StoreRefused, one line, for any other."""
    try:
        url = make_url(text)
    except ArgumentError:
        raise StoreRefused(f"{shown_url(text)}: is not a database URL (postgresql://USER@HOST:PORT/DB)") from None
    if url.get_backend_name() not in ("postgresql", "postgres") or url.get_driver_name() not in ("psycopg", "postgres",
                                                                                                 "postgresql"):
        raise StoreRefused(f"{shown_url(text)}: is not a PostgreSQL URL (postgresql://USER@HOST:PORT/DB)")
    if not url.database:
        raise StoreRefused(f"{shown_url(text)}: names no database (postgresql://USER@HOST:PORT/DB)")
    return url.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def shown_url(text: str) -> str:
    """``text`` with its password hidden, to be shown."""
    try:
        return make_url(text).render_as_string(hide_password=True).replace("postgresql+psycopg://", "postgresql://")
    except ArgumentError:
        return text if "@" not in text else "..." + text[text.rindex("@"):]


class Store(PuzzleRatings, AccountTables, ClubTables, LeaseTables, ChatTables):
    """The games' database: the SQLite file of ``data_dir`` (created if need be, brought to the current
    schema; committing with ``sync``, one of :data:`SYNC_MODES`), or the PostgreSQL database of the URL
    ``database`` (which must be at the current schema unless ``migrate``, when it is brought to it).
    Its methods may be called from any thread (SQLite: one connection, one lock; PostgreSQL: a pool).
    The club's accounts and their sessions: :class:`.accounts.AccountTables`; its seeks and ratings:
    :class:`.club.ClubTables`; the leases of the games' timed work: :class:`.leases.LeaseTables`; the
    tables' chat: :class:`.chat.ChatTables`."""

    def __init__(self, data_dir: str | Path | None = None, sync: str = SYNC_MODES[0], *,
                 database: str | None = None, migrate: bool = False) -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self._lock = threading.Lock()
        self._held: Connection | None = None   # SQLite's one connection
        self._db: Any = None                   # ... and its sqlite3 connection
        if database is None:
            if data_dir is None:
                raise ValueError("a store needs a data directory or a database URL")
            self.path = Path(data_dir) / DATABASE_NAME
            self.where = str(self.path)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._open_sqlite(sync)
        else:
            url = database_url(database)
            self.path = None   # type: ignore[assignment]
            self.where = shown_url(url)
            self._engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=POOL_SIZE, pool_pre_ping=True)
            self._open_postgresql(migrate)

    # -- opening ----------------------------------------------------------------------------------

    def _open_sqlite(self, sync: str) -> None:
        found = identify(self.path)   # before a byte is written: a file that is not ours is refused untouched
        path = self.path
        self._engine = create_engine("sqlite://", poolclass=NullPool, creator=lambda: sqlite3.connect(
            path, check_same_thread=False, isolation_level=None))
        # the transactions are SQLite's own (BEGIN, or BEGIN IMMEDIATE for a write), not the sqlite3 module's
        event.listen(self._engine, "begin", lambda connection: connection.connection.dbapi_connection.execute(
            connection.info.pop(BEGIN, "BEGIN")))
        self._held = held = self._engine.connect()
        self._db = held.connection.dbapi_connection
        try:
            if found == "new":   # marked ours in the file's header before anything else, outside the WAL
                with self._sqlite_transaction(held):
                    held.exec_driver_sql(f"PRAGMA application_id={APPLICATION_ID}")
                    migrations.upgrade(held)
            for pragma in ("journal_mode=WAL", f"synchronous={sync.upper()}", "foreign_keys=ON"):
                self._db.execute(f"PRAGMA {pragma}")   # outside any transaction (SQLAlchemy's would begin one)
            if found == "earlier":   # a file of an earlier ginnyo: made revision 0001's and marked ours
                with self._sqlite_transaction(held):
                    columns = [row[1] for row in held.exec_driver_sql("PRAGMA table_info(games)")]
                    for statement in SCHEMA.split(";")[:-1]:   # the tables it lacks
                        held.exec_driver_sql(statement)
                    if "game" not in columns:   # a file from before Crazy Rummy: its games are Ginny-O's
                        held.exec_driver_sql("ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'ginny-o'")
                    held.exec_driver_sql(f"PRAGMA application_id={APPLICATION_ID}")
                    migrations.stamp(held, "0001")
                    migrations.upgrade(held)
            elif found == "ours":
                with held.begin():
                    revision = migrations.current(held)
                if revision != migrations.head():   # a file of an earlier ginnyo: upgraded
                    with self._sqlite_transaction(held):
                        if migrations.current(held) is None:   # marked before Alembic: revision 0001's tables
                            migrations.stamp(held, "0001")
                        migrations.upgrade(held)
        except (DBAPIError, sqlite3.DatabaseError) as error:
            self.close()
            reason = error.orig if isinstance(error, DBAPIError) else error
            if isinstance(reason, sqlite3.DatabaseError):
                raise StoreRefused(f"{self.where}: the games' database is damaged ({reason})") from None
            raise
        except BaseException:
            self.close()
            raise

    def _sqlite_transaction(self, held: Connection) -> Any:
        held.info[BEGIN] = "BEGIN IMMEDIATE"
        return held.begin()

    def _open_postgresql(self, migrate: bool) -> None:
        try:
            with self._engine.begin() as connection:
                names = set(connection.exec_driver_sql(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").scalars())
                ours = {table.name for table in TABLES} | {"alembic_version"}
                if not names <= ours or (names and "alembic_version" not in names):
                    shown = ", ".join(sorted(names))
                    raise StoreRefused(f"{self.where}: is not ginnyo's games database (its tables: {shown})")
                revision = migrations.current(connection)
                version = migrations.version_of(revision)
                if version > SCHEMA_VERSION:
                    raise StoreRefused(f"{self.where}: is a games database of a later ginnyo (schema version"
                                       f" {version})")
                if version < SCHEMA_VERSION:
                    if not migrate:
                        raise StoreRefused(f"{self.where}: is at schema version {version}, this ginnyo needs"
                                           f" {SCHEMA_VERSION}: run ginnyo db migrate --database URL")
                    migrations.upgrade(connection)
        except StoreRefused:
            self._engine.dispose()
            raise
        except (DBAPIError, SQLAlchemyError) as error:
            self._engine.dispose()
            reason = getattr(error, "orig", None) or error
            raise StoreRefused(f"{self.where}: cannot be used ({_one_line(reason)})") from None

    def check(self) -> None:
        """Read every page of the SQLite file (SQLite's quick_check), or reach the PostgreSQL
        server: StoreRefused if a page is damaged or the server does not answer."""
        try:
            with self._transaction(write=False) as connection:
                if self._held is None:
                    problems = [str(connection.exec_driver_sql("SELECT 1").scalar())]
                    problems = ["ok"] if problems == ["1"] else problems
                else:
                    problems = [row[0] for row in connection.exec_driver_sql("PRAGMA quick_check(3)")]
        except DBAPIError as error:
            problems = [_one_line(error.orig)]
        if problems != ["ok"]:
            raise StoreRefused(f"{self.where}: the games' database is damaged ({'; '.join(problems)})")

    def close(self) -> None:
        with self._lock:
            if self._held is not None:
                self._held.close()
            self._engine.dispose()

    # -- transactions -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Connection]:
        """A connection in a transaction, committed at the block's end or rolled back: SQLite's one
        connection under the lock (BEGIN IMMEDIATE for a write), or one of PostgreSQL's pool."""
        if self._held is None:
            with self._engine.begin() as connection:
                yield connection
            return
        with self._lock:
            if write:
                self._held.info[BEGIN] = "BEGIN IMMEDIATE"
            with self._held.begin():
                yield self._held

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[Connection]:
        """A write transaction; a full disk (SQLite's SQLITE_FULL, ENOSPC, PostgreSQL's disk_full) or a
        database server out of reach is StoreUnavailable, saying that ``what`` was not saved."""
        try:
            with self._transaction(write=True) as connection:
                yield connection
        except OSError as error:
            if error.errno == errno.ENOSPC:
                raise StoreUnavailable(f"the server's disk is full: {what} was not saved; try again later") from None
            raise
        except DBAPIError as error:
            if _disk_full(error.orig):
                raise StoreUnavailable(f"the server's disk is full: {what} was not saved; try again later") from None
            if self._held is None and error.connection_invalidated or _unreachable(error):
                raise StoreUnavailable(f"the database cannot be reached: {what} was not saved; try again later"
                                       ) from None
            raise

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A read; a database that cannot be read (a damaged page, a server out of reach) is a
        StoreError naming it."""
        try:
            with self._transaction(write=False) as connection:
                yield connection
        except DBAPIError as error:
            raise StoreError(f"{self.where} could not be read ({_one_line(error.orig)})") from None

    def _insert(self) -> Any:
        """The dialect's INSERT (with its ON CONFLICT)."""
        return sqlite.insert if self._held is not None else postgresql.insert

    # -- the store's contract -----------------------------------------------------------------------------

    def create_game(self, row: GameRow, token_hashes: dict[int, str]) -> None:
        """Store a new game and its seats' token hashes in one transaction (and mark
        the game it is the rematch of)."""
        with self._writing("the game") as connection:
            connection.execute(games.insert().values(
                id=row.id, created=row.created or time.time(), seats=json.dumps(row.seats), names=json.dumps(row.names),
                seed=row.seed, think=row.think, status=row.status, rematch_of=row.rematch_of, rematch=None,
                game=row.game, clock_initial=None if row.clock is None else row.clock[0],
                clock_increment=None if row.clock is None else row.clock[1],
                watchable=int(row.watchable)))
            if token_hashes:
                connection.execute(tokens.insert(), [{"hash": digest, "game": row.id, "seat": seat}
                                                     for seat, digest in token_hashes.items()])
            if row.rematch_of is not None:
                connection.execute(update(games).where(games.c.id == row.rematch_of).values(rematch=row.id))

    def add_token(self, digest: str, game: str, seat: int) -> None:
        """Store a seat's token hash (a rematch seat's, made when first asked for); once."""
        with self._writing("the seat's token") as connection:
            connection.execute(self._insert()(tokens).values(hash=digest, game=game, seat=seat)
                               .on_conflict_do_nothing())

    def append_action(self, game: str, number: int, text: str, finished: bool, at: float | None = None) -> None:
        """Store action ``number`` of ``game`` (and the game's end), committed when this returns;
        MoveAlreadyStored if the game's action ``number`` is stored already (another process stored it)."""
        try:
            with self._writing("the move") as connection:
                # (a statement made once: SQLAlchemy's part of a move's commit stays a few microseconds)
                connection.execute(INSERT_ACTION, {"game": game, "n": number, "text": text,
                                                   "created": time.time() if at is None else at})
                if finished:
                    connection.execute(update(games).where(games.c.id == game).values(status="finished"))
        except IntegrityError as error:
            if not _unique_violated(error.orig):
                raise
            raise MoveAlreadyStored(f"game {game}: move {number} is stored already; reload the game") from None

    def games(self, status: str | None = None,
              left_out: Callable[[str, str], None] | None = None) -> list[GameRow]:
        """Every stored game (of ``status``, "playing" or "finished", when given), oldest first.  A row
        that does not read (a database changed by hand) is told to ``left_out`` (its id, why) and skipped;
        without ``left_out`` it is a ValueError."""
        order = literal_column("rowid") if self._held is not None else games.c.id
        query = select(*ROW_COLUMNS).order_by(games.c.created, order)
        if status is not None:
            query = query.where(games.c.status == status)
        with self._reading() as connection:
            rows = connection.execute(query).all()
        return list(rows_read(rows, game_row, left_out))

    def game(self, game: str) -> GameRow | None:
        """The stored game ``game``, None if there is none (ValueError if its row does not read)."""
        with self._reading() as connection:
            row = connection.execute(select(*ROW_COLUMNS).where(games.c.id == game)).first()
        return None if row is None else game_row(tuple(row))

    def last_activity(self, status: str = "playing") -> dict[str, float]:
        """Each game of ``status``'s last activity: when (``time.time()``) its last action, else itself, was made."""
        query = (select(games.c.id, games.c.created, func.max(actions.c.created))
                 .select_from(games.outerjoin(actions, actions.c.game == games.c.id))
                 .where(games.c.status == status).group_by(games.c.id, games.c.created))
        with self._reading() as connection:
            rows = connection.execute(query).all()
        return {game: max(created, last or 0) for game, created, last in rows}

    def actions(self, game: str) -> list[str]:
        """The actions of ``game`` in the order they were applied."""
        query = select(actions.c.n, actions.c.text).where(actions.c.game == game).order_by(actions.c.n)
        with self._reading() as connection:
            rows = connection.execute(query).all()
        for expected, (number, text) in enumerate(rows, 1):
            if number != expected:
                raise RuntimeError(f"game {game}: action {expected} is missing from the database")
            if not isinstance(text, str):
                raise ValueError(f"game {game}: stored action {number} is not text")
        return [text for _, text in rows]

    def action_times(self, game: str) -> list[float]:
        """When each action of ``game`` was stored (``time.time()``), in order: its clock's marks."""
        query = select(actions.c.created).where(actions.c.game == game).order_by(actions.c.n)
        with self._reading() as connection:
            return [float(at) for at in connection.execute(query).scalars()]

    def tokens(self, game: str | None = None,
               left_out: Callable[[str, str], None] | None = None) -> list[tuple[str, str, int]]:
        """Every ``(token hash, game, seat)`` (of ``game`` when given); a row that does not read is
        told to ``left_out`` and skipped, as :meth:`games` does."""
        query = select(tokens.c.hash, tokens.c.game, tokens.c.seat)
        if game is not None:
            query = query.where(tokens.c.game == game)
        with self._reading() as connection:
            rows = connection.execute(query).all()
        return list(rows_read(rows, token_row, left_out))


def _disk_full(error: BaseException | None) -> bool:
    if isinstance(error, sqlite3.OperationalError):   # (sqlite_errorcode: Python 3.11+)
        return getattr(error, "sqlite_errorcode", None) == SQLITE_FULL or str(error) == FULL_MESSAGE
    return getattr(error, "sqlstate", None) == PG_DISK_FULL


def _unique_violated(error: BaseException | None) -> bool:
    if isinstance(error, sqlite3.IntegrityError):
        return getattr(error, "sqlite_errorcode", None) == SQLITE_CONSTRAINT_PRIMARYKEY or "UNIQUE" in str(error)
    return getattr(error, "sqlstate", None) == PG_UNIQUE


def _unreachable(error: DBAPIError) -> bool:
    """A PostgreSQL connection lost or refused (SQLSTATE class 08, or none at all: the client's own)."""
    sqlstate = getattr(error.orig, "sqlstate", "") or ""
    return not isinstance(error.orig, sqlite3.Error) and (sqlstate.startswith("08") or error.connection_invalidated
                                                          or (not sqlstate and "OperationalError" in
                                                              type(error.orig).__name__))


def _one_line(error: object) -> str:
    return " ".join(str(error).split())


__all__ = ["Store", "GameRow", "AccountRow", "ChatRow", "DATABASE_NAME", "LOCK_NAME", "SYNC_MODES", "GINNYO", "CRAZY",
           "APPLICATION_ID", "SCHEMA_VERSION", "SCHEMA", "identify", "lock_data", "database_url", "shown_url"]
