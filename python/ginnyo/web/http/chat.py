"""The tables' chat over HTTP (docs/CLUB.md "Watching and chat"): a message written, the last ones read.
The rooms and their bounds are :mod:`..live.chat`'s; here the sender is read from the request: a seat's
token (``Authorization: Bearer``) writes as that seat in the players' room, and so does a signed-in account
seated in the game (a seek's) with no token; any other signed-in account as a watcher in the watchers'
room (the game open to watchers)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import requests as fields
from .accounts import SESSION_COOKIE, SignedIn, signed_in
from .errors import BadRequest, Unauthorized
from ..live.chat import ROOMS, Chats, Sender
from ..live.registry import Tables
from ..live.seats import WATCHER
from ..live.table import SeatTable


def _tables(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _chats(request: Request) -> Chats:
    """The app's chat (made at its first message)."""
    chats = getattr(request.app.state, "chats", None)
    if chats is None:
        tables = _tables(request)
        chats = request.app.state.chats = Chats(tables.store, broker=tables.broker)
    assert isinstance(chats, Chats)
    return chats


async def _account_seat(tables: Tables, table: SeatTable, account: SignedIn) -> int | None:
    """The seat ``account`` holds in ``table`` (a seek's game), None when it holds none."""
    return await run_in_threadpool(tables.store.account_seat, table.id, account.id)


async def _reader(request: Request, tables: Tables, table: SeatTable) -> int:
    """The seat of the request's token, else of its signed-in account seated in the game, else
    :data:`WATCHER` (the game open to watchers)."""
    if "authorization" in request.headers:
        return tables.seat_of(table, fields.bearer_token(request))
    if SESSION_COOKIE in request.cookies:
        try:
            seat = await _account_seat(tables, table, await signed_in(request))
        except Unauthorized:   # a session that expired reads as a watcher, as no session does
            seat = None
        if seat is not None:
            return seat
    tables.watching(table)
    return WATCHER


def _seat_sender(table: SeatTable, seat: int) -> Sender:
    return Sender(table.names[seat], f"seat:{table.id}:{seat}", seat)


async def _sender(request: Request, tables: Tables, table: SeatTable) -> Sender:
    """Who writes: the seat of the request's token, else the signed-in account -- as its seat when it
    holds one in the game, else as a watcher (401 when no one is signed in)."""
    if "authorization" in request.headers:
        return _seat_sender(table, tables.seat_of(table, fields.bearer_token(request)))
    account = None
    if SESSION_COOKIE in request.cookies:
        account = await signed_in(request, write=True)
        held = await _account_seat(tables, table, account)
        if held is not None:
            return _seat_sender(table, held)
    tables.watching(table)
    account = account or await signed_in(request, write=True)
    return Sender(account.name, f"account:{account.id}", None)


async def chat_post(request: Request) -> Response:
    """Write in the game's chat: {"text", "room"} (the room: the sender's own, "players" for a seat,
    "watchers" for a watcher); 201 with the message."""
    tables = _tables(request)
    table = tables.get(request.path_params["game_id"])
    body = await fields.json_body(request)
    fields.only_fields(body, ("text", "room"))
    sender = await _sender(request, tables, table)
    room = body.get("room", sender.room)
    if room not in ROOMS:
        raise BadRequest(f"field 'room': must be one of {', '.join(ROOMS)}")
    message = await run_in_threadpool(_chats(request).post, table, sender, room, body.get("text"))
    return JSONResponse(message, status_code=201)


async def chat_read(request: Request) -> Response:
    """The last messages of the rooms the caller reads: {"messages": [...]}, oldest first."""
    tables = _tables(request)
    table = tables.get(request.path_params["game_id"])
    seat = await _reader(request, tables, table)
    return JSONResponse({"messages": await run_in_threadpool(_chats(request).read, table, seat)})


async def chat(request: Request) -> Response:
    """The chat's one route (so that a 405 names both methods in its ``Allow``)."""
    return await (chat_post(request) if request.method == "POST" else chat_read(request))


routes = [Route("/api/games/{game_id}/chat", chat, methods=["GET", "POST"])]

__all__ = ["routes"]
