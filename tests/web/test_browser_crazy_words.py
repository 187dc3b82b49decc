"""A Crazy Rummy game in Greek in a real browser (issue 42: "a person whose browser speaks any of the five
languages plays a whole game in it"): the person asks for hints, is refused a step, and plays turns through
the page until a round has ended, and every line the server composes -- the hint, the refusal, the turn
history, the round's end -- is Greek on the page, none of it the server's English; the hint in Punjabi too."""

from __future__ import annotations

import itertools
import re
from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server
from ginnyo.crazy.cards import parse_one, rank_of, suit_of, wild_rank
from ginnyo.web.http.i18n import catalogue
from test_browser_crazy import choose_cards, play_person_turn, wait_version_after

SEATS = ["human", "advisor", "advisor"]
NAMES = ["Άννα", "Σύμβουλος 2", "Σύμβουλος 3"]   # no Latin letters of their own on the Greek page
SEED = 2
MOST_TURNS = 40   # the person's turns before round 1 ends (a bound on the loop, not a timing)
# the English catalogue's messages of the lines the server sends as codes (its English lines say the same)
SERVER_LINES = ("js.crazy.hint.", "js.crazy.history.", "js.crazy.end.", "js.crazy.meld-kind.", "js.crazy.round-",
                "js.common.refusal.crazy-")
GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
GURMUKHI = re.compile(r"[\u0a00-\u0a7f]")


def english_words(*lines: str) -> set[str]:
    """The words (3 letters or more, lower case) of the English lines the server composes: its English
    catalogue's messages of those codes, and ``lines`` it sent."""
    messages = [text for key, text in catalogue("en").items() if key.startswith(SERVER_LINES)]
    words = {word.lower() for text in [*messages, *lines]
             for word in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[a-z_]+\}", " ", text))}
    assert {"draw", "discard", "stock", "meld", "lay", "swap", "points", "held", "round", "went"} <= words
    return words


def assert_worded(text: str, script: re.Pattern[str], english: set[str], where: str) -> None:
    """``text`` is non-empty, in ``script``, and holds none of the server's English words."""
    assert text.strip(), f"{where}: nothing shown"
    assert script.search(text), f"{where}: not in the page's script: {text!r}"
    found = sorted({word for word in re.findall(r"[A-Za-z]+", text) if word.lower() in english})
    assert not found, f"{where}: English {found} in {text!r}"


def open_table(page: Any, server: Server, created: dict[str, Any], language: str) -> None:
    path, fragment = created["seats"][0]["url"].split("#", 1)
    page.goto(f"{server.url.rstrip('/')}{path}?lang={language}#{fragment}")
    assert page.get_attribute("html", "lang") == language


def wait_mine_or_round_end(page: Any) -> str:
    """"round-end" once the round-end panel shows, else "mine" once the page offers the seat's turn."""
    page.wait_for_function("!document.getElementById('round-end').classList.contains('hidden')"
                           " || !document.getElementById('hint').disabled")
    return "round-end" if page.is_visible("#round-end") else "mine"


def ask_hint(page: Any, script: re.Pattern[str], english: set[str]) -> None:
    page.click("#hint")
    page.wait_for_selector("#hint-text:not(.hidden)")
    assert_worded(page.text_content("#hint-text") or "", script, english, "the hint")


def refused(page: Any, english: set[str], act: str) -> str:
    """Clicks ``act`` and returns the refusal the page then says (in #status, as an error)."""
    page.evaluate("document.getElementById('status').textContent = ''")
    page.click(act)
    page.wait_for_function("document.getElementById('status').textContent !== ''")
    assert "error" in (page.get_attribute("#status", "class") or "").split()
    shown = page.text_content("#status") or ""
    assert_worded(shown, GREEK, english, f"the refusal of {act}")
    return shown


def no_meld(hand: list[str], wild: int) -> list[str]:
    """Three cards of ``hand``, no wild among them, neither of one rank nor of one suit: no meld."""
    plain = [code for code in hand if rank_of(parse_one(code, "card")) != wild]
    for three in itertools.combinations(plain, 3):
        cards = [parse_one(code, "card") for code in three]
        if len({rank_of(card) for card in cards}) > 1 and len({suit_of(card) for card in cards}) > 1:
            return list(three)
    raise AssertionError(f"no three cards of {hand} make no meld")


def refused_steps(page: Any, server: Server, game: str, token: str, view: dict[str, Any], english: set[str]) -> None:
    """A turn of refusals: the card taken from the discard pile discarded at once (the server refuses it),
    three cards that make no meld (the preview refuses them); then another card discarded."""
    assert view["turn"]["may_take_discard"]
    page.click("#discard-pile")
    wait_version_after(page, view["version"])
    after = server.view(game, token)
    taken = after["turn"]["card"]
    choose_cards(page, [taken])
    refused(page, english, "#discard")
    choose_cards(page, [taken])   # chosen again: not chosen
    hand = [code for code in after["hand"].split() if code != taken]
    three = no_meld(hand, wild_rank(view["round"]))
    choose_cards(page, three)
    refused(page, english, "#meld")
    choose_cards(page, three)
    choose_cards(page, [hand[0]])
    page.click("#discard")
    wait_version_after(page, after["version"])


def test_a_crazy_rummy_round_in_greek_shows_the_servers_lines_in_greek(page: Any, server: Server) -> None:
    created = server.call("POST", "api/games", {"game": "crazy", "seats": SEATS, "seed": SEED, "names": NAMES})
    game, token = created["id"], created["seats"][0]["token"]
    open_table(page, server, created, "el")
    english = english_words()
    refusals_tried = False
    for _ in range(MOST_TURNS):
        if wait_mine_or_round_end(page) == "round-end":
            break
        view = server.view(game, token)
        page.wait_for_function(f"Number(document.body.dataset.version) === {view['version']}")
        ask_hint(page, GREEK, english)
        if not refusals_tried and not view["turn"]["opening"]:
            refused_steps(page, server, game, token, view, english)
            refusals_tried = True
        else:
            play_person_turn(page, server, game, token, view)
        seen = server.view(game, token)
        english |= english_words(*(entry["text"] for entry in seen["history"]))
        lines = page.eval_on_selector_all("#history li", "items => items.map(item => item.textContent)")
        assert lines, "no history shown"
        for line in lines:
            assert_worded(line, GREEK, english, "a history line")
    else:
        raise AssertionError(f"round 1 did not end in {MOST_TURNS} of the person's turns")
    assert refusals_tried
    last = server.view(game, token)["last_round"]
    assert last["round"] == 1
    english |= english_words(last["end"])
    assert_worded(page.text_content("#round-end-title") or "", GREEK, english, "the round-end panel")
    round_end = page.text_content("#last-round") or ""
    assert_worded(round_end, GREEK, english, "the round-end line")
    assert not re.search(r"\b(10|[A2-9TJQK])[CDHS]\b", round_end), f"cards as codes, not signs: {round_end!r}"
    page.click("#round-end-next")
    for line in page.eval_on_selector_all("#history li", "items => items.map(item => item.textContent)"):
        assert_worded(line, GREEK, english, "a history line")


def test_the_hint_in_punjabi_is_in_gurmukhi(page: Any, server: Server) -> None:
    created = server.call("POST", "api/games", {"game": "crazy", "seats": SEATS, "seed": SEED + 1,
                                                "names": ["ਅੰਨਾ", "ਸਲਾਹਕਾਰ 2", "ਸਲਾਹਕਾਰ 3"]})
    open_table(page, server, created, "pa")
    assert wait_mine_or_round_end(page) == "mine"
    ask_hint(page, GURMUKHI, english_words())
