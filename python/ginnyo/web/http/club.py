"""The club's games over HTTP (docs/CLUB.md, "Seeks and the lobby", "Ratings"): seeks made, listed,
joined and withdrawn; a seated account's seat token; the lobby's socket; the players' ratings, their
history and the leaderboard; the player page.

A seek is a game asked for by a signed-in account: its kind, its seats, its clock, rated or not, and
bot levels for some seats.  When its last seat is taken the game is made (:meth:`Tables.create`), each
account seated in its turn (the maker first), and the join's answer carries the joiner's seat token;
every seated account gets its own from ``POST /api/seeks/{id}/seat`` (a new token of its seat each time,
stored hashed as every token is).  The end of a rated game is rated in a worker thread
(:class:`Rater`), once; one that ended while its process stopped is rated at the next start."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from ...accounts.rules import name_key
from ...accounts.sessions import token_hash
from ...errors import StoreError, TableRefusal
from ...game.clock import INCREMENT_BOUNDS, INITIAL_BOUNDS, ClockSettings
from ...ratings.games import BOT_PREFIX, Standing, bot_player
from . import requests as fields
from .accounts import SESSION_COOKIE, SignedIn, signed_in
from .errors import BadRequest, NotFound, refusal_json, status_of
from .limits import GAMES, SEEK_JOINS, limited
from .pages import page_response
from .sockets import one_client_bounded, pump
from .requests import DEFAULT_THINK
from ..games.kinds import CLUB_KINDS, CLUB_NAMES, GAME_KINDS
from ..live.lobby import Lobby, Watcher
from ..live.registry import Tables
from ..live.seats import seat_url
from ..live.table import HUMAN, SeatTable
from ..store import Store
from ..store.club import OPEN, SeekRow

SEEK_ID_BYTES = 9            # 12 url-safe characters
DEFAULT_CLOCK = (600.0, 5.0)   # a seek's clock when it names none: 10 minutes and 5 s a turn
LOBBY_SEEKS = 100            # open seeks listed (the oldest first)
LOBBY_PLAYING = 50           # games being played listed (the latest first)
HISTORY_GAMES = 100          # a player's rated games listed (the latest first)
RECOVERED_MAX = 1000         # unrated finished games rated at a start (the next start rates more)
LEADERBOARD_MAX = 100        # players on the leaderboard


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _lobby(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


# -- the lobby's state, and its changes ----------------------------------------------------------

def seek_entry(seek: SeekRow) -> dict[str, Any]:
    """A seek as the API shows it."""
    return {"id": seek.id, "game": seek.game_kind, "players": seek.players,
            "clock": {"initial": seek.clock[0], "increment": seek.clock[1]}, "rated": seek.rated,
            "bots": list(seek.bots), "seated": list(seek.names), "maker": seek.names[0] if seek.names else None,
            "status": seek.status, "full": seek.full, "game_id": seek.game, "created": seek.created}


def lobby_state(tables: Tables, lobby: Lobby) -> dict[str, Any]:
    """The lobby: the open seeks, who is online and the games of seeks being played (as stored: whichever
    process serves them)."""
    online = lobby.online()
    playing = [{"id": seek.game, "game": seek.game_kind, "players": list(seek.names) + list(seek.bots),
                "clock": {"initial": seek.clock[0], "increment": seek.clock[1]}, "rated": seek.rated}
               for seek in tables.store.playing_seeks(LOBBY_PLAYING)]
    return {"seeks": [seek_entry(seek) for seek in tables.store.open_seeks(LOBBY_SEEKS)],
            "online": {"count": len(online), "names": online}, "playing": playing}


def new_lobby(tables: Tables) -> Lobby:
    return Lobby(lambda lobby: lobby_state(tables, lobby))


async def _changed(request: Request) -> None:
    await run_in_threadpool(_lobby(request).changed)


# -- seeks -------------------------------------------------------------------------------------------

def _clock(value: object) -> tuple[float, float]:
    if value is None:
        return DEFAULT_CLOCK
    if not isinstance(value, dict):
        raise BadRequest("field 'clock': must be an object {\"initial\": SECONDS, \"increment\": SECONDS}")
    fields.only_fields(value, ("initial", "increment"))
    initial = fields.whole_number(value, "initial", *INITIAL_BOUNDS)   # the game's own bounds (game/clock.py)
    increment = fields.whole_number(value, "increment", *INCREMENT_BOUNDS)
    if initial is None or increment is None:
        raise BadRequest("field 'clock': needs both 'initial' and 'increment' (seconds)")
    return float(initial), float(increment)


def read_seek(body: dict[str, Any], maker: SignedIn) -> SeekRow:
    """The seek a body asks for (each refusal a 400 naming its field)."""
    fields.only_fields(body, ("game", "players", "clock", "rated", "bots"))
    game = body.get("game", "ginnyo")
    if not isinstance(game, str) or game not in CLUB_KINDS:
        raise BadRequest(f"field 'game': must be one of {', '.join(CLUB_KINDS)}")
    kind = GAME_KINDS[CLUB_KINDS[game]]
    players = fields.whole_number(body, "players", 2, 6)
    if players is None:
        raise BadRequest("field 'players': needed, a whole number of seats (bots included)")
    try:
        kind.check_players(players)
    except ValueError as error:
        raise BadRequest(f"field 'players': {error}") from None
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise BadRequest("field 'rated': must be true or false")
    bots = body.get("bots", [])
    bot_kinds = [seat_kind for seat_kind in kind.seat_kinds if seat_kind != HUMAN]
    if not isinstance(bots, list) or not all(isinstance(bot, str) and bot in bot_kinds for bot in bots):
        raise BadRequest(f"field 'bots': must be a list of bot kinds ({', '.join(bot_kinds)})")
    if len(bots) >= players:
        raise BadRequest(f"field 'bots': at most {players - 1} bots in a seek of {players} seats")
    if rated and len(set(bots)) != len(bots):
        raise BadRequest("field 'bots': a rated seek names each bot kind once (each is one rated player)")
    clock = _clock(body.get("clock"))
    return SeekRow(secrets.token_urlsafe(SEEK_ID_BYTES), maker.id, game, players, clock, rated, tuple(bots),
                   (maker.id,), OPEN, None, time.time())


def start_game(tables: Tables, seek: SeekRow) -> SeatTable:
    """The game of the full ``seek``: its accounts seated in order, then its bots (in a worker thread); open
    to watchers, as every game of the club is (docs/CLUB.md, "Watching and chat")."""
    kinds = [HUMAN] * len(seek.seated) + list(seek.bots)
    names = list(seek.names) + list(seek.bots)
    game = CLUB_KINDS[seek.game_kind]
    clock = ClockSettings(int(seek.clock[0]), int(seek.clock[1]))
    table, _ = tables.create(kinds, names, None, DEFAULT_THINK, None, None, game, clock, watchable=True)
    tables.store.start_seek(seek, table.id, seek.game_kind if seek.rated else None)
    return table


def seat_answer(tables: Tables, table: SeatTable, seat: int) -> dict[str, Any]:
    """A new token of ``seat`` in ``table``, with its page's link (a worker thread's work: it writes)."""
    token = tables.add_seat_token(table, seat)
    return {"id": table.id, "seat": seat, "token": token, "url": seat_url(table.id, seat, token)}


async def create_seek(request: Request) -> Response:
    """Ask for a game: {"game", "players", "clock", "rated", "bots"}; 201 with the seek (and, when bots
    fill it at once, the game and the maker's seat)."""
    account = await signed_in(request, write=True)
    limited(request, GAMES)   # a seek is a game asked for (one that bots fill is made at once)
    seek = read_seek(await fields.json_body(request), account)
    tables = _tables(request)
    seek = await run_in_threadpool(tables.store.create_seek, seek)
    answer = seek_entry(seek)
    if seek.full:   # a bot game: played at once
        table = await run_in_threadpool(start_game, tables, seek)
        answer.update(status="started", game_id=table.id, seat=await run_in_threadpool(seat_answer, tables, table, 0))
    await _changed(request)
    return JSONResponse(answer, status_code=201)


async def seeks_endpoint(request: Request) -> Response:
    """``/api/seeks``: GET lists the open seeks, POST makes one."""
    return await (create_seek(request) if request.method == "POST" else list_seeks(request))


async def list_seeks(request: Request) -> Response:
    """The open seeks, the oldest first."""
    seeks = await run_in_threadpool(_tables(request).store.open_seeks, LOBBY_SEEKS)
    return JSONResponse({"seeks": [seek_entry(seek) for seek in seeks]})


async def join_seek(request: Request) -> Response:
    """Take a seat in a seek: the seek; once full, its game and the joiner's seat (409 when it takes no one)."""
    account = await signed_in(request, write=True)
    limited(request, SEEK_JOINS)
    fields.only_fields(await fields.json_body(request, empty_ok=True), ())
    tables = _tables(request)
    seek = await run_in_threadpool(tables.store.join_seek, request.path_params["seek_id"], account.id)
    answer = seek_entry(seek)
    if seek.full:
        table = await run_in_threadpool(start_game, tables, seek)
        answer.update(status="started", game_id=table.id,
                      seat=await run_in_threadpool(seat_answer, tables, table, len(seek.seated) - 1))
    await _changed(request)
    return JSONResponse(answer)


async def cancel_seek(request: Request) -> Response:
    """Withdraw an open seek (its maker alone: 403 for another's); 204."""
    account = await signed_in(request, write=True)
    limited(request, SEEK_JOINS)   # counted with the joins: each a store write and the lobby resent
    await run_in_threadpool(_tables(request).store.cancel_seek, request.path_params["seek_id"], account.id)
    await _changed(request)
    return Response(status_code=204)


async def my_seat(request: Request) -> Response:
    """A new token of the seat the signed-in account holds in a seek's game: {"id", "seat", "token", "url"};
    404 when the seek is unknown or its game not made yet, or the account holds no seat there."""
    account = await signed_in(request, write=True)
    fields.only_fields(await fields.json_body(request, empty_ok=True), ())
    tables = _tables(request)
    seek_id = request.path_params["seek_id"]
    seek = await run_in_threadpool(tables.store.seek, seek_id)
    if seek is None or seek.game is None:
        raise NotFound("no game of that seek" if len(seek_id) > 40 else f"no game of seek {seek_id!r} (yet)")
    table = tables.get(seek.game)
    seat = await run_in_threadpool(tables.store.account_seat, table.id, account.id)
    if seat is None:
        raise NotFound(f"you hold no seat in game {table.id}")
    return JSONResponse(await run_in_threadpool(seat_answer, tables, table, seat), status_code=201)


# -- the lobby's socket -----------------------------------------------------------------------

async def lobby_events(websocket: WebSocket) -> None:
    """The lobby, sent at once and at every change; public (a session cookie, if any, counts its
    account online).  What the page sends is not read."""
    await websocket.accept()
    lobby = _lobby(websocket)
    name = await _socket_account(websocket)
    watcher = Watcher(asyncio.get_running_loop(), asyncio.Queue(), name)
    try:
        lobby.join(watcher)
    except TableRefusal as error:
        await websocket.send_json({"type": "error", **refusal_json(error)})
        await websocket.close(code=4429 if status_of(error) == 429 else 4400)
        return
    try:
        await run_in_threadpool(lobby.changed)   # this socket's first message, and the others' new count
        await pump(websocket, watcher.queue)
    finally:
        lobby.leave(watcher)
        if name is not None:
            with contextlib.suppress(Exception):
                await run_in_threadpool(lobby.changed)


async def _socket_account(websocket: WebSocket) -> str | None:
    """The name of the account whose session cookie came with the socket, None if none does."""
    token = websocket.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    try:
        found = await run_in_threadpool(_tables(websocket).store.session, token_hash(token), time.time())
    except StoreError:
        return None
    return None if found is None else found[0].name



# -- ratings ----------------------------------------------------------------------------------------

class Rater:
    """Rates the rated games that end, one at a time, in its own worker thread (never the event loop nor
    the table's lock), and tells the lobby; :meth:`heard` is the tables' ``on_finished``; :meth:`recover`
    rates at start those whose process stopped between storing their end and rating them."""

    def __init__(self, tables: Tables, lobby: Lobby) -> None:
        self.tables, self.lobby = tables, lobby
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="ginnyo-ratings")

    def heard(self, table: SeatTable) -> None:
        ranks = table.final_ranks()
        if ranks is None:   # an aborted game has no result: not rated
            self.executor.submit(self.lobby.changed)
            return
        self.executor.submit(self.rate, table.id, table.game_kind, tuple(table.kinds), ranks)

    def recover(self) -> None:
        """Rate, in the worker thread, every rated game stored finished but not rated (the store rates each
        once, however many processes start at once)."""
        self.executor.submit(self._recover)

    def _recover(self) -> None:
        try:
            unrated = self.tables.store.unrated_games(RECOVERED_MAX)
        except Exception as error:   # a store out of reach: the next start tries again
            self.tables.warn(f"ginnyo: the unrated games were not looked for: {type(error).__name__}: {error}")
            return
        for game in unrated:
            table = self.tables.find(game)
            if table is not None and table.over:
                self.heard(table)

    def rate(self, game: str, stored_kind: str, kinds: tuple[str, ...], ranks: list[int]) -> None:
        try:
            store = self.tables.store
            kind = store.rated_kind(game)
            if kind is not None:
                names = store.seated_names(game)
                players = [names[seat] if kind_ == HUMAN and seat in names else bot_player(kind_)
                           for seat, kind_ in enumerate(kinds)]
                store.rate_finished_game(game, CLUB_NAMES.get(stored_kind, kind), players, ranks)
            self.lobby.changed()
        except Exception as error:   # a worker's failure is told, never lost in its future
            self.tables.warn(f"ginnyo: game {game} not rated: {type(error).__name__}: {error}")

    def close(self) -> None:
        self.executor.shutdown(wait=True)


