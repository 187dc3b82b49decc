"""The registry of live games: every game of the store as a :class:`~.table.SeatTable`, made, found,
rebuilt from the store, let go, moved by people's requests, and each seat's view made and kept.

Every change of a game happens under its table's lock, in a worker thread
(never on the event loop), and is committed to the store before anyone hears
of it (:mod:`.feed`); the bots move in their own threads (:mod:`.bots`).  What is
refused is a :class:`~ginnyo.errors.TableRefusal`, which knows no HTTP.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any, Callable

from ...errors import (GameNotOver, GameOver, GinnyoError, IllegalMoveError, NotYourTurn, RuleRefusal, StaleVersion,
                       TablesFull, UnknownGame)
from ..store import GINNYO, GameRow, Store
from . import feed
from .bots import BOT_WORKERS, Bots
from .seats import TOKEN_BYTES, created_answer, rematch_token, seat_holding, seat_url, token_hash
from .table import HUMAN, Rebuild, SeatTable, row_of

GAME_ID_BYTES = 9         # 12 url-safe characters
MAX_SEED = 2 ** 63        # seeds are 0 .. 2**63 - 1 (SQLite's INTEGER)
VIEWS_KEPT = 512          # the seat views kept made (a poll of an unchanged game is answered from them)
FINISHED_KEPT = 100       # finished games kept in memory; the others are rebuilt from the store when asked for
RETRY_FULL = 60           # seconds a client is asked to wait when the server holds its most games


class Tables:
    """Every game of the store, live: made, found, moved and watched here.  The games in
    play are in memory (at most ``max_games`` of them, 0: no limit), but those untouched for
    ``expire_seconds`` (None: never), which are rebuilt from the store when asked for; of the
    finished ones, the :data:`FINISHED_KEPT` last asked for (the others are rebuilt likewise).
    ``rebuilders``: each game kind's rebuild (web/games/kinds.py)."""

    def __init__(self, store: Store, rebuilders: dict[str, Rebuild], workers: int = BOT_WORKERS,
                 max_games: int = 0, expire_seconds: float | None = None) -> None:
        self.store = store
        self.max_games = max_games
        self.expire_seconds = expire_seconds
        self.rebuilders = rebuilders                       # game kind -> its tables' rebuild
        self.tables: dict[str, SeatTable] = {}            # the games in memory
        self._finished: dict[str, None] = {}               # the finished ones, the last asked for last
        self.tokens: dict[str, tuple[str, int]] = {}      # token hash -> (game, seat), of every game
        self._lock = threading.RLock()                     # the two dicts and rematches
        self._views: dict[tuple[str, int, str], tuple[tuple[int, str | None], str]] = {}
        self._views_lock = threading.Lock()                # (game, seat, token) -> ((version, rematch), view's JSON)
        self.bots = Bots(self._commit, self.tables.get, workers)
        self.warn: Callable[[str], None] = lambda line: None   # set by load()

    # -- starting and stopping ------------------------------------------------------
    def load(self, warn: Callable[[str], None]) -> None:
        """Rebuild every stored game in play and set its bots going where a bot is to move; a
        game that no longer replays or whose row does not read (a database changed by hand) is left
        out, with one line to ``warn``
        (which also hears of a bot that fails, and of a finished game left out when asked for)."""
        self.warn = self.bots.warn = warn

        def left_out(game_id: str, why: str) -> None:
            warn(f"ginnyo: game {game_id} left out: {why}")

        touched = self.store.last_activity("playing")
        for row in self.store.games("playing", left_out):
            if self._expired(touched.get(row.id, 0.0), time.time()):
                continue   # archived: rebuilt when asked for (find)
            try:
                self.tables[row.id] = self._rebuilt(row, self.store.actions(row.id))
                self.tables[row.id].touched = touched.get(row.id, time.time())
            except (RuntimeError, ValueError) as error:
                left_out(row.id, str(error))
        for digest, game_id, seat in self.store.tokens(left_out=left_out):
            self.tokens[digest] = (game_id, seat)
            if game_id in self.tables:
                self.tables[game_id].token_hashes[digest] = seat
        for table in list(self.tables.values()):
            self.bots.schedule(table)

    def close(self) -> None:
        self.bots.close()

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
        return len(expired)

    # -- making games ---------------------------------------------------------------
    def create(self, kinds: list[str], names: list[str], seed: int | None, think: float,
               rematch_of: SeatTable | None = None, tokens: dict[int, str] | None = None,
               game: str = GINNYO) -> tuple[SeatTable, dict[int, str]]:
        """A new game (of kind ``game``) of seats ``kinds`` (seed: a random one when None); its human seats'
        tokens (for a rematch, the asker's alone: the others' are added as each person asks for theirs)."""
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        seed = secrets.randbelow(MAX_SEED) if seed is None else seed
        if tokens is None:
            tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat, kind in enumerate(kinds) if kind == HUMAN}
        row = GameRow(game_id, tuple(kinds), tuple(names), seed, think, "playing",
                      None if rematch_of is None else rematch_of.id, None, game)
        table = self._rebuilt(row, [])
        hashes = {seat: token_hash(token) for seat, token in tokens.items()}
        table.token_hashes.update((digest, seat) for seat, digest in hashes.items())
        with self._lock:
            in_play = len(self.tables) - len(self._finished)
            if self.max_games and in_play >= self.max_games:
                raise TablesFull(f"the server holds its most games in play ({self.max_games}): try again later",
                                 RETRY_FULL, most=self.max_games)
            self.store.create_game(row, hashes)
            self.tables[game_id] = table
            self.tokens.update((digest, (game_id, seat)) for seat, digest in hashes.items())
        self.bots.schedule(table)
        return table, tokens

    def rematch(self, table: SeatTable, seat: int, token: str) -> dict[str, Any]:
        """The rematch of a finished game, made by the first seat to ask: the same
        seats, names and think time, a new seed.  Every caller's answer carries its own
        seat's token only (the one its view gives it); every other person finds theirs
        in their own view, which the game's sockets are sent at once."""
        if not table.over:
            raise GameNotOver("the game is not over: a rematch follows a finished game")
        with self._lock:
            table = self.find(table.id) or table   # the one in memory (this one may have been let go)
            made = table.rematch is None
            if made:
                new, _ = self.create(list(table.kinds), list(table.names), None, table.think, rematch_of=table,
                                     tokens={seat: rematch_token(token, table.id)}, game=table.game_kind)
                table.rematch = new.id
        self.register_rematch_seat(table, seat, token)
        if made:
            for subscriber in feed.subscribers_of(table):   # their views name their rematch seats: usable at once
                self.register_rematch_seat(table, subscriber.seat, subscriber.token)
            with table.lock:   # taken after self._lock is let go: a move takes the two the other way round
                feed.broadcast(table, lambda seat_, token_: self._view(table, seat_, token_))
        entry = self.rematch_entry(table, seat, token)
        assert entry is not None
        return created_answer(self.get(entry["id"]), {seat: entry["token"]})

    def rematch_entry(self, table: SeatTable, seat: int, token: str) -> dict[str, Any] | None:
        """Seat ``seat``'s place in the rematch of ``table``, once there is one, its token derived from
        the seat's token (worked out, never stored: :meth:`register_rematch_seat` stores it)."""
        new = None if table.rematch is None else self.find(table.rematch)
        if new is None or new.kinds[seat] != HUMAN:   # none yet (or it was left out on loading)
            return None
        derived = rematch_token(token, table.id)
        return {"id": new.id, "seat": seat, "token": derived, "url": seat_url(new.id, seat, derived)}

    def register_rematch_seat(self, table: SeatTable, seat: int, token: str) -> None:
        """Store (hashed) the token of ``seat``'s place in the rematch of ``table``, if there is one and
        it is not stored yet: the step before a view that names it is read (the GET and the socket)."""
        entry = self.rematch_entry(table, seat, token)
        if entry is None:
            return
        digest = token_hash(entry["token"])
        if digest not in self.tokens:
            self.store.add_token(digest, entry["id"], seat)
            with self._lock:
                self.tokens[digest] = (entry["id"], seat)
                self.get(entry["id"]).token_hashes[digest] = seat

    # -- finding games and seats ------------------------------------------------------
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
                row = self.store.game(game_id)
                if row is None:
                    return None
                table = self._rebuilt(row, self.store.actions(game_id))
                table.token_hashes.update((digest, seat) for digest, _, seat in self.store.tokens(game_id))
            except (RuntimeError, ValueError) as error:
                self.warn(f"ginnyo: game {game_id} left out: {error}")
                return None
            self.tables[game_id] = table
        if table.over:
            self._kept_finished(table)
        else:   # an archived game in play (Tables.sweep): back in memory, its bot going on
            self.bots.schedule(table)
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

    def seat_of(self, table: SeatTable, token: str | None) -> int:
        """The seat ``token`` holds in ``table`` (:func:`.seats.seat_holding`)."""
        return seat_holding(table.token_hashes, self.tokens, token)

    # -- the seats' views ---------------------------------------------------------------
    def view(self, table: SeatTable, seat: int, token: str) -> str:
        """The seat's view, as JSON text."""
        with table.lock:
            return self._view(table, seat, token)

    def kept_view(self, table: SeatTable, seat: int, token: str) -> str | None:
        """The seat's view (JSON text) if one made since the game last changed is at hand, else None; it
        takes no lock, so the event loop may ask (a view is made only of a committed game, under its lock)."""
        kept = self._views.get((table.id, seat, token))
        if kept is None or kept[0] != (table.version, table.rematch):
            return None
        return kept[1]

    def _view(self, table: SeatTable, seat: int, token: str) -> str:
        """The seat's view as JSON text, made once and kept for the polls until the game changes
        (the caller holds the lock; encoding here keeps it off the event loop).  It writes nothing."""
        text = self.kept_view(table, seat, token)
        if text is None:
            text = feed.json_text(table.view(seat, self.rematch_entry(table, seat, token)))
            with self._views_lock:
                views = self._views
                views.pop((table.id, seat, token), None)
                views[table.id, seat, token] = ((table.version, table.rematch), text)
                if len(views) > VIEWS_KEPT:
                    del views[next(iter(views))]   # the one made longest ago
        return text

    # -- moving -------------------------------------------------------------------------
    def act(self, table: SeatTable, seat: int, token: str, text: object, version: int | None) -> str:
        """Carry out a person's action (the request's ``action``) for ``seat``: committed, broadcast,
        then the new view (JSON text)."""
        with table.lock:
            if table.over:
                raise GameOver("the game is over")
            if version is not None and version != table.version:
                raise StaleVersion(f"stale: version {version} given, the game is at version {table.version}",
                                   given=version, version=table.version)
            if table.to_move != seat:
                raise NotYourTurn(f"it is seat {table.to_move}'s turn, not seat {seat}'s", seat=table.to_move,
                                  number=table.to_move + 1)
            if table.kinds[seat] != HUMAN:   # pragma: no cover - bots have no tokens
                raise NotYourTurn("a bot's seat", seat=table.to_move, number=table.to_move + 1)
            try:
                action = table.parse(text)
                self._commit(table, action)
            except GinnyoError as error:
                raise RuleRefusal(_reason(error)) from None
            answer = self._view(table, seat, token)
        self.bots.schedule(table)
        return answer

    def _commit(self, table: SeatTable, action: Any) -> None:
        """Apply and store an action (the caller holds the lock), then tell every socket."""
        text = table.apply(action)
        try:
            self.store.append_action(table.id, table.version, text, table.over)
        except BaseException:
            # the game ran ahead of its file: rebuild it from what is stored
            with self._lock:
                self.tables[table.id] = fresh = self._rebuilt(row_of(table), self.store.actions(table.id))
                fresh.subscribers, fresh.subscribers_lock = table.subscribers, table.subscribers_lock
                fresh.token_hashes, fresh.rematch = table.token_hashes, table.rematch
            raise
        table.touched = time.time()
        if table.over:
            self._kept_finished(table)
        feed.broadcast(table, lambda seat, token: self._view(table, seat, token))

    def preview(self, table: SeatTable, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """A choice of ``seat`` judged before it is made (only the seat to move may ask)."""
        with table.lock:
            if table.over:
                raise GameOver("the game is over")
            if table.to_move != seat:
                raise NotYourTurn("a preview is for the seat to move", seat=table.to_move, number=table.to_move + 1)
            try:
                return table.preview(seat, body)
            except GinnyoError as error:
                raise RuleRefusal(_reason(error)) from None

    def record(self, table: SeatTable, seat: int) -> str:
        """The record of a finished game, once the game's view of ``seat`` gives it."""
        with table.lock:
            if not table.record_given(seat):
                raise GameNotOver("the record is given once the game is over (its seed would reveal the box)")
            return table.record()

    def _rebuilt(self, row: GameRow, actions: list[str]) -> SeatTable:
        rebuild = self.rebuilders.get(row.game)
        if rebuild is None:
            raise RuntimeError(f"game kind {row.game!r} is not served here")
        return rebuild(row, actions)

    def subscribe(self, table: SeatTable, subscriber: feed.Subscriber) -> None:
        feed.subscribe(table, subscriber)

    def unsubscribe(self, table: SeatTable, subscriber: feed.Subscriber) -> None:
        feed.unsubscribe(table, subscriber)


def _reason(error: GinnyoError) -> str:
    """What the rules say of a refused action: the rule broken with its code, else the error's line."""
    found = error.reason if isinstance(error, IllegalMoveError) else None
    return found if found is not None else str(error)


__all__ = ["Tables", "MAX_SEED", "VIEWS_KEPT", "FINISHED_KEPT"]
