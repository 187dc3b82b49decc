"""The web table's pages: each page's body (``pages/NAME.html``) in the one shell every page shares
(``pages/shell.html``: charset, viewport, icon and the common stylesheet), with the page's title,
a table's hot-seat cover (``pages/cover.html``), its own stylesheets and its scripts (``static/css/NAME.css``, ``static/js/NAME.js``).  A page is put
together once a language and kept; the pages are not under ``/static``, which serves the assets alone.

A body's ``{{msg key}}`` are messages of the catalogues (:mod:`.i18n`), in the language the request
chose; ``{{lang}}`` is that language, ``{{legend}}`` the premium squares' legend, ``{{board}}`` the
standard board drawn, ``{{languages}}`` the language selector, ``{{max_name}}`` the longest seat name
the API takes, ``{{end_confirm}}`` a table's dialog asking before it resigns or aborts
(``pages/end-confirm.html``), and ``{{bot_kinds}}`` the Ginny-O bot kinds for the lobby (JSON: each kind's few words
in the page's language -- ``js.lobby.kind-help.KIND`` -- and which kinds think).  Every page's ``<html lang>`` is the language chosen.

The words the page's scripts write come in the page too, in its language alone: the messages whose
keys begin with one of the page's ``messages`` prefixes, as JSON in
``<script type="application/json" id="messages">`` (read by common.js's ``t()``, never run), with
the counts that take the ``.one`` form of a plural message in that language."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Callable

from starlette.requests import Request
from starlette.responses import HTMLResponse

from ...vocab.layout import Layout
from ...players.kinds import KIND_HELP, SIM_KINDS
from .errors import BadRequest
from .i18n import DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, choose_language, localise, script_messages, translate
from .requests import MAX_NAME
from .squares import board_picture, legend

PAGES_DIR = Path(__file__).parent.parent / "pages"


@dataclass(frozen=True)
class Page:
    """A page's title (a message key), its scripts and its stylesheets beyond the common one (names
    without endings), on a table what the hot-seat cover (``pages/cover.html``) hides until its
    player is there (``rack``, ``hand``), the prefixes of the message keys its scripts use, and a body
    shared by several pages (``account``: signing up and in) with what fills its placeholders."""

    title: str
    scripts: tuple[str, ...]
    styles: tuple[str, ...] = ()
    covers: str | None = None
    messages: tuple[str, ...] = ()
    body: str | None = None                          # the body's file when not the page's own name
    fills: tuple[tuple[str, str], ...] = ()          # the body's own placeholders and their text


PAGES = {
    "index": Page("lobby.page-title", ("lobby", "crazy-lobby", "account-bar", "club"), ("club",),
                  messages=("js.common.", "js.lobby.")),
    "play": Page("table.page-title", ("table",), covers="rack", messages=("js.common.", "js.board.", "js.table.")),
    "crazy": Page("crazy.page-title", ("crazy",), ("crazy",), covers="hand",
                  messages=("js.common.", "js.crazy.", "js.table.clock", "js.table.resign", "js.table.abort",
                            "js.table.not-ended", "js.table.end.")),
    "analysis": Page("analysis.page-title", ("analysis",), ("analysis",),
                     messages=("js.common.", "js.board.", "js.analysis.")),
    "review": Page("review.page-title", ("review",), ("analysis",), messages=("js.common.", "js.board.", "js.review.", "js.table.end.")),
    "rules": Page("rules.page-title", (), ("rules",)),
    "puzzles": Page("puzzles.page-title", ("puzzles",), ("puzzles",), messages=("js.common.", "js.board.", "js.puzzles.")),
    "signup": Page("account.signup-title", ("account",), ("account",), messages=("js.common.",), body="account",
                   fills=(("{{action}}", "signup"), ("{{password_kind}}", "new"),
                          ("{{other_question}}", "have-account"), ("{{other}}", "signin"))),
    "signin": Page("account.signin-title", ("account",), ("account",), messages=("js.common.",), body="account",
                   fills=(("{{action}}", "signin"), ("{{password_kind}}", "current"),
                          ("{{other_question}}", "no-account"), ("{{other}}", "signup"))),
    "player": Page("player.page-title", ("player",), ("player",), messages=("js.common.", "js.player.")),
}
LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600


@cache
def page_html(name: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The whole HTML of page ``name`` (a key of :data:`PAGES`) in ``language`` (of :data:`.i18n.LANGUAGES`)."""
    page = PAGES[name]
    head = [f'<link rel="stylesheet" href="/static/css/{style}.css">' for style in page.styles]
    if page.messages:
        head.append("{{messages}}")
    head += [f'<script type="module" src="/static/js/{script}.js"></script>' for script in page.scripts]
    body = _part(page.body or name)
    for placeholder, text in page.fills:
        body = body.replace(placeholder, text)
    if page.covers is not None:
        body += (_part("cover").replace("{{cover_note}}", "{{msg cover.%s.note}}" % page.covers)
                 .replace("{{cover_show}}", "{{msg cover.%s.show}}" % page.covers))
    title = "{{msg %s}}" % page.title
    parts: dict[str, Callable[[], str]] = {
        "{{legend}}": lambda: legend(language), "{{board}}": lambda: board_picture(Layout.standard(), language),
        "{{languages}}": lambda: _language_selector(language), "{{lang}}": lambda: language,
        "{{max_name}}": lambda: str(MAX_NAME), "{{bot_kinds}}": lambda: _bot_kinds(language),
        "{{end_confirm}}": lambda: _part("end-confirm")}
    for placeholder, made in parts.items():
        if placeholder in body:
            body = body.replace(placeholder, made())
    html = _part("shell").replace("{{title}}", title).replace("{{head}}", "\n".join(head)).replace("{{body}}", body)
    html = localise(html.replace('<html lang="en">', f'<html lang="{language}">'), language)
    # after localise: a message's own text is never read as a {{msg}}
    return html.replace("{{messages}}", _messages_script(page.messages, language))


