"""What a hostile stranger's probes of the server found (every route sent bad input, foreign headers,
many sockets): each refusal one line with its code, and no stranger shutting others out of sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from analysis_helpers import SHIPPED
from ginnyo.commands.serve import web_app
from ginnyo.puzzles.solving import shipped_puzzles
from ginnyo.web.http import app as app_module
from ginnyo.web.http import sockets
from ginnyo.web.live import feed, lobby
from ginnyo.web.live.broker import RedisBroker
from web_helpers import TestClient, auth, bearer, client_of, create, view


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as made:
        yield made


def coded(answer: dict[str, Any], code: str) -> None:
    """A refusal as every refusal is answered: its line, its code, its arguments."""
    assert set(answer) >= {"error", "code", "args"} and answer["code"] == code, answer


def test_a_request_for_another_host_is_refused_with_a_code(client: TestClient) -> None:
    answer = client.get("/api/health", headers={"Host": "evil.example"})
    assert answer.status_code == 421
    coded(answer.json(), "refused")


def test_a_write_from_another_origin_is_refused_with_a_code(client: TestClient) -> None:
    answer = client.post("/api/games", json={"seats": ["human", "greedy"]}, headers={"Origin": "http://evil.example"})
    assert answer.status_code == 403
    coded(answer.json(), "forbidden")


def test_a_socket_from_another_origin_is_refused_with_a_code(client: TestClient) -> None:
    made = create(client, ["human", "greedy"])
    with client.websocket_connect(f"/api/games/{made['id']}/events", headers={"Origin": "http://evil.example"}) as socket:
        coded(socket.receive_json(), "forbidden")


def test_a_full_lobby_refuses_a_socket_with_a_code(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "MAX_LOBBY_SOCKETS", 1)
    with client.websocket_connect("/api/lobby/events") as first:
        assert first.receive_json()["type"] == "lobby"
        with client.websocket_connect("/api/lobby/events") as second:
            coded(second.receive_json(), "too-many-sockets")


def test_watchers_never_take_the_sockets_a_games_seats_need(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed, "SOCKETS_PER_GAME", 4)
    monkeypatch.setattr(feed, "WATCHERS_PER_GAME", 2)
    with TestClient(web_app(tmp_path)) as client, contextlib.ExitStack() as stack:
        made = create(client, ["human", "human"], watchable=True)
        url = f"/api/games/{made['id']}/events"
        answers = []
        for _ in range(4):   # as many watchers as the game has sockets
            watcher = stack.enter_context(client.websocket_connect(url))
            watcher.send_text('{"type": "watch"}')
            answers.append(watcher.receive_json()["type"])
        assert answers == ["view", "view", "error", "error"]
        with client.websocket_connect(url) as seat:
            seat.send_text(auth(made["seats"][0]["token"]))
            assert seat.receive_json()["type"] == "view"


def test_one_address_holds_a_bounded_number_of_sockets(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sockets, "SOCKETS_PER_CLIENT", 2)
    made = create(client, ["human", "greedy"])
    with client.websocket_connect("/api/lobby/events") as first, \
            client.websocket_connect(f"/api/games/{made['id']}/events") as second:
        assert first.receive_json()["type"] == "lobby"
        second.send_text(auth(made["seats"][0]["token"]))
        assert second.receive_json()["type"] == "view"
        with client.websocket_connect("/api/lobby/events") as third:
            coded(third.receive_json(), "too-many-requests")
    with client.websocket_connect("/api/lobby/events") as again:   # those closed count no more
        assert again.receive_json()["type"] == "lobby"


SAME_ORIGIN = {"Origin": "http://127.0.0.1"}
MIDGAME = next(path for path in SHIPPED if path.name == "midgame.json")


def test_a_seek_counts_against_the_games_allowance(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path, games_per_minute=1)) as client:
        signed_up = client.post("/api/accounts", json={"name": "ada", "password": "correct horse battery"})
        assert signed_up.status_code == 201, signed_up.text
        seek = {"game": "ginnyo", "players": 2, "bots": ["greedy"]}   # made into a game at once
        assert client.post("/api/seeks", json=seek, headers=SAME_ORIGIN).status_code == 201
        refused = client.post("/api/seeks", json=seek, headers=SAME_ORIGIN)
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        coded(refused.json(), "too-many-requests")


def test_seek_joins_and_withdrawals_past_a_clients_allowance_are_refused(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path, seek_joins_per_minute=2)) as client:
        signed_up = client.post("/api/accounts", json={"name": "ada", "password": "correct horse battery"})
        assert signed_up.status_code == 201, signed_up.text
        assert client.post("/api/seeks/nope/join", headers=SAME_ORIGIN).status_code == 404
        assert client.delete("/api/seeks/nope", headers=SAME_ORIGIN).status_code == 404
        refused = client.post("/api/seeks/nope/join", headers=SAME_ORIGIN)
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        coded(refused.json(), "too-many-requests")
        coded(client.delete("/api/seeks/nope", headers=SAME_ORIGIN).json(), "too-many-requests")


@pytest.mark.parametrize("kind", ["game", "puzzle"])
def test_previews_past_a_clients_allowance_are_refused(tmp_path: Path, kind: str) -> None:
    with TestClient(web_app(tmp_path, previews_per_minute=2)) as client:
        made = create(client, ["human", "greedy"])
        token = made["seats"][0]["token"]
        if kind == "game":
            url, headers = f"/api/games/{made['id']}/preview", bearer(token)
        else:
            url, headers = f"/api/puzzles/{next(iter(shipped_puzzles()))}/preview", {}
        answers = [client.post(url, json={"placements": {}}, headers=headers).status_code for _ in range(3)]
        assert answers[:2] != [429, 429] and answers[2] == 429, answers


def test_analyses_and_reviews_past_a_clients_allowance_are_refused(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path, analyses_per_minute=2)) as client:
        made = create(client, ["human", "greedy"])
        position = view(client, made["id"], made["seats"][0]["token"])["position"]
        assert client.post("/api/analysis", json={"position": position}).status_code == 200
        record = {"content": b"{}\n", "headers": {"Content-Type": "application/x-ndjson"}}
        assert client.post("/api/review", **record).status_code != 429
        coded(client.post("/api/review", **record).json(), "too-many-requests")
        coded(client.post("/api/analysis", json={"position": position}).json(), "too-many-requests")


def test_one_address_holds_a_bounded_number_of_simulations(tmp_path: Path) -> None:
    with TestClient(web_app(tmp_path, simulations_per_address=1)) as client:
        _one_simulation_at_once(client)


def _one_simulation_at_once(client: TestClient) -> None:
    body = {"position": json.loads(MIDGAME.read_text()), "rollouts": 100_000}
    first = client.post("/api/analysis/simulations", json=body)
    assert first.status_code == 201, first.text
    refused = client.post("/api/analysis/simulations", json=body)
    assert refused.status_code == 409 and "this address" in refused.json()["error"]
    assert client.post(f"/api/analysis/simulations/{first.json()['id']}/stop").status_code == 200
    again = client.post("/api/analysis/simulations", json=body)   # a stopped one counts no more
    assert again.status_code == 201, again.text
    client.post(f"/api/analysis/simulations/{again.json()['id']}/stop")


def test_the_brokers_password_never_reaches_the_log() -> None:
    lines: list[str] = []
    broker = RedisBroker("redis://ginnyo:s3cret@127.0.0.1:1/0", warn=lines.append)   # port 1: nobody listens
    asyncio.run(broker._send("ginnyo", "{}", "a move"))
    assert lines and "127.0.0.1:1/0" in lines[0] and "s3cret" not in lines[0], lines


def test_a_simulations_event_stream_counts_among_its_addresss_sockets(client: TestClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sockets, "SOCKETS_PER_CLIENT", 1)
    started = client.post("/api/analysis/simulations", json={"position": json.loads(MIDGAME.read_text())})
    assert started.status_code == 201, started.text
    events = f"/api/analysis/simulations/{started.json()['id']}/events"
    client.post(f"/api/analysis/simulations/{started.json()['id']}/stop")
    with client.websocket_connect("/api/lobby/events") as lobby_socket:
        assert lobby_socket.receive_json()["type"] == "lobby"
        refused = client.get(events)
        assert refused.status_code == 429
        coded(refused.json(), "too-many-requests")
    assert "event: end" in client.get(events).text   # the socket closed: room again


def test_puzzle_answers_past_a_clients_allowance_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "ANSWERS_PER_MINUTE", 2)
    with TestClient(web_app(tmp_path)) as client:
        url = f"/api/puzzles/{next(iter(shipped_puzzles()))}/attempt"
        answers = [client.post(url, json={"action": "pass"}) for _ in range(3)]
        assert [answer.status_code == 429 for answer in answers] == [False, False, True], answers
        coded(answers[2].json(), "too-many-requests")
