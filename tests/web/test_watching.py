"""Games open to watchers and the tables' chat (issue 44 item 4; docs/CLUB.md "Watching and chat"): a
watcher's view and every socket message it gets hold no rack or hand, for a whole bot game of each kind;
a game not open to watchers is refused to them; the players' and the watchers' rooms reach only their
readers, and a message's length, characters and rate are bounded."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from ginnyo import rack_code
from ginnyo.crazy.cards import cards_text
from ginnyo.web.games.crazy import CrazyTable
from ginnyo.web.games.ginnyo import Table, watcher_view
from ginnyo.web.live.chat import MAX_TEXT, MESSAGES_PER_WINDOW, Chats
from ginnyo.web.live.registry import Tables
from ginnyo.web.live.table import SeatTable
from web_helpers import LOCAL, WAIT_SECONDS, TestClient, act, auth, bearer, client_of, create, play_to_end, view

SEED = 48_151_623_427
OURS = {"Origin": f"http://{LOCAL}"}
WATCH = json.dumps({"type": "watch"})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def tables_of(client: TestClient) -> Tables:
    tables: Tables = client.app.state.tables   # type: ignore[attr-defined]
    return tables


def rack_text(tiles: Any) -> str:
    return " ".join(rack_code(tile) for tile in sorted(tiles))


def racks_of(table: Table) -> list[str]:
    """What no watcher may read during the game: every rack, the box's next tiles, the seed."""
    game = table.game
    hidden = [rack_text(rack) for rack in game.racks if len(rack) >= 3]
    box = [rack_code(tile) for tile in reversed(game.box.tiles)]
    if len(box) >= 4:
        hidden += [" ".join(box[:4]), json.dumps(box[:4])]
    return hidden + [str(table.seed)]


def hands_of(table: CrazyTable) -> list[str]:
    """Every hand of 3 cards or more, as a view would write it, and the seed."""
    return [cards_text(sorted(hand)) for hand in table.match.shown.hands if len(hand) >= 3] + [str(table.seed)]


def sign_up(client: TestClient, name: str = "Kibitz") -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": "correct horse battery"}, headers=OURS)
    assert answer.status_code == 201, answer.text


# -- who may watch ------------------------------------------------------------------------------------

def test_a_game_is_not_open_to_watchers_unless_made_so(client: TestClient) -> None:
    made = create(client, ["human", "greedy"], seed=SEED)
    answer = client.get(f"/api/games/{made['id']}")
    assert answer.status_code == 403 and "not open to watchers" in answer.json()["error"]
    with client.websocket_connect(f"/api/games/{made['id']}/events") as socket:
        socket.send_text(WATCH)
        assert socket.receive_json()["type"] == "error"
        assert socket.receive()["code"] == 4403
    assert client.get(f"/api/games/{made['id']}/chat").status_code == 403


@pytest.mark.parametrize("value", [1, "yes", None, [True]])
def test_watchable_must_be_true_or_false(client: TestClient, value: Any) -> None:
    answer = client.post("/api/games", json={"seats": ["human", "greedy"], "watchable": value})
    assert answer.status_code == 400 and "field 'watchable'" in answer.json()["error"]


