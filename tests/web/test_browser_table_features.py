"""What players expect of the table (issue 42, item 6), in a real browser against a real
``ginnyo serve``: a scoresheet with running totals, a tracker of the unseen tiles, another seat's
move announced in words (the focus staying on the rack), a chime switched off until asked for, and
the rack's own order, moved and shuffled, kept in the page only."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server, best_choice, play_turns, take_turn, wait_turn
from ginnyo import Position, rack_code
from ginnyo.vocab.rules import tile_to_return
from ginnyo.web.http.i18n import translate

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
NOTATION_TILE = re.compile(r"\*|\.|10[A-Za-z]|[0-9A-Za-z][A-Za-z]")
# counts every oscillator a page starts: the chime is made with the Web Audio API
COUNT_TONES = """
window.tones = 0;
if (window.AudioContext) {
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); };
}
"""


def card(code: str) -> str:
    if code == "*":
        return "★"
    rank = "10" if code[:-1] in ("T", "10", "t") else code[:-1].upper()
    return ("★" if code[-1].islower() else "") + rank + SUITS[code[-1].upper()]


def announced(entry: dict[str, Any], names: list[str]) -> str:
    """The line a turn of another seat is announced with, as the rules of the table say it."""
    who, action = names[entry["seat"]], entry["action"]
    if action == "pass":
        return f"{who} passed."
    if action.startswith("return "):
        rest = action.removeprefix("return ")
        if re.fullmatch(r"\d+ tiles?", rest):
            return f"{who} returned {rest}."
        tiles = rest.split()
        return f"{who} returned {len(tiles)} tile{'s' if len(tiles) != 1 else ''} ({' '.join(map(card, tiles))})."
    start, *spelled = action.split()
    cards = [card(tile) for tile in NOTATION_TILE.findall("".join(spelled)) if tile != "."]
    return f"{who} played {' '.join(cards)} at {start} for {entry['score']}."


def shown_rack(page: Any) -> list[str]:
    codes: list[str] = page.eval_on_selector_all("#rack .slot", "slots => slots.map(s => s.dataset.code)")
    return codes


def best_action(view: dict[str, Any]) -> str:
    """The seat's best play in notation, else one tile returned, else a pass (as another program sends it)."""
    position = Position.load(view["position"])
    best = position.best_play()
    if best is not None:
        return position.notation(best)
    tile = tile_to_return(position.rack)
    return "pass" if tile is None or not view["can_return"] else f"return {rack_code(tile)}"


def act(server: Server, game_id: str, token: str) -> dict[str, Any]:
    seen = server.view(game_id, token)
    moved: dict[str, Any] = server.call("POST", f"api/games/{game_id}/actions",
                                        {"action": best_action(seen), "version": seen["version"]}, token=token)
    return moved


def against_greedy(server: Server, page: Any, seed: int) -> tuple[str, str]:
    created = server.create(["human", "greedy"], seed=seed, names=["Ann", "Bea"])
    page.goto(server.page_url(created))
    wait_turn(page)
    return created["id"], created["seats"][0]["token"]


def test_the_scoresheets_running_totals_equal_the_views_scores(server: Server, page: Any) -> None:
    created = server.create(["human", "greedy"], seed=21, names=["Ann", "Bea"])
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(server.page_url(created))
    assert play_turns(page, server, game_id, token, turns=3) == "mine"
    seen = server.view(game_id, token)
    rows = page.eval_on_selector_all(
        "#history tbody tr",
        "rows => rows.map(r => [Number(r.dataset.seat), r.querySelector('.move').textContent,"
        " Number(r.querySelector('.score').textContent.replace('−', '-')), Number(r.querySelector('.total').textContent)])")
    assert [(seat, move, score) for seat, move, score, _ in rows] == [
        (entry["seat"], entry["action"], entry["score"]) for entry in seen["history"]]
    assert len(rows) >= 6
    for seat, score in enumerate(seen["scores"]):
        assert [total for row_seat, _, _, total in rows if row_seat == seat][-1] == score


