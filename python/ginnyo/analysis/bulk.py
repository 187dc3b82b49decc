"""A .jsonl corpus of positions loaded in bulk: one pass in C (``ginnycore.parse``)
straight into the arrays the batch calls of the core take, with no
:class:`Position` object a position unless one is asked for.

A line the C reader does not take (a bad one, or one with game fields such as
``players``) is read by :meth:`Position.from_json`, so a bad line raises its
:class:`PositionError` prefixed with ``<where>:<line>:``.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Iterator, Mapping

import numpy as np
from ..native.core import EMPTY_SQUARE, RACK_KINDS
from ..native.parse import DONE, FULL, OTHER_LAYOUT, SLOW

from .. import native
from ..vocab.rules import default_players
from ..errors import PositionError
from ..support.files import MIB, PATH_CHARS, POSITION_BYTES, check_length, path_name, quote
from ..vocab.layout import Layout
from ..position.position import READER, Position
from ..vocab.tiles import PlacedTile

#: the positions a chunk of :func:`iter_jsonl` holds unless told
CHUNK_POSITIONS = 4096
#: how much of a file :func:`iter_jsonl` reads at a time
BLOCK_BYTES = 1 * MIB
_PLAYERS = (default_players(1), default_players(2))


@dataclass(frozen=True, eq=False)
class PositionArrays:
    """Positions of one layout as the core's batch calls take them, a row each.

    ``cards`` and ``jokers`` (uint8 ``[n, layout.size]``): the card on each
    square (``EMPTY_SQUARE`` where empty) and 1 where the tile is a joker;
    ``racks`` (uint8 ``[n, RACK_KINDS]``): rack tile counts; ``box_sizes``
    (int32 ``[n]``): the tiles left in the box (``position.game_context.box_size``);
    ``lines`` (int64 ``[n]``): the 1-based line each came from; ``sets`` (uint8
    ``[n]``): 1 or 2; ``contexts``: the game fields (players, scores...) of the
    rows that have any."""

    layout: Layout
    cards: np.ndarray
    jokers: np.ndarray
    racks: np.ndarray
    box_sizes: np.ndarray
    lines: np.ndarray
    sets: np.ndarray
    contexts: Mapping[int, dict[str, Any]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.lines)

    def position(self, i: int) -> Position:
        """Row ``i`` (negative counts from the end) as a :class:`Position`, equal
        to the one :meth:`Position.from_json` reads from its line, game fields included."""
        index = operator.index(i)
        n = len(self)
        if not -n <= index < n:
            raise ValueError(f"position {index}: there are {n} positions")
        index %= n
        cards, jokers = self.cards[index].tolist(), self.jokers[index].tolist()
        board = {square: PlacedTile(card, jokers[square] != 0)
                 for square, card in enumerate(cards) if card != EMPTY_SQUARE}
        rack = [tile for tile, count in enumerate(self.racks[index].tolist()) for _ in range(count)]
        return Position(self.layout, int(self.sets[index]), board, rack, self.contexts.get(index), validate=False)

    def states(self) -> np.ndarray:
        """int64 ``[n, 4]``: each row's game state as the equity ranking takes it
        (``LeaveState.as_tuple``, :func:`ginnyo.equity.leave_state`): the
        players, a meld down, the stall clock and its limit.  Rows without game
        fields take the defaults (computed on the arrays); the others are read
        from their position."""
        from ..equity.rank import leave_state
        from ..vocab.rules import quiet_turn_limit
        n = len(self)
        result = np.empty((n, 4), dtype=np.int64)
        opened = (self.cards != EMPTY_SQUARE).any(axis=1)
        for sets in (1, 2):
            players = default_players(sets)
            for is_open in (False, True):
                rows = (self.sets == sets) & (opened == is_open)
                result[rows] = (players, is_open, 0, quiet_turn_limit(players, is_open))
        for index in self.contexts:
            result[index] = leave_state(self.position(index)).as_tuple()
        return result


class _Rows:
    """Arrays of ``capacity`` rows for positions of ``layout``, filled from row 0;
    ``first`` is the line of the first position, whose layout they all share."""

    def __init__(self, layout: Layout, capacity: int, first: int) -> None:
        self.layout, self.first, self.row = layout, first, 0
        self.cards = np.empty((capacity, layout.size), dtype=np.uint8)
        self.jokers = np.empty((capacity, layout.size), dtype=np.uint8)
        self.racks = np.empty((capacity, RACK_KINDS), dtype=np.uint8)
        self.sets = np.empty(capacity, dtype=np.uint8)
        self.box_sizes = np.empty(capacity, dtype=np.int32)
        self.lines = np.empty(capacity, dtype=np.int64)
        self.contexts: dict[int, dict[str, Any]] = {}

    def arrays(self) -> PositionArrays:
        n = self.row
        return PositionArrays(self.layout, self.cards[:n], self.jokers[:n], self.racks[:n], self.box_sizes[:n],
                              self.lines[:n], self.sets[:n], self.contexts)

    def fill(self, data: bytes, offset: int, final: bool, line: int, where: str) -> tuple[int, int, int]:
        """Read the lines of ``data`` from ``offset`` (line ``line``) on into the
        rows: ``(status, offset, line)`` where it stopped (``DONE``, ``FULL`` or ``MORE``)."""
        while True:
            status, self.row, offset, line = READER.fill_jsonl(
                data, offset, final, self.layout, self.cards, self.jokers, self.racks, self.sets, self.box_sizes,
                self.lines, self.row, line, _PLAYERS)
            if status not in (SLOW, OTHER_LAYOUT):
                return status, offset, line
            end = data.find(b"\n", offset)
            end = len(data) if end < 0 else end
            self._add_checked(data[offset:end], line, where)
            offset, line = min(end + 1, len(data)), line + 1

    def _add_checked(self, text: bytes, line: int, where: str) -> None:
        """The position of line ``line``, read by :meth:`Position.from_json`, into the next row."""
        try:
            position = Position.from_json(text)
            box_size = position.game_context.box_size
        except PositionError as error:
            raise PositionError(f"{where}:{line}: {error}") from None
        if position.layout != self.layout:
            raise PositionError(f"{where}:{line}: field 'layout': not the layout of the first position "
                                f"(line {self.first}): a corpus holds positions of one layout")
        cards, jokers, rack = native.encode(position)
        row = self.row
        self.cards[row] = np.frombuffer(cards, dtype=np.uint8)
        self.jokers[row] = np.frombuffer(jokers, dtype=np.uint8)
        self.racks[row] = np.frombuffer(rack, dtype=np.uint8)
        self.sets[row], self.box_sizes[row], self.lines[row] = position.sets, box_size, line
        if position.context:
            self.contexts[row] = dict(position.context)
        self.row += 1


def _first_layout(data: bytes, offset: int, line: int, final: bool,
                  where: str) -> tuple[Layout | None, int, int]:
    """The layout of the first position of ``data`` from ``offset`` on, and where
    its line starts (its offset and number); None for the layout when there is
    none yet (only blank lines, or an unfinished one unless ``final``)."""
    while offset < len(data):
        end = data.find(b"\n", offset)
        if end < 0 and not final:
            return None, offset, line
        end = len(data) if end < 0 else end
        text = data[offset:end]
        if text.strip():
            try:
                return Position.from_json(text).layout, offset, line
            except PositionError as error:
                raise PositionError(f"{where}:{line}: {error}") from None
        offset, line = end + 1, line + 1
    return None, offset, line


def _whole_number(value: object, name: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be a whole number of at least {least}, not {value!r}")
    return value


def load_jsonl(data: bytes, *, first_line: int = 1, where: str = "<corpus>") -> PositionArrays:
    """Every position of a .jsonl corpus (one position JSON a line, blank lines
    skipped) in one pass; a bad line raises PositionError('<where>:<line>: <the
    message Position.from_json gives>'), and so does a position of another
    layout than the first.  ``first_line`` is the number of the first line of
    ``data``.  No position at all: empty arrays of the standard layout."""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise ValueError(f"data must be bytes, not {type(data).__name__}")
    line = _whole_number(first_line, "first_line", 1)
    layout, offset, line = _first_layout(data, 0, line, True, where)
    if layout is None:
        return _Rows(Layout.standard(), 0, line).arrays()
    rows = _Rows(layout, data.count(b"\n", offset) + 1, line)
    status, _, _ = rows.fill(data, offset, True, line, where)
    assert status == DONE, status
    return rows.arrays()


def iter_jsonl(path: str | bytes | os.PathLike[str] | os.PathLike[bytes],
               chunk_positions: int = CHUNK_POSITIONS) -> Iterator[PositionArrays]:
    """The positions of a .jsonl file in chunks of at most ``chunk_positions``,
    read :data:`BLOCK_BYTES` at a time: memory stays bounded by the chunk
    whatever the file's size.  Errors as :func:`load_jsonl`, ``<where>`` being the path."""
    chunk = _whole_number(chunk_positions, "chunk_positions", 1)
    where = path_name(path)      # never a file descriptor: closing the file would close the caller's
    try:
        handle = open(where, "rb")
    except OSError as problem:
        raise PositionError(f"{quote(where, PATH_CHARS)}: cannot read ({problem.strerror or problem})") from None
    return _chunks(handle, chunk, where)


def _chunks(handle: BinaryIO, chunk: int, where: str) -> Iterator[PositionArrays]:
    with handle:
        buffer, offset, line, final = b"", 0, 1, False
        rows: _Rows | None = None
        while not final:
            try:
                block = handle.read(BLOCK_BYTES)
            except OSError as problem:
                raise PositionError(f"{quote(where, PATH_CHARS)}: cannot read ({problem.strerror or problem})") \
                    from None
            final = not block
            buffer, offset = buffer[offset:] + block, 0
            while True:
                if rows is None:
                    layout, offset, line = _first_layout(buffer, offset, line, final, where)
                    if layout is None:
                        break
                    rows = _Rows(layout, chunk, line)
                status, offset, line = rows.fill(buffer, offset, final, line, where)
                if status != FULL:
                    break
                yield rows.arrays()
                rows = _Rows(rows.layout, chunk, rows.first)
            if len(buffer) - offset > POSITION_BYTES + 1:       # an unfinished line longer than a position
                try:
                    check_length(buffer[offset:], POSITION_BYTES, what="position", error=PositionError)
                except PositionError as error:
                    raise PositionError(f"{where}:{line}: {error}") from None
        if rows is not None and rows.row:
            yield rows.arrays()


__all__ = ["BLOCK_BYTES", "CHUNK_POSITIONS", "PositionArrays", "iter_jsonl", "load_jsonl"]
