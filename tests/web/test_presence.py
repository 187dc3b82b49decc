"""Which seats are connected: the events sockets tell every socket of a game, each time one opens or
closes, ``{"type": "presence", "seats": [...]}``, and a socket's first view says it too (issue 42 item 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from web_helpers import TestClient, auth, client_of, create


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as made:
        yield made


def _opened(socket: Any, token: str) -> list[bool]:
    """Authenticate ``socket``: its first message is its view, with the seats' presence."""
    socket.send_text(auth(token))
    first = socket.receive_json()
    assert first["type"] == "view"
    return list(first["presence"])


def _next_presence(socket: Any) -> list[bool]:
    """The seats of the socket's next presence message, past the views a bot's moves send meanwhile."""
    while True:
        message = socket.receive_json()
        if message["type"] == "presence":
            return list(message["seats"])
        assert message["type"] == "view", message


def test_a_socket_hears_which_seats_are_connected_and_when_one_goes_away(client: TestClient) -> None:
    made = create(client, ["human", "human", "greedy"])
    tokens = [seat["token"] for seat in made["seats"][:2]]
    events = f"/api/games/{made['id']}/events"
    with client.websocket_connect(events) as first:
        assert _opened(first, tokens[0]) == [True, False, False]
        with client.websocket_connect(events) as second:
            assert _opened(second, tokens[1]) == [True, True, False]
            assert _next_presence(first) == [True, True, False]
        assert _next_presence(first) == [True, False, False]


def test_a_seat_with_two_tabs_stays_connected_while_one_is_open(client: TestClient) -> None:
    made = create(client, ["human", "human"])
    token = made["seats"][0]["token"]
    events = f"/api/games/{made['id']}/events"
    with client.websocket_connect(events) as first:
        assert _opened(first, token) == [True, False]
        with client.websocket_connect(events) as second:
            assert _opened(second, token) == [True, False]
            assert _next_presence(first) == [True, False]
        assert _next_presence(first) == [True, False]
