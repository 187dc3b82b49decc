"""The routes of ``ginnyo serve``: the pages, the JSON API of docs/WEB.md and the event sockets.

Handlers read and check the request (:mod:`.requests`), then hand the work to
the live tables (:mod:`..live.registry`) in a worker thread; every refusal, the request's own
(:class:`~.errors.WebError`) or the tables' (:class:`~ginnyo.errors.TableRefusal`, its status from
:mod:`.errors`), is answered as ``{"error": "one line"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import mimetypes
import time
from collections import Counter
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ...errors import MoveAlreadyStored, StoreUnavailable, TableRefusal
from . import requests as fields
from .requests import DEFAULT_THINK, MAX_ACTION, MAX_NAME, MAX_THINK
from .errors import (HTTP_CODES, INTERNAL_CODE, REFUSED_CODE, BadRequest, WebError, class_code, refusal_json,
                     retry_after_of, status_of)
from .guard import Guard
from ..games.kinds import GAME_KINDS, GameKind
from .limits import (ACCOUNTS, ACCOUNTS_PER_MINUTE, ANALYSES, ANALYSES_PER_MINUTE, ANSWERS, ANSWERS_PER_MINUTE,
                     EXPIRE_DAYS, GAMES, GAMES_PER_MINUTE, MAX_GAMES, PREVIEWS, PREVIEWS_PER_MINUTE, SEEK_JOINS,
                     SEEK_JOINS_PER_MINUTE, SIMULATIONS, SIMULATIONS_PER_CLIENT, SIMULATIONS_PER_MINUTE, RateLimiter,
                     limited)
from .openapi import openapi_document
from .pages import page_response
from .sockets import WATCHING, auth_token, one_client_bounded, pump
from ..store import GINNYO, SYNC_MODES, Store
from ..games.ginnyo import PlayerMaker
from ..games.rebuilds import rebuilders
from ..live.broker import open_broker
from ..live.feed import Subscriber, json_text, presence_of, put_first, view_message
from ..live.leases import SharedLeases
from ..live.peers import Peers
from ..live.registry import Tables
from ..store.rows import MAX_SEED
from ..live.seats import WATCHER, created_answer
from ..live.table import HUMAN
from . import analysis
from .analysis import WinChances
from . import review  # the analysis board and the game review (issue 28)
from . import puzzles   # the puzzle page and its API (issue 45)
from . import accounts   # the club's accounts (issue 44)
from . import clocks   # clocks, resigning, aborting (issue 44 items 3-4, issue 42)
from . import club   # the club's seeks, lobby and ratings (issue 44)
from . import chat   # the tables' chat (issue 44 item 4)

STATIC = Path(__file__).parent.parent / "static"
SWEEP_SECONDS = 3600.0      # how often the games in memory are looked over for those to let go
RETRY_AFTER = 10            # seconds a client is asked to wait after a 503 (the server's disk is full)
WS_CLOSE = {401: 4401, 403: 4403, 404: 4404, 429: 4429}
mimetypes.add_type("text/javascript", ".js")   # ES modules need a JavaScript type


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


# -- pages ------------------------------------------------------------------------------

async def lobby(request: Request) -> Response:
    """The lobby: make a game."""
    return page_response("index", request)


async def table_page(request: Request) -> Response:
    """The table of a game, its game kind's page (the seat's token in the URL's fragment)."""
    table = _tables(request).find(request.path_params["game_id"])
    return page_response(GAME_KINDS[table.game_kind if table else GINNYO].page, request)


async def rules(request: Request) -> Response:
    """The rules of Ginny-O for players, in the language asked for (``?lang=``) or negotiated."""
    return page_response("rules", request)


async def health(request: Request) -> Response:
    """Whether the server answers: {"ok": true}."""
    return JSONResponse({"ok": True})


async def openapi(request: Request) -> Response:
    """This API as an OpenAPI 3 document (docs/WEB.md says the rest)."""
    return JSONResponse(openapi_document(request.app.routes))


# -- the API ----------------------------------------------------------------------------

async def create_game(request: Request) -> Response:
    """Make a game: {"game", "seats": [...], "seed", "names", "think", "clock", "watchable"}; 201 with each
    person's token."""
    limited(request, GAMES)
    body = await fields.json_body(request)
    fields.only_fields(body, ("game", "seats", "seed", "names", "think", "clock", "watchable"))
    game = _game_kind(body.get("game", GINNYO))
    kinds = _seat_kinds(body.get("seats"), game)
    names = _names(body.get("names"), kinds)
    seed = fields.whole_number(body, "seed", 0, MAX_SEED - 1)
    think = fields.seconds(body, "think", DEFAULT_THINK, 0, MAX_THINK)
    clock = clocks.read_clock(body.get("clock"))
    watchable = body.get("watchable", False)
    if not isinstance(watchable, bool):
        raise BadRequest("field 'watchable': must be true or false")
    tables = _tables(request)
    table, tokens = await run_in_threadpool(tables.create, kinds, names, seed, think, None, None, game.name, clock,
                                            watchable)
    return JSONResponse(created_answer(table, tokens), status_code=201)


