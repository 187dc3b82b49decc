"""Screenshots of the web table in other languages and on a phone for the README:
``python tests/web/screenshots_languages.py docs/`` writes web-lobby-el.png (the lobby in Greek,
1280x800), web-table-pa.png (a table in Punjabi, a tile placed and its verdict, 1280x800) and
web-phone-table.png (a table of two people on a phone, each seat's connected sign); seed 5."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from browser_table import wait_turn  # noqa: E402
from screenshot_session import screenshot_session  # noqa: E402

SEED = 5
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
                         "device_scale_factor": 2}


def with_language(url: str, language: str) -> str:
    """A table's address with ``?lang=LANGUAGE`` before its fragment (the seat's token)."""
    address, _, fragment = url.partition("#")
    return f"{address}?lang={language}#{fragment}"


def main() -> int:
    with screenshot_session(__doc__ or "") as (out, server, browser):
        lobby = browser.new_context(**DESKTOP).new_page()
        lobby.goto(server.url + "?lang=el")
        lobby.wait_for_selector("#create")
        lobby.screenshot(path=str(out / "web-lobby-el.png"))

        created = server.create(["human", "greedy"], SEED, names=["ਅਮਰ", "Greedy"])
        table = browser.new_context(**DESKTOP).new_page()
        table.goto(with_language(server.page_url(created), "pa"))
        wait_turn(table)
        table.locator("#rack .slot").nth(0).click()
        table.locator('[data-square="H8"]').click()
        table.wait_for_selector("#preview.illegal, #preview.legal")
        table.screenshot(path=str(out / "web-table-pa.png"))

        pair = server.create(["human", "human"], SEED, names=["Ann", "Bea"])
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(server.page_url(pair))
        phone.wait_for_selector("#players tr[data-seat='1'] .presence.away")
        phone.screenshot(path=str(out / "web-phone-table.png"))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
