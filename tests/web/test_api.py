"""The web API (docs/WEB.md): making games, a seat's view, actions, previews, the record, rematches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from websockets.sync.client import connect

from ginnyo import rack_code
from ginnyo.cli import main
from ginnyo.commands.serve import web_app
from web_helpers import (WAIT_SECONDS, TestClient, act, auth, bearer, best_action, client_of, create, live_server,
                         play_to_end, position_of, view, wait_for)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


@pytest.fixture
def duel(client: TestClient) -> tuple[str, str]:
    """A person (seat 0) against greedy, seed 7: the game id and the person's token."""
    made = create(client, ["human", "greedy"], seed=7)
    return made["id"], made["seats"][0]["token"]


def test_health(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"ok": True}


def test_a_game_is_made_with_a_token_for_each_person_only(client: TestClient) -> None:
    made = create(client, ["human", "human", "greedy"], names=["Ann", "Bob", "Bot"])
    assert [seat["kind"] for seat in made["seats"]] == ["human", "human", "greedy"]
    assert [seat["name"] for seat in made["seats"]] == ["Ann", "Bob", "Bot"]
    assert all(len(seat["token"]) >= 32 for seat in made["seats"][:2])
    assert "token" not in made["seats"][2]
    assert made["seats"][1]["url"] == f"/play/{made['id']}#seat=1&token={made['seats'][1]['token']}"
    assert made["hotseat_url"] == (f"/play/{made['id']}#hotseat=0:{made['seats'][0]['token']},"
                                   f"1:{made['seats'][1]['token']}")


def test_one_person_gets_no_hotseat_link(client: TestClient) -> None:
    assert "hotseat_url" not in create(client, ["human", "greedy"])