def _game_kind(value: object) -> GameKind:
    if not isinstance(value, str) or value not in GAME_KINDS:
        raise BadRequest(f"field 'game': must be one of {', '.join(GAME_KINDS)}")
    return GAME_KINDS[value]


def _seat_kinds(value: object, game: GameKind) -> list[str]:
    known = game.seat_kinds
    if not isinstance(value, list):
        raise BadRequest(f"field 'seats': must be a list of seat kinds ({', '.join(known)})")
    try:
        game.check_players(len(value))   # the rules' own player count (RULES §1, §7)
    except ValueError as error:
        raise BadRequest(f"field 'seats': {error}") from None
    for seat, kind in enumerate(value):
        if kind not in known or not isinstance(kind, str):
            shown = kind if isinstance(kind, str) and len(kind) <= 20 else type(kind).__name__
            raise BadRequest(f"field 'seats': seat {seat} is {shown!r}, not a seat kind ({', '.join(known)})")
    return list(value)


def _names(value: object, kinds: list[str]) -> list[str]:
    default = [f"Player {seat + 1}" if kind == HUMAN else kind for seat, kind in enumerate(kinds)]
    if value is None:
        return default
    if not isinstance(value, list) or len(value) != len(kinds):
        raise BadRequest(f"field 'names': must be a list of {len(kinds)} names, one a seat")
    names = []
    for seat, name in enumerate(value):
        if not isinstance(name, str):
            raise BadRequest(f"field 'names': seat {seat}'s name must be a string")
        name = " ".join(name.split())
        if len(name) > MAX_NAME or not name.isprintable():
            raise BadRequest(f"field 'names': seat {seat}'s name must be printable, at most {MAX_NAME} characters")
        names.append(name or default[seat])
    return names


async def _seat(request: Request) -> tuple[Tables, Any, int, str]:
    """The tables, the game of the path and the seat the bearer token holds in it."""
    tables = _tables(request)
    table = tables.get(request.path_params["game_id"])
    token = fields.bearer_token(request)
    seat = tables.seat_of(table, token)
    assert token is not None
    return tables, table, seat, token


async def game_view(request: Request) -> Response:
    """The seat's view: its position (docs/FORMAT.md) and the game's state; with no credential at all, a
    watcher's view of a game open to watchers (403 for another)."""
    if "authorization" not in request.headers:
        tables = _tables(request)
        table = tables.get(request.path_params["game_id"])
        tables.watching(table)
        return _json_answer(await _view(tables, table, WATCHER, ""))
    tables, table, seat, token = await _seat(request)
    return _json_answer(await _view(tables, table, seat, token))


async def _view(tables: Tables, table: Any, seat: int, token: str) -> str:
    """The seat's view (JSON text): its rematch seat registered first (once there is a rematch), then
    the view kept since the game last changed, else one made in a worker thread."""
    if table.rematch is not None:
        await run_in_threadpool(tables.register_rematch_seat, table, seat, token)
    view = tables.kept_view(table, seat, token)
    return view if view is not None else await run_in_threadpool(tables.view, table, seat, token)


def _json_answer(text: str) -> Response:
    """An answer of JSON text already made (a seat's view is encoded once, where it is made)."""
    return Response(text, media_type="application/json")


async def game_preview(request: Request) -> Response:
    """Judge a choice for the seat to move: Ginny-O placements (legality, the reason, the score meld by
    meld, joker options); Crazy Rummy cards (the melds, lay-offs and swaps they make) or a hint."""
    tables, table, seat, token = await _seat(request)
    limited(request, PREVIEWS)
    body = await fields.json_body(request)
    return JSONResponse(await run_in_threadpool(tables.preview, table, seat, body))


async def game_action(request: Request) -> Response:
    """Make the seat's move: {"action": "<notation> | return <tiles> | pass" (Crazy Rummy: a step
    object or a list of them), "version"}; the new view."""
    tables, table, seat, token = await _seat(request)
    body = await fields.json_body(request)
    fields.only_fields(body, ("action", "version"))
    action = body["action"] if isinstance(body.get("action"), (dict, list)) else fields.text(body, "action", MAX_ACTION)
    version = fields.whole_number(body, "version", 0, 1 << 31)
    return _json_answer(await run_in_threadpool(tables.act, table, seat, token, action, version))


