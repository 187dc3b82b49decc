"""The lobby in a real browser in Greek (issue 42): the scripts' words are Greek too, and the
language selector switches the page's language and is remembered."""

from __future__ import annotations

from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server
from ginnyo.web.http.i18n import translate


def test_the_greek_lobby_shows_the_scripts_words_in_greek_and_the_choice_is_remembered(server: Server, page: Any) -> None:
    page.goto(server.url + "?lang=el")
    assert page.get_attribute("html", "lang") == "el"
    # written by lobby.js after it ran: the seat labels and a bot's few words
    page.wait_for_selector("#seats label")
    assert page.inner_text("#seats label >> nth=0") == translate("el", "js.lobby.seat").replace("{number}", "1")
    assert translate("el", "js.lobby.level3.words") in page.inner_text("#seats")
    assert "Seat 1" not in page.inner_text("main")
    page.click("nav.languages a[hreflang=fy]")
    page.wait_for_function("document.documentElement.lang === 'fy'")
    page.wait_for_selector("#seats label")
    assert page.inner_text("#seats label >> nth=0") == translate("fy", "js.lobby.seat").replace("{number}", "1")
    page.goto(server.url)                                  # no ?lang=: the cookie remembers Frisian
    assert page.get_attribute("html", "lang") == "fy"
    assert page.inner_text("#new-game") == translate("fy", "lobby.new-game")
