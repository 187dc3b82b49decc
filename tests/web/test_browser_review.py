"""The game review in a real browser (Playwright driving Debian's chromium) against a real
``ginnyo serve``: a record from ``ginnyo selfplay --records`` stepped through to the end with the
arrow keys, its big losses marked, and a finished table game reviewed from its link."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis_helpers import EXAMPLES, best_action, cli, selfplay_record, served_game_to_end
from ginnyo.analysis.records import analyze_record
from ginnyo.game.records import parse_record
from browser_fixtures import browser, page, server  # noqa: F401 (the fixtures)
from browser_table import Server


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1400, "height": 1000}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return selfplay_record(tmp_path_factory.mktemp("records"), seed=2)


def upload(page: Any, server: Server, record: Path) -> int:
    """The review page with ``record`` opened; the number of turns it holds."""
    page.goto(server.url + "review")
    page.set_input_files("#file", str(record))
    page.wait_for_function("() => document.getElementById('where').textContent.startsWith('Turn 1 of')")
    return sum(1 for line in record.read_text().splitlines() if '"turn"' in line)


def where(page: Any) -> str:
    return str(page.locator("#where").text_content())


def test_a_record_is_stepped_through_to_the_end_with_the_arrow_keys(page: Any, server: Server, record: Path) -> None:
    turns = upload(page, server, record)
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    names = lines[0]["names"]
    for turn in lines[1:-1]:
        assert where(page) == f"Turn {turn['turn']} of {turns}: {names[turn['player']]}"
        assert page.locator("#compare code").first.text_content() == turn["action"]
        page.keyboard.press("ArrowRight")
    assert where(page) == f"End of the game ({turns} turns)"
    page.keyboard.press("ArrowRight")
    assert where(page) == f"End of the game ({turns} turns)"
    page.keyboard.press("ArrowLeft")
    assert where(page).startswith(f"Turn {turns} of {turns}")
    page.keyboard.press("Home")
    assert where(page).startswith(f"Turn 1 of {turns}")


def test_the_end_shows_the_final_board_and_scores(page: Any, server: Server, record: Path) -> None:
    upload(page, server, record)
    page.keyboard.press("End")
    end = json.loads(record.read_text().splitlines()[-1])
    cells = page.locator("#compare td").all_text_contents()
    assert [f"final {score}" for score in end["scores"]] == [cell for cell in cells if cell.startswith("final")]
    final = page.locator("#board .tile").count()
    assert final == sum(len(json.loads(line)["action"].replace(".", "").split()[1]) // 2
                        for line in record.read_text().splitlines()[1:-1]
                        if '"action"' in line and not json.loads(line)["action"].startswith(("return", "pass")))


def test_the_big_losses_are_marked_in_the_list_and_the_chart(page: Any, server: Server, record: Path) -> None:
    upload(page, server, record)
    status, out, err = cli("analyze", str(record))
    assert status == 0, err
    rows = [json.loads(line) for line in out.splitlines() if '"turn"' in line]
    cut_off = float(page.locator("#cutoff").text_content().split("lost ")[1].split(" points")[0])
    big = [row["turn"] for row in rows if row["equity_lost"] >= cut_off]
    marked = page.eval_on_selector_all("#turns li.big-loss", "items => items.map(item => Number(item.dataset.turn))")
    assert marked == big and big
    assert page.locator("#chart svg circle.big-loss").count() == len(big)
    assert page.locator("#chart svg polyline").count() == 2


def test_a_moves_grade_and_win_probability_are_shown_with_each_players_accuracy(page: Any, server: Server) -> None:
    from playwright.sync_api import expect
    record = EXAMPLES / "game-7.jsonl"
    rows, summary = analyze_record(parse_record(record.read_text(), "record"), "record")
    upload(page, server, record)
    worst = next(row for row in rows if row["grade"] == "large")
    page.click(f"#turns li[data-turn='{worst['turn']}']")
    expect(page.locator("#where")).to_contain_text(f"Turn {worst['turn']} of {len(rows)}")
    expect(page.locator("#compare .grade")).to_have_text("large")
    expect(page.locator("#compare")).to_contain_text(
        f"{100 * worst['win_before']:.1f}% with the best, {100 * worst['win_after']:.1f}% as played")
    expect(page.locator(f"#turns li[data-turn='{worst['turn']}'] .grade")).to_have_text("large")
    for index, player in enumerate(summary, 1):   # row 0 is the header
        line = page.locator("#summary tr").nth(index)
        expect(line).to_contain_text(f"{player['accuracy']:.1f}")
        expect(line).to_contain_text(f"{player['grades']['large']} large")
    endgame = next(row for row in rows if row.get("endgame"))
    page.click(f"#turns li[data-turn='{endgame['turn']}']")
    expect(page.locator("#compare")).to_contain_text(
        f"spread {endgame['spread_best']} with the best, {endgame['spread_played']} as played")


def test_a_finished_table_game_is_reviewed_from_its_link(page: Any, server: Server) -> None:
    made = server.create(["human", "greedy"], seed=5)
    game, token = made["id"], made["seats"][0]["token"]
    finished = served_game_to_end(server, game, token)
    page.goto(f"{server.url}review/{game}#seat=0&token={token}")
    page.wait_for_function("() => document.getElementById('where').textContent.startsWith('Turn 1 of')")
    assert where(page).startswith(f"Turn 1 of {finished['version']}")
    page.click("#next")
    page.click("#next")
    assert where(page).startswith(f"Turn 3 of {finished['version']}")
    rack = page.locator("#rack .tile").count()
    page.click("#analyse")
    page.wait_for_function("() => document.getElementById('status').textContent === 'The position from the review.'")
    assert page.locator("#rack .tile").count() == rack


@pytest.mark.parametrize(("language", "words"), [("en", "Bo resigned"), ("el", "ο/η Bo εγκατέλειψε")])
def test_the_end_says_who_resigned_by_name_in_the_readers_words(page: Any, server: Server, language: str,
                                                                words: str) -> None:
    made = server.create(["human", "human"], seed=5, names=["Ann", "Bo"])
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    seen = server.view(game, tokens[0])
    mover = seen["to_move"]
    seen = server.view(game, tokens[mover])
    server.call("POST", f"api/games/{game}/actions", {"action": best_action(seen), "version": seen["version"]},
                token=tokens[mover])
    server.call("POST", f"api/games/{game}/resign", {}, token=tokens[1])
    assert server.view(game, tokens[0])["result"]["reason"] == "player 1 resigned"
    from playwright.sync_api import expect
    page.goto(f"{server.url}review/{game}?lang={language}#seat=0&token={tokens[0]}")
    page.wait_for_selector("#where:not(:empty)")
    page.click("#last")
    expect(page.locator("#rack")).to_contain_text(words)
    expect(page.locator("#final")).to_contain_text(words)
    assert "player 1" not in (page.text_content("#final") or "")
