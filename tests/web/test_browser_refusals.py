"""Refusals in the player's words (issue 42 item 1) in a real browser against a real ``ginnyo serve``:
on a Greek table the preview's reason is said in Greek, by its code; an English page shows the server's line."""

from __future__ import annotations

from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server, wait_turn


def _mover(server: Server) -> tuple[dict[str, Any], int, str]:
    """A game of two people, the seat to move and a real tile of its rack."""
    created = server.create(["human", "human"], seed=41)
    for seat in (0, 1):
        seen = server.view(created["id"], created["seats"][seat]["token"])
        if seen["your_turn"]:
            return created, seat, next(code for code in seen["position"]["rack"].split() if code != "*")
    raise AssertionError("nobody to move")


def _preview_text(page: Any, tile: str) -> str:
    page.locator(f'#rack .slot:not(.used)[data-code="{tile}"]').first.click()
    page.locator('[data-square="A1"]').click()
    page.wait_for_function("() => document.getElementById('preview').classList.contains('illegal')")
    return str(page.locator("#preview-text").text_content())


def test_a_greek_table_says_the_previews_reason_in_greek(server: Server, page: Any) -> None:
    created, seat, tile = _mover(server)
    address, fragment = server.page_url(created, seat).split("#", 1)
    page.goto(f"{address}?lang=el#{fragment}")
    wait_turn(page)
    assert _preview_text(page, tile) == "Μη έγκυρη: Το πλακίδιο στο A1 δεν βρίσκεται σε γραμμή τριών ή περισσότερων"


def test_an_english_table_shows_the_servers_line(server: Server, page: Any) -> None:
    created, seat, tile = _mover(server)
    page.goto(server.page_url(created, seat))
    wait_turn(page)
    assert _preview_text(page, tile) == "Not legal: tile on A1 lies in no line of three or more"
