"""Whole games walked in a real browser in Punjabi and West Frisian (issue 42): a Ginny-O game to its
end (its returns and passes, the end panel) and then its review turn by turn, and a Crazy Rummy round
to its round-end panel, with no English word left at any state and the Gurmukhi in the shipped font;
and the table's lines after a return and a pass, the mover's and the opponent's, in Greek."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server
from crazy_helpers import advisor_steps
from ginnyo.web.http.i18n import catalogue, translate
from web_helpers import best_action

NAMES = ["Ann", "Bo"]
CRAZY_NAMES = ["Ann", "Cai", "Dee"]
SEED = 7                  # a hot-seat game whose greedy play returns tiles and passes before its end
FACE = "Ginny-O Gurmukhi"
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")
TILE = re.compile(r"(10|[2-9AJQKT])[SHDC]")
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
# messages quoting the notation a person types ("return KD", "pass"): the same words in every language
NOTATION_KEYS = {"table.move.placeholder", "js.table.type-move"}
# what a page shows and says: its visible text, its title, and every label, title and placeholder
# (the notation box's placeholder is notation, the same in every language)
SHOWN = """() => [document.title, document.body.innerText,
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((element) =>
    ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name))
      .filter((value, index) => value && !(index === 2 && element.id === 'notation-text')))].join('\\n')"""


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(PLACEHOLDER.sub(" ", text))}


@functools.cache
def english_words(language: str) -> frozenset[str]:
    """The words of the English messages that ``language`` words otherwise, less any word its own messages use."""
    english, translated = catalogue("en"), catalogue(language)
    theirs = set().union(*(_words(text) for key, text in translated.items() if key not in NOTATION_KEYS))
    ours = set().union(*(_words(text) for key, text in english.items() if translated[key] != text))
    return frozenset(ours - theirs)


def english_left(language: str, shown: str, names: list[str]) -> list[str]:
    """The English words in ``shown``, a page's text in ``language`` (names and tile codes are no words)."""
    return sorted({word for word in WORD.findall(shown)
                   if word.lower() in english_words(language) and word not in names and not TILE.fullmatch(word)})


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)


def seat_url(server: Server, url: str, language: str) -> str:
    path, fragment = url.split("#", 1)
    return f"{server.url.rstrip('/')}{path}?lang={language}#{fragment}"


def assert_gurmukhi_in_the_shipped_font(page: Any, selector: str) -> None:
    page.evaluate("document.fonts.ready")
    line = page.inner_text(selector)
    assert any("\u0a00" <= char <= "\u0a7f" for char in line), line
    assert page.evaluate("s => getComputedStyle(document.querySelector(s)).fontFamily", selector).startswith(f'"{FACE}"')
    loaded = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert FACE in [family.strip('"') for family in loaded]
    assert page.evaluate("text => document.fonts.check('16px \"Ginny-O Gurmukhi\"', text)", line)


@pytest.mark.parametrize("language", ["pa", "fy"])
def test_a_whole_game_and_its_review_leave_no_english(server: Server, page: Any, language: str) -> None:
    made = server.create(["human", "human"], seed=SEED, names=NAMES)
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    page.goto(seat_url(server, made["seats"][0]["url"], language))
    seen, left, moves = server.view(game, tokens[0]), {}, []
    while True:     # every seat played through the API, the page of seat 0 following each state
        wait_version(page, seen["version"])
        left[seen["version"]] = english_left(language, page.evaluate(SHOWN), NAMES)
        if seen["finished"]:
            break
        mover = server.view(game, tokens[seen["to_move"]])
        moves.append(best_action(mover).split()[0])
        seen = server.call("POST", f"api/games/{game}/actions", {"action": best_action(mover), "version": mover["version"]},
                           token=tokens[mover["seat"]])
    assert {"return", "pass"} <= set(moves)
    assert page.is_visible("#end") and page.inner_text("#end-winners")     # the end panel was among the states read
    if language == "pa":
        assert_gurmukhi_in_the_shipped_font(page, "#end-reason")
    page.goto(f"{server.url}review/{game}?lang={language}#seat=0&token={tokens[0]}")
    page.wait_for_function("document.querySelectorAll('#turns li').length > 0")
    turns = page.locator("#turns li").count()
    assert page.get_attribute("#first", "title") == translate(language, "review.key-home")
    assert page.get_attribute("#last", "title") == translate(language, "review.key-end")
    for turn in range(turns):
        page.locator("#turns li").nth(turn).click()
        page.wait_for_selector(f"#turns li:nth-child({turn + 1}).current")
        left[-1 - turn] = english_left(language, page.evaluate(SHOWN), NAMES)
    assert not {state: words for state, words in left.items() if words}


