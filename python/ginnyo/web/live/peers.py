"""The club's live state among processes sharing a store and a broker (docs/DEPLOY.md, "Past one machine:
many processes"): what the sockets of one process must see of another's — the lobby changed, a chat line,
which seats of a game have a socket open and how many watch it, who is signed in at the lobby — told through the broker
(:meth:`.broker.Broker.tell`) and heard here (:meth:`Peers.heard`).

A process tells the others of each change at once, and all it has (its lobby's names, its games' seats
with a socket) every :data:`HEARTBEAT_SECONDS`; what another told lapses :data:`LAPSE_SECONDS` after it
was last heard, so a process killed outright (SIGKILL, no word said) leaves nobody "online" or "connected"
for longer than that.  A process starting asks the others for theirs (``hello``).  What is told carries
names, seat numbers and chat lines (each sent only to the sockets that read its room), never a rack or a
token.  A process alone (no broker) makes none of this: :class:`.broker.LocalBroker` tells nobody."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from . import chat, feed
from .broker import Broker
from .lobby import Lobby
from .table import SeatTable

HEARTBEAT_SECONDS = 5.0   # a process tells the others all it has this often
LAPSE_SECONDS = 15.0      # what another process told lapses this long after it was last heard (it died)

#: the club messages' types: a chat line; the lobby changed (with the teller's names online); one game's
#: seats with a socket (and its watchers' sockets) at the teller; all the teller has (its heartbeat); a new process asking for that
CHAT, LOBBY, SEATS, HERE, HELLO = "chat", "lobby", "seats", "here", "hello"


@dataclass
class Other:
    """Another process as last heard: when, its lobby's names online, its games' seats with a socket and
    watchers' sockets."""

    heard: float
    online: frozenset[str] = frozenset()
    seats: dict[str, frozenset[int]] = field(default_factory=dict)
    watchers: dict[str, int] = field(default_factory=dict)


def _names(value: object) -> frozenset[str] | None:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        return None
    return frozenset(value)


def _seats(value: object) -> frozenset[int] | None:
    if not isinstance(value, list) or not all(type(seat) is int for seat in value):
        return None
    return frozenset(value)


def _count(value: object) -> int:
    """A count told (a game's watchers' sockets); 0 for anything else."""
    return value if type(value) is int and 0 <= value <= feed.SOCKETS_PER_GAME else 0


def _counts(value: object) -> dict[str, int]:
    """Counts told by game (the games with none left out)."""
    if not isinstance(value, dict):
        return {}
    return {game: found for game, count in value.items() if isinstance(game, str) and (found := _count(count))}


