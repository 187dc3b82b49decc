"""The web server's guard (issue 40): no write from another site, no request addressed by a name the
server does not answer to (DNS rebinding), JSON bodies sent as JSON only, every odd body a 400, and
the events socket's token in its first message, never in its URL."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from ginnyo.web.http import sockets as web_sockets
from ginnyo.commands.serve import web_app
from web_helpers import TestClient, auth, bearer, client_of, create, view

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = json.loads((EXAMPLES / "midgame.json").read_text())
HUGE = "1" * 5000          # more digits than Python's int() reads (4 300)
FOREIGN_ORIGINS = ["http://evil.example", "null", "http://127.0.0.1:9999", "https://127.0.0.1.evil.example",
                   "http://127.0.0.1/path", "not an origin"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as made:
        yield made


def stored_games(client: TestClient) -> int:
    return len(client.app.state.tables.store.games())   # type: ignore[attr-defined]


def one_line_error(answer: Any, status: int) -> str:
    """The refusal's reason, checked to be ``status`` and one line ``{"error": "..."}`` (with its code and
    arguments where the app answers it, not the guard in front of it)."""
    assert answer.status_code == status, answer.text
    assert "\n" not in answer.text and list(answer.json()) in (["error"], ["error", "code", "args"])
    reason: str = answer.json()["error"]
    assert reason
    return reason


def json_endpoints(client: TestClient) -> list[tuple[str, dict[str, str]]]:
    """Every endpoint that reads a JSON body (path, the headers it needs), on games of each kind."""
    ginny = create(client, ["human", "human"])
    crazy = create(client, ["human", "human", "advisor"], game="crazy")
    seat, crazy_seat = bearer(ginny["seats"][0]["token"]), bearer(crazy["seats"][0]["token"])
    return [("/api/games", {}), (f"/api/games/{ginny['id']}/preview", seat), (f"/api/games/{ginny['id']}/actions", seat),
            (f"/api/games/{ginny['id']}/rematch", seat), (f"/api/games/{crazy['id']}/preview", crazy_seat),
            (f"/api/games/{crazy['id']}/actions", crazy_seat), ("/api/analysis", {}), ("/api/analysis/simulations", {})]


# -- Origin: no write from another site -------------------------------------------------------

@pytest.mark.parametrize("origin", FOREIGN_ORIGINS)
def test_a_write_from_another_origin_is_a_403_and_makes_nothing(client: TestClient, origin: str) -> None:
    answer = client.post("/api/games", json={"seats": ["human", "sim"]}, headers={"Origin": origin})
    assert "Origin" in one_line_error(answer, 403)
    assert stored_games(client) == 0
    for own in ({"Origin": "http://127.0.0.1"}, {"Origin": "HTTP://127.0.0.1:80"}, {}):   # a program sends none
        assert client.post("/api/games", json={"seats": ["human", "sim"]}, headers=own).status_code == 201
    assert stored_games(client) == 3


def test_a_move_from_another_origin_is_refused(client: TestClient) -> None:
    made = create(client, ["human", "human"])
    token = made["seats"][0]["token"]
    before = view(client, made["id"], token)
    answer = client.post(f"/api/games/{made['id']}/actions", json={"action": "return 7C"},
                         headers={**bearer(token), "Origin": "http://evil.example"})
    one_line_error(answer, 403)
    assert view(client, made["id"], token) == before


def test_a_socket_from_another_origin_is_closed_4403(client: TestClient) -> None:
    made = create(client, ["human", "greedy"])
    with client.websocket_connect(f"/api/games/{made['id']}/events", headers={"Origin": "http://evil.example"}) as socket:
        message = socket.receive_json()
        closed = socket.receive()
    assert message["type"] == "error" and "Origin" in message["error"]
    assert closed["type"] == "websocket.close" and closed["code"] == 4403


def test_a_socket_from_the_servers_own_origin_is_served(client: TestClient) -> None:
    made = create(client, ["human", "human"])   # no bot: its move would race the view compared
    token = made["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{made['id']}/events", headers={"Origin": "http://127.0.0.1"}) as socket:
        socket.send_text(auth(token))
        assert socket.receive_json()["view"] == view(client, made["id"], token)


# -- Host: only the names the server answers to -----------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "localhost.evil.example",
                                  "0.0.0.0", "", "127.0.0.1 x", "user@127.0.0.1"])
def test_a_request_for_another_host_is_a_421(client: TestClient, host: str) -> None:
    assert "Host" in one_line_error(client.get("/", headers={"Host": host}), 421)
    one_line_error(client.post("/api/games", json={"seats": ["human", "sim"]}, headers={"Host": host}), 421)
    assert stored_games(client) == 0


def test_a_socket_for_another_host_is_refused(client: TestClient) -> None:
    made = create(client, ["human", "greedy"])
    with client.websocket_connect(f"ws://evil.example/api/games/{made['id']}/events") as socket:
        assert socket.receive_json()["type"] == "error"
        assert socket.receive()["code"] == 4421


@pytest.mark.parametrize("host, status", [("127.0.0.1:8765", 200), ("localhost:8765", 200), ("[::1]:8765", 200),
                                          ("LOCALHOST:8765", 200), ("127.0.0.1:8766", 421), ("localhost", 421),
                                          ("table.example", 200), ("table.example:443", 200),
                                          ("box.example:8000", 200), ("box.example:8001", 421), ("box.example", 421)])
def test_the_loopback_names_on_the_served_port_and_the_allowed_hosts_are_answered(tmp_path: Path, host: str,
                                                                                  status: int) -> None:
    app = web_app(tmp_path, allowed_hosts=["table.example", "box.example:8000"], port=8765)
    with TestClient(app) as client:
        assert client.get("/api/health", headers={"Host": host}).status_code == status


# -- Content-Type: JSON bodies as JSON only ---------------------------------------------------

@pytest.mark.parametrize("media_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                        "application/json-patch+json", "application/json; charset=latin-1", None])
def test_a_json_body_of_another_type_is_a_415(client: TestClient, media_type: str | None) -> None:
    body = json.dumps({"seats": ["human", "greedy"], "position": EXAMPLE, "action": "pass"}).encode()
    for path, headers in json_endpoints(client):
        given = {**headers, **({} if media_type is None else {"Content-Type": media_type})}
        assert "Content-Type" in one_line_error(client.post(path, content=body, headers=given), 415), path
    assert stored_games(client) == 2    # the two of json_endpoints only
    for media_type in ("application/json; charset=utf-8", 'Application/JSON;charset="UTF-8"'):
        answer = client.post("/api/games", content=b'{"seats": ["human", "greedy"]}', headers={"Content-Type": media_type})
        assert answer.status_code == 201, answer.text


# -- odd bodies: a 400, never a 500 -----------------------------------------------------------

@pytest.mark.parametrize("body", ['{"seed": %s}' % HUGE, '{"x": [%s]}' % HUGE, '{"version": -%s}' % HUGE,
                                  '{"position": {"scores": [%s, 0]}}' % HUGE])
def test_a_number_of_5000_digits_is_a_400_on_every_json_endpoint(client: TestClient, body: str) -> None:
    for path, headers in json_endpoints(client):
        answer = client.post(path, content=body, headers={**headers, "Content-Type": "application/json"})
        assert "digits" in one_line_error(answer, 400), path


@pytest.mark.parametrize("path, body", [
    ("/api/games", '{"seats": ["human", "greedy"], "names": ["Ann", "\\ud800"]}'),
    ("/api/games", '{"seats": ["human", "greedy"], "\\udfff": 1}'),
    ("/api/analysis", '{"position": "\\ud83d"}'),
    ("/api/analysis", '{"position": {"layout": "standard", "rack": "7C \\udc00"}}'),
    ("/api/analysis/simulations", '{"position": {"rack": ["\\ud800"]}}'),
])
def test_a_lone_surrogate_is_a_400(client: TestClient, path: str, body: str) -> None:
    answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert "surrogate" in one_line_error(answer, 400)
    assert stored_games(client) == 0


def test_a_lone_surrogate_in_a_seats_request_is_a_400(client: TestClient) -> None:
    made = create(client, ["human", "human"])
    headers = {**bearer(made["seats"][0]["token"]), "Content-Type": "application/json"}
    for what, body in (("actions", '{"action": "8H 7C\\ud800"}'), ("preview", '{"placements": {"H8": "\\udfff"}}')):
        answer = client.post(f"/api/games/{made['id']}/{what}", content=body, headers=headers)
        assert "surrogate" in one_line_error(answer, 400)
    pair = '{"seats": ["human", "greedy"], "names": ["\\ud83c\\udccf", "Bot"]}'   # a pair is one character
    answer = client.post("/api/games", content=pair, headers={"Content-Type": "application/json"})
    assert answer.status_code == 201, answer.text
    assert answer.json()["seats"][0]["name"] == "\U0001f0cf"


def test_a_record_with_a_lone_surrogate_is_a_400(client: TestClient) -> None:
    record = (EXAMPLES / "game-7.jsonl").read_text()
    broken = re.sub(r'"names": \["[^"]*"', '"names": ["\\\\ud800"', record, count=1)
    assert broken != record
    assert client.post("/api/review", content=record, headers={"Content-Type": "text/plain"}).status_code == 200
    answer = client.post("/api/review", content=broken, headers={"Content-Type": "text/plain"})
    assert "surrogate" in one_line_error(answer, 400)


# -- the events socket: the token in the first message ----------------------------------------

def test_the_socket_takes_the_token_in_its_first_message(client: TestClient) -> None:
    made = create(client, ["human", "human"])   # no bot: its move would race the view compared
    token = made["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{made['id']}/events") as socket:
        socket.send_text(auth(token))
        message = socket.receive_json()
    assert message == {"type": "view", "view": view(client, made["id"], token), "presence": [True, False]}


def test_a_token_in_the_sockets_url_is_refused(client: TestClient) -> None:
    made = create(client, ["human", "greedy"])
    token = made["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{made['id']}/events?token={token}") as socket:
        message = socket.receive_json()
        assert message["type"] == "error" and "first message" in message["error"]
        assert socket.receive()["code"] == 4400


def test_a_silent_socket_is_closed_4401(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_sockets, "AUTH_SECONDS", 0.2)
    made = create(client, ["human", "greedy"])
    with client.websocket_connect(f"/api/games/{made['id']}/events") as socket:
        message = socket.receive_json()        # nothing sent: the server gives up waiting
        closed = socket.receive()
    assert message["type"] == "error" and "auth" in message["error"]
    assert closed["code"] == 4401
