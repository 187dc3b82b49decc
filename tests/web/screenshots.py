"""Screenshots of the web table for the docs: ``python tests/web/screenshots.py docs/`` writes
web-start.png, web-mid.png and web-end.png (a person against greedy, 1280x800, seed 3)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from browser_table import best_choice, place_tiles, take_turn, wait_turn  # noqa: E402
from screenshot_session import screenshot_session  # noqa: E402

SEED = 3
MID_TURNS = 6   # the person's turns played before the mid-game picture


def main() -> int:
    with screenshot_session(__doc__ or "") as (out, server, browser):
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
