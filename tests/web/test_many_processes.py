"""Many ``ginnyo serve`` processes on one PostgreSQL database and one Redis (tests/web/services.py): a
game's seats on different processes hear each other's moves, a bot moves once a turn though every
process could move it, a process killed mid-game loses nothing acknowledged and the other serves on,
and ``--workers 2`` serves a game on one port."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from services import postgresql, postgresql_database, redis   # noqa: F401 (fixtures)
from ginnyo.web.store import Store

pytestmark = pytest.mark.slow
LINE = re.compile(r"^ginnyo: serving on (http://127\.0\.0\.1:(\d+)/)  \(Ctrl-C to stop\)$")
WAIT_SECONDS = 60    # a deadline for what must come (never a measure: the machine is shared)


class Server:
    """``ginnyo serve`` on ``database`` and ``broker`` in a subprocess (its errors in ``log``)."""

    def __init__(self, data: Path, database: str, broker: str, *args: str) -> None:
        self.log = data.with_suffix(".log")
        data.mkdir(parents=True, exist_ok=True)
        with self.log.open("w") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data",
                                             str(data), "--database", database, "--broker", broker, *args],
                                            stdout=subprocess.PIPE, stderr=log, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline().rstrip("\n")
        match = LINE.match(line)
        assert match, (line, self.log.read_text())
        self.url = match.group(1)
        self.client = httpx.Client(base_url=self.url, timeout=WAIT_SECONDS)

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> httpx.Response:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return self.client.post(path, json=body, headers=headers)

    def socket(self, game: str, token: str) -> "Socket":
        return Socket(self.url.replace("http://", "ws://") + f"api/games/{game}/events", token)

    def stop(self, signum: int = signal.SIGTERM) -> None:
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(signum)
            self.process.wait(WAIT_SECONDS)


class Socket:
    """A game's event socket of one seat: the views it has been sent."""

    def __init__(self, url: str, token: str) -> None:
        self.opened = contextlib.ExitStack()
        self.connection: ClientConnection = self.opened.enter_context(connect(url, open_timeout=WAIT_SECONDS))
        self.connection.send(json.dumps({"type": "auth", "token": token}))
        self.view: dict[str, Any] = {"version": -1}

    def until(self, version: int) -> dict[str, Any]:
        """The first view sent at ``version`` or later (AssertionError if none comes by the deadline)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while self.view["version"] < version:
            left = deadline - time.monotonic()
            assert left > 0, f"no view of version {version} came (the last: {self.view['version']})"
            message = json.loads(self.connection.recv(timeout=left))
            if message.get("type") == "view":
                self.view = message["view"]
        return self.view

    def close(self) -> None:
        self.opened.close()


@pytest.fixture
def servers(tmp_path: Path, postgresql_database: str, redis: str) -> Iterator[list[Server]]:
    """The servers a test starts (their database migrated first); stopped at its end."""
    Store(database=postgresql_database, migrate=True).close()
    started: list[Server] = []
    yield started
    for server in started:
        server.stop(signal.SIGKILL)


def start(started: list[Server], tmp_path: Path, database: str, broker: str, *args: str) -> Server:
    server = Server(tmp_path / f"server{len(started)}", database, broker, *args)
    started.append(server)
    return server


def action(view: dict[str, Any]) -> str:
    """A move a seat may always make: return its first tile, else pass."""
    return f"return {view['position']['rack'].split()[0]}" if view["can_return"] else "pass"


def test_two_servers_share_a_game_and_one_killed_loses_nothing(servers: list[Server], tmp_path: Path,
                                                               postgresql_database: str, redis: str) -> None:
    first = start(servers, tmp_path, postgresql_database, redis)
    second = start(servers, tmp_path, postgresql_database, redis)
    made = first.post("/api/games", {"seats": ["human", "human", "equity"], "seed": 7}).json()
    game, tokens = made["id"], [seat.get("token") for seat in made["seats"]]
    home = [first, second]   # each person's seat is served by its own process
    sockets = [first.socket(game, tokens[0]), second.socket(game, tokens[1])]
    acknowledged: list[int] = []

    def play(rounds: int) -> None:
        for _ in range(rounds):
            for seat in (0, 1):
                view = sockets[seat].until(len(acknowledged) + (2 if seat == 0 and acknowledged else 0))
                while not view["your_turn"]:   # the bot's move (seat 2), or the other's, still to come
                    view = sockets[seat].until(view["version"] + 1)
                answer = home[seat].post(f"/api/games/{game}/actions", {"action": action(view),
                                                                       "version": view["version"]}, tokens[seat])
                assert answer.status_code == 200, answer.text
                acknowledged.append(answer.json()["version"])
                for other in sockets:   # both processes' sockets hear of it
                    assert other.until(acknowledged[-1])["version"] >= acknowledged[-1]

    play(2)
    first.stop(signal.SIGKILL)   # mid-game: seat 0's socket reconnects to the other process
    sockets[0].close()
    sockets[0] = second.socket(game, tokens[0])
    home[0] = second
    play(2)   # the bot's lease lapses with its holder: the second process moves it from then on
    final = sockets[1].until(acknowledged[-1] + 1)   # the bot's move after the last person's

    stored = Store(database=postgresql_database).actions(game)   # in order, with no gap (it raises otherwise)
    assert len(stored) == final["version"] >= acknowledged[-1] + 1
    assert acknowledged == sorted(set(acknowledged)) and all(version <= len(stored) for version in acknowledged)
    seats = [entry["seat"] for entry in final["history"]]
    assert len(seats) == len(stored)
    assert all(after == (before + 1) % 3 for before, after in zip(seats, seats[1:]))   # the bot once a turn
    for socket in sockets:
        socket.close()


def test_two_workers_serve_a_game_on_one_port(servers: list[Server], tmp_path: Path, postgresql_database: str,
                                              redis: str) -> None:
    server = start(servers, tmp_path, postgresql_database, redis, "--workers", "2")
    made = server.post("/api/games", {"seats": ["human", "equity"], "seed": 3}).json()
    game, token = made["id"], made["seats"][0]["token"]
    socket = server.socket(game, token)
    view = socket.until(0)
    answer = server.post(f"/api/games/{game}/actions", {"action": action(view), "version": view["version"]}, token)
    assert answer.status_code == 200, answer.text
    assert socket.until(2)["your_turn"]   # the bot answered, whichever worker holds its lease
    socket.close()
    server.stop()
    assert server.process.returncode == 0, server.log.read_text()
