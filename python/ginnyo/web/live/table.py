"""What the live table of every game kind shares (:class:`SeatTable`): its seats, the actions applied
(as stored), its credentials' hashes, its sockets and its bot's state; a game kind (web/games/) says
what its game is: who is to move, how an action is read and applied, what a seat sees, what a bot does."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ginnyo.errors import GinnyoError
from ginnyo.game.clock import ClockSettings, Mark
from ginnyo.game.events import Event, is_event_text

from ..store.rows import GINNYO, GameRow
from .feed import Subscriber

HUMAN = "human"


@dataclass(eq=False)
class SeatTable:
    """A live game of any kind: the seats, the actions applied (as stored), the tokens, the sockets and
    the bot's state.  Its methods raise the game's own errors (``GinnyoError``) or
    :class:`~ginnyo.errors.TableRefusal`; none knows HTTP."""

    game_kind: ClassVar[str] = GINNYO
    id: str
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    seed: int
    think: float
    actions: list[str] = field(default_factory=list)
    rematch: str | None = None
    watchable: bool = False            # open to watchers (docs/CLUB.md "Watching and chat")
    token_hashes: dict[str, int] = field(default_factory=dict)   # sha256 of a token -> its seat
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: set[Subscriber] = field(default_factory=set)
    subscribers_lock: threading.Lock = field(default_factory=threading.Lock)   # held for no I/O: the loop takes it
    seats_elsewhere: frozenset[int] = frozenset()   # seats with a socket open in another process (.peers)
    watchers_elsewhere: int = 0                     # watchers' sockets open in other processes (.peers)
    bot_running: bool = False
    bot_failure: str | None = None     # why the bot to move stopped, if it failed
    touched: float = field(default_factory=time.time)   # its last action, making or rebuilding (time.time())
    movers: list[int] = field(default_factory=list)      # the seat to move before each action applied
    clock: ClockSettings | None = None                   # its time control (ginnyo.game.clock), None: untimed
    started: float = 0.0                                 # when it was made (the clock's start)
    marks: list[Mark] = field(default_factory=list)      # each action as its clock sees it (a timed game's)

    @property
    def version(self) -> int:
        """The number of actions applied."""
        return len(self.actions)

    @property
    def over(self) -> bool:
        raise NotImplementedError

    @property
    def to_move(self) -> int:
        raise NotImplementedError

    def bot_to_move(self) -> bool:
        return not self.over and self.kinds[self.to_move] != HUMAN

    def record_given(self, seat: int) -> bool:
        """Whether ``seat`` may have the game's record now (the game's own view says)."""
        raise NotImplementedError

    def parse(self, value: object) -> Any:
        """The action of the seat to move that a request's ``action`` field names (GinnyoError if illegal,
        :class:`~ginnyo.errors.BadField` if it is no action of this game's shape)."""
        raise NotImplementedError

    def apply(self, action: Any) -> str:
        """Apply an action of the seat to move (an illegal one changes nothing); its text, as stored."""
        raise NotImplementedError

    def seen_part(self, action: Any) -> Any | None:
        """The part of a refused ``action`` that stands all the same, because taking it showed its seat
        what it was not to see otherwise (a card drawn from the stock); None for none."""
        return None

    def apply_event(self, event: Event) -> str:
        """Apply a resignation, timeout, overtime charge or abort (ginnyo.game.events); its text, as stored.
        A game kind without them refuses (GinnyoError)."""
        raise GinnyoError(f"this game has no {event.kind}")

    def overtime_charged(self, seat: int) -> int:
        """The overtime points ``seat`` has been charged so far."""
        return 0

    def ends_turn(self, text: str) -> bool:
        """Whether the stored action ``text`` ended its seat's turn (the clock's increment is earned by it)."""
        return not is_event_text(text)

    def has_moved(self, seat: int) -> bool:
        """Whether ``seat`` has taken a turn (an abort comes before one)."""
        return any(mover == seat for mover in self.movers)

    def fair_to_analyse(self, rated: Callable[[], bool]) -> bool:
        """Fair play: whether engine analysis of this game is allowed now -- once it is over, or while one
        person plays it against bots unrated (``rated``: asked only when it matters)."""
        return self.over or (self.kinds.count(HUMAN) < 2 and not rated())

    def bot_decision(self, seat: int) -> Callable[[], Any]:
        """What the bot of ``seat`` (to move) will do, worked out when called, outside the table's lock."""
        raise NotImplementedError

    def view(self, seat: int, rematch: dict[str, Any] | None) -> dict[str, Any]:
        """What ``seat`` sees, as the API answers it (the game kind's seam serialises its game's view);
        it reads and never writes."""
        raise NotImplementedError

    def watcher_view(self, rematch: dict[str, Any] | None) -> dict[str, Any]:
        """What a watcher sees (someone at the table who holds no cards or tiles), as the API answers it."""
        raise NotImplementedError

    def preview(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """A choice of the seat to move judged before it is made (the request's body)."""
        raise NotImplementedError

    def record(self) -> str:
        """The finished game's record, as its replay command reads it."""
        raise NotImplementedError

    def final_ranks(self) -> list[int] | None:
        """Each seat's rank (1 the best, equal results equal) in the finished game, as the club's ratings
        read it (docs/CLUB.md, "Ratings"); None for a game with no result (aborted), which is not rated."""
        raise NotImplementedError


Rebuild = Callable[[GameRow, list[str]], SeatTable]   # a stored game (its row, its actions) -> its live table


def row_of(table: SeatTable) -> GameRow:
    """The stored row of a table in play."""
    return GameRow(table.id, table.kinds, table.names, table.seed, table.think, "playing", None, table.rematch,
                   table.game_kind, table.started,
                   None if table.clock is None else (table.clock.initial, table.clock.increment), table.watchable)


__all__ = ["SeatTable", "Rebuild", "HUMAN", "row_of"]
