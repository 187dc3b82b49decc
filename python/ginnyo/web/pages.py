"""The web table's pages: each page's body (``pages/NAME.html``) in the one shell every page shares
(``pages/shell.html``: charset, viewport, icon and the common stylesheet), with the page's title,
a table's hot-seat cover (``pages/cover.html``), its own stylesheets and its scripts (``static/css/NAME.css``, ``static/js/NAME.js``).  A page is put
together once and kept; the pages are not under ``/static``, which serves the assets alone."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

from starlette.responses import HTMLResponse

PAGES_DIR = Path(__file__).parent / "pages"


@dataclass(frozen=True)
class Page:
    """A page's title, its scripts and its stylesheets beyond the common one (names without endings),
    and on a table what the hot-seat cover (``pages/cover.html``) hides until its player is there."""

    title: str
    scripts: tuple[str, ...]
    styles: tuple[str, ...] = ()
    covers: str | None = None


PAGES = {
    "index": Page("Ginny-O — new game", ("lobby", "crazy-lobby")),
    "play": Page("Ginny-O — table", ("table",), covers="rack"),
    "crazy": Page("Crazy Rummy — table", ("crazy",), ("crazy",), covers="hand"),
    "analysis": Page("Ginny-O — analysis board", ("analysis",), ("analysis",)),
    "review": Page("Ginny-O — game review", ("review",), ("analysis",)),
}


@cache
def page_html(name: str) -> str:
    """The whole HTML of page ``name`` (a key of :data:`PAGES`)."""
    page = PAGES[name]
    head = [f'<link rel="stylesheet" href="/static/css/{style}.css">' for style in page.styles]
    head += [f'<script type="module" src="/static/js/{script}.js"></script>' for script in page.scripts]
    body = _part(name)
    if page.covers is not None:
        body += _part("cover").replace("{{hidden}}", page.covers)
    return _part("shell").replace("{{title}}", escape(page.title)).replace("{{head}}", "\n".join(head)) \
        .replace("{{body}}", body)


def _part(name: str) -> str:
    return (PAGES_DIR / f"{name}.html").read_text(encoding="utf-8")


def page_response(name: str) -> HTMLResponse:
    """Page ``name`` as a response."""
    return HTMLResponse(page_html(name))


__all__ = ["PAGES", "Page", "page_html", "page_response"]
