"""The web table's defects met by a tester (issue 42), each in a real browser against a real
``ginnyo serve``: a drag over a slow network, a joker put down first or fitting one card only,
a joker typed as ``*``, "Checking…", the focus after a play, a board that keeps its place, the
review's last step readable, the table on a phone and in dark mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from analysis_helpers import selfplay_record
from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import WAIT_MS, Server, best_choice, joker_choice, joker_seed, place_tiles, take_turn, wait_turn
from ginnyo import Position
from ginnyo.position.preview import preview
from held_answers import hold_answers, let_through, wait_held
from web_helpers import best_action

# the contrast ratio (WCAG) of an element's text against the first opaque background behind it
CONTRAST = """
element => {
  const rgb = (words) => (words.match(/[0-9.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map((c) => c / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  let behind = element;
  while (behind && (rgb(getComputedStyle(behind).backgroundColor)[3] === 0)) behind = behind.parentElement;
  const back = luminance(rgb(behind ? getComputedStyle(behind).backgroundColor : "rgb(255, 255, 255)"));
  const fore = luminance(rgb(getComputedStyle(element).color));
  return (Math.max(back, fore) + 0.05) / (Math.min(back, fore) + 0.05);
}
"""
READABLE = 4.5   # WCAG AA for text


def first_turn(server: Server, page: Any, seed: int) -> tuple[str, str, dict[str, Any]]:
    created = server.create(["human", "greedy"], seed=seed)
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(server.page_url(created))
    wait_turn(page)
    return game_id, token, server.view(game_id, token)


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def one_fitting_joker(start: int = 0) -> tuple[int, dict[str, str], str]:
    """A seed whose seat 0 moves first with a legal play placing one joker that fits one card only
    (the Python API's preview says so): the seed, the play's placements, the joker's square."""
    seed = start
    while True:
        seed = joker_seed(seed)
        position = Position.load(_first_view(seed))
        name = position.layout.square_name
        for scored in position.legal_plays:
            placements = {name(square): tile.code for square, tile in scored.play.placements}
            jokers = [square for square, code in placements.items() if code[-1].islower()]
            if len(jokers) == 1 and len(preview(position, {**placements, jokers[0]: "*"})["joker_options"][jokers[0]]) == 1:
                return seed, placements, jokers[0]
        seed += 1


def _first_view(seed: int) -> dict[str, Any]:
    from ginnyo.game import Game
    return Game.deal(2, seed).position(0).to_dict()


@pytest.fixture
def slow_page(page: Any) -> Iterator[Any]:
    hold_answers(page, "/preview")   # a friend's slow network, made exact
    yield page


def test_a_drag_started_while_a_preview_is_pending_lands_and_leaves_no_ghost(server: Server, slow_page: Any) -> None:
    page = slow_page
    first_turn(server, page, seed=5)
    page.locator("#rack .slot").nth(0).click()
    page.click('[data-square="H8"]')
    assert page.inner_text("#preview-text") == "Checking…"
    start, target = page.locator("#rack .slot").nth(1).bounding_box(), page.locator('[data-square="G8"]').bounding_box()
    page.mouse.move(*centre(start))
    page.mouse.down()
    page.mouse.move(target["x"] + 5, target["y"] + 5, steps=8)
    wait_held(page)
    let_through(page)
    page.wait_for_selector("#preview.illegal")     # the first tile's answer came in mid-drag
    page.mouse.move(*centre(target), steps=4)
    page.mouse.up()
    assert page.locator('[data-square="G8"].pending').count() == 1
    assert page.locator(".drag-ghost").count() == 0


def test_a_second_tile_shows_checking_and_never_the_first_tiles_verdict(server: Server, slow_page: Any) -> None:
    page = slow_page
    first_turn(server, page, seed=5)
    page.locator("#rack .slot").nth(0).click()
    page.click('[data-square="H8"]')
    wait_held(page)
    let_through(page)
    page.wait_for_selector("#preview.illegal")
    page.locator("#rack .slot:not(.used)").first.click()
    page.click('[data-square="I8"]')
    assert page.inner_text("#preview-text") == "Checking…"
    assert page.locator("#preview.illegal, #preview.legal").count() == 0


def test_a_joker_put_down_first_is_said_to_need_more_tiles(server: Server, page: Any) -> None:
    _, _, view = first_turn(server, page, seed=joker_seed())
    choice = joker_choice(view)
    assert choice is not None
    square = next(square for square, code in choice.placements.items() if code[-1].islower())
    page.locator('#rack .slot[data-code="*"]').first.click()
    page.click(f'[data-square="{square}"]')
    page.wait_for_selector(f'#joker-title:has-text("Joker on {square}: the play needs more tiles")')
    assert "Move it or take it back" not in page.inner_text("#joker-title")


def test_the_only_identity_that_fits_is_chosen_and_shown(server: Server, page: Any) -> None:
    seed, placements, square = one_fitting_joker()
    game_id, token, view = first_turn(server, page, seed=seed)
    others = {name: code for name, code in placements.items() if name != square}
    place_tiles(page, others)
    page.locator('#rack .slot:not(.used)[data-code="*"]').first.click()
    page.click(f'[data-square="{square}"]')
    page.wait_for_selector("#play:enabled")
    assert page.eval_on_selector_all("#joker-options [data-identity]", "b => b.map(x => x.dataset.identity)") \
        == [placements[square]]
    assert page.locator("#play").is_visible()
    box, height = page.locator("#play").bounding_box(), page.viewport_size["height"]
    assert box["y"] + box["height"] <= height, "Play stays on screen while the picker is open"
    page.click("#play")
    wait_turn(page, view["version"])
    assert server.view(game_id, token)["position"]["board"][square] == placements[square]


def test_a_joker_typed_as_a_star_is_put_down_and_its_card_chosen(server: Server, page: Any) -> None:
    game_id, token, view = first_turn(server, page, seed=joker_seed())
    assert "*" in (page.get_attribute("#notation-text", "placeholder") or "")
    choice = joker_choice(view)
    assert choice is not None
    position = Position.load(view["position"])
    square, identity = next((square, code) for square, code in choice.placements.items() if code[-1].islower())
    words = _notation(position, choice.placements)
    page.fill("#notation-text", words.replace(identity, "*"))
    page.press("#notation-text", "Enter")
    page.wait_for_selector(f'#joker-options [data-identity="{identity}"]')
    assert page.locator("#board .sq.pending").count() == len(choice.placements)
    page.click(f'#joker-options [data-identity="{identity}"]')
    page.wait_for_selector("#play:enabled")
    page.click("#play")
    wait_turn(page, view["version"])
    assert server.view(game_id, token)["position"]["board"][square] == identity


def _notation(position: Position, placements: dict[str, str]) -> str:
    for scored in position.legal_plays:
        name = position.layout.square_name
        if {name(square): tile.code for square, tile in scored.play.placements} == placements:
            return str(position.notation(scored))
    raise LookupError(placements)


def test_the_focus_stays_on_the_rack_or_board_after_a_play(server: Server, page: Any) -> None:
    game_id, token, view = first_turn(server, page, seed=3)
    choice = best_choice(view)
    while choice.kind != "play":
        take_turn(page, choice)
        wait_turn(page, view["version"])
        view = server.view(game_id, token)
        choice = best_choice(view)
    place_tiles(page, choice.placements)
    page.wait_for_selector("#play:enabled")
    page.click("#play")
    wait_turn(page, view["version"])
    page.wait_for_selector("#notation-send:enabled")   # the play's answer taken (the focus is kept then), not only
    assert page.evaluate("Boolean(document.activeElement.closest('#rack .slot, #board .sq'))")   # the socket's views


def test_a_move_typed_while_the_last_is_on_its_way_is_kept(server: Server, page: Any) -> None:
    hold_answers(page, "/actions")
    _, _, view = first_turn(server, page, seed=5)
    page.fill("#notation-text", best_action(view))
    page.press("#notation-text", "Enter")
    wait_turn(page, view["version"])      # the bot's answer came on the socket: the answer to the move still held
    wait_held(page)
    page.fill("#notation-text", "H8 typed ahead")
    let_through(page)
    page.wait_for_selector("#notation-send:enabled")   # the answer taken: no longer sending
    assert page.input_value("#notation-text") == "H8 typed ahead"


def test_the_board_keeps_its_place_from_one_state_to_the_next(server: Server, page: Any) -> None:
    seed, placements, square = one_fitting_joker()
    _, _, view = first_turn(server, page, seed=seed)

    def column_a() -> float:
        return float(page.locator('[data-square="A1"]').bounding_box()["x"])
    places = [column_a()]
    page.locator('#rack .slot[data-code="*"]').first.click()
    page.click(f'[data-square="{square}"]')
    page.wait_for_selector("#joker:not(.hidden)")
    places.append(column_a())
    place_tiles(page, {name: code for name, code in placements.items() if name != square})
    page.wait_for_selector("#play:enabled")
    places.append(column_a())
    page.click("#play")
    wait_turn(page, view["version"])
    places.append(column_a())
    assert len(set(places)) == 1, places


def test_the_tables_text_is_readable_in_dark_mode(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        first_turn(server, page, seed=5)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert sum(int(c) for c in background[background.index("(") + 1:-1].split(",")[:3]) < 3 * 60, background
        for selector in ("#preview-text", "#players td", "#turn", "#status", "#history-title", "#pass"):
            assert page.locator(selector).first.evaluate(CONTRAST) >= READABLE, selector
    finally:
        context.close()


def test_the_table_on_a_phone_zooms_hits_and_shows_the_verdict(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  device_scale_factor=3)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        first_turn(server, page, seed=5)
        board_width = page.locator("#board").bounding_box()["width"]
        assert board_width <= 390
        for slot in page.locator("#rack .slot").all():
            box = slot.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44
        page.tap("#zoom")
        assert page.locator('[data-square="H8"]').bounding_box()["width"] >= 36
        assert page.evaluate("(s => s.scrollWidth > s.clientWidth)(document.getElementById('board-scroll'))")
        page.locator("#rack .slot").nth(0).tap()
        page.locator('[data-square="H8"]').tap()
        page.wait_for_selector("#preview.illegal")
        verdict = page.locator("#preview-text").bounding_box()
        assert verdict["y"] >= 0 and verdict["y"] + verdict["height"] <= 844
    finally:
        context.close()


def test_the_reviews_last_step_is_readable_on_the_rack(server: Server, page: Any, tmp_path: Path) -> None:
    record = selfplay_record(tmp_path, seed=2)
    page.goto(server.url + "review")
    page.set_input_files("#file", str(record))
    page.wait_for_function("() => document.getElementById('where').textContent.startsWith('Turn 1 of')")
    page.keyboard.press("End")
    page.wait_for_function("() => document.getElementById('where').textContent.startsWith('End of the game')")
    words = page.locator("#rack .note")
    assert words.inner_text().strip()
    assert words.evaluate(CONTRAST) >= READABLE
