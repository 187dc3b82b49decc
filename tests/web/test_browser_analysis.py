"""The analysis board in a real browser (Playwright driving Debian's chromium) against a real
``ginnyo serve``: the shipped examples ranked as ``ginnyo best-move`` ranks them, a simulation
started and stopped, edits refused in best-move's words or kept, and a table seat's own view."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from analysis_helpers import ENDGAMES, PREENDGAMES, RANKED_STATICALLY, SHIPPED, cli_error, cli_json
from browser_fixtures import browser, page, server  # noqa: F401 (the fixtures)
from browser_table import Server
from ginnyo import Position
from held_answers import hold_answers, let_through, start_holding, wait_held

MIDGAME = next(path for path in SHIPPED if path.name == "midgame.json")


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1400, "height": 1000}


def open_file(page: Any, server: Server, path: Path) -> None:
    """The analysis page with ``path`` opened through its file button."""
    page.goto(server.url + "analysis")
    page.wait_for_selector("#by-score li")   # the empty board's analysis
    page.set_input_files("#file", str(path))
    page.wait_for_function("name => document.getElementById('status').textContent === `Analysed ${name}.`",
                           arg=path.name)


def first_play(page: Any, ranking: str) -> str | None:
    button = page.query_selector(f"#{ranking} li:first-child button")
    return None if button is None else button.get_attribute("data-notation")


def status(page: Any) -> tuple[str, bool]:
    element = page.locator("#status")
    return element.text_content(), "error" in (element.get_attribute("class") or "")


@pytest.mark.parametrize("path", RANKED_STATICALLY, ids=[path.name for path in RANKED_STATICALLY])
def test_a_shipped_example_tops_as_best_move_says(page: Any, server: Server, path: Path) -> None:
    open_file(page, server, path)
    assert first_play(page, "by-score") == cli_json("best-move", "--json", str(path))["notation"]
    assert first_play(page, "by-equity") == cli_json("best-move", "--equity", "--json", str(path))["best"]["notation"]


@pytest.mark.parametrize("path", ENDGAMES, ids=[path.name for path in ENDGAMES])
def test_an_endgame_tops_the_equity_column_with_best_moves_solver_answer(page: Any, server: Server, path: Path) -> None:
    open_file(page, server, path)
    expected = cli_json("best-move", "--equity", "--json", str(path))
    assert first_play(page, "by-equity") == expected["notation"]
    first = page.locator("#by-equity li").first
    assert "solver" in (first.get_attribute("class") or "")
    assert f"endgame spread {'+' if expected['spread'] > 0 else ''}{expected['spread']}" in first.text_content()
    assert "endgame solver" in page.locator("#equity-note").text_content()
    first.locator("button").click()
    assert " | ".join(expected["line"]) in page.locator("#detail-text").text_content()


def test_a_preendgame_tops_the_equity_column_with_best_moves_solver_answer(page: Any, server: Server) -> None:
    path = PREENDGAMES[0]
    open_file(page, server, path)
    expected = cli_json("best-move", "--equity", "--json", str(path))
    assert first_play(page, "by-equity") == expected["notation"]
    spread = f"{'+' if expected['spread'] > 0 else ''}{expected['spread']}"
    assert f"expected spread {spread}" in page.locator("#by-equity li").first.text_content()
    note = page.locator("#equity-note").text_content()
    assert "pre-endgame solver" in note and f"{expected['box']} tiles in the box" in note


def test_a_play_clicked_is_shown_on_the_board_with_its_melds(page: Any, server: Server) -> None:
    open_file(page, server, MIDGAME)
    best = cli_json("best-move", "--json", str(MIDGAME))
    page.click("#by-score li:first-child button")
    placed = page.eval_on_selector_all("#board .sq.last", "squares => squares.map(s => s.dataset.square)")
    assert sorted(placed) == sorted(best["placements"])
    melds = page.locator("#detail-melds li").all_text_contents()
    assert [meld.rsplit("= ", 1)[1] for meld in melds] == [str(meld["score"]) for meld in best["melds"]]


def test_a_simulation_started_in_the_page_runs_and_stops(page: Any, server: Server) -> None:
    open_file(page, server, MIDGAME)
    page.fill("#sim-rollouts", "100000")
    # the longest rollouts of the most candidates (some 25 s of work): still running when the stop is clicked
    page.fill("#sim-plies", "8")
    page.fill("#sim-candidates", "10")
    with page.expect_response(lambda response: response.url.endswith("/api/analysis/simulations")) as started:
        page.click("#sim-start")
    job = started.value.json()["id"]
    page.wait_for_function("() => /^[1-9][0-9]* of 100000 rollouts — running/.test("
                           "document.getElementById('sim-progress').textContent)")
    assert page.locator("#by-sim li").count() == 10
    page.click("#sim-stop")
    page.wait_for_function("() => document.getElementById('sim-progress').dataset.state === 'stopped'")
    stopped = page.locator("#sim-progress").text_content()
    done = int(stopped.split(" of ")[0])
    assert 0 < done < 100000 and page.locator("#sim-stop").is_disabled()
    # the stopped job's count is final (a block under way when it stopped is thrown away): the page shows it
    assert server.call("GET", f"api/analysis/simulations/{job}")["rollouts"] == done
    assert re.search(r"[+-]\d+\.\d \[", page.locator("#by-sim li").first.text_content())


# the simulation's progress events held in the page itself while window.holdProgress is set, until the test lets
# them through: a snapshot the server took before the stop comes after the stop's answer, as it can on a network
HELD_PROGRESS = """
const NativeEventSource = window.EventSource;
window.holdProgress = false;
window.heldProgress = [];
window.ended = false;
window.EventSource = class extends NativeEventSource {
  addEventListener(type, listener, options) {
    super.addEventListener(type, (message) => {
      if (type === "end") window.ended = true;
      if (type === "progress" && window.holdProgress) window.heldProgress.push(() => listener(message));
      else listener(message);
    }, options);
  }
};
"""


def test_a_progress_event_coming_after_the_stop_leaves_the_simulation_stopped(page: Any, server: Server) -> None:
    page.add_init_script(HELD_PROGRESS)
    open_file(page, server, MIDGAME)
    page.fill("#sim-rollouts", "100000")
    page.fill("#sim-plies", "8")            # long enough to be running when the stop is clicked
    page.fill("#sim-candidates", "10")
    with page.expect_response(lambda response: response.url.endswith("/api/analysis/simulations")) as started:
        page.click("#sim-start")
    job = started.value.json()["id"]
    page.wait_for_function("() => document.getElementById('sim-progress').dataset.state === 'running'")
    page.evaluate("window.holdProgress = true")
    page.wait_for_function("window.heldProgress.length > 0")   # a snapshot of the job running, not yet shown
    page.click("#sim-stop")
    page.wait_for_function("window.ended && document.getElementById('sim-progress').dataset.state === 'stopped'")
    page.evaluate("window.heldProgress.splice(0).forEach((show) => show())")
    assert page.locator("#sim-progress").get_attribute("data-state") == "stopped"
    assert page.locator("#sim-stop").is_disabled()
    done = int(str(page.locator("#sim-progress").text_content()).split(" of ")[0])
    assert server.call("GET", f"api/analysis/simulations/{job}")["rollouts"] == done


def test_a_rack_edit_the_rules_refuse_is_refused_in_words(page: Any, server: Server, tmp_path: Path) -> None:
    open_file(page, server, MIDGAME)
    page.fill("#rack-text", "3C ZZ")
    page.click("#rack-set")
    edited = dict(json.loads(MIDGAME.read_text()), rack="3C ZZ")
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    expected = f"Edit refused: {cli_error('best-move', '--equity', str(tmp_path / 'edited.json'))}"
    page.wait_for_function("text => document.getElementById('status').textContent === text", arg=expected)
    assert status(page) == (expected, True)
    assert page.locator("#rack .tile").count() == 8   # the position shown is still the one before


def test_a_tile_placed_out_of_any_meld_is_refused_in_words(page: Any, server: Server, tmp_path: Path) -> None:
    open_file(page, server, MIDGAME)
    page.click('#board [data-square="O15"]')
    page.fill("#tile-code", "7C")
    page.click("#place")
    edited = json.loads(MIDGAME.read_text())
    edited["board"]["O15"] = "7C"
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    expected = f"Edit refused: {cli_error('best-move', '--equity', str(tmp_path / 'edited.json'))}"
    page.wait_for_function("text => document.getElementById('status').textContent === text", arg=expected)
    assert page.locator('#board [data-square="O15"] .tile').count() == 0


def test_an_edit_the_rules_allow_is_kept_and_copied_as_a_line(page: Any, server: Server) -> None:
    open_file(page, server, MIDGAME)
    page.fill("#rack-text", "KS KS *")
    page.click("#rack-set")
    page.wait_for_function("() => document.getElementById('status').textContent === 'Edit accepted.'")
    page.click("#copy-line")
    line = page.locator("#source").input_value()
    expected = Position.from_dict(dict(json.loads(MIDGAME.read_text()), rack="KS KS *"))
    assert Position.from_line(line) == expected
    assert first_play(page, "by-score") == cli_json("best-move", "--json", expected.to_line())["notation"]


def test_game_fields_edited_are_checked_as_best_move_checks_them(page: Any, server: Server, tmp_path: Path) -> None:
    open_file(page, server, MIDGAME)
    page.fill("#players", "2")
    page.click("#state-set")
    edited = dict(json.loads(MIDGAME.read_text()), players=2)
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    expected = f"Edit refused: {cli_error('best-move', '--equity', str(tmp_path / 'edited.json'))}"
    page.wait_for_function("text => document.getElementById('status').textContent === text", arg=expected)


def test_a_seat_analyses_its_own_view_handed_over_by_the_server(page: Any, server: Server) -> None:
    # against a bot: while people play a game, the analysis board is refused (test_browser_fair_play.py);
    # the handover is the seat's own view (test_fair_play.py), which never holds another rack
    made = server.create(["human", "greedy"], seed=11)
    game, token = made["id"], made["seats"][0]["token"]
    own = server.view(game, token)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{server.url}analysis#game={game}&seat=0&token={token}")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('The position seat 1')")
    shown = page.eval_on_selector_all("#rack .tile", "tiles => tiles.length")
    assert shown == len(own["position"]["rack"].split())
    assert page.locator("#rack-text").input_value() == own["position"]["rack"]
    assert [url for url in asked if f"/api/games/{game}" in url] == [f"{server.url}api/games/{game}/analysis"]


def test_an_edit_after_a_simulation_stops_and_clears_it(page: Any, server: Server) -> None:
    open_file(page, server, MIDGAME)
    page.fill("#sim-rollouts", "20")
    page.fill("#sim-plies", "1")
    page.fill("#sim-candidates", "3")
    page.click("#sim-start")
    page.wait_for_function("() => document.getElementById('sim-progress').dataset.state === 'done'")
    assert page.locator("#by-sim li").count() == 3
    # the CLI's win chance beside each candidate (best-move --sim prints it)
    assert all(re.search(r"win chance \d+\.\d%", line) for line in page.locator("#by-sim li").all_text_contents())
    rack = json.loads(MIDGAME.read_text())["rack"].split()
    page.fill("#rack-text", " ".join(rack[:-1]))
    page.click("#rack-set")
    page.wait_for_function("() => document.getElementById('status').textContent === 'Edit accepted.'")
    assert page.locator("#by-sim li").count() == 0
    assert page.locator("#sim-progress").text_content() == ""
    assert page.locator("#sim-bar").evaluate("bar => bar.value") == 0


def test_the_plays_by_score_are_listed_one_row_a_group_of_orderings(page: Any, server: Server) -> None:
    opening = next(path for path in SHIPPED if path.name == "opening.json")
    expected = cli_json("moves", "--group", "--json", "--limit", "10", str(opening))
    open_file(page, server, opening)
    rows = page.locator("#by-score li").all_text_contents()
    assert len(rows) == len(expected) == 10
    for row, group in zip(rows, expected):
        assert row.startswith(group["notation"])
        assert row.endswith(f"({group['orderings']} orderings)") == (group["orderings"] > 1)
    assert len({row.split("  ")[0] for row in rows}) == 10


def rack_edit_held(page: Any, server: Server) -> None:
    """The midgame opened, its rack set to KS KS *: that edit's answer held in the page."""
    hold_answers(page, "/api/analysis", holding=False)
    open_file(page, server, MIDGAME)
    start_holding(page)
    page.fill("#rack-text", "KS KS *")
    page.click("#rack-set")
    wait_held(page)


def test_an_edit_made_before_the_last_is_answered_builds_on_it(page: Any, server: Server) -> None:
    rack_edit_held(page, server)
    page.fill("#scores", "10 20 30")             # typed while the rack's edit is on its way
    page.click("#state-set")
    let_through(page, stop=True)
    page.wait_for_function("() => (JSON.parse(document.getElementById('source').value).scores || []).length === 3")
    shown = json.loads(page.locator("#source").input_value())
    assert shown["rack"] == "KS KS *" and shown["scores"] == [10, 20, 30]


def test_a_field_being_typed_in_is_not_overwritten_by_an_answer(page: Any, server: Server) -> None:
    rack_edit_held(page, server)
    page.locator("#scores").press_sequentially("10 20")   # half typed (the field focused) when the rack's answer comes
    assert page.evaluate("document.activeElement.id") == "scores"
    let_through(page, stop=True)
    page.wait_for_function("() => JSON.parse(document.getElementById('source').value).rack === 'KS KS *'")
    assert page.locator("#scores").input_value() == "10 20"
    assert page.locator("#rack-text").input_value() == "KS KS *"
