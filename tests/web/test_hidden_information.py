"""Hidden information stays hidden (issue 27 §3): no answer or socket message to a seat holds another
seat's rack, the seed or the box order during the game; a request without the seat's token is refused
and changes nothing; tokens are stored hashed."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from websockets.sync.client import connect

from ginnyo import rack_code
from ginnyo.web.store import DATABASE_NAME
from ginnyo.web.games.ginnyo import Table, seat_view
from web_helpers import (LiveServer, TestClient, act, auth, bearer, best_action, client_of, create, live_server, view,
                         wait_for, WAIT_SECONDS)

SEED = 48_151_623_427   # long enough that its digits appear nowhere by chance


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def table_of(client: TestClient, game: str) -> Table:
    table: Table = client.app.state.tables.tables[game]   # type: ignore[attr-defined]
    return table


def rack_text(tiles: Any) -> str:
    return " ".join(rack_code(tile) for tile in sorted(tiles))


def secrets_of(table: Table, seat: int) -> list[str]:
    """What seat ``seat`` must not read now: every other rack, the seed, the next tiles of the box."""
    game = table.game
    hidden = [rack_text(rack) for other, rack in enumerate(game.racks) if other != seat and len(rack) >= 3]
    box = [rack_code(tile) for tile in reversed(game.box.tiles)]
    if len(box) >= 4:
        hidden.append(" ".join(box[:4]))
        hidden.append(json.dumps(box[:4]))
    hidden.append(str(table.seed))
    return hidden


def assert_hides(text: str, secrets: list[str]) -> None:
    for secret in secrets:
        assert secret not in text, f"{secret!r} leaked"


# -- what a view holds --------------------------------------------------------------------------

def shuffled_hidden_tiles(table: Table, seat: int, rng: random.Random) -> None:
    """Deal the tiles ``seat`` cannot see (the other racks and the box) anew, each rack keeping its size,
    and mix the box: what the seat sees must not change."""
    game = table.game
    others = [other for other in range(game.players) if other != seat]
    pool = [tile for other in others for tile in game.racks[other]] + list(game.box.tiles)
    rng.shuffle(pool)
    for other in others:
        size = len(game.racks[other])
        game.racks[other][:] = pool[:size]
        del pool[:size]
    game.box.tiles[:] = pool


def test_a_view_does_not_change_with_the_tiles_the_seat_cannot_see(client: TestClient) -> None:
    made = create(client, ["human", "human", "greedy"], seed=SEED)
    tokens = [seat["token"] for seat in made["seats"][:2]]
    table = table_of(client, made["id"])
    rng = random.Random(1)
    for _ in range(12):
        seen = view(client, made["id"], tokens[0])
        for seat in (0, 1):
            with table.lock:
                before = seat_view(table, seat)
                saved = [list(rack) for rack in table.game.racks], list(table.game.box.tiles)
                shuffled_hidden_tiles(table, seat, rng)
                after = seat_view(table, seat)
                for rack, tiles in zip(table.game.racks, saved[0]):
                    rack[:] = tiles
                table.game.box.tiles[:] = saved[1]
            assert after == before
        mover = next((token for token in tokens if view(client, made["id"], token)["your_turn"]), None)
        if mover is not None:
            seen = view(client, made["id"], mover)
            assert act(client, made["id"], mover, best_action(seen), seen["version"]).status_code == 200


def test_another_seats_return_shows_only_how_many_tiles(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED)
    tokens = [seat["token"] for seat in made["seats"]]
    seen = view(client, made["id"], tokens[0])
    mover, waiting = seen["to_move"], 1 - seen["to_move"]
    rack = view(client, made["id"], tokens[mover])["position"]["rack"].split()
    returned = sorted(rack[:2])
    answer = act(client, made["id"], tokens[mover], "return " + " ".join(returned))
    assert answer.status_code == 200
    assert answer.json()["history"][-1]["action"] == "return " + " ".join(sorted(returned, key=_order))
    other = view(client, made["id"], tokens[waiting])
    assert other["history"][-1]["action"] == "return 2 tiles"
    assert other["last"]["action"] == "return 2 tiles"


def _order(code: str) -> int:
    from ginnyo import parse_rack_tile
    return parse_rack_tile(code)


def test_the_unseen_tiles_are_the_box_and_the_other_racks_together(client: TestClient) -> None:
    made = create(client, ["human", "greedy"], seed=SEED)
    seen = wait_for(client, made["id"], made["seats"][0]["token"])   # the bot still: its rack and the box stay put
    game = table_of(client, made["id"]).game
    expected = rack_text([*game.box.tiles, *game.racks[1]])
    assert seen["position"]["unseen"] == expected


def test_the_view_names_no_seed_or_box(client: TestClient) -> None:
    made = create(client, ["human", "greedy"], seed=SEED)
    seen = view(client, made["id"], made["seats"][0]["token"])
    assert not {"seed", "box_order", "tiles"} & set(seen) and not {"seed", "box"} & set(seen["position"])


# -- two people and bots through the API and the sockets ----------------------------------------

class Listener(threading.Thread):
    """Reads every socket message of one seat until the game is over (or :meth:`stop`)."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.messages: list[str] = []
        self.ready = threading.Event()
        self.stopping = threading.Event()

    def run(self) -> None:
        # the handshake may take long on a loaded machine: waited for as long as the bots are
        with connect(self.url, open_timeout=WAIT_SECONDS) as socket:
            socket.send(auth(self.token))
            self.ready.set()
            while not self.stopping.is_set():
                try:
                    text = socket.recv(timeout=0.2)
                except TimeoutError:
                    continue
                assert isinstance(text, str)
                self.messages.append(text)
                message = json.loads(text)
                if message["type"] == "view" and message["view"]["finished"]:
                    return

    def stop(self) -> None:
        self.stopping.set()
        self.join(10)


