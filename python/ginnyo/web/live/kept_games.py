"""The games in memory of the live tables' registry (:class:`~.registry.Tables` is one): each game of the
store is rebuilt from it when asked for, kept while in play (unless untouched for long) or among the last
finished ones asked for, and let go otherwise."""

from __future__ import annotations

import threading
import time
from typing import Callable

from ...errors import UnknownGame
from ..store.rows import GameRow, StoredGames
from .table import Rebuild, SeatTable

FINISHED_KEPT = 100       # finished games kept in memory; the others are rebuilt from the store when asked for


class KeptGames:
    """The games in memory: those in play (but those untouched for ``expire_seconds``, None: never) and, of the
    finished ones, the :data:`FINISHED_KEPT` last asked for; any other is rebuilt from ``store`` when asked for
    (``rebuilders``: each game kind's rebuild, web/games/rebuilds.py; ``wind(table, clock, actions, times)``
    sets a timed game's clock) and, in play, set going again (``resume``: its bot, its clock's timer); ``release(game_id)``
    gives up a game let go (its lease, :mod:`.leases`)."""

    def __init__(self, store: StoredGames, rebuilders: dict[str, Rebuild], release: Callable[[str], None],
                 wind: Callable[[SeatTable, tuple[int, int], list[str], list[float]], None],
                 resume: Callable[[SeatTable], None], expire_seconds: float | None = None) -> None:
        self.stored = store                                 # what rebuilding a game reads of the store
        self.rebuilders = rebuilders                       # game kind -> its tables' rebuild
        self._release = release
        self.expire_seconds = expire_seconds
        self.tables: dict[str, SeatTable] = {}            # the games in memory
        self._finished: dict[str, None] = {}               # the finished ones, the last asked for last
        self._lock = threading.RLock()                     # the two dicts (and the registry's tokens, rematches)
        self._wind, self._resume = wind, resume
        self.warn: Callable[[str], None] = lambda line: None   # set by Tables.load()

    def _expired(self, touched: float, now: float) -> bool:
        return self.expire_seconds is not None and touched < now - self.expire_seconds

    def sweep(self, now: float | None = None) -> int:
        """Let go of the games in play untouched for ``expire_seconds`` (but those with a socket open or
        a bot deciding): the store holds them, :meth:`find` rebuilds them.  How many were let go."""
        now = time.time() if now is None else now
        with self._lock:
            expired = [table for table in self.tables.values()
                       if not table.over and self._expired(table.touched, now)
                       and not table.subscribers and not table.bot_running]
            for table in expired:
                del self.tables[table.id]
        for table in expired:
            self._release(table.id)
        return len(expired)

    def get(self, game_id: str) -> SeatTable:
        table = self.find(game_id)
        if table is None:
            raise UnknownGame(f"no game {game_id!r}" if len(game_id) <= 40 else "no such game")
        return table

    def find(self, game_id: str) -> SeatTable | None:
        """The game ``game_id``, rebuilt from the store if it is a finished one no longer
        in memory; None if there is none (or it no longer replays)."""
        table = self.tables.get(game_id)
        if table is not None:
            if table.over:
                self._kept_finished(table)
            return table
        if len(game_id) > 40:
            return None
        with self._lock:
            table = self.tables.get(game_id)
            if table is not None:
                return table
            try:   # a row that does not read, a page SQLite cannot read (StoreError): the game is left out
                row = self.stored.game(game_id)
                if row is None:
                    return None
                table = self._rebuilt(row, self.stored.actions(game_id))
                table.token_hashes.update((digest, seat) for digest, _, seat in self.stored.tokens(game_id))
            except (RuntimeError, ValueError) as error:
                self.warn(f"ginnyo: game {game_id} left out: {error}")
                return None
            self.tables[game_id] = table
        if table.over:
            self._kept_finished(table)
        else:   # an archived game in play (Tables.sweep): back in memory, its bot going on
            self._resume(table)
        return table

    def _kept_finished(self, table: SeatTable) -> None:
        """Note a finished game as the last asked for, and let the one asked for longest ago go
        when more than :data:`FINISHED_KEPT` are in memory (its store holds it; a request or
        socket still holding it goes on with it: a finished game changes no more, but for its rematch,
        which is stored)."""
        with self._lock:
            self._finished.pop(table.id, None)
            self._finished[table.id] = None
            while len(self._finished) > FINISHED_KEPT:
                oldest = next(iter(self._finished))
                del self._finished[oldest]
                self.tables.pop(oldest, None)

    def _replaced(self, table: SeatTable, row: GameRow, actions: list[str]) -> SeatTable:
        """``table`` rebuilt from ``row`` and its stored ``actions``, in its place: its sockets, lock and
        seats' tokens go on (the caller holds its lock)."""
        with self._lock:
            fresh = self._rebuilt(row, actions)
            fresh.subscribers, fresh.subscribers_lock = table.subscribers, table.subscribers_lock
            fresh.token_hashes, fresh.lock = table.token_hashes, table.lock
            fresh.seats_elsewhere = table.seats_elsewhere
            fresh.rematch = row.rematch or table.rematch
            if self.tables.get(table.id) is table:
                self.tables[table.id] = fresh
        return fresh

    def _rebuilt(self, row: GameRow, actions: list[str]) -> SeatTable:
        rebuild = self.rebuilders.get(row.game)
        if rebuild is None:
            raise RuntimeError(f"game kind {row.game!r} is not served here")
        table = rebuild(row, actions)
        table.started = row.created
        if row.clock is not None:
            self._wind(table, row.clock, actions, self.stored.action_times(row.id) if actions else [])
        return table


__all__ = ["KeptGames", "FINISHED_KEPT"]
