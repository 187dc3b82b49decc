"""The review API (docs/WEB-ANALYSIS.md): a record's turns as ``ginnyo analyze`` rates them, the
board of every turn, the scores over the game, refusals in analyze's words, and a finished table
game's review for its seats only once it is over."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from analysis_helpers import EXAMPLES, TestClient, bearer, cli, cli_error, client_of, play_to_end, selfplay_record
from ginnyo import Position
from ginnyo.analysis.grades import GRADES, accuracy, endgame_grade, grade
from ginnyo.analysis.records import analyze_record
from ginnyo.game.records import parse_record
from ginnyo.web.http.requests import MAX_RECORD
from ginnyo.web.games.ginnyo import END_CODES
from ginnyo.web.http.review import BIG_LOSS

ROW_FIELDS = ("turn", "player", "name", "played", "best", "equity", "points_lost", "equity_lost")
GRADE_FIELDS = ("grade", "win_before", "win_after", "win_lost")
ENDGAME_FIELDS = ("endgame", "spread_best", "spread_played", "spread_lost", "proven")
SHIPPED_RECORD = EXAMPLES / "game-7.jsonl"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game of greedy against equity, as ``ginnyo selfplay --records`` writes it."""
    return selfplay_record(tmp_path_factory.mktemp("records"), seed=4)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def review(client: TestClient, text: str | bytes) -> dict[str, Any]:
    answer = client.post("/api/review", content=text, headers={"Content-Type": "text/plain"})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def analyze_rows(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    status, out, err = cli("analyze", str(path))
    assert status == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    return [line for line in lines if "turn" in line], [line["summary"] for line in lines if "summary" in line]


def test_every_turn_is_rated_as_analyze_rates_it(client: TestClient, record: Path) -> None:
    answer = review(client, record.read_text())
    rows, summary = analyze_rows(record)
    assert [{key: row[key] for key in ROW_FIELDS} for row in answer["turns"]] == [
        {key: row[key] for key in ROW_FIELDS} for row in rows]
    assert [{key: row[key] for key in player} for player, row in zip(answer["summary"], summary)] == answer["summary"]


def test_every_move_of_a_shipped_record_is_graded_as_the_analysis_grades_it(client: TestClient) -> None:
    text = SHIPPED_RECORD.read_text()
    answer = review(client, text)
    rows, summary = analyze_record(parse_record(text, "record"), "record")
    graded = GRADE_FIELDS + ENDGAME_FIELDS
    assert [{key: turn.get(key) for key in graded} for turn in answer["turns"]] == [
        {key: row.get(key) for key in graded} for row in rows]
    assert [(player["accuracy"], player["grades"]) for player in answer["summary"]] == [
        (player["accuracy"], player["grades"]) for player in summary]
    assert {turn["grade"] for turn in answer["turns"]} == set(GRADES)   # the record has moves of every grade
    assert any(turn.get("endgame") for turn in answer["turns"])


def test_the_grades_are_the_cut_offs_of_the_win_probability_or_the_endgame_points_lost(client: TestClient) -> None:
    answer = review(client, SHIPPED_RECORD.read_text())
    for turn in answer["turns"]:
        assert turn["win_lost"] == pytest.approx(max(0.0, turn["win_before"] - turn["win_after"]), abs=2e-4)  # each rounded
        assert turn["grade"] == (endgame_grade(turn["spread_lost"]) if turn.get("endgame") else grade(turn["win_lost"]))
    for player in answer["summary"]:
        lost = [turn["win_lost"] for turn in answer["turns"] if turn["player"] == player["player"]]
        assert player["accuracy"] == pytest.approx(accuracy(lost), abs=0.01)   # the rows' win_lost are rounded
    assert [name for name, _ in answer["grade_cuts"]["win_lost"]] == list(GRADES)


def test_the_review_grades_a_record_as_ginnyo_analyze_does(client: TestClient) -> None:
    answer = review(client, SHIPPED_RECORD.read_text())
    rows, summary = analyze_rows(SHIPPED_RECORD)
    assert [{key: turn.get(key) for key in GRADE_FIELDS + ENDGAME_FIELDS} for turn in answer["turns"]] == [
        {key: row.get(key) for key in GRADE_FIELDS + ENDGAME_FIELDS} for row in rows]
    assert [player["accuracy"] for player in answer["summary"]] == [player["accuracy"] for player in summary]


def test_each_turn_is_drawn_on_the_board_the_last_one_left(client: TestClient, record: Path) -> None:
    turns = review(client, record.read_text())["turns"]
    assert turns[0]["board"] == {}
    for turn, following in zip(turns, turns[1:]):
        assert set(following["board"]) == set(turn["board"]) | set(turn["squares"])
        assert all(following["board"][square] == code for square, code in turn["board"].items())


def test_each_turn_is_the_position_its_player_decided_on(client: TestClient, record: Path) -> None:
    for turn in review(client, record.read_text())["turns"]:
        position = Position.from_dict(turn["position"])
        best = position.best_play()
        assert (None if best is None else position.notation(best)) == (turn["best"] and turn["best"]["notation"])
        assert turn["position"]["to_move"] == turn["player"] and turn["position"]["rack"] == turn["rack"]


def test_the_scores_run_with_the_moves_to_the_final_scores(client: TestClient, record: Path) -> None:
    answer = review(client, record.read_text())
    running = [0] * answer["players"]
    for turn in answer["turns"]:
        running[turn["player"]] += turn["played"]["score"]
        assert turn["scores"] == running
    end = json.loads(record.read_text().splitlines()[-1])
    assert answer["final"]["scores"] == end["scores"] == [score - penalty for score, penalty
                                                          in zip(running, end["penalties"])]


def test_a_move_is_marked_a_big_loss_from_the_cut_off_on(client: TestClient, record: Path) -> None:
    turns = review(client, record.read_text())["turns"]
    assert all(turn["big_loss"] == (turn["equity_lost"] >= BIG_LOSS) for turn in turns)
    assert any(turn["big_loss"] for turn in turns) and not all(turn["big_loss"] for turn in turns)


def test_a_record_that_breaks_the_rules_is_refused_in_analyzes_words(client: TestClient, record: Path,
                                                                     tmp_path: Path) -> None:
    lines = record.read_text().splitlines()
    turn = json.loads(lines[3])
    turn["score"] += 1
    broken = "\n".join([*lines[:3], json.dumps(turn), *lines[4:]]) + "\n"
    path = tmp_path / "broken.jsonl"
    path.write_text(broken)
    answer = client.post("/api/review", content=broken)
    assert answer.status_code == 422
    assert answer.json()["error"] == cli_error("analyze", str(path)).replace(str(path), "record")


@pytest.mark.parametrize("text", ["", "not json\n", '{"turn": 1}\n'])
def test_what_is_no_record_is_refused_in_words(client: TestClient, text: str) -> None:
    answer = client.post("/api/review", content=text)
    assert answer.status_code == 422 and answer.json()["error"].startswith("record")


def test_a_record_not_in_utf8_is_a_bad_request(client: TestClient) -> None:
    assert client.post("/api/review", content=b"\xff\xfe{}").status_code == 400


def test_a_record_over_the_limit_is_too_large(client: TestClient) -> None:
    assert client.post("/api/review", content=b" " * (MAX_RECORD + 1)).status_code == 413


def test_a_finished_table_game_is_reviewed_for_its_seats(client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 5}).json()
    game, token = made["id"], made["seats"][0]["token"]
    assert client.get(f"/api/games/{game}/review", headers=bearer(token)).status_code == 409
    finished = play_to_end(client, game, token)
    answer = client.get(f"/api/games/{game}/review", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert len(body["turns"]) == finished["version"] and body["game"] == game
    assert body["final"]["scores"] == finished["result"]["final_scores"]
    record = client.get(f"/api/games/{game}/record", headers=bearer(token)).text
    assert review(client, record)["turns"] == body["turns"]


def test_a_table_game_is_reviewed_for_nobody_without_its_token(client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 5}).json()
    other = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 6}).json()
    assert client.get(f"/api/games/{made['id']}/review").status_code == 401
    assert client.get(f"/api/games/{made['id']}/review",
                      headers=bearer(other["seats"][0]["token"])).status_code == 403
    assert client.get("/api/games/nothing/review", headers=bearer(made["seats"][0]["token"])).status_code == 404


