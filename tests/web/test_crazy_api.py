"""Crazy Rummy through the web API (docs/WEB.md "Crazy Rummy"): games made, each step of a turn
judged by the rules with the reason in words, hidden hands over HTTP and WS, the record replayed,
games rebuilt after a SIGKILL."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from browser_table import Server
from crazy_helpers import advisor_steps
from ginnyo.crazy.cards import card_code, cards_text
from ginnyo.web.games.crazy import CrazyTable
from ginnyo.web.store import DATABASE_NAME
from web_helpers import TestClient, auth, bearer, client_of, view, wait_for

SEATS = ["human", "human", "advisor"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def create_crazy(client: TestClient, seats: list[str] = SEATS, seed: int = 5) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": "crazy", "seats": seats, "seed": seed})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def post(client: TestClient, game: str, token: str, action: Any, status: int = 200, **fields: Any) -> Any:
    answer = client.post(f"/api/games/{game}/actions", headers=bearer(token), json={"action": action, **fields})
    assert answer.status_code == status, answer.text
    return answer.json()


def preview(client: TestClient, game: str, token: str, body: dict[str, Any], status: int = 200) -> Any:
    answer = client.post(f"/api/games/{game}/preview", headers=bearer(token), json=body)
    assert answer.status_code == status, answer.text
    return answer.json()


def table_of(client: TestClient, game: str) -> CrazyTable:
    table: CrazyTable = client.app.state.tables.tables[game]   # type: ignore[attr-defined]
    return table


def tokens_of(made: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in made["seats"] if "token" in seat]


# -- making games -----------------------------------------------------------------------------

def test_a_crazy_game_is_made_with_tokens_for_the_people_only(client: TestClient) -> None:
    made = create_crazy(client)
    assert [("token" in seat) for seat in made["seats"]] == [True, True, False]
    assert "hotseat_url" in made


@pytest.mark.parametrize("seats", [["human", "advisor"], ["human"] + ["advisor"] * 6])
def test_crazy_rummy_is_for_3_to_6_players(client: TestClient, seats: list[str]) -> None:
    answer = client.post("/api/games", json={"game": "crazy", "seats": seats})
    assert answer.status_code == 400
    assert "Crazy Rummy is for 3 to 6" in answer.json()["error"]


def test_a_ginny_o_bot_is_no_crazy_rummy_seat(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "crazy", "seats": ["human", "greedy", "advisor"]})
    assert answer.status_code == 400
    assert "seat 1 is 'greedy'" in answer.json()["error"]


def test_an_unknown_game_kind_is_refused(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "poker", "seats": SEATS})
    assert answer.status_code == 400
    assert "field 'game'" in answer.json()["error"]


def test_the_table_page_of_a_crazy_game_is_the_crazy_page(client: TestClient) -> None:
    made = create_crazy(client)
    assert "crazy.js" in client.get(f"/play/{made['id']}").text


# -- a seat's view -----------------------------------------------------------------------------

def test_a_view_holds_its_own_hand_and_only_the_sizes_of_the_others(client: TestClient) -> None:
    made = create_crazy(client)
    seen = view(client, made["id"], tokens_of(made)[1])
    round_state = table_of(client, made["id"]).match.round
    assert seen["hand"] == cards_text(sorted(round_state.hands[1]))
    assert seen["hand_sizes"] == [len(hand) for hand in round_state.hands]
    assert (seen["round"], seen["wild"], seen["rounds"]) == (1, "A", 13)
    assert "seed" not in seen and "stock" in seen and isinstance(seen["stock"], int)


def shuffled_hidden_cards(table: CrazyTable, seat: int, rng: random.Random) -> None:
    """Deal the cards ``seat`` cannot see (the other hands and the stock) anew, each hand keeping its size."""
    round_state = table.match.round
    others = [other for other in range(round_state.players) if other != seat]
    pool = [card for other in others for card in round_state.hands[other]] + round_state.stock
    rng.shuffle(pool)
    for other in others:
        size = len(round_state.hands[other])
        round_state.hands[other][:] = pool[:size]
        del pool[:size]
    round_state.stock[:] = pool


def test_a_view_does_not_change_with_the_cards_the_seat_cannot_see(client: TestClient) -> None:
    made = create_crazy(client)
    token = tokens_of(made)[1]
    before = view(client, made["id"], token)
    rng = random.Random(1)
    for _ in range(5):
        shuffled_hidden_cards(table_of(client, made["id"]), 1, rng)
        assert view(client, made["id"], token) == before


def test_another_seats_draw_from_the_stock_names_no_card(client: TestClient) -> None:
    made = create_crazy(client)
    first, second = tokens_of(made)
    seen = view(client, made["id"], first)
    post(client, made["id"], first, [{"discard": seen["hand"].split()[0]}])   # the opening turn: a discard
    seen = wait_for(client, made["id"], second)
    after = post(client, made["id"], second, {"draw": "stock"})
    drawn = after["turn"]["card"]
    assert drawn is not None and drawn in after["hand"].split()
    other = view(client, made["id"], first)
    assert other["turn"]["card"] is None
    assert other["history"][-1]["text"] == "draws from the stock"
    assert drawn not in other["hand"].split()


def test_a_socket_sends_only_its_seats_view(client: TestClient) -> None:
    made = create_crazy(client)
    first, second = tokens_of(made)
    with client.websocket_connect(f"/api/games/{made['id']}/events") as socket:
        socket.send_text(auth(second))
        message = socket.receive_json()
        assert message["view"] == view(client, made["id"], second)
        seen = view(client, made["id"], first)
        post(client, made["id"], first, {"discard": seen["hand"].split()[0]})
        pushed = socket.receive_json()["view"]
        assert pushed["seat"] == 1 and pushed["hand"] == view(client, made["id"], second)["hand"]


# -- the steps of a turn ------------------------------------------------------------------------

def test_the_opening_turn_has_no_draw(client: TestClient) -> None:
    made = create_crazy(client)
    error = post(client, made["id"], tokens_of(made)[0], {"draw": "stock"}, status=422)["error"]
    assert "the turn's card is in hand already" in error


def test_a_turn_after_the_opening_starts_with_a_draw(client: TestClient) -> None:
    made = create_crazy(client)
    first, second = tokens_of(made)
    post(client, made["id"], first, {"discard": view(client, made["id"], first)["hand"].split()[0]})
    seen = view(client, made["id"], second)
    error = post(client, made["id"], second, {"discard": seen["hand"].split()[0]}, status=422)["error"]
    assert error == "draw first: from the stock or the discard pile"


def test_a_meld_the_rules_refuse_is_422_with_their_reason(client: TestClient) -> None:
    made = create_crazy(client)
    first = tokens_of(made)[0]
    hand = view(client, made["id"], first)["hand"].split()   # 5C QC 2D 6H KH AS 2S TS (seed 5)
    error = post(client, made["id"], first, {"meld": " ".join(["5C", "QC", "6H"])}, status=422)["error"]
    assert "not a set (one rank) or a run (one suit)" in error
    assert view(client, made["id"], first)["hand"].split() == hand


def test_a_card_not_in_hand_cannot_be_discarded(client: TestClient) -> None:
    made = create_crazy(client)
    first = tokens_of(made)[0]
    hand = view(client, made["id"], first)["hand"].split()
    other = next(card_code(c) for c in range(52) if card_code(c) not in hand)
    error = post(client, made["id"], first, {"discard": other}, status=422)["error"]
    assert "not in hand" in error


def holding_one_card(client: TestClient, made: dict[str, Any]) -> str:
    """Seat 1's token, to move after the opening, its hand cut to one card (the rest put under the stock)."""
    first, second = tokens_of(made)
    post(client, made["id"], first, {"discard": view(client, made["id"], first)["hand"].split()[0]})
    round_state = table_of(client, made["id"]).match.round
    hand = round_state.hands[1]
    round_state.stock += hand[1:]
    del hand[1:]
    return str(second)


