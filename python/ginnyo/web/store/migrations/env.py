"""Alembic's environment for the store's scripts: it migrates on the connection the store hands
over (``config.attributes["connection"]``), in that connection's transaction.  On SQLite the file's
``user_version`` is set to the schema version reached, in the same transaction, so that a file's
version reads from its header without opening it (:func:`ginnyo.web.store.sqlite_file.identify`)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection


def run() -> None:
    from ginnyo.web.store.migrations import version_of   # (Alembic loads this file by its path)
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("the store's migrations run on a connection the store gives them")
    context.configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            reached = context.get_context().get_current_revision()
            connection.exec_driver_sql(f"PRAGMA user_version = {version_of(reached)}")


run()