def standing_entry(standing: Standing) -> dict[str, Any]:
    return {"rating": standing.rating, "provisional": standing.provisional, "games": standing.games}


def _store(request: Request) -> Store:
    return _tables(request).store


async def player(request: Request) -> Response:
    """A player's ratings (each game kind) and rated games, the latest first: an account's name or a bot's
    ``bot:KIND``; 404 for neither."""
    name = request.path_params["name"]
    store = _store(request)
    if not name.startswith(BOT_PREFIX):
        account = await run_in_threadpool(store.account, name_key(name)[:64])
        if account is None:
            raise NotFound("no such player" if len(name) > 40 else f"no player {name!r}")
        name = account.name
    # the history read first: a game's rating changes and the ratings after it are stored at once, so the
    # ratings read after it hold every game it lists (read the other way, a rating stored in between would
    # show a game in the history and no rating for it)
    history = await run_in_threadpool(store.rated_games_of, name, HISTORY_GAMES)
    standings = await run_in_threadpool(store.standings, name)
    if name.startswith(BOT_PREFIX) and not standings:
        raise NotFound("no such player" if len(name) > 40 else f"no player {name!r}")
    games = [{"id": game.game, "game": game.game_kind, "result": game.result, "rank": game.rank,
              "players": game.players, "rating_before": game.before, "rating_after": game.after,
              "rating_change": game.after - game.before, "created": game.created} for game in history]
    return JSONResponse({"name": name, "ratings": {kind: standing_entry(standing)
                                                   for kind, standing in sorted(standings.items())},
                         "games": games})


