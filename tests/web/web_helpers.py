"""Helpers of the web server's tests: an app on a fresh data directory, games made and played through the API."""

from __future__ import annotations

import json
import threading
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Union
from urllib.parse import urljoin

import httpx

with warnings.catch_warnings():   # starlette 1.x would rather have httpx2, which is not packaged here
    warnings.simplefilter("ignore")
    from starlette import testclient

from ginnyo import Position
from ginnyo.commands.serve import web_app

WAIT_SECONDS = 60.0   # how long a test waits for the bots before failing (not a timing assert)
LOCAL = "127.0.0.1"   # the address the in-process client calls the app by: a loopback name it answers to


class TestClient(testclient.TestClient):
    """Starlette's in-process client, addressed as a browser of ``ginnyo serve`` addresses it
    (``Host: 127.0.0.1``, its sockets too), not as ``testserver``, which the app's guard refuses."""

    __test__ = False   # not a test class for pytest

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, base_url=f"http://{LOCAL}", **options)

    def websocket_connect(self, url: str, *args: Any, **options: Any) -> Any:
        return super().websocket_connect(urljoin(f"ws://{LOCAL}", url), *args, **options)


Client = Union[TestClient, httpx.Client]   # the in-process client or one of a real server


@contextmanager
def client_of(data: Path) -> Iterator[TestClient]:
    """A client of the app whose games live in ``data`` (started and stopped around the block)."""
    with TestClient(web_app(data), raise_server_exceptions=True) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def auth(token: str) -> str:
    """The first message of a game's events socket: the seat's token (docs/WEB.md, Events)."""
    return json.dumps({"type": "auth", "token": token})


def create(client: Client, seats: list[str], seed: int | None = 7, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"seats": seats, **fields}
    if seed is not None:
        body["seed"] = seed
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def view(client: Client, game: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def wait_for(client: Client, game: str, token: str, *, turn: bool = True) -> dict[str, Any]:
    """The seat's view once it is its turn (or the game is over); bots move meanwhile."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        seen = view(client, game, token)
        if seen["finished"] or (seen["your_turn"] if turn else True):
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"the bots did not move within {WAIT_SECONDS} s: {seen['version']}")
        time.sleep(0.02)


def position_of(seen: dict[str, Any]) -> Position:
    """The seat's position as an engine reads it from the view."""
    return Position.from_dict(seen["position"])


def best_action(seen: dict[str, Any]) -> str:
    """What a greedy player in the seat does: the best play, else return a tile, else pass."""
    position = position_of(seen)
    best = position.best_play()
    if best is not None:
        return position.notation(best)
    if seen["can_return"]:
        return f"return {seen['position']['rack'].split()[0]}"
    return "pass"


def act(client: Client, game: str, token: str, action: str, version: int | None = None) -> Any:
    body: dict[str, Any] = {"action": action}
    if version is not None:
        body["version"] = version
    return client.post(f"/api/games/{game}/actions", headers=bearer(token), json=body)


def play_to_end(client: Client, game: str, tokens: list[str]) -> dict[str, Any]:
    """Play every human seat greedily through the API until the game is over; the last view."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        for token in tokens:
            seen = view(client, game, token)
            if seen["finished"]:
                return seen
            if seen["your_turn"]:
                answer = act(client, game, token, best_action(seen), seen["version"])
                assert answer.status_code == 200, answer.text
                deadline = time.monotonic() + WAIT_SECONDS
                break
        else:
            if time.monotonic() > deadline:
                raise AssertionError(f"the bots did not move within {WAIT_SECONDS} s")
            time.sleep(0.01)


class LiveServer:
    """The app on a real uvicorn server on a free loopback port, in a thread: ``url``, ``app``, ``client``."""

    def __init__(self, data: Path) -> None:
        import socket

        import uvicorn
        self.app = web_app(data)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)   # TCP_NODELAY
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, ws="websockets-sansio",
                                lifespan="on", timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise AssertionError("the server did not start")
            time.sleep(0.01)
        self.client = httpx.Client(base_url=self.url, timeout=WAIT_SECONDS)

    def socket_url(self, game: str) -> str:
        return f"ws://127.0.0.1:{self.port}/api/games/{game}/events"

    def close(self) -> None:
        self.client.close()
        self.server.should_exit = True
        self.thread.join(WAIT_SECONDS)
        self.sock.close()


@contextmanager
def live_server(data: Path) -> Iterator[LiveServer]:
    server = LiveServer(data)
    try:
        yield server
    finally:
        server.close()


__all__ = ["Client", "TestClient", "LOCAL", "LiveServer", "live_server", "client_of", "bearer", "auth", "create", "view", "wait_for",
           "position_of", "best_action", "act", "play_to_end", "WAIT_SECONDS"]
