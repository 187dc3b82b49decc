"""Answers held in the page itself until the test lets them through: a slow network made exact, so that a
test decides what comes first (the socket's view or the answer, a line typed or the answer to the last)
instead of a timer a loaded machine may outrun.  A route handler cannot hold them: it would block
Playwright's sync loop."""

from __future__ import annotations

import json
from typing import Any

SCRIPT = """
(({ ending, method, holding }) => {
  const fetchNow = window.fetch.bind(window);
  window.holding = holding;   // whether answers are held now
  window.held = [];           // the held answers' releases
  window.answered = 0;        // the held answers the page has read (what it does with one runs before a timer)
  window.fetch = async (url, options) => {
    const answer = await fetchNow(url, options);
    if (!window.holding || !String(url).endsWith(ending) || (method && (options || {}).method !== method)) {
      return answer;
    }
    await new Promise((resolve) => window.held.push(resolve));
    const read = answer.text.bind(answer);
    answer.text = async () => {
      const body = await read();
      setTimeout(() => { window.answered += 1; }, 0);
      return body;
    };
    return answer;
  };
})(%s);
"""


def hold_answers(page: Any, ending: str, method: str | None = None, holding: bool = True) -> None:
    """From the page's next load, hold the answers to its requests whose URL ends with ``ending`` (of
    ``method`` only, if given); from the start, or once :func:`start_holding` is called (``holding`` False)."""
    page.add_init_script(SCRIPT % json.dumps({"ending": ending, "method": method, "holding": holding}))


def start_holding(page: Any) -> None:
    page.evaluate("window.holding = true")


def wait_held(page: Any, count: int = 1) -> None:
    """Waits until at least ``count`` answers are held."""
    page.wait_for_function(f"window.held.length >= {count}")


def let_through(page: Any, stop: bool = False) -> None:
    """Lets every held answer through to the page (``stop``: and holds no more)."""
    page.evaluate(f"{'window.holding = false; ' if stop else ''}window.held.splice(0).forEach((resolve) => resolve())")


def wait_answered(page: Any, count: int = 1) -> None:
    """Waits until the page has read at least ``count`` of the answers let through."""
    page.wait_for_function(f"window.answered >= {count}")


__all__ = ["hold_answers", "start_holding", "wait_held", "let_through", "wait_answered"]
