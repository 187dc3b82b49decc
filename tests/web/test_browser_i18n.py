"""The pages' languages in a real browser (issue 42): the Punjabi rules page is drawn in the
shipped Gurmukhi font, and an English page never fetches it."""

from __future__ import annotations

from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server, wait_turn

FACE = "Ginny-O Gurmukhi"


def _font_requests(page: Any) -> list[str]:
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "/static/fonts/" in request.url else None)
    return fetched


def test_the_punjabi_rules_page_renders_gurmukhi_in_the_shipped_font(server: Server, page: Any) -> None:
    page.goto(server.url + "rules?lang=pa")
    page.evaluate("document.fonts.ready")
    assert page.get_attribute("html", "lang") == "pa"
    heading = page.inner_text("main h2")
    assert any("\u0a00" <= char <= "\u0a7f" for char in heading)
    loaded = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family + ' ' + f.weight)")
    assert f'"{FACE}" 400' in loaded or f"{FACE} 400" in loaded   # chromium quotes a family with a space
    # the page asks for the face first, and the face covers the heading's Gurmukhi
    assert page.evaluate("getComputedStyle(document.querySelector('main h2')).fontFamily").startswith(f'"{FACE}"')
    assert page.evaluate("text => document.fonts.check('16px \"Ginny-O Gurmukhi\"', text)", heading)


def test_the_font_is_fetched_for_a_punjabi_page_and_never_for_an_english_one(server: Server, page: Any) -> None:
    fetched = _font_requests(page)
    created = server.create(["human", "greedy"], seed=2)
    page.goto(server.page_url(created))
    wait_turn(page)
    page.goto(server.url)
    page.wait_for_load_state("networkidle")
    assert page.get_attribute("html", "lang") == "en"
    assert fetched == [] and page.evaluate("[...document.fonts].every(f => f.status === 'unloaded')")
    page.goto(server.url + "rules?lang=pa")
    page.evaluate("document.fonts.ready")
    assert any(url.endswith("/static/fonts/gurmukhi-400.woff2") for url in fetched)