def test_two_people_and_bots_never_read_each_others_racks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets: dict[str, dict[int, dict[int, list[str]]]] = {}   # game -> version -> seat -> what it must not read
    apply = Table.apply

    def recording_apply(table: Table, action: Any) -> str:
        # what the game holds before its first action too: a bot may move before the test looks (under the lock)
        secrets.setdefault(table.id, {}).setdefault(table.version, {seat: secrets_of(table, seat)
                                                                     for seat in range(table.game.players)})
        text = apply(table, action)
        secrets.setdefault(table.id, {})[table.version] = {seat: secrets_of(table, seat)
                                                          for seat in range(table.game.players)}
        return text

    monkeypatch.setattr(Table, "apply", recording_apply)
    with live_server(tmp_path) as server:
        _play_and_listen(server, secrets)


def _play_and_listen(server: LiveServer, secrets: dict[str, dict[int, dict[int, list[str]]]]) -> None:
    client = server.client
    made = create(client, ["human", "greedy", "human", "random"], seed=SEED)
    game = made["id"]
    table: Table = server.app.state.tables.tables[game]
    with table.lock:   # unless a bot has moved already, and recording_apply kept version 0 as it was dealt
        secrets.setdefault(game, {}).setdefault(0, {seat: secrets_of(table, seat) for seat in range(4)})
    tokens = {0: made["seats"][0]["token"], 2: made["seats"][2]["token"]}
    listeners = {seat: Listener(server.socket_url(game), token) for seat, token in tokens.items()}
    try:
        for listener in listeners.values():
            listener.start()
            assert listener.ready.wait(WAIT_SECONDS), "a seat's socket did not open"
        answers = 0
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            finished, moved_now = False, False
            for seat, token in tokens.items():
                answer = client.get(f"/api/games/{game}", headers=bearer(token))
                seen = answer.json()
                finished = seen["finished"]
                if finished:
                    break
                assert_hides(answer.text, secrets[game][seen["version"]][seat])
                if seen["your_turn"]:
                    rack = seen["position"]["rack"].split()
                    preview = client.post(f"/api/games/{game}/preview", headers=bearer(token),
                                          json={"placements": {"H8": rack[0]}})
                    assert_hides(preview.text, secrets[game][seen["version"]][seat])
                    moved = act(client, game, token, best_action(seen), seen["version"])
                    assert moved.status_code == 200
                    assert_hides(moved.text, secrets[game][moved.json()["version"]][seat])
                    answers += 1
                    moved_now = True
            if finished:
                break
            assert answers < 500
            if moved_now:
                deadline = time.monotonic() + WAIT_SECONDS
            else:   # the bots' turns: they are given the time, not a busy loop of GETs
                assert time.monotonic() < deadline, f"the bots did not move within {WAIT_SECONDS} s"
                time.sleep(0.01)
        for listener in listeners.values():
            listener.join(WAIT_SECONDS)
            assert not listener.is_alive(), "a seat's socket was not sent the finished game"
        for seat, listener in listeners.items():
            assert listener.messages
            for text in listener.messages:
                message = json.loads(text)
                if message["type"] == "presence":   # which seats are connected, how many watch: no tiles
                    assert set(message) == {"type", "seats", "watchers"}
                    continue
                assert message["view"]["seat"] == seat
                if not message["view"]["finished"]:
                    assert_hides(text, secrets[game][message["view"]["version"]][seat])
    finally:
        for listener in listeners.values():
            listener.stop()


