"""Screenshots of the web table on a phone for the docs: ``python tests/web/screenshots_phone.py docs/``
writes web-phone.png (the board fitting the width, a tile placed and its verdict at the foot),
web-phone-zoomed.png (the board zoomed) and web-dark.png (dark mode, 1280x800); seed 5."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from browser_table import CHROMIUM, Server, wait_turn  # noqa: E402

SEED = 5
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 3}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the directory to write the pictures into")
    out = parser.parse_args().out
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = Server(Path(data))
        try:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = browser.new_context(**PHONE).new_page()
            created = server.create(["human", "greedy"], SEED, names=["Ann", "Greedy"])
            page.goto(server.page_url(created))
            wait_turn(page)
            page.locator("#rack .slot").nth(0).tap()
            page.locator('[data-square="H8"]').tap()
            page.wait_for_selector("#preview.illegal, #preview.legal")
            page.screenshot(path=str(out / "web-phone.png"))
            page.tap("#zoom")
            page.screenshot(path=str(out / "web-phone-zoomed.png"))
            dark = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark").new_page()
            dark.goto(server.page_url(created))
            wait_turn(dark)
            dark.screenshot(path=str(out / "web-dark.png"))
            browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
