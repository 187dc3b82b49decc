"""The analysis API (docs/WEB-ANALYSIS.md): rankings by score and by equity that agree with
``ginnyo best-move``, refusals in its words, and simulations run, streamed, stopped and bounded."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from analysis_helpers import ENDGAMES, EXAMPLES, PREENDGAMES, RANKED_STATICALLY, SHIPPED, WAIT_SECONDS, TestClient, bearer, cli_error, cli_json, client_of, view
from ginnyo import Position
from ginnyo.web.http import analysis as analysis_module
from ginnyo.odds.win_probability import win_chances
from ginnyo.web.http.analysis import simulation_job
from ginnyo.web.live import analysis_jobs
from ginnyo.web.live.analysis_jobs import MAX_ACTIVE, Simulations
from ginnyo.web.http.openapi import OPERATIONS

MIDGAME = next(path for path in SHIPPED if path.name == "midgame.json")
SET_OF_THREE = {"board": {"H7": "7C", "H8": "7D", "H9": "7S"}, "rack": "7H"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def analyse(client: TestClient, position: Any, **fields: Any) -> dict[str, Any]:
    answer = client.post("/api/analysis", json={"position": position, **fields})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def refusal(client: TestClient, position: Any) -> tuple[int, str]:
    answer = client.post("/api/analysis", json={"position": position})
    return answer.status_code, answer.json()["error"]


def without_tiles(play: dict[str, Any]) -> dict[str, Any]:
    """A play as best-move --json writes it (the analysis adds each meld's tiles and its group's orderings)."""
    return dict({key: value for key, value in play.items() if key != "orderings"},
                melds=[{key: value for key, value in meld.items() if key != "tiles"} for meld in play["melds"]])


@pytest.mark.parametrize("path", SHIPPED, ids=[path.name for path in SHIPPED])
def test_the_plays_by_score_are_grouped_as_moves_group_lists_them(client: TestClient, path: Path) -> None:
    expected = cli_json("moves", "--group", "--json", "--limit", "10", str(path))
    answer = analyse(client, json.loads(path.read_text()))
    assert [dict(without_tiles(play), orderings=play["orderings"]) for play in answer["by_score"]] == expected


@pytest.mark.parametrize("path", SHIPPED, ids=[path.name for path in SHIPPED])
def test_the_best_play_by_score_is_best_moves(client: TestClient, path: Path) -> None:
    expected = cli_json("best-move", "--json", str(path))
    answer = analyse(client, json.loads(path.read_text()))
    if expected["notation"] is None:
        assert answer["by_score"] == [] and answer["no_play"] == expected
    else:
        assert without_tiles(answer["by_score"][0]) == expected


@pytest.mark.parametrize("path", [*ENDGAMES, *PREENDGAMES], ids=[path.name for path in (*ENDGAMES, *PREENDGAMES)])
def test_an_endgame_or_preendgame_is_answered_by_the_solver_as_best_move_answers_it(client: TestClient,
                                                                                     path: Path) -> None:
    expected = cli_json("best-move", "--equity", "--json", str(path))
    answer = analyse(client, json.loads(path.read_text()))
    solved, timing = answer["endgame"], ("nodes", "seconds")
    assert solved["proven"] and solved["source"] == ("endgame" if path in ENDGAMES else "pre-endgame")
    assert {key: value for key, value in solved.items() if key not in ("placements", "melds", *timing)} == {
        key: value for key, value in expected.items() if key not in timing}
    if solved["notation"].startswith(("return", "pass")):
        assert solved["placements"] == {} and solved["melds"] == []
        return
    position = Position.from_dict(answer["position"])
    play = position.score(position.parse(solved["notation"]))
    assert solved["placements"] == {position.layout.square_name(square): tile.code
                                    for square, tile in play.play.placements}
    assert [meld["score"] for meld in solved["melds"]] == [meld.score for meld in play.melds]


def test_the_endgame_solver_answers_within_its_budget_unproven_when_it_runs_out(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_module, "ENDGAME_SECONDS", 1e-6)
    endgame = next(path for path in ENDGAMES if path.stem == "endgame")
    solved = analyse(client, json.loads(endgame.read_text()))["endgame"]
    assert solved["proven"] is False and solved["seconds"] < 0.5 and solved["line"]


@pytest.mark.parametrize("path", RANKED_STATICALLY, ids=[path.name for path in RANKED_STATICALLY])
def test_no_endgame_no_solver(client: TestClient, path: Path) -> None:
    assert analyse(client, json.loads(path.read_text()))["endgame"] is None


@pytest.mark.parametrize("path", RANKED_STATICALLY, ids=[path.name for path in RANKED_STATICALLY])
def test_the_ranking_by_equity_is_best_move_equitys(client: TestClient, path: Path) -> None:
    expected = cli_json("best-move", "--equity", "--json", "--candidates", "10", str(path))
    answer = analyse(client, json.loads(path.read_text()))
    assert answer["box"] == expected["box"]
    assert [{k: v for k, v in c.items() if k != "melds"} for c in answer["by_equity"]] == expected["candidates"]


def test_a_meld_of_a_play_names_its_tiles_board_and_placed(client: TestClient) -> None:
    answer = analyse(client, SET_OF_THREE)
    best = answer["by_score"][0]
    assert best["melds"][0]["kind"] == "set"
    assert sorted(best["melds"][0]["tiles"]) == ["7C", "7D", "7H", "7S"]


def test_a_position_line_is_read_as_best_move_reads_it(client: TestClient) -> None:
    position = Position.from_file(MIDGAME)
    answer = analyse(client, position.to_line())
    assert without_tiles(answer["by_score"][0]) == cli_json("best-move", "--json", position.to_line())
    assert answer["line"] == position.to_line()


def test_the_answer_gives_the_position_back_as_json_and_as_a_line(client: TestClient) -> None:
    position = Position.from_file(MIDGAME)
    answer = analyse(client, json.loads(MIDGAME.read_text()))
    assert Position.from_dict(answer["position"]) == position
    assert Position.from_line(answer["line"]) == position


@pytest.mark.parametrize("change", [
    {"rack": "3C ZZ"},
    {"board": {"Z99": "7C"}},
    {"board": {"H8": "7C", "H9": "7C", "H10": "7C"}},
    {"board": {"H8": "7C"}},
    {"players": 5},
    {"scores": [1]},
    {"to_move": 3},
    {"unseen": "KS KS KS"},
    {"sets": 3},
    {"layout": "round"},
    {"colour": "red"},
], ids=lambda change: next(iter(change)))
def test_a_refused_position_says_what_best_move_says(client: TestClient, tmp_path: Path, change: dict[str, Any]) -> None:
    position = {**SET_OF_THREE, **change}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    assert refusal(client, position) == (422, cli_error("best-move", "--equity", str(path)))


def test_a_refused_position_line_says_what_best_move_says(client: TestClient) -> None:
    line = "15/15/15/15/15/15/15/7X7/15/15/15/15/15/15/15 7H"
    assert refusal(client, line) == (422, cli_error("best-move", "--equity", line))


@pytest.mark.parametrize("text", ['{"board": {}, "rack": "7H"', '{"board": {}, "rack": "7H", "rack": "7S"}',
                                  '{"board": {"H8": "7C"}, "rack": "7H"}'])
def test_position_json_as_text_is_refused_in_best_moves_words(client: TestClient, tmp_path: Path, text: str) -> None:
    path = tmp_path / "position.json"
    path.write_text(text)
    assert refusal(client, text) == (422, cli_error("best-move", "--equity", str(path)))


def test_position_json_as_text_is_read_as_best_move_reads_a_file(client: TestClient) -> None:
    answer = analyse(client, MIDGAME.read_text())
    assert without_tiles(answer["by_score"][0]) == cli_json("best-move", "--json", str(MIDGAME))


def test_a_path_is_never_read_as_a_file(client: TestClient) -> None:
    status, reason = refusal(client, str(MIDGAME))
    assert status == 422 and "rack" in reason


@pytest.mark.parametrize("body", [{}, {"position": 7}, {"position": [1]}, {"position": {}, "limit": 0},
                                  {"position": {}, "extra": 1}])
def test_a_malformed_request_is_a_bad_request(client: TestClient, body: dict[str, Any]) -> None:
    answer = client.post("/api/analysis", json=body)
    assert answer.status_code == 400 and answer.json()["error"]


def start(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"position": json.loads(MIDGAME.read_text()), **fields}
    answer = client.post("/api/analysis/simulations", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def events(client: TestClient, job: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every event of a job's stream until it closes."""
    seen: list[tuple[str, dict[str, Any]]] = []
    kind = ""
    with client.stream("GET", job["events"]) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: "):
                seen.append((kind, json.loads(line[len("data: "):])))
    return seen


