"""An audit of hidden information at the web table: every answer and socket message a seat or a watcher
reads while a game is played is checked against what it must not read at that moment -- every other
seat's rack or hand, the next tiles or cards of the box or stock, the seed -- worked out from the server's
own state; and a refused Crazy Rummy turn may not tell a seat the stock's top card without its drawing it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from crazy_helpers import advisor_steps
from ginnyo.crazy.cards import card_code, cards_text
from ginnyo.vocab.tiles import rack_code
from ginnyo.web.games.crazy import CrazyTable
from ginnyo.web.games.ginnyo import Table
from web_helpers import TestClient, auth, bearer, best_action, client_of, create, view

SEED = 73_019_284_561_337   # long enough that its digits appear nowhere by chance
WATCHER = None


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_of(tmp_path) as client:
        yield client


def table_of(client: TestClient, game: str) -> Any:
    return client.app.state.tables.tables[game]   # type: ignore[attr-defined]


def crazy_secrets(table: CrazyTable, reader: int | None) -> list[str]:
    """What ``reader`` (a seat, or None: a watcher) must not read now: the other hands, the stock's next cards, the seed."""
    shown = table.match.shown
    hidden = [cards_text(sorted(hand)) for seat, hand in enumerate(shown.hands) if seat != reader and len(hand) >= 3]
    top = [card_code(card) for card in shown.stock[:4]]
    if len(top) == 4:
        hidden += [" ".join(top), json.dumps(top)]
    return [*hidden, str(table.seed)]


def ginnyo_secrets(table: Table, reader: int | None) -> list[str]:
    """What ``reader`` must not read now: the other racks, the box's next tiles, the seed."""
    game = table.game
    hidden = [" ".join(rack_code(tile) for tile in sorted(rack)) for seat, rack in enumerate(game.racks)
              if seat != reader and len(rack) >= 3]
    box = [rack_code(tile) for tile in reversed(game.box.tiles)]
    if len(box) >= 4:
        hidden += [" ".join(box[:4]), json.dumps(box[:4])]
    return [*hidden, str(table.seed)]


def assert_hides(text: str, secrets: list[str], where: str) -> None:
    for secret in secrets:
        assert secret not in text, f"{where}: {secret!r} leaked"


def next_view(socket: Any, version: int) -> str:
    """The socket's next view message of ``version`` (presence messages skipped), as text."""
    while True:
        text = socket.receive_text()
        message = json.loads(text)
        if message["type"] == "view" and message["view"]["version"] == version:
            return str(text)


# -- a refused turn after a draw from the stock ------------------------------------------------------

def test_a_refused_turn_after_a_stock_draw_keeps_the_draw(client: TestClient) -> None:
    """A seat that sends a draw from the stock with a meld naming a guessed card used to be refused in
    words that differed as the guess was the stock's top card or not, and nothing changed: it could
    learn that card and take the discard pile instead.  The draw now stands: the card is in its hand."""
    made = create(client, ["human", "human", "human"], seed=11, game="crazy")
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    table: CrazyTable = table_of(client, game)
    opener = tokens[table.to_move]
    assert client.post(f"/api/games/{game}/actions", headers=bearer(opener),
                       json={"action": {"discard": view(client, game, opener)["hand"].split()[-1]}}).status_code == 200
    token = tokens[table.to_move]
    top = card_code(table.match.round.stock[0])
    mates = [top[0] + suit for suit in "CDHS" if suit != top[1]][:2]   # a set with the top card: a meld's shape
    probe = client.post(f"/api/games/{game}/actions", headers=bearer(token),
                        json={"action": [{"draw": "stock"}, {"meld": [top, *mates]}]})
    assert probe.status_code == 422
    seen = view(client, game, token)
    assert seen["turn"]["drawn"] and seen["turn"]["draw"] == "stock" and seen["turn"]["card"] == top
    assert top in seen["hand"].split()
    again = client.post(f"/api/games/{game}/actions", headers=bearer(token),
                        json={"action": [{"draw": "stock"}, {"meld": mates}]})
    assert again.status_code == 422 and again.json()["code"] == "crazy-drawn-already"


def test_a_refused_draw_from_the_stock_alone_changes_nothing(client: TestClient) -> None:
    made = create(client, ["human", "human", "human"], seed=11, game="crazy")
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    table: CrazyTable = table_of(client, game)
    token = tokens[table.to_move]   # the round's opening turn: no draw at all
    before = view(client, game, token)
    answer = client.post(f"/api/games/{game}/actions", headers=bearer(token),
                         json={"action": [{"draw": "stock"}, {"discard": before["hand"].split()[0]}]})
    assert answer.status_code == 422 and view(client, game, token) == before


# -- Crazy Rummy: every seat, a watcher, every answer --------------------------------------------------

