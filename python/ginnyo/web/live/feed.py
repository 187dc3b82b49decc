"""The event feed: the sockets of a game (:class:`Subscriber`, one a tab) and the broadcast of every
seat's view to them after each change.  Every message of a game is JSON text made here."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ...errors import TooManySockets

SOCKETS_PER_GAME = 32     # a game's event sockets open at once (a person has one a tab)
WATCHERS_PER_GAME = SOCKETS_PER_GAME // 2   # of them watchers' at most: the rest kept for the seats' own tabs
RETRY_SOCKET = 60         # seconds a client is asked to wait when a game has its most sockets


def json_text(value: Any) -> str:
    """``value`` as the compact JSON text every answer and socket message of a game is sent as."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def view_message(view_text: str, presence: list[bool] | None = None) -> str:
    """The socket message carrying a seat's view (its JSON text): ``{"type": "view", "view": ...}``; a
    socket's first one says too which seats are connected (``"presence": [true, false, ...]``)."""
    more = "" if presence is None else ',"presence":' + json_text(presence)
    return '{"type":"view","view":' + view_text + more + "}"


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


class Watched(Protocol):
    """A game with sockets (a :class:`~.table.SeatTable`)."""

    kinds: tuple[str, ...]
    subscribers: set[Subscriber]
    subscribers_lock: threading.Lock
    seats_elsewhere: frozenset[int]
    watchers_elsewhere: int


def subscribe(table: Watched, subscriber: Subscriber) -> None:
    """Send ``subscriber`` the game's changes; :class:`TooManySockets` when :data:`SOCKETS_PER_GAME` are open,
    or, for a watcher, :data:`WATCHERS_PER_GAME` watchers' (strangers never shut the players out of their game)."""
    with table.subscribers_lock:
        if len(table.subscribers) >= SOCKETS_PER_GAME:
            raise TooManySockets(f"this game has {SOCKETS_PER_GAME} sockets open, the most: close one", RETRY_SOCKET,
                                 most=SOCKETS_PER_GAME)
        # a watcher's "seat" is negative (.seats.WATCHER), not imported: feed stays below seats
        if subscriber.seat < 0 and sum(other.seat < 0 for other in table.subscribers) >= WATCHERS_PER_GAME:
            raise TooManySockets(f"this game has {WATCHERS_PER_GAME} watchers' sockets open, the most: close one",
                                 RETRY_SOCKET, most=WATCHERS_PER_GAME)
        table.subscribers.add(subscriber)
    send_presence(table, besides=subscriber)   # its own comes with its first view (the events route)


def put_first(subscriber: Subscriber, message: str) -> None:
    """Put a socket's first message (its view, with who is connected) before what its game sent it while
    that view was made (a bot's move, say); those follow, in their order.  On the loop's thread, where
    the queue is filled: nothing comes between."""
    queue = subscriber.queue
    waiting = [queue.get_nowait() for _ in range(queue.qsize())]
    queue.put_nowait(message)
    for queued in waiting:
        queue.put_nowait(queued)


def unsubscribe(table: Watched, subscriber: Subscriber) -> None:
    with table.subscribers_lock:
        table.subscribers.discard(subscriber)
    send_presence(table)


def seats_here(table: Watched) -> set[int]:
    """The seats of ``table`` with a socket open in this process (a watcher's is no seat)."""
    return {subscriber.seat for subscriber in subscribers_of(table) if 0 <= subscriber.seat < len(table.kinds)}


def presence_of(table: Watched) -> list[bool]:
    """Whether each seat of ``table`` has a socket open now, in this process or another (:mod:`.peers`)."""
    open_seats = seats_here(table) | table.seats_elsewhere
    return [seat in open_seats for seat in range(len(table.kinds))]


def watchers_here(table: Watched) -> int:
    """The watchers' sockets of ``table`` open in this process (a tab each)."""
    return sum(subscriber.seat < 0 for subscriber in subscribers_of(table))


def watchers_of(table: Watched) -> int:
    """The watchers' sockets of ``table`` open now, in this process or another (:mod:`.peers`)."""
    return watchers_here(table) + table.watchers_elsewhere


def presence_message(table: Watched) -> str:
    """The socket message saying which seats are connected and how many watch:
    ``{"type": "presence", "seats": [true, false, ...], "watchers": n}``."""
    return json_text({"type": "presence", "seats": presence_of(table), "watchers": watchers_of(table)})


def send_presence(table: Watched, besides: Subscriber | None = None) -> None:
    """Tell every socket of ``table`` (but ``besides``) which seats are connected and how many watch (after a
    socket opened or closed)."""
    message = presence_message(table)
    for subscriber in subscribers_of(table):
        if subscriber is not besides:
            subscriber.send(message)


def subscribers_of(table: Watched) -> list[Subscriber]:
    with table.subscribers_lock:
        return list(table.subscribers)


def broadcast(table: Watched, view_text: Callable[[int, str], str]) -> None:
    """Send every socket of ``table`` its seat's view (``view_text(seat, token)``; the caller holds the
    table's lock), each view made once however many tabs show it."""
    messages: dict[tuple[int, str], str] = {}
    for subscriber in subscribers_of(table):
        key = (subscriber.seat, subscriber.token)
        if key not in messages:
            messages[key] = view_message(view_text(subscriber.seat, subscriber.token))
        subscriber.send(messages[key])


__all__ = ["Subscriber", "subscribe", "put_first", "unsubscribe", "subscribers_of", "broadcast", "presence_of",
           "seats_here", "watchers_here", "watchers_of", "presence_message", "send_presence", "Watched", "json_text",
           "view_message", "SOCKETS_PER_GAME", "WATCHERS_PER_GAME"]
