"""The web server under load (issue 27 §7; not a timed test): with 100 games in progress on a real
``ginnyo serve`` on loopback, and a client playing moves in them all the while, the latency of a
preview (legality and score by the core) and of an equity bot's move (a person's action posted until
the bot's answer arrives on the game's socket); the percentiles are printed, nothing is asserted of them.
The other client runs in a process of its own, as another person's browser would.

Run alone: ``python -m pytest bench/test_web.py -p no:cacheprovider -s``.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
import multiprocessing
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from conftest import FACTS
from ginnyo import Position

GAMES = 100
PREVIEWS = 1000
BOT_MOVES = 300
MEASURED = 40          # the games the latencies are measured in; a client moves in the other 60 meanwhile
#: how often the other games' client moves in each (seconds: 0, as fast as the server answers, which
#: no crowd of people does; 2, a move in each game every 2 s, 30 a second in all)
PACES = {0.0: "flat out", 2.0: "every 2 s"}
LINE = re.compile(r"serving on (http://127\.0\.0\.1:(\d+)/)")


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
    """The 100 games: each a person (played by this client) against the equity bot."""

    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.games: list[tuple[str, str]] = []
        for number in range(GAMES):
            made = client.post("/api/games", json={"seats": ["human", "equity"], "seed": 1000 + number}).json()
            self.games.append((made["id"], made["seats"][0]["token"]))

    def view(self, game: str, token: str) -> dict[str, Any]:
        return dict(self.client.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {token}"}).json())

    def wait_turn(self, game: str, token: str) -> dict[str, Any]:
        while True:
            seen = self.view(game, token)
            if seen["your_turn"] or seen["finished"]:
                return seen
            time.sleep(0.005)

    def act(self, game: str, token: str, seen: dict[str, Any]) -> None:
        self.client.post(f"/api/games/{game}/actions", headers={"Authorization": f"Bearer {token}"},
                         json={"action": _action(seen), "version": seen["version"]})


def _background(url: str, games: list[tuple[str, str]], stop: Any, pace: float) -> None:
    """Another client moving in the games all along, so the server is busy with them (in a
    process of its own: in this one it would hold the measuring client's GIL, and its waits
    would be counted as the server's): each game at most once every ``pace`` seconds (0: as
    fast as the server answers)."""
    with httpx.Client(base_url=url, timeout=60) as client:
        play = Games.__new__(Games)
        play.client, play.games = client, games
        while not stop.is_set():
            began = time.monotonic()
            for game, token in games:
                if stop.is_set():
                    return
                seen = play.view(game, token)
                if seen["your_turn"]:
                    play.act(game, token, seen)
            stop.wait(max(0.0, pace - (time.monotonic() - began)))


@pytest.mark.parametrize("pace", PACES, ids=list(PACES.values()))
def test_web_latency_with_100_games_in_progress(tmp_path: Path, capsys: Any, pace: float) -> None:
    server = subprocess.Popen([sys.executable, "-m", "ginnyo", "serve", "--port", "0", "--data", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        match = LINE.search(server.stdout.readline())
        assert match
        url = match.group(1).rstrip("/")
        with httpx.Client(base_url=url, timeout=60) as client:
            games = Games(client)
            measured, busy = games.games[:MEASURED], games.games[MEASURED:]
            spawn = multiprocessing.get_context("spawn")
            stop = spawn.Event()
            background = spawn.Process(target=_background, args=(url, busy, stop, pace), daemon=True)
            background.start()
            previews = _preview_latencies(games, measured)
            bot_moves = _bot_latencies(games, measured, url)
            stop.set()
            background.join(60)
            if background.is_alive():
                background.terminate()
            in_progress = sum(1 for game, token in games.games if not games.view(game, token)["finished"])
    finally:
        server.terminate()
        server.wait(60)
    rows = {"preview (HTTP round trip)": _percentiles(previews),
            "equity bot's move (action posted .. bot's view on the socket)": _percentiles(bot_moves)}
    with capsys.disabled():
        print(f"\nweb latency, {GAMES} games in progress ({in_progress} still at the end), the other "
              f"{GAMES - MEASURED} moved {PACES[pace]}, {len(previews)} previews, {len(bot_moves)} bot moves (ms)")
        for name, cut in rows.items():
            line = "  ".join(f"{key} {value:7.2f}" for key, value in cut.items())
            print(f"  {name:<64} {line}")
            FACTS[f"web, the other games moved {PACES[pace]}: {name}"] = line + " ms"


def _preview_latencies(games: Games, measured: list[tuple[str, str]]) -> list[float]:
    samples: list[float] = []
    while len(samples) < PREVIEWS:
        for game, token in measured:
            seen = games.wait_turn(game, token)
            if seen["finished"]:
                continue
            body = {"placements": _placements(seen)}
            started = time.perf_counter()
            answer = games.client.post(f"/api/games/{game}/preview", headers={"Authorization": f"Bearer {token}"},
                                       json=body)
            samples.append(time.perf_counter() - started)
            assert answer.status_code == 200, answer.text
            if len(samples) % 5 == 0:   # move on now and then, so the previews see many positions
                games.act(game, token, seen)
    return samples


def _bot_latencies(games: Games, measured: list[tuple[str, str]], url: str) -> list[float]:
    samples: list[float] = []
    socket_url = url.replace("http://", "ws://")
    while len(samples) < BOT_MOVES:
        active = 0
        for game, token in measured:
            seen = games.wait_turn(game, token)
            if seen["finished"]:
                continue
            active += 1
            with connect(f"{socket_url}/api/games/{game}/events?token={token}") as socket:
                json.loads(socket.recv(timeout=60))   # the view on connect
                started = time.perf_counter()
                games.act(game, token, seen)
                while True:
                    view = json.loads(socket.recv(timeout=60))["view"]
                    if view["finished"] or view["version"] >= seen["version"] + 2:
                        break
                samples.append(time.perf_counter() - started)
        if not active:
            break
    return samples