def test_a_seat_view_holds_its_position_for_an_engine(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = wait_for(client, game, token)
    assert seen["seat"] == 0 and seen["your_turn"] and not seen["finished"]
    position = position_of(seen)
    assert len(position.rack) == 8   # the turn's draw made
    assert seen["rack_sizes"][0] == 8
    assert seen["box"] == 54 - sum(seen["rack_sizes"]) - len(position.board)
    assert seen["layout_grid"] == list(position.layout.rows)
    assert seen["position"]["players"] == 2 and seen["position"]["to_move"] == 0


def test_two_players_play_one_set_four_play_two(client: TestClient) -> None:
    two = create(client, ["human", "greedy"])
    four = create(client, ["human", "greedy", "greedy", "greedy"])
    assert view(client, two["id"], two["seats"][0]["token"])["position"]["sets"] == 1
    assert view(client, four["id"], four["seats"][0]["token"])["position"]["sets"] == 2


@pytest.mark.parametrize("body, words", [
    ({"seats": ["human"]}, "2 to 4 players"),
    ({"seats": ["human"] * 5}, "2 to 4 players"),
    ({"seats": ["human", "grandmaster"]}, "not a seat kind"),
    ({"seats": ["human", 3]}, "not a seat kind"),
    ({"seats": "human greedy"}, "must be a list"),
    ({}, "must be a list"),
    ({"seats": ["human", "greedy"], "seed": -1}, "field 'seed'"),
    ({"seats": ["human", "greedy"], "seed": 7.0}, "field 'seed'"),
    ({"seats": ["human", "greedy"], "seed": True}, "field 'seed'"),
    ({"seats": ["human", "greedy"], "seed": "7"}, "field 'seed'"),
    ({"seats": ["human", "greedy"], "think": 0}, "field 'think'"),
    ({"seats": ["human", "greedy"], "think": 11}, "field 'think'"),
    ({"seats": ["human", "greedy"], "names": ["Ann"]}, "field 'names'"),
    ({"seats": ["human", "greedy"], "names": ["Ann", 5]}, "field 'names'"),
    ({"seats": ["human", "greedy"], "names": ["Ann", "x" * 41]}, "field 'names'"),
    ({"seats": ["human", "greedy"], "colour": "red"}, "unknown field"),
])
def test_a_bad_new_game_is_refused_with_one_line(client: TestClient, body: dict[str, Any], words: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]


@pytest.mark.parametrize("body", [b"{", b"[1, 2]", b"", b'{"seats": ["human", "greedy"], "seats": ["human"]}',
                                  b"\xff\xfe", b'{"seats": NaN}'])
def test_malformed_json_is_a_400(client: TestClient, body: bytes) -> None:
    answer = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"]


def test_a_huge_body_is_a_413(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    before = view(client, game, token)
    answer = client.post(f"/api/games/{game}/actions", headers=bearer(token),
                         content=b'{"action": "' + b"x" * 70_000 + b'"}')
    assert answer.status_code == 413
    assert view(client, game, token) == before


def test_an_unknown_game_is_a_404(client: TestClient, duel: tuple[str, str]) -> None:
    _, token = duel
    assert client.get("/api/games/nosuchgame", headers=bearer(token)).status_code == 404


def test_an_unknown_path_answers_json(client: TestClient) -> None:
    answer = client.get("/api/nothing")
    assert answer.status_code == 404 and "error" in answer.json()


# -- actions ----------------------------------------------------------------------------------

def test_a_play_is_applied_and_scored_by_the_rules(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = wait_for(client, game, token)
    while position_of(seen).best_play() is None:   # return until a play exists
        answer = act(client, game, token, best_action(seen), seen["version"])
        assert answer.status_code == 200
        seen = wait_for(client, game, token)
    position = position_of(seen)
    best = position.best_play()
    assert best is not None
    answer = act(client, game, token, position.notation(best), seen["version"])
    assert answer.status_code == 200
    after = answer.json()
    assert after["version"] == seen["version"] + 1
    assert after["history"][seen["version"]] == {"seat": 0, "action": position.notation(best), "score": best.score}
    assert after["scores"][0] == seen["scores"][0] + best.score
    assert sorted(after["last"]["squares"]) == sorted(position.layout.square_name(s) for s in best.play.squares)


def test_a_polled_view_is_the_seats_own_and_follows_every_move(client: TestClient) -> None:
    """The views kept for polls: each seat's own rack, never one from before a move."""
    made = create(client, ["human", "human"], seed=11)
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    first = [view(client, game, token) for token in tokens]
    assert [view(client, game, token) for token in tokens] == first   # polled again: the same
    assert first[0]["position"]["rack"] != first[1]["position"]["rack"]
    assert [seen["seat"] for seen in first] == [0, 1]
    mover = first[0]["to_move"]
    assert act(client, game, tokens[mover], best_action(first[mover]), first[mover]["version"]).status_code == 200
    after = [view(client, game, token) for token in tokens]
    assert [seen["version"] for seen in after] == [first[0]["version"] + 1] * 2
    assert after[mover]["position"]["rack"] != first[mover]["position"]["rack"]
    assert after[1 - mover]["your_turn"] and not after[mover]["your_turn"]


def test_the_views_kept_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.web.live import registry as tables
    monkeypatch.setattr(tables, "VIEWS_KEPT", 3)
    with client_of(tmp_path) as client:
        made = [create(client, ["human", "human"], seed=seed) for seed in range(5)]
        for game in made:
            for seat in game["seats"]:
                view(client, game["id"], seat["token"])
        kept = client.app.state.tables._views   # type: ignore[attr-defined]
        assert len(kept) == 3
        last = made[-1]
        assert {(last["id"], 1, last["seats"][1]["token"])} <= set(kept)


def test_finished_games_beyond_the_bound_leave_memory_and_come_back_whole(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.web.live import kept_games
    monkeypatch.setattr(kept_games, "FINISHED_KEPT", 1)
    with client_of(tmp_path) as client:
        live = client.app.state.tables   # type: ignore[attr-defined]
        made = [create(client, ["human", "human"], seed=seed) for seed in (31, 32, 33)]
        tokens = [[seat["token"] for seat in game["seats"]] for game in made]
        finals = [play_to_end(client, game["id"], both) for game, both in zip(made, tokens)]
        assert [game["id"] in live.tables for game in made] == [False, False, True]
        first, first_tokens = made[0]["id"], tokens[0]
        assert view(client, first, first_tokens[0]) == finals[0]   # rebuilt from the store, as it ended
        assert first in live.tables and made[2]["id"] not in live.tables
        record = client.get(f"/api/games/{first}/record", headers=bearer(first_tokens[0]))
        assert record.status_code == 200 and record.text.count("\n") >= 2
        assert client.get(f"/api/games/{made[1]['id']}", headers=bearer(first_tokens[0])).status_code == 403
        again = _rematch(client, made[1]["id"], tokens[1][0]).json()   # made on a game rebuilt from the store
        other = view(client, made[1]["id"], tokens[1][1])["rematch"]
        assert other["id"] == again["id"] and view(client, other["id"], other["token"])["seat"] == 1
        assert _rematch(client, made[1]["id"], tokens[1][1]).json()["id"] == again["id"]


def test_a_restart_rebuilds_only_the_games_in_play(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        done = create(client, ["human", "human"], seed=34)
        done_tokens = [seat["token"] for seat in done["seats"]]
        final = play_to_end(client, done["id"], done_tokens)
        playing = create(client, ["human", "greedy"], seed=35)
    with client_of(tmp_path) as client:
        live = client.app.state.tables   # type: ignore[attr-defined]
        assert set(live.tables) == {playing["id"]}
        assert view(client, done["id"], done_tokens[0]) == final
        assert client.get(f"/play/{done['id']}").status_code == 200
        assert done["id"] in live.tables


def _playable(client: TestClient, game: str, token: str) -> dict[str, Any]:
    """The person's view at a turn where a play exists."""
    seen = wait_for(client, game, token)
    while position_of(seen).best_play() is None:
        assert act(client, game, token, best_action(seen), seen["version"]).status_code == 200
        seen = wait_for(client, game, token)
    return seen


def test_an_illegal_play_is_a_422_in_the_rules_words(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = _playable(client, game, token)
    position = position_of(seen)
    rack = position.rack
    tile = next(t for t in rack if t != 52)
    notation = f"8H {rack_code(tile)}"   # one tile alone on the centre: in no line of three
    answer = act(client, game, token, notation, seen["version"])
    assert answer.status_code == 422
    with pytest.raises(Exception) as refused:
        position.score(notation)
    assert answer.json()["error"] == str(refused.value)
    assert view(client, game, token) == seen


def test_bad_notation_is_a_422(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = wait_for(client, game, token)
    answer = act(client, game, token, "8H 7Q7Q", seen["version"])
    assert answer.status_code == 422 and answer.json()["error"]
    assert view(client, game, token) == seen


@pytest.mark.parametrize("body", [{"action": 5}, {"action": None}, {}, {"action": "pass", "version": "3"},
                                  {"action": "pass", "version": 1.5}, {"action": "pass", "extra": 1}])
def test_an_action_of_the_wrong_type_is_a_400(client: TestClient, duel: tuple[str, str],
                                              body: dict[str, Any]) -> None:
    game, token = duel
    seen = wait_for(client, game, token)
    answer = client.post(f"/api/games/{game}/actions", headers=bearer(token), json=body)
    assert answer.status_code == 400
    assert view(client, game, token) == seen


def test_a_pass_while_the_box_holds_tiles_is_refused(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = wait_for(client, game, token)
    assert not seen["can_pass"]
    answer = act(client, game, token, "pass", seen["version"])
    assert answer.status_code == 422
    assert "returns tiles" in answer.json()["error"]
    assert view(client, game, token) == seen


def test_returning_a_tile_not_on_the_rack_is_refused(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = wait_for(client, game, token)
    missing = next(code for code in ("AC", "AD", "AH", "AS", "2C", "2D") if code not in seen["position"]["rack"])
    answer = act(client, game, token, f"return {missing}", seen["version"])
    assert answer.status_code == 422 and "does not hold" in answer.json()["error"]
    assert view(client, game, token) == seen


def test_a_move_out_of_turn_is_a_409(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=7)
    tokens = [seat["token"] for seat in made["seats"]]
    seen = view(client, made["id"], tokens[0])
    waiting = tokens[1 - seen["to_move"]]
    answer = act(client, made["id"], waiting, "pass")
    assert answer.status_code == 409 and "turn" in answer.json()["error"]
    assert view(client, made["id"], tokens[0]) == seen


def test_a_stale_move_sent_twice_is_a_409_the_second_time(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=7)
    tokens = [seat["token"] for seat in made["seats"]]
    seen = view(client, made["id"], tokens[0])
    mover = tokens[seen["to_move"]]
    seen = view(client, made["id"], mover)
    action = best_action(seen)
    assert act(client, made["id"], mover, action, seen["version"]).status_code == 200
    after = view(client, made["id"], mover)
    again = act(client, made["id"], mover, action, seen["version"])
    assert again.status_code == 409 and "stale" in again.json()["error"]
    assert view(client, made["id"], mover) == after


def test_a_finished_game_takes_no_action_and_says_so(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    last = play_to_end(client, game, [token])
    assert last["finished"] and last["to_move"] is None and not last["your_turn"]
    result = last["result"]
    assert result["final_scores"] == last["scores"]
    assert len(result["racks"]) == 2 and len(result["penalties"]) == 2
    assert act(client, game, token, "pass").status_code == 409


# -- the record --------------------------------------------------------------------------------

def test_the_record_is_refused_during_the_game(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    answer = client.get(f"/api/games/{game}/record", headers=bearer(token))
    assert answer.status_code == 409 and "seed" in answer.json()["error"]


def test_a_finished_game_record_is_verified_by_replay(client: TestClient, duel: tuple[str, str],
                                                      tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, token = duel
    last = play_to_end(client, game, [token])
    answer = client.get(f"/api/games/{game}/record", headers=bearer(token))
    assert answer.status_code == 200
    path = tmp_path / "game.jsonl"
    path.write_text(answer.text)
    assert main(["replay", "--quiet", str(path)]) == 0
    assert f"record verified: {last['version']} turns" in capsys.readouterr().out


# -- previews ----------------------------------------------------------------------------------

def _preview(client: TestClient, game: str, token: str, placements: dict[str, str]) -> Any:
    return client.post(f"/api/games/{game}/preview", headers=bearer(token), json={"placements": placements})


def test_a_legal_preview_scores_meld_by_meld_as_the_core_does(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = _playable(client, game, token)
    position = position_of(seen)
    best = position.best_play()
    assert best is not None
    name = position.layout.square_name
    answer = _preview(client, game, token, {name(square): tile.code for square, tile in best.play.placements})
    assert answer.status_code == 200
    judged = answer.json()
    assert judged["legal"] and judged["reason"] is None
    assert judged["score"] == best.score and judged["notation"] == position.notation(best)
    assert [(meld["kind"], meld["score"]) for meld in judged["melds"]] == [(m.kind, m.score) for m in best.melds]
    assert view(client, game, token) == seen


def test_an_illegal_preview_says_why_in_the_rules_words(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    seen = _playable(client, game, token)
    position = position_of(seen)
    code = seen["position"]["rack"].split()[0]
    answer = _preview(client, game, token, {"A1": code if code != "*" else "7h"})
    assert answer.status_code == 200
    judged = answer.json()
    assert not judged["legal"] and judged["score"] == 0
    with pytest.raises(Exception) as refused:
        position.score(f"1A {code if code != '*' else '7h'}")
    assert judged["reason"] == str(refused.value)


@pytest.mark.parametrize("placements, words", [({"Z99": "7C"}, "off the board"), ({"H8": "7Q"}, "unknown tile code"),
                                               ({}, "at least one tile")])
def test_a_preview_of_no_real_placement_says_why(client: TestClient, duel: tuple[str, str],
                                                 placements: dict[str, str], words: str) -> None:
    game, token = duel
    wait_for(client, game, token)
    judged = _preview(client, game, token, placements).json()
    assert not judged["legal"] and words in judged["reason"]


def test_a_preview_is_for_the_seat_to_move(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=7)
    tokens = [seat["token"] for seat in made["seats"]]
    seen = view(client, made["id"], tokens[0])
    answer = _preview(client, made["id"], tokens[1 - seen["to_move"]], {"H8": "7C"})
    assert answer.status_code == 409


def test_a_preview_of_the_wrong_type_is_a_400(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    wait_for(client, game, token)
    for body in ({"placements": ["H8", "7C"]}, {"placements": {"H8": 7}}, {}):
        assert client.post(f"/api/games/{game}/preview", headers=bearer(token), json=body).status_code == 400


# -- rematches ---------------------------------------------------------------------------------

def _rematch(client: TestClient, game: str, token: str) -> Any:
    return client.post(f"/api/games/{game}/rematch", headers=bearer(token))


def test_a_rematch_is_refused_before_the_end(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    assert _rematch(client, game, token).status_code == 409


def test_a_rematch_has_the_same_seats_and_gives_the_asker_only_their_own_token(client: TestClient) -> None:
    made = create(client, ["human", "greedy", "human"], names=["Ann", "Bot", "Cy"], seed=21)
    tokens = [made["seats"][0]["token"], made["seats"][2]["token"]]
    play_to_end(client, made["id"], tokens)
    answer = _rematch(client, made["id"], tokens[0])
    assert answer.status_code == 201
    again = answer.json()
    assert again["id"] != made["id"]
    assert [(seat["kind"], seat["name"]) for seat in again["seats"]] == [("human", "Ann"), ("greedy", "Bot"),
                                                                          ("human", "Cy")]
    assert [seat.get("token") for seat in again["seats"]] == [view(client, made["id"], tokens[0])["rematch"]["token"],
                                                              None, None]
    assert [seat.get("url") is None for seat in again["seats"]] == [False, True, True]
    assert "hotseat_url" not in again
    assert view(client, again["id"], again["seats"][0]["token"])["seat"] == 0


def test_the_other_person_plays_the_rematch_with_the_token_of_their_own_view(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=23)
    tokens = [seat["token"] for seat in made["seats"]]
    play_to_end(client, made["id"], tokens)
    answer = _rematch(client, made["id"], tokens[0])
    theirs = view(client, made["id"], tokens[1])["rematch"]
    assert theirs["seat"] == 1 and theirs["id"] == answer.json()["id"]
    assert theirs["token"] not in answer.text
    given = [seat["token"] for seat in answer.json()["seats"] if "token" in seat]
    assert [view(client, theirs["id"], token)["seat"] for token in given] == [0]   # none of them opens seat 1
    new_tokens = [answer.json()["seats"][0]["token"], theirs["token"]]
    moved = set()
    while 1 not in moved:   # the first two turns: seat 1 moves in one of them
        seen = next(s for s in (view(client, theirs["id"], token) for token in new_tokens) if s["your_turn"])
        mover = seen["seat"]
        assert act(client, theirs["id"], new_tokens[mover], best_action(seen), seen["version"]).status_code == 200
        moved.add(mover)


def test_the_other_persons_socket_hears_of_the_rematch(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        made = create(server.client, ["human", "human"], seed=24)
        tokens = [seat["token"] for seat in made["seats"]]
        play_to_end(server.client, made["id"], tokens)
        with connect(server.socket_url(made["id"])) as socket:
            socket.send(auth(tokens[1]))
            assert json.loads(socket.recv(timeout=WAIT_SECONDS))["view"]["rematch"] is None
            asked = server.client.post(f"/api/games/{made['id']}/rematch", headers=bearer(tokens[0]))
            pushed = json.loads(socket.recv(timeout=WAIT_SECONDS))["view"]
        assert pushed["rematch"] == view(server.client, made["id"], tokens[1])["rematch"]
        assert pushed["rematch"]["id"] == asked.json()["id"] and pushed["rematch"]["token"] not in asked.text


@pytest.mark.parametrize("body", [{"seed": 3}, {"seats": ["human", "human"]}, {"token": "x"}])
def test_a_rematch_body_with_an_unknown_field_is_400(client: TestClient, body: dict[str, Any]) -> None:
    made = create(client, ["human", "human"], seed=25)
    tokens = [seat["token"] for seat in made["seats"]]
    play_to_end(client, made["id"], tokens)
    answer = client.post(f"/api/games/{made['id']}/rematch", headers=bearer(tokens[0]), json=body)
    assert answer.status_code == 400
    assert answer.json() == {"error": f"field \"{next(iter(body))}\": unknown field (known: none)", "code": "bad-field",
                             "args": {}}
    assert view(client, made["id"], tokens[0])["rematch"] is None
    assert client.post(f"/api/games/{made['id']}/rematch", headers=bearer(tokens[0]), json={}).status_code == 201


def test_each_person_finds_their_rematch_seat_in_their_view(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=22)
    tokens = [seat["token"] for seat in made["seats"]]
    finished = play_to_end(client, made["id"], tokens)
    assert finished["rematch"] is None
    made_again = _rematch(client, made["id"], tokens[0]).json()
    other = view(client, made["id"], tokens[1])["rematch"]
    assert other["id"] == made_again["id"] and other["seat"] == 1
    assert view(client, other["id"], other["token"])["seat"] == 1
    asked_again = _rematch(client, made["id"], tokens[1]).json()
    assert asked_again["id"] == made_again["id"]
    assert [seat.get("token") for seat in asked_again["seats"]] == [None, other["token"]]


def test_with_the_box_empty_a_return_is_refused_and_a_pass_only_without_a_play(client: TestClient) -> None:
    made = create(client, ["human", "human"], seed=31)
    tokens = [seat["token"] for seat in made["seats"]]
    while True:
        seen = next(s for s in (view(client, made["id"], t) for t in tokens) if s["your_turn"] or s["finished"])
        if seen["finished"] or seen["box"] == 0:
            break
        assert act(client, made["id"], tokens[seen["seat"]], best_action(seen), seen["version"]).status_code == 200
    assert not seen["finished"], "seed 31 should reach an empty box before the end"
    token = tokens[seen["seat"]]
    assert not seen["can_return"]
    code = seen["position"]["rack"].split()[0]
    answer = act(client, made["id"], token, f"return {code}", seen["version"])
    assert answer.status_code == 422 and "the box is empty" in answer.json()["error"]
    has_play = position_of(seen).best_play() is not None
    assert seen["can_pass"] == (not has_play)
    passed = act(client, made["id"], token, "pass", seen["version"])
    assert passed.status_code == (422 if has_play else 200)
    if has_play:
        assert "a legal play exists" in passed.json()["error"]
        assert view(client, made["id"], token) == seen


def test_the_openapi_document_lists_every_api_path(client: TestClient) -> None:
    document = client.get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/preview", "/api/games/{game_id}/actions",
            "/api/games/{game_id}/rematch", "/api/games/{game_id}/record", "/api/health"} <= set(paths)
    assert "post" in paths["/api/games/{game_id}/actions"] and "get" in paths["/api/games/{game_id}"]
    assert {"seat": []} in paths["/api/games/{game_id}"]["get"]["security"]   # or none: a watcher (docs/CLUB.md)
    assert "security" not in paths["/api/games"]["post"]
    assert "/api/games/{game_id}/events" in document["info"]["description"]


def test_a_huge_body_without_a_length_is_a_413_too(client: TestClient, duel: tuple[str, str]) -> None:
    game, token = duel
    before = view(client, game, token)
    chunks = (b'{"action": "' + b"x" * 1000 if n == 0 else b"x" * 1000 for n in range(80))
    answer = client.post(f"/api/games/{game}/actions", headers=bearer(token), content=chunks)
    assert answer.status_code == 413
    assert view(client, game, token) == before


def test_a_move_the_database_cannot_store_is_not_acknowledged_and_not_made(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(web_app(tmp_path), raise_server_exceptions=False) as client:   # answers a 500 as a server does
        _refused_when_not_stored(client, monkeypatch)


def _refused_when_not_stored(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3
    made = create(client, ["human", "human"], seed=7)
    tokens = [seat["token"] for seat in made["seats"]]
    seen = view(client, made["id"], tokens[0])
    mover = tokens[seen["to_move"]]
    seen = view(client, made["id"], mover)
    store = client.app.state.tables.store   # type: ignore[attr-defined]

    def full_disk(*args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "append_action", full_disk)
    answer = act(client, made["id"], mover, best_action(seen), seen["version"])
    assert answer.status_code == 500 and answer.json()["error"] == "internal error: OperationalError"
    monkeypatch.undo()
    assert view(client, made["id"], mover) == seen
    assert act(client, made["id"], mover, best_action(seen), seen["version"]).status_code == 200
