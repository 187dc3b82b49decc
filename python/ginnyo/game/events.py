"""What happens to a game outside a seat's turn (docs/RULES.md "Timed play (the project's rule)" and
"Resignation"): a seat resigns, runs out of time, is charged for overtime, or the game is aborted
before it began.

Each event has a text form, stored as a web game's action and read back by :func:`parse_event`:
``resign 1``, ``timeout 2``, ``overtime 0 20`` (seat, points) or ``abort 0``.  A record writes each
as an event line (docs/FORMAT.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidMoveError

RESIGN, TIMEOUT, OVERTIME, ABORT = "resign", "timeout", "overtime", "abort"
EVENT_KINDS = (RESIGN, TIMEOUT, OVERTIME, ABORT)


@dataclass(frozen=True)
class Event:
    """``kind`` (one of :data:`EVENT_KINDS`) happening to ``seat``; ``points``: overtime's charge."""

    kind: str
    seat: int
    points: int = 0

    def text(self) -> str:
        return f"{self.kind} {self.seat}" + (f" {self.points}" if self.kind == OVERTIME else "")


def is_event_text(text: str) -> bool:
    """Whether ``text`` is an event's (its first word an event's kind), not a turn's action."""
    return text.split(" ", 1)[0] in EVENT_KINDS


def parse_event(text: str) -> Event:
    """Read an event written by :meth:`Event.text`; InvalidMoveError if it is none."""
    words = text.split()
    count = 3 if words and words[0] == OVERTIME else 2
    if len(words) != count or words[0] not in EVENT_KINDS or not all(word.isdigit() for word in words[1:]):
        raise InvalidMoveError(f"event {text!r}: not 'resign SEAT', 'timeout SEAT', 'overtime SEAT POINTS' "
                               "or 'abort SEAT'")
    return Event(words[0], int(words[1]), int(words[2]) if count == 3 else 0)


__all__ = ["Event", "parse_event", "is_event_text", "EVENT_KINDS", "RESIGN", "TIMEOUT", "OVERTIME", "ABORT"]
