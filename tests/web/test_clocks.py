"""Clocks, resigning and aborting at the web table (docs/WEB.md "Clocks, resigning, aborting";
docs/RULES.md "Timed play (the project's rule)" and "Resignation"), from the outside: the API, a
test's own clock for the server's timers, and the record each game leaves."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from ginnyo.game.records import parse_record, replay
from ginnyo.commands.serve import web_app

from web_helpers import TestClient, act, bearer, best_action, create, view

POLL_SECONDS = 60   # the bound on waiting for the timer thread (it looks at least every second; a loaded CI machine is slow)


class FakeClock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    clock = FakeClock()
    with TestClient(web_app(tmp_path, now=clock), raise_server_exceptions=True) as client:
        yield client, clock


def tokens_of(made: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in made["seats"]]


def wait_finished(client: TestClient, game: str, token: str) -> dict[str, Any]:
    """The view once the game is over, polled (the timer thread ends it, no request does)."""
    deadline = time.monotonic() + POLL_SECONDS
    while True:
        seen = view(client, game, token)
        if seen["finished"] or time.monotonic() > deadline:
            return seen
        time.sleep(0.05)


def to_move_token(client: TestClient, game: str, tokens: list[str]) -> tuple[int, str]:
    seen = view(client, game, tokens[0])
    return seen["to_move"], tokens[seen["to_move"]]


def test_the_clock_runs_between_two_views(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    made = create(client, ["human", "human"], clock={"initial": 60, "increment": 5})
    game, tokens = made["id"], tokens_of(made)
    first = view(client, game, tokens[0])["clocks"]
    assert [entry["remaining"] for entry in first] == [60, 60]
    seat, token = to_move_token(client, game, tokens)
    clock.advance(20)
    second = view(client, game, tokens[0])["clocks"]
    assert second[seat] == {"seat": seat, "remaining": 40, "running": True, "overtime_penalty": 0}
    assert second[1 - seat]["remaining"] == 60 and not second[1 - seat]["running"]
    answer = act(client, game, token, best_action(view(client, game, token)))
    assert answer.status_code == 200, answer.text
    after = answer.json()["clocks"]
    assert after[seat]["remaining"] == 45 and not after[seat]["running"]   # 60 - 20 + the increment
    assert after[1 - seat]["running"]


def test_no_clock_no_clocks_and_bad_clocks_refused(clocked: tuple[TestClient, FakeClock]) -> None:
    client, _ = clocked
    made = create(client, ["human", "human"])
    assert view(client, made["id"], tokens_of(made)[0])["clocks"] is None
    for clock in ({"initial": 5}, {"initial": 60, "increment": 61}, {"initial": "60"}, [60, 0],
                  {"initial": 60, "delay": 3}):
        answer = client.post("/api/games", json={"seats": ["human", "human"], "clock": clock})
        assert answer.status_code == 400, answer.text
        assert set(answer.json()) == {"error", "code", "args"}
        crazy = client.post("/api/games", json={"game": "crazy", "seats": ["human", "human", "human"],
                                                "clock": clock})
        assert crazy.status_code == 400 and crazy.json()["error"] == answer.json()["error"]   # as Ginny-O's


def test_overtime_is_charged_when_the_seat_moves(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    made = create(client, ["human", "human"], clock={"initial": 30, "increment": 0})
    game, tokens = made["id"], tokens_of(made)
    seat, token = to_move_token(client, game, tokens)
    clock.advance(30 + 61)   # 61 s over: two started minutes
    assert view(client, game, token)["clocks"][seat]["overtime_penalty"] == 20
    before = view(client, game, token)
    answer = act(client, game, token, best_action(before))
    assert answer.status_code == 200, answer.text
    seen = answer.json()
    played = seen["history"][-1]["score"]
    assert seen["scores"][seat] == played - 20
    assert seen["clocks"][seat]["overtime_penalty"] == 20


def test_a_timeout_ends_a_two_player_game_without_a_request(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    made = create(client, ["human", "human"], clock={"initial": 30, "increment": 0})
    game, tokens = made["id"], tokens_of(made)
    seat, _ = to_move_token(client, game, tokens)
    clock.advance(30 + 600 + 1)
    client.app.state.tables.timers.wake()   # type: ignore[attr-defined]
    seen = wait_finished(client, game, tokens[0])
    assert seen["finished"], "the timer did not end the game"
    assert seen["result"]["reason"] == f"player {seat} lost on time"
    assert seen["result"]["winners"] == [1 - seat] and seen["result"]["ranking"] == [1 - seat, seat]
    record = client.get(f"/api/games/{game}/record", headers=bearer(tokens[0]))
    assert record.status_code == 200
    assert {"event": "timeout", "player": seat} in [line for _, line in parse_record(record.text)]
    assert replay(parse_record(record.text)).end_reason == f"player {seat} lost on time"


def test_a_timeout_of_three_puts_the_seat_out_and_the_game_goes_on(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    made = create(client, ["human", "human", "human"], clock={"initial": 30, "increment": 0})
    game, tokens = made["id"], tokens_of(made)
    seat, _ = to_move_token(client, game, tokens)
    version = view(client, game, tokens[0])["version"]
    clock.advance(30 + 600 + 1)
    client.app.state.tables.timers.wake()   # type: ignore[attr-defined]
    deadline = time.monotonic() + POLL_SECONDS
    while view(client, game, tokens[0])["version"] == version and time.monotonic() < deadline:
        time.sleep(0.05)
    seen = view(client, game, tokens[0])
    assert not seen["finished"]
    assert seen["to_move"] not in (None, seat)
    following = view(client, game, tokens[seen["to_move"]])
    answer = act(client, game, tokens[seen["to_move"]], best_action(following))
    assert answer.status_code == 200, answer.text
    assert answer.json()["to_move"] != seat   # its turns are skipped
    # the other two resign in turn: the game ends, the seat out ranked last
    other = next(s for s in range(3) if s not in (seat, answer.json()["to_move"]))
    ended = client.post(f"/api/games/{game}/resign", headers=bearer(tokens[other]))
    assert ended.status_code == 200, ended.text
    result = ended.json()["result"]
    assert result["ranking"][-2:] == [other, seat] and result["out"] == [seat, other]


def test_resign_ends_the_game_ranked_and_recorded(clocked: tuple[TestClient, FakeClock]) -> None:
    client, _ = clocked
    made = create(client, ["human", "human", "human"])
    game, tokens = made["id"], tokens_of(made)
    for _ in range(3):   # a round of turns, so the scores differ
        seat, token = to_move_token(client, game, tokens)
        assert act(client, game, token, best_action(view(client, game, token))).status_code == 200
    answer = client.post(f"/api/games/{game}/resign", headers=bearer(tokens[1]))
    assert answer.status_code == 200, answer.text
    seen = answer.json()
    result = seen["result"]
    assert seen["finished"] and result["reason"] == "player 1 resigned"
    others = sorted((s for s in range(3) if s != 1), key=lambda s: -result["final_scores"][s])
    assert result["ranking"] == [*others, 1]
    assert 1 not in result["winners"]
    assert client.post(f"/api/games/{game}/resign", headers=bearer(tokens[0])).status_code == 409
    record = client.get(f"/api/games/{game}/record", headers=bearer(tokens[0])).text
    assert {"event": "resign", "player": 1} in [line for _, line in parse_record(record)]
    replayed = replay(parse_record(record))
    assert replayed.ranking == result["ranking"] and replayed.scores == result["final_scores"]


def test_abort_before_the_first_move_and_409_after(clocked: tuple[TestClient, FakeClock]) -> None:
    client, _ = clocked
    made = create(client, ["human", "human"])
    game, tokens = made["id"], tokens_of(made)
    seat, token = to_move_token(client, game, tokens)
    assert act(client, game, token, best_action(view(client, game, token))).status_code == 200
    refused = client.post(f"/api/games/{game}/abort", headers=bearer(token))
    assert refused.status_code == 409 and set(refused.json()) == {"error", "code", "args"}
    aborted = client.post(f"/api/games/{game}/abort", headers=bearer(tokens[1 - seat]))
    assert aborted.status_code == 200, aborted.text
    result = aborted.json()["result"]
    assert result["aborted"] and result["winners"] == []
    assert client.post(f"/api/games/{game}/abort", headers=bearer(tokens[0])).status_code == 409
    assert client.post(f"/api/games/{game}/abort").status_code == 401