def test_a_player_holding_one_card_may_only_draw_from_the_stock(client: TestClient) -> None:
    made = create_crazy(client)
    token = holding_one_card(client, made)
    error = post(client, made["id"], token, {"draw": "discard"}, status=422)["error"]
    assert error == "a player holding one card may only draw from the stock"


def test_holding_one_card_and_not_going_out_the_held_card_is_discarded(client: TestClient) -> None:
    made = create_crazy(client)
    token = holding_one_card(client, made)
    held = view(client, made["id"], token)["hand"]
    drawn = post(client, made["id"], token, {"draw": "stock"})["turn"]["card"]
    error = post(client, made["id"], token, {"discard": drawn}, status=422)["error"]
    assert "discards the card held and keeps the one drawn" in error
    assert post(client, made["id"], token, {"discard": held})["hand_sizes"][1] == 1


def test_out_of_turn_is_409(client: TestClient) -> None:
    made = create_crazy(client)
    second = tokens_of(made)[1]
    answer = post(client, made["id"], second, {"draw": "stock"}, status=409)
    assert "seat 0's turn" in answer["error"]


def test_a_stale_version_is_409(client: TestClient) -> None:
    made = create_crazy(client)
    first = tokens_of(made)[0]
    hand = view(client, made["id"], first)["hand"].split()
    post(client, made["id"], first, {"discard": hand[0]}, status=409, version=3)


