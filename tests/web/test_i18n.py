"""The pages' languages (web/http/i18n.py, issue 42): the language a request chooses (``?lang=``, the
``lang`` cookie, ``Accept-Language``), every catalogue complete, the rules page in each language
with the board's squares drawn, every page's words and its scripts' messages in the language
chosen, the plural forms, and the Gurmukhi font shipped."""

from __future__ import annotations

import ast
import glob
import json
import functools
import re
from pathlib import Path
from typing import Iterator

import pytest

from analysis_helpers import TestClient, client_of
from babel import Locale
from babel.messages.pofile import read_po
from starlette.routing import Route
import ginnyo
from ginnyo import Position
from ginnyo.position.plays_json import no_play_json
from ginnyo.puzzles.themes import THEMES
from ginnyo.vocab.layout import Layout
from ginnyo.web.http.i18n import LANGUAGE_COOKIE, LANGUAGES, catalogue, catalogue_path, choose_language, negotiate, one_counts, translate
from ginnyo.web.http.pages import PAGES, PAGES_DIR, page_html
from ginnyo.web.http.squares import PREMIUM_KINDS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "ginnyo"
FONTS = PACKAGE / "web" / "static" / "fonts"
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


# -- choosing the language --------------------------------------------------------------

@pytest.mark.parametrize("header, language", [
    ("de;q=0.9, el;q=0.5, fy;q=0.8", "fy"),          # the highest weight the table speaks
    ("eo, el", "eo"),                                # equal weights: the first listed
    ("pa-IN, en;q=0.5", "pa"),                       # a region names its language
    ("pa-Guru;q=0.9, en;q=0.2", "pa"),               # Punjabi in Gurmukhi is ours
    ("pa-Arab-PK, en;q=0.2", "en"),                  # Punjabi in Shahmukhi is not
    ("el;q=0, eo;q=0.1", "eo"),                      # q=0 refuses a language
    ("EL-gr", "el"),                                 # tags are not case-sensitive
    ("de-DE, fr;q=0.8", "en"),                       # none spoken: English
    ("el;q=lots, fy;q=2", "en"),                     # weights that do not read count for nothing
    ("", "en"),
    (None, "en"),
])
def test_accept_language_picks_the_best_language_the_table_speaks(header: str | None, language: str) -> None:
    assert negotiate(header) == language


def test_lang_in_the_query_beats_the_cookie_which_beats_the_header() -> None:
    assert choose_language("eo", "el", "fy").language == "eo" and choose_language("eo", "el", "fy").remember
    assert choose_language(None, "el", "fy").language == "el" and not choose_language(None, "el", "fy").remember
    assert choose_language(None, None, "fy").language == "fy"
    assert choose_language(None, "klingon", "fy").language == "fy"    # a stale cookie is passed over
    with pytest.raises(ValueError, match="field 'lang'"):
        choose_language("xx", None, None)


def test_lang_in_the_query_is_remembered_in_a_cookie(client: TestClient) -> None:
    answer = client.get("/rules?lang=el", headers={"Accept-Language": "eo"})
    assert answer.status_code == 200 and '<html lang="el">' in answer.text
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("lang=el;") and "SameSite=lax" in cookie and "Path=/" in cookie
    again = client.get("/rules", headers={"Accept-Language": "eo"})      # the client sends the cookie back
    assert '<html lang="el">' in again.text and "set-cookie" not in again.headers


def test_without_lang_or_cookie_the_rules_page_follows_accept_language(client: TestClient) -> None:
    answer = client.get("/rules", headers={"Accept-Language": "fy-NL, nl;q=0.8"})
    assert '<html lang="fy">' in answer.text and "set-cookie" not in answer.headers
    assert "Accept-Language" in answer.headers["vary"] and "Cookie" in answer.headers["vary"]
    assert '<html lang="en">' in client.get("/rules").text


def test_an_unknown_lang_is_refused_in_one_line_naming_the_field(client: TestClient) -> None:
    answer = client.get("/rules?lang=xx")
    assert answer.status_code == 400
    assert answer.json()["error"] == "field 'lang': must be one of en, el, fy, eo, pa"


