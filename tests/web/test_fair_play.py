"""Fair play (issue 42 item 3): the analysis board opens no game in play that two or more people sit
at (403, one line); a game against bots alone, or one that is over, it opens from the seat's own view."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from web_helpers import TestClient, bearer, client_of, create, play_to_end, view


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as made:
        yield made


def test_a_game_people_play_is_not_handed_to_the_analysis_board(client: TestClient) -> None:
    made = create(client, ["human", "greedy", "human"])
    for seat in (0, 2):
        answer = client.get(f"/api/games/{made['id']}/analysis", headers=bearer(made["seats"][seat]["token"]))
        assert answer.status_code == 403
        assert "analysis" in answer.json()["error"] and "\n" not in answer.json()["error"]


def test_a_game_against_bots_is_handed_over_as_the_seats_own_view(client: TestClient) -> None:
    made = create(client, ["human", "greedy"])
    token = made["seats"][0]["token"]
    answer = client.get(f"/api/games/{made['id']}/analysis", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    seen = view(client, made["id"], token)
    assert answer.json() == {key: seen[key] for key in ("id", "seat", "names", "finished", "position")}


def test_a_game_people_played_is_handed_over_once_it_is_over(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=24)
    tokens = [seat["token"] for seat in made["seats"]]
    play_to_end(client, made["id"], tokens)
    answer = client.get(f"/api/games/{made['id']}/analysis", headers=bearer(tokens[1]))
    assert answer.status_code == 200, answer.text
    assert answer.json()["finished"] and answer.json()["seat"] == 1


def test_the_analysis_of_a_game_needs_its_seats_token(client: TestClient) -> None:
    made = create(client, ["human", "greedy"])
    assert client.get(f"/api/games/{made['id']}/analysis").status_code == 401
    assert client.get("/api/games/nosuchgame/analysis", headers=bearer(made["seats"][0]["token"])).status_code == 404
