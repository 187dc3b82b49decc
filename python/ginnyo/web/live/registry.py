"""The live games: each a :class:`Table` (the Game, its seats, its sockets), rebuilt from the store,
moved by people's requests and by bots in worker threads, and broadcast to every seat's sockets.

Every change of a game happens under its table's lock, in a worker thread
(never on the event loop), and is committed to the store before anyone hears
of it.  A bot decides outside the lock on the game's own :class:`~ginnyo.game.View`
of its turn, the view self-play gives a player: what a player in its seat sees.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ginnyo import GinnyoError
from ginnyo.errors import StoreUnavailable
from ginnyo.game.actions import Action, action_notation, parse_action
from ginnyo.game import Game
from ginnyo.players import PLAYER_KINDS, Player, make_player
from ginnyo.game.records import record_text

from ..http.errors import BadRequest, Conflict, Forbidden, Illegal, NotFound, ServerFull, TooManyRequests, Unauthorized
from ..preview import preview, read_placements
from ..http.requests import only_fields
from ..store import GINNYO, GameRow, Store
from ..games.ginnyo import HUMAN, created_answer, seat_url, seat_view

SEAT_KINDS = (HUMAN, *PLAYER_KINDS)
TOKEN_BYTES = 32          # secrets.token_urlsafe(32): 43 url-safe characters
TOKEN_CHARS = 43
GAME_ID_BYTES = 9         # 12 url-safe characters
MAX_SEED = 2 ** 63        # seeds are 0 .. 2**63 - 1 (SQLite's INTEGER)
BOT_WORKERS = 2           # threads deciding bot moves, for every game
VIEWS_KEPT = 512          # the seat views kept made (a poll of an unchanged game is answered from them)
BOT_RETRY_FIRST, BOT_RETRY_MOST = 0.25, 8.0   # seconds before a bot whose move was not saved (a full disk) tries again
FINISHED_KEPT = 100       # finished games kept in memory; the others are rebuilt from the store when asked for
SOCKETS_PER_GAME = 32     # a game's event sockets open at once (a person has one a tab)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def rematch_token(token: str, game_id: str) -> str:
    """The token of a rematch seat, derived from the seat's token in the finished game:
    only its holder can work it out, and nobody need store it."""
    digest = hmac.new(token.encode("utf-8"), f"ginnyo rematch {game_id}".encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def well_formed_token(token: object) -> bool:
    """Whether ``token`` has a seat token's shape (43 url-safe characters)."""
    return (isinstance(token, str) and len(token) == TOKEN_CHARS
            and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in token))


def json_text(value: Any) -> str:
    """``value`` as the compact JSON text every answer and socket message of a game is sent as."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def view_message(view_text: str) -> str:
    """The socket message carrying a seat's view (its JSON text): ``{"type": "view", "view": ...}``."""
    return '{"type":"view","view":' + view_text + "}"


@dataclass(eq=False)
class Subscriber:
    """A socket of ``seat``: messages (JSON text) are put on ``queue`` from any thread through ``loop``."""

    seat: int
    token: str
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[str]

    def send(self, message: str) -> None:
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, message)
        except RuntimeError:   # its loop is closed: the socket is gone, and unsubscribes itself
            pass