def test_a_simulation_ranks_as_best_move_sim_does(client: TestClient) -> None:
    job = start(client, rollouts=600, seed=3)
    final = events(client, job)[-1][1]
    expected = cli_json("best-move", "--sim", "600", "--seed", "3", "--json", "--workers", "1", str(MIDGAME))
    assert final["state"] == "done" and final["rollouts"] == expected["rollouts"] == 600
    assert [(c["notation"], c["mean"], c["ci95"]) for c in final["candidates"]] == \
        [(c["notation"], c["mean"], c["ci95"]) for c in expected["candidates"]]


def test_a_simulation_streams_its_progress_then_ends(client: TestClient) -> None:
    job = start(client, rollouts=1024)
    seen = events(client, job)
    kinds = [kind for kind, _ in seen]
    assert kinds[-1] == "end" and set(kinds[:-1]) <= {"progress"}
    counts = [data["rollouts"] for _, data in seen]
    assert counts == sorted(counts) and counts[-1] == 1024


def test_a_stopped_simulation_stops_where_it_was(client: TestClient) -> None:
    job = start(client, rollouts=100_000)
    stopped = client.post(f"/api/analysis/simulations/{job['id']}/stop").json()
    assert stopped["state"] == "stopped" and stopped["rollouts"] < 100_000
    simulations: Simulations = client.app.state.simulations   # type: ignore[attr-defined]
    simulations.close()    # its threads end once the block under way (thrown away) is done
    deadline = time.monotonic() + WAIT_SECONDS
    while simulations.threads:
        assert time.monotonic() < deadline, "the simulation threads did not end"
        time.sleep(0.01)
    later = client.get(f"/api/analysis/simulations/{job['id']}").json()
    assert later["rollouts"] == stopped["rollouts"]
    assert events(client, job)[-1][0] == "end"


