"""One scheduler for every game's clock: a thread that sleeps until the earliest deadline armed and
calls ``fire(game_id)`` when it is due (the registry then ends the seat's time, if the game still says
so).  Deadlines are read from ``now`` (``time.time`` or a test's clock), and the thread looks again
at least every :data:`LOOK_AGAIN` seconds, so a clock moved by hand is noticed."""

from __future__ import annotations

import heapq
import threading
import time
from typing import Callable

LOOK_AGAIN = 1.0   # seconds the thread sleeps at most between looks


class Timers:
    """Deadlines by game, at most one a game (so at most as many as the games in memory)."""

    def __init__(self, fire: Callable[[str], None], now: Callable[[], float] = time.time) -> None:
        self._fire = fire
        self._now = now
        self._due: dict[str, float] = {}              # game -> its deadline
        self._heap: list[tuple[float, str]] = []      # (deadline, game), stale entries skipped
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def arm(self, game_id: str, when: float | None) -> None:
        """Call ``fire(game_id)`` at ``when`` (replacing the game's deadline); None: none."""
        with self._wake:
            if when is None:
                self._due.pop(game_id, None)
                return
            self._due[game_id] = when
            heapq.heappush(self._heap, (when, game_id))
            if len(self._heap) > 4 * len(self._due) + 64:   # drop the stale entries
                self._heap = [(at, game) for game, at in self._due.items()]
                heapq.heapify(self._heap)
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._run, name="ginnyo-clocks", daemon=True)
                self._thread.start()
            self._wake.notify()

    def wake(self) -> None:
        """Look at the deadlines now (a test's clock was moved)."""
        with self._wake:
            self._wake.notify()

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._closed:
                    return
                due = self._take_due()
                if not due:
                    wait = LOOK_AGAIN if not self._heap else min(LOOK_AGAIN, self._heap[0][0] - self._now())
                    self._wake.wait(max(0.0, wait))
                    continue
            for game_id in due:
                self._fire(game_id)

    def _take_due(self) -> list[str]:
        now, due = self._now(), []
        while self._heap and self._heap[0][0] <= now:
            when, game_id = heapq.heappop(self._heap)
            if self._due.get(game_id) == when:
                del self._due[game_id]
                due.append(game_id)
        return due


__all__ = ["Timers", "LOOK_AGAIN"]
