"""The web table in a real browser (Playwright driving Debian's chromium) against a real
``ginnyo serve``: a whole game, an illegal placement, a joker, a reload, two browsers that
never see each other's racks, and a server killed mid-game."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import (Server, best_choice, joker_choice, joker_seed, page_version,
                           place_tiles, play_turns, take_turn, wait_turn)
from ginnyo import IllegalMoveError, Position

FIRST_LOAD_LIMIT = 300 * 1024   # bytes: the bound on /play's first load (html + js + css)


def first_turn(server: Server, page: Any, seed: int) -> tuple[str, str, dict[str, Any]]:
    """A person (seat 0) against greedy dealt by ``seed``, the page at the person's first turn:
    the game's id, the seat's token and its view."""
    created = server.create(["human", "greedy"], seed=seed)
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(server.page_url(created))
    wait_turn(page)
    return game_id, token, server.view(game_id, token)


def third_turn(server: Server, page: Any, seed: int) -> tuple[str, str, dict[str, Any]]:
    """As :func:`first_turn`, with the person's first two turns played in the page."""
    created = server.create(["human", "greedy"], seed=seed)
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(server.page_url(created))
    assert play_turns(page, server, game_id, token, turns=2) == "mine"
    return game_id, token, server.view(game_id, token)


def test_first_load_of_the_table_is_under_300_kb(server: Server, page: Any) -> None:
    created = server.create(["human", "greedy"], seed=1)
    sizes: dict[str, int] = {}
    page.on("response", lambda response: sizes.__setitem__(response.url, len(response.body()))
            if "/api/" not in response.url else None)
    page.goto(server.page_url(created))
    wait_turn(page)
    assert any(url.endswith(".js") for url in sizes) and any(url.endswith(".css") for url in sizes)
    assert sum(sizes.values()) < FIRST_LOAD_LIMIT