@pytest.mark.parametrize("language", ["pa", "fy"])
def test_a_crazy_rummy_round_to_its_end_leaves_no_english(server: Server, page: Any, language: str) -> None:
    created = server.call("POST", "api/games", {"game": "crazy", "seats": ["human", "advisor", "advisor"], "seed": 2,
                                                "names": CRAZY_NAMES})
    game, token = created["id"], created["seats"][0]["token"]
    page.goto(seat_url(server, created["seats"][0]["url"], language))
    left: dict[int, list[str]] = {}

    def read(view: dict[str, Any]) -> dict[str, Any]:
        wait_version(page, view["version"])
        left[view["version"]] = english_left(language, page.evaluate(SHOWN), CRAZY_NAMES)
        return view

    view = read(server.call("GET", f"api/games/{game}", token=token))
    while view["last_round"] is None:          # the person's turns played through the API, step by step
        if view["your_turn"]:
            def post(action: dict[str, Any]) -> dict[str, Any]:
                nonlocal view
                view = read(server.call("POST", f"api/games/{game}/actions", {"action": action, "version": view["version"]},
                                        token=token))
                return view
            for step in advisor_steps(view, lambda source: post({"draw": source})):
                post(step)
        else:                                  # the bots' turns: whatever the page shows next
            page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=view["version"])
        view = read(server.call("GET", f"api/games/{game}", token=token))
    page.wait_for_selector("#round-end:not(.hidden)")
    left[-1] = english_left(language, page.evaluate(SHOWN), CRAZY_NAMES)
    if language == "pa":
        assert_gurmukhi_in_the_shipped_font(page, "#round-end-title")
    assert not {state: words for state, words in left.items() if words}


def test_the_lines_after_a_return_and_a_pass_are_in_greek_for_the_mover_and_the_opponent(server: Server,
                                                                                          page: Any) -> None:
    from playwright.sync_api import expect
    """The game played greedily to its end: seat 0's returns and passes clicked in its page (the mover's
    line), seat 1's posted through the API (announced on seat 0's page)."""
    made = server.create(["human", "human"], seed=SEED, names=NAMES)
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    page.goto(seat_url(server, made["seats"][0]["url"], "el"))
    said: dict[tuple[str, str], tuple[str, str]] = {}       # (whose line, kind): (shown, expected), the first of each
    seen = server.view(game, tokens[0])
    while not seen["finished"]:
        wait_version(page, seen["version"])
        mover = server.view(game, tokens[seen["to_move"]])
        action = best_action(mover)
        kind = action.split()[0]
        if mover["seat"] == 0 and kind in ("return", "pass"):        # the page's own seat: through the page
            if kind == "return":
                page.click("#return")
                for tile in action.split()[1:]:
                    page.locator(f'#rack .slot:not(.picked)[data-code="{tile}"]').first.click()
                page.click("#return-confirm")
                words = translate("el", "js.table.sheet.return-tiles").format(tiles=" ".join(action.split()[1:]))
            else:
                page.click("#pass")
                words = translate("el", "js.table.sheet.pass")
            wait_version(page, mover["version"] + 1)
            expected = translate("el", "js.table.played").format(action=words)
            if ("mover", kind) not in said:    # the line comes with the answer to the page's post: waited for
                expect(page.locator("#status")).to_have_text(expected)
                said["mover", kind] = (page.inner_text("#status"), expected)
            seen = server.view(game, tokens[0])
            continue
        seen = server.call("POST", f"api/games/{game}/actions", {"action": action, "version": mover["version"]},
                           token=tokens[mover["seat"]])
        if mover["seat"] == 1 and kind in ("return", "pass"):        # the other seat's: announced on the page
            wait_version(page, seen["version"])
            count = len(action.split()) - 1
            key = f"js.table.said.returned.{'one' if count == 1 else 'other'}" if kind == "return" else "js.table.said.passed"
            said.setdefault(("opponent", kind), (page.inner_text("#announce"),
                                                 translate("el", key).format(name="Bo", count=count) + "."))
    assert set(said) == {(whose, kind) for whose in ("mover", "opponent") for kind in ("return", "pass")}
    for shown, expected in said.values():
        assert shown == expected and not english_left("el", shown, NAMES)
