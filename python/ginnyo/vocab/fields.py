"""What the layers below :class:`ginnyo.position.Position` read from a position.

The notation, the core bridge, the legal-play view, the reference rules and the
renderer take any object with these four fields, so that none of them imports
position.py, which imports them (no import circle).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from .layout import Layout
from .tiles import PlacedTile


class PositionFields(Protocol):
    """A position's layout, tile sets (1 or 2), board (square -> tile) and rack
    (a sorted tuple of rack tiles: cards and :data:`ginnyo.vocab.tiles.JOKER`)."""

    @property
    def layout(self) -> Layout: ...

    @property
    def sets(self) -> int: ...

    @property
    def board(self) -> Mapping[int, PlacedTile]: ...

    @property
    def rack(self) -> tuple[int, ...]: ...


class GameFields(PositionFields, Protocol):
    """A position's four fields and its game fields as read (``context``:
    docs/FORMAT.md's players, scores, to_move, unseen), which
    :mod:`ginnyo.position.context` checks and fills."""

    @property
    def context(self) -> Mapping[str, Any]: ...


__all__ = ["PositionFields", "GameFields"]