async def leaderboard(request: Request) -> Response:
    """The players of a game kind, the best rating first: ``?game=ginnyo|crazy``, ``&limit=`` (at most 100)."""
    game = request.query_params.get("game", "ginnyo")
    if game not in CLUB_KINDS:
        raise BadRequest(f"parameter 'game': must be one of {', '.join(CLUB_KINDS)}")
    limit_text = request.query_params.get("limit", str(LEADERBOARD_MAX))
    if not limit_text.isdigit() or not 1 <= int(limit_text) <= LEADERBOARD_MAX:
        raise BadRequest(f"parameter 'limit': must be a whole number from 1 to {LEADERBOARD_MAX}")
    rows = await run_in_threadpool(_store(request).leaderboard, game, int(limit_text))
    return JSONResponse({"game": game, "players": [{"name": name, **standing_entry(standing)}
                                                   for name, standing in rows]})


async def player_page(request: Request) -> Response:
    """A player's page: ratings, history and a rating chart (drawn by its script from the API)."""
    return page_response("player", request)


routes = [
    Route("/api/seeks", seeks_endpoint, methods=["GET", "POST"]),   # one route: a 405 there names both in Allow
    Route("/api/seeks/{seek_id}/join", join_seek, methods=["POST"]),
    Route("/api/seeks/{seek_id}", cancel_seek, methods=["DELETE"]),
    Route("/api/seeks/{seek_id}/seat", my_seat, methods=["POST"]),
    Route("/api/players/{name}", player),
    Route("/api/leaderboard", leaderboard),
    Route("/players/{name}", player_page),
    WebSocketRoute("/api/lobby/events", one_client_bounded(lobby_events)),
]

__all__ = ["routes", "Rater", "new_lobby", "lobby_state", "read_seek", "start_game"]
