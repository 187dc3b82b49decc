"""Two people on one screen (the ``hotseat_url`` page) in a real browser (Playwright driving Debian's
chromium) against a real ``ginnyo serve``: after every move the cover hands the screen to the next
person, who sees their own rack and may move; a rematch goes on with both seats, Ginny-O and Crazy
Rummy alike, each seat's token in the new link the one its own view gives it."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

import httpx

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import WAIT_MS, Server, best_choice, take_turn
from crazy_helpers import advisor_steps
from web_helpers import play_to_end

MOVES = 10   # hot-seat moves clicked through the page (the tester saw the fault at every one)


def shown_rack(page: Any) -> list[str]:
    codes: list[str] = page.eval_on_selector_all("#rack .slot", "slots => slots.map(s => s.dataset.code)")
    return codes


def shown_history(page: Any) -> list[str]:
    """The scoresheet's turns as "Name: action — score" (the score left out when 0)."""
    lines: list[str] = page.eval_on_selector_all(
        "#history tbody tr", "rows => rows.map(r => { const score = Number(r.querySelector('.score').textContent);"
        " return `${r.querySelector('.who').textContent}: ${r.querySelector('.move').textContent}`"
        " + (score ? ` — ${score}` : ''); })")
    return lines


def to_move(server: Server, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The view of the seat to move (every seat here is a person on this screen)."""
    seen = server.view(game_id, next(iter(tokens.values())))
    return server.view(game_id, tokens[seen["to_move"]])


def hand_over(page: Any, server: Server, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Waits for the cover naming the seat to move, shows its rack, and checks the screen against
    that seat's own view: its rack, its history, its turn with the move buttons enabled; the view."""
    mover = to_move(server, game_id, tokens)
    seat = mover["seat"]
    page.wait_for_selector("#cover:not(.hidden)")
    assert page.inner_text("#cover-title") == f"Pass the device to {mover['names'][seat]}"
    assert page.locator("#rack .slot").count() == 0
    page.click("#cover-show")   # waits until the button is enabled: the seat's view has come
    page.wait_for_function(
        "([seat, version]) => document.body.dataset.seat === String(seat)"
        " && Number(document.body.dataset.version) === version && document.body.dataset.turn === 'mine'",
        arg=[seat, mover["version"]], timeout=WAIT_MS)
    assert shown_rack(page) == mover["position"]["rack"].split()
    names = mover["names"]
    assert shown_history(page) == [f"{names[entry['seat']]}: {entry['action']}"
                                   + (f" — {entry['score']}" if entry["score"] else "") for entry in mover["history"]]
    assert page.locator("#notation-send").is_enabled()
    assert page.locator("#return").is_enabled() == mover["can_return"]
    assert page.locator("#pass").is_enabled() == mover["can_pass"]
    return mover


def hotseat_tokens(url: str) -> dict[int, str]:
    """The seats and tokens of a ``#hotseat=0:T0,1:T1`` link."""
    fragment = unquote(url.split("#hotseat=", 1)[1])
    return {int(seat): token for seat, token in (part.split(":", 1) for part in fragment.split(","))}


def test_on_one_screen_each_person_in_turn_sees_their_own_rack_and_may_move(server: Server, page: Any) -> None:
    created = server.create(["human", "human"], seed=43, names=["Ann", "Bob"])
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    page.goto(server.url.rstrip("/") + created["hotseat_url"])
    movers = []
    for _ in range(MOVES):
        mover = hand_over(page, server, game_id, tokens)
        movers.append(mover["seat"])
        take_turn(page, best_choice(mover))
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=mover["version"])
    assert set(movers) == {0, 1}


def test_a_rematch_on_one_screen_goes_on_with_both_seats(server: Server, page: Any) -> None:
    created = server.create(["human", "human"], seed=44, names=["Ann", "Bob"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with httpx.Client(base_url=server.url, timeout=WAIT_MS / 1000) as client:
        play_to_end(client, game_id, tokens)
    page.goto(server.url.rstrip("/") + created["hotseat_url"])
    page.wait_for_selector("#end:not(.hidden)")
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/play/(?!" + re.escape(game_id) + r")[^#]+#hotseat="))
    places = [server.view(game_id, token)["rematch"] for token in tokens]
    again = places[0]["id"]
    assert page.url.endswith(f"/play/{again}#hotseat=0:{places[0]['token']},1:{places[1]['token']}")
    new_tokens = hotseat_tokens(page.url)
    movers = []
    for _ in range(2):
        mover = hand_over(page, server, again, new_tokens)
        movers.append(mover["seat"])
        take_turn(page, best_choice(mover))
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=mover["version"])
    assert sorted(movers) == [0, 1]


def play_crazy_to_end(client: httpx.Client, game_id: str, tokens: list[str]) -> None:
    """Every person's turn (seat ``i`` holds ``tokens[i]``) as the advisor plays it, through the API."""
    def post(token: str, action: Any) -> dict[str, Any]:
        answer = client.post(f"/api/games/{game_id}/actions", json={"action": action},
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        seen: dict[str, Any] = answer.json()
        return seen

    while True:
        seen = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        if seen["finished"]:
            return
        token = tokens[seen["to_move"]]
        seen = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
        for step in advisor_steps(seen, lambda source: post(token, {"draw": source})):
            post(token, step)


def test_a_crazy_rummy_rematch_on_one_screen_goes_on_with_every_seat(server: Server, page: Any) -> None:
    created: dict[str, Any] = server.call("POST", "api/games", {"game": "crazy", "seats": ["human", "human", "human"],
                                                                "seed": 6})
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with httpx.Client(base_url=server.url, timeout=WAIT_MS / 1000) as client:
        play_crazy_to_end(client, game_id, tokens)
    page.goto(server.url + created["hotseat_url"].lstrip("/"))
    page.wait_for_selector("#end:not(.hidden)")
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/play/(?!" + re.escape(game_id) + r")[^#]+#hotseat="))
    places = [server.call("GET", f"api/games/{game_id}", token=token)["rematch"] for token in tokens]
    again = places[0]["id"]
    assert page.url.endswith(f"/play/{again}#hotseat=" + ",".join(f"{seat}:{place['token']}"
                                                                  for seat, place in enumerate(places)))
    new_tokens = hotseat_tokens(page.url)
    seen = server.call("GET", f"api/games/{again}", token=new_tokens[0])
    mover = server.call("GET", f"api/games/{again}", token=new_tokens[seen["to_move"]])
    page.wait_for_function("([seat, version]) => document.body.dataset.seat === String(seat)"
                           " && Number(document.body.dataset.version) === version",
                           arg=[mover["seat"], mover["version"]], timeout=WAIT_MS)
    if page.locator("#cover").is_visible():   # the first seat to move is covered unless it is the first of the link
        page.click("#cover-show")
    page.wait_for_selector("#cover", state="hidden")
    assert page.eval_on_selector_all("#hand .tile", "tiles => tiles.map(t => t.dataset.code)") == mover["hand"].split()
