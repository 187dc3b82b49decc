"""Many ``ginnyo serve`` processes on one PostgreSQL database and one Redis (tests/web/services.py): a
game's seats on different processes hear each other's moves, a bot moves once a turn though every
process could move it, a process killed mid-game loses nothing acknowledged and the other serves on,
and ``--workers 2`` serves a game on one port; the club's live state crosses processes (web/live/peers.py):
a seek and who is online reach another process's lobby socket, a chat line another process's sockets of its
room alone, a seat's socket shows it connected to the other seat's process, and no longer once its process
is killed."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from services import postgresql, postgresql_database, redis   # noqa: F401 (fixtures)
from ginnyo.web.http.accounts import SESSION_COOKIE
from ginnyo.web.live.peers import LAPSE_SECONDS
from ginnyo.web.store import Store

pytestmark = pytest.mark.slow
LINE = re.compile(r"^ginnyo: serving on (http://127\.0\.0\.1:(\d+)/)  \(Ctrl-C to stop\)$")
WAIT_SECONDS = 60    # a deadline for what must come (never a measure: the machine is shared)
MOST_TURNS = 200     # a game of passes and returns ends long before (nobody opened in 20 full rounds)


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

    def socket(self, game: str, token: str | None) -> "Socket":
        """A socket of the game's events: a seat's (its token), a watcher's (None)."""
        return Socket(self.url.replace("http://", "ws://") + f"api/games/{game}/events", token)

    def sign_up(self, name: str) -> str:
        """A new account's session token (the cookie's value: every process reads it from the store)."""
        made = self.client.post("/api/accounts", json={"name": name, "password": "correct horse battery"},
                                headers={"Origin": self.url.rstrip("/")})
        assert made.status_code == 201, made.text
        self.client.cookies.clear()   # each request names its account's session itself
        return made.cookies[SESSION_COOKIE]

    def signed_in(self, method: str, path: str, session: str, **options: Any) -> httpx.Response:
        """A request of the account of ``session`` (its cookie, and this server's Origin)."""
        return self.client.request(method, path, headers={"Origin": self.url.rstrip("/"),
                                                          "Cookie": f"{SESSION_COOKIE}={session}"}, **options)

    def lobby(self, session: str | None = None) -> "Lobby":
        return Lobby(self.url.replace("http://", "ws://") + "api/lobby/events", session)

    def stop(self, signum: int = signal.SIGTERM) -> None:
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(signum)
            self.process.wait(WAIT_SECONDS)


class Socket:
    """A game's event socket of one seat (or a watcher's): the views, presence and chat lines it has been sent."""

    def __init__(self, url: str, token: str | None) -> None:
        self.opened = contextlib.ExitStack()
        self.connection: ClientConnection = self.opened.enter_context(connect(url, open_timeout=WAIT_SECONDS))
        self.connection.send(json.dumps({"type": "watch"} if token is None else {"type": "auth", "token": token}))
        self.view: dict[str, Any] = {"version": -1}
        self.presence: list[bool] = []
        self.chat: list[dict[str, Any]] = []   # the chat lines it was sent, in order

    def next(self, left: float) -> None:
        """Read one message (within ``left`` seconds), keeping its view, presence or chat line."""
        message = json.loads(self.connection.recv(timeout=left))
        if message.get("type") == "view":
            self.view = message["view"]
            self.presence = message.get("presence", self.presence)
        elif message.get("type") == "presence":
            self.presence = message["seats"]
        elif message.get("type") == "chat":
            self.chat.append(message["message"])

    def until_sent(self, found: Callable[["Socket"], bool], what: str) -> None:
        """Read messages until ``found`` holds (AssertionError if it does not by the deadline)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while not found(self):
            left = deadline - time.monotonic()
            assert left > 0, f"{what} did not come (presence {self.presence}, chat {self.chat})"
            self.next(left)

    def until(self, version: int) -> dict[str, Any]:
        """The first view sent at ``version`` or later (AssertionError if none comes by the deadline)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while self.view["version"] < version:
            left = deadline - time.monotonic()
            assert left > 0, f"no view of version {version} came (the last: {self.view['version']})"
            self.next(left)
        return self.view

    def close(self) -> None:
        self.opened.close()


