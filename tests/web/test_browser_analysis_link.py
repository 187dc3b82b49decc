"""The table's "analyse this position" link against a bot (issue 42, fair play) in a real browser against a real
``ginnyo serve``: a rated game against a bot, made from the club, shows no link while it is in play (the analysis
board refuses the game too) and shows it once the person has resigned through the page, and it opens the board;
an unrated game against a bot shows it while in play."""

from __future__ import annotations

import re
import urllib.error
from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server
from test_browser_club import seat_of, sign_up


def analysis_status(server: Server, game: str, token: str) -> int:
    """The status of the analysis board's request for the seat's position of ``game``."""
    try:
        server.call("GET", f"api/games/{game}/analysis", token=token)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


def wait_drawn(page: Any) -> None:
    """Until the table page has drawn a view of the game (its tools among it)."""
    page.wait_for_function("Number(document.body.dataset.version) >= 0")
    page.wait_for_selector("#tools:not(.hidden)", state="attached")


def test_a_rated_game_against_a_bot_offers_the_analysis_once_it_is_over(page: Any, server: Server) -> None:
    sign_up(page, server, "Ida")
    page.select_option("#bot-level", "level1")
    page.click("#bot-play")   # the club's game against a bot is rated
    page.wait_for_url(re.compile(r"/play/"))
    game, seat, token = seat_of(page)
    wait_drawn(page)
    assert not server.view(game, token)["finished"]
    assert page.locator("#analyse").is_hidden()
    assert analysis_status(server, game, token) == 403
    page.click("#resign")
    page.click("#end-confirm-yes")
    page.wait_for_selector("#review:not(.hidden)")   # over: the review and the analysis are offered
    assert server.view(game, token)["finished"]
    link = page.locator("#analyse")
    assert link.is_visible()
    handed = server.call("GET", f"api/games/{game}/analysis", token=token)
    with page.context.expect_page() as opened:
        link.click()
    board = opened.value
    board.wait_for_load_state()
    assert board.url.startswith(f"{server.url}analysis#game={game}")
    board.wait_for_function("() => document.getElementById('rack-text').value !== ''")
    assert board.locator("#rack-text").input_value() == handed["position"]["rack"]
    assert "error" not in (board.locator("#status").get_attribute("class") or "").split()


def test_an_unrated_game_against_a_bot_offers_the_analysis_while_it_is_played(page: Any, server: Server) -> None:
    sign_up(page, server, "Kim")
    origin = server.url.rstrip("/")
    made = page.request.post(f"{origin}/api/seeks", headers={"Origin": origin},
                             data={"game": "ginnyo", "players": 2, "rated": False, "bots": ["level1"]})
    assert made.status == 201, made.text()
    seat = made.json()["seat"]
    page.goto(origin + seat["url"])
    wait_drawn(page)
    assert not server.view(seat["id"], seat["token"])["finished"]
    assert page.locator("#analyse").is_visible()
    assert analysis_status(server, seat["id"], seat["token"]) == 200
