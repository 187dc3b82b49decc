"""The table's clocks, Resign and Abort (docs/WEB.md "Clocks, resigning, aborting"), in a real
browser against a real ``ginnyo serve``: a clock a seat ticking down between views, none in an
untimed game, and the game ended through the buttons only once the dialog is confirmed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_fixtures import browser, page, server, viewport  # noqa: F401 (the fixtures)
from browser_table import WAIT_MS, Server, best_choice, take_turn, wait_turn
from ginnyo import Position, rack_code
from ginnyo.crazy.match import CrazyMatch
from ginnyo.game import Game
from ginnyo.game.events import TIMEOUT, Event
from ginnyo.web.store import Store
from ginnyo.vocab.rules import tile_to_return

CLOCK = {"initial": 600, "increment": 0}


def first_mover_seed(seat: int) -> int:
    """A seed whose 2-player deal has ``seat`` to move first."""
    return next(seed for seed in range(1000) if Game.deal(2, seed).to_move == seat)


def open_table(page: Any, server: Server, created: dict[str, Any], seat: int = 0) -> None:
    page.goto(server.page_url(created, seat))
    page.wait_for_selector("#players tr[data-seat]")


def wait_over(page: Any) -> None:
    page.wait_for_function("document.body.dataset.turn === 'over'", timeout=WAIT_MS)


def confirm(page: Any, opener: str) -> None:
    """Opens the ending's dialog with ``opener`` and checks the focus went into it."""
    page.click(opener)
    page.wait_for_selector("#end-confirm[open]")
    assert page.evaluate("document.getElementById('end-confirm').contains(document.activeElement)")


def test_a_timed_game_shows_a_clock_a_seat_and_the_running_one_ticks_down(page: Any, server: Server) -> None:
    created = server.create(["human", "human"], first_mover_seed(1), clock=CLOCK)
    open_table(page, server, created)
    clocks = page.locator("#players td.clock")
    clocks.first.wait_for()
    assert clocks.count() == 2
    running = page.locator("#players td.clock.running")
    assert running.count() == 1
    assert running.get_attribute("aria-live") == "off"
    assert page.locator('#players tr[data-seat="1"] td.clock').get_attribute("class").split().count("running") == 1
    start = float(running.get_attribute("data-seconds") or "nan")
    assert 0 < start <= CLOCK["initial"]
    # counted down in the page, with no new view: a bounded wait for two seconds to go by
    page.wait_for_function("start => Number(document.querySelector('#players td.clock.running').dataset.seconds) <= start - 2",
                           arg=start, timeout=WAIT_MS)
    idle = page.locator('#players tr[data-seat="0"] td.clock')
    assert float(idle.get_attribute("data-seconds") or "nan") == CLOCK["initial"]
    assert ":" in (running.text_content() or "")


def test_a_clock_under_thirty_seconds_is_marked_low(page: Any, server: Server) -> None:
    created = server.create(["human", "human"], first_mover_seed(0), clock={"initial": 30, "increment": 0})
    open_table(page, server, created)
    page.wait_for_selector("#players td.clock.running.low")
    assert page.locator('#players tr[data-seat="1"] td.clock.low').count() == 0   # still at its full 30 s


def test_an_untimed_game_shows_no_clock_where_a_timed_one_shows_them(page: Any, server: Server) -> None:
    untimed = server.create(["human", "human"], first_mover_seed(0))
    open_table(page, server, untimed)
    assert server.view(untimed["id"], untimed["seats"][0]["token"])["clocks"] is None
    assert page.locator("#players td.clock").count() == 0
    assert page.locator("#players th").count() == 4
    timed = server.create(["human", "human"], first_mover_seed(0), clock=CLOCK)
    open_table(page, server, timed)
    assert page.locator("#players td.clock").count() == 2
    assert page.locator("#players th").count() == 5


def test_resign_asks_first_and_cancel_leaves_the_game_running(page: Any, server: Server) -> None:
    created = server.create(["human", "human"], first_mover_seed(0), clock=CLOCK)
    game_id, token = created["id"], created["seats"][0]["token"]
    open_table(page, server, created)
    confirm(page, "#resign")
    page.keyboard.press("Escape")
    page.wait_for_function("!document.getElementById('end-confirm').open")
    assert page.evaluate("document.activeElement.id") == "resign"
    confirm(page, "#resign")
    page.click("#end-confirm-no")
    page.wait_for_function("!document.getElementById('end-confirm').open")
    assert not server.view(game_id, token)["finished"]
    assert page.evaluate("document.body.dataset.turn") == "mine"
    assert page.locator("#end").is_hidden()


def test_resign_through_the_button_ends_the_game(page: Any, server: Server) -> None:
    created = server.create(["human", "human"], first_mover_seed(0), clock=CLOCK)
    game_id, token = created["id"], created["seats"][0]["token"]
    open_table(page, server, created)
    confirm(page, "#resign")
    page.click("#end-confirm-yes")
    wait_over(page)
    page.wait_for_selector("#end:not(.hidden)")
    seen = server.view(game_id, token)
    assert seen["finished"] and not seen["result"]["aborted"]
    assert seen["result"]["ranking"][-1] == 0
    assert seen["result"]["reason"] == "player 0 resigned"
    assert f"{seen['names'][0]} resigned" in (page.text_content("#end-reason") or "")   # by name on the page
    assert page.locator("#resign").is_hidden() and page.locator("#abort").is_hidden()
    assert not any(clock["running"] for clock in seen["clocks"])


