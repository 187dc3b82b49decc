"""The web server under load (issue 27 §7; not a timed test): with 100 games in progress on a real
``ginnyo serve`` on loopback (a game that ends replaced by a new one), and a client playing moves in
them all the while, the latency of a preview (legality and score by the core) and of an equity bot's
move (a person's action posted until the bot's answer arrives on the game's socket); the percentiles
are printed, nothing is asserted of them.  The other client runs in a process of its own, as another
person's browser would.  The clients are light, so that they take little of the 2 cores from the
server: keep-alive HTTP by the standard library, and one socket a game kept while it lasts, as the
page keeps it (the bot's answer on it starts the person's next turn, with no poll between moves).
The server commits with ``--sync normal`` (its default) at both paces, and with ``--sync full`` (an
fsync a move) at the slower one; a third test times the store's commit alone in both modes.

Run alone: ``python -m pytest bench/test_web.py -p no:cacheprovider -s``.
"""

from __future__ import annotations

import contextlib
import json
import re
import statistics
import subprocess
import sys
import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from conftest import FACTS
from web_client import Connection
from ginnyo import Position
from ginnyo.web.store import SYNC_MODES, GameRow, Store

GAMES = 100
PREVIEWS = 2000
BOT_MOVES = 1000
MEASURED = 40          # the games the latencies are measured in; a client moves in the other 60 meanwhile
#: how often the other games' client moves in each (seconds: 0, as fast as the server answers, which
#: no crowd of people does; 2, a move in each game every 2 s, 30 a second in all)
PACES = {0.0: "flat out", 2.0: "every 2 s"}
#: the runs: (the other games' pace, the server's --sync)
RUNS = [(0.0, "normal"), (2.0, "normal"), (2.0, "full")]
COMMITS = 300          # the store's commits timed in each sync mode, a millisecond apart
LINE = re.compile(r"serving on (http://127\.0\.0\.1:(\d+)/)")


