"""``ginnyo serve`` as a user runs it: the address line, the port, stopping, and nothing lost when killed."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from ginnyo.web.live.feed import Subscriber, put_first
from web_helpers import WAIT_SECONDS, act, auth, best_action, create, view, wait_for

LINE = re.compile(r"^ginnyo: serving on (http://127\.0\.0\.1:(\d+)/)  \(Ctrl-C to stop\)$")


class Served:
    """``ginnyo serve --port 0 --data DATA`` in a subprocess: ``url``, ``client``."""

    def __init__(self, data: Path, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--data", str(data), *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.line = self.process.stdout.readline().rstrip("\n")
        match = LINE.match(self.line)
        assert match, self.line
        self.url = match.group(1)
        self.client = httpx.Client(base_url=self.url, timeout=WAIT_SECONDS)

    def kill(self) -> None:
        self.client.close()
        self.process.kill()
        self.process.wait(WAIT_SECONDS)

    def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str]:
        self.client.close()
        self.process.send_signal(signum)
        _, err = self.process.communicate(timeout=WAIT_SECONDS)
        return self.process.returncode, err


@pytest.fixture
def served(tmp_path: Path) -> Iterator[list[Served]]:
    """The servers a test starts, killed at its end if still running."""
    started: list[Served] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.kill()


def serve(started: list[Served], data: Path, *args: str) -> Served:
    server = Served(data, "--port", "0", *args) if "--port" not in args else Served(data, *args)
    started.append(server)
    return server


def play_person(client: httpx.Client, game: str, token: str, turns: int) -> dict[str, Any]:
    """The person's ``turns`` moves (greedy), each after the bot's; the view after the last."""
    for _ in range(turns):
        seen = wait_for(client, game, token)
        if seen["finished"]:
            return seen
        assert act(client, game, token, best_action(seen), seen["version"]).status_code == 200
    return wait_for(client, game, token)


def test_serve_prints_the_address_it_listens_on(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path)
    assert server.client.get("/api/health").json() == {"ok": True}
    assert server.client.get("/").status_code == 200


def test_sigterm_stops_it_with_one_line(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path)
    status, err = server.stop(signal.SIGTERM)
    assert status == 143
    assert err.strip().splitlines()[-1] == "ginnyo: interrupted" and "Traceback" not in err


def test_a_port_in_use_is_refused_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "ginnyo", "serve", "--port", str(port), "--data", str(tmp_path)],
                              capture_output=True, text=True, timeout=WAIT_SECONDS)
    assert done.returncode == 1
    assert done.stderr.strip() == f"ginnyo: error: --port: 127.0.0.1:{port} is in use"


def test_a_bad_port_is_refused(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "ginnyo", "serve", "--port", "70000"],
                          capture_output=True, text=True, timeout=WAIT_SECONDS)
    assert done.returncode == 2 and "port" in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("sync", ["normal", "full"])
def test_a_killed_server_resumes_every_game_exactly(served: list[Served], tmp_path: Path, sync: str) -> None:
    first = serve(served, tmp_path / "killed", "--sync", sync)
    made = create(first.client, ["human", "greedy"], seed=11)
    game, token = made["id"], made["seats"][0]["token"]
    before = play_person(first.client, game, token, 4)
    first.kill()

    second = serve(served, tmp_path / "killed", "--sync", sync)
    assert view(second.client, game, token) == before
    after = play_person(second.client, game, token, 3)

    # the same game never killed, move for move
    calm = serve(served, tmp_path / "calm")
    twin = create(calm.client, ["human", "greedy"], seed=11)
    unbroken = play_person(calm.client, twin["id"], twin["seats"][0]["token"], 7)
    assert after["history"] == unbroken["history"] and after["position"] == unbroken["position"]


def test_a_bot_killed_while_it_is_to_move_moves_after_the_restart(served: list[Served], tmp_path: Path) -> None:
    first = serve(served, tmp_path)
    made = create(first.client, ["human", "equity"], seed=5)
    game, token = made["id"], made["seats"][0]["token"]
    seen = play_person(first.client, game, token, 2)
    answer = act(first.client, game, token, best_action(seen), seen["version"])
    assert answer.status_code == 200
    committed = answer.json()["version"]
    first.kill()   # the bot is to move, or has just moved

    second = serve(served, tmp_path)
    resumed = wait_for(second.client, game, token)
    assert resumed["version"] > committed and resumed["your_turn"]
    assert resumed["history"][:committed] == answer.json()["history"]


def test_the_data_directory_holds_a_wal_database(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path)
    create(server.client, ["human", "greedy"])
    import sqlite3
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    assert database.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    database.close()


def test_the_store_commits_with_the_sync_mode_asked_for(tmp_path: Path) -> None:
    from ginnyo.web.store import Store
    for sync, pragma in (("normal", 1), ("full", 2)):
        store = Store(tmp_path / sync, sync)
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == pragma
        store.close()
    default = Store(tmp_path / "default")
    assert default._db.execute("PRAGMA synchronous").fetchone()[0] == 1
    default.close()
    with pytest.raises(ValueError, match="sync must be one of normal, full, not 'fast'"):
        Store(tmp_path / "bad", "fast")


def test_a_bad_sync_mode_is_refused_with_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(tmp_path),
                           "--sync", "fast"], capture_output=True, text=True, timeout=WAIT_SECONDS)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "--sync" in lines[0] and "'fast'" in lines[0]


def test_xdg_data_home_is_the_default_data_directory(served: list[Served], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.commands.serve import data_directory
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert data_directory(None) == os.path.join(str(tmp_path), "ginnyo")
    assert data_directory("elsewhere") == "elsewhere"


def test_an_unusable_data_directory_is_refused_with_one_line(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    done = subprocess.run([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(blocked / "sub")],
                          capture_output=True, text=True, timeout=WAIT_SECONDS)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ginnyo: error: --data: {blocked / 'sub'}")


def test_a_stored_game_that_no_longer_replays_is_left_out_with_one_line(served: list[Served], tmp_path: Path) -> None:
    import sqlite3
    first = serve(served, tmp_path)
    good = create(first.client, ["human", "human"], seed=3)
    bad = create(first.client, ["human", "human"], seed=4)
    seen = view(first.client, bad["id"], bad["seats"][0]["token"])
    mover = bad["seats"][seen["to_move"]]["token"]
    assert act(first.client, bad["id"], mover, "return " + view(first.client, bad["id"], mover)["position"]["rack"]
               .split()[0]).status_code == 200
    first.kill()
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    with database:
        database.execute("UPDATE actions SET text = 'return 2C 2C 2C' WHERE game = ?", (bad["id"],))
    database.close()
    second = serve(served, tmp_path)
    assert view(second.client, good["id"], good["seats"][0]["token"])["version"] == 0
    assert second.client.get(f"/api/games/{bad['id']}").status_code == 404
    status, err = second.stop()
    assert f"ginnyo: game {bad['id']} left out: " in err


def test_the_default_port_taken_gives_a_free_one() -> None:
    from ginnyo.commands.serve import DEFAULT_PORT, listening_socket
    holder = socket.socket()
    try:
        try:
            holder.bind(("127.0.0.1", DEFAULT_PORT))
            holder.listen(1)
        except OSError:
            pass   # someone else holds it: taken all the same
        chosen = listening_socket("127.0.0.1", None)
        try:
            assert chosen.getsockname()[1] not in (DEFAULT_PORT, 0)
        finally:
            chosen.close()
    finally:
        holder.close()


def test_the_socket_sends_views_uncompressed_as_the_same_json_the_api_gives(served: list[Served],
                                                                             tmp_path: Path) -> None:
    """Views are small and the server is local: no per-message deflate (its CPU would fall on every
    move); a view on the socket is the text of the seat's view, made once for both."""
    from websockets.sync.client import connect

    server = serve(served, tmp_path)
    made = create(server.client, ["human", "human"])   # no bot: its move (seed 7's first) would race the view compared
    game, token = made["id"], made["seats"][0]["token"]
    with connect(f"{server.url.replace('http://', 'ws://')}api/games/{game}/events") as socket:
        socket.send(auth(token))
        assert socket.response is not None
        assert "Sec-WebSocket-Extensions" not in socket.response.headers
        message = socket.recv(timeout=WAIT_SECONDS)
    answer = server.client.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {token}"})
    assert answer.headers["content-type"] == "application/json"
    assert isinstance(message, str)   # a text frame
    assert message.startswith('{"type":"view","view":' + answer.text + ',"presence":')   # the view's own text


