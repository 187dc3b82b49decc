"""The clocks of the live timed games (docs/RULES.md "Timed play"): each seat's time as the views give it,
the overtime a turn is charged, and the timer of the seat to move, which ends its game on time.

A clock is worked out from the game's stored actions (:mod:`ginnyo.game.clock`), never kept ticking; one
:class:`~.timers.Timers` thread wakes at the earliest deadline of every game in memory.
"""

from __future__ import annotations

from typing import Any, Callable

from ...game.clock import ClockSettings, Mark, deadline, lost_on_time, overtime_points, remaining
from ...game.events import OVERTIME, TIMEOUT, Event
from .table import SeatTable
from .timers import Timers


class Timekeeper:
    """The clocks of every timed game: ``now`` is the clocks' time (a test's own clock); when a seat to move
    runs out, ``commit(table, event)`` stores its loss on time (under the table's lock), ``find(game_id)`` is
    the game in memory, ``hold(game_id)`` whether this process does its timed work (:mod:`.leases`),
    ``schedule(table)`` sets its bot going and ``warn`` hears of a loss on time not stored."""

    def __init__(self, now: Callable[[], float], commit: Callable[[SeatTable, Any], None],
                 find: Callable[[str], SeatTable | None], hold: Callable[[str], bool],
                 schedule: Callable[[SeatTable], None], warn: Callable[[str], None]) -> None:
        self.now = now
        self.timers = Timers(self._time_up, now)           # every timed game's deadline
        self._commit, self._find, self._hold, self._schedule, self._warn = commit, find, hold, schedule, warn

    def close(self) -> None:
        self.timers.close()

    def clocks(self, table: SeatTable) -> list[dict[str, Any]] | None:
        """Each seat's clock as the view gives it (docs/WEB.md), None for an untimed game."""
        if table.clock is None:
            return None
        running = None if table.over else table.to_move
        return [{"seat": seat, "remaining": round(left, 1), "running": seat == running,
                 "overtime_penalty": max(table.overtime_charged(seat), overtime_points(left))}
                for seat, left in enumerate(self.seconds_left(table, self.now()))]

    def seconds_left(self, table: SeatTable, now: float) -> list[float]:
        assert table.clock is not None
        return remaining(table.clock, len(table.kinds), table.started, table.marks,
                         None if table.over else table.to_move, now)

    def overtime_owed(self, table: SeatTable, at: float) -> Event | None:
        """The overtime charge (an event) the seat to move of a timed game owes before its turn made at
        ``at`` is stored (RULES "Timed play"), None when it owes none."""
        mover = table.to_move
        owed = overtime_points(self.seconds_left(table, at)[mover]) - table.overtime_charged(mover)
        return Event(OVERTIME, mover, owed) if owed > 0 else None

    def wind(self, table: SeatTable, clock: tuple[int, int], actions: list[str], times: list[float]) -> None:
        """Set the clock of a rebuilt timed game: its time control and its stored ``actions``' marks."""
        table.clock = ClockSettings(*clock)
        table.marks = [Mark(mover, at, table.ends_turn(text)) for mover, at, text in zip(table.movers, times, actions)]

    def stored(self, table: SeatTable, mover: int, at: float, text: str) -> None:
        """Note an action of ``mover`` stored at ``at`` in a timed game's clock, and set its timer again."""
        table.marks.append(Mark(mover, at, table.ends_turn(text)))
        self.arm(table)

    def arm(self, table: SeatTable) -> None:
        """Set (or clear) the timer of the seat to move of a timed game."""
        if table.clock is None:
            return
        if table.over:
            self.timers.arm(table.id, None)
            return
        now = self.now()
        self.timers.arm(table.id, deadline(self.seconds_left(table, now)[table.to_move], now))

    def _time_up(self, game_id: str) -> None:
        """The timer of ``game_id`` fired: the seat to move, if it is now over its last minute, loses on time
        (stored, told to every socket); else the timer is set again."""
        table = self._find(game_id)
        if table is None or table.clock is None or not self._hold(game_id):
            return   # not held here, untimed, or another process's timed work (its lease: web/live/leases.py)
        try:
            with table.lock:
                if table.over:
                    return
                seat = table.to_move
                if lost_on_time(self.seconds_left(table, self.now())[seat]):
                    self._commit(table, Event(TIMEOUT, seat))
                else:
                    self.arm(table)
            self._schedule(table)
        except Exception as error:   # a store out of reach: said, and tried again on the next look
            self._warn(f"ginnyo: game {game_id}: the clock's timeout was not stored: {error}")


__all__ = ["Timekeeper"]
