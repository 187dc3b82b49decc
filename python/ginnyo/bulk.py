"""A ``.jsonl`` corpus (one position JSON a line) loaded in bulk into the arrays
the compiled batch calls take, with the 1-based line each position came from.

This is the simple, correct version: each line is read by
:meth:`Position.from_json` (so a bad line gets exactly the message a single
position gets, prefixed by ``<where>:<line>: ``) and encoded as the core's
``load`` takes it; a position object is kept for :meth:`PositionArrays.position`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np
from ginnycore import EMPTY_SQUARE, RACK_KINDS

from .context import game_context
from .errors import PositionError
from .layout import Layout
from .line_chunks import LineFile
from .position import Position

CHUNK_POSITIONS = 4096      # positions a chunk of :func:`iter_jsonl`, by default


@dataclass(frozen=True)
class PositionArrays:
    """Positions of one layout as the batch calls take them: ``cards`` and
    ``jokers`` (uint8, one row of ``layout.size`` a position, ``EMPTY_SQUARE``
    where empty), ``racks`` (uint8 tile counts, ``RACK_KINDS`` a row),
    ``box_sizes`` (int32, the tiles left in the box, as equity's stage wants it)
    and ``lines`` (int64, the 1-based line each came from)."""

    layout: Layout
    cards: np.ndarray
    jokers: np.ndarray
    racks: np.ndarray
    box_sizes: np.ndarray
    lines: np.ndarray
    positions: tuple[Position, ...] = field(default=(), repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.lines)

    def position(self, i: int) -> Position:
        """The full :class:`Position` of row ``i``."""
        return self.positions[i]


def load_jsonl(data: bytes, *, first_line: int = 1, where: str = "<corpus>") -> PositionArrays:
    """Every position of ``data``, a ``.jsonl`` corpus's text (blank lines
    skipped), whose first line is line ``first_line``; a bad line raises
    :class:`PositionError` ``'<where>:<line>: <the message Position.from_json gives>'``,
    as does a line whose layout is not the first position's."""
    positions: list[Position] = []
    numbers: list[int] = []
    boxes: list[int] = []
    for number, line in enumerate(data.split(b"\n"), first_line):
        if not line.strip():
            continue
        try:
            position = Position.from_json(line)
            boxes.append(game_context(position).box_size)
        except PositionError as error:
            raise PositionError(f"{where}:{number}: {error}") from None
        if positions and position.layout != positions[0].layout:
            raise PositionError(f"{where}:{number}: field 'layout': not the layout of line {numbers[0]} "
                                "(a corpus holds positions of one layout)")
        positions.append(position)
        numbers.append(number)
    layout = positions[0].layout if positions else Layout.standard()
    n, size = len(positions), layout.size
    cards = np.full((n, size), EMPTY_SQUARE, dtype=np.uint8)
    jokers = np.zeros((n, size), dtype=np.uint8)
    racks = np.zeros((n, RACK_KINDS), dtype=np.uint8)
    for row, position in enumerate(positions):
        for square, placed in position.board.items():
            cards[row, square] = placed.card
            jokers[row, square] = placed.joker
        for tile in position.rack:
            racks[row, tile] += 1
    return PositionArrays(layout, cards, jokers, racks, np.array(boxes, dtype=np.int32),
                          np.array(numbers, dtype=np.int64), tuple(positions))


def iter_jsonl(path: str | Path, chunk_positions: int = CHUNK_POSITIONS) -> Iterator[PositionArrays]:
    """The positions of the ``.jsonl`` file ``path`` (``'-'``: standard input) in
    chunks of at most ``chunk_positions``: at most one chunk and one line of
    at most :data:`files.POSITION_BYTES` are held at a time."""
    if isinstance(chunk_positions, bool) or not isinstance(chunk_positions, int) or chunk_positions < 1:
        raise ValueError(f"chunk_positions must be a whole number of at least 1, not {chunk_positions!r}")
    with LineFile(str(path)) as source:
        for first_line, data in source.pieces(chunk_positions):
            yield load_jsonl(data, first_line=first_line, where=str(path))


__all__ = ["PositionArrays", "load_jsonl", "iter_jsonl", "CHUNK_POSITIONS"]
