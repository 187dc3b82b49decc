"""The store's part for the tables' chat: a message stored in its game's room, the last ones read back
(docs/CLUB.md "Watching and chat")."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from sqlalchemy import Connection, select

from .schema import chat

PLAYERS, WATCHERS = "players", "watchers"   # a game's rooms (web/live/chat.py: who writes and reads which)
ROOMS = (PLAYERS, WATCHERS)
MAX_TEXT = 300            # characters a message, once trimmed


@dataclass(frozen=True)
class ChatRow:
    """A chat message as stored."""

    id: int
    game: str
    room: str
    sender: str
    text: str
    created: float


CHAT_COLUMNS = (chat.c.id, chat.c.game, chat.c.room, chat.c.sender, chat.c.text, chat.c.created)


class ChatTables:
    """The chat's methods of :class:`~ginnyo.web.store.Store`."""

    if TYPE_CHECKING:
        def _writing(self, what: str) -> contextlib.AbstractContextManager[Connection]: ...
        def _reading(self) -> contextlib.AbstractContextManager[Connection]: ...

    def add_chat(self, game: str, room: str, sender: str, text: str) -> ChatRow:
        """Store a message of ``sender`` in ``game``'s ``room``; the row stored."""
        created = time.time()
        with self._writing("the message") as connection:
            number = connection.execute(chat.insert().values(game=game, room=room, sender=sender, text=text,
                                                             created=created).returning(chat.c.id)).scalar_one()
        return ChatRow(number, game, room, sender, text, created)

    def chat(self, game: str, rooms: Sequence[str], last: int) -> list[ChatRow]:
        """The ``last`` messages of ``game`` in ``rooms``, oldest first."""
        query = (select(*CHAT_COLUMNS).where(chat.c.game == game, chat.c.room.in_(list(rooms)))
                 .order_by(chat.c.id.desc()).limit(last))
        with self._reading() as connection:
            rows = connection.execute(query).all()
        return [ChatRow(*row) for row in reversed(rows)]


__all__ = ["ChatTables", "ChatRow", "CHAT_COLUMNS", "PLAYERS", "WATCHERS", "ROOMS", "MAX_TEXT"]