# -- the catalogues ---------------------------------------------------------------------

def _read(language: str) -> dict[str, tuple[str, bool]]:
    with catalogue_path(language).open("rb") as source:
        return {str(message.id): (str(message.string), message.fuzzy) for message in read_po(source) if message.id}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_catalogue_has_every_english_message_translated(language: str) -> None:
    english, translated = _read("en"), _read(language)
    assert sorted(translated) == sorted(english)
    for key, (text, fuzzy) in translated.items():
        assert text.strip() and not fuzzy, f"{language}: {key} is empty or fuzzy"
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english[key][0])), key


def test_every_message_a_page_asks_for_is_in_the_english_catalogue() -> None:
    english = _read("en")
    bodies = [part.read_text("utf-8") for part in PAGES_DIR.glob("*.html")]
    for page in PAGES.values():   # a body several pages share asks for the messages its fills name
        if page.body is not None:
            body = (PAGES_DIR / f"{page.body}.html").read_text("utf-8")
            bodies.append(functools.reduce(lambda text, fill: text.replace(*fill), page.fills, body))
    asked = {key for body in bodies for key in re.findall(r"\{\{msg ([^{}]+)\}\}", body)}
    asked |= {f"legend.{kind}" for kind in PREMIUM_KINDS} | {"board.picture", "languages.label"}
    asked |= {page.title for page in PAGES.values()}
    asked |= {f"cover.{page.covers}.{part}" for page in PAGES.values() if page.covers for part in ("note", "show")}
    assert asked <= set(english), asked - set(english)


# -- the rules page and the legend ------------------------------------------------------

@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_rules_page_is_in_each_language_with_the_board_drawn(client: TestClient, language: str) -> None:
    html = client.get(f"/rules?lang={language}").text
    assert f'<html lang="{language}">' in html
    assert f"<title>{translate(language, 'rules.page-title')}</title>" in html
    for key in ("rules.tiles.title", "rules.joker.title", "rules.pass.title", "rules.end.penalty"):
        assert translate(language, key).replace("'", "&#x27;") in html
    drawn = re.findall(r'<rect data-kind="(.)"', html)
    assert "".join(drawn) == Layout.standard().kinds          # every square, in order, of its kind
    legend = re.findall(r'<span class="swatch k-(.)"', html)
    assert "".join(legend) == PREMIUM_KINDS
    assert f'hreflang="{language}" lang="{language}" aria-current="true"' in html
    assert all(f'href="?lang={other}"' in html for other in LANGUAGES)


@pytest.mark.parametrize("path", ["/", "/play/no-such-game"])
def test_the_lobby_and_the_table_link_to_the_rules(client: TestClient, path: str) -> None:
    html = client.get(path, headers={"Accept-Language": "el"}).text
    assert '<html lang="el">' in html and f'<a href="/rules"' in html and f">{translate('el', 'nav.rules')}</a>" in html


def test_the_table_shows_the_squares_legend_in_the_players_language(client: TestClient) -> None:
    html = client.get("/play/no-such-game?lang=eo").text
    assert '<html lang="eo">' in html
    section = html[html.index('<section class="squares"'):]
    section = section[:section.index("</section>")]
    for kind in PREMIUM_KINDS:
        assert translate("eo", f"legend.{kind}") in section
    assert "Flava" in section and "Yellow" not in section


# -- every page and its scripts' messages ---------------------------------------------

ROUTES = {"index": "/", "play": "/play/no-such-game", "analysis": "/analysis", "review": "/review", "rules": "/rules",
          "puzzles": "/puzzles", "signup": "/signup", "signin": "/signin"}
SCRIPTS = PACKAGE / "web" / "static" / "js"
IMPORT = re.compile(r'from "\./([a-z-]+)\.js"')
ASKED_KEY = re.compile(r'"(js\.[a-z0-9.-]+)"')
ASKED_PREFIX = re.compile(r"t\(`(js\.[a-z0-9.-]+)\$\{")       # t(`js.common.suit.${suit}`)


def _scripts_catalogue(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html)
    assert found is not None, "no messages for the page's scripts"
    read: dict[str, object] = json.loads(found.group(1))
    return read


