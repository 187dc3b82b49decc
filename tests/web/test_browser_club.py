"""The club's pages in a real browser (Playwright on Debian's chromium) against a real ``ginnyo serve``:
two people sign up, one asks for a rated game on a clock in the lobby's Club section, the other sees it
come live and joins, and each reaches the table at their own seat with their own rack; a bot played by
level; the player page's rating, history and chart, in English and Greek."""

from __future__ import annotations

import re
import time
from typing import Any, Callable, Iterator
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from browser_fixtures import browser, own_page, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import WAIT_MS, Choice, Server, page_version, take_turn, wait_turn
from ginnyo.vocab.rules import tile_to_return
from ginnyo.vocab.tiles import rack_code
from web_helpers import play_to_end, position_of

PASSWORD = "correct horse battery"


def sign_up(page: Any, server: Server, name: str) -> None:
    page.goto(server.url + "signup")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_url(server.url)
    page.locator("#seek-form").wait_for(state="visible")


def seat_of(page: Any) -> tuple[str, int, str]:
    """The game, seat and token of the table page's URL (its fragment)."""
    address = urlparse(page.url)
    fields = {key: values[0] for key, values in parse_qs(address.fragment).items()}
    return address.path.rsplit("/", 1)[1], int(fields["seat"]), fields["token"]


def rack_shown(page: Any) -> list[str]:
    page.locator("#rack .slot").first.wait_for()
    return [str(code) for code in page.eval_on_selector_all("#rack .slot", "slots => slots.map(s => s.dataset.code)")]


def rated(player_page: Callable[[], dict[str, Any]], name: str) -> dict[str, Any]:
    """The player's answer (``player_page()``) once a game is in its history: games are rated in a worker
    thread after their end, so asked again until one is, for as long as a page's wait (a guard)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not (player := player_page())["games"]:
        assert time.monotonic() < deadline, f"{name}'s game was not rated within {WAIT_MS / 1000} s"
        time.sleep(0.02)
    return player


@pytest.fixture
def second_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:  # noqa: F811 (the fixture)
    """Another person's page: a browser context of its own (its own cookies); it too fails on a script error."""
    yield from own_page(browser, viewport)


@pytest.fixture
def third_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:  # noqa: F811 (the fixture)
    """A third person's page (a watcher, signed in or not), in a context of its own."""
    yield from own_page(browser, viewport)


def test_a_seek_made_in_the_lobby_is_seen_live_joined_and_both_sit_at_their_seats(
        page: Any, second_page: Any, third_page: Any, server: Server) -> None:
    sign_up(page, server, "Ann")
    sign_up(second_page, server, "Bob")
    page.fill("#seek-players", "2")
    page.fill("#seek-minutes", "5")
    page.fill("#seek-increment", "2")
    page.check("#seek-rated")
    page.click("#seek-make")
    join = second_page.locator("#seeks li", has_text="Ann").locator("button.join")
    join.wait_for()   # pushed through the lobby socket: Bob's page is not reloaded
    join.click()
    second_page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_url(re.compile(r"/play/"))
    ann_game, ann_seat, ann_token = seat_of(page)
    bob_game, bob_seat, bob_token = seat_of(second_page)
    assert ann_game == bob_game and (ann_seat, bob_seat) == (0, 1)
    ann_rack, bob_rack = rack_shown(page), rack_shown(second_page)
    ann_view, bob_view = server.view(ann_game, ann_token), server.view(bob_game, bob_token)
    assert ann_view["seat"] == 0 and bob_view["seat"] == 1
    ann_tiles, bob_tiles = sorted(ann_view["position"]["rack"].split()), sorted(bob_view["position"]["rack"].split())
    assert sorted(ann_rack) == ann_tiles and sorted(bob_rack) == bob_tiles   # the page may order a rack its own way
    assert ann_tiles != bob_tiles
    assert ann_view["clocks"] is not None   # the seek's clock went to its game
    third_page.goto(server.url)   # someone not signed in: the lobby lists the game, open to watch
    third_page.locator("#playing li", has_text="Ann").locator("a").click()
    third_page.wait_for_url(re.compile(rf"/play/{ann_game}$"))
    third_page.wait_for_selector("#watching:not(.hidden)")
    assert third_page.locator("#rack .slot").count() == 0 and not third_page.locator("#controls").is_visible()
    shown = third_page.content()
    assert " ".join(ann_tiles) not in shown and " ".join(bob_tiles) not in shown


def quiet_choice(seen: dict[str, Any]) -> Choice:
    """A turn without a play, as the seat's view (from the API) allows it: a pass, else the return of the
    tile that costs most.  Played by both seats, the game ends after the rules' opening guard (nobody
    opened in 20 full rounds: 40 turns of two players), whatever the deal."""
    if seen["can_pass"]:
        return Choice("pass", {}, [])
    tile = tile_to_return(position_of(seen).rack)
    assert tile is not None and seen["can_return"]
    return Choice("return", {}, [rack_code(tile)])