def test_the_review_page_is_served(client: TestClient) -> None:
    for path in ("/review", "/review/someid"):
        answer = client.get(path)
        assert answer.status_code == 200 and "/static/js/review.js" in answer.text


def test_the_final_reason_comes_with_its_code_for_a_page_to_word_it(client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": ["human", "human"], "seed": 5, "names": ["Ann", "Bo"]}).json()
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    assert client.post(f"/api/games/{game}/resign", json={}, headers=bearer(tokens[1])).status_code == 200
    result = client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()["result"]
    final = client.get(f"/api/games/{game}/review", headers=bearer(tokens[0])).json()["final"]
    assert final["reason"] == result["reason"] == "player 1 resigned"
    assert (final["reason_code"], final["reason_args"]) == (result["reason_code"], result["reason_args"]) \
        == ("resigned", {"seat": 1})


def test_a_records_end_reason_is_coded_as_its_rules_words(client: TestClient, record: Path) -> None:
    final = review(client, record.read_text())["final"]
    template = next(words for words, code in END_CODES.items() if code == final["reason_code"])
    arguments = final["reason_args"]
    assert template.format(rounds=arguments.get("count"), player=arguments.get("seat")) == final["reason"] \
        == json.loads(record.read_text().splitlines()[-1])["end"]