def test_a_simulation_with_a_stopping_level_ends_once_the_leader_is_clear(client: TestClient) -> None:
    job = start(client, rollouts=100_000, stop=95)
    final = events(client, job)[-1][1]
    assert final["state"] == "done" and final["rollouts"] < 100_000


def test_an_unknown_simulation_is_not_found(client: TestClient) -> None:
    assert client.get("/api/analysis/simulations/nothing").status_code == 404
    assert client.post("/api/analysis/simulations/nothing/stop").status_code == 404


@pytest.mark.parametrize("field, value", [("rollouts", 0), ("rollouts", 100_001), ("candidates", 11),
                                          ("plies", -1), ("seed", "x"), ("policy", "best"), ("stop", 90)])
def test_a_simulation_out_of_bounds_is_a_bad_request(client: TestClient, field: str, value: Any) -> None:
    answer = client.post("/api/analysis/simulations",
                         json={"position": json.loads(MIDGAME.read_text()), field: value})
    assert answer.status_code == 400 and field in answer.json()["error"]


def test_more_simulations_than_the_bound_are_refused() -> None:
    simulations = Simulations(threads=0)     # nothing runs: every job stays waiting
    body = {"position": json.loads(MIDGAME.read_text())}
    assert all(simulations.start(*simulation_job(body, win_chances)) is not None for _ in range(MAX_ACTIVE))
    assert simulations.start(*simulation_job(body, win_chances)) is None
    simulations.stop(next(iter(simulations.jobs.values())))
    assert simulations.start(*simulation_job(body, win_chances)) is not None   # a stopped one makes room


def test_the_other_seat_analyses_its_own_rack_only(client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": ["human", "human"], "seed": 11}).json()
    game, first, second = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    mover, other = view(client, game, first), view(client, game, second)
    assert mover["your_turn"] and not other["your_turn"]
    answer = analyse(client, other["position"])
    assert answer["position"]["rack"] == other["position"]["rack"] != mover["position"]["rack"]
    assert client.get(f"/api/games/{game}/review", headers=bearer(second)).status_code == 409


def test_the_analysis_page_is_served(client: TestClient) -> None:
    answer = client.get("/analysis")
    assert answer.status_code == 200 and "/static/js/analysis.js" in answer.text


def test_the_simulation_threads_are_bounded_and_end_when_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_jobs, "IDLE_SECONDS", 0.05)
    simulations = Simulations(threads=2)
    body = {"position": json.loads(MIDGAME.read_text()), "rollouts": 512}
    jobs = [job for job in (simulations.start(*simulation_job(body, win_chances)) for _ in range(6)) if job is not None]
    assert simulations.threads == 2
    deadline = time.monotonic() + WAIT_SECONDS
    while not all(job.finished for job in jobs) or simulations.threads:
        assert time.monotonic() < deadline, "the jobs did not end, or their threads did not"
        time.sleep(0.01)
    assert all(job.state == "done" and job.tally.count == 512 for job in jobs)


def test_the_analysis_endpoints_are_summed_up_in_sentences() -> None:
    summaries = [operation.summary for (_, path), (_, operation) in OPERATIONS.items()
                 if path.startswith("/api/analysis") or path.endswith("/analysis")]
    assert len(summaries) == 6
    for summary in summaries:   # a verb first ("Ranks", "Starts"...), a full stop last
        assert summary[0].isupper() and summary.split()[0].endswith("s") and summary.endswith("."), summary
