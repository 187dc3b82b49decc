"""Boards and racks as the core takes them, written once for every caller: a
byte a square (the card, ``EMPTY_SQUARE`` where empty), a joker flag a square,
and a count a rack tile kind (:data:`RACK_KINDS`: the 52 cards and the joker)."""

from __future__ import annotations

from typing import Iterable, Mapping

from .core import EMPTY_SQUARE, RACK_KINDS

Tile = tuple[int, bool]   # a placed tile: (card, joker), as PlacedTile is


def empty_board(size: int) -> tuple[bytearray, bytearray]:
    """An empty board of ``size`` squares: its cards and joker flags, to fill in place."""
    return bytearray([EMPTY_SQUARE]) * size, bytearray(size)


def encode_board(size: int, board: Mapping[int, Tile]) -> tuple[bytes, bytes]:
    """The board's cards and joker flags (``board``: square -> (card, joker))."""
    cards, jokers = empty_board(size)
    for square, (card, joker) in board.items():
        cards[square] = card
        jokers[square] = joker
    return bytes(cards), bytes(jokers)


def encode_rack(rack: Iterable[int]) -> bytearray:
    """The rack's counts, a byte a rack tile kind (to add a drawn tile in place)."""
    counts = bytearray(RACK_KINDS)
    for tile in rack:
        counts[tile] += 1
    return counts


__all__ = ["RACK_KINDS", "Tile", "empty_board", "encode_board", "encode_rack"]
