"""The tables' chat (docs/CLUB.md "Watching and chat"): a game's two rooms, the players' and the
watchers', who writes and reads which, the messages' bounds (length, characters, a sender's rate), and
each message stored and then sent to the sockets that may hear it, this process's and, through the
broker, the other processes' (:func:`deliver`).

The players write in the players' room, the watchers in the watchers' room.  Everyone at a game open
to watchers reads the players' room; the watchers' room is the watchers' alone while the game is
played, so that nobody watching can tell a player anything (the players may read it once it is over).
"""

from __future__ import annotations

import math
import threading
import time
import unicodedata
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Callable

from ...errors import BadField, ChatTooFast, NotForWatchers
from ..store import Store
from ..store.chat import MAX_TEXT, PLAYERS, ROOMS, WATCHERS, ChatRow
from . import feed
from .broker import Broker, LocalBroker
from .seats import WATCHER
from .table import SeatTable

LAST_MESSAGES = 50        # the messages GET /api/games/{id}/chat answers, the last ones
MESSAGES_PER_WINDOW = 5   # a sender's messages ...
WINDOW_SECONDS = 10.0     # ... in this many seconds at most
MAX_SENDERS = 10_000      # senders whose last messages' times are kept


@dataclass(frozen=True)
class Sender:
    """Who writes: a seat of the game (``seat``) or a signed-in watcher (``seat`` None); ``name`` as shown,
    ``key`` the one rate counts against (a seat of one game, an account)."""

    name: str
    key: str
    seat: int | None

    @property
    def room(self) -> str:
        return WATCHERS if self.seat is None else PLAYERS


def checked_text(value: object) -> str:
    """A message's text: a string, trimmed, of 1 to :data:`MAX_TEXT` printable characters (no line breaks,
    no control or format characters); :class:`BadField` naming the field otherwise."""
    if not isinstance(value, str):
        raise BadField("field 'text': must be a string")
    text = value.strip()
    if not text:
        raise BadField("field 'text': is empty")
    if len(text) > MAX_TEXT:
        raise BadField(f"field 'text': at most {MAX_TEXT} characters ({len(text)} given)")
    if not text.isprintable() or any(unicodedata.category(ch) in ("Cf", "Cs", "Co") for ch in text):
        raise BadField("field 'text': printable characters only (no line breaks, control or format characters)")
    return text


def rooms_read(table: SeatTable, seat: int) -> tuple[str, ...]:
    """The rooms ``seat`` (:data:`WATCHER` for a watcher) reads now."""
    if seat == WATCHER or table.over:
        return ROOMS
    return (PLAYERS,)


def message_of(row: ChatRow) -> dict[str, Any]:
    """A message as the API and the sockets give it."""
    return {"id": row.id, "room": row.room, "sender": row.sender, "text": row.text, "created": row.created}


class ChatRate:
    """At most :data:`MESSAGES_PER_WINDOW` messages a sender in :data:`WINDOW_SECONDS`: the times of each
    sender's last messages, for at most :data:`MAX_SENDERS` senders (the least recent forgotten first)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._sent: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str) -> None:
        """Count a message of ``key``; :class:`ChatTooFast` (with the seconds to wait) when it has sent its most."""
        now = self.clock()
        with self._lock:
            times = self._sent.pop(key, None) or deque()
            while times and times[0] <= now - WINDOW_SECONDS:
                times.popleft()
            self._sent[key] = times
            while len(self._sent) > MAX_SENDERS:
                self._sent.popitem(last=False)
            if len(times) >= MESSAGES_PER_WINDOW:
                wait = max(1, math.ceil(times[0] + WINDOW_SECONDS - now))
                raise ChatTooFast(f"at most {MESSAGES_PER_WINDOW} messages in {WINDOW_SECONDS:g} s: "
                                  f"try again in {wait} s", wait)
            times.append(now)


def deliver(table: SeatTable, message: dict[str, Any]) -> None:
    """Send ``message`` (:func:`message_of`) to the sockets of ``table`` in this process that read its room."""
    sent = feed.json_text({"type": "chat", "message": message})
    for subscriber in feed.subscribers_of(table):
        if message["room"] in rooms_read(table, subscriber.seat):
            subscriber.send(sent)


class Chats:
    """The chat of every game of ``store``: messages written (checked, counted, stored, sent) and read;
    ``broker`` tells the other processes of each (:mod:`.peers` hears it there)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic,
                 broker: Broker | None = None) -> None:
        self.store = store
        self.rate = ChatRate(clock)
        self.broker: Broker = broker or LocalBroker()

    def post(self, table: SeatTable, sender: Sender, room: str, text: object) -> dict[str, Any]:
        """Write ``text`` of ``sender`` in ``room`` of ``table``: stored, then sent to the game's sockets
        that read the room; the message.  A sender writes in its own room only (:class:`NotForWatchers`)."""
        if room != sender.room:
            raise NotForWatchers(f"field 'room': {'a watcher' if sender.seat is None else 'a player'} writes in "
                                 f"the {sender.room}' room, not the {room}'")
        checked = checked_text(text)
        self.rate.take(sender.key)
        message = message_of(self.store.add_chat(table.id, room, sender.name, checked))
        deliver(table, message)
        self.broker.tell({"type": "chat", "game": table.id, "message": message})   # its name, room and text only
        return message

    def read(self, table: SeatTable, seat: int) -> list[dict[str, Any]]:
        """The last :data:`LAST_MESSAGES` messages of the rooms ``seat`` reads (:func:`rooms_read`)."""
        return [message_of(row) for row in self.store.chat(table.id, rooms_read(table, seat), LAST_MESSAGES)]


__all__ = ["Chats", "ChatRate", "Sender", "checked_text", "rooms_read", "message_of", "PLAYERS", "WATCHERS", "ROOMS",
           "deliver", "MAX_TEXT", "LAST_MESSAGES", "MESSAGES_PER_WINDOW", "WINDOW_SECONDS"]
