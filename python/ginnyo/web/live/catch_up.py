"""Catching up with other processes on the same store: a game another process changed (its broker's
event, :mod:`.broker`) that this one holds and is behind on is read again from the store, in a thread,
and rebuilt in its place."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Mapping

from ..store.rows import GameRow, StoredGames
from .table import SeatTable


class CatchUp:
    """The catch-ups of the games held here (``tables``: the registry's games in memory): ``replace(table,
    row, actions)`` rebuilds one in its place and tells its sockets (under its lock), ``schedule(table)``
    sets its bot going, ``warn`` hears of a game that could not be caught up."""

    def __init__(self, store: StoredGames, tables: Mapping[str, SeatTable],
                 replace: Callable[[SeatTable, GameRow, list[str]], SeatTable],
                 schedule: Callable[[SeatTable], None], warn: Callable[[str], None]) -> None:
        self.store = store
        self.tables = tables
        self._replace, self._schedule, self._warn = replace, schedule, warn
        self._catching = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ginnyo-catch-up")
        self._behind: set[str] = set()                     # games whose catch-up is waiting for a thread
        self._lock = threading.Lock()

    def close(self) -> None:
        self._catching.shutdown(wait=False, cancel_futures=True)

    def changed(self, game_id: str | None, version: int, rematch: str | None) -> None:
        """Another process changed ``game_id`` (now at ``version``, with ``rematch``): a game held here
        and behind is caught up from the store in a thread (:meth:`catch_up`); None: every game held
        (events may have been missed).  Called on the event loop: it reads nothing from the store."""
        if game_id is None:
            games = list(self.tables)
        else:
            table = self.tables.get(game_id)
            if table is None or (table.version >= version and (rematch is None or table.rematch == rematch)):
                return   # not held here (read from the store when asked for), or up to date
            games = [game_id]
        for game in games:
            with self._lock:
                if game in self._behind:
                    continue   # a catch-up is waiting: it reads the store after this event
                self._behind.add(game)
            try:
                self._catching.submit(self.catch_up, game)
            except RuntimeError:   # stopping
                return

    def catch_up(self, game_id: str) -> None:
        """Bring ``game_id`` up to the store (its actions, rematch and seats' tokens), rebuilt in its
        place, and send its sockets their views, if it changed."""
        with self._lock:
            self._behind.discard(game_id)
        table = self.tables.get(game_id)
        if table is None:
            return
        try:
            with table.lock:
                row = self.store.game(game_id)
                stored = self.store.actions(game_id)
                if row is None or (len(stored) == table.version and row.rematch == table.rematch):
                    return
                table.token_hashes.update((digest, seat) for digest, _, seat in self.store.tokens(game_id))
                fresh = self._replace(table, row, stored)
        except (RuntimeError, ValueError) as error:   # a store out of reach, or a game no longer replaying
            self._warn(f"ginnyo: game {game_id} could not be caught up: {error}")
            return
        self._schedule(fresh)


__all__ = ["CatchUp"]
