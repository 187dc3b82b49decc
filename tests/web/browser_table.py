"""Driving the web table for the browser tests and the screenshots: a real ``ginnyo serve``
subprocess, the JSON API from Python, and a person's turn played by clicking in the page."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ginnyo import Position, rack_code
from ginnyo.game import Game
from ginnyo.vocab.rules import tile_to_return
from ginnyo.vocab.tiles import JOKER

CHROMIUM = Path("/usr/bin/chromium")
START_TIMEOUT = 60.0   # seconds for `ginnyo serve` to print its address (a guard, not a measurement)
WAIT_MS = 30_000       # the longest a page may take to show what the test waits for (a guard)


def unavailable(reason: str) -> None:
    """Skip a browser test, or fail it when CI is set (the browser tests must run there)."""
    import pytest
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI is set: the browser tests must run")
    pytest.skip(reason)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium under Playwright's sync API."""
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install '.[test]')")
    # expect() waits 5 s unless told: a loaded CI machine may take longer, as for every other wait here
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


class Server:
    """``ginnyo serve --port PORT --data DATA`` in a subprocess; ``url`` ends with ``/``."""

    def __init__(self, data: Path, port: int = 0, options: tuple[str, ...] = ()) -> None:
        self.data = data
        self.port = port
        self.options = options          # more of serve's options
        self.url = ""
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        command = [sys.executable, "-m", "ginnyo", "serve", "--port", str(self.port), "--data", str(self.data), *self.options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], START_TIMEOUT)
        line = self.process.stdout.readline() if ready else ""
        if "serving on http://" not in line:
            self.stop()
            raise RuntimeError(f"ginnyo serve did not start: {line!r}")
        self.url = line.split("serving on ", 1)[1].split()[0]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to tidy up."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # -- the API, as another program would call it ----------------------------------
    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path.lstrip("/"), data=data, headers=headers, method=method)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def create(self, seats: list[str], seed: int, names: list[str] | None = None,
               clock: dict[str, int] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"seats": seats, "seed": seed}
        if names:
            body["names"] = names
        if clock:
            body["clock"] = clock
        created: dict[str, Any] = self.call("POST", "api/games", body)
        return created

    def view(self, game_id: str, token: str) -> dict[str, Any]:
        seen: dict[str, Any] = self.call("GET", f"api/games/{game_id}", token=token)
        return seen

    def page_url(self, created: dict[str, Any], seat: int = 0) -> str:
        return self.url.rstrip("/") + str(created["seats"][seat]["url"])


@dataclass
class Choice:
    """A person's action for a turn: the placements of a play, tiles to return, or a pass."""

    kind: str                       # "play" | "return" | "pass"
    placements: dict[str, str]      # square name -> board code (a joker as its lower-case identity)
    tiles: list[str]                # rack codes to return


def best_choice(view: dict[str, Any]) -> Choice:
    """What the greedy player would do in the seat's view: the best play, else return a tile, else pass."""
    position = Position.load(view["position"])
    best = position.best_play()
    if best is not None:
        name = position.layout.square_name
        return Choice("play", {name(square): tile.code for square, tile in best.play.placements}, [])
    if view["can_return"]:
        tile = tile_to_return(position.rack)
        assert tile is not None
        return Choice("return", {}, [rack_code(tile)])
    return Choice("pass", {}, [])


def joker_choice(view: dict[str, Any]) -> Choice | None:
    """The best legal play of the seat's view that places a joker, if any."""
    position = Position.load(view["position"])
    name = position.layout.square_name
    for scored in position.legal_plays:
        if any(tile.joker for _, tile in scored.play.placements):
            return Choice("play", {name(square): tile.code for square, tile in scored.play.placements}, [])
    return None


def joker_seed(start: int = 0) -> int:
    """The first seed from ``start`` whose 2-player deal lets seat 0 move first holding a joker
    and having a legal play that places it (the test's setup searches the Python API)."""
    for seed in range(start, start + 5000):
        game = Game.deal(2, seed)
        if game.to_move != 0:
            continue
        turn = game.begin_turn()
        if JOKER not in turn.rack:
            continue
        position = game.position(0)
        if any(any(tile.joker for _, tile in scored.play.placements) for scored in position.legal_plays):
            return seed
    raise LookupError("no seed with a playable joker for seat 0")


def is_joker_code(code: str) -> bool:
    return code[-1].islower()


def wait_turn(page: Any, after_version: int = -1) -> str:
    """Waits until the page shows a view newer than ``after_version`` in which it is this
    screen's turn or the game is over; returns "mine" or "over"."""
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v && ['mine', 'over'].includes(document.body.dataset.turn)",
        arg=after_version, timeout=WAIT_MS)
    return str(page.evaluate("document.body.dataset.turn"))


def page_version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def place_tiles(page: Any, placements: dict[str, str]) -> None:
    """Clicks each tile of ``placements`` on the rack, then its square; real tiles first, then
    jokers, whose identities are chosen from the offered list once all are down."""
    ordered = sorted(placements.items(), key=lambda item: is_joker_code(item[1]))
    for square, code in ordered:
        rack_code_ = "*" if is_joker_code(code) else code
        page.locator(f'#rack .slot:not(.used)[data-code="{rack_code_}"]').first.click()
        page.locator(f'[data-square="{square}"]').click()
    for square, code in ordered:
        if is_joker_code(code):
            page.wait_for_selector(f'#joker-title:has-text("Joker on {square}")', timeout=WAIT_MS)
            page.locator(f'#joker-options [data-identity="{code}"]').click(timeout=WAIT_MS)


def take_turn(page: Any, choice: Choice) -> None:
    """Plays ``choice`` through the page as a person would: clicks, then Play / Return / Pass."""
    if choice.kind == "play":
        place_tiles(page, choice.placements)
        page.wait_for_selector("#play:enabled", timeout=WAIT_MS)
        page.click("#play")
    elif choice.kind == "return":
        page.click("#return")
        for code in choice.tiles:
            page.locator(f'#rack .slot:not(.picked)[data-code="{code}"]').first.click()
        page.click("#return-confirm")
    else:
        page.click("#pass")


def play_turns(page: Any, server: Server, game_id: str, token: str, turns: int | None = None) -> str:
    """Plays this seat's turns through the page (``turns`` of them, or to the end) and
    returns the page's last state, "mine" or "over"."""
    state = wait_turn(page)
    played = 0
    while state == "mine" and (turns is None or played < turns):
        version = page_version(page)
        take_turn(page, best_choice(server.view(game_id, token)))
        state = wait_turn(page, version)
        played += 1
    return state


__all__ = ["CHROMIUM", "Server", "Choice", "best_choice", "joker_choice", "joker_seed", "wait_turn",
           "page_version", "place_tiles", "take_turn", "play_turns", "WAIT_MS"]
