"""The games' tables, as SQLAlchemy Core sees them: the schema of the head revision of
:mod:`.migrations` (each revision makes its own tables with Alembic's ``op``; this is what the store
reads and writes).  The same on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, Float, ForeignKey, Integer, MetaData, Table, Text


class Real(Float):  # type: ignore[type-arg]
    """A float column read as the driver gives it: a value changed by hand (text in a SQLite file) is
    seen by the store's checks, which leave its row out, rather than failing the whole read."""

    cache_ok = True

    def result_processor(self, dialect: Any, coltype: object) -> None:
        return None


METADATA = MetaData()

games = Table(
    "games", METADATA,
    Column("id", Text, primary_key=True),
    Column("created", Real, nullable=False),
    Column("seats", Text, nullable=False),        # JSON list of seat kinds: "human" or a bot kind
    Column("names", Text, nullable=False),        # JSON list of names
    Column("seed", BigInteger, nullable=False),   # 0 .. 2**63 - 1
    Column("think", Real, nullable=False),       # the sim bots' seconds a move
    Column("status", Text, nullable=False),       # "playing" or "finished"
    Column("rematch_of", Text),                   # the finished game this one is the rematch of
    Column("rematch", Text),                      # the rematch of this game, once made
    Column("game", Text, nullable=False, server_default="ginny-o"),   # the game kind: 'ginny-o' or 'crazy'
    Column("clock_initial", Integer),             # revision 0004: the clock's seconds a seat, null: no clock
    Column("clock_increment", Integer),           # ... and the seconds added a turn
    Column("watchable", Integer, nullable=False, server_default="0"),   # 1: open to watchers (revision 0008)
)

tokens = Table(
    "tokens", METADATA,
    Column("hash", Text, primary_key=True),       # sha256 hex of the seat's token
    Column("game", Text, ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
)

actions = Table(
    "actions", METADATA,
    # the key (game, n): a game's move n is stored once, so two processes cannot both apply it
    Column("game", Text, ForeignKey("games.id"), primary_key=True),
    Column("n", Integer, primary_key=True),       # 1 for the first action
    Column("text", Text, nullable=False),         # the action in the project's notation
    Column("created", Real, nullable=False),
)

# revision 0002: the puzzles' ratings, the players' puzzle ratings and their attempts (docs/PUZZLES.md)
puzzle_ratings = Table(
    "puzzle_ratings", METADATA,
    Column("puzzle", Text, primary_key=True),     # the puzzle's id (the shipped set's)
    Column("mu", Real, nullable=False),           # its skill, OpenSkill's (ginnyo.ratings.skill)
    Column("sigma", Real, nullable=False),
    Column("attempts", Integer, nullable=False),
)

player_ratings = Table(
    "player_ratings", METADATA,
    Column("player", Text, primary_key=True),     # the player's key: "guest:ID" (web.http.puzzles.puzzle_player)
    Column("mu", Real, nullable=False),
    Column("sigma", Real, nullable=False),
    Column("attempts", Integer, nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts", METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", Text, nullable=False, index=True),
    Column("puzzle", Text, nullable=False),
    Column("action", Text, nullable=False),       # the answer as sent, in the project's notation
    Column("correct", Integer, nullable=False),   # 1 or 0
    Column("created", Real, nullable=False),
)

# revision 0003: the club's accounts and their sessions (docs/CLUB.md)
accounts = Table(
    "accounts", METADATA,
    Column("id", Integer, primary_key=True),
    Column("name", Text, nullable=False),                   # as first written
    Column("name_key", Text, nullable=False, unique=True),  # the name lower-cased: unique without regard to case
    Column("password_hash", Text, nullable=False),          # Argon2id, $argon2id$v=19$...
    Column("created", Real, nullable=False),
)

sessions = Table(
    "sessions", METADATA,
    Column("token_hash", Text, primary_key=True),           # sha256 hex of the session's token
    Column("account", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Real, nullable=False),
    Column("expires", Real, nullable=False),
)

# revision 0005: the club's seeks, the accounts seated in their games, rated games and ratings (docs/CLUB.md)
seeks = Table(
    "seeks", METADATA,
    Column("id", Text, primary_key=True),
    Column("maker", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("game_kind", Text, nullable=False),              # the API's: "ginnyo" or "crazy"
    Column("players", Integer, nullable=False),             # seats in all, bots included
    Column("clock_initial", Real, nullable=False),          # seconds
    Column("clock_increment", Real, nullable=False),
    Column("rated", Integer, nullable=False),               # 1 or 0
    Column("bots", Text, nullable=False),                   # JSON list of bot seat kinds
    Column("seated", Text, nullable=False),                 # JSON list of account ids, the maker first
    Column("status", Text, nullable=False, index=True),     # "open", "started" or "cancelled"
    Column("game", Text),                                   # the game made once full
    Column("created", Real, nullable=False),
)

game_accounts = Table(
    "game_accounts", METADATA,
    Column("game", Text, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
)

rated_games = Table(
    "rated_games", METADATA,
    Column("game", Text, ForeignKey("games.id"), primary_key=True),
    Column("game_kind", Text, nullable=False),
)

ratings = Table(
    "ratings", METADATA,
    Column("player", Text, primary_key=True),               # an account's name, or "bot:KIND"
    Column("game_kind", Text, primary_key=True),
    Column("mu", Real, nullable=False),
    Column("sigma", Real, nullable=False),
    Column("games", Integer, nullable=False),
)

rating_changes = Table(
    "rating_changes", METADATA,
    Column("game", Text, ForeignKey("games.id"), primary_key=True),
    Column("player", Text, primary_key=True, index=True),
    Column("game_kind", Text, nullable=False),
    Column("rank", Integer, nullable=False),                # 1 the best; equal scores share it
    Column("before", Integer, nullable=False),              # the display ratings
    Column("after", Integer, nullable=False),
    Column("created", Real, nullable=False),
)

# revision 0008: the tables' chat, a game's players' and watchers' rooms (docs/CLUB.md "Watching and chat")
chat = Table(
    "chat", METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", Text, ForeignKey("games.id"), nullable=False),
    Column("room", Text, nullable=False),                   # "players" or "watchers"
    Column("sender", Text, nullable=False),                 # the name shown: a seat's or an account's
    Column("text", Text, nullable=False),
    Column("created", Real, nullable=False),
)

# revision 0007: who does a game's timed work (a bot's move, a clock's timeout) until when (web/live/leases.py)
leases = Table(
    "leases", METADATA,
    Column("game", Text, primary_key=True),       # the game (no foreign key: a lease may outlive nothing else)
    Column("owner", Text, nullable=False),        # the process holding it (web/live/leases.py: host, pid, random)
    Column("until", Real, nullable=False),        # when it lapses unless renewed (time.time())
)

#: the tables of the schema, in the order they are made (and copied)
TABLES = (games, tokens, actions, puzzle_ratings, player_ratings, puzzle_attempts, accounts, sessions, seeks,
          game_accounts, rated_games, ratings, rating_changes, leases, chat)

#: the schema of revision 0001 as SQLite DDL (the tables of a ginnyo before Alembic; tests make files with it)
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    seed INTEGER NOT NULL,
    think REAL NOT NULL,
    status TEXT NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    game TEXT NOT NULL DEFAULT 'ginny-o'
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game, n)
);
"""

__all__ = ["METADATA", "games", "tokens", "actions", "puzzle_ratings", "player_ratings", "puzzle_attempts", "accounts",
           "sessions", "seeks", "game_accounts", "rated_games", "ratings", "rating_changes", "leases", "chat",
           "TABLES", "SCHEMA"]
