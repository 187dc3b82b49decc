"""The puzzle page in a browser: a puzzle solved by placing its solution's tiles from the rack,
another failed with a legal play that is not the solution (the solution then shown on the board),
and the page on a phone without sideways scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from browser_fixtures import browser, page, server, viewport   # noqa: F401 (fixtures)
from browser_table import Server
from ginnyo.game.actions import Place, parse_action
from ginnyo.puzzles.solving import ShippedPuzzle, shipped_puzzles
from held_answers import hold_answers, let_through, wait_held


def shown_puzzle(page: Any) -> ShippedPuzzle:
    """The puzzle the page shows (its id opens the facts line)."""
    page.wait_for_function("document.getElementById('facts').textContent.includes('·')")
    return shipped_puzzles()[page.locator("#facts").text_content().split(" · ")[0]]


def plain_placements(puzzle: ShippedPuzzle, notation: str) -> dict[str, str] | None:
    """The tiles a play places, square name -> code; None for a return or a play with a joker."""
    action = parse_action(puzzle.position, notation)
    if not isinstance(action, Place) or any(tile.joker for _, tile in action.play.placements):
        return None
    name = puzzle.position.layout.square_name
    return {name(square): tile.code for square, tile in action.play.placements}


def puzzle_to_place(page: Any, notation_of: Any) -> tuple[ShippedPuzzle, dict[str, str]]:
    """The next puzzle whose chosen play is placed without a joker (Next until one is)."""
    for _ in range(30):
        puzzle = shown_puzzle(page)
        placements = plain_placements(puzzle, notation_of(puzzle))
        if placements:
            return puzzle, placements
        # Next may draw the same puzzle again (only attempts are left out): wait for its answer to be
        # shown, not for another id
        page.evaluate("document.getElementById('facts').textContent = ''")
        page.click("#next")
    raise AssertionError("no puzzle to place without a joker")


def place(page: Any, placements: dict[str, str]) -> None:
    for square, code in placements.items():
        page.locator(f"#rack .slot[data-code='{code}']:not(:disabled)").first.click()
        page.locator(f"#board [data-square='{square}']").click()
    page.wait_for_function("!document.getElementById('submit').disabled")
    page.click("#submit")


def test_a_puzzle_solved_on_the_page_is_correct(page: Any, server: Server) -> None:
    page.goto(f"{server.url}puzzles")
    puzzle, placements = puzzle_to_place(page, lambda puzzle: puzzle.line["solution"][0])
    place(page, placements)
    page.wait_for_selector("#verdict.correct")
    assert int(page.locator("#player-rating").text_content()) > 1500


def test_a_legal_play_not_the_solution_is_wrong_and_the_solution_shown(page: Any, server: Server) -> None:
    page.goto(f"{server.url}puzzles")
    puzzle, placements = puzzle_to_place(page, lambda puzzle: puzzle.line["second"]["notation"])
    place(page, placements)
    page.wait_for_selector("#verdict.wrong")
    assert puzzle.line["solution"][0] in page.locator("#why").text_content()
    shown = plain_placements(puzzle, puzzle.line["solution"][0]) or {}
    for square in shown:
        assert "last" in (page.locator(f"#board [data-square='{square}']").get_attribute("class") or "")


def submit_typed(page: Any, notation: str) -> None:
    page.fill("#notation-text", notation)
    page.press("#notation-text", "Enter")


def test_an_answer_that_comes_after_next_is_not_taken_for_the_next_puzzles(page: Any, server: Server) -> None:
    from playwright.sync_api import expect
    hold_answers(page, "/attempt")
    page.goto(f"{server.url}puzzles")
    first = shown_puzzle(page)
    submit_typed(page, first.line["solution"][0])
    wait_held(page)
    page.evaluate("document.getElementById('facts').textContent = ''")
    page.click("#next")      # an attempted puzzle is not drawn again
    second = shown_puzzle(page)
    assert second.id != first.id
    let_through(page, stop=True)
    submit_typed(page, second.line["solution"][0])
    expect(page.locator("#why")).to_contain_text(second.line["solution"][0])
    assert page.locator("#verdict").get_attribute("class") == "note correct"
    assert (page.locator("#facts").text_content() or "").startswith(f"{second.id} · ")


def test_a_preview_that_comes_after_next_is_not_taken_for_the_next_puzzles(page: Any, server: Server) -> None:
    hold_answers(page, "/preview")
    page.goto(f"{server.url}puzzles")
    puzzle, placements = puzzle_to_place(page, lambda puzzle: puzzle.line["solution"][0])
    for square, code in placements.items():        # the solution placed, its previews' answers held
        page.locator(f"#rack .slot[data-code='{code}']:not(:disabled)").first.click()
        page.locator(f"#board [data-square='{square}']").click()
    wait_held(page, len(placements))
    page.evaluate("document.getElementById('facts').textContent = ''")
    page.click("#next")                            # the same puzzle may come again: nothing placed on it yet
    shown_puzzle(page)
    let_through(page)
    page.evaluate("() => new Promise((resolve) => setTimeout(resolve, 0))")   # the answers handled
    assert page.locator("#submit").is_disabled()
    assert page.locator("#board .pending").count() == 0 and page.inner_text("#verdict") == ""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}])
def test_the_page_fits_a_phone(page: Any, server: Server) -> None:
    page.goto(f"{server.url}puzzles?lang=el")
    shown_puzzle(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.locator("#submit").text_content() == "Υποβολή"
