"""A socket's two directions while it lives: the messages of its queue sent, what the page sends read
and let go, until either side ends (the game's events and the lobby's alike)."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket, WebSocketDisconnect


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


__all__ = ["pump"]