async def game_rematch(request: Request) -> Response:
    """The rematch of a finished game (made by the first to ask): the caller's seat in it; 201."""
    tables, table, seat, token = await _seat(request)
    limited(request, GAMES)
    fields.only_fields(await fields.json_body(request, empty_ok=True), ())
    return JSONResponse(await run_in_threadpool(tables.rematch, table, seat, token), status_code=201)


async def game_record(request: Request) -> Response:
    """The finished game's record (JSON lines, as ginnyo replay reads it); 409 before the end."""
    tables, table, seat, token = await _seat(request)
    text = await run_in_threadpool(tables.record, table, seat)
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="ginnyo-{table.id}.jsonl"'})


async def game_events(websocket: WebSocket) -> None:
    """The seat's views, one message each change, the first once the seat's token has come in the
    socket's first message, ``{"type": "auth", "token": TOKEN}`` (never in its URL, which logs keep); a
    watcher's views after ``{"type": "watch"}`` (a game open to watchers); and the chat's messages the
    socket's reader may read (:mod:`..live.chat`)."""
    await websocket.accept()
    tables = _tables(websocket)
    try:
        if "token" in websocket.query_params:
            raise BadRequest("the token goes in the socket's first message, {\"type\": \"auth\", \"token\": ...}, "
                             "not in its URL")
        table = tables.get(websocket.path_params["game_id"])
        token = await auth_token(websocket)
        if token is None:
            return
        if token == WATCHING:
            tables.watching(table)
            seat = WATCHER
        else:
            seat = tables.seat_of(table, token)
        subscriber = Subscriber(seat, token, asyncio.get_running_loop(), asyncio.Queue())
        tables.subscribe(table, subscriber)
        websocket.app.state.peers.sockets_changed(table)   # the other processes' sockets see it connected
    except (WebError, TableRefusal) as error:
        await websocket.send_text(json_text({"type": "error", **refusal_json(error)}))
        await websocket.close(code=WS_CLOSE.get(status_of(error), 4400))
        return
    try:
        put_first(subscriber, view_message(await _view(tables, table, seat, token), presence_of(table)))
        await pump(websocket, subscriber.queue)
    finally:
        tables.unsubscribe(table, subscriber)
        websocket.app.state.peers.sockets_changed(table)


async def _sweep(tables: Tables, every: float) -> None:
    """Let go of the games in play untouched too long (:meth:`..live.registry.Tables.sweep`), every ``every`` seconds."""
    while True:
        await asyncio.sleep(every)
        await run_in_threadpool(tables.sweep)


# -- errors -----------------------------------------------------------------------------

async def web_error(request: Request, error: Exception) -> Response:
    """A refusal, the request's own or the tables': its status (:func:`.errors.status_of`), one line."""
    assert isinstance(error, (WebError, TableRefusal))
    retry_after = retry_after_of(error)
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return JSONResponse(refusal_json(error), status_code=status_of(error), headers=headers)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)   # its headers too: a 405's Allow (RFC 9110 §15.5.6)
    answer = {"error": str(error.detail), "code": HTTP_CODES.get(error.status_code, REFUSED_CODE), "args": {}}
    return JSONResponse(answer, status_code=error.status_code, headers=error.headers)


async def store_unavailable(request: Request, error: Exception) -> Response:
    """A write the store could not make for now (a full disk): 503, one line; nothing was saved."""
    return JSONResponse({"error": str(error), "code": class_code(StoreUnavailable), "args": {"retry_after": RETRY_AFTER}},
                        status_code=503, headers={"Retry-After": str(RETRY_AFTER)})


async def move_already_stored(request: Request, error: Exception) -> Response:
    """A move another process stored first (the game's version moved on): 409, one line; nothing was saved."""
    return JSONResponse({"error": str(error), "code": class_code(MoveAlreadyStored), "args": {}}, status_code=409)


async def internal_error(request: Request, error: Exception) -> Response:
    """A failure of the server itself: 500, one line, never a traceback."""
    return JSONResponse({"error": f"internal error: {type(error).__name__}", "code": INTERNAL_CODE, "args": {}},
                        status_code=500)


