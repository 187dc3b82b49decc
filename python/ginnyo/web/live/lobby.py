"""The club's lobby feed (docs/CLUB.md, "Seeks and the lobby"): the sockets of ``/api/lobby/events``,
each sent the lobby (the open seeks, who is online, the games being played) whenever it changes.
The lobby is public: a socket needs no credential; one whose session cookie signs in counts its
account as online.  With other processes (:mod:`.peers`) a change here is told to them (``tell``) and
theirs heard (:meth:`Lobby.resend`), and who is online counts their lobby sockets too (``elsewhere``)."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ...errors import TooManySockets
from .feed import json_text

MAX_LOBBY_SOCKETS = 1000   # lobby sockets open at once (one process)
RETRY_SOCKETS = 30          # seconds a refused socket is asked to wait


@dataclass(eq=False)
class Watcher:
    """A lobby socket: its loop and queue, and its account's name (None: not signed in)."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[str]
    name: str | None = None


@dataclass(eq=False)
class Lobby:
    """The lobby's sockets; ``state`` makes the lobby sent (it reads the store: called in worker threads);
    ``tell`` tells the other processes it changed, with the names online here; ``elsewhere`` the names
    online at the other processes' lobbies (:mod:`.peers`; a process alone: nobody)."""

    state: Callable[["Lobby"], dict[str, Any]]
    watchers: set[Watcher] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)   # held for no I/O: the loop takes it
    tell: Callable[[list[str]], None] = lambda names: None
    elsewhere: Callable[[], Iterable[str]] = lambda: ()

    def join(self, watcher: Watcher) -> None:
        with self.lock:
            if len(self.watchers) >= MAX_LOBBY_SOCKETS:
                raise TooManySockets(f"the lobby has {MAX_LOBBY_SOCKETS} sockets open: try again later", RETRY_SOCKETS)
            self.watchers.add(watcher)

    def leave(self, watcher: Watcher) -> None:
        with self.lock:
            self.watchers.discard(watcher)

    def online_here(self) -> list[str]:
        """The names of the accounts with a lobby socket open in this process, each once, sorted."""
        with self.lock:
            names = Counter(watcher.name for watcher in self.watchers if watcher.name is not None)
        return sorted(names, key=str.lower)

    def online(self) -> list[str]:
        """The names of the accounts with a lobby socket open here or in another process, each once, sorted."""
        return sorted(set(self.online_here()).union(self.elsewhere()), key=str.lower)

    def message(self) -> str:
        """The lobby as its sockets are sent it (JSON text)."""
        return json_text({"type": "lobby", **self.state(self)})

    def changed(self) -> None:
        """Send every socket the lobby as it is now, and tell the other processes (from a worker thread:
        it reads the store; what changed is stored first, so that they read it too)."""
        self.resend()
        self.tell(self.online_here())

    def resend(self) -> None:
        """Send every socket of this process the lobby as it is now (from a worker thread: it reads the store)."""
        text = self.message()
        with self.lock:
            watchers = list(self.watchers)
        for watcher in watchers:
            watcher.loop.call_soon_threadsafe(_offer, watcher.queue, text)


def _offer(queue: asyncio.Queue[str], text: str) -> None:
    """Queue the lobby for a socket; a socket that has not read the last one is sent only the newest."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(text)


__all__ = ["Lobby", "Watcher", "MAX_LOBBY_SOCKETS"]