class Lobby:
    """A lobby socket (signed in with ``session``'s cookie, or not): the lobby it was last sent."""

    def __init__(self, url: str, session: str | None) -> None:
        self.opened = contextlib.ExitStack()
        headers = None if session is None else {"Cookie": f"{SESSION_COOKIE}={session}"}
        self.connection: ClientConnection = self.opened.enter_context(
            connect(url, open_timeout=WAIT_SECONDS, additional_headers=headers))
        self.state: dict[str, Any] = {}

    def until(self, found: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """The first lobby sent for which ``found`` holds (AssertionError if none comes by the deadline)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.state or not found(self.state):
            left = deadline - time.monotonic()
            assert left > 0, f"{what} did not come (the last lobby: {self.state})"
            self.state = json.loads(self.connection.recv(timeout=left))
        return self.state

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


@pytest.fixture
def two_processes(servers: list[Server], tmp_path: Path, postgresql_database: str, redis: str) -> tuple[Server, Server]:
    """Two servers on the one database and broker, started in turn."""
    return (start(servers, tmp_path, postgresql_database, redis),
            start(servers, tmp_path, postgresql_database, redis))


def action(view: dict[str, Any]) -> str:
    """A move a seat may always make: return its first tile, else pass."""
    return f"return {view['position']['rack'].split()[0]}" if view["can_return"] else "pass"


def test_two_servers_share_a_game_and_one_killed_loses_nothing(two_processes: tuple[Server, Server],
                                                               postgresql_database: str) -> None:
    first, second = two_processes
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


def seek_ids(lobby: dict[str, Any]) -> list[str]:
    return [seek["id"] for seek in lobby["seeks"]]


def test_a_lobby_socket_of_one_process_sees_the_seeks_and_the_people_online_of_another(
        two_processes: tuple[Server, Server]) -> None:
    first, second = two_processes
    watching = second.lobby()
    assert watching.until(lambda lobby: True, "the first lobby")["seeks"] == []
    ann, bob = first.sign_up("Ann"), first.sign_up("Bob")
    made = first.signed_in("POST", "/api/seeks", ann, json={"game": "ginnyo", "players": 2, "rated": True})
    assert made.status_code == 201, made.text
    seek = made.json()
    watching.until(lambda lobby: seek_ids(lobby) == [seek["id"]], "the seek made on the other process")
    first.signed_in("DELETE", f"/api/seeks/{seek['id']}", ann)
    watching.until(lambda lobby: seek_ids(lobby) == [], "the seek withdrawn on the other process")
    again = first.signed_in("POST", "/api/seeks", ann, json={"game": "ginnyo", "players": 2}).json()
    watching.until(lambda lobby: seek_ids(lobby) == [again["id"]], "the second seek")
    joined = first.signed_in("POST", f"/api/seeks/{again['id']}/join", bob).json()
    started = watching.until(lambda lobby: not lobby["seeks"] and lobby["playing"], "the game of the joined seek")
    assert [game["id"] for game in started["playing"]] == [joined["game_id"]]

    at_first = first.lobby(ann)   # Ann online on the first process: the second counts her
    watching.until(lambda lobby: lobby["online"] == {"count": 1, "names": ["Ann"]}, "Ann online elsewhere")
    at_second = second.lobby(bob)
    both = at_first.until(lambda lobby: lobby["online"]["count"] == 2, "Bob online elsewhere")
    assert both["online"]["names"] == ["Ann", "Bob"]
    at_first.close()
    watching.until(lambda lobby: lobby["online"]["names"] == ["Bob"], "Ann gone from the other process")
    for socket in (watching, at_second):
        socket.close()


def test_a_chat_line_reaches_the_sockets_of_its_room_on_the_other_process(
        two_processes: tuple[Server, Server]) -> None:
    first, second = two_processes
    made = first.post("/api/games", {"seats": ["human", "human"], "seed": 5, "watchable": True}).json()
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    player, watcher = second.socket(game, tokens[1]), second.socket(game, None)
    for socket in (player, watcher):
        socket.until(0)
    said = first.post(f"/api/games/{game}/chat", {"text": "good luck"}, tokens[0])
    assert said.status_code == 201, said.text
    for socket in (player, watcher):   # everyone at the game reads the players' room
        socket.until_sent(lambda socket: [line["text"] for line in socket.chat] == ["good luck"], "the players' line")
    kibitz = first.sign_up("Kibitz")
    aside = first.signed_in("POST", f"/api/games/{game}/chat", kibitz, json={"text": "seat 1 should pass"})
    assert aside.status_code == 201, aside.text
    watcher.until_sent(lambda socket: len(socket.chat) == 2, "the watchers' line")
    assert watcher.chat[1]["room"] == "watchers" and watcher.chat[1]["text"] == "seat 1 should pass"
    assert first.post(f"/api/games/{game}/chat", {"text": "thanks"}, tokens[0]).status_code == 201
    player.until_sent(lambda socket: len(socket.chat) == 2, "the players' second line")
    assert [line["text"] for line in player.chat] == ["good luck", "thanks"]   # the watchers' line never came
    assert all("token" not in line and set(line) == {"id", "room", "sender", "text", "created"} for line in player.chat)
    for socket in (player, watcher):
        socket.close()


def test_a_seat_connected_on_one_process_is_shown_on_the_other_until_its_process_is_killed(
        two_processes: tuple[Server, Server]) -> None:
    first, second = two_processes
    made = first.post("/api/games", {"seats": ["human", "human", "equity"], "seed": 9}).json()
    game, tokens = made["id"], [seat.get("token") for seat in made["seats"]]
    mine = second.socket(game, tokens[1])
    mine.until(0)
    assert mine.presence == [False, True, False]
    theirs = first.socket(game, tokens[0])
    mine.until_sent(lambda socket: socket.presence == [True, True, False], "seat 0 connected on the other process")
    theirs.until_sent(lambda socket: socket.presence == [True, True, False], "seat 1 connected on the other process")
    theirs.close()
    mine.until_sent(lambda socket: socket.presence == [False, True, False], "seat 0 gone on the other process")
    theirs = first.socket(game, tokens[0])
    mine.until_sent(lambda socket: socket.presence == [True, True, False], "seat 0 back")
    first.stop(signal.SIGKILL)   # no word said: its seats lapse LAPSE_SECONDS after it was last heard
    assert LAPSE_SECONDS < WAIT_SECONDS
    mine.until_sent(lambda socket: socket.presence == [False, True, False], "seat 0 lapsed with its process")
    for socket in (mine, theirs):
        with contextlib.suppress(Exception):
            socket.close()


def test_two_people_on_two_processes_play_a_rated_seek_on_the_clock_to_its_end_while_a_third_watches(
        two_processes: tuple[Server, Server]) -> None:
    """Issue 44's whole story on several processes: Ann signs up on one, Bob on the other; Bob joins the
    rated seek on the clock Ann made; each plays on their own process to the end; a watcher on a third
    socket never reads a rack; both see their rating change and the game in their history."""
    first, second = two_processes
    ann, bob = first.sign_up("Ann"), second.sign_up("Bob")
    made = first.signed_in("POST", "/api/seeks", ann, json={"game": "ginnyo", "players": 2, "rated": True,
                                                           "clock": {"initial": 600, "increment": 5}})
    assert made.status_code == 201, made.text
    joined = second.signed_in("POST", f"/api/seeks/{made.json()['id']}/join", bob)
    assert joined.status_code == 200 and joined.json()["game_id"], joined.text
    game = joined.json()["game_id"]
    home, sessions = {"Ann": first, "Bob": second}, {"Ann": ann, "Bob": bob}
    seats = {}
    for name, server in home.items():
        seat = server.signed_in("POST", f"/api/seeks/{made.json()['id']}/seat", sessions[name])
        assert seat.status_code == 201, seat.text
        seats[seat.json()["seat"]] = (server, seat.json()["token"])
    watcher = second.socket(game, None)
    secrets: set[str] = set()
    view: dict[str, Any] = {"result": None}
    for _ in range(MOST_TURNS):
        looks = {seat: server.client.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {token}"}).json()
                 for seat, (server, token) in seats.items()}
        secrets |= {look["position"]["rack"] for look in looks.values()
                    if look["result"] is None and len(look["position"]["rack"].split()) >= 3}
        view = max(looks.values(), key=lambda look: int(look["version"]))   # a process may be a moment behind
        if view["result"] is not None:
            break
        assert view["clocks"] is not None and sum(clock["running"] for clock in view["clocks"]) == 1
        server, token = seats[view["to_move"]]
        mine = looks[view["to_move"]]
        deadline = time.monotonic() + WAIT_SECONDS
        while not mine["your_turn"]:   # the mover's process hears of the last move over the broker, a moment later
            assert time.monotonic() < deadline, "the mover's process never heard of the last move"
            time.sleep(0.02)
            mine = server.client.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {token}"}).json()
        answer = server.post(f"/api/games/{game}/actions", {"action": action(mine), "version": mine["version"]}, token)
        assert answer.status_code == 200, answer.text
    assert view["result"] is not None, f"the game did not end in {MOST_TURNS} turns"
    final = view["version"]
    watched = []
    deadline = time.monotonic() + WAIT_SECONDS
    while watcher.view["version"] < final:   # every message the watcher was sent, to the last view
        left = deadline - time.monotonic()
        assert left > 0, "the watcher did not see the end"
        text = watcher.connection.recv(timeout=left)
        watched.append(str(text))
        message = json.loads(text)
        if message.get("type") == "view":
            watcher.view = message["view"]
            assert message["view"]["position"]["rack"] == ""
    watcher.close()
    in_play = [text for text in watched if json.loads(text).get("view", {}).get("result", 0) is None]
    assert in_play and not [secret for secret in secrets for text in in_play if secret in text]   # public once over
    for name, server in home.items():   # rated by whichever process stored the end; read on the other
        other = second if server is first else first
        deadline = time.monotonic() + WAIT_SECONDS
        while not (player := other.client.get(f"/api/players/{name}").json())["games"]:
            assert time.monotonic() < deadline, f"{name}'s game was not rated"
            time.sleep(0.05)
        assert [entry["id"] for entry in player["games"]] == [game] and player["games"][0]["rating_change"] != 0
        assert player["ratings"]["ginnyo"]["games"] == 1