def test_the_tracker_counts_the_views_unseen_tiles_and_stays_closed_once_closed(server: Server, page: Any) -> None:
    created = server.create(["human", "greedy"], seed=22)
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(server.page_url(created))
    play_turns(page, server, game_id, token, turns=1)
    seen = server.view(game_id, token)
    unseen = Counter(seen["position"]["unseen"].split())
    jokers = unseen.pop("*", 0)
    shown = page.eval_on_selector_all("#tracker td[data-card]", "cells => cells.map(c => [c.dataset.card, Number(c.dataset.count)])")
    assert len(shown) == 52
    assert {code: count for code, count in shown if count} == dict(unseen)
    assert int(page.get_attribute("#tracker-summary .jokers", "data-count")) == jokers
    page.click("#tracker-toggle")
    assert page.get_attribute("#tracker-toggle", "aria-expanded") == "false"
    assert not page.is_visible("#tracker")
    page.reload()
    wait_turn(page)
    assert page.get_attribute("#tracker-toggle", "aria-expanded") == "false"
    assert not page.is_visible("#tracker")


def test_a_bots_move_is_announced_in_words(server: Server, page: Any) -> None:
    game_id, token = against_greedy(server, page, seed=23)
    assert page.get_attribute("#announce", "aria-live") == "polite"
    version = int(page.evaluate("document.body.dataset.version"))
    take_turn(page, best_choice(server.view(game_id, token)))
    wait_turn(page, version)
    seen = server.view(game_id, token)
    assert seen["history"][-1]["seat"] == 1
    assert page.inner_text("#announce") == announced(seen["history"][-1], seen["names"])


def test_another_seats_move_is_announced_and_the_focus_stays_on_its_rack_tile(server: Server, page: Any) -> None:
    created = server.create(["human", "human"], seed=24, names=["Ann", "Bea"])
    game_id = created["id"]
    ann, bea = (seat["token"] for seat in created["seats"])
    if server.view(game_id, ann)["to_move"] == 1:
        act(server, game_id, bea)
    page.goto(server.page_url(created))
    wait_turn(page)
    version = int(page.evaluate("document.body.dataset.version"))
    take_turn(page, best_choice(server.view(game_id, ann)))
    page.wait_for_function("v => Number(document.body.dataset.version) > v && document.body.dataset.turn === 'other'",
                           arg=version)
    assert page.inner_text("#announce") == ""   # Ann's own move is not announced to her
    focused = page.locator("#rack .slot").nth(3)
    focused.focus()
    code = focused.get_attribute("data-code")
    act(server, game_id, bea)
    wait_turn(page, version + 1)
    seen = server.view(game_id, ann)
    page.wait_for_function("() => document.getElementById('announce').textContent !== ''")
    assert page.inner_text("#announce") == announced(seen["history"][-1], seen["names"])
    assert page.evaluate("document.activeElement.matches('#rack .slot')")
    assert page.evaluate("document.activeElement.dataset.code") == code


def test_the_sound_is_off_until_switched_on_and_the_switch_is_remembered(server: Server, page: Any) -> None:
    page.add_init_script(COUNT_TONES)
    game_id, token = against_greedy(server, page, seed=25)
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    version = int(page.evaluate("document.body.dataset.version"))
    take_turn(page, best_choice(server.view(game_id, token)))
    wait_turn(page, version)
    page.wait_for_function("() => document.getElementById('announce').textContent !== ''")
    assert page.evaluate("window.tones") == 0
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.reload()
    wait_turn(page)
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("window.tones") == 0
    version = int(page.evaluate("document.body.dataset.version"))
    take_turn(page, best_choice(server.view(game_id, token)))
    wait_turn(page, version)
    page.wait_for_function("() => document.getElementById('announce').textContent !== ''")
    assert page.evaluate("window.tones") > 0