def _cpu_times() -> list[int] | None:
    """The machine's CPU time so far by kind (/proc/stat's first line, in ticks), None where there is none."""
    try:
        with open("/proc/stat") as stat:
            return [int(ticks) for ticks in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def _stolen(before: list[int] | None, after: list[int] | None) -> str:
    """The share of the CPUs' time the host took from this machine between two readings (steal, the 8th field)."""
    if before is None or after is None or len(before) < 8:
        return "steal unknown"
    spent = [later - earlier for earlier, later in zip(before, after)]
    return f"the host took {100 * spent[7] / max(1, sum(spent[:8])):.0f}% of the CPUs' time (steal)"


def _percentiles(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {"p50": cuts[49] * 1e3, "p90": cuts[89] * 1e3, "p99": cuts[98] * 1e3, "max": max(samples) * 1e3}


def _action(seen: dict[str, Any]) -> str:
    """The person's move: the best play, else return a tile, else pass."""
    position = Position.from_dict(seen["position"])
    best = position.best_play()
    if best is not None:
        return position.notation(best)
    return f"return {seen['position']['rack'].split()[0]}" if seen["can_return"] else "pass"


def _placements(seen: dict[str, Any]) -> dict[str, str]:
    """A placement to preview: the best play's tiles, else the first rack tile on the centre."""
    position = Position.from_dict(seen["position"])
    best = position.best_play()
    name = position.layout.square_name
    if best is not None:
        return {name(square): tile.code for square, tile in best.play.placements}
    code = seen["position"]["rack"].split()[0]
    return {"H8": "*" if code == "*" else code}


class Games:
    """Games of a person (played by this client) against the equity bot; a game that ends is
    replaced by a new one, so that as many stay in progress."""

    def __init__(self, connection: Connection, count: int, first_seed: int) -> None:
        self.connection = connection
        self.next_seed = first_seed
        self.games = [self.new() for _ in range(count)]

    def new(self) -> tuple[str, str]:
        """A new game: its id and the person's token."""
        status, made = self.connection.call("POST", "/api/games",
                                            body={"seats": ["human", "equity"], "seed": self.next_seed})
        assert status == 201, made
        self.next_seed += 1
        return made["id"], made["seats"][0]["token"]

    def view(self, game: str, token: str) -> dict[str, Any]:
        status, seen = self.connection.call("GET", f"/api/games/{game}", token)
        assert status == 200, seen
        return dict(seen)

    def turn(self, slot: int) -> tuple[str, str, dict[str, Any]]:
        """The game of ``slot`` at the person's turn (waiting for the bot): its id, token and view."""
        while True:
            game, token = self.games[slot]
            seen = self.view(game, token)
            if seen["finished"]:
                self.games[slot] = self.new()
            elif seen["your_turn"]:
                return game, token, seen
            else:
                time.sleep(0.005)

    def act(self, game: str, token: str, seen: dict[str, Any], action: str | None = None) -> None:
        """Post the person's move (``action``, else the one :func:`_action` picks) in the view ``seen``."""
        body = {"action": _action(seen) if action is None else action, "version": seen["version"]}
        status, answer = self.connection.call("POST", f"/api/games/{game}/actions", token, body)
        assert status == 200, answer

    def in_progress(self) -> int:
        return sum(1 for game, token in self.games if not self.view(game, token)["finished"])


def _background(url: str, count: int, ready: Any, stop: Any, pace: float, result: Any) -> None:
    """Another client moving in ``count`` games of its own all along, so the server is busy
    with them (in a process of its own: in this one it would hold the measuring client's
    GIL, and its waits would be counted as the server's): each game at most once every
    ``pace`` seconds (0: as fast as the server answers), an ended one replaced by a new game.
    It puts on ``result`` how many of its games are in progress when it stops."""
    with contextlib.closing(Connection(url)) as connection:
        play = Games(connection, count, 100_000)
        ready.set()
        while not stop.is_set():
            began = time.monotonic()
            for slot, (game, token) in enumerate(play.games):
                if stop.is_set():
                    break
                seen = play.view(game, token)
                if seen["finished"]:
                    play.games[slot] = play.new()
                elif seen["your_turn"]:
                    play.act(game, token, seen)
            stop.wait(max(0.0, pace - (time.monotonic() - began)))
        result.put(play.in_progress())


@pytest.mark.parametrize(("pace", "sync"), RUNS, ids=[f"{PACES[pace]}, sync {sync}" for pace, sync in RUNS])
def test_web_latency_with_100_games_in_progress(tmp_path: Path, capsys: Any, pace: float, sync: str) -> None:
    began = _cpu_times()
    server = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(tmp_path),
                               "--sync", sync, "--games-per-minute", "0",   # its 100 games made at once
                               "--previews-per-minute", "0"],   # one address, as fast as the server answers
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        match = LINE.search(server.stdout.readline())
        assert match
        url = match.group(1).rstrip("/")
        with contextlib.closing(Connection(url)) as connection:
            spawn = multiprocessing.get_context("spawn")
            ready, stop, result = spawn.Event(), spawn.Event(), spawn.Queue()
            background = spawn.Process(target=_background, args=(url, GAMES - MEASURED, ready, stop, pace, result),
                                       daemon=True)
            background.start()
            games = Games(connection, MEASURED, 1000)
            assert ready.wait(120), "the other client made no games"
            previews = _preview_latencies(games)
            bot_moves = _bot_latencies(games, url)
            stop.set()
            in_progress = games.in_progress() + result.get(timeout=120)
            background.join(60)
            if background.is_alive():
                background.terminate()
    finally:
        server.terminate()
        server.wait(60)
    stolen = _stolen(began, _cpu_times())
    rows = {"preview (HTTP round trip)": _percentiles(previews),
            "equity bot's move (action posted .. bot's view on the socket)": _percentiles(bot_moves)}
    with capsys.disabled():
        print(f"\nweb latency, --sync {sync}, {GAMES} games in progress (an ended one replaced; {in_progress} at "
              f"the end), the other {GAMES - MEASURED} moved {PACES[pace]}, {len(previews)} previews, "
              f"{len(bot_moves)} bot moves (ms); {stolen}")
        for name, cut in rows.items():
            line = "  ".join(f"{key} {value:7.2f}" for key, value in cut.items())
            print(f"  {name:<64} {line}")
            FACTS[f"web, --sync {sync}, the other games moved {PACES[pace]}: {name}"] = f"{line} ms ({stolen})"


def test_store_commit_latency(tmp_path: Path, capsys: Any) -> None:
    """One action committed by the store (``Store.append_action``), a millisecond between commits, in each sync mode."""
    rows = {}
    for sync in SYNC_MODES:
        store = Store(tmp_path / sync, sync)
        store.create_game(GameRow("g", ("human", "greedy"), ("a", "b"), 1, 0.5, "playing", None, None), {})
        samples = []
        for number in range(1, COMMITS + 1):
            started = time.perf_counter()
            store.append_action("g", number, "pass", False)
            samples.append(time.perf_counter() - started)
            time.sleep(0.001)
        store.close()
        assert len(Store(tmp_path / sync).actions("g")) == COMMITS
        rows[sync] = _percentiles(samples)
    with capsys.disabled():
        print(f"\nthe store's commit of one action, {COMMITS} a millisecond apart (ms)")
        for sync, cut in rows.items():
            line = "  ".join(f"{key} {value:7.2f}" for key, value in cut.items())
            print(f"  --sync {sync:<8} {line}")
            FACTS[f"web, the store's commit, --sync {sync}"] = line + " ms"


def _preview_latencies(games: Games) -> list[float]:
    samples: list[float] = []
    while len(samples) < PREVIEWS:
        for slot in range(len(games.games)):
            game, token, seen = games.turn(slot)
            body = {"placements": _placements(seen)}
            started = time.perf_counter()
            status, answer = games.connection.call("POST", f"/api/games/{game}/preview", token, body)
            samples.append(time.perf_counter() - started)
            assert status == 200, answer
            if len(samples) % 5 == 0:   # move on now and then, so the previews see many positions
                games.act(game, token, seen)
    return samples


def _bot_latencies(games: Games, url: str) -> list[float]:
    """The person's action posted .. the bot's answer on the game's socket, each socket opened once
    and kept while its game lasts, as the page keeps it; the bot's view on it starts the next turn."""
    samples: list[float] = []
    sockets: dict[str, ClientConnection] = {}
    latest: dict[str, dict[str, Any]] = {}   # game -> the person's view the last bot answer on its socket gave
    socket_url = url.replace("http://", "ws://")
    with contextlib.ExitStack() as still_open:
        while len(samples) < BOT_MOVES:
            for slot in range(len(games.games)):
                game, token = games.games[slot]
                seen = latest.pop(game, None)
                if seen is None:
                    game, token, seen = games.turn(slot)
                if game not in sockets:
                    address = f"{socket_url}/api/games/{game}/events"
                    sockets[game] = still_open.enter_context(connect(address))
                    sockets[game].send(json.dumps({"type": "auth", "token": token}))
                    json.loads(sockets[game].recv(timeout=60))   # the view on connect
                socket = sockets[game]
                action = _action(seen)   # the person's choice is not the server's time
                started = time.perf_counter()
                games.act(game, token, seen, action)
                while True:
                    view = json.loads(socket.recv(timeout=60))["view"]
                    if view["finished"] or view["version"] >= seen["version"] + 2:
                        break
                samples.append(time.perf_counter() - started)
                if view["finished"]:
                    sockets.pop(game).close()
                elif view["your_turn"]:
                    latest[game] = view
    return samples