def test_a_whole_game_against_greedy_is_played_to_its_end(server: Server, page: Any, tmp_path: Path) -> None:
    created = server.create(["human", "greedy"], seed=3, names=["Ann", "Greedy"])
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(server.page_url(created))
    assert play_turns(page, server, game_id, token) == "over"
    final = server.view(game_id, token)
    result = final["result"]
    assert final["finished"] and result is not None
    end = page.locator("#end")
    assert end.is_visible()
    for seat, name in enumerate(final["names"]):
        row = end.locator(f'#end-table tr[data-seat="{seat}"]')
        assert row.locator("td").nth(0).inner_text() == name
        assert row.locator("td").nth(3).inner_text() == str(result["final_scores"][seat])
        lost = result["penalties"][seat]
        assert row.locator("td").nth(2).inner_text() == (f"−{lost}" if lost else "0")
    winners = [final["names"][seat] for seat in result["winners"]]
    assert all(name in page.inner_text("#end-winners") for name in winners)
    assert page.locator("#rematch").is_visible()
    with page.expect_download() as download:
        page.click("#record")
    record = tmp_path / "game.jsonl"
    download.value.save_as(record)
    replayed = subprocess.run([sys.executable, "-m", "ginnyo", "replay", str(record)], capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/play/(?!" + re.escape(game_id) + r")[^#]+#seat=0&token="))
    assert wait_turn(page) == "mine"


def test_an_illegal_placement_shows_its_reason_in_words(server: Server, page: Any) -> None:
    game_id, token, view = first_turn(server, page, seed=5)
    tile = view["position"]["rack"].split()[0]
    if tile == "*":
        tile = view["position"]["rack"].split()[-1]
    position = Position.load(view["position"])
    with pytest.raises(IllegalMoveError) as rule:
        position.score(position.parse(f"8H {tile}"))
    page.locator(f'#rack .slot[data-code="{tile}"]').first.click()
    page.click('[data-square="H8"]')
    page.wait_for_selector("#preview.illegal")
    assert page.inner_text("#preview-text") == f"Not legal: {rule.value}"
    assert page.locator("#play").is_disabled()
    page.keyboard.press("Escape")
    assert page.locator("#board .sq.pending").count() == 0


def test_a_joker_is_placed_with_its_identity_chosen_from_the_offered_list(server: Server, page: Any) -> None:
    game_id, token, view = first_turn(server, page, seed=joker_seed())
    choice = joker_choice(view)
    assert choice is not None, "the seed's deal gives seat 0 a play with a joker"
    square, identity = next((square, code) for square, code in choice.placements.items() if code[-1].islower())
    others = {name: code for name, code in choice.placements.items() if name != square}
    place_tiles(page, others)
    page.locator('#rack .slot:not(.used)[data-code="*"]').first.click()
    page.click(f'[data-square="{square}"]')
    page.wait_for_selector("#joker-options [data-identity]")
    offered = page.eval_on_selector_all("#joker-options [data-identity]", "buttons => buttons.map(b => b.dataset.identity)")
    placements = {**others, square: "*"}
    preview = server.call("POST", f"api/games/{game_id}/preview", {"placements": placements}, token)
    assert offered == preview["joker_options"][square]
    assert identity in offered
    page.click(f'#joker-options [data-identity="{identity}"]')
    page.wait_for_selector("#play:enabled")
    page.keyboard.press("Enter")
    wait_turn(page, view["version"])
    assert server.view(game_id, token)["position"]["board"][square] == identity
    label = page.get_attribute(f'[data-square="{square}"]', "aria-label")
    assert label is not None and label.startswith(f"{square}, joker as ")


def test_a_reload_mid_game_resumes_the_seat(server: Server, page: Any) -> None:
    game_id, token, before = third_turn(server, page, seed=11)
    page.reload()
    wait_turn(page)
    assert page_version(page) == before["version"]
    shown = page.eval_on_selector_all("#rack .slot", "slots => slots.map(s => s.dataset.code)")
    assert shown == before["position"]["rack"].split()
    board = page.eval_on_selector_all("#board .sq .tile", "tiles => tiles.length")
    assert board == len(before["position"]["board"])
    _type_the_move(page, before)
    assert wait_turn(page, before["version"]) in ("mine", "over")
    assert server.view(game_id, token)["version"] > before["version"]


def _type_the_move(page: Any, view: dict[str, Any]) -> None:
    """Plays the view's best action by typing it in the notation box."""
    choice = best_choice(view)
    if choice.kind == "play":
        position = Position.load(view["position"])
        best = position.best_play()
        assert best is not None
        words = position.notation(best)
    else:
        words = "pass" if choice.kind == "pass" else "return " + " ".join(choice.tiles)
    page.fill("#notation-text", words)
    page.press("#notation-text", "Enter")


def test_a_move_typed_in_notation_that_breaks_a_rule_is_refused_in_words(server: Server, page: Any) -> None:
    game_id, token, view = first_turn(server, page, seed=5)
    tile = next(code for code in view["position"]["rack"].split() if code != "*")
    page.fill("#notation-text", f"8H {tile}")
    page.press("#notation-text", "Enter")
    page.wait_for_selector("#status.error")
    with pytest.raises(IllegalMoveError) as rule:
        Position.load(view["position"]).score(f"8H {tile}")
    assert page.inner_text("#status") == f"Not played: {rule.value}"
    assert server.view(game_id, token)["version"] == view["version"]


def test_a_tile_is_placed_from_the_keyboard_and_recalled_with_escape(server: Server, page: Any) -> None:
    first_turn(server, page, seed=5)
    first = page.locator("#rack .slot").first
    code = first.get_attribute("data-code")
    first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.square") == "H8"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.square") == "I9"
    page.keyboard.press("Enter")
    assert page.locator('[data-square="I9"].pending').count() == 1
    assert page.locator(f'#rack .slot.used[data-code="{code}"]').count() == 1
    page.keyboard.press("Escape")
    assert page.locator("#board .sq.pending").count() == 0
    assert page.locator("#rack .slot.used").count() == 0


def test_enter_plays_a_legal_placement_made_with_the_mouse(server: Server, page: Any) -> None:
    game_id, token, view = first_turn(server, page, seed=3)
    choice = best_choice(view)
    while choice.kind != "play":
        take_turn(page, choice)
        wait_turn(page, view["version"])
        view = server.view(game_id, token)
        choice = best_choice(view)
    place_tiles(page, choice.placements)
    page.wait_for_selector("#play:enabled")
    page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=view["version"])
    board = server.view(game_id, token)["position"]["board"]
    assert all(board[square] == code for square, code in choice.placements.items())


