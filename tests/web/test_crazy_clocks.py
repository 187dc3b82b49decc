"""Crazy Rummy on the clock at the web table (docs/RULES.md "Timed play (the project's rule)", its Crazy
Rummy part; docs/WEB.md "Clocks, resigning, aborting"): the clocks in the view, the increment earned by
a whole turn, overtime added to the seat's total, a loss on time put out by the server's timer alone,
and the clocks kept across a restart.  The server's clock is the test's own."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from ginnyo.crazy.game import replay
from ginnyo.commands.serve import web_app

from cli_helpers import cli
from test_clocks import POLL_SECONDS, FakeClock
from web_helpers import TestClient, bearer, view

SEATS = ["human", "human", "human"]


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    clock = FakeClock()
    with TestClient(web_app(tmp_path, now=clock), raise_server_exceptions=True) as client:
        yield client, clock


def create_timed(client: TestClient, initial: int = 60, increment: int = 5) -> tuple[str, list[str]]:
    answer = client.post("/api/games", json={"game": "crazy", "seats": SEATS, "seed": 5,
                                             "clock": {"initial": initial, "increment": increment}})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["id"], [seat["token"] for seat in made["seats"]]


def step(client: TestClient, game: str, token: str, action: Any) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game}/actions", json={"action": action}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def any_discard(seen: dict[str, Any]) -> dict[str, str]:
    """A discard that ends the seat's turn (an opening turn, or one drawn from the stock: any card but none)."""
    return {"discard": seen["hand"].split()[0]}


def wait_changed(client: TestClient, game: str, token: str, version: int) -> dict[str, Any]:
    """The view once the server's timer has changed the game (no request does)."""
    deadline = time.monotonic() + POLL_SECONDS
    seen = view(client, game, token)
    while seen["version"] == version and time.monotonic() < deadline:
        time.sleep(0.05)
        seen = view(client, game, token)
    return seen


def time_out(client: TestClient, clock: FakeClock, game: str, token: str, seconds: float) -> dict[str, Any]:
    version = view(client, game, token)["version"]
    clock.advance(seconds)
    client.app.state.tables.timers.wake()   # type: ignore[attr-defined]
    return wait_changed(client, game, token, version)


def test_a_timed_crazy_game_has_clocks_and_a_whole_turn_earns_the_increment(
        clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    game, tokens = create_timed(client)
    seen = view(client, game, tokens[0])
    mover = seen["to_move"]
    assert [entry["remaining"] for entry in seen["clocks"]] == [60, 60, 60]
    assert [entry["running"] for entry in seen["clocks"]] == [seat == mover for seat in range(3)]
    clock.advance(20)
    mine = view(client, game, tokens[mover])
    assert mine["clocks"][mover] == {"seat": mover, "remaining": 40, "running": True, "overtime_penalty": 0}
    after = step(client, game, tokens[mover], any_discard(mine))   # the opening turn: 8 cards, no draw
    assert after["clocks"][mover] == {"seat": mover, "remaining": 45, "running": False, "overtime_penalty": 0}
    following = after["to_move"]
    assert following != mover and after["clocks"][following]["running"]
    clock.advance(10)
    drawn = step(client, game, tokens[following], {"draw": "stock"})   # a step of the turn: no increment yet
    assert drawn["clocks"][following]["remaining"] == 50 and drawn["clocks"][following]["running"]
    ended = step(client, game, tokens[following], any_discard(drawn))
    assert ended["clocks"][following]["remaining"] == 55 and not ended["clocks"][following]["running"]


def test_overtime_adds_ten_points_a_started_minute_to_the_total(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    game, tokens = create_timed(client, initial=30, increment=0)
    mover = view(client, game, tokens[0])["to_move"]
    clock.advance(30 + 61)   # 61 s over: two started minutes
    seen = view(client, game, tokens[mover])
    assert seen["clocks"][mover]["overtime_penalty"] == 20 and seen["scores"] == [0, 0, 0]
    after = step(client, game, tokens[mover], any_discard(seen))
    assert after["scores"][mover] == 20 and after["clocks"][mover]["overtime_penalty"] == 20
    assert sum(after["scores"]) == 20


def test_a_loss_on_time_puts_the_seat_out_and_the_last_seat_in_wins(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    game, tokens = create_timed(client, initial=30, increment=0)
    first = view(client, game, tokens[0])["to_move"]
    seen = time_out(client, clock, game, tokens[0], 30 + 600 + 1)   # no request makes the timer fire
    assert not seen["finished"] and seen["to_move"] not in (None, first)
    second = seen["to_move"]
    mine = view(client, game, tokens[second])
    assert mine["turn"]["drawn"] is False   # the opening passed by: the next seat draws as on any turn
    after = step(client, game, tokens[second], {"draw": "stock"})
    after = step(client, game, tokens[second], any_discard(after))
    assert after["to_move"] not in (first, second)   # the seat out has no more turns
    third = after["to_move"]
    ended = time_out(client, clock, game, tokens[0], 30 + 600 + 1)
    assert ended["finished"]
    result = ended["result"]
    assert result["winners"] == [second] and result["ranking"] == [second, third, first]
    assert result["out"] == [first, third]
    record = client.get(f"/api/games/{game}/record", headers=bearer(tokens[0]))
    assert record.status_code == 200


def test_the_clocks_and_the_timer_survive_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(web_app(tmp_path, now=clock), raise_server_exceptions=True) as client:
        game, tokens = create_timed(client, initial=30, increment=0)
        mover = view(client, game, tokens[0])["to_move"]
        clock.advance(20)
    with TestClient(web_app(tmp_path, now=clock), raise_server_exceptions=True) as client:
        seen = view(client, game, tokens[0])
        assert seen["clocks"][mover] == {"seat": mover, "remaining": 10, "running": True, "overtime_penalty": 0}
        again = time_out(client, clock, game, tokens[0], 10 + 600 + 1)
        assert again["to_move"] != mover and again["version"] == seen["version"] + 1


def test_the_record_of_a_game_with_overtime_and_losses_on_time_replays_to_the_tables_end(
        clocked: tuple[TestClient, FakeClock], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    client, clock = clocked
    game, tokens = create_timed(client, initial=30, increment=0)
    first = view(client, game, tokens[0])["to_move"]
    clock.advance(30 + 61)   # two started minutes over: 20 points, charged with the opening discard
    opened = step(client, game, tokens[first], any_discard(view(client, game, tokens[first])))
    assert opened["scores"][first] == 20
    second = opened["to_move"]
    third = time_out(client, clock, game, tokens[0], 30 + 600 + 1)["to_move"]   # the second seat out
    ended = time_out(client, clock, game, tokens[0], 30 + 600 + 1)   # and the third: the first is left
    assert ended["finished"]
    result = ended["result"]
    assert result["out"] == [second, third] and result["winners"] == [first] and result["overtime"][first] == 20
    answer = client.get(f"/api/games/{game}/record", headers=bearer(tokens[0]))
    assert answer.status_code == 200
    record = tmp_path / "timed-crazy.jsonl"
    record.write_text(answer.text)
    assert [json.loads(line)["event"] for line in answer.text.splitlines() if '"event"' in line] == \
        ["overtime", "timeout", "timeout"]
    game_played = replay(answer.text.splitlines())
    assert list(game_played.scores) == result["final_scores"] and game_played.ranking == result["ranking"]
    assert list(game_played.winners) == result["winners"] and game_played.out == result["out"]
    code, out, err = cli(capsys, "crazy", "replay", str(record))
    assert code == 0 and f"final scores {result['final_scores']}" in out, err
