"""``ginnyo db``: the games' store of the web table (docs/DEPLOY.md): ``migrate`` brings one to the
current schema, ``copy`` moves every game of a SQLite file into PostgreSQL."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import RunError, StoreRefused
from .arguments import EXIT_OK, file_name, named


def register(commands: Any) -> None:
    """Add ``db`` and its commands to the main parser's commands."""
    db = commands.add_parser("db", help="the web table's games store: migrate it, copy it to PostgreSQL")
    actions = db.add_subparsers(dest="db_command", metavar="ACTION")
    actions.required = True
    migrate = actions.add_parser("migrate", help="bring a games store to this ginnyo's schema")
    where = migrate.add_mutually_exclusive_group(required=True)
    where.add_argument("--database", type=_database_url, metavar="URL",
                       help="a PostgreSQL database: postgresql://USER@HOST:PORT/DB")
    where.add_argument("--data", type=file_name, metavar="DIR", help="a data directory (its games.sqlite3)")
    migrate.set_defaults(run=cmd_migrate)
    copy = actions.add_parser("copy", help="copy every game, token and move of a SQLite store into PostgreSQL")
    copy.add_argument("--from", type=file_name, dest="source", metavar="PATH", required=True,
                      help="the SQLite store: its games.sqlite3, or the data directory holding it")
    copy.add_argument("--to", type=_database_url, dest="target", metavar="URL", required=True,
                      help="the PostgreSQL database: postgresql://USER@HOST:PORT/DB (brought to the schema)")
    copy.add_argument("--into-non-empty", action="store_true",
                      help="copy into a database that holds games already (a game of the same id: nothing copied)")
    copy.set_defaults(run=cmd_copy)


def _postgresql_url(text: str) -> None:
    """StoreRefused (a ValueError) for what is no PostgreSQL URL; none without the web extra (the command says so)."""
    try:
        from ..web.store import database_url
    except ImportError:
        return
    database_url(text)


_database_url = named("an empty URL names no database", _postgresql_url)


def _store_module() -> Any:
    try:
        from ..web import store
    except ImportError as error:
        raise RunError(f"ginnyo db needs the web extra: pip install 'ginnyo[web]' ({error})") from None
    return store


def cmd_migrate(args: argparse.Namespace) -> int:
    store_module = _store_module()
    if args.database is not None:
        store = store_module.Store(database=args.database, migrate=True)
    else:
        Path(args.data).mkdir(parents=True, exist_ok=True)   # a new store is made at the schema, as serve does
        lock = _locked(args.data, "--data")
        try:
            store = store_module.Store(args.data)
        finally:
            lock.close()
    print(f"ginnyo: {store.where} is at schema version {store_module.SCHEMA_VERSION}")
    store.close()
    return EXIT_OK


def cmd_copy(args: argparse.Namespace) -> int:
    store_module = _store_module()
    from ..web.store.copying import copy_store, rows_of
    from .progress import progress_bar
    source_dir = Path(args.source)
    if source_dir.name == store_module.DATABASE_NAME:
        source_dir = source_dir.parent
    if not (source_dir / store_module.DATABASE_NAME).is_file():
        raise StoreRefused(f"--from: {source_dir / store_module.DATABASE_NAME}: there is no such file")
    lock = _locked(source_dir, "--from")
    try:
        source = store_module.Store(source_dir)
        try:
            target = store_module.Store(database=args.target, migrate=True)
            try:
                with progress_bar(rows_of(source), unit="row") as bar:
                    counts = copy_store(source, target, bar.update, into_non_empty=args.into_non_empty)
            finally:
                target.close()
        finally:
            source.close()
    finally:
        lock.close()
    print(f"ginnyo: copied {counts['games']} games, {counts['tokens']} seat tokens and {counts['actions']} moves"
          f" into {target.where}", file=sys.stderr)
    return EXIT_OK


def _locked(data: str | Path, option: str) -> Any:
    """The lock of the data directory ``data``: no server may use it meanwhile."""
    from ..web.store import lock_data
    if not Path(data).is_dir():
        raise StoreRefused(f"{option}: {data}: there is no such directory")
    try:
        return lock_data(data)
    except StoreRefused as error:
        raise StoreRefused(f"{option}: {error}") from None


__all__ = ["register"]
