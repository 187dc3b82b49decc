"""The Crazy Rummy table in a real browser (Playwright driving Debian's chromium) against a real
``ginnyo serve``: a whole game of a person against two advisor bots, every step of the person's
turns clicked in the page (a swap of a wild among them), the record downloaded and replayed."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from browser_fixtures import browser, page, server  # noqa: F401 (the fixtures)
from browser_table import WAIT_MS, Server, chromium
from crazy_helpers import advisor_steps, swap_seed
from ginnyo.crazy.cards import parse_one, rank_of, wild_rank
from ginnyo.crazy.match import normal_step
from held_answers import hold_answers, let_through, wait_held

SEATS = ["human", "advisor", "advisor"]


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 900}


def create_crazy(server: Server, seed: int) -> dict[str, Any]:
    created: dict[str, Any] = server.call("POST", "api/games", {"game": "crazy", "seats": SEATS, "seed": seed,
                                                                "names": ["Ann", "advisor 2", "advisor 3"]})
    return created


def wait_version_after(page: Any, version: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")


def wait_my_turn(page: Any, server: Server, game: str, token: str) -> dict[str, Any]:
    """The person's view once it is their turn (or the game is over), shown in the page too."""
    page.wait_for_function("document.getElementById('turn').textContent.startsWith('your turn')"
                           " || document.getElementById('turn').textContent === 'game over'")
    view: dict[str, Any] = server.call("GET", f"api/games/{game}", token=token)
    page.wait_for_function(f"Number(document.body.dataset.version) === {view['version']}")
    if page.is_visible("#round-end"):   # a round has just ended: its panel first
        page.click("#round-end-next")
    return view


def choose_cards(page: Any, codes: list[str]) -> None:
    for code in codes:
        page.click(f"#hand .tile[data-code='{code}']")


def same_step(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two steps alike, a meld's codes in any order."""
    def key(step: dict[str, Any]) -> str:
        step = dict(step)
        if "meld" in step:
            step["meld"] = sorted(step["meld"].split())
        return json.dumps(step, sort_keys=True)
    return key(a) == key(b)


def click_step(page: Any, step: dict[str, Any], hand: list[str]) -> None:
    """Take one step of the turn by clicking: choose the cards, then the button or the meld;
    where the server offers several readings of a wild, the one the step names."""
    version = int(page.evaluate("document.body.dataset.version"))
    if "discard" in step:
        choose_cards(page, [step["discard"]])
        page.click("#discard")
        wait_version_after(page, version)
        return
    if "swap" in step:
        choose_cards(page, [step["card"]])
        target: str | None = f".meld[data-seat='{step['swap'][0]}'][data-number='{step['swap'][1]}']"
    else:
        physical = [code.split("=")[0] for code in step["meld"].split()]
        choose_cards(page, [code for code in physical if code in hand])
        target = None if "lay_off" not in step else \
            f".meld[data-seat='{step['lay_off'][0]}'][data-number='{step['lay_off'][1]}']"
    page.click(target or "#meld")
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}"
                           " || !document.getElementById('options').classList.contains('hidden')")
    if int(page.evaluate("document.body.dataset.version")) > version:
        return
    offered = page.eval_on_selector_all("#options-list button", "buttons => buttons.map(b => b.dataset.step)")
    index = next((i for i, text in enumerate(offered) if same_step(json.loads(text), step)), None)
    assert index is not None, f"the page does not offer {step}: {offered}"
    page.locator("#options-list button").nth(index).click()
    wait_version_after(page, version)


