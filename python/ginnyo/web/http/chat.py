"""The tables' chat over HTTP (docs/CLUB.md "Watching and chat"): a message written, the last ones read.
The rooms and their bounds are :mod:`..live.chat`'s; here the sender is read from the request: a seat's
token (``Authorization: Bearer``) writes as that seat in the players' room, a signed-in account with no
token as a watcher in the watchers' room (the game open to watchers)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import requests as fields
from .accounts import signed_in
from .errors import BadRequest
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


def _reader(request: Request, tables: Tables, table: SeatTable) -> int:
    """The seat of the request's token, or :data:`WATCHER` when it carries none (the game open to watchers)."""
    if "authorization" in request.headers:
        return tables.seat_of(table, fields.bearer_token(request))
    tables.watching(table)
    return WATCHER


async def _sender(request: Request, tables: Tables, table: SeatTable) -> Sender:
    """Who writes: the seat of the request's token, else the signed-in watcher (401 when no one is)."""
    seat = _reader(request, tables, table)
    if seat != WATCHER:
        return Sender(table.names[seat], f"seat:{table.id}:{seat}", seat)
    account = await signed_in(request, write=True)
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
    seat = _reader(request, tables, table)
    return JSONResponse({"messages": await run_in_threadpool(_chats(request).read, table, seat)})


async def chat(request: Request) -> Response:
    """The chat's one route (so that a 405 names both methods in its ``Allow``)."""
    return await (chat_post(request) if request.method == "POST" else chat_read(request))


routes = [Route("/api/games/{game_id}/chat", chat, methods=["GET", "POST"])]

__all__ = ["routes"]