def create_app(data_dir: str | Path, warn: Callable[[str], None] = logging.getLogger(__name__).warning,
               sync: str = SYNC_MODES[0], *, players: PlayerMaker, win_chances: WinChances,
               games_per_minute: int = GAMES_PER_MINUTE,
               simulations_per_minute: int = SIMULATIONS_PER_MINUTE, previews_per_minute: int = PREVIEWS_PER_MINUTE,
               analyses_per_minute: int = ANALYSES_PER_MINUTE, simulations_per_address: int = SIMULATIONS_PER_CLIENT,
               seek_joins_per_minute: int = SEEK_JOINS_PER_MINUTE, max_games: int = MAX_GAMES,
               expire_days: float = EXPIRE_DAYS, allowed_hosts: Iterable[str] = (), port: int | None = None,
               database: str | None = None, broker: str | None = None,
               now: Callable[[], float] | None = None) -> Starlette:
    """The web app of the games in ``data_dir`` (its SQLite file, made if need be, committed
    with ``sync``: :data:`.store.SYNC_MODES`); ``warn`` hears of a stored game left out
    because it no longer replays.  What it asks of the engine is handed in (``ginnyo serve``'s
    :func:`ginnyo.commands.serve.web_app` is the composition root): ``players`` makes the Ginny-O bots,
    ``win_chances`` the analysis board's win probabilities.  The limits (docs/WEB.md, "Limits"; 0: none): games,
    simulations, previews and analyses a client a minute, simulations an address holds at once, seeks joined or
    withdrawn a client a minute, games in play in memory, days a game in play stays in memory untouched.
    It answers requests addressed to the loopback names on ``port`` (any port if None) and to
    ``allowed_hosts`` (``NAME`` or ``NAME:PORT``), writes from no other site (:mod:`.guard`).
    With ``database`` (a PostgreSQL URL) the games are kept there instead of in ``data_dir``; with ``broker``
    (a Redis URL) other processes on the same database hear of its moves and it of theirs, and the
    games' bots are moved by the process holding their leases (:mod:`..live.broker`, :mod:`..live.leases`)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(data_dir, sync, database=database)
        expire_seconds = expire_days * 86400 if expire_days > 0 else None
        events = open_broker(broker, warn)
        leases = None if broker is None else SharedLeases(store, warn)
        tables = Tables(store, rebuilders(players), max_games=max_games, expire_seconds=expire_seconds, broker=events,
                        leases=leases, now=now or time.time)   # now: the clocks' time (a test's own)
        app.state.lobby = club.new_lobby(tables)
        app.state.peers = peers = Peers(events, app.state.lobby, tables.tables, warn)   # the club's live state
        await events.start(tables.changed, peers.heard)   # before loading: a move made meanwhile is caught up below
        await run_in_threadpool(tables.load, warn)
        if broker is not None:
            tables.changed(None, 0, None)
            await peers.start()
        tables.leases.start(tables.retake)
        app.state.tables = tables
        app.state.win_chances = win_chances   # the analysis board's (http/analysis.py)
        rater = club.Rater(tables, app.state.lobby)
        tables.on_finished = rater.heard
        rater.recover()   # the rated games that ended while no process was left to rate them
        app.state.sockets_by_client = Counter()   # the sockets open, by client address (.sockets)
        app.state.simulations_per_address = simulations_per_address   # (.analysis)
        app.state.limiters = {GAMES: RateLimiter(games_per_minute, "games"),
                              SIMULATIONS: RateLimiter(simulations_per_minute, "simulations"),
                              ACCOUNTS: RateLimiter(ACCOUNTS_PER_MINUTE, "new accounts"),
                              PREVIEWS: RateLimiter(previews_per_minute, "previews"),
                              ANALYSES: RateLimiter(analyses_per_minute, "analyses"),
                              ANSWERS: RateLimiter(ANSWERS_PER_MINUTE, "puzzle answers"),
                              SEEK_JOINS: RateLimiter(seek_joins_per_minute, "seeks joined or withdrawn")}
        sweeping = asyncio.create_task(_sweep(tables, min(SWEEP_SECONDS, (expire_seconds or SWEEP_SECONDS) / 2)))
        try:
            yield
        finally:
            sweeping.cancel()
            await peers.close()
            tables.close()
            rater.close()
            await events.close()
            store.close()

    routes = [
        Route("/", lobby),
        Route("/play/{game_id}", table_page),
        Route("/rules", rules),
        Route("/api/health", health),
        Route("/api/openapi.json", openapi),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", game_view),
        Route("/api/games/{game_id}/preview", game_preview, methods=["POST"]),
        Route("/api/games/{game_id}/actions", game_action, methods=["POST"]),
        Route("/api/games/{game_id}/rematch", game_rematch, methods=["POST"]),
        Route("/api/games/{game_id}/record", game_record),
        WebSocketRoute("/api/games/{game_id}/events", one_client_bounded(game_events)),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ] + analysis.routes + review.routes + puzzles.routes + accounts.routes + clocks.routes + club.routes + chat.routes
    handlers: dict[Any, Any] = {WebError: web_error, TableRefusal: web_error, HTTPException: http_error,
                                StoreUnavailable: store_unavailable, MoveAlreadyStored: move_already_stored,
                                Exception: internal_error}
    guard = Middleware(Guard, allowed_hosts=tuple(allowed_hosts), port=port)
    return Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan, middleware=[guard])


__all__ = ["create_app", "STATIC"]