def play_person_turn(page: Any, server: Server, game: str, token: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The person's turn, as the advisor would play it, clicked step by step; its steps."""
    def draw_card(source: str) -> dict[str, Any]:
        page.click("#stock" if source == "stock" else "#discard-pile")
        wait_version_after(page, view["version"])
        after: dict[str, Any] = server.call("GET", f"api/games/{game}", token=token)
        return after

    steps = [normal_step(step, wild_rank(view["round"])) for step in advisor_steps(view, draw_card)]
    for step in steps:
        hand = page.eval_on_selector_all("#hand .tile", "tiles => tiles.map(t => t.dataset.code)")
        click_step(page, step, hand)
    return steps


def test_a_person_plays_a_whole_crazy_rummy_game_against_bots_with_a_swap_of_a_wild(
        page: Any, server: Server, tmp_path: Path) -> None:
    seed = swap_seed(len(SEATS))
    created = create_crazy(server, seed)
    game, token = created["id"], created["seats"][0]["token"]
    page.goto(server.url + created["seats"][0]["url"].lstrip("/"))
    taken: list[dict[str, Any]] = []
    while True:
        view = wait_my_turn(page, server, game, token)
        if view["finished"]:
            break
        assert page.text_content("#round").startswith(f"Round {view['round']} of 13")
        taken += play_person_turn(page, server, game, token, view)
    assert any("swap" in step for step in taken), "the person swapped no wild"
    assert page.is_visible("#end")
    assert "won by" in page.text_content("#end-winners")
    assert page.is_visible("#rematch")
    with page.expect_download() as download:
        page.click("#record")
    record = tmp_path / "crazy.jsonl"
    download.value.save_as(record)
    replay = subprocess.run([sys.executable, "-m", "ginnyo", "crazy", "replay", str(record)],
                            capture_output=True, text=True)
    assert replay.returncode == 0, replay.stderr
    assert "13 rounds legal" in replay.stdout


def test_a_refused_meld_is_said_in_words(page: Any, server: Server) -> None:
    created = create_crazy(server, 3)
    page.goto(server.url + created["seats"][0]["url"].lstrip("/"))
    view = wait_my_turn(page, server, created["id"], created["seats"][0]["token"])
    if not view["turn"]["drawn"]:
        page.click("#stock")
        wait_version_after(page, view["version"])
    hand = page.eval_on_selector_all("#hand .tile", "tiles => tiles.map(t => t.dataset.code)")
    wild = wild_rank(view["round"])
    plain = [code for code in hand if rank_of(parse_one(code, "card")) != wild]
    ranks = {rank_of(parse_one(code, "card")) for code in plain[:3]}
    if len(ranks) == 1:   # three of a rank would meld: take a card of another rank
        plain = plain[:2] + [code for code in plain if rank_of(parse_one(code, "card")) not in ranks][:1]
    choose_cards(page, plain[:3])
    page.click("#meld")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Refused: ')")
    assert "meld" in page.text_content("#status")


def test_cards_chosen_while_the_draw_is_on_its_way_stay_chosen(page: Any, server: Server) -> None:
    hold_answers(page, "/actions")
    created = create_crazy(server, 3)
    page.goto(server.url + created["seats"][0]["url"].lstrip("/"))
    view = wait_my_turn(page, server, created["id"], created["seats"][0]["token"])
    assert not view["turn"]["drawn"]
    page.click("#stock")
    wait_version_after(page, view["version"])       # the socket's view of the draw, its answer still held
    wait_held(page)
    hand = page.eval_on_selector_all("#hand .tile", "tiles => tiles.map(t => t.dataset.code)")
    chosen = list(dict.fromkeys(hand))[:2]          # two cards of different codes (a hand may hold twins)
    choose_cards(page, chosen)
    let_through(page)
    page.wait_for_function("!document.getElementById('hint').disabled")   # the answer taken: no longer busy
    assert sorted(page.eval_on_selector_all("#hand .tile.chosen", "tiles => tiles.map(t => t.dataset.code)")) == \
        sorted(chosen)


def test_the_hint_shows_the_advisors_turn_to_the_asking_seat(page: Any, server: Server) -> None:
    created = create_crazy(server, 4)
    page.goto(server.url + created["seats"][0]["url"].lstrip("/"))
    wait_my_turn(page, server, created["id"], created["seats"][0]["token"])
    page.click("#hint")
    page.wait_for_selector("#hint-text:not(.hidden)")
    assert page.text_content("#hint-text").startswith("round ")


def test_on_one_screen_the_next_persons_hand_is_covered_until_they_are_there(page: Any, server: Server) -> None:
    from playwright.sync_api import expect
    created: dict[str, Any] = server.call("POST", "api/games", {"game": "crazy", "seats": ["human", "human", "advisor"],
                                                                "seed": 5})
    first, second = (seat["token"] for seat in created["seats"][:2])
    page.goto(server.url + created["hotseat_url"].lstrip("/"))
    view = wait_my_turn(page, server, created["id"], first)
    choose_cards(page, [view["hand"].split()[0]])
    page.click("#discard")
    expect(page.locator("#cover")).to_be_visible()
    expect(page.locator("#cover-title")).to_have_text("Pass the screen to Player 2")
    expect(page.locator("#hand .tile")).to_have_count(0)
    page.click("#cover-show")    # waits until the button is enabled: the second seat's view has come
    expect(page.locator("#cover")).to_be_hidden()
    hand = server.call("GET", f"api/games/{created['id']}", token=second)["hand"].split()
    expect(page.locator("#hand .tile")).to_have_count(len(hand))
    assert page.eval_on_selector_all("#hand .tile", "tiles => tiles.map(t => t.dataset.code)") == hand


def play_turn_through_the_api(server: Server, game: str, token: str, view: dict[str, Any]) -> int:
    """The seat's turn as the advisor plays it, posted step by step; the version after its last step."""
    def post(action: dict[str, Any]) -> dict[str, Any]:
        nonlocal view
        view = server.call("POST", f"api/games/{game}/actions", {"action": action, "version": view["version"]},
                           token=token)
        return view

    for step in advisor_steps(view, lambda source: post({"draw": source})):
        post(step)
    return int(view["version"])


def test_the_end_of_a_round_is_shown_before_the_next_deal(page: Any, server: Server) -> None:
    from playwright.sync_api import expect
    created = create_crazy(server, 2)
    game, token = created["id"], created["seats"][0]["token"]
    page.goto(server.url + created["seats"][0]["url"].lstrip("/"))
    while True:   # the person's seat played through the API until the first round ends
        page.wait_for_function("document.getElementById('turn').textContent.startsWith('your turn')"
                               " || !document.getElementById('round-end').classList.contains('hidden')")
        if page.is_visible("#round-end"):
            break
        played = play_turn_through_the_api(server, game, token, server.call("GET", f"api/games/{game}", token=token))
        # the page still says "your turn" until the discard reaches it: wait for that, not for a stale line
        page.wait_for_function(f"Number(document.body.dataset.version) >= {played}")
    view = server.call("GET", f"api/games/{game}", token=token)
    last = view["last_round"]
    assert last["round"] == 1 and view["round"] == 2
    title = "Round 1 is over — " + (f"{view['names'][last['out']]} went out" if last["out"] is not None
                                    else "the stock ran out" if last["end"] == "stock empty"
                                    else "the turn limit was reached")
    expect(page.locator("#round-end-title")).to_have_text(title)
    rows = page.locator("#round-end-hands tr[data-seat]")
    expect(rows).to_have_count(3)
    for seat in range(3):
        row = rows.nth(seat)
        assert row.locator("td.points").text_content() == str(last["points"][seat])
        assert row.locator("td.total").text_content() == str(view["scores"][seat])
        shown = row.locator(".tile").evaluate_all("tiles => tiles.map(t => t.dataset.code)")
        assert shown == [code.split("=")[0] for code in last["hands"][seat].split()]
    assert sum(last["points"]) > 0
    assert page.evaluate("document.activeElement.id") == "round-end-next"
    expect(page.locator("#hand .tile")).to_have_count(0)   # the new deal waits behind the panel
    page.keyboard.press("Escape")
    expect(page.locator("#round-end")).to_be_hidden()
    hand = server.call("GET", f"api/games/{game}", token=token)["hand"].split()
    expect(page.locator("#hand .tile")).to_have_count(len(hand))
    page.reload()   # shown once: a reload does not show it again
    page.wait_for_function("Number(document.body.dataset.version) > 0")
    assert not page.is_visible("#round-end")


def main(out: Path) -> None:
    """docs/web-crazy.png: the table a few turns into a game (python tests/web/test_browser_crazy.py docs/)."""
    running = Server(Path(tempfile.mkdtemp()))
    try:
        with chromium() as browser:
            opened = browser.new_page(viewport={"width": 1280, "height": 860})
            opened.set_default_timeout(WAIT_MS)
            created = create_crazy(running, swap_seed(len(SEATS)))
            game, token = created["id"], created["seats"][0]["token"]
            opened.goto(running.url + created["seats"][0]["url"].lstrip("/"))
            for _ in range(3):
                view = wait_my_turn(opened, running, game, token)
                play_person_turn(opened, running, game, token, view)
            view = wait_my_turn(opened, running, game, token)
            opened.click("#hint")
            opened.wait_for_selector("#hint-text:not(.hidden)")
            opened.screenshot(path=str(out / "web-crazy.png"), full_page=True)
    finally:
        running.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