def _messages_script(prefixes: tuple[str, ...], language: str) -> str:
    """The messages of ``language`` whose keys begin with one of ``prefixes``, as the JSON the page's
    scripts read (``<`` escaped, so that no text can close the element)."""
    messages = json.dumps(script_messages(language, prefixes), ensure_ascii=False, separators=(",", ":"))
    return '<script type="application/json" id="messages">' + messages.replace("<", "\\u003c") + "</script>"


def _bot_kinds(language: str) -> str:
    """The bot kinds of a Ginny-O seat with their few words in ``language`` (:data:`KIND_HELP` worded by the
    catalogues), and the sim kinds (which take a think time), as JSON escaped for an attribute: the lobby's
    one source of them."""
    help_words = {kind: translate(language, f"js.lobby.kind-help.{kind}") for kind in KIND_HELP}
    return escape(json.dumps({"help": help_words, "sim": list(SIM_KINDS)}, ensure_ascii=False))


def _language_selector(language: str) -> str:
    """Links to this page in each language, each named in its own, the one shown marked current."""
    current = ' aria-current="true"'
    links = [f'<a href="?lang={code}" hreflang="{code}" lang="{code}"{current if code == language else ""}>'
             f'{escape(own_name)}</a>' for code, own_name in LANGUAGES.items()]
    return ('<nav class="languages" aria-label="{{msg languages.label}}">'
            '<span>{{msg languages.label}}:</span> ' + " · ".join(links) + "</nav>")


def _part(name: str) -> str:
    return (PAGES_DIR / f"{name}.html").read_text(encoding="utf-8")


def page_response(name: str, request: Request) -> HTMLResponse:
    """Page ``name`` as a response in the language the ``request`` chooses (``?lang=``, the ``lang``
    cookie, ``Accept-Language``: :func:`.i18n.choose_language`), a ``?lang=`` remembered."""
    try:
        choice = choose_language(request.query_params.get("lang"), request.cookies.get(LANGUAGE_COOKIE),
                                 request.headers.get("accept-language"))
    except ValueError as error:
        raise BadRequest(str(error)) from None
    response = HTMLResponse(page_html(name, choice.language), headers={"Vary": "Accept-Language, Cookie"})
    if choice.remember:
        response.set_cookie(LANGUAGE_COOKIE, choice.language, max_age=LANGUAGE_COOKIE_SECONDS, samesite="lax")
    return response


__all__ = ["PAGES", "Page", "page_html", "page_response"]