@pytest.mark.parametrize("name", sorted(PAGES))
@pytest.mark.parametrize("language", sorted(set(LANGUAGES) - {"en"}))
def test_no_english_sentence_is_left_on_a_page_in_another_language(name: str, language: str) -> None:
    html = page_html(name, language)
    assert f'<html lang="{language}">' in html and f'hreflang="{language}" lang="{language}" aria-current="true"' in html
    left = [key for key, text in catalogue("en").items()
            if len(text.split()) > 3 and translate(language, key) != text and text.replace("'", "&#x27;") in html]
    assert not left, f"{name} in {language}: English left for {left}"


def test_a_page_carries_its_scripts_messages_in_its_language_only(client: TestClient) -> None:
    html = client.get("/?lang=el").text
    read = _scripts_catalogue(html)
    messages = read["messages"]
    assert read["lang"] == "el" and read["one"] == [1] and isinstance(messages, dict)
    assert set(messages) == {key for key in catalogue("en") if key.startswith(("js.common.", "js.lobby."))}
    assert messages["js.lobby.seat"] == "Θέση {number}" and messages["js.common.suit.H"] == "κούπα"
    assert translate("en", "js.lobby.seat") not in html
    assert "js.table." not in html and "rules.intro" not in html            # only the lobby's scripts' keys
    assert "messages" not in page_html("rules", "el")                        # no scripts: no messages


def test_every_page_route_answers_in_the_language_asked_for(client: TestClient) -> None:
    """Each route that answers a page, found in the app itself, so that a page added or moved is covered."""
    pages = [route.path for route in client.app.routes   # type: ignore[attr-defined]
             if isinstance(route, Route) and "GET" in (route.methods or ()) and not route.path.startswith(("/api", "/static"))]
    assert {"/", "/play/{game_id}", "/review", "/review/{game_id}", "/analysis", "/rules", "/players/{name}"} <= set(pages)
    for path in pages:
        answer = client.get(re.sub(r"\{[a-z_]+\}", "x1", path) + "?lang=fy")
        if answer.headers.get("content-type", "").startswith("text/html"):
            assert '<html lang="fy">' in answer.text, path
            assert answer.cookies.get(LANGUAGE_COOKIE) == "fy" or "lang=fy" in answer.headers.get("set-cookie", ""), path


def test_no_message_can_close_the_element_that_carries_the_messages(client: TestClient) -> None:
    for name, route in ROUTES.items():
        html = client.get(f"{route}?lang=pa").text
        found = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html, re.DOTALL)
        assert found is None or "<" not in found.group(1), name


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_counts_that_take_the_one_form_follow_each_languages_plural_rule(language: str) -> None:
    rule = Locale.parse(language)
    assert one_counts(language) == [count for count in (0, 1) if rule.plural_form(count) == "one"]
    # the page's scripts choose .one for these counts only: right for every whole count in each language
    assert all((rule.plural_form(count) == "one") == (count in one_counts(language)) for count in range(0, 1000))
    assert one_counts("pa") == [0, 1] and one_counts("el") == [1]


def test_every_plural_message_has_its_one_and_other_forms_with_the_count() -> None:
    english = catalogue("en")
    plurals = {key.rsplit(".", 1)[0] for key in english if key.startswith("js.") and key.endswith((".one", ".other"))}
    assert plurals, "no plural message"
    for stem in plurals:
        assert "{count}" in english[f"{stem}.one"] and "{count}" in english[f"{stem}.other"], stem


def test_every_message_a_script_asks_for_is_in_the_english_catalogue() -> None:
    english = catalogue("en")
    scripts = PACKAGE / "web" / "static" / "js"
    asked = {key for script in scripts.glob("*.js") for key in re.findall(r'"(js\.[a-z0-9.-]+)"', script.read_text("utf-8"))}
    assert asked, "no script asks for a message"
    missing = {key for key in asked if key not in english and f"{key}.one" not in english}
    assert not missing, missing
    for page in PAGES.values():        # a page's scripts get the messages of its prefixes
        assert all(prefix.startswith("js.") for prefix in page.messages)


