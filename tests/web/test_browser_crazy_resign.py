"""The Crazy Rummy table's Resign and Abort buttons in a real browser (Playwright driving Debian's chromium)
against a real ``ginnyo serve`` (docs/RULES.md "Resignation and abort", its Crazy Rummy part): each asks
first in a dialog, Cancel changes nothing, and confirmed it ends the game for the seat."""

from __future__ import annotations

from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server

SEATS = ["human", "human", "human"]
NAMES = ["Ann", "Bob", "Cid"]


def create_crazy(server: Server) -> dict[str, Any]:
    created: dict[str, Any] = server.call("POST", "api/games", {"game": "crazy", "seats": SEATS, "seed": 5,
                                                                "names": NAMES})
    return created


def confirm(page: Any, opener: str) -> None:
    """Opens the ending's dialog with ``opener`` and checks the focus went into it."""
    page.click(opener)
    page.wait_for_selector("#end-confirm[open]")
    assert page.evaluate("document.getElementById('end-confirm').contains(document.activeElement)")


def test_resign_asks_first_and_then_ends_the_game_for_the_seat(page: Any, server: Server) -> None:
    created = create_crazy(server)
    game, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    server.call("POST", f"api/games/{game}/resign", {}, token=tokens[2])   # Cid out: two seats left
    page.goto(server.page_url(created, 0))
    page.wait_for_selector("#resign:not(.hidden)")
    page.wait_for_selector("#players tr[data-seat='2'] .resigned")
    confirm(page, "#resign")
    assert "Ann" in page.inner_text("#end-confirm-text")
    page.click("#end-confirm-no")   # Cancel: nothing happens
    assert not server.call("GET", f"api/games/{game}", token=tokens[0])["finished"]
    confirm(page, "#resign")
    page.click("#end-confirm-yes")
    page.wait_for_selector("#end:not(.hidden)")
    seen = server.call("GET", f"api/games/{game}", token=tokens[0])
    result = seen["result"]
    assert seen["finished"] and result["winners"] == [1] and result["ranking"] == [1, 0, 2]
    assert result["reason"] == "player 0 resigned" and page.inner_text("#end-reason") == "Ann resigned"   # by name
    assert "Ann, Cid" in page.inner_text("#end-winners") or "Cid, Ann" in page.inner_text("#end-winners")
    assert page.locator("#resign").is_hidden() and page.locator("#abort").is_hidden()


def test_abort_is_offered_before_the_seats_first_step_and_ends_the_game_with_no_result(
        page: Any, server: Server) -> None:
    created = create_crazy(server)
    game, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    opener = server.call("GET", f"api/games/{game}", token=tokens[0])["to_move"]
    waiting = (opener + 2) % 3   # the last to play in the round: no step yet
    page.goto(server.page_url(created, waiting))
    page.wait_for_selector("#abort:not(.hidden)")
    confirm(page, "#abort")
    page.click("#end-confirm-yes")
    page.wait_for_selector("#end:not(.hidden)")
    result = server.call("GET", f"api/games/{game}", token=tokens[0])["result"]
    assert result["aborted"] and result["winners"] == []
    assert page.inner_text("#end-reason") == result["reason"]