def test_abort_is_offered_before_the_seats_first_move_only(page: Any, server: Server) -> None:
    created = server.create(["human", "human"], first_mover_seed(0))
    game_id, token = created["id"], created["seats"][0]["token"]
    open_table(page, server, created)
    assert wait_turn(page) == "mine"
    page.wait_for_selector("#abort:not(.hidden)")
    take_turn(page, best_choice(server.view(game_id, token)))
    page.wait_for_selector("#abort.hidden", state="attached")
    assert page.locator("#resign").is_visible()

    fresh = server.create(["human", "human"], first_mover_seed(0))
    open_table(page, server, fresh)
    confirm(page, "#abort")
    page.click("#end-confirm-yes")
    wait_over(page)
    seen = server.view(fresh["id"], fresh["seats"][0]["token"])
    assert seen["finished"] and seen["result"]["aborted"] and not seen["result"]["winners"]


def api_turn(view: dict[str, Any]) -> str:
    """The seat's turn in the API's notation: a pass, or one tile returned (the table's rule picks it)."""
    if view["can_pass"]:
        return "pass"
    tile = tile_to_return(Position.load(view["position"]).rack)
    assert tile is not None
    return f"return {rack_code(tile)}"


def test_an_abort_refused_by_the_server_shows_its_line(page: Any, server: Server) -> None:
    created = server.create(["human", "human"], first_mover_seed(0))
    game_id, token = created["id"], created["seats"][0]["token"]
    open_table(page, server, created)
    page.wait_for_selector("#abort:not(.hidden)")
    confirm(page, "#abort")
    # the seat moves from another screen while the dialog is open: the server refuses the abort
    seen = server.view(game_id, token)
    server.call("POST", f"api/games/{game_id}/actions", {"action": api_turn(seen), "version": seen["version"]}, token=token)
    page.click("#end-confirm-yes")
    page.wait_for_selector("#status.error")
    assert "the seat has moved" in (page.text_content("#status") or "")
    assert not server.view(game_id, token)["finished"]
    page.wait_for_selector("#abort.hidden", state="attached")


def test_on_a_hot_seat_screen_resign_acts_for_the_seat_to_move(page: Any, server: Server) -> None:
    created = server.create(["human", "human"], first_mover_seed(1))
    seats = created["seats"]
    game_id = created["id"]
    page.goto(f"{server.url}play/{game_id}#hotseat=0:{seats[0]['token']},1:{seats[1]['token']}")
    page.click("#cover-show")   # the cover's button waits for the seat to move's view
    confirm(page, "#resign")
    page.click("#end-confirm-yes")
    page.wait_for_selector("#end:not(.hidden)")
    seen = server.view(game_id, seats[0]["token"])
    assert seen["finished"] and seen["result"]["ranking"][-1] == 1


def test_a_timed_crazy_rummy_table_shows_the_clocks_and_the_running_one_ticks_down(page: Any, server: Server) -> None:
    created = server.call("POST", "api/games", {"game": "crazy", "seats": ["human"] * 3, "seed": 5, "clock": CLOCK})
    mover = server.view(created["id"], created["seats"][0]["token"])["to_move"]
    page.goto(server.page_url(created, (mover + 1) % 3))   # a seat not to move: its clock stands still
    clocks = page.locator("#players td.clock")
    clocks.first.wait_for()
    assert clocks.count() == 3
    running = page.locator("#players td.clock.running")
    assert running.count() == 1
    assert page.locator(f'#players tr[data-seat="{mover}"] td.clock').get_attribute("class").split().count("running") == 1
    start = float(running.get_attribute("data-seconds") or "nan")
    assert 0 < start <= CLOCK["initial"]
    page.wait_for_function("start => Number(document.querySelector('#players td.clock.running').dataset.seconds) <= start - 2",
                           arg=start, timeout=WAIT_MS)
    idle = page.locator(f'#players tr[data-seat="{(mover + 1) % 3}"] td.clock')
    assert float(idle.get_attribute("data-seconds") or "nan") == CLOCK["initial"]


def test_a_crazy_rummy_seat_out_on_time_is_marked_beside_it_and_in_the_result(page: Any, tmp_path: Path) -> None:
    running = Server(tmp_path)
    try:
        created = running.call("POST", "api/games", {"game": "crazy", "seats": ["human"] * 3, "seed": 5,
                                                     "clock": CLOCK})
        game_id = created["id"]
        match = CrazyMatch(["human"] * 3, 5)
        running.stop()   # the server's timer would take ten minutes and more: the losses on time stored instead
        store = Store(tmp_path)
        out = []
        for number in (1, 2):
            out.append(match.to_move)
            match.apply_event(Event(TIMEOUT, match.to_move))
            store.append_action(game_id, number, f"timeout {out[-1]}", finished=match.over)
        store.close()
        running.start()
        left = next(seat for seat in range(3) if seat not in out)
        page.goto(running.page_url(created, left))
        page.wait_for_selector("#end:not(.hidden)")
        for seat in range(3):
            marked = page.locator(f'#players tr[data-seat="{seat}"] .out-on-time')
            assert marked.count() == (1 if seat in out else 0)
        assert page.locator(f'#players tr[data-seat="{out[0]}"] .out-on-time').text_content() == " (out on time)"
        names = running.view(game_id, created["seats"][left]["token"])["names"]
        assert page.text_content("#end-winners").endswith(
            f"Out on time, ranked last: {names[out[0]]}, {names[out[1]]}.")
    finally:
        running.stop()