class Peers:
    """The other processes' lobby names and games' seats, as last heard, and this process's told them.
    ``tables``: the games held here (id -> table); ``now``: the lapses' clock."""

    def __init__(self, broker: Broker, lobby: Lobby, tables: Mapping[str, SeatTable],
                 warn: Callable[[str], None] = lambda line: None, now: Callable[[], float] = time.monotonic) -> None:
        self.broker, self.lobby, self.tables, self.warn, self.now = broker, lobby, tables, warn, now
        self._others: dict[str, Other] = {}            # origin -> what it told (changed on the loop alone)
        self._lock = threading.Lock()                   # the worker threads read the names online
        self._resending = threading.Lock()              # held while a lobby's resend is waiting: one at a time
        self._loop: asyncio.AbstractEventLoop | None = None
        self._beating: asyncio.Task[None] | None = None
        lobby.tell = self.lobby_changed
        lobby.elsewhere = self.online_elsewhere

    # -- telling --------------------------------------------------------------------------------
    async def start(self) -> None:
        """Tell all this process has every :data:`HEARTBEAT_SECONDS` (and lapse the silent), from now on;
        ask the others for theirs.  Called once the broker listens."""
        self._loop = asyncio.get_running_loop()
        self.broker.tell({"type": HELLO})
        self._beating = asyncio.create_task(self._beat())

    async def close(self) -> None:
        if self._beating is not None:
            self._beating.cancel()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                self.tell_all()
                self._lapse()
            except Exception as error:   # pragma: no cover - told, and the next beat runs
                self.warn(f"ginnyo: the club's state was not told: {type(error).__name__}: {error}")

    def tell_all(self) -> None:
        """Tell the others this process's lobby names and every held game's seats with a socket and watchers'
        sockets here."""
        seats, watchers = {}, {}
        for table in list(self.tables.values()):
            here, watching = feed.seats_here(table), feed.watchers_here(table)
            if here:
                seats[table.id] = sorted(here)
            if watching:
                watchers[table.id] = watching
        self.broker.tell({"type": HERE, "online": self.lobby.online_here(), "seats": seats, "watchers": watchers})

    def lobby_changed(self, names: list[str]) -> None:
        """The lobby's ``tell``: its state changed here (stored), ``names`` online here."""
        self.broker.tell({"type": LOBBY, "online": names})

    def sockets_changed(self, table: SeatTable) -> None:
        """A socket of ``table`` opened or closed here: its seats known elsewhere brought up to date, the
        others told this process's (and its watchers' sockets here)."""
        self._refresh(table.id)
        self.broker.tell({"type": SEATS, "game": table.id, "seats": sorted(feed.seats_here(table)),
                          "watchers": feed.watchers_here(table)})

    def online_elsewhere(self) -> set[str]:
        """The names online at the other processes' lobbies (the lapsed left out)."""
        fresh = self.now() - LAPSE_SECONDS
        with self._lock:
            return {name for other in self._others.values() if other.heard >= fresh for name in other.online}

    # -- hearing --------------------------------------------------------------------------------
    def heard(self, message: dict[str, Any]) -> None:
        """Another process's club message (on the event loop: it reads nothing from the store)."""
        origin, kind = message.get("origin"), message.get("type")
        if not isinstance(origin, str):
            return
        if kind == CHAT:
            table, said = self.tables.get(str(message.get("game"))), message.get("message")
            if table is not None and isinstance(said, dict) and said.get("room") in chat.ROOMS:
                chat.deliver(table, said)
        elif kind == HELLO:
            self.tell_all()
        elif kind == LOBBY:
            names = _names(message.get("online"))
            if names is not None:
                self._heard_from(origin, online=names)
                self._resend_lobby()
        elif kind == SEATS:
            game, seats = message.get("game"), _seats(message.get("seats"))
            if isinstance(game, str) and seats is not None:
                self._heard_from(origin, seats={game: seats}, watchers={game: _count(message.get("watchers"))},
                                 whole=False)
        elif kind == HERE:
            names, told = _names(message.get("online")), message.get("seats")
            if names is not None and isinstance(told, dict):
                games = {game: found for game, value in told.items() if (found := _seats(value))}
                if self._heard_from(origin, online=names, seats=games, watchers=_counts(message.get("watchers")),
                                    whole=True):
                    self._resend_lobby()

    def _heard_from(self, origin: str, online: frozenset[str] | None = None,
                    seats: dict[str, frozenset[int]] | None = None, watchers: dict[str, int] | None = None,
                    whole: bool = False) -> bool:
        """Note what ``origin`` told (``whole``: ``seats`` and ``watchers`` are all its games'), then tell this
        process's game sockets whatever changed for them; whether its names online changed."""
        with self._lock:
            other = self._others.setdefault(origin, Other(self.now()))
            other.heard = self.now()
            was_online = other.online
            if online is not None:
                other.online = online
            games: set[str] = set()
            if seats is not None:
                if whole:
                    games = set(other.seats) | set(seats)
                    other.seats = {game: found for game, found in seats.items() if found}
                else:
                    games = set(seats)
                    for game, found in seats.items():
                        if found:
                            other.seats[game] = found
                        else:
                            other.seats.pop(game, None)
            if watchers is not None:
                if whole:
                    games |= set(other.watchers) | set(watchers)
                    other.watchers = dict(watchers)
                else:
                    games |= set(watchers)
                    for game, count in watchers.items():
                        if count:
                            other.watchers[game] = count
                        else:
                            other.watchers.pop(game, None)
        for game in games:
            self._refresh(game)
        return online is not None and online != was_online

    def _lapse(self) -> None:
        """Forget the processes not heard from for :data:`LAPSE_SECONDS` (killed): their seats and names go."""
        fresh = self.now() - LAPSE_SECONDS
        with self._lock:
            gone = [origin for origin, other in self._others.items() if other.heard < fresh]
            lost = [self._others.pop(origin) for origin in gone]
        for other in lost:
            for game in set(other.seats) | set(other.watchers):
                self._refresh(game)
        if any(other.online for other in lost):
            self._resend_lobby()

    def _refresh(self, game: str) -> None:
        """Set the seats of ``game`` connected elsewhere and its watchers there, and tell its sockets here if
        they changed."""
        table = self.tables.get(game)
        if table is None:
            return
        fresh = self.now() - LAPSE_SECONDS
        with self._lock:
            heard = [other for other in self._others.values() if other.heard >= fresh]
            elsewhere = frozenset(seat for other in heard for seat in other.seats.get(game, ()))
            watching = sum(other.watchers.get(game, 0) for other in heard)
        if elsewhere != table.seats_elsewhere or watching != table.watchers_elsewhere:
            table.seats_elsewhere, table.watchers_elsewhere = elsewhere, watching
            feed.send_presence(table)

    def _resend_lobby(self) -> None:
        """Send this process's lobby sockets the lobby anew, in a worker thread (it reads the store); one
        waiting at most (the changes heard meanwhile are read by it)."""
        if self._loop is None or not self._resending.acquire(blocking=False):
            return

        def resend() -> None:
            self._resending.release()   # a change heard from now on is read by another resend
            try:
                self.lobby.resend()
            except Exception as error:   # a store out of reach: the next change resends it
                self.warn(f"ginnyo: the lobby was not resent: {type(error).__name__}: {error}")

        try:
            self._loop.run_in_executor(None, resend)
        except RuntimeError:   # stopping
            self._resending.release()


__all__ = ["Peers", "Other", "HEARTBEAT_SECONDS", "LAPSE_SECONDS"]
