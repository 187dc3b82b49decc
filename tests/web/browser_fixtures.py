"""The browser tests' fixtures: Debian's chromium under Playwright and a real ``ginnyo serve`` on
a fresh data directory (one of each a module), and a page that fails its test on a script error.
A test module imports them (``from browser_fixtures import browser, page, server, viewport``: a
conftest.py here would share its module name with tests/conftest.py, which mypy refuses), or
defines its own ``viewport`` fixture for another window size."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from browser_table import WAIT_MS, Server, chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 800}


@pytest.fixture
def page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A fresh browser context's page (downloads accepted); its test fails if a script of it raised."""
    yield from own_page(browser, viewport)


def own_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A page in a browser context of its own (its own cookies; downloads accepted), failing the test that
    holds it if a script of it raised: for a fixture to yield from (another person's page, a watcher's)."""
    context = browser.new_context(viewport=viewport, accept_downloads=True)
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"


__all__ = ["browser", "server", "viewport", "page", "own_page"]