# -- tokens -------------------------------------------------------------------------------------

ENDPOINTS = [("GET", "/api/games/{id}", None), ("POST", "/api/games/{id}/preview", {"placements": {"H8": "7C"}}),
             ("POST", "/api/games/{id}/actions", {"action": "pass"}), ("POST", "/api/games/{id}/rematch", None),
             ("GET", "/api/games/{id}/record", None)]


def _call(client: TestClient, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    return client.request(method, path, json=body, headers=headers)


@pytest.mark.parametrize("method, path, body", ENDPOINTS)
@pytest.mark.parametrize("headers, status", [
    ({}, 401),
    ({"Authorization": "Bearer"}, 401),
    ({"Authorization": "Basic dXNlcjpwYXNz"}, 401),
    ({"Authorization": "Bearer short"}, 401),
    ({"Authorization": "Bearer " + "A" * 43}, 401),
])
def test_a_request_without_a_seat_token_is_a_401_and_changes_nothing(
        client: TestClient, method: str, path: str, body: Any, headers: dict[str, str], status: int) -> None:
    made = create(client, ["human", "human"], seed=SEED)
    token = made["seats"][0]["token"]
    before = view(client, made["id"], token), _stored(client)
    answer = _call(client, method, path.format(id=made["id"]), body, headers)
    if method == "GET" and path == "/api/games/{id}" and not headers:   # no credential: a watcher, refused
        status = 403
    assert answer.status_code == status and answer.json()["error"]
    assert (view(client, made["id"], token), _stored(client)) == before


@pytest.mark.parametrize("method, path, body", ENDPOINTS)
def test_another_games_token_is_a_403_and_changes_nothing(client: TestClient, method: str, path: str,
                                                         body: Any) -> None:
    made = create(client, ["human", "human"], seed=SEED)
    other = create(client, ["human", "greedy"], seed=SEED + 1)
    token = made["seats"][0]["token"]
    before = view(client, made["id"], token), _stored(client)
    answer = _call(client, method, path.format(id=made["id"]), body, bearer(other["seats"][0]["token"]))
    assert answer.status_code == 403 and answer.json()["error"]
    assert (view(client, made["id"], token), _stored(client)) == before


def _stored(client: TestClient) -> tuple[int, int]:
    """How many games and actions the store holds."""
    store = client.app.state.tables.store   # type: ignore[attr-defined]
    games = store.games()
    return len(games), sum(len(store.actions(game.id)) for game in games)


@pytest.mark.parametrize("first", ["{}", '{"type": "auth"}', auth("nonsense"), auth("B" * 43), "not JSON",
                                   '{"type": "auth", "token": "\\ud800"}', "[" * 100_000])
def test_a_socket_without_a_seat_token_is_closed_4401(client: TestClient, first: str) -> None:
    made = create(client, ["human", "greedy"], seed=SEED)
    with client.websocket_connect(f"/api/games/{made['id']}/events") as socket:
        socket.send_text(first)
        message = socket.receive_json()
        assert message["type"] == "error" and message["error"]
        closed = socket.receive()
    assert closed["type"] == "websocket.close" and closed["code"] == 4401


def test_a_socket_with_another_games_token_is_closed_4403(client: TestClient) -> None:
    made = create(client, ["human", "greedy"], seed=SEED)
    other = create(client, ["human", "greedy"], seed=SEED)
    with client.websocket_connect(f"/api/games/{made['id']}/events") as socket:
        socket.send_text(auth(other["seats"][0]["token"]))
        assert socket.receive_json()["type"] == "error"
        assert socket.receive()["code"] == 4403


def test_a_socket_sends_only_its_seats_view(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED)
    token = made["seats"][1]["token"]
    with client.websocket_connect(f"/api/games/{made['id']}/events") as socket:
        socket.send_text(auth(token))
        message = socket.receive_json()
    assert message["type"] == "view" and message["view"] == view(client, made["id"], token)


def test_tokens_are_stored_hashed(client: TestClient, tmp_path: Path) -> None:
    made = create(client, ["human", "human"], seed=SEED)
    tokens = [seat["token"] for seat in made["seats"]]
    database = sqlite3.connect(tmp_path / DATABASE_NAME)
    dump = "\n".join(database.iterdump())
    database.close()
    for token in tokens:
        assert token not in dump
    raw = b"".join(path.read_bytes() for path in tmp_path.iterdir() if path.is_file())
    assert not any(token.encode() in raw for token in tokens)