def test_a_game_stays_open_to_watchers_when_rebuilt_from_the_store(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        made = create(client, ["human", "human"], seed=SEED, watchable=True)
        closed = create(client, ["human", "human"], seed=SEED)
    with client_of(tmp_path) as client:
        assert client.get(f"/api/games/{made['id']}").status_code == 200
        assert client.get(f"/api/games/{closed['id']}").status_code == 403


def test_a_rematch_is_open_to_watchers_as_its_game_was(client: TestClient) -> None:
    made = create(client, ["human", "random"], seed=SEED, watchable=True)
    token = made["seats"][0]["token"]
    play_to_end(client, made["id"], [token])
    rematch = client.post(f"/api/games/{made['id']}/rematch", headers=bearer(token))
    assert rematch.status_code == 201
    assert client.get(f"/api/games/{made['id']}").json()["rematch"]["id"] == rematch.json()["id"]
    assert client.get(f"/api/games/{rematch.json()['id']}").status_code == 200


# -- a watcher's view ----------------------------------------------------------------------------------

def test_a_watchers_view_holds_no_rack(client: TestClient) -> None:
    made = create(client, ["human", "human", "greedy"], seed=SEED, watchable=True)
    answer = client.get(f"/api/games/{made['id']}")
    assert answer.status_code == 200
    seen = answer.json()
    table = tables_of(client).get(made["id"])
    assert isinstance(table, Table)
    assert seen["seat"] is None and seen["watching"] and not seen["your_turn"]
    assert seen["position"]["rack"] == "" and not seen["can_pass"] and not seen["can_return"]
    assert seen["rack_sizes"] == [len(rack) for rack in table.game.racks]
    assert seen["position"]["unseen"] == rack_text([*table.game.box.tiles, *(t for r in table.game.racks for t in r)])
    for secret in racks_of(table):
        assert secret not in answer.text
    player = view(client, made["id"], made["seats"][0]["token"])
    same = ("board", "layout", "scores")
    assert {key: seen["position"][key] for key in same} == {key: player["position"][key] for key in same}


def test_a_watchers_view_does_not_change_with_the_hidden_tiles(client: TestClient) -> None:
    made = create(client, ["human", "human", "greedy"], seed=SEED, watchable=True)
    table = tables_of(client).get(made["id"])
    assert isinstance(table, Table)
    game, rng = table.game, random.Random(3)
    with table.lock:
        before = watcher_view(table)
        pool = [tile for rack in game.racks for tile in rack] + list(game.box.tiles)
        rng.shuffle(pool)
        for rack in game.racks:
            size = len(rack)
            rack[:], pool = pool[:size], pool[size:]
        game.box.tiles[:] = pool
        assert watcher_view(table) == before


def test_a_watcher_sees_a_return_only_as_its_number_of_tiles(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True)
    tokens = [seat["token"] for seat in made["seats"]]
    mover = view(client, made["id"], tokens[0])["to_move"]
    rack = view(client, made["id"], tokens[mover])["position"]["rack"].split()
    assert act(client, made["id"], tokens[mover], "return " + " ".join(rack[:2])).status_code == 200
    seen = client.get(f"/api/games/{made['id']}").json()
    assert seen["history"][-1]["action"] == "return 2 tiles" and seen["last"]["action"] == "return 2 tiles"


def test_a_crazy_rummy_watchers_view_holds_no_hand(client: TestClient) -> None:
    made = create(client, ["human", "human", "human"], seed=SEED, game="crazy", watchable=True)
    answer = client.get(f"/api/games/{made['id']}")
    seen = answer.json()
    table = tables_of(client).get(made["id"])
    assert isinstance(table, CrazyTable)
    assert seen["seat"] is None and seen["watching"] and seen["hand"] == "" and not seen["your_turn"]
    assert seen["hand_sizes"] == [len(hand) for hand in table.match.shown.hands]
    for secret in hands_of(table):
        assert secret not in answer.text


# -- a whole bot game watched over a socket ----------------------------------------------------------

def watch_whole_game(client: TestClient, monkeypatch: pytest.MonkeyPatch, made: Callable[[], dict[str, Any]],
                     secrets: dict[int, list[str]]) -> list[str]:
    """Every message a watcher's socket gets from the game's making to its end (its bots held until the
    watcher is in); ``secrets`` is filled, version by version, by the test's recording ``apply``."""
    bots = tables_of(client).bots
    schedule = bots.schedule
    held: list[SeatTable] = []
    monkeypatch.setattr(bots, "schedule", held.append)
    game = made()["id"]
    table = tables_of(client).get(game)
    assert isinstance(table, (CrazyTable, Table))
    secrets[0] = hands_of(table) if isinstance(table, CrazyTable) else racks_of(table)
    frames = []
    with client.websocket_connect(f"/api/games/{game}/events") as socket:
        socket.send_text(WATCH)
        frames.append(socket.receive_text())
        monkeypatch.setattr(bots, "schedule", schedule)
        for table in held:
            schedule(table)
        # the socket's receive waits forever: the game's end is waited for (bounded) through the API, and
        # the frames read after it, every one of them sent by then
        deadline = time.monotonic() + WAIT_SECONDS
        while not (seen := client.get(f"/api/games/{game}").json())["finished"]:
            assert time.monotonic() < deadline, f"the bots did not finish within {WAIT_SECONDS} s: {seen['version']}"
            time.sleep(0.02)
        while not json.loads(frames[-1])["view"]["finished"]:
            frames.append(socket.receive_text())
    return frames


def assert_no_secret_in(frames: list[str], secrets: dict[int, list[str]]) -> None:
    assert len(frames) > 10
    for text in frames:
        message = json.loads(text)
        assert message["type"] == "view" and message["view"]["seat"] is None
        if not message["view"]["finished"]:
            for secret in secrets[message["view"]["version"]]:
                assert secret not in text, f"{secret!r} leaked at version {message['view']['version']}"


def test_a_watched_ginnyo_bot_game_never_shows_a_rack(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets: dict[int, list[str]] = {}
    apply = Table.apply

    def recording_apply(table: Table, action: Any) -> str:
        text = apply(table, action)
        secrets[table.version] = racks_of(table)
        return text

    monkeypatch.setattr(Table, "apply", recording_apply)
    frames = watch_whole_game(client, monkeypatch, lambda: create(
        client, ["greedy", "random", "greedy"], seed=SEED, watchable=True), secrets)
    assert_no_secret_in(frames, secrets)
    for text in frames:
        assert json.loads(text)["view"]["position"]["rack"] == ""


def test_a_watched_crazy_rummy_bot_game_never_shows_a_hand(client: TestClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    secrets: dict[int, list[str]] = {}
    apply = CrazyTable.apply

    def recording_apply(table: CrazyTable, action: Any) -> str:
        text = apply(table, action)
        secrets[table.version] = hands_of(table)
        return text

    monkeypatch.setattr(CrazyTable, "apply", recording_apply)
    frames = watch_whole_game(client, monkeypatch, lambda: create(
        client, ["advisor", "stock", "advisor"], seed=SEED, game="crazy", watchable=True), secrets)
    assert_no_secret_in(frames, secrets)
    for text in frames:
        seen = json.loads(text)["view"]
        assert seen["hand"] == ""
        turn = seen["turn"]
        assert turn is None or turn["card"] is None or turn["draw"] == "discard"
        assert not any(entry["text"].startswith("draws ") and entry["text"] != "draws from the stock"
                       for entry in seen["history"])


# -- the chat -------------------------------------------------------------------------------------------

def post(client: TestClient, game: str, text: Any, headers: dict[str, str] | None = None, **fields: Any) -> Any:
    return client.post(f"/api/games/{game}/chat", json={"text": text, **fields}, headers=headers or OURS)


def test_players_and_watchers_write_in_their_own_rooms(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True, names=["Ann", "Bo"])
    game, token = made["id"], made["seats"][0]["token"]
    said = post(client, game, "  good luck  ", bearer(token))
    assert said.status_code == 201 and said.json()["room"] == "players" and said.json()["sender"] == "Ann"
    assert said.json()["text"] == "good luck"
    sign_up(client)
    heard = post(client, game, "seat 1 holds the joker")
    assert heard.status_code == 201 and heard.json()["room"] == "watchers" and heard.json()["sender"] == "Kibitz"
    players = client.get(f"/api/games/{game}/chat", headers=bearer(made["seats"][1]["token"])).json()["messages"]
    assert [message["text"] for message in players] == ["good luck"]
    watchers = client.get(f"/api/games/{game}/chat").json()["messages"]
    assert [message["text"] for message in watchers] == ["good luck", "seat 1 holds the joker"]


def test_a_watchers_message_to_the_players_room_is_a_403(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True)
    sign_up(client)
    answer = post(client, made["id"], "psst", room="players")
    assert answer.status_code == 403 and "field 'room'" in answer.json()["error"]
    player = post(client, made["id"], "hello", bearer(made["seats"][0]["token"]), room="watchers")
    assert player.status_code == 403
    assert client.get(f"/api/games/{made['id']}/chat").json()["messages"] == []


def test_a_watcher_writes_only_signed_in_and_from_our_pages(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True)
    assert post(client, made["id"], "hi").status_code == 401
    sign_up(client)
    assert post(client, made["id"], "hi", {"Origin": "http://evil.example"}).status_code == 403
    closed = create(client, ["human", "human"], seed=SEED)
    assert post(client, closed["id"], "hi").status_code == 403


def test_a_player_never_hears_the_watchers_room_during_the_game(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED, watchable=True, names=["Ann", "Bo"])
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    sign_up(client)
    with client.websocket_connect(f"/api/games/{game}/events") as player, \
            client.websocket_connect(f"/api/games/{game}/events") as watcher:
        player.send_text(auth(tokens[1]))
        watcher.send_text(WATCH)
        assert next_chat(player)["type"] == "view" and next_chat(watcher)["type"] == "view"   # past presence
        assert post(client, game, "seat 1 holds the joker").status_code == 201
        assert post(client, game, "your move", bearer(tokens[0])).status_code == 201
        heard = next_chat(player)
        assert heard == {"type": "chat", "message": {**heard["message"], "room": "players", "text": "your move"}}
        assert [next_chat(watcher)["message"]["text"] for _ in range(2)] == ["seat 1 holds the joker", "your move"]


def next_chat(socket: Any) -> dict[str, Any]:
    """The socket's next message but a presence one (the seats' connections: a socket come or gone)."""
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] != "presence":
            return message


@pytest.mark.parametrize("text, rule", [
    ("x" * (MAX_TEXT + 1), "at most"), ("", "empty"), ("   ", "empty"), ("two\nlines", "printable"),
    ("bell\x07", "printable"), ("hidden\u200bspace", "printable"), (42, "string"), (None, "string")])
def test_a_message_too_long_empty_or_unprintable_is_a_400(client: TestClient, text: Any, rule: str) -> None:
    made = create(client, ["human", "human"], seed=SEED)
    answer = post(client, made["id"], text, bearer(made["seats"][0]["token"]))
    assert answer.status_code == 400 and "field 'text'" in answer.json()["error"] and rule in answer.json()["error"]


def test_a_message_of_the_most_characters_is_taken(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=SEED)
    assert post(client, made["id"], "é" * MAX_TEXT, bearer(made["seats"][0]["token"])).status_code == 201


def test_a_sender_faster_than_the_rate_is_a_429_with_retry_after(client: TestClient) -> None:
    client.app.state.chats = Chats(tables_of(client).store, clock=lambda: 0.0)   # type: ignore[attr-defined]
    made = create(client, ["human", "human"], seed=SEED)
    tokens = [seat["token"] for seat in made["seats"]]
    for number in range(MESSAGES_PER_WINDOW):
        assert post(client, made["id"], f"message {number}", bearer(tokens[0])).status_code == 201
    refused = post(client, made["id"], "one more", bearer(tokens[0]))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert post(client, made["id"], "another sender", bearer(tokens[1])).status_code == 201
    texts = [message["text"] for message in client.get(f"/api/games/{made['id']}/chat",
                                                       headers=bearer(tokens[0])).json()["messages"]]
    assert "one more" not in texts and len(texts) == MESSAGES_PER_WINDOW + 1
