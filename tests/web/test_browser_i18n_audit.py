"""The pages an audit in Greek found English on, walked in a real browser: the puzzle themes (the
select and the puzzle's facts) and the analysis board's reason for having no play."""

from __future__ import annotations

from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server
from ginnyo.web.http.i18n import translate


def test_the_greek_puzzles_page_names_its_themes_in_greek(server: Server, page: Any) -> None:
    page.goto(server.url + "puzzles?lang=el")
    page.wait_for_function("document.querySelectorAll('#theme option').length > 1")
    page.wait_for_function("document.getElementById('facts').textContent.includes('·')")
    options = page.locator("#theme option").all_inner_texts()
    assert f"{translate('el', 'js.puzzles.theme.below-top-score')} (" in "\n".join(options)
    themes = page.inner_text("#facts").split("·", 2)[2]    # the id before them names the kind, not a theme
    words = "\n".join(options) + themes
    assert not [theme for theme in ("below-top-score", "double-tile", "endgame", "crossing") if theme in words]


def test_the_greek_analysis_board_says_why_there_is_no_play_in_greek(server: Server, page: Any) -> None:
    page.goto(server.url + "analysis?lang=el")          # an empty board and rack: no play
    page.wait_for_selector("#by-score li.note")
    line = page.inner_text("#by-score")
    assert translate("el", "js.analysis.no-play-reason.empty-rack") in line and "rack" not in line