def test_a_rated_seek_made_and_joined_in_the_lobby_is_played_to_its_end_through_the_pages(
        page: Any, second_page: Any, server: Server) -> None:
    sign_up(page, server, "Eve")
    sign_up(second_page, server, "Fay")
    for name in ("Eve", "Fay"):
        assert server.call("GET", f"api/players/{name}")["games"] == []
    page.select_option("#seek-game", "ginnyo")
    page.fill("#seek-players", "2")
    page.fill("#seek-minutes", "10")
    page.fill("#seek-increment", "5")
    page.check("#seek-rated")
    page.click("#seek-make")
    join = second_page.locator("#seeks li", has_text="Eve").locator("button.join")
    join.click()
    second_page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_url(re.compile(r"/play/"))
    seats = {seat: (opened, token) for opened in (page, second_page) for _, seat, token in [seat_of(opened)]}
    game = seat_of(page)[0]
    assert sorted(seats) == [0, 1] and server.view(game, seats[0][1])["clocks"] is not None
    turns = 0
    while True:   # every move entered in the page of the seat to move, chosen from that seat's view
        seen = server.view(game, seats[0][1])
        if seen["finished"]:
            break
        opened, token = seats[seen["to_move"]]
        assert wait_turn(opened, seen["version"] - 1) == "mine"
        version = page_version(opened)
        take_turn(opened, quiet_choice(server.view(game, token)))
        opened.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version, timeout=WAIT_MS)
        turns += 1
        assert turns <= 60, "the game did not end by the opening guard"
    for opened, token in seats.values():   # both see the result on their table page
        opened.wait_for_function("document.body.dataset.turn === 'over'", timeout=WAIT_MS)
        opened.locator("#end:not(.hidden) #end-table tr[data-seat]").first.wait_for()
        assert opened.locator("#end-table tr[data-seat]").count() == 2
        result = server.view(game, token)["result"]
        assert result["reason"] and (opened.inner_text("#end-reason") or "").strip()
        assert result["winners"] and (opened.inner_text("#end-winners") or "").strip()
    for opened, name in ((page, "Eve"), (second_page, "Fay")):   # rated, in each one's history
        player = rated(lambda: server.call("GET", f"api/players/{name}"), name)
        assert [entry["id"] for entry in player["games"]] == [game]
        assert player["ratings"]["ginnyo"]["games"] == 1 and player["games"][0]["rating_change"] != 0
        opened.goto(server.url + f"players/{name}")
        opened.locator("#player-games li").first.wait_for()
        assert str(player["ratings"]["ginnyo"]["rating"]) in opened.inner_text("#player-ratings")
        assert opened.locator("#player-games li").count() == 1


def test_play_a_bot_by_level_from_the_club(page: Any, server: Server) -> None:
    sign_up(page, server, "Cid")
    page.select_option("#bot-level", "level2")
    page.click("#bot-play")
    page.wait_for_url(re.compile(r"/play/"))
    game, seat, token = seat_of(page)
    assert seat == 0 and rack_shown(page)
    seen = server.view(game, token)
    assert seen["kinds"] == ["human", "level2"]


def test_the_player_page_shows_the_rating_the_game_and_a_chart_in_english_and_greek(
        page: Any, server: Server) -> None:
    origin = server.url.rstrip("/")
    with httpx.Client(base_url=origin, headers={"Origin": origin}, timeout=30) as client:
        made = client.post("/api/accounts", json={"name": "Dee", "password": PASSWORD})
        assert made.status_code == 201, made.text
        seek = client.post("/api/seeks", json={"game": "ginnyo", "players": 2, "rated": True, "bots": ["level1"],
                                               "clock": {"initial": 600, "increment": 5}})
        assert seek.status_code == 201, seek.text
        play_to_end(client, seek.json()["game_id"], [seek.json()["seat"]["token"]])
        player = rated(lambda: client.get("/api/players/Dee").json(), "Dee")
    page.goto(server.url + "players/Dee")
    page.locator("#player-games li").first.wait_for()
    rating = player["ratings"]["ginnyo"]["rating"]
    assert str(rating) in page.inner_text("#player-ratings")
    assert page.locator("#player-games li").count() == 1
    assert page.inner_text("#player-games li").startswith("Ginny-O · ")   # the game's name, not its key
    assert page.locator("#rating-chart circle").count() == len(player["games"]) == 1
    english = page.inner_text("main")

    page.goto(server.url + "players/Dee?lang=el")
    page.locator("#player-games li").first.wait_for()
    assert page.get_attribute("html", "lang") == "el"
    greek = page.inner_text("main")
    assert greek != english
    words = re.findall(r"[A-Za-z]{3,}", greek.replace("Dee", "").replace("Ginny-O", ""))
    assert not words, f"English left on the Greek player page: {words}"
