"""Resigning and aborting a Crazy Rummy table through the API (docs/WEB.md "Clocks, resigning, aborting";
docs/RULES.md "Resignation and abort", its Crazy Rummy part): a seat resigns out of turn or mid-turn and is
passed by, the last seat left wins, the view says who resigned; an abort before the seat's first step ends
the game with no result, refused after it; only a seat's own token acts for it; a rated seek game ranks a
resigned seat last and an aborted one is not rated."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from ginnyo.commands.serve import web_app
from ginnyo.crazy.game import replay
from test_club_api import Player, rated_after
from web_helpers import TestClient, bearer, view

SEATS = ["human", "human", "human"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(web_app(tmp_path), raise_server_exceptions=True) as made:
        yield made


def made_game(client: TestClient, seats: list[str] = SEATS) -> tuple[str, list[str]]:
    answer = client.post("/api/games", json={"game": "crazy", "seats": seats, "seed": 5})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], [seat["token"] for seat in answer.json()["seats"] if "token" in seat]


def ending(client: TestClient, game: str, kind: str, token: str | None, status: int = 200) -> Any:
    headers = bearer(token) if token is not None else {}
    answer = client.post(f"/api/games/{game}/{kind}", headers=headers)
    assert answer.status_code == status, answer.text
    return answer.json()


def open_the_round(client: TestClient, game: str, tokens: list[str]) -> int:
    """The opener melds nothing and discards its first card; the seat to move then."""
    seen = view(client, game, tokens[0])
    opener = seen["to_move"]
    hand = view(client, game, tokens[opener])["hand"].split()
    answer = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[opener]),
                         json={"action": {"discard": hand[0]}})
    assert answer.status_code == 200, answer.text
    return int(answer.json()["to_move"])


def test_seats_resign_out_of_turn_and_mid_turn_and_the_last_one_wins(client: TestClient) -> None:
    game, tokens = made_game(client)
    mover = open_the_round(client, game, tokens)
    drew = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[mover]), json={"action": {"draw": "stock"}})
    assert drew.status_code == 200, drew.text
    other = next(seat for seat in range(3) if seat != mover)
    seen = ending(client, game, "resign", tokens[other])   # out of turn: the mover's turn goes on
    assert seen["seat"] == other and not seen["finished"] and seen["resigned"] == [other]
    assert seen["to_move"] == mover and seen["turn"]["drawn"] and not seen["may_abort"]
    assert ending(client, game, "resign", tokens[other], status=422)["error"]   # out already
    ended = ending(client, game, "resign", tokens[mover])   # mid-turn: undone, the game over
    winner = next(seat for seat in range(3) if seat not in (mover, other))
    result = ended["result"]
    assert ended["finished"] and result["winners"] == [winner] and result["ranking"] == [winner, mover, other]
    assert (result["reason_code"], result["reason_args"], result["aborted"]) == ("resigned", {"seat": mover}, False)
    assert result["reason"] == f"player {mover} resigned" and result["out"] == [other, mover]
    assert ending(client, game, "resign", tokens[winner], status=409)["error"]
    record = client.get(f"/api/games/{game}/record", headers=bearer(tokens[0]))
    assert record.status_code == 200, record.text
    replayed = replay(record.text.splitlines())
    assert replayed.ranking == result["ranking"] and replayed.out == [other, mover]


def test_abort_before_the_seats_first_step_and_409_after(client: TestClient) -> None:
    game, tokens = made_game(client)
    opener = view(client, game, tokens[0])["to_move"]
    mover = open_the_round(client, game, tokens)
    assert ending(client, game, "abort", tokens[opener], status=409)["error"]   # it has played its turn
    assert view(client, game, tokens[opener])["may_abort"] is False
    waiting = next(seat for seat in range(3) if seat not in (opener, mover))
    assert view(client, game, tokens[waiting])["may_abort"] is True
    seen = ending(client, game, "abort", tokens[waiting])
    result = seen["result"]
    assert seen["finished"] and result["aborted"] and result["winners"] == [] and result["reason_code"] == "aborted"
    assert replay(client.get(f"/api/games/{game}/record", headers=bearer(tokens[0])).text.splitlines()).aborted


def test_nobody_resigns_or_aborts_for_another_seat(client: TestClient) -> None:
    game, tokens = made_game(client, ["human", "advisor", "advisor"])
    assert ending(client, game, "resign", None, status=401)["error"]   # a watcher holds no token
    _, elsewhere = made_game(client)   # a seat's token of another table
    assert ending(client, game, "abort", elsewhere[0], status=403)["error"]
    assert ending(client, game, "resign", elsewhere[1], status=403)["error"]
    seen = view(client, game, tokens[0])
    assert not seen["finished"] and seen["resigned"] == []


def test_a_rated_seek_game_ranks_the_resigned_seats_last_and_an_aborted_one_is_not_rated(client: TestClient) -> None:
    players = [Player(client, name) for name in ("Ann", "Bob", "Cid")]
    seek = {"game": "crazy", "players": 3, "clock": {"initial": 300, "increment": 2}, "rated": True}

    def seated_game() -> tuple[str, list[str]]:
        made = players[0].request("POST", "/api/seeks", json=seek)
        assert made.status_code == 201, made.text
        for player in players[1:]:
            assert player.request("POST", f"/api/seeks/{made.json()['id']}/join").status_code == 200
        seats = [player.request("POST", f"/api/seeks/{made.json()['id']}/seat").json() for player in players]
        return seats[0]["id"], [seat["token"] for seat in seats]

    aborted, tokens = seated_game()
    assert ending(client, aborted, "abort", tokens[1])["result"]["aborted"]
    game, tokens = seated_game()
    ending(client, game, "resign", tokens[0])
    ending(client, game, "resign", tokens[1])   # Cid left: the winner
    # the club rates one game at a time, in order: the aborted game would be in the history before this one
    histories = {name: rated_after(client, name, 1)["games"] for name in ("Ann", "Bob", "Cid")}
    assert {name: [(entry["id"], entry["rank"]) for entry in games] for name, games in histories.items()} == \
        {"Ann": [(game, 3)], "Bob": [(game, 2)], "Cid": [(game, 1)]}
