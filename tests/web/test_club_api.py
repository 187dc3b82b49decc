"""The club's seeks, lobby and ratings from the outside (docs/CLUB.md, "Seeks and the lobby",
"Ratings"): two accounts make and join a rated seek, play it to its end with their own seat tokens and
see their ratings move (the winner up, the loser down) and the game in their histories; a bot seek
played at once; the refusals (401, 403, 409, 400); the lobby's socket pushing a new seek."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from ginnyo.web.http.accounts import SESSION_COOKIE
from ginnyo.commands.serve import web_app
from web_helpers import LOCAL, WAIT_SECONDS, TestClient, bearer, play_to_end, view

OURS = {"Origin": f"http://{LOCAL}"}
PASSWORD = "correct horse battery"
SEEK = {"game": "ginnyo", "players": 2, "clock": {"initial": 300, "increment": 2}, "rated": True}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(web_app(tmp_path), raise_server_exceptions=True) as made:
        yield made


class Player:
    """An account's session on the one client (the cookie swapped in for each of its requests)."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client, self.name = client, name
        client.cookies.clear()
        made = client.post("/api/accounts", json={"name": name, "password": PASSWORD}, headers=OURS)
        assert made.status_code == 201, made.text
        self.session = client.cookies[SESSION_COOKIE]

    def request(self, method: str, url: str, **options: Any) -> Any:
        self.client.cookies.clear()
        self.client.cookies.set(SESSION_COOKIE, self.session)
        return self.client.request(method, url, headers=OURS, **options)