def test_a_malformed_step_is_400(client: TestClient) -> None:
    made = create_crazy(client)
    assert "field 'action'" in post(client, made["id"], tokens_of(made)[0], [1, 2], status=400)["error"]


def test_the_wild_of_a_set_is_named_by_the_options(client: TestClient) -> None:
    made = create_crazy(client)
    first = tokens_of(made)[0]   # round 1, aces wild: 2D 2S AS make a set of twos, AS standing for 2C or 2H
    answer = preview(client, made["id"], first, {"cards": ["2D", "2S", "AS"], "onto": None})
    assert sorted(option["meld"] for option in answer["options"]) == ["2D 2S AS=2C", "2D 2S AS=2H"]
    after = post(client, made["id"], first, answer["options"][1])
    assert after["melds"][0] == ["2D 2S AS=2H"]


def test_cards_that_make_no_meld_have_no_options_and_a_reason(client: TestClient) -> None:
    made = create_crazy(client)
    answer = preview(client, made["id"], tokens_of(made)[0], {"cards": ["5C", "QC", "6H"], "onto": None})
    assert answer["options"] == [] and "not a set" in answer["reason"]


def test_the_hint_is_the_advisors_turn_for_the_seat_to_move_only(client: TestClient) -> None:
    made = create_crazy(client)
    first, second = tokens_of(made)
    answer = preview(client, made["id"], first, {"hint": True})
    assert answer["hint"]["best"]["draw"] == "none" and answer["lines"][0].startswith("round 1 (wild A)")
    preview(client, made["id"], second, {"hint": True}, status=409)


# -- a whole game, its record --------------------------------------------------------------------

def play_person_turns(client: TestClient, game: str, tokens: list[str]) -> dict[str, Any]:
    """Every person's turn (seat ``i`` holds ``tokens[i]``) as the advisor plays it, one step a request, to the end."""
    while True:
        seen = wait_for(client, game, tokens[0], turn=False)
        if seen["finished"]:
            return seen
        if seen["to_move"] >= len(tokens):   # a bot's turn
            continue
        token = tokens[seen["to_move"]]
        seen = view(client, game, token)
        for step in advisor_steps(seen, lambda source: post(client, game, token, {"draw": source})):
            post(client, game, token, step)


