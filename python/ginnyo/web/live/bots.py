"""The bots of the live tables: worker threads deciding the move of the bot to move (outside the
table's lock, on what its seat sees), and the retries of a move the store could not save."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from ...errors import MoveAlreadyStored, StoreUnavailable
from .table import SeatTable

BOT_WORKERS = 2           # threads deciding bot moves, for every game
BOT_RETRY_FIRST, BOT_RETRY_MOST = 0.25, 8.0   # seconds before a bot whose move was not saved (a full disk) tries again


class Bots:
    """The bot moves of every table: ``commit(table, action)`` applies, stores and broadcasts one
    (under the table's lock); ``find(game_id)`` is the table in memory now; ``warn`` hears of failures;
    ``hold(game_id)``: whether this process moves the game's bots (:mod:`.leases`; another process may)."""

    def __init__(self, commit: Callable[[SeatTable, Any], None], find: Callable[[str], SeatTable | None],
                 workers: int = BOT_WORKERS, hold: Callable[[str], bool] = lambda game_id: True) -> None:
        self._commit = commit
        self._find = find
        self._hold = hold
        self._workers = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ginnyo-bot")
        self.closing = False
        self._delays: dict[str, float] = {}          # game -> the wait before its bot is asked again
        self.warn: Callable[[str], None] = lambda line: None

    def close(self) -> None:
        self.closing = True
        self._workers.shutdown(wait=False, cancel_futures=True)

    def schedule(self, table: SeatTable) -> None:
        """Set a worker deciding for the bot to move, unless one is already."""
        with table.lock:
            if self.closing or table.bot_running or not table.bot_to_move():
                return
            table.bot_running = True
        try:
            self._workers.submit(self._turn, table)
        except RuntimeError:   # the pool is shut down: the server is stopping
            table.bot_running = False

    def _turn(self, table: SeatTable) -> None:
        """One bot move (in a worker thread): decide on the seat's view, then commit."""
        try:
            if not self._hold(table.id):
                return   # another process's to move (Tables.retake asks again when its lease lapses)
            with table.lock:
                if not table.bot_to_move():
                    return
                seat, version = table.to_move, table.version
                decide = table.bot_decision(seat)
            action = decide()   # outside the lock: nobody else may move meanwhile
            with table.lock:
                if self.closing or table.version != version or self._find(table.id) is not table:
                    return   # moved on, or caught up from another process (its replacement is scheduled)
                self._commit(table, action)
        except MoveAlreadyStored:   # another process moved it first: the game is rebuilt from the store
            fresh = self._find(table.id)
            if fresh is not None and fresh is not table:
                table.bot_running = False
                self.schedule(fresh)
            return
        except StoreUnavailable as error:   # the disk is full: asked again later, the move unsaved meanwhile
            self._later(table.id, error)
            return
        except Exception as error:   # a bot that fails: the game waits (asking again would fail again)
            table.bot_failure = f"the {table.kinds[table.to_move]} bot failed: {type(error).__name__}: {error}"
            self.warn(f"ginnyo: game {table.id}: {table.bot_failure}")
            return
        finally:
            table.bot_running = False
        self._delays.pop(table.id, None)
        self.schedule(table)

    def _later(self, game_id: str, error: StoreUnavailable) -> None:
        """Ask the bot of ``game_id`` again after a wait, doubled each time its move could not be saved,
        up to :data:`BOT_RETRY_MOST` seconds: it moves again once the disk has room, with no restart."""
        delay = self._delays.get(game_id)
        if delay is None:
            self.warn(f"ginnyo: game {game_id}: the bot's move was not saved ({error}); the bot will try again")
        delay = BOT_RETRY_FIRST if delay is None else min(2 * delay, BOT_RETRY_MOST)
        self._delays[game_id] = delay
        timer = threading.Timer(delay, self._again, (game_id,))
        timer.daemon = True   # a server stopping does not wait for it
        timer.start()

    def _again(self, game_id: str) -> None:
        table = self._find(game_id)   # the table rebuilt from the store when the save failed
        if table is not None:
            self.schedule(table)


__all__ = ["Bots", "BOT_WORKERS", "BOT_RETRY_FIRST", "BOT_RETRY_MOST"]
