"""The pages (web/http/pages.py): every page is its body in the one shared shell, with its title, its own
stylesheets and scripts (each an asset /static serves), and a table's hot-seat cover."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from analysis_helpers import TestClient, client_of
from ginnyo.web.http.i18n import translate
from ginnyo.web.http.pages import PAGES, page_html

ROUTES = {"index": "/", "play": "/play/no-such-game", "analysis": "/analysis", "review": "/review", "rules": "/rules"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_is_its_body_in_the_shared_shell_with_its_own_assets(client: TestClient, name: str) -> None:
    html, page = page_html(name), PAGES[name]
    assert html.startswith("<!doctype html>\n<html lang=\"en\">") and html.rstrip().endswith("</html>")
    title = translate("en", page.title)
    assert f"<title>{title}</title>" in html and "{{" not in html
    assets = [f"/static/css/{style}.css" for style in ("ginnyo", *page.styles)] + [
        f"/static/js/{script}.js" for script in page.scripts]
    for asset in assets:
        assert f'"{asset}"' in html
        assert client.get(asset).status_code == 200, asset
    assert ('id="cover"' in html) == (page.covers is not None)
    if page.covers is not None:
        assert f"Show my {page.covers}</button>" in html


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_a_pages_route_serves_it_as_html(client: TestClient, name: str) -> None:
    answer = client.get(ROUTES[name])
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert answer.text == page_html(name)


def test_a_crazy_games_table_is_the_crazy_page(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "crazy", "seats": ["human", "advisor", "advisor"], "seed": 1}).json()
    assert client.get(f"/play/{made['id']}").text == page_html("crazy")
