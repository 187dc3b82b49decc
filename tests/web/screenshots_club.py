"""Screenshots of the club for the docs: ``python tests/web/screenshots_club.py docs/`` writes
club-lobby.png (the lobby's Club section: a seek listed, two people online), club-table.png (a rated
game on a 5-minute clock, 5 s a move, against a level1 bot) and club-player.png (a player page after
two rated games, its rating chart); 1280x800."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))

from browser_table import WAIT_MS, Server, wait_turn  # noqa: E402
from screenshot_session import screenshot_session  # noqa: E402
from web_helpers import WAIT_SECONDS, play_to_end  # noqa: E402

PASSWORD = "correct horse battery"
CLOCK = {"initial": 300, "increment": 5}
BOT_SEEK = {"game": "ginnyo", "players": 2, "rated": True, "bots": ["level1"], "clock": CLOCK}
RATED_GAMES = 2   # the bot games played through the API before the player page's picture
VIEWPORT = {"width": 1280, "height": 800}


def account(server: Server, name: str) -> httpx.Client:
    """A new account's client: signed in by its session cookie, writing with our own ``Origin``."""
    origin = server.url.rstrip("/")
    client = httpx.Client(base_url=origin, headers={"Origin": origin}, timeout=30)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    if made.status_code != 201:
        raise RuntimeError(f"signing up {name}: {made.status_code} {made.text}")
    return client


def bot_game(client: httpx.Client) -> dict[str, Any]:
    """A rated seek against a level1 bot, started at once: its game and the maker's seat."""
    seek = client.post("/api/seeks", json=BOT_SEEK)
    if seek.status_code != 201:
        raise RuntimeError(f"making a seek: {seek.status_code} {seek.text}")
    started: dict[str, Any] = seek.json()
    return started


def rated(client: httpx.Client, name: str, games: int) -> None:
    """Wait until ``games`` games are in the player's history (they are rated in a worker thread)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while len(client.get(f"/api/players/{name}").json()["games"]) < games:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name}'s games were not rated within {WAIT_SECONDS} s")
        time.sleep(0.05)


def signed_in_page(browser: Any, server: Server, client: httpx.Client) -> Any:
    """A page of its own browser context carrying the account's session cookie."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_cookies([{"name": "ginnyo_session", "value": client.cookies["ginnyo_session"], "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def main() -> int:
    with screenshot_session(__doc__ or "") as (out, server, browser):
        ann, bob = account(server, "Ann"), account(server, "Bob")
        for played in range(1, RATED_GAMES + 1):
            started = bot_game(ann)
            play_to_end(ann, started["game_id"], [started["seat"]["token"]])
            rated(ann, "Ann", played)

        table = signed_in_page(browser, server, ann)
        timed = bot_game(ann)
        table.goto(server.url.rstrip("/") + timed["seat"]["url"])
        wait_turn(table)
        table.screenshot(path=str(out / "club-table.png"))

        seek = bob.post("/api/seeks", json={"game": "ginnyo", "players": 2, "rated": True, "clock": CLOCK})
        if seek.status_code != 201:
            raise RuntimeError(f"making a seek: {seek.status_code} {seek.text}")
        lobby, bobs_lobby = signed_in_page(browser, server, ann), signed_in_page(browser, server, bob)
        bobs_lobby.goto(server.url)
        lobby.goto(server.url)
        lobby.locator("#seeks li", has_text="Bob").wait_for()
        lobby.wait_for_function("document.getElementById('online-count').textContent === '2'")
        lobby.locator("#club-title").evaluate("title => title.scrollIntoView()")
        lobby.screenshot(path=str(out / "club-lobby.png"))

        player = signed_in_page(browser, server, bob)
        player.goto(server.url + "players/Ann")
        player.locator("#rating-chart circle").nth(RATED_GAMES - 1).wait_for()
        player.screenshot(path=str(out / "club-player.png"))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