def arranged(order: list[str], rack: list[str]) -> list[str]:
    """The kept tiles still held, in their order, then the new ones in the server's order."""
    left = list(rack)
    kept = []
    for code in order:
        if code in left:
            left.remove(code)
            kept.append(code)
    return kept + left


def test_the_racks_own_order_moved_and_shuffled_survives_reloads_and_draws(server: Server, page: Any) -> None:
    game_id, token = against_greedy(server, page, seed=26)
    before = server.view(game_id, token)
    served = before["position"]["rack"].split()
    assert shown_rack(page) == served
    page.locator("#rack .slot").nth(0).focus()
    page.keyboard.press("Alt+ArrowRight")
    page.keyboard.press("Alt+ArrowRight")
    moved = served[1:3] + served[:1] + served[3:]
    assert shown_rack(page) == moved
    assert page.evaluate("document.activeElement.dataset.slot") == "2"
    slots = page.locator("#rack .slot")
    last = slots.nth(len(served) - 1).bounding_box()
    first = slots.nth(0).bounding_box()
    page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2)
    page.mouse.down()
    page.mouse.move(first["x"] + 10, first["y"] + 10, steps=8)
    page.mouse.up()
    dragged = moved[-1:] + moved[:-1]
    assert shown_rack(page) == dragged
    page.reload()
    wait_turn(page)
    assert shown_rack(page) == dragged
    for _ in range(3):   # a shuffle may give the same order back (one time in 8!, more with twin tiles)
        page.click("#shuffle")
        shuffled = shown_rack(page)
        if shuffled != dragged:
            break
    assert Counter(shuffled) == Counter(served) and shuffled != dragged
    page.reload()
    wait_turn(page)
    assert shown_rack(page) == shuffled
    after = server.view(game_id, token)
    assert after["version"] == before["version"] and after["position"] == before["position"]
    take_turn(page, best_choice(after))
    wait_turn(page, after["version"])
    drawn = server.view(game_id, token)["position"]["rack"].split()
    assert shown_rack(page) == arranged(shuffled, drawn)


def test_the_table_in_punjabi_shows_the_scoresheet_and_the_tracker_in_gurmukhi(server: Server, page: Any) -> None:
    created = server.create(["human", "greedy"], seed=24, names=["Ann", "Bea"])
    game_id, token = created["id"], created["seats"][0]["token"]
    path, _, fragment = server.page_url(created).partition("#")
    page.goto(f"{path}?lang=pa#{fragment}")
    play_turns(page, server, game_id, token, turns=1)
    headings = page.eval_on_selector_all("#history thead th", "cells => cells.map(c => c.textContent)")
    assert headings == ["#", translate("pa", "js.table.player"), translate("pa", "js.table.sheet.move"),
                        translate("pa", "js.table.score"), translate("pa", "js.table.sheet.total")]
    assert headings[1:] == ["ਖਿਡਾਰੀ", "ਚਾਲ", "ਅੰਕ", "ਕੁੱਲ"]
    seen = server.view(game_id, token)
    unseen = seen["position"]["unseen"].split()
    seen_on_racks = sum(size for seat, size in enumerate(seen["rack_sizes"]) if seat != seen["seat"])
    summary = page.inner_text("#tracker-summary")
    assert f"{len(unseen)} ਅਣਦੇਖੀਆਂ: ਡੱਬੇ ਵਿੱਚ {seen['box']}, ਹੋਰ ਰੈਕਾਂ ਤੇ {seen_on_racks}।" in summary
    assert f"ਜੋਕਰ: {unseen.count('*')}" in summary
    assert page.inner_text("#tracker-toggle") == "ਅਣਦੇਖੀਆਂ ਟਾਈਲਾਂ"
    assert page.get_attribute("#tracker tr[data-suit='H'] th", "aria-label") == "ਪਾਨ"
    assert page.inner_text("#sound") == "ਆਵਾਜ਼ ਬੰਦ" and page.inner_text("#shuffle") == "ਰਲਾਓ"
    assert not re.search(r"unseen|in the box|Jokers|player|total", summary + " ".join(headings))