@dataclass(eq=False)
class SeatTable:
    """What the tables of every game kind share: the seats, the actions applied (as
    stored), the tokens, the sockets and the bot's state.  A game kind (``game_kind``)
    says what its game is: who is to move, how an action is read and applied, what a
    seat sees, what a bot does, the record."""

    game_kind: ClassVar[str] = GINNYO
    id: str
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    seed: int
    think: float
    actions: list[str] = field(default_factory=list)
    rematch: str | None = None
    token_hashes: dict[str, int] = field(default_factory=dict)   # sha256 of a token -> its seat
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: set[Subscriber] = field(default_factory=set)
    subscribers_lock: threading.Lock = field(default_factory=threading.Lock)   # held for no I/O: the loop takes it
    bots: dict[int, Player] = field(default_factory=dict)
    bot_running: bool = False
    bot_failure: str | None = None     # why the bot to move stopped, if it failed
    touched: float = field(default_factory=time.time)   # its last action, making or rebuilding (time.time())

    @property
    def version(self) -> int:
        """The number of actions applied."""
        return len(self.actions)

    @property
    def over(self) -> bool:
        raise NotImplementedError

    @property
    def to_move(self) -> int:
        raise NotImplementedError

    def bot_to_move(self) -> bool:
        return not self.over and self.kinds[self.to_move] != HUMAN

    def parse(self, value: object) -> Any:
        """The action of the seat to move that a request's ``action`` field names (GinnyoError if illegal)."""
        raise NotImplementedError

    def apply(self, action: Any) -> str:
        """Apply an action of the seat to move (an illegal one changes nothing); its text, as stored."""
        raise NotImplementedError

    def bot_decision(self, seat: int) -> Callable[[], Any]:
        """What the bot of ``seat`` (to move) will do, worked out when called, outside the table's lock."""
        raise NotImplementedError

    def view(self, seat: int, rematch: dict[str, Any] | None) -> dict[str, Any]:
        """What ``seat`` sees (the one place: the game kind's views module)."""
        raise NotImplementedError

    def preview(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """A choice of the seat to move judged before it is made (the request's body)."""
        raise NotImplementedError

    def record(self) -> str:
        """The finished game's record, as its replay command reads it."""
        raise NotImplementedError


@dataclass(eq=False)
class Table(SeatTable):
    """A Ginny-O game being played (or over): the :class:`Game`, dealt from ``seed`` with the
    ``actions`` applied; the seat to move has drawn (``Game.begin_turn``)."""

    game: Game = field(kw_only=True)

    @property
    def version(self) -> int:
        return self.game.turns_played

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def to_move(self) -> int:
        return self.game.to_move

    def parse(self, value: object) -> Action:
        if not isinstance(value, str):
            raise BadRequest("field 'action': must be a string")
        return parse_action(self.game.position(), value)

    def bot_decision(self, seat: int) -> Callable[[], Any]:
        view, player = self.game.begin_turn(), self.bot(seat)
        return lambda: player.choose(view)

    def view(self, seat: int, rematch: dict[str, Any] | None) -> dict[str, Any]:
        return seat_view(self, seat, rematch)

    def preview(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        only_fields(body, ("placements",))
        return preview(self.game.position(seat), read_placements(body.get("placements")))

    def record(self) -> str:
        return record_text(self.game, list(self.names))

    def apply(self, action: Action) -> str:
        """Apply ``action`` for the seat to move (``IllegalMoveError`` leaves the game
        unchanged); its notation, as stored."""
        game = self.game
        before = game.position()
        game.apply(action)   # raises before changing anything when the rules forbid it
        text = action_notation(before, action)
        self.actions.append(text)
        if not game.over:
            game.begin_turn()   # the next seat draws: its view holds its tiles for the decision
        return text

    def bot(self, seat: int) -> Player:
        """The bot of ``seat``; a random bot is seeded from the turn too, so that a game
        rebuilt after a restart goes on as it would have."""
        kind = self.kinds[seat]
        if kind == "random":
            return make_player(kind, self.seed * 1000 + self.version, seat)
        if seat not in self.bots:
            self.bots[seat] = make_player(kind, self.seed, seat, seconds=self.think)
        return self.bots[seat]


Rebuild = Callable[[GameRow, list[str]], SeatTable]   # a stored game (its row, its actions) -> its live table


class Tables:
    """Every game of the store, live: made, found, moved and watched here.  The games in
    play are in memory (at most ``max_games`` of them, 0: no limit), but those untouched for
    ``expire_seconds`` (None: never), which are rebuilt from the store when asked for; of the
    finished ones, the :data:`FINISHED_KEPT` last asked for (the others are rebuilt likewise)."""

    def __init__(self, store: Store, workers: int = BOT_WORKERS,
                 rebuilders: dict[str, Rebuild] | None = None, max_games: int = 0,
                 expire_seconds: float | None = None) -> None:
        self.store = store
        self.max_games = max_games
        self.expire_seconds = expire_seconds
        self.rebuilders: dict[str, Rebuild] = rebuilders or {GINNYO: rebuilt}   # game kind -> its tables' rebuild
        self.tables: dict[str, SeatTable] = {}            # the games in memory
        self._finished: dict[str, None] = {}               # the finished ones, the last asked for last
        self.tokens: dict[str, tuple[str, int]] = {}      # token hash -> (game, seat), of every game
        self._lock = threading.RLock()                     # the two dicts and rematches
        self._views: dict[tuple[str, int, str], tuple[tuple[int, str | None], str]] = {}
        self._views_lock = threading.Lock()                # (game, seat, token) -> ((version, rematch), view's JSON)
        self._workers = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ginnyo-bot")
        self._closing = False
        self._bot_delays: dict[str, float] = {}          # game -> the wait before its bot is asked again
        self.warn: Callable[[str], None] = lambda line: None   # set by load()

    # -- starting and stopping ------------------------------------------------------
    def load(self, warn: Callable[[str], None]) -> None:
        """Rebuild every stored game in play and set its bots going where a bot is to move; a
        game that no longer replays or whose row does not read (a database changed by hand) is left
        out, with one line to ``warn``
        (which also hears of a bot that fails, and of a finished game left out when asked for)."""
        self.warn = warn

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
            self.schedule_bot(table)

    def close(self) -> None:
        self._closing = True
        self._workers.shutdown(wait=False, cancel_futures=True)

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
                raise ServerFull(f"the server holds its most games in play ({self.max_games}): try again later", 60)
            self.store.create_game(row, hashes)
            self.tables[game_id] = table
            self.tokens.update((digest, (game_id, seat)) for seat, digest in hashes.items())
        self.schedule_bot(table)
        return table, tokens

    def rematch(self, table: SeatTable, seat: int, token: str) -> dict[str, Any]:
        """The rematch of a finished game, made by the first seat to ask: the same
        seats, names and think time, a new seed.  Every caller's answer carries its own
        seat's token only (the one its view gives it); every other person finds theirs
        in their own view, which the game's sockets are sent at once."""
        if not table.over:
            raise Conflict("the game is not over: a rematch follows a finished game")
        with self._lock:
            table = self.find(table.id) or table   # the one in memory (this one may have been let go)
            made = table.rematch is None
            if made:
                new, _ = self.create(list(table.kinds), list(table.names), None, table.think, rematch_of=table,
                                     tokens={seat: rematch_token(token, table.id)}, game=table.game_kind)
                table.rematch = new.id
        if made:
            with table.lock:   # taken after self._lock is let go: a move takes the two the other way round
                self.broadcast(table)
        entry = self.rematch_entry(table, seat, token)
        assert entry is not None
        return created_answer(self.get(entry["id"]), {seat: entry["token"]})

    def rematch_entry(self, table: SeatTable, seat: int, token: str) -> dict[str, Any] | None:
        """Seat ``seat``'s place in the rematch of ``table``, once there is one (its
        token derived from the seat's token here, and stored hashed when first given)."""
        new = None if table.rematch is None else self.find(table.rematch)
        if new is None or new.kinds[seat] != HUMAN:   # none yet (or it was left out on loading)
            return None
        derived = rematch_token(token, table.id)
        digest = token_hash(derived)
        if digest not in self.tokens:
            self.store.add_token(digest, new.id, seat)
            with self._lock:
                self.tokens[digest] = (new.id, seat)
                new.token_hashes[digest] = seat
        return {"id": new.id, "seat": seat, "token": derived, "url": seat_url(new.id, seat, derived)}

    # -- finding games and seats ------------------------------------------------------
    def get(self, game_id: str) -> SeatTable:
        table = self.find(game_id)
        if table is None:
            raise NotFound(f"no game {game_id!r}" if len(game_id) <= 40 else "no such game")
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
            self.schedule_bot(table)
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
        """The seat ``token`` holds in ``table``: 401 without a token of any game, 403 for another game's."""
        if not token:
            raise Unauthorized("a seat token is needed: Authorization: Bearer TOKEN")
        if not well_formed_token(token):
            raise Unauthorized("the seat token is malformed")
        digest = token_hash(token)
        for stored, seat in list(table.token_hashes.items()):
            if hmac.compare_digest(stored, digest):
                return seat
        if digest in self.tokens:   # a hash looked up: it tells nothing of the tokens
            raise Forbidden("the seat token is not for this game")
        raise Unauthorized("the seat token is no token of a game here")

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
        (the caller holds the lock; encoding here keeps it off the event loop)."""
        text = self.kept_view(table, seat, token)
        if text is None:
            text = json_text(table.view(seat, self.rematch_entry(table, seat, token)))
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
        then the new view (JSON text); 409 out of turn or stale, 422 when the rules refuse it."""
        with table.lock:
            if table.over:
                raise Conflict("the game is over")
            if version is not None and version != table.version:
                raise Conflict(f"stale: version {version} given, the game is at version {table.version}")
            if table.to_move != seat:
                raise Conflict(f"it is seat {table.to_move}'s turn, not seat {seat}'s")
            if table.kinds[seat] != HUMAN:   # pragma: no cover - bots have no tokens
                raise Conflict("a bot's seat")
            try:
                action = table.parse(text)
                self._commit(table, action)
            except GinnyoError as error:
                raise Illegal(str(error)) from None
            answer = self._view(table, seat, token)
        self.schedule_bot(table)
        return answer

    def _commit(self, table: SeatTable, action: Any) -> None:
        """Apply and store an action (the caller holds the lock), then tell every socket."""
        text = table.apply(action)
        try:
            self.store.append_action(table.id, table.version, text, table.over)
        except BaseException:
            # the game ran ahead of its file: rebuild it from what is stored
            with self._lock:
                self.tables[table.id] = fresh = self._rebuilt(_row_of(table), self.store.actions(table.id))
                fresh.subscribers, fresh.subscribers_lock = table.subscribers, table.subscribers_lock
                fresh.token_hashes, fresh.rematch = table.token_hashes, table.rematch
            raise
        table.touched = time.time()
        if table.over:
            self._kept_finished(table)
        self.broadcast(table)

    def broadcast(self, table: SeatTable) -> None:
        """Send every socket of ``table`` its seat's view (the caller holds the lock)."""
        messages: dict[tuple[int, str], str] = {}
        with table.subscribers_lock:
            subscribers = list(table.subscribers)
        for subscriber in subscribers:
            key = (subscriber.seat, subscriber.token)
            if key not in messages:
                messages[key] = view_message(self._view(table, subscriber.seat, subscriber.token))
            subscriber.send(messages[key])

    def schedule_bot(self, table: SeatTable) -> None:
        """Set a worker deciding for the bot to move, unless one is already."""
        with table.lock:
            if self._closing or table.bot_running or not table.bot_to_move():
                return
            table.bot_running = True
        try:
            self._workers.submit(self._bot_turn, table)
        except RuntimeError:   # the pool is shut down: the server is stopping
            table.bot_running = False

    def _bot_turn(self, table: SeatTable) -> None:
        """One bot move (in a worker thread): decide on the seat's view, then commit."""
        try:
            with table.lock:
                if not table.bot_to_move():
                    return
                seat, version = table.to_move, table.version
                decide = table.bot_decision(seat)
            action = decide()   # outside the lock: nobody else may move meanwhile
            with table.lock:
                if self._closing or table.version != version:
                    return
                self._commit(table, action)
        except StoreUnavailable as error:   # the disk is full: asked again later, the move unsaved meanwhile
            self._bot_later(table.id, error)
            return
        except Exception as error:   # a bot that fails: the game waits (asking again would fail again)
            table.bot_failure = f"the {table.kinds[table.to_move]} bot failed: {type(error).__name__}: {error}"
            self.warn(f"ginnyo: game {table.id}: {table.bot_failure}")
            return
        finally:
            table.bot_running = False
        self._bot_delays.pop(table.id, None)
        self.schedule_bot(table)

    def _bot_later(self, game_id: str, error: StoreUnavailable) -> None:
        """Ask the bot of ``game_id`` again after a wait, doubled each time its move could not be saved,
        up to :data:`BOT_RETRY_MOST` seconds: it moves again once the disk has room, with no restart."""
        delay = self._bot_delays.get(game_id)
        if delay is None:
            self.warn(f"ginnyo: game {game_id}: the bot's move was not saved ({error}); the bot will try again")
        delay = BOT_RETRY_FIRST if delay is None else min(2 * delay, BOT_RETRY_MOST)
        self._bot_delays[game_id] = delay
        timer = threading.Timer(delay, self._bot_again, (game_id,))
        timer.daemon = True   # a server stopping does not wait for it
        timer.start()

    def _bot_again(self, game_id: str) -> None:
        table = self.tables.get(game_id)   # the table rebuilt from the store when the save failed
        if table is not None:
            self.schedule_bot(table)

    def preview(self, table: SeatTable, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """A choice of ``seat`` judged before it is made (409 unless it is to move); GinnyoError is a 422."""
        with table.lock:
            if table.over:
                raise Conflict("the game is over")
            if table.to_move != seat:
                raise Conflict("a preview is for the seat to move")
            try:
                return table.preview(seat, body)
            except GinnyoError as error:
                raise Illegal(str(error)) from None

    def record(self, table: SeatTable) -> str:
        """The record of a finished game (409 before the end: its seed would reveal the box)."""
        with table.lock:
            if not table.over:
                raise Conflict("the record is given once the game is over (its seed would reveal the box)")
            return table.record()

    def _rebuilt(self, row: GameRow, actions: list[str]) -> SeatTable:
        rebuild = self.rebuilders.get(row.game)
        if rebuild is None:
            raise RuntimeError(f"game kind {row.game!r} is not served here")
        return rebuild(row, actions)

    def subscribe(self, table: SeatTable, subscriber: Subscriber) -> None:
        """Send ``subscriber`` the game's changes; 429 when :data:`SOCKETS_PER_GAME` are open."""
        with table.subscribers_lock:
            if len(table.subscribers) >= SOCKETS_PER_GAME:
                raise TooManyRequests(f"this game has {SOCKETS_PER_GAME} sockets open, the most: close one", 60)
            table.subscribers.add(subscriber)

    def unsubscribe(self, table: SeatTable, subscriber: Subscriber) -> None:
        with table.subscribers_lock:
            table.subscribers.discard(subscriber)


def _row_of(table: SeatTable) -> GameRow:
    return GameRow(table.id, table.kinds, table.names, table.seed, table.think, "playing", None, table.rematch,
                   table.game_kind)


def rebuilt(row: GameRow, actions: list[str]) -> Table:
    """A Ginny-O table dealt from ``row``'s seed with ``actions`` applied in order."""
    game = Game.deal(len(row.seats), row.seed)
    table = Table(row.id, row.seats, row.names, row.seed, row.think, game=game, rematch=row.rematch)
    game.begin_turn()
    for number, text in enumerate(actions, 1):
        try:
            table.apply(parse_action(game.position(), text))
        except GinnyoError as error:
            raise RuntimeError(f"game {row.id}: stored action {number} ({text!r}) no longer replays: {error}") from None
    return table


__all__ = ["Tables", "SeatTable", "Table", "Rebuild", "GINNYO", "rebuilt", "Subscriber", "SEAT_KINDS", "token_hash",
           "json_text", "view_message",
           "well_formed_token", "MAX_SEED"]
