"""The lobby in a real browser (Playwright driving Debian's chromium) against a real ``ginnyo serve``
(issue 42): the five bot levels in words, the raw kinds under "More bot kinds", the think time only
for a bot that thinks; fair play (this browser keeps its own seat's link only, the others' are shown
once), Ginny-O and Crazy Rummy alike; the "Game created" card brought into view; names as long as
the API takes; and each stored game's state in the list, asked for the newest games only."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import WAIT_MS, Server, wait_turn
from ginnyo.players.kinds import PLAYER_KINDS, SIM_KINDS
from ginnyo.players.levels import LEVEL_KINDS, LEVELS
from ginnyo.web.http.requests import MAX_NAME
from web_helpers import play_to_end

STORE = "ginnyo.games"          # the localStorage key of this browser's games (static/js/common.js)
STATUS_LIMIT = 10               # the newest games whose state the list asks for (static/js/lobby.js)


def stored(page: Any) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(page.evaluate(f"localStorage.getItem('{STORE}') || '[]'"))
    return games


def stored_tokens(page: Any) -> list[str]:
    return [seat["token"] for game in stored(page) for seat in game["seats"] if seat.get("token")]


def offered(page: Any, select: str) -> list[str]:
    values: list[str] = page.eval_on_selector_all(f"{select} option", "options => options.map(o => o.value)")
    return values


def store(page: Any, created: dict[str, Any], seat: int | None) -> None:
    """Keeps ``created`` as the lobby does (``seat``: this browser's own; None: every seat, as before)."""
    page.evaluate("async ([created, seat]) => (await import('/static/js/common.js')).storeGame(created, seat)",
                  [created, seat])


def token_of(link: str) -> str:
    found = re.search(r"token=([A-Za-z0-9_-]+)", link)
    assert found is not None, link
    return found.group(1)


def test_the_five_levels_are_offered_in_words_and_the_default_bot_is_the_middle_one(server: Server, page: Any) -> None:
    page.goto(server.url)
    assert page.input_value("#kind-1") == "level3"
    assert offered(page, "#kind-1") == ["human", *LEVEL_KINDS]
    for kind in LEVEL_KINDS:
        page.select_option("#kind-1", kind)
        sentence = page.inner_text("#kind-note-1")
        level = LEVELS[int(kind.removeprefix("level"))]
        assert sentence.startswith(f"Level {kind.removeprefix('level')} — ")
        # true to levels.py: levels 1 to 3 play for the score alone, 4 and 5 mind the tiles kept
        assert ("points" in sentence or "highest-scoring" in sentence) != level.by_equity
        assert ("tiles it keeps" in sentence and "never minding" not in sentence) == level.by_equity
        assert ("endgame" in sentence) == level.endgame
        assert ("misses" in sentence) == (level.find < 1 or level.joker < 1)


def test_the_raw_kinds_are_under_more_bot_kinds(server: Server, page: Any) -> None:
    page.goto(server.url)
    assert "greedy" not in offered(page, "#kind-1")
    page.click("#more-kinds summary")
    # the details' toggle event comes after the click, not within it: wait for the kinds it adds
    page.wait_for_function("() => document.querySelector('#kind-1 option[value=greedy]') !== null")
    assert sorted(offered(page, "#kind-1")) == sorted(["human", *PLAYER_KINDS])
    assert page.locator("#more-kinds-list dt").all_inner_texts() == [
        kind for kind in PLAYER_KINDS if kind not in LEVEL_KINDS]
    page.select_option("#kind-1", "equity")
    page.click("#more-kinds summary")   # closed: the seat keeps its kind
    page.wait_for_function("() => document.querySelector('#kind-1 option[value=sim]') === null")
    assert page.input_value("#kind-1") == "equity"
    assert "sim" not in offered(page, "#kind-1")


def test_the_think_time_is_asked_only_for_a_bot_that_thinks(server: Server, page: Any) -> None:
    page.goto(server.url)
    think = page.locator("#think")
    assert not think.is_visible()
    page.click("#more-kinds summary")
    for kind in PLAYER_KINDS:
        page.select_option("#kind-1", kind)
        assert think.is_visible() == (kind in SIM_KINDS), kind


def test_a_game_against_the_default_bot_is_made_with_level_3(server: Server, page: Any) -> None:
    page.goto(server.url)
    page.fill("#name-0", "Ann")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[^#]+#seat=0&token="))
    wait_turn(page)
    (game,) = stored(page)
    assert [seat["kind"] for seat in game["seats"]] == ["human", "level3"]
    assert server.view(game["id"], game["seats"][0]["token"])["kinds"] == ["human", "level3"]


def test_the_creator_keeps_only_their_own_seat_link(server: Server, page: Any) -> None:
    page.goto(server.url)
    page.select_option("#kind-1", "human")
    page.fill("#name-0", "Ann")
    page.fill("#name-1", "Bob")
    page.click("#create-button")
    page.wait_for_selector("#created:not(.hidden)")
    assert "not kept" in page.inner_text("#created")
    shared = page.eval_on_selector_all("#share-links input", "inputs => inputs.map(i => i.value)")
    assert len(shared) == 1 and "#seat=1&token=" in shared[0]
    own = page.get_attribute("#own-link", "href") or ""
    assert "#seat=0&token=" in own
    assert stored_tokens(page) == [token_of(own)]
    saved = page.evaluate(f"localStorage.getItem('{STORE}')")
    assert token_of(shared[0]) not in saved and "hotseat" not in json.dumps([g["hotseat_url"] for g in stored(page)])
    game_id = stored(page)[0]["id"]
    assert server.view(game_id, token_of(shared[0]))["names"] == ["Ann", "Bob"]


def test_the_crazy_rummy_lobby_names_each_seat_and_gives_each_person_a_link(server: Server, page: Any) -> None:
    page.goto(server.url)
    page.select_option("#crazy-seat-1", "human")
    for seat, name in enumerate(["Ann", "Bob", "Ada"]):
        page.fill(f"#crazy-name-{seat}", name)
    page.click("#crazy-create-button")
    page.wait_for_selector("#created:not(.hidden)")
    shared = page.eval_on_selector_all("#share-links input", "inputs => inputs.map(i => i.value)")
    assert len(shared) == 1 and "#seat=1&token=" in shared[0]
    own = page.get_attribute("#own-link", "href") or ""
    assert stored_tokens(page) == [token_of(own)]
    (game,) = stored(page)
    assert server.view(game["id"], token_of(shared[0]))["names"] == ["Ann", "Bob", "Ada"]
    page.goto(server.url.rstrip("/") + own)
    page.wait_for_selector("#hand .tile")


def test_the_game_created_card_is_brought_into_view_and_focused(server: Server, page: Any) -> None:
    page.goto(server.url)
    page.select_option("#crazy-seat-1", "human")
    page.click("#crazy-create-button")
    page.wait_for_selector("#created:not(.hidden)")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'created-title'")
    top = page.evaluate("document.getElementById('created').getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"] / 2


def test_a_name_may_be_as_long_as_the_api_allows(server: Server, page: Any) -> None:
    page.goto(server.url)
    for field in ("#name-0", "#name-1", "#crazy-name-0"):
        assert page.eval_on_selector(field, "input => input.maxLength") == MAX_NAME
    longest = "Annabel " * (MAX_NAME // 8) + "X" * (MAX_NAME % 8)
    page.fill("#name-0", longest)
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[^#]+#seat=0&token="))
    assert stored(page)[0]["seats"][0]["name"] == longest.strip()


def test_the_list_shows_each_games_state(server: Server, page: Any) -> None:
    page.goto(server.url)
    waiting = server.create(["human", "human"], seed=3, names=["Ann", "Bob"])
    mover = server.view(waiting["id"], waiting["seats"][0]["token"])["to_move"]
    mine = server.create(["human", "human"], seed=4, names=["Cy", "Di"])
    mine_mover = server.view(mine["id"], mine["seats"][0]["token"])["to_move"]
    over = server.create(["human", "human"], seed=5, names=["Ed", "Flo"])
    with httpx.Client(base_url=server.url, timeout=WAIT_MS / 1000) as client:
        play_to_end(client, over["id"], [seat["token"] for seat in over["seats"]])
    gone = {**over, "id": "no-such-game"}
    store(page, waiting, 1 - mover)
    store(page, mine, mine_mover)
    store(page, over, 0)
    store(page, gone, 0)
    page.reload()
    expected = {waiting["id"]: f"waiting for {waiting['seats'][mover]['name']}", mine["id"]: "your turn",
                over["id"]: "finished", "no-such-game": "no longer on this server"}
    for game_id, words in expected.items():
        state = page.locator(f'#games li[data-game="{game_id}"] .game-state')
        page.wait_for_function("([element, words]) => element.textContent === words",
                               arg=[state.element_handle(), words])


def test_a_game_kept_with_every_link_before_still_lists_them_with_its_state(server: Server, page: Any) -> None:
    page.goto(server.url)
    created = server.create(["human", "human"], seed=6, names=["Ann", "Bob"])
    store(page, created, None)
    page.reload()
    item = page.locator(f'#games li[data-game="{created["id"]}"]')
    assert item.locator("a").all_inner_texts() == ["as Ann", "as Bob", "hot-seat"]
    page.wait_for_function("element => element.textContent === 'your turn'",
                           arg=item.locator(".game-state").element_handle())


def test_the_list_asks_once_for_each_of_the_newest_games_only(server: Server, page: Any) -> None:
    page.goto(server.url)
    created = server.create(["human", "greedy"], seed=7)
    ids = [f"old-game-{number}" for number in range(STATUS_LIMIT + 5)]
    for game_id in ids:     # the newest is kept first
        store(page, {**created, "id": game_id}, 0)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.rsplit("/", 1)[1])
            if "/api/games/" in request.url else None)
    page.reload()
    newest = list(reversed(ids))[:STATUS_LIMIT]
    last = page.locator(f'#games li[data-game="{newest[-1]}"] .game-state')
    page.wait_for_function("element => element.textContent !== ''", arg=last.element_handle())
    assert asked == newest