def test_serve_answers_its_allowed_hosts_and_refuses_others(served: list[Served], tmp_path: Path) -> None:
    """DNS rebinding: a page of evil.example resolved to 127.0.0.1 reaches the server as Host: evil.example."""
    server = serve(served, tmp_path, "--allowed-host", "table.example", "--allowed-host", "box.example:8000")
    port = int(server.url.rstrip("/").rsplit(":", 1)[1])
    for host in ("table.example", "table.example:443", "box.example:8000", f"127.0.0.1:{port}", f"localhost:{port}"):
        assert server.client.get("/api/health", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", f"evil.example:{port}", "box.example:8001", f"127.0.0.1:{port + 1}"):
        answer = server.client.post("/api/games", json={"seats": ["human", "sim"]}, headers={"Host": host})
        assert answer.status_code == 421 and "Host" in answer.json()["error"], host


def test_serve_refuses_a_socket_from_another_origin(served: list[Served], tmp_path: Path) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    from websockets.typing import Origin

    server = serve(served, tmp_path)
    made = create(server.client, ["human", "greedy"])
    address = f"{server.url.replace('http://', 'ws://')}api/games/{made['id']}/events"
    with connect(address, origin=Origin("http://evil.example")) as socket:
        assert json.loads(socket.recv(timeout=WAIT_SECONDS))["type"] == "error"   # before any token is sent
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=WAIT_SECONDS)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_serve_refuses_a_malformed_allowed_host_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "ginnyo", "serve", "--data", str(tmp_path), "--port", "0",
                             "--allowed-host", "http://table.example/"], capture_output=True, text=True,
                            timeout=WAIT_SECONDS)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == ["ginnyo: error: argument --allowed-host: 'http://table.example/' is "
                                                  "not a host name or address (NAME or NAME:PORT) (see 'ginnyo serve "
                                                  "--help')"]


def test_a_sockets_first_message_goes_before_what_its_game_sent_meanwhile() -> None:
    """A bot's move broadcast while the socket's first view was being made is queued after that view,
    so the first message is always the one that says who is connected."""
    loop = asyncio.new_event_loop()
    try:
        subscriber = Subscriber(0, "token", loop, asyncio.Queue())
        subscriber.queue.put_nowait('{"type":"view","view":{"version":1}}')
        subscriber.queue.put_nowait('{"type":"presence","seats":[true,false]}')
        put_first(subscriber, '{"type":"view","view":{"version":1},"presence":[true,false]}')
        sent = [subscriber.queue.get_nowait() for _ in range(subscriber.queue.qsize())]
    finally:
        loop.close()
    assert sent == ['{"type":"view","view":{"version":1},"presence":[true,false]}',
                    '{"type":"view","view":{"version":1}}', '{"type":"presence","seats":[true,false]}']