def _modules(script: str) -> set[str]:
    """The script and every module it imports, near or far."""
    found, waiting = set(), [script]
    while waiting:
        name = waiting.pop()
        if name not in found:
            found.add(name)
            waiting += IMPORT.findall((SCRIPTS / f"{name}.js").read_text("utf-8"))
    return found


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_carries_every_message_its_scripts_and_their_modules_ask_for(name: str) -> None:
    # the puzzle board's squares and tiles are named by board-view.js and common.js through t()
    page = PAGES[name]
    sources = [(SCRIPTS / f"{module}.js").read_text("utf-8") for script in page.scripts for module in _modules(script)]
    asked = {key for source in sources for key in ASKED_KEY.findall(source) + ASKED_PREFIX.findall(source)}
    assert not [key for key in asked if not key.startswith(page.messages)], f"{name}: messages {page.messages}"


def test_the_club_bot_levels_are_offered_in_the_pages_language() -> None:
    html = page_html("index", "el")
    levels = html[html.index('<select id="bot-level">'):]
    levels = levels[:levels.index("</select>")]
    assert re.findall(r'value="(level\d)"', levels) == [f"level{n}" for n in range(1, 6)]
    assert translate("el", "js.lobby.level3.option") in levels and ">level" not in levels


def test_every_puzzle_theme_is_worded_on_the_puzzles_page() -> None:
    messages = _scripts_catalogue(page_html("puzzles", "pa"))["messages"]
    assert isinstance(messages, dict)
    assert all(f"js.puzzles.theme.{theme}" in messages for theme in THEMES)
    assert messages["js.puzzles.theme.run"] == translate("pa", "js.common.meld.run")


@pytest.mark.parametrize("rack, code", [("", "empty-rack"), ("* *", "only-jokers"), ("KD 2C", "return-costliest")])
def test_the_analysis_says_why_there_is_no_play_by_a_code_the_catalogues_word(rack: str, code: str) -> None:
    no_play = no_play_json(Position.load({"board": {}, "rack": rack, "sets": 2}))
    assert no_play["reason_code"] == code
    english = translate("en", f"js.analysis.no-play-reason.{code}")
    assert english.format(**no_play["reason_args"]) == no_play["reason"]       # the same line, worded
    assert "{" not in translate("el", f"js.analysis.no-play-reason.{code}").format(**no_play["reason_args"])


# -- the font ---------------------------------------------------------------------------

def test_the_gurmukhi_font_ships_with_its_licence_and_is_asked_for_only_for_gurmukhi() -> None:
    for weight in ("400", "700"):
        assert (FONTS / f"gurmukhi-{weight}.woff2").read_bytes()[:4] == b"wOF2"
    licence = (FONTS / "OFL.txt").read_text("utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Copyright" in licence
    css = (PACKAGE / "web" / "static" / "css" / "ginnyo.css").read_text("utf-8")
    faces = re.findall(r"@font-face \{[^}]*\}", css)
    assert len(faces) == 2 and all("unicode-range: U+0A00-0A7F" in face for face in faces)
    assert re.search(r":lang\(pa\) \{ font-family: \"Ginny-O Gurmukhi\"", css)


def test_the_package_data_ships_the_font_its_licence_and_the_catalogues() -> None:
    listed = re.search(r"^ginnyo = (\[[^\]]*\])", (ROOT / "pyproject.toml").read_text("utf-8"), re.MULTILINE)
    assert listed is not None, "pyproject.toml: no package-data for ginnyo"
    patterns: list[str] = ast.literal_eval(listed.group(1))
    shipped = {Path(path) for pattern in patterns for path in glob.glob(str(PACKAGE / pattern), recursive=True)}
    needed = [FONTS / "gurmukhi-400.woff2", FONTS / "gurmukhi-700.woff2", FONTS / "OFL.txt",
              PACKAGE / "web" / "pages" / "rules.html", PACKAGE / "web" / "static" / "css" / "rules.css"]
    # the checkout's catalogues (the installed package's may lie elsewhere: a wheel in site-packages)
    needed += [PACKAGE / catalogue_path(language).relative_to(Path(ginnyo.__file__).parent) for language in LANGUAGES]
    assert not [path for path in needed if path not in shipped]
