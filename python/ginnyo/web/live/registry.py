"""The registry of live games: every game of the store as a :class:`~.table.SeatTable`, made, found,
rebuilt from the store, let go, moved by people's requests, and each seat's view made and kept.

Every change of a game happens under its table's lock, in a worker thread
(never on the event loop), and is committed to the store before anyone hears
of it (:mod:`.feed`); the bots move in their own threads (:mod:`.bots`).  What is
refused is a :class:`~ginnyo.errors.TableRefusal`, which knows no HTTP.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from typing import Any, Callable

from ...errors import (CrazyError, GameNotOver, GameOver, GinnyoError, IllegalMoveError, MoveAlreadyStored, NotForWatchers,
                       NotNow, NotYourTurn, RuleRefusal, StaleVersion, TablesFull)
from ...game.clock import ClockSettings
from ...game.events import ABORT, RESIGN, Event
from ..store import Store
from ..store.rows import GINNYO, MAX_SEED, GameRow
from . import feed
from .bots import BOT_WORKERS, Bots
from .broker import Broker, LocalBroker
from .catch_up import CatchUp
from .leases import Leases, LocalLeases
from .seats import TOKEN_BYTES, WATCHER, created_answer, rematch_token, seat_holding, seat_url, token_hash
from .kept_games import KeptGames
from .table import HUMAN, Rebuild, SeatTable, row_of
from .timekeeper import Timekeeper

GAME_ID_BYTES = 9         # 12 url-safe characters
VIEWS_KEPT = 512          # the seat views kept made (a poll of an unchanged game is answered from them)
RETRY_FULL = 60           # seconds a client is asked to wait when the server holds its most games


class Tables(KeptGames):
    """Every game of the store, live: made, found, moved and watched here.  The games in
    play are in memory (at most ``max_games`` of them, 0: no limit), but those untouched for
    ``expire_seconds`` (None: never), which are rebuilt from the store when asked for; of the
    finished ones, the :data:`~.kept_games.FINISHED_KEPT` last asked for (the others are rebuilt likewise).
    ``rebuilders``: each game kind's rebuild (web/games/rebuilds.py).  With other processes on the same store,
    ``broker`` tells them of each change (and :meth:`changed` hears of theirs) and ``leases`` says which
    process moves a game's bots (:mod:`.broker`, :mod:`.leases`; alone, neither does anything)."""

    def __init__(self, store: Store, rebuilders: dict[str, Rebuild], workers: int = BOT_WORKERS,
                 max_games: int = 0, expire_seconds: float | None = None, broker: Broker | None = None,
                 leases: Leases | None = None, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now                                     # the clocks' time (a test's own clock)
        self.broker: Broker = broker or LocalBroker()
        self.leases: Leases = leases or LocalLeases()
        self.max_games = max_games
        self.tokens: dict[str, tuple[str, int]] = {}      # token hash -> (game, seat), of every game
        self._views: dict[tuple[str, int, str], tuple[tuple[int, str | None, int], str]] = {}
        self._views_lock = threading.Lock()                # (game, seat, token) -> ((version, rematch), view's JSON)
        self.bots = Bots(self._commit, lambda game_id: self.tables.get(game_id), workers, hold=self.leases.hold)
        self.timekeeper = Timekeeper(now, self._commit, lambda game_id: self.tables.get(game_id), self.leases.hold,
                                     self.bots.schedule, lambda line: self.warn(line))
        super().__init__(store, rebuilders, self.leases.release, self.timekeeper.wind, self._resume, expire_seconds)
        self.timers = self.timekeeper.timers               # every timed game's deadline
        self.catching_up = CatchUp(store, self.tables, self._caught_up, self.bots.schedule, lambda line: self.warn(line))
        self.on_finished: Callable[[SeatTable], None] | None = None   # told of each game's end (the club's ratings)

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
            self._resume(table)

    def close(self) -> None:
        self.timekeeper.close()
        self.bots.close()
        self.leases.close()
        self.catching_up.close()

    def _resume(self, table: SeatTable) -> None:
        """Set a game in play going: its bot, if one is to move, and its clock's timer."""
        self.bots.schedule(table)
        self.timekeeper.arm(table)

    # -- making games ---------------------------------------------------------------
    def create(self, kinds: list[str], names: list[str], seed: int | None, think: float,
               rematch_of: SeatTable | None = None, tokens: dict[int, str] | None = None,
               game: str = GINNYO, clock: ClockSettings | None = None,
               watchable: bool = False) -> tuple[SeatTable, dict[int, str]]:
        """A new game (of kind ``game``) of seats ``kinds`` (seed: a random one when None; ``clock``: its time
        control, None: untimed; ``watchable``: open to watchers); its human seats' tokens (for a rematch, the
        asker's alone: the others' are added as each person asks for theirs)."""
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        seed = secrets.randbelow(MAX_SEED) if seed is None else seed
        if tokens is None:
            tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat, kind in enumerate(kinds) if kind == HUMAN}
        row = GameRow(game_id, tuple(kinds), tuple(names), seed, think, "playing",
                      None if rematch_of is None else rematch_of.id, None, game, self.now(),
                      None if clock is None else (clock.initial, clock.increment), watchable)
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
        self._resume(table)
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
                                     tokens={seat: rematch_token(token, table.id)}, game=table.game_kind,
                                     clock=table.clock, watchable=table.watchable)
                table.rematch = new.id
        self.register_rematch_seat(table, seat, token)
        if made:
            self.broker.publish(table.id, table.version, table.rematch)
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
        new = None if table.rematch is None or seat == WATCHER else self.find(table.rematch)
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

    def add_seat_token(self, table: SeatTable, seat: int) -> str:
        """A new token of ``seat`` (stored hashed, beside its others): how a seat's account is given its
        credential (docs/CLUB.md)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        digest = token_hash(token)
        self.store.add_token(digest, table.id, seat)
        with self._lock:
            self.tokens[digest] = (table.id, seat)
            table.token_hashes[digest] = seat
        return token

    # -- seats ------------------------------------------------------------------------
    def seat_of(self, table: SeatTable, token: str | None) -> int:
        """The seat ``token`` holds in ``table`` (:func:`.seats.seat_holding`)."""
        return seat_holding(table.token_hashes, self.tokens, token)

    def watching(self, table: SeatTable) -> None:
        """:class:`NotForWatchers` unless ``table`` is open to watchers (someone with no seat in it)."""
        if not table.watchable:
            raise NotForWatchers("this game is not open to watchers: a seat token is needed (Authorization: "
                                 "Bearer TOKEN)")

    # -- the seats' views ---------------------------------------------------------------
    def view(self, table: SeatTable, seat: int, token: str) -> str:
        """The seat's view, as JSON text."""
        with table.lock:
            return self._view(table, seat, token)

    def kept_view(self, table: SeatTable, seat: int, token: str) -> str | None:
        """The seat's view (JSON text) if one made since the game last changed is at hand, else None; it
        takes no lock, so the event loop may ask (a view is made only of a committed game, under its lock)."""
        kept = self._views.get((table.id, seat, token))
        if kept is None or table.clock is not None and not table.over or kept[0] != _made_of(table):
            return None
        return kept[1]

    def _view(self, table: SeatTable, seat: int, token: str) -> str:
        """The seat's view as JSON text, made once and kept for the polls until the game (or its watchers) changes
        (the caller holds the lock; encoding here keeps it off the event loop).  It writes nothing."""
        text = self.kept_view(table, seat, token)
        if text is None:
            seen = (table.watcher_view(self.watched_rematch(table)) if seat == WATCHER
                    else table.view(seat, self.rematch_entry(table, seat, token)))
            text = feed.json_text({**seen, "clocks": self.timekeeper.clocks(table),
                                   "analysis_open": self.analysis_open(table), "watchers": feed.watchers_of(table)})
            with self._views_lock:
                views = self._views
                views.pop((table.id, seat, token), None)
                views[table.id, seat, token] = (_made_of(table), text)
                if len(views) > VIEWS_KEPT:
                    del views[next(iter(views))]   # the one made longest ago
        return text

    def analysis_open(self, table: SeatTable) -> bool:
        """Whether the analysis board opens ``table`` now (a Ginny-O game fair to analyse: the one rule the
        analysis request and the view's ``analysis_open`` follow)."""
        return table.game_kind == GINNYO and table.fair_to_analyse(lambda: self.store.rated_kind(table.id) is not None)

    def watched_rematch(self, table: SeatTable) -> dict[str, Any] | None:
        """What a watcher's view says of the rematch of ``table``: its id and page, once there is one."""
        return None if table.rematch is None else {"id": table.rematch, "url": f"/play/{table.rematch}"}

    # -- moving -------------------------------------------------------------------------
    def act(self, table: SeatTable, seat: int, token: str, text: object, version: int | None) -> str:
        """Carry out a person's action (the request's ``action``) for ``seat``: committed, broadcast,
        then the new view (JSON text)."""
        with table.lock:
            table = self.tables.get(table.id, table)   # caught up meanwhile (same lock): the one in its place
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
            action = None
            try:
                action = table.parse(text)
                self._commit(table, action)
            except GinnyoError as error:
                kept = None if action is None else table.seen_part(action)
                if kept is not None:
                    with contextlib.suppress(GinnyoError):   # a draw refused itself has shown nothing
                        self._commit(table, kept)
                raise RuleRefusal(_reason(error)) from None
            answer = self._view(table, seat, token)
        self.bots.schedule(table)
        return answer

    def _commit(self, table: SeatTable, action: Any) -> None:
        """Apply and store an action or an :class:`~ginnyo.game.events.Event` (the caller holds the lock), then
        tell every socket.  A turn of a timed game made in overtime is first charged for it (RULES "Timed play")."""
        at, mover = self.now(), table.to_move
        if table.clock is not None and not isinstance(action, Event):
            owed = self.timekeeper.overtime_owed(table, at)
            if owed is not None:
                self._commit(table, owed)
        text = table.apply_event(action) if isinstance(action, Event) else table.apply(action)
        try:
            self.store.append_action(table.id, table.version, text, table.over, at)
        except BaseException as error:
            # the game ran ahead of its file (or another process stored this move first): rebuilt from the store
            fresh = self._replaced(table, row_of(table), self.store.actions(table.id))
            if isinstance(error, MoveAlreadyStored):   # the other's move: this process's sockets see it now
                feed.broadcast(fresh, lambda seat, token: self._view(fresh, seat, token))
            raise
        table.touched = time.time()
        if table.clock is not None:
            self.timekeeper.stored(table, mover, at, text)
        if table.over:
            self._kept_finished(table)
            if self.on_finished is not None:   # under the lock, in this worker thread; it must not block
                self.on_finished(table)
            self.leases.release(table.id)
        self.broker.publish(table.id, table.version, table.rematch)
        feed.broadcast(table, lambda seat, token: self._view(table, seat, token))

    # -- resigning, aborting, clocks ------------------------------------------------------
    def resign(self, table: SeatTable, seat: int, token: str) -> str:
        """``seat`` resigns: the game ends, the others ranked by score (docs/RULES.md "Resignation"); the view."""
        return self._event(table, Event(RESIGN, seat), token)

    def abort(self, table: SeatTable, seat: int, token: str) -> str:
        """``seat`` ends the game before its first turn, with no result; NotNow once it has moved."""
        with table.lock:
            if not table.over and table.has_moved(seat):
                raise NotNow("the seat has moved: the game can no longer be aborted (resign instead)")
            return self._event(table, Event(ABORT, seat), token)

    def _event(self, table: SeatTable, event: Event, token: str) -> str:
        with table.lock:
            if table.over:
                raise GameOver("the game is over")
            try:
                self._commit(table, event)
            except GinnyoError as error:
                raise RuleRefusal(str(error)) from None
            return self._view(table, event.seat, token)
    def _caught_up(self, table: SeatTable, row: GameRow, actions: list[str]) -> SeatTable:
        """``table`` caught up with another process's change (:mod:`.catch_up`): rebuilt in its place, its
        sockets sent their views (the caller holds its lock)."""
        fresh = self._replaced(table, row, actions)
        if fresh.over:
            self._kept_finished(fresh)
        feed.broadcast(fresh, lambda seat, token: self._view(fresh, seat, token))
        return fresh

    # -- other processes ---------------------------------------------------------------
    def changed(self, game_id: str | None, version: int, rematch: str | None) -> None:
        """Another process changed ``game_id`` (:meth:`.catch_up.CatchUp.changed`)."""
        self.catching_up.changed(game_id, version, rematch)

    def retake(self) -> None:
        """Set going the bots of the games held here whose bot is to move and idle (their leases' holder
        may have died: :mod:`.leases`); every few seconds, from the leases' thread."""
        for table in list(self.tables.values()):
            if not table.bot_running and not table.over and table.bot_to_move():
                self.bots.schedule(table)

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

    def subscribe(self, table: SeatTable, subscriber: feed.Subscriber) -> None:
        feed.subscribe(table, subscriber)

    def unsubscribe(self, table: SeatTable, subscriber: feed.Subscriber) -> None:
        feed.unsubscribe(table, subscriber)


def _made_of(table: SeatTable) -> tuple[int, str | None, int]:
    """What a kept view of ``table`` was made of: a view made of another is made anew."""
    return table.version, table.rematch, feed.watchers_of(table)


def _reason(error: GinnyoError) -> str:
    """What the rules say of a refused action: the rule broken with its code, else the error's line."""
    found = error.reason if isinstance(error, (IllegalMoveError, CrazyError)) else None
    return found if found is not None else str(error)


__all__ = ["Tables", "VIEWS_KEPT"]
