"""Screenshots of the web table on a phone for the docs: ``python tests/web/screenshots_phone.py docs/``
writes web-phone.png (the board fitting the width, a tile placed and its verdict at the foot),
web-phone-zoomed.png (the board zoomed) and web-dark.png (dark mode, 1280x800); seed 5."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from browser_table import wait_turn  # noqa: E402
from screenshot_session import screenshot_session  # noqa: E402

SEED = 5
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 3}


def main() -> int:
    with screenshot_session(__doc__ or "") as (out, server, browser):
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
