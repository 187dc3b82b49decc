"""A stored game's row read back: :class:`GameRow` (what deals a game), the ``games`` columns it is read
from, and the readers that leave out a row that does not read (a file changed by hand), naming why."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol, Sequence

GINNYO = "ginny-o"                # the game kinds: Ginny-O ...
CRAZY = "crazy"                   # ... and Crazy Rummy (docs/RULES.md §7)
MAX_SEED = 2 ** 63                # seeds are 0 .. 2**63 - 1 (SQLite's INTEGER)



@dataclass(frozen=True)
class GameRow:
    """A game as stored: what deals it (its actions are read apart)."""

    id: str
    seats: tuple[str, ...]
    names: tuple[str, ...]
    seed: int
    think: float
    status: str
    rematch_of: str | None
    rematch: str | None
    game: str = GINNYO
    created: float = field(default=0.0, compare=False)   # when it was made (time.time()); the store's when 0
    clock: tuple[int, int] | None = None  # (initial, increment) seconds, None: untimed
    watchable: bool = False   # open to watchers (docs/CLUB.md "Watching and chat")


class StoredGames(Protocol):
    """What rebuilding a live game reads of the store (:class:`ginnyo.web.store.Store` is one): the
    registry's games in memory and their catch-up are handed the store and need no more of it."""

    def game(self, game: str) -> GameRow | None: ...

    def actions(self, game: str) -> list[str]: ...

    def action_times(self, game: str) -> list[float]: ...

    def tokens(self, game: str | None = None,
               left_out: Callable[[str, str], None] | None = None) -> list[tuple[str, str, int]]: ...


def rows_read(rows: Sequence[Any], read: Callable[[Any], Any],
               left_out: Callable[[str, str], None] | None) -> Iterator[Any]:
    """Each row as ``read`` makes it; one that does not read told to ``left_out`` (its game, why) and
    skipped, or its ValueError raised when there is no ``left_out``."""
    for row in rows:
        try:
            yield read(row)
        except ValueError as error:
            if left_out is None:
                raise
            left_out(str(row[0] if read is game_row else row[1]), str(error))


def game_row(row: tuple[Any, ...]) -> GameRow:
    """A ``games`` row (its ``ROW_COLUMNS``, ginnyo.web.store) as a :class:`GameRow`; ValueError naming the column
    that does not read."""
    id, seats, names, seed, think, status, rematch_of, rematch, game, created, initial, increment, watchable = row
    clock = None if initial is None and increment is None else (initial, increment)
    if clock is not None and not all(type(value) is int for value in clock):
        raise ValueError("its clock is not two whole numbers")
    read = GameRow(id, texts(seats, "seats"), texts(names, "names"), seed, think, status, rematch_of, rematch,
                   game, created if isinstance(created, (int, float)) else 0.0, clock, watchable in (1, True))
    kinds = {"id": (str,), "seed": (int,), "think": (int, float), "status": (str,), "rematch_of": (str, type(None)),
             "rematch": (str, type(None)), "game": (str,)}
    for column, types in kinds.items():
        if not isinstance(getattr(read, column), types):
            raise ValueError(f"its {column} is a {type(getattr(read, column)).__name__}")
    if len(read.names) != len(read.seats):
        raise ValueError(f"it has {len(read.seats)} seats but {len(read.names)} names")
    return read


def texts(value: object, column: str) -> tuple[str, ...]:
    """A column holding a JSON list of strings, as a tuple; ValueError naming the column."""
    try:
        texts = json.loads(value) if isinstance(value, (str, bytes)) else None
    except ValueError:
        raise ValueError(f"its {column} are not JSON") from None
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise ValueError(f"its {column} are not a JSON list of strings")
    return tuple(texts)


def token_row(row: tuple[Any, ...]) -> tuple[str, str, int]:
    """A ``tokens`` row as ``(hash, game, seat)``; ValueError if one of them is of the wrong type."""
    digest, game, seat = row
    if not (isinstance(digest, str) and isinstance(game, str) and type(seat) is int):
        raise ValueError("one of its seat tokens is not a (text, text, integer) row")
    return digest, game, seat


__all__ = ["GameRow", "StoredGames", "MAX_SEED", "GINNYO", "CRAZY", "rows_read", "game_row", "token_row", "texts"]
