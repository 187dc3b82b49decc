"""A socket's first message, the credential it brings; and its two directions while it lives: the
messages of its queue sent, what the page sends read and let go, until either side ends (the game's
events and the lobby's alike)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections import Counter
from typing import Awaitable, Callable, Iterator

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect

from .errors import TooManyRequests, Unauthorized, refusal_json

WATCHING = ""               # what a socket's first message {"type": "watch"} gives instead of a token
AUTH_SECONDS = 5.0          # how long an events socket may stay open without its auth message
SOCKETS_PER_CLIENT = 64     # sockets and event streams one address holds open at once: a person's tabs
RETRY_SOCKETS = 60          # seconds a client past it is asked to wait


def room_for(connection: HTTPConnection) -> None:
    """:class:`TooManyRequests` when the connection's address holds :data:`SOCKETS_PER_CLIENT` sockets and
    event streams open already, so that one stranger cannot take every connection the server has room for."""
    held: Counter[str] = connection.app.state.sockets_by_client
    if held[connection.client.host if connection.client is not None else ""] >= SOCKETS_PER_CLIENT:
        raise TooManyRequests(f"this address has {SOCKETS_PER_CLIENT} sockets open, the most: close one", RETRY_SOCKETS)


@contextlib.contextmanager
def held_open(connection: HTTPConnection) -> Iterator[None]:
    """The connection counted among its address's open ones while the block runs.  The count is the
    process's, kept on the event loop (no lock)."""
    held: Counter[str] = connection.app.state.sockets_by_client
    client = connection.client.host if connection.client is not None else ""
    held[client] += 1
    try:
        yield
    finally:
        held[client] -= 1
        if not held[client]:
            del held[client]


def one_client_bounded(handler: Callable[[WebSocket], Awaitable[None]]) -> Callable[[WebSocket], Awaitable[None]]:
    """``handler`` refusing (closed 4429) a socket past its address's :func:`room_for`, so that one
    stranger cannot take every socket a game or the lobby has room for."""
    @functools.wraps(handler)
    async def bounded(websocket: WebSocket) -> None:
        try:
            room_for(websocket)
        except TooManyRequests as refusal:
            await websocket.accept()
            await websocket.send_text(json.dumps({"type": "error", **refusal_json(refusal)}))
            await websocket.close(code=4429)
            return
        with held_open(websocket):
            await handler(websocket)
    return bounded


async def pump(websocket: WebSocket, queue: asyncio.Queue[str]) -> None:
    """Send ``queue``'s messages until the socket closes (what the page sends is not read)."""
    async def send() -> None:
        while True:
            await websocket.send_text(await queue.get())

    async def receive() -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                if (await websocket.receive())["type"] == "websocket.disconnect":
                    return

    tasks = [asyncio.create_task(send()), asyncio.create_task(receive())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


__all__ = ["pump", "one_client_bounded", "room_for", "held_open", "SOCKETS_PER_CLIENT"]


async def auth_token(websocket: WebSocket) -> str | None:
    """The token of the socket's first message (None: the client left first; :data:`WATCHING` for
    ``{"type": "watch"}``); 401 when it does not come within :data:`AUTH_SECONDS` or is no
    ``{"type": "auth", "token": "..."}``."""
    try:
        message = await asyncio.wait_for(websocket.receive(), AUTH_SECONDS)
    except asyncio.TimeoutError:
        raise Unauthorized(f"no auth message within {AUTH_SECONDS:g} s") from None
    if message["type"] == "websocket.disconnect":
        return None
    try:
        sent = json.loads(message.get("text") or "")
    except (ValueError, RecursionError):   # not JSON, a number of more digits than Python reads, too deep
        sent = None
    if isinstance(sent, dict) and sent.get("type") == "watch":
        return WATCHING
    token = sent.get("token") if isinstance(sent, dict) and sent.get("type") == "auth" else None
    if not isinstance(token, str) or token == WATCHING:
        raise Unauthorized('the first message must be {"type": "auth", "token": TOKEN}')
    return token
