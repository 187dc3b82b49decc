"""Fair play (issue 42 item 3) in a real browser against a real ``ginnyo serve``: while people play a
game, its table offers no engine analysis and the analysis board refuses the game; once it is over,
the table offers it again."""

from __future__ import annotations

from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server
from web_helpers import best_action


def finish(server: Server, game: str, tokens: list[str]) -> None:
    """Play the game's people greedily through the API until it is over."""
    while True:
        views = [server.view(game, token) for token in tokens]
        if views[0]["finished"]:
            return
        seat = next(seat for seat, seen in enumerate(views) if seen["your_turn"])
        server.call("POST", f"api/games/{game}/actions",
                    {"action": best_action(views[seat]), "version": views[seat]["version"]}, token=tokens[seat])


def test_a_game_people_play_offers_no_analysis_until_it_is_over(server: Server, page: Any) -> None:
    created = server.create(["human", "human"], seed=24, names=["Ann", "Bea"])
    game, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    page.goto(server.page_url(created))
    page.wait_for_selector("#tools:not(.hidden)", state="attached")   # the tools are served here ...
    assert page.locator("#analyse").is_hidden()       # ... but not the analysis of this game
    finish(server, game, tokens)
    page.wait_for_selector("#review:not(.hidden)")    # the end came through the socket
    assert page.locator("#analyse").is_visible()


def test_against_bots_the_table_offers_the_analysis(server: Server, page: Any) -> None:
    created = server.create(["human", "greedy"], seed=24)
    page.goto(server.page_url(created))
    page.wait_for_selector("#tools:not(.hidden)")
    assert page.locator("#analyse").is_visible()


def test_the_analysis_board_refuses_a_game_people_play(server: Server, page: Any) -> None:
    created = server.create(["human", "human"], seed=25)
    page.goto(f"{server.url}analysis#game={created['id']}&seat=0&token={created['seats'][0]['token']}")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('no engine analysis')")
    assert "error" in (page.locator("#status").get_attribute("class") or "").split()
    assert page.locator("#rack-text").input_value() == ""
