"""The pages to sign up and in, in a browser (Playwright on chromium): an error shown beside the
form, the lobby's "signed in as NAME · sign out" line, signing out and in again by keyboard."""

from __future__ import annotations

from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server

PASSWORD = "correct horse battery"


def test_sign_up_sign_out_and_sign_in_through_the_pages(page: Any, server: Server) -> None:
    page.goto(server.url + "signup")
    page.fill("#name", "Ann")
    page.fill("#password", "short")
    page.click("#account-submit")
    error = page.locator("#account-error")
    error.wait_for(state="visible")
    assert "at least 8" in error.inner_text()

    page.fill("#password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_url(server.url)
    page.locator("#signed-in").wait_for(state="visible")
    assert page.inner_text("#account-name") == "Ann"
    assert page.locator("#signed-out").is_hidden()

    page.click("#sign-out")
    page.locator("#signed-out").wait_for(state="visible")
    assert page.locator("#signed-in").is_hidden()

    page.click("a[href='/signin']")
    page.wait_for_url(server.url + "signin")
    page.fill("#name", "ann")
    page.fill("#password", "not the password")
    page.press("#password", "Enter")
    page.locator("#account-error").wait_for(state="visible")
    assert "wrong" in page.inner_text("#account-error")
    page.fill("#password", PASSWORD)
    page.press("#password", "Enter")
    page.wait_for_url(server.url)
    page.locator("#signed-in").wait_for(state="visible")
    assert page.inner_text("#account-name") == "Ann"


def test_the_sign_in_page_speaks_the_language_chosen(page: Any, server: Server) -> None:
    page.goto(server.url + "signin?lang=eo")
    assert page.inner_text("#account-title") == "Ensaluti"
    assert page.get_attribute("html", "lang") == "eo"