def test_a_tile_dragged_from_the_rack_lands_on_the_square(server: Server, page: Any) -> None:
    first_turn(server, page, seed=5)
    tile = page.locator("#rack .slot").nth(1)
    code = tile.get_attribute("data-code")
    start, target = tile.bounding_box(), page.locator('[data-square="G8"]').bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 5, target["y"] + 5, steps=8)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    page.mouse.up()
    placed = page.locator('[data-square="G8"].pending')
    assert placed.count() == 1
    assert placed.get_attribute("aria-label").startswith("G8, ")
    assert page.locator(f'#rack .slot.used[data-code="{code}"]').count() == 1
    page.wait_for_selector("#preview.illegal")
    page.click('[data-square="G8"]')
    assert page.locator("#board .sq.pending").count() == 0


def _without_unseen(value: Any) -> Any:
    """``value`` without the "unseen" fields (every tile this seat cannot see, the others' racks
    merged with the box, as one sorted list: public by the rules, checked separately)."""
    if isinstance(value, dict):
        return {key: _without_unseen(item) for key, item in value.items() if key != "unseen"}
    if isinstance(value, list):
        return [_without_unseen(item) for item in value]
    return value


def _racks_in(value: Any) -> list[Any]:
    """Every value kept under a "rack" or "racks" key anywhere in ``value``."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("rack", "racks"):
                found.append(item)
            found.extend(_racks_in(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_racks_in(item))
    return found


def test_a_second_browser_never_receives_the_first_seats_rack(server: Server, browser: Any) -> None:
    created = server.create(["human", "human"], seed=21, names=["Ann", "Bob"])
    game_id = created["id"]
    tokens = [created["seats"][seat]["token"] for seat in (0, 1)]
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in (0, 1)]
    pages = [context.new_page() for context in contexts]
    received: list[str] = []      # every websocket frame and HTTP body the second browser got
    pages[1].on("websocket", lambda socket: socket.on("framereceived", lambda frame: received.append(
        frame if isinstance(frame, str) else frame.decode())))
    pages[1].on("response", lambda response: received.append(response.body().decode("utf-8", "replace")))
    first_racks: set[str] = set()
    try:
        for seat in (0, 1):
            pages[seat].goto(server.page_url(created, seat))
        for _ in range(6):
            views = [server.view(game_id, token) for token in tokens]
            first_racks.add(views[0]["position"]["rack"])
            if views[0]["finished"]:
                break
            mover = views[0]["to_move"]
            wait_turn(pages[mover], views[mover]["version"] - 1)
            take_turn(pages[mover], best_choice(views[mover]))
            pages[1 - mover].wait_for_function("v => Number(document.body.dataset.version) > v",
                                               arg=views[mover]["version"])
        assert not server.view(game_id, tokens[0])["finished"], "the test looks at a game in progress"
        first_racks.add(server.view(game_id, tokens[0])["position"]["rack"])
    finally:
        for context in contexts:
            context.close()
    frames = [json.loads(text) for text in received if text.startswith("{")]
    assert any(frame.get("type") == "view" for frame in frames)
    for frame in frames:
        view = frame.get("view", frame)
        if "seat" in view:
            assert view["seat"] == 1 and view["result"] is None
        for rack in _racks_in(frame):
            assert rack not in first_racks
    public = [json.dumps(_without_unseen(frame)) for frame in frames] + [text for text in received
                                                                         if not text.startswith("{")]
    for rack in first_racks:
        assert not any(rack in text for text in public), f"the second browser received the first seat's rack {rack}"


def test_a_server_killed_mid_game_comes_back_and_the_page_resumes(browser: Any, tmp_path: Path) -> None:
    killed = Server(tmp_path / "data")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        game_id, token, before = third_turn(killed, page, seed=31)
        killed.kill()
        page.wait_for_selector('#conn[data-live="no"]')
        assert page.inner_text("#status") == "Lost the connection to the server: reconnecting…"
        killed.start()   # the same port and data directory
        page.wait_for_selector('#conn[data-live="yes"]')
        assert page.inner_text("#status") == "Connected to the server again."
        assert killed.view(game_id, token) == before
        assert page_version(page) == before["version"]
        take_turn(page, best_choice(before))
        assert wait_turn(page, before["version"]) in ("mine", "over")
        assert killed.view(game_id, token)["version"] > before["version"]
    finally:
        context.close()
        killed.stop()


def test_the_lobby_creates_a_game_and_goes_to_the_table(server: Server, page: Any) -> None:
    page.goto(server.url)
    page.select_option("#kind-1", "level1")
    page.fill("#name-0", "Ann")
    page.fill("#seed", "9")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[^#]+#seat=0&token="))
    wait_turn(page)
    assert "Ann — you" in page.inner_text("#players")
    assert page.locator("#rack .slot").count() in (7, 8)
    page.goto(server.url)
    assert page.locator("#games li a").count() >= 1


def test_the_lobby_gives_each_person_their_own_secret_link(server: Server, page: Any) -> None:
    page.goto(server.url)
    page.select_option("#players", "3")
    page.select_option("#kind-1", "human")
    page.select_option("#kind-2", "level4")
    page.fill("#name-0", "Ann")
    page.fill("#name-1", "Bob")
    page.click("#create-button")
    page.wait_for_selector("#created:not(.hidden)")
    own = server.url.rstrip("/") + (page.get_attribute("#own-link", "href") or "")
    links = [own, *page.eval_on_selector_all("#share-links input", "inputs => inputs.map(i => i.value)")]
    assert len(links) == 2
    assert all(re.fullmatch(re.escape(server.url) + r"play/[^#]+#seat=[01]&token=[A-Za-z0-9_-]{32,}", link)
               for link in links)
    assert links[0] != links[1]
    assert "#hotseat=0:" in (page.get_attribute("#hotseat-link", "href") or "")


def test_the_table_never_shows_the_token_in_its_text(server: Server, page: Any) -> None:
    created = server.create(["human", "greedy"], seed=5)
    token = created["seats"][0]["token"]
    page.goto(server.page_url(created))
    wait_turn(page)
    assert token not in page.evaluate("document.body.innerText")
    assert token not in page.title()


def test_two_people_on_one_screen_see_the_rack_only_after_passing_the_device(server: Server, page: Any) -> None:
    created = server.create(["human", "human"], seed=41, names=["Ann", "Bob"])
    game_id = created["id"]
    page.goto(server.url.rstrip("/") + created["hotseat_url"])
    page.wait_for_selector("#cover:not(.hidden)")
    view = server.view(game_id, created["seats"][0]["token"])
    mover = view["to_move"]
    assert page.inner_text("#cover-title") == f"Pass the device to {view['names'][mover]}"
    assert page.locator("#rack .slot").count() == 0
    page.click("#cover-show")
    wait_turn(page)
    mover_view = server.view(game_id, created["seats"][mover]["token"])
    shown = page.eval_on_selector_all("#rack .slot", "slots => slots.map(s => s.dataset.code)")
    assert shown == mover_view["position"]["rack"].split()
    take_turn(page, best_choice(mover_view))
    page.wait_for_selector("#cover:not(.hidden)")
    assert page.inner_text("#cover-title") == f"Pass the device to {view['names'][1 - mover]}"
    assert page.locator("#rack .slot").count() == 0
