"""The schema's revisions (Alembic, its scripts in ``versions/``), driven from Python: a
:class:`alembic.config.Config` built here, no alembic.ini.  A revision's id is its number, four
digits ("0001", "0002", ...), so that the schema version of a store is a whole number too
(:func:`version_of`; a SQLite file also carries it as its ``user_version``, see :mod:`.env`).

A new revision: ``python -m ginnyo.web.store.migrations revision -m "what it changes"``, then name it
by the next number (its ``revision`` and its file) and write its ``upgrade``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

HERE = Path(__file__).parent


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration of the store's scripts; with ``connection``, that env.py migrates
    (inside the caller's transaction)."""
    alembic_config = Config()
    alembic_config.set_main_option("script_location", str(HERE))
    if connection is not None:
        alembic_config.attributes["connection"] = connection
    return alembic_config


def head() -> str:
    """The revision of the schema this ginnyo reads and writes."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None, "the store's migration scripts are missing"
    return found


def version_of(revision: str | None) -> int:
    """The schema version of ``revision`` (0: none, the tables not made)."""
    return 0 if revision is None else int(revision)


def current(connection: Connection) -> str | None:
    """The revision the database of ``connection`` is at (None: no ``alembic_version`` table or row)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> None:
    """Bring the database of ``connection`` to :func:`head` (in the caller's transaction)."""
    command.upgrade(config(connection), "head")


def stamp(connection: Connection, revision: str) -> None:
    """Mark the database of ``connection`` as at ``revision`` without running a script (a file of
    the ginnyo before Alembic, whose tables are revision 0001's)."""
    command.stamp(config(connection), revision)


def main(argv: list[str]) -> None:   # pragma: no cover - a developer's tool: alembic's commands on these scripts
    from alembic.config import CommandLine
    cli = CommandLine(prog="python -m ginnyo.web.store.migrations")
    options = cli.parser.parse_args(argv)
    cli.run_cmd(config(), options)


if __name__ == "__main__":   # pragma: no cover
    main(sys.argv[1:])

HEAD_VERSION = version_of(head())   # the schema version of this ginnyo

__all__ = ["config", "head", "version_of", "current", "upgrade", "stamp", "HEAD_VERSION"]
