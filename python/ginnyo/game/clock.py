"""The timed-play rule's arithmetic (docs/RULES.md "Timed play (the project's rule)"): each seat has
``initial`` seconds plus ``increment`` a turn; running over costs :data:`OVERTIME_POINTS` a started
minute, and a seat :data:`LOSS_AFTER` seconds over loses on time.

A clock is worked out from what is stored, never kept ticking: the game's start and, for each action,
the seat that was to move before it, when it was stored and whether it was a turn (an event --
a resignation, an overtime charge -- gives no increment).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

INITIAL_BOUNDS = (30, 7200)     # seconds a seat starts with: 30 s .. 2 h
INCREMENT_BOUNDS = (0, 60)      # seconds added a turn
OVERTIME_POINTS = 10            # points a started minute over costs
LOSS_AFTER = 600                # seconds over after which a seat loses on time


@dataclass(frozen=True)
class ClockSettings:
    """A game's time control."""

    initial: int
    increment: int

    def __post_init__(self) -> None:
        for name, value, (low, high) in (("initial", self.initial, INITIAL_BOUNDS),
                                         ("increment", self.increment, INCREMENT_BOUNDS)):
            if type(value) is not int or not low <= value <= high:
                raise ValueError(f"clock {name}: a whole number of seconds from {low} to {high}")


@dataclass(frozen=True)
class Mark:
    """One stored action, as the clock sees it."""

    mover: int        # the seat to move before it
    at: float         # when it was stored (time.time())
    turn: bool        # a turn (the mover earns the increment), not an event


def remaining(settings: ClockSettings, seats: int, start: float, marks: Sequence[Mark],
              running: int | None, now: float) -> list[float]:
    """Each seat's seconds left at ``now`` (negative: over); ``running``: the seat whose clock runs
    (None once the game is over)."""
    left = [float(settings.initial)] * seats
    since = start
    for mark in marks:
        left[mark.mover] -= max(0.0, mark.at - since)
        since = max(since, mark.at)
        if mark.turn:
            left[mark.mover] += settings.increment
    if running is not None:
        left[running] -= max(0.0, now - since)
    return left


def overtime_points(seconds_left: float) -> int:
    """The points a seat with ``seconds_left`` owes: :data:`OVERTIME_POINTS` a started minute over."""
    return 0 if seconds_left >= 0 else OVERTIME_POINTS * math.ceil(-seconds_left / 60)


def lost_on_time(seconds_left: float) -> bool:
    return seconds_left < -LOSS_AFTER


def deadline(seconds_left: float, now: float) -> float:
    """When a seat whose clock runs with ``seconds_left`` at ``now`` loses on time."""
    return now + seconds_left + LOSS_AFTER


__all__ = ["ClockSettings", "Mark", "remaining", "overtime_points", "lost_on_time", "deadline",
           "INITIAL_BOUNDS", "INCREMENT_BOUNDS", "OVERTIME_POINTS", "LOSS_AFTER"]
