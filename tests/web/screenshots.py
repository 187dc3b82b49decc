"""Screenshots of the web table for the docs: ``python tests/web/screenshots.py docs/`` writes
web-start.png, web-mid.png and web-end.png (a person against greedy, 1280x800, seed 3)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from browser_table import CHROMIUM, Server, best_choice, place_tiles, take_turn, wait_turn  # noqa: E402

SEED = 3
MID_TURNS = 6   # the person's turns played before the mid-game picture


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the directory to write the pictures into")
    out = parser.parse_args().out
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = Server(Path(data))
        try:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            created = server.create(["human", "greedy"], SEED, names=["Ann", "Greedy"])
            game_id, token = created["id"], created["seats"][0]["token"]
            page.goto(server.page_url(created))
            state = wait_turn(page)
            page.screenshot(path=str(out / "web-start.png"))
            turns = 0
            while state == "mine":
                version = int(page.evaluate("document.body.dataset.version"))
                choice = best_choice(server.view(game_id, token))
                turns += 1
                if turns == MID_TURNS and choice.kind == "play":
                    place_tiles(page, choice.placements)
                    page.wait_for_selector("#play:enabled")
                    page.screenshot(path=str(out / "web-mid.png"))
                    page.click("#play")
                else:
                    take_turn(page, choice)
                state = wait_turn(page, version)
            page.wait_for_selector("#end:not(.hidden)")
            page.screenshot(path=str(out / "web-end.png"))
            browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
