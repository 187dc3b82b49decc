"""What makes a line of cards a meld, and what its tiles are worth (docs/RULES.md §1-2).

Every function here takes the cards of a line in reading order, jokers already
replaced by the card they stand for.
"""

from __future__ import annotations

from typing import Sequence

from .tiles import PlacedTile, rank_of, run_value, set_value, suit_of

SET = "set"
RUN = "run"


def tile_value(placed: PlacedTile, kind: str) -> int:
    """Value of a placed tile in a meld of ``kind``; a joker is worth 0."""
    if placed.joker:
        return 0
    return set_value(placed.card) if kind == SET else run_value(placed.card)


def is_set(cards: Sequence[int]) -> bool:
    """3 or 4 tiles of one rank, all of different suits."""
    if not 3 <= len(cards) <= 4:
        return False
    if len({rank_of(c) for c in cards}) != 1:
        return False
    return len({suit_of(c) for c in cards}) == len(cards)


def _rank_positions(card_id: int) -> tuple[int, ...]:
    """Where a rank may sit in the rank order 1..14: an ace is low (1) or high (14)."""
    rank = rank_of(card_id)
    return (1, 14) if rank == 1 else (rank,)


def is_run(cards: Sequence[int]) -> bool:
    """3+ tiles of one suit whose ranks step by exactly one, all up or all down.

    An ace is low or high but a run never wraps (``K A 2`` is not a run).
    """
    if len(cards) < 3:
        return False
    if len({suit_of(c) for c in cards}) != 1:
        return False
    for step in (1, -1):
        for first in _rank_positions(cards[0]):
            if all(first + step * i in _rank_positions(c) for i, c in enumerate(cards)):
                return True
    return False


def meld_kind(cards: Sequence[int]) -> str | None:
    """``'set'``, ``'run'`` or ``None`` when the line is no meld."""
    if is_set(cards):
        return SET
    if is_run(cards):
        return RUN
    return None
