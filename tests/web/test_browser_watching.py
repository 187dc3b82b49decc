"""A watcher's table page in a real browser (Playwright driving Debian's chromium) against a real
``ginnyo serve``: the page opened with no seat in its URL watches a game open to watchers, shows no rack
and no move controls, and no websocket frame or API answer it receives holds a seat's rack; a chat
message is shown as text, never run or rendered as markup; a player's page shows how many watch."""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Iterator

import pytest

from browser_fixtures import browser, own_page, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import WAIT_MS, Server
from held_answers import hold_answers, let_through, wait_answered, wait_held
from web_helpers import best_action

SEED = 48_151_623_427
ATTACK = "<script>window.pwned = 1</script><b id=bold>bold</b><img src=x onerror=\"window.pwned = 2\">"


def watched_game(server: Server) -> dict[str, Any]:
    created: dict[str, Any] = server.call("POST", "api/games", {"seats": ["human", "greedy", "random"], "seed": SEED,
                                                                "watchable": True, "names": ["Ann", "greedy", "random"]})
    return created


def view_when(server: Server, game: str, token: str, ready: Callable[[dict[str, Any]], bool],
              what: str) -> dict[str, Any]:
    """The seat's view once ``ready`` says so (the bots move meanwhile), asked for as long as a page's wait."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not ready(seen := server.view(game, token)):
        assert time.monotonic() < deadline, f"not {what} within {WAIT_MS / 1000} s: version {seen['version']}"
        time.sleep(0.05)
    return seen


def recorded(page: Any) -> tuple[list[str], list[str]]:
    """Every websocket frame and every API answer's body the page receives, as they come."""
    frames: list[str] = []
    bodies: list[str] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))))
    page.on("response", lambda answer: bodies.append(answer.text()) if "/api/" in answer.url else None)
    return frames, bodies


def test_a_watchers_page_never_receives_a_rack(page: Any, server: Server) -> None:
    created = watched_game(server)
    game, token = created["id"], created["seats"][0]["token"]
    frames, bodies = recorded(page)
    page.goto(f"{server.url.rstrip('/')}/play/{game}")
    page.wait_for_selector("#watching:not(.hidden)")
    racks = []
    for _ in range(4):   # Ann moves; the bots answer; the watcher's page follows
        seen = view_when(server, game, token, lambda seen: seen["your_turn"] or seen["finished"], "Ann's turn")
        if seen["finished"]:
            break
        racks.append(seen["position"]["rack"])
        server.call("POST", f"api/games/{game}/actions", {"action": best_action(seen), "version": seen["version"]},
                    token=token)
        page.wait_for_function("version => Number(document.body.dataset.version) > version", arg=seen["version"])
    assert page.locator("#rack .slot").count() == 0
    assert not page.locator("#controls").is_visible() and not page.locator("#rematch").is_visible()
    views = [json.loads(frame)["view"] for frame in frames if json.loads(frame).get("type") == "view"]
    assert len(views) >= 4 and len(bodies) >= 2
    for text in [*frames, *bodies]:
        for rack in racks:
            assert rack not in text, f"a rack of seat 0 ({rack}) reached the watcher's page"
    for seen in views:
        assert seen["seat"] is None and seen["position"]["rack"] == ""


def test_a_chat_message_is_shown_as_text(page: Any, server: Server) -> None:
    created = watched_game(server)
    game, token = created["id"], created["seats"][0]["token"]
    page.goto(f"{server.url.rstrip('/')}/play/{game}")
    page.wait_for_selector("#chat-form")
    # a message is pushed to the sockets open when it is sent (the history read once, before): wait for the
    # page's socket, whose first view brings who is connected (the players' dots), before sending it
    page.wait_for_selector("#players .presence")
    server.call("POST", f"api/games/{game}/chat", {"text": ATTACK}, token=token)
    page.wait_for_selector("#chat-log li")
    assert page.inner_text("#chat-log li .chat-text") == ATTACK
    assert page.locator("#chat-log b, #chat-log img, #chat-log script, #bold").count() == 0
    assert page.evaluate("window.pwned") is None


