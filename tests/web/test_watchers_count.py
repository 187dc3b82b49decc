"""How many watch a game (docs/WEB.md, "A seat's view"): the view of either game kind counts the watchers'
sockets open, the game's sockets are told at once when one comes or goes, and the other processes'
watchers count too (:mod:`ginnyo.web.live.peers`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from web_helpers import TestClient, auth, client_of, create, view

SEED = 48_151_623_427
WATCH = json.dumps({"type": "watch"})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def presence(socket: Any) -> dict[str, Any]:
    """The socket's next message, a presence one (a socket come or gone)."""
    message: dict[str, Any] = socket.receive_json()
    assert message["type"] == "presence", message
    return message


@pytest.mark.parametrize("game", ["ginny-o", "crazy"])
def test_a_players_view_counts_the_watchers_sockets(client: TestClient, game: str) -> None:
    made = create(client, ["human", "human", "human"], seed=SEED, game=game, watchable=True)
    token = made["seats"][0]["token"]
    assert view(client, made["id"], token)["watchers"] == 0
    with client.websocket_connect(f"/api/games/{made['id']}/events") as watcher:
        watcher.send_text(WATCH)
        first = watcher.receive_json()
        assert first["type"] == "view" and first["view"]["watchers"] == 1   # itself
        assert view(client, made["id"], token)["watchers"] == 1
    assert view(client, made["id"], token)["watchers"] == 0


def test_a_players_socket_is_told_when_a_watcher_comes_and_goes(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True)
    events = f"/api/games/{made['id']}/events"
    with client.websocket_connect(events) as player:
        player.send_text(auth(made["seats"][0]["token"]))
        assert player.receive_json()["view"]["watchers"] == 0
        with client.websocket_connect(events) as watcher:
            watcher.send_text(WATCH)
            assert presence(player) == {"type": "presence", "seats": [True, False], "watchers": 1}
            assert watcher.receive_json()["view"]["watchers"] == 1
            with client.websocket_connect(events) as second:
                second.send_text(WATCH)
                assert presence(player)["watchers"] == 2
                assert presence(watcher)["watchers"] == 2
        assert presence(player)["watchers"] == 1
        assert presence(player)["watchers"] == 0


def test_the_watchers_of_another_process_are_counted_until_it_tells_them_gone(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True)
    game, token = made["id"], made["seats"][0]["token"]
    peers = client.app.state.peers   # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/games/{game}/events") as player:
        player.send_text(auth(token))
        assert player.receive_json()["view"]["watchers"] == 0
        peers.heard({"origin": "elsewhere", "type": "seats", "game": game, "seats": [], "watchers": 3})
        assert presence(player)["watchers"] == 3
        assert view(client, game, token)["watchers"] == 3
        peers.heard({"origin": "elsewhere", "type": "here", "online": [], "seats": {}, "watchers": {}})
        assert presence(player)["watchers"] == 0
        assert view(client, game, token)["watchers"] == 0


@pytest.mark.parametrize("told", [-1, 10**9, "3", None, [3]])
def test_a_count_told_that_is_no_count_is_taken_for_none(client: TestClient, told: Any) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True)
    peers = client.app.state.peers   # type: ignore[attr-defined]
    peers.heard({"origin": "elsewhere", "type": "seats", "game": made["id"], "seats": [1], "watchers": told})
    seen = view(client, made["id"], made["seats"][0]["token"])
    assert seen["watchers"] == 0
