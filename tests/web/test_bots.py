"""Bots at the web table: every kind moves, in a worker thread, on its seat's own view of the turn."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ginnyo.game import View
from ginnyo.web.games.ginnyo import Table
from web_helpers import act, best_action, client_of, create, wait_for

BOT_KINDS = ["random", "greedy", "equity", "endgame", "sim", "sim-spread"]


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_every_bot_kind_moves(tmp_path: Path, kind: str) -> None:
    with client_of(tmp_path) as client:
        made = create(client, ["human", kind], seed=3, think=0.2)
        game, token = made["id"], made["seats"][0]["token"]
        for _ in range(3):
            seen = wait_for(client, game, token)
            assert act(client, game, token, best_action(seen), seen["version"]).status_code == 200
        seen = wait_for(client, game, token)
        assert [entry["seat"] for entry in seen["history"]].count(1) >= 3


def test_a_bot_decides_in_a_worker_thread_on_its_seats_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decisions: list[tuple[str, int, tuple[int, ...], tuple[int, ...]]] = []
    bot = Table.bot

    def watched(table: Table, seat: int) -> Any:
        player = bot(table, seat)
        choose = player.choose

        class Watched:
            name = player.name

            def choose(self, view: View) -> Any:
                assert isinstance(view, View)
                decisions.append((threading.current_thread().name, view.player, view.rack,
                                  tuple(sorted(table.game.racks[seat]))))
                return choose(view)
        return Watched()

    monkeypatch.setattr(Table, "bot", watched)
    with client_of(tmp_path) as client:
        made = create(client, ["human", "greedy", "greedy"], seed=3)
        game, token = made["id"], made["seats"][0]["token"]
        for _ in range(2):
            seen = wait_for(client, game, token)
            assert act(client, game, token, best_action(seen), seen["version"]).status_code == 200
        wait_for(client, game, token)
    assert len(decisions) >= 4
    for thread, player, rack, held in decisions:
        assert thread.startswith("ginnyo-bot")
        assert player in (1, 2) and rack == held


def test_a_game_of_bots_alone_plays_to_its_end(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        made = create(client, ["greedy", "random"], seed=9)
        table: Table = client.app.state.tables.tables[made["id"]]   # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while not table.game.over:
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
        with table.lock:   # the end is stored before the lock is let go
            assert client.app.state.tables.store.games()[0].status == "finished"   # type: ignore[attr-defined]


def test_a_sim_bot_thinks_for_the_games_think_time(tmp_path: Path) -> None:
    from ginnyo.players.players import THINK_ROLLOUTS
    with client_of(tmp_path) as client:
        made = create(client, ["human", "sim", "sim-spread"], think=0.25)
        table: Table = client.app.state.tables.tables[made["id"]]   # type: ignore[attr-defined]
        for seat in (1, 2):
            player = table.bot(seat)
            assert getattr(player, "seconds") == 0.25 and getattr(player, "rollouts") == THINK_ROLLOUTS


def test_make_player_without_a_budget_keeps_the_sims_fixed_rollouts() -> None:
    from ginnyo.players import make_player
    from ginnyo.simulation.rollouts import DEFAULT_ROLLOUTS
    player = make_player("sim", 1, 0)
    assert getattr(player, "seconds") is None and getattr(player, "rollouts") == DEFAULT_ROLLOUTS


def test_a_bot_that_fails_stops_its_game_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        name = "broken"
        calls = 0

        def choose(self, view: View) -> Any:
            Broken.calls += 1
            raise ValueError("no idea")

    monkeypatch.setattr(Table, "bot", lambda table, seat: Broken())
    heard: list[str] = []
    from ginnyo.commands.serve import web_app
    from web_helpers import TestClient
    with TestClient(web_app(tmp_path, heard.append)) as client:
        made = create(client, ["greedy", "greedy"], seed=3)
        table: Table = client.app.state.tables.tables[made["id"]]
        deadline = time.monotonic() + 30
        while table.bot_failure is None or table.bot_running:   # the worker is done: it asks no more
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert table.version == 0
    assert Broken.calls == 1     # the server's workers have stopped: no second call came
    assert heard == [f"ginnyo: game {made['id']}: the greedy bot failed: ValueError: no idea"]
