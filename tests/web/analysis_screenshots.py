"""Makes docs/web-analysis.png and docs/web-review.png from a real ``ginnyo serve`` in Debian's
chromium: ``python tests/web/analysis_screenshots.py [DOCS_DIR]`` (the shipped mid-game example
analysed with a play shown and a simulation run; a selfplay record's review at a big loss)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analysis_helpers import EXAMPLES, selfplay_record  # noqa: E402
from browser_table import Server, chromium             # noqa: E402


def main(docs: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        record = selfplay_record(folder / "records", seed=2)
        server = Server(folder / "data")
        try:
            with chromium() as browser:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(server.url + "analysis")
                page.wait_for_selector("#by-score li")
                page.set_input_files("#file", str(EXAMPLES / "midgame.json"))
                page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Analysed')")
                page.fill("#sim-rollouts", "4096")
                page.click("#sim-start")
                page.wait_for_function("() => document.getElementById('sim-progress').dataset.state === 'done'")
                page.click("#by-score li:first-child button")
                page.screenshot(path=str(docs / "web-analysis.png"), full_page=True)
                page.goto(server.url + "review")
                page.set_input_files("#file", str(record))
                page.wait_for_function("() => document.getElementById('where').textContent.startsWith('Turn 1')")
                page.locator("#turns li.big-loss").nth(1).click()
                page.screenshot(path=str(docs / "web-review.png"), full_page=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "docs")
