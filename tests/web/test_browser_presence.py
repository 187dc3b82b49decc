"""The table's sign of who is connected (issue 42 item 2), in a real browser against a real
``ginnyo serve``: a dot a person's seat, connected while a socket of that seat is open, away after."""

from __future__ import annotations

from typing import Any

from websockets.sync.client import connect

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import Server
from web_helpers import auth


def presence(page: Any, seat: int) -> str:
    """The class of the seat's dot in the players' table ("" when it has none)."""
    return str(page.eval_on_selector(f"#players tr[data-seat='{seat}']",
                                     "row => (row.querySelector('.presence') || {className: ''}).className"))


def test_a_seats_dot_turns_connected_when_its_socket_opens_and_away_when_it_closes(server: Server, page: Any) -> None:
    created = server.create(["human", "human", "greedy"], seed=31, names=["Ann", "Bea", "Cy"])
    page.goto(server.page_url(created))
    page.wait_for_function("document.querySelector(\"#players tr[data-seat='1'] .presence.away\")")
    assert presence(page, 0) == "presence connected"
    assert presence(page, 2) == ""   # a bot is always there: no dot
    socket_url = server.url.replace("http://", "ws://") + f"api/games/{created['id']}/events"
    with connect(socket_url) as socket:
        socket.send(auth(created["seats"][1]["token"]))
        page.wait_for_function("document.querySelector(\"#players tr[data-seat='1'] .presence.connected\")")
        assert page.get_attribute("#players tr[data-seat='1'] .presence", "title") == "connected"
    page.wait_for_function("document.querySelector(\"#players tr[data-seat='1'] .presence.away\")")
    assert page.get_attribute("#players tr[data-seat='1'] .presence", "title") == "away"
