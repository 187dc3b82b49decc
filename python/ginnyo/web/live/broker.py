"""Events between processes: after a move (or a rematch) is committed, the process that made it
publishes ``{game, version, rematch}`` (:meth:`Broker.publish`); every other process serving the
same store hears it and catches the game up from the store (:meth:`..registry.Tables.changed`),
which sends its own sockets the new views (the kept views go with the old version).  A process
alone needs none (:class:`LocalBroker`); processes sharing a database talk through Redis pub/sub
(:class:`RedisBroker`, ``ginnyo serve --broker redis://HOST:PORT/DB``).

The club's live state goes on a second channel (:meth:`Broker.tell`, heard by :mod:`.peers`): the lobby
changed, a chat line, which seats have a socket, who is signed in at the lobby, as plain JSON objects that
carry no rack, token or other secret.

Pub/sub keeps nothing: a message published while a process is cut off from Redis is lost to it, so
on reconnecting it catches up every game it holds (``changed(None, 0, None)``); the club's state is told
again every few seconds (:data:`.peers.HEARTBEAT_SECONDS`)."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any, Callable, Protocol

CHANNEL = "ginnyo:games"   # the channel every process publishes on and listens to
CLUB_CHANNEL = "ginnyo:club"   # the club's live state: the lobby, chat, presence (:mod:`.peers`)
RECONNECT_SECONDS = 1.0    # the wait before a lost connection to Redis is tried again

#: what a process does with an event: ``changed(game, version, rematch)``, on the event loop (it must
#: not block); ``changed(None, 0, None)``: events may have been missed, catch up every game
Changed = Callable[[str | None, int, str | None], None]

#: what a process does with another's club message (a JSON object with its ``type``), on the event loop
Heard = Callable[[dict[str, Any]], None]


def _ignored(message: dict[str, Any]) -> None:
    pass


class Broker(Protocol):
    """What the registry publishes through and the app starts and stops."""

    async def start(self, changed: Changed, heard: Heard = _ignored) -> None:
        """Listen, calling ``changed`` for each game another process changed and ``heard`` for each club
        message another process told, on the running loop."""

    def publish(self, game: str, version: int, rematch: str | None) -> None:
        """Tell the other processes that ``game`` is at ``version`` (with its rematch); from any thread, never
        waiting (a lost message is caught up with on the next one, or by a reload)."""

    def tell(self, message: dict[str, Any]) -> None:
        """Tell the other processes a club message (JSON, never a secret); from any thread, never waiting."""

    async def close(self) -> None:
        """Stop listening."""


class LocalBroker:
    """One process: nobody to tell."""

    async def start(self, changed: Changed, heard: Heard = _ignored) -> None:
        pass

    def publish(self, game: str, version: int, rematch: str | None) -> None:
        pass

    def tell(self, message: dict[str, Any]) -> None:
        pass

    async def close(self) -> None:
        pass


def broker_url(text: str) -> str:
    """``--broker``: a Redis URL (``redis://HOST:PORT/DB``, ``rediss://`` with TLS, ``unix://PATH``);
    ValueError, one line, for any other."""
    if not text.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"{text!r} is not a Redis URL (redis://HOST:PORT/DB)")
    return text


def shown_broker_url(url: str) -> str:
    """A Redis URL as it may be shown (logged): whatever comes before its host's ``@`` (a password) hidden."""
    scheme, separator, rest = url.partition("://")
    address, slash, path = rest.partition("/")
    if "@" not in address:
        return url
    return f"{scheme}{separator}***@{address.rpartition('@')[2]}{slash}{path}"


class RedisBroker:
    """Processes sharing a database, talking through Redis pub/sub at ``url`` (the asyncio client);
    ``warn`` hears of a lost connection."""

    def __init__(self, url: str, warn: Callable[[str], None] = lambda line: None, channel: str = CHANNEL,
                 club_channel: str = CLUB_CHANNEL) -> None:
        import redis.asyncio
        self.url = shown_broker_url(broker_url(url))   # as the warnings print it: never its password
        self.channel = channel
        self.club_channel = club_channel
        self.origin = secrets.token_hex(8)   # this process: its own messages are not caught up with
        self.warn = warn
        self._client: redis.asyncio.Redis = redis.asyncio.Redis.from_url(url)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listening: asyncio.Task[None] | None = None
        self._sending: set[Any] = set()

    async def start(self, changed: Changed, heard: Heard = _ignored) -> None:
        self._loop = asyncio.get_running_loop()
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel, self.club_channel)   # before the first move is served: none is missed
        self._listening = asyncio.create_task(self._listen(pubsub, changed, heard))

    async def _listen(self, pubsub: Any, changed: Changed, heard: Heard) -> None:
        import redis.exceptions
        club = self.club_channel.encode()
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    if message.get("channel") in (club, self.club_channel):
                        self._told(message["data"], heard)
                    else:
                        self._heard(message["data"], changed)
            except (redis.exceptions.RedisError, OSError) as error:
                self.warn(f"ginnyo: the broker {self.url} was lost ({error}); trying again")
            while True:   # the connection lost: again, then every game caught up (messages may be lost)
                await asyncio.sleep(RECONNECT_SECONDS)
                try:
                    await pubsub.reset()
                    await pubsub.subscribe(self.channel, self.club_channel)
                    break
                except (redis.exceptions.RedisError, OSError):
                    continue
            changed(None, 0, None)

    def _heard(self, data: bytes | str, changed: Changed) -> None:
        try:
            event = json.loads(data)
            game, version, rematch, origin = event["game"], event["version"], event["rematch"], event["origin"]
        except (ValueError, KeyError, TypeError):
            self.warn("ginnyo: the broker carried a message that is not a game's event")
            return
        if origin != self.origin and isinstance(game, str) and type(version) is int:
            changed(game, version, rematch if isinstance(rematch, str) else None)

    def _told(self, data: bytes | str, heard: Heard) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self.warn("ginnyo: the broker carried a message that is not a club message")
            return
        if message.get("origin") != self.origin:
            heard(message)

    def publish(self, game: str, version: int, rematch: str | None) -> None:
        message = json.dumps({"game": game, "version": version, "rematch": rematch, "origin": self.origin})
        self._post(self.channel, message, "a move")

    def tell(self, message: dict[str, Any]) -> None:
        self._post(self.club_channel, json.dumps({**message, "origin": self.origin}, ensure_ascii=False),
                   f"the club's {message.get('type')}")

    def _post(self, channel: str, message: str, what: str) -> None:
        loop = self._loop
        if loop is None:   # not started: no other process hears of it before it has started either
            return
        try:
            future = asyncio.run_coroutine_threadsafe(self._send(channel, message, what), loop)
        except RuntimeError:   # the loop is closed: the server is stopping
            return
        self._sending.add(future)
        future.add_done_callback(self._sending.discard)

    async def _send(self, channel: str, message: str, what: str) -> None:
        import redis.exceptions
        try:
            await self._client.publish(channel, message)
        except (redis.exceptions.RedisError, OSError) as error:
            self.warn(f"ginnyo: the broker {self.url} could not be told of {what} ({error})")

    async def ping(self) -> None:
        """Reach Redis (an error if it cannot be)."""
        await self._client.ping()

    async def close(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
        await self._client.aclose()


def open_broker(url: str | None, warn: Callable[[str], None]) -> Broker:
    """The broker of ``--broker`` (none: :class:`LocalBroker`)."""
    return LocalBroker() if url is None else RedisBroker(url, warn)


__all__ = ["Broker", "LocalBroker", "RedisBroker", "Changed", "Heard", "open_broker", "broker_url", "shown_broker_url", "CHANNEL",
           "CLUB_CHANNEL"]
