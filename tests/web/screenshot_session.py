"""What every screenshot script of the docs starts with: the directory named on its command line, a real
``ginnyo serve`` on a fresh data directory and Debian's chromium under Playwright, stopped at the end."""

from __future__ import annotations

import argparse
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from browser_table import CHROMIUM, Server


@contextmanager
def screenshot_session(doc: str) -> Iterator[tuple[Path, Server, Any]]:
    """``(out, server, browser)`` for a script whose docstring is ``doc`` (its first line: the ``--help``)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("out", type=Path, help="the directory to write the pictures into")
    out = parser.parse_args().out
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = Server(Path(data))
        try:
            yield out, server, playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        finally:
            server.stop()


__all__ = ["screenshot_session"]