def test_a_message_said_before_the_pages_socket_listened_is_shown(page: Any, server: Server) -> None:
    """The page reads the history once and then hears the socket: a message said between the two (or
    while the socket reconnects) is read again when the socket's first view comes."""
    created = watched_game(server)
    game, token = created["id"], created["seats"][0]["token"]
    held: list[Any] = []        # the page's socket, kept from the server until the message has been said
    said: list[Any] = []        # what the page sends on it meanwhile (its "watch")

    def hold(socket: Any) -> None:
        socket.on_message(lambda message: said.append(message))
        held.append(socket)

    page.route_web_socket("**/events", hold)
    with page.expect_response(lambda answer: answer.url.endswith(f"/api/games/{game}/chat")):
        page.goto(f"{server.url.rstrip('/')}/play/{game}")
    page.wait_for_function("() => document.getElementById('chat-log') !== null")
    server.call("POST", f"api/games/{game}/chat", {"text": "said before the page listened"}, token=token)
    page.wait_for_timeout(200)  # not a wait for anything: the page has nothing to hear yet
    assert page.locator("#chat-log li").count() == 0
    to_server = held[0].connect_to_server()
    for message in said:
        to_server.send(message)
    page.wait_for_selector("#chat-log li")
    assert page.inner_text("#chat-log li .chat-text") == "said before the page listened"


def test_a_players_page_shows_the_chat_and_writes_in_the_players_room(page: Any, server: Server) -> None:
    created = watched_game(server)
    page.goto(server.page_url(created))
    page.wait_for_selector("#chat-form")
    page.fill("#chat-text", "good luck")
    page.press("#chat-text", "Enter")
    page.wait_for_selector("#chat-log li[data-room=players]")
    assert page.inner_text("#chat-log li .chat-sender").startswith("Ann")
    messages = server.call("GET", f"api/games/{created['id']}/chat", token=created["seats"][0]["token"])["messages"]
    assert [message["text"] for message in messages] == ["good luck"]


def test_a_chat_line_typed_while_the_last_is_on_its_way_is_kept(page: Any, server: Server) -> None:
    hold_answers(page, "/chat", method="POST")
    created = watched_game(server)
    page.goto(server.page_url(created))
    page.wait_for_selector("#chat-form")
    page.fill("#chat-text", "good luck")
    page.press("#chat-text", "Enter")
    wait_held(page)
    page.fill("#chat-text", "and have fun")
    let_through(page)
    wait_answered(page)
    assert page.input_value("#chat-text") == "and have fun"
    assert page.inner_text("#chat-log li .chat-text") == "good luck"


def test_a_crazy_rummy_watchers_page_never_receives_a_hand(page: Any, server: Server) -> None:
    created: dict[str, Any] = server.call("POST", "api/games", {"game": "crazy", "seats": ["human", "advisor", "stock"],
                                                                "seed": SEED, "watchable": True})
    game, token = created["id"], created["seats"][0]["token"]
    frames, bodies = recorded(page)
    page.goto(f"{server.url.rstrip('/')}/play/{game}")
    page.wait_for_selector("#watching:not(.hidden)")
    page.wait_for_selector("#chat-form")
    # the bots play up to Ann's turn; her hand is dealt and drawn by then
    seen = view_when(server, game, token, lambda seen: seen["to_move"] == 0, "Ann's turn")
    page.wait_for_function("() => document.querySelectorAll('#history li').length > 0")
    # the page drew its first view from a GET; the socket's first view (counting this watcher) may come later
    page.wait_for_selector("#watchers:not(.hidden)")
    assert not page.locator("#hand-bar").is_visible() and not page.locator("#controls").is_visible()
    views = [json.loads(frame)["view"] for frame in frames if json.loads(frame).get("type") == "view"]
    assert views and bodies
    for text in [*frames, *bodies]:
        assert seen["hand"] not in text
    for watched in views:
        assert watched["seat"] is None and watched["hand"] == ""


@pytest.fixture
def watcher_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:   # noqa: F811 (the fixtures)
    yield from own_page(browser, viewport)


@pytest.mark.parametrize("game", ["ginny-o", "crazy"])
def test_a_players_page_shows_how_many_watch_as_they_come_and_go(page: Any, watcher_page: Any,
                                                                   server: Server, game: str) -> None:
    created: dict[str, Any] = server.call("POST", "api/games", {"game": game, "seats": ["human", "human", "human"],
                                                                "seed": SEED, "watchable": True})
    page.goto(server.page_url(created))
    page.wait_for_selector("#chat-form")
    assert not page.locator("#watchers").is_visible()
    watcher_page.goto(f"{server.url.rstrip('/')}/play/{created['id']}")
    page.wait_for_selector("#watchers:not(.hidden)")
    assert page.inner_text("#watchers") == "1 watcher"
    watcher_page.wait_for_selector("#watchers:not(.hidden)")   # the watcher counts itself
    watcher_page.goto("about:blank")
    page.wait_for_selector("#watchers.hidden", state="attached")
