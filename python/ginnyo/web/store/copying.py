"""Moving up: every game, token and action of one store copied into another (``ginnyo db copy``),
in one transaction of the target, so that a copy that fails leaves the target as it was."""

from __future__ import annotations

from typing import Callable

from sqlalchemy import func, select

from ...errors import StoreRefused
from . import Store
from .schema import TABLES, games

BATCH = 1000   # rows read and written at a time


def is_empty(store: Store) -> bool:
    """Whether ``store`` holds no game."""
    with store._reading() as connection:
        return not connection.execute(select(func.count()).select_from(games)).scalar()


def rows_of(store: Store) -> int:
    """How many rows ``store`` holds, in all its tables."""
    with store._reading() as connection:
        return sum(int(connection.execute(select(func.count()).select_from(table)).scalar() or 0) for table in TABLES)


def copy_store(source: Store, target: Store, copied: Callable[[int], object] = lambda rows: None,
               into_non_empty: bool = False) -> dict[str, int]:
    """Copy every row of ``source`` into ``target`` (games, then tokens, then actions), telling
    ``copied`` of each batch's rows; the rows copied, by table.  StoreRefused if ``target`` holds
    games already, unless ``into_non_empty`` (then a game of the same id is an error, nothing copied)."""
    if not into_non_empty and not is_empty(target):
        raise StoreRefused(f"{target.where}: holds games already (--into-non-empty to copy into it all the same)")
    counts = {table.name: 0 for table in TABLES}
    with source._reading() as reading, target._writing("the copy") as writing:
        for table in TABLES:
            result = reading.execution_options(yield_per=BATCH).execute(select(table))
            for batch in result.partitions():
                writing.execute(table.insert(), [row._asdict() for row in batch])
                counts[table.name] += len(batch)
                copied(len(batch))
    return counts


__all__ = ["copy_store", "is_empty", "rows_of"]
