"""The server bounded (issue 40): games and simulations a client a minute, games in play, sockets
a game, connections that send nothing or half a request, games in play untouched for too long."""

from __future__ import annotations

import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from ginnyo.commands.serve import web_app
from test_serve import Served, serve, served
from web_helpers import WAIT_SECONDS, TestClient, auth, bearer, create, view

__all__ = ["served"]   # the fixture, used by name

DAY = 86400.0


def refused(answer: Any, status: int) -> int:
    """The seconds of the refusal's Retry-After (the refusal: ``status``, one line of JSON)."""
    assert answer.status_code == status, answer.text
    assert list(answer.json()) == ["error", "code", "args"] and "\n" not in answer.text
    retry_after = answer.headers["retry-after"]
    assert retry_after.isdigit() and int(retry_after) >= 1
    return int(retry_after)


def test_games_past_a_clients_burst_are_refused_with_429_and_retry_after(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path, games_per_minute=2)) as client:
        create(client, ["human", "greedy"])
        create(client, ["human", "greedy"])
        answer = client.post("/api/games", json={"seats": ["human", "greedy"]})
        assert refused(answer, 429) == 30   # one game every 30 s at 2 a minute
        assert "at most 2 a minute" in answer.json()["error"]


def test_simulations_past_a_clients_burst_are_refused_with_429(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path, simulations_per_minute=1)) as client:
        assert client.post("/api/analysis/simulations", json={}).status_code == 400   # counted all the same
        refused(client.post("/api/analysis/simulations", json={}), 429)


def test_a_bucket_fills_again_at_its_rate() -> None:
    from ginnyo.web.http.errors import TooManyRequests
    from ginnyo.web.http.limits import RateLimiter
    now = [0.0]
    limiter = RateLimiter(6, "games", clock=lambda: now[0])   # one every 10 s
    for _ in range(6):
        limiter.take("a")
    with pytest.raises(TooManyRequests) as refusal:
        limiter.take("a")
    assert refusal.value.retry_after == 10
    limiter.take("b")   # another address has its own bucket
    now[0] = 10.0
    limiter.take("a")
    with pytest.raises(TooManyRequests):
        limiter.take("a")


def test_a_game_past_max_games_in_play_is_refused_with_503(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path, max_games=1)) as client:
        create(client, ["human", "greedy"])
        answer = client.post("/api/games", json={"seats": ["human", "greedy"]})
        refused(answer, 503)
        assert "most games in play (1)" in answer.json()["error"]


def test_a_games_sockets_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.web.live import feed
    monkeypatch.setattr(feed, "SOCKETS_PER_GAME", 1)
    with TestClient(web_app(tmp_path)) as client:
        made = create(client, ["human", "human"])
        url, token = f"/api/games/{made['id']}/events", made["seats"][0]["token"]
        with client.websocket_connect(url) as first:
            first.send_text(auth(token))
            assert first.receive_json()["type"] == "view"
            with client.websocket_connect(url) as second:
                second.send_text(auth(token))
                message = second.receive_json()
                assert message["type"] == "error" and "sockets open" in message["error"]


def test_a_game_untouched_too_long_is_let_go_and_rebuilt_when_opened(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path)) as client:
        made = create(client, ["human", "human"])
        game, token = made["id"], made["seats"][0]["token"]
        before = view(client, game, token)
        tables = client.app.state.tables
        assert tables.sweep(time.time() + 29 * DAY) == 0
        assert tables.sweep(time.time() + 31 * DAY) == 1 and game not in tables.tables
        assert view(client, game, token) == before and game in tables.tables


# -- a real ginnyo serve ---------------------------------------------------------------------------

def connected(server: Served) -> socket.socket:
    host, port = server.url.removeprefix("http://").rstrip("/").split(":")
    conn = socket.create_connection((host, int(port)), timeout=WAIT_SECONDS)
    return conn


def host_line(server: Served) -> bytes:
    """The Host header the guard answers to: the served address with its port."""
    return b"Host: " + server.url.removeprefix("http://").rstrip("/").encode("ascii") + b"\r\n"


def closed_by_server(conn: socket.socket) -> bool:
    """Whether the server closes ``conn`` (within WAIT_SECONDS) with nothing more said."""
    with conn:
        try:
            return conn.recv(1024) == b""
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False


def test_a_connection_that_sends_nothing_is_closed(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path, "--request-timeout", "0.3")
    assert closed_by_server(connected(server))
    assert server.client.get("/api/health").json() == {"ok": True}


def test_a_half_sent_header_is_closed(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path, "--request-timeout", "0.3")
    conn = connected(server)
    conn.sendall(b"GET /api/health HTTP/1.1\r\n" + host_line(server) + b"X-Slow: ")
    assert closed_by_server(conn)


def test_a_stalled_body_is_closed_without_a_traceback(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path, "--request-timeout", "0.3")
    conn = connected(server)
    conn.sendall(b"POST /api/games HTTP/1.1\r\n" + host_line(server) + b"Content-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"seats\": ")
    assert closed_by_server(conn)
    status, err = server.stop()
    assert "Traceback" not in err


def test_a_kept_alive_connection_is_closed_after_a_stalled_next_request(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path, "--request-timeout", "0.3")
    conn = connected(server)
    conn.sendall(b"GET /api/health HTTP/1.1\r\n" + host_line(server) + b"\r\n")
    answer = b""
    while not answer.endswith(b'{"ok":true}'):
        received = conn.recv(4096)
        assert received, f"the server closed the connection after {answer!r}"
        answer += received
    conn.sendall(b"G")   # a byte disarms uvicorn's keep-alive timeout
    assert closed_by_server(conn)


def test_a_connection_past_the_concurrency_limit_is_closed_at_once(served: list[Served], tmp_path: Path) -> None:
    server = serve(served, tmp_path, "--limit-concurrency", "2")
    held = [connected(server), connected(server)]
    assert closed_by_server(connected(server))
    for conn in held:
        conn.close()
    assert server.client.get("/api/health").json() == {"ok": True}


def test_an_old_unfinished_game_is_not_loaded_at_start_and_is_rebuilt_when_opened(served: list[Served],
                                                                                  tmp_path: Path) -> None:
    first = serve(served, tmp_path)
    old = create(first.client, ["human", "human"], seed=3)
    game, token = old["id"], old["seats"][0]["token"]
    seen = view(first.client, game, token)
    mover = old["seats"][seen["to_move"]]["token"]
    rack = view(first.client, game, mover)["position"]["rack"].split()
    moved = first.client.post(f"/api/games/{game}/actions", headers=bearer(mover), json={"action": f"return {rack[0]}"})
    assert moved.status_code == 200, moved.text
    before = view(first.client, game, token)
    first.stop()
    database = sqlite3.connect(tmp_path / "games.sqlite3")
    with database:   # made and last moved 31 days ago
        aged = time.time() - 31 * DAY
        database.execute("UPDATE games SET created = ? WHERE id = ?", (aged, game))
        database.execute("UPDATE actions SET created = ? WHERE game = ?", (aged, game))
    database.close()

    second = serve(served, tmp_path, "--max-games", "1")
    create(second.client, ["human", "greedy"])   # the old game is not held: room for one
    assert view(second.client, game, token) == before   # rebuilt from the database
    refused(second.client.post("/api/games", json={"seats": ["human", "greedy"]}), 503)   # and held again