def test_a_whole_game_through_the_api_ends_and_its_record_replays(client: TestClient, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from ginnyo.web.live import kept_games
    monkeypatch.setattr(kept_games, "FINISHED_KEPT", 0)   # once over, the game is rebuilt from the store each request
    made = create_crazy(client, seed=2)
    tokens = tokens_of(made)
    assert client.get(f"/api/games/{made['id']}/record", headers=bearer(tokens[0])).status_code == 409
    final = play_person_turns(client, made["id"], tokens)
    assert made["id"] not in client.app.state.tables.tables   # type: ignore[attr-defined]
    assert view(client, made["id"], tokens[0]) == final
    assert "crazy.js" in client.get(f"/play/{made['id']}").text
    assert final["result"]["winners"] and len(final["rounds_played"]) == 13
    assert any(played["end"] == "out" and played["points"][played["out"]] == 0 for played in final["rounds_played"])
    record = client.get(f"/api/games/{made['id']}/record", headers=bearer(tokens[1]))
    assert record.status_code == 200
    path = tmp_path / "crazy.jsonl"
    path.write_text(record.text)
    replay = subprocess.run([sys.executable, "-m", "ginnyo", "crazy", "replay", str(path)],
                            capture_output=True, text=True)
    assert replay.returncode == 0, replay.stderr
    assert f"final scores {final['result']['final_scores']}" in replay.stdout


# -- persistence -----------------------------------------------------------------------------------

def test_a_crazy_game_is_rebuilt_after_a_sigkill_mid_turn(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        made = server.call("POST", "api/games", {"game": "crazy", "seats": SEATS, "seed": 5})
        first, second = tokens_of(made)
        game = made["id"]
        hand = server.call("GET", f"api/games/{game}", token=first)["hand"].split()
        server.call("POST", f"api/games/{game}/actions", {"action": {"meld": "2D 2S AS=2H"}}, token=first)
        before = server.call("GET", f"api/games/{game}", token=first)   # mid-turn: melded, not discarded
        assert before["version"] == 1 and "2D" not in before["hand"] and len(hand) == 8
        server.kill()
        server.start()
        assert server.call("GET", f"api/games/{game}", token=first) == before
        after = server.call("POST", f"api/games/{game}/actions", {"action": {"discard": "QC"}}, token=first)
        assert after["version"] == 2 and after["to_move"] == 1
    finally:
        server.stop()


def test_a_database_from_before_crazy_rummy_still_loads(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / DATABASE_NAME) as old:
        old.execute("CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, seats TEXT NOT NULL,"
                    " names TEXT NOT NULL, seed INTEGER NOT NULL, think REAL NOT NULL, status TEXT NOT NULL,"
                    " rematch_of TEXT, rematch TEXT)")
        old.execute("INSERT INTO games VALUES ('old', ?, '[\"human\", \"greedy\"]', '[\"A\", \"B\"]', 7, 1.0,"
                    " 'playing', NULL, NULL)", (time.time(),))   # made now: a game made long ago is not loaded
    with client_of(tmp_path) as client:
        assert client.app.state.tables.tables["old"].game_kind == "ginny-o"   # type: ignore[attr-defined]


def test_no_socket_message_to_a_seat_holds_another_seats_hidden_cards(client: TestClient) -> None:
    """Three people play turns (as the advisor would); every message to seat 1's socket, one a step,
    is checked against the cards only the others hold at that moment (their hands, a card drawn
    from the stock)."""
    made = create_crazy(client, seats=["human", "human", "human"])
    tokens = tokens_of(made)
    game = made["id"]
    table = table_of(client, game)
    with client.websocket_connect(f"/api/games/{game}/events") as socket:
        socket.send_text(auth(tokens[1]))
        check_hides_the_others_cards(socket.receive_json()["view"], table)

        def step(token: str, action: dict[str, Any]) -> Any:
            answer = post(client, game, token, action)
            check_hides_the_others_cards(socket.receive_json()["view"], table)
            return answer

        for _ in range(30):
            token = tokens[table.to_move]
            seen = view(client, game, token)
            for action in advisor_steps(seen, lambda source: step(token, {"draw": source})):
                step(token, action)


def check_hides_the_others_cards(message: dict[str, Any], table: CrazyTable) -> None:
    match = table.match
    assert message["version"] == len(table.actions)
    assert message["hand"] == cards_text(sorted(match.shown.hands[1]))
    others = {card_code(card) for seat, hand in enumerate(match.shown.hands) if seat != 1 for card in hand}
    assert not others & set(message["hand"].split())
    if message["turn"]["seat"] != 1 and message["turn"]["draw"] == "stock":
        assert message["turn"]["card"] is None
    for entry in message["history"]:
        if entry["seat"] != 1 and entry["text"].startswith("draws "):
            assert entry["text"] == "draws from the stock"