@pytest.mark.parametrize("seats", [3, 5])
def test_no_crazy_answer_or_message_holds_another_hand_or_the_stock(client: TestClient, seats: int) -> None:
    made = create(client, ["human"] * seats, seed=SEED, game="crazy", watchable=True)
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    table: CrazyTable = table_of(client, game)
    readers: list[int | None] = [*range(seats), WATCHER]
    sockets = {reader: client.websocket_connect(f"/api/games/{game}/events") for reader in readers}
    try:
        for reader, socket in sockets.items():
            socket.__enter__()
            socket.send_text(auth(tokens[reader]) if reader is not None else json.dumps({"type": "watch"}))

        def check_all(where: str) -> None:
            for reader in readers:
                secrets = crazy_secrets(table, reader)
                assert_hides(next_view(sockets[reader], table.version), secrets, f"{where}, socket of {reader}")
                headers = bearer(tokens[reader]) if reader is not None else {}
                for path in ("", "/record", "/review", "/analysis", "/chat"):
                    answer = client.get(f"/api/games/{game}{path}", headers=headers)
                    assert_hides(answer.text + str(answer.headers), secrets, f"{where}, GET {path} of {reader}")

        check_all("the deal")
        for _ in range(4 * seats):
            mover = table.to_move
            token = tokens[mover]
            hint = client.post(f"/api/games/{game}/preview", headers=bearer(token), json={"hint": True})
            assert_hides(hint.text, crazy_secrets(table, mover), "the hint")

            def step(action: dict[str, Any]) -> Any:
                answer = client.post(f"/api/games/{game}/actions", headers=bearer(token), json={"action": action})
                assert answer.status_code == 200, answer.text
                assert_hides(answer.text, crazy_secrets(table, mover), f"the answer to {action}")
                check_all(f"after {action}")
                options = client.post(f"/api/games/{game}/preview", headers=bearer(token),
                                      json={"cards": answer.json()["hand"].split()[:2], "onto": None})
                assert_hides(options.text, crazy_secrets(table, mover), "the options")
                return answer.json()

            for action in advisor_steps(view(client, game, token), lambda source: step({"draw": source})):
                step(action)
    finally:
        for socket in sockets.values():
            socket.__exit__(None, None, None)


# -- Ginny-O: a watcher, a clock, a rematch ----------------------------------------------------------

def test_no_ginnyo_answer_or_message_holds_another_rack_or_the_box_through_a_rematch(client: TestClient) -> None:
    made = create(client, ["human", "human", "human"], seed=SEED, watchable=True,
                  clock={"initial": 3600, "increment": 5})
    game, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    table: Table = table_of(client, game)
    readers: list[int | None] = [0, 1, 2, WATCHER]
    with client.websocket_connect(f"/api/games/{game}/events") as watcher_socket:
        watcher_socket.send_text(json.dumps({"type": "watch"}))
        while not table.over:
            mover = table.to_move
            for reader in readers:
                headers = bearer(tokens[reader]) if reader is not None else {}
                answer = client.get(f"/api/games/{game}", headers=headers)
                assert_hides(answer.text + str(answer.headers), ginnyo_secrets(table, reader), f"GET of {reader}")
            assert_hides(next_view(watcher_socket, table.version), ginnyo_secrets(table, WATCHER), "the watcher's socket")
            seen = view(client, game, tokens[mover])
            refused = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[mover]),
                                  json={"action": "H8 " + "".join(ginnyo_secrets(table, mover)[0].split()[:1])})
            assert_hides(refused.text, ginnyo_secrets(table, mover), "a refused play")
            moved = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[mover]),
                                json={"action": best_action(seen), "version": seen["version"]})
            assert moved.status_code == 200, moved.text
            if not table.over:
                assert_hides(moved.text, ginnyo_secrets(table, mover), "the answer to a move")
    rematch = client.post(f"/api/games/{game}/rematch", headers=bearer(tokens[0]))
    assert rematch.status_code == 201
    new_id = rematch.json()["id"]
    new: Table = table_of(client, new_id)
    assert_hides(rematch.text, ginnyo_secrets(new, 0), "the rematch answer")
    new_tokens = [view(client, game, token)["rematch"]["token"] for token in tokens]
    for seat, token in enumerate(new_tokens):
        assert_hides(client.get(f"/api/games/{new_id}", headers=bearer(token)).text, ginnyo_secrets(new, seat),
                     f"the rematch's view of {seat}")
        old = client.get(f"/api/games/{game}", headers=bearer(tokens[seat]))
        assert_hides(old.text, ginnyo_secrets(new, seat), f"the old game's view of {seat}")
        record = client.get(f"/api/games/{game}/record", headers=bearer(tokens[seat]))
        assert record.status_code == 200 and str(new.seed) not in record.text
    assert_hides(client.get(f"/api/games/{new_id}").text, ginnyo_secrets(new, WATCHER), "the rematch's watcher")