def rated_after(client: TestClient, name: str, games: int) -> dict[str, Any]:
    """The player's answer once ``games`` rated games are in its history (rated in a worker thread)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        answer = client.get(f"/api/players/{name}")
        assert answer.status_code == 200, answer.text
        if len(answer.json()["games"]) >= games:
            return dict(answer.json())
        assert time.monotonic() < deadline, f"{name}'s game was not rated within {WAIT_SECONDS} s"
        time.sleep(0.02)


def test_two_accounts_play_a_rated_seek_and_their_ratings_move(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    made = ann.request("POST", "/api/seeks", json=SEEK)
    assert made.status_code == 201, made.text
    seek = made.json()
    assert seek["seated"] == ["Ann"] and seek["clock"] == {"initial": 300, "increment": 2} and not seek["full"]
    assert [entry["id"] for entry in client.get("/api/seeks").json()["seeks"]] == [seek["id"]]
    joined = bob.request("POST", f"/api/seeks/{seek['id']}/join")
    assert joined.status_code == 200, joined.text
    game, bob_seat = joined.json()["game_id"], joined.json()["seat"]
    assert bob_seat["seat"] == 1 and client.get("/api/seeks").json()["seeks"] == []
    assert bob.request("POST", f"/api/seeks/{seek['id']}/join").status_code == 409   # full: started
    ann_seat = ann.request("POST", f"/api/seeks/{seek['id']}/seat").json()
    assert ann_seat["seat"] == 0 and ann_seat["id"] == game
    assert bob.request("POST", f"/api/seeks/{seek['id']}/seat").json()["seat"] == 1
    assert Player(client, "Cid").request("POST", f"/api/seeks/{seek['id']}/seat").status_code == 404
    client.cookies.clear()
    assert client.post(f"/api/seeks/{seek['id']}/seat", headers=OURS).status_code == 401
    watched = client.get(f"/api/games/{game}")   # a seek's game is open to watchers: no credential, no rack
    assert watched.status_code == 200 and watched.json()["seat"] is None, watched.text
    assert watched.json()["position"]["rack"] == "" and len(watched.json()["rack_sizes"]) == 2
    last = play_to_end(client, game, [ann_seat["token"], bob_seat["token"]])
    scores = last["result"]["final_scores"] if "result" in last else view(client, game, ann_seat["token"])["scores"]
    ann_after, bob_after = rated_after(client, "Ann", 1), rated_after(client, "bob", 1)
    assert bob_after["name"] == "Bob"
    [ann_game], [bob_game] = ann_after["games"], bob_after["games"]
    assert ann_game["id"] == bob_game["id"] == game and ann_game["game"] == "ginnyo"
    assert ann_after["ratings"]["ginnyo"]["games"] == 1 and ann_after["ratings"]["ginnyo"]["provisional"]
    if scores[0] == scores[1]:
        assert ann_game["result"] == bob_game["result"] == "drew"
        return
    winner, loser = (ann_game, bob_game) if scores[0] > scores[1] else (bob_game, ann_game)
    assert (winner["result"], loser["result"]) == ("won", "lost")
    assert winner["rating_change"] > 0 > loser["rating_change"]
    board = client.get("/api/leaderboard?game=ginnyo").json()["players"]
    assert [entry["name"] for entry in board] == [name for name in ("Ann", "Bob")
                                                   if name == ("Ann" if winner is ann_game else "Bob")] + \
        [name for name in ("Ann", "Bob") if name != ("Ann" if winner is ann_game else "Bob")]
    assert board[0]["rating"] > board[1]["rating"]
    history = client.get(f"/api/players/{'Ann' if winner is ann_game else 'Bob'}").json()
    assert history["ratings"]["ginnyo"]["rating"] == winner["rating_after"]


def test_a_bot_seek_is_played_at_once_and_rates_the_bot_level(client: TestClient) -> None:
    ann = Player(client, "Ann")
    made = ann.request("POST", "/api/seeks", json={**SEEK, "bots": ["level1"]})
    assert made.status_code == 201, made.text
    seat = made.json()["seat"]
    assert made.json()["status"] == "started" and seat["seat"] == 0
    assert client.get("/api/seeks").json()["seeks"] == []
    play_to_end(client, seat["id"], [seat["token"]])
    rated_after(client, "Ann", 1)
    bot = client.get("/api/players/bot:level1").json()
    assert bot["ratings"]["ginnyo"]["games"] == 1 and bot["games"][0]["id"] == seat["id"]


def test_a_seek_is_withdrawn_by_its_maker_alone(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    seek = ann.request("POST", "/api/seeks", json=SEEK).json()["id"]
    assert bob.request("DELETE", f"/api/seeks/{seek}").status_code == 403
    assert ann.request("DELETE", f"/api/seeks/{seek}").status_code == 204
    assert client.get("/api/seeks").json()["seeks"] == []
    assert bob.request("POST", f"/api/seeks/{seek}/join").status_code == 409
    assert bob.request("POST", "/api/seeks/nope/join").status_code == 404


def test_seeks_need_a_session_and_a_well_formed_body(client: TestClient) -> None:
    assert client.post("/api/seeks", json=SEEK, headers=OURS).status_code == 401
    ann = Player(client, "Ann")
    for body, field in (({**SEEK, "players": 7}, "players"), ({**SEEK, "game": "chess"}, "game"),
                        ({**SEEK, "bots": ["human"]}, "bots"), ({**SEEK, "clock": {"initial": 0, "increment": 0}},
                                                                "initial"),
                        ({**SEEK, "rated": "yes"}, "rated"), ({**SEEK, "colour": "red"}, "colour")):
        answer = ann.request("POST", "/api/seeks", json=body)
        assert answer.status_code == 400 and field in answer.json()["error"], answer.text


def test_the_lobby_socket_pushes_a_new_seek_and_who_is_online(client: TestClient) -> None:
    ann = Player(client, "Ann")
    with client.websocket_connect("/api/lobby/events") as socket:
        first = json.loads(socket.receive_text())
        assert first["type"] == "lobby" and first["seeks"] == [] and first["online"] == {"count": 1,
                                                                                          "names": ["Ann"]}
        made = ann.request("POST", "/api/seeks", json=SEEK).json()
        pushed = json.loads(socket.receive_text())
        while not pushed["seeks"]:
            pushed = json.loads(socket.receive_text())
        assert [seek["id"] for seek in pushed["seeks"]] == [made["id"]] and pushed["seeks"][0]["maker"] == "Ann"


def test_a_leaderboard_of_an_unknown_game_and_an_unknown_player_are_refused(client: TestClient) -> None:
    assert client.get("/api/leaderboard?game=chess").status_code == 400
    assert client.get("/api/leaderboard?game=crazy").json() == {"game": "crazy", "players": []}
    assert client.get("/api/players/Nobody").status_code == 404
    assert client.get("/api/players/bot:level9").status_code == 404
    assert client.get("/api/games/nope", headers=bearer("x" * 43)).status_code in (401, 404)


def test_a_rated_game_against_a_bot_is_not_handed_to_the_analysis_board_while_it_is_played(client: TestClient) -> None:
    ann = Player(client, "Ann")
    rated = ann.request("POST", "/api/seeks", json={**SEEK, "bots": ["level1"]}).json()["seat"]
    casual = ann.request("POST", "/api/seeks", json={**SEEK, "rated": False, "bots": ["level1"]}).json()["seat"]
    refused = client.get(f"/api/games/{rated['id']}/analysis", headers=bearer(rated["token"]))
    assert refused.status_code == 403 and "rated" in refused.json()["error"]
    assert client.get(f"/api/games/{casual['id']}/analysis", headers=bearer(casual["token"])).status_code == 200


def test_a_seated_account_chats_in_the_players_room_by_its_session_alone(client: TestClient) -> None:
    ann, bob, cid = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Cid")
    seek = ann.request("POST", "/api/seeks", json={**SEEK, "rated": False}).json()
    game = bob.request("POST", f"/api/seeks/{seek['id']}/join").json()["game_id"]
    said = bob.request("POST", f"/api/games/{game}/chat", json={"text": "good luck"})
    assert said.status_code == 201, said.text
    assert (said.json()["room"], said.json()["sender"]) == ("players", "Bob")
    assert cid.request("POST", f"/api/games/{game}/chat", json={"text": "watching"}).json()["room"] == "watchers"
    rooms = {name: {(message["room"], message["text"]) for message in
                    player.request("GET", f"/api/games/{game}/chat").json()["messages"]}
             for name, player in (("Ann", ann), ("Cid", cid))}
    assert rooms["Ann"] == {("players", "good luck")}   # a seat reads the players' room, by its session too
    assert rooms["Cid"] == {("players", "good luck"), ("watchers", "watching")}   # a watcher reads both
    client.cookies.clear()
    strangers = client.get(f"/api/games/{game}/chat").json()["messages"]
    assert sorted(message["text"] for message in strangers) == ["good luck", "watching"]
    client.cookies.set(SESSION_COOKIE, "no-such-session")   # an ended session reads as a watcher, not a 401
    assert client.get(f"/api/games/{game}/chat").status_code == 200
    foreign = {"Origin": "https://elsewhere.example"}
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, bob.session)
    assert client.post(f"/api/games/{game}/chat", json={"text": "x"}, headers=foreign).status_code == 403
