"""Type stubs for the compiled :mod:`ginnycore.crazy` (hand-written from crazy.pyx).

Hands and card sets are 52-bit masks of card ids (``suit * 13 + rank - 1``).
"""

from collections.abc import Iterable

class Table:
    """The round's wild rank, the player's own melds and the swappable table wilds:
    ``sets`` as ``(rank, free suits)`` (bit ``1 << suit`` set for each suit no place
    stands for yet), ``runs`` as ``(suit, low, high)``, ``swaps`` the card each table
    wild stands for (the only card that may replace it).  Bad arguments: ValueError."""

    def __init__(self, wild_rank: int, has_melded: bool = False, sets: Iterable[tuple[int, int]] = (),
                 runs: Iterable[tuple[int, int, int]] = (), swaps: Iterable[int] = ()) -> None: ...
    @property
    def wild_rank(self) -> int: ...

def deadwood(table: Table, hand: int) -> int:
    """The lowest deadwood of ``hand`` when all of it may be melded."""
def arrangement(table: Table, hand: int) -> tuple[int, list[tuple[int, int, int]]]:
    """``(deadwood, [(card, place, group), ...])`` for the naturals, lowest first; a
    swap's ``group`` is the number of the table wild it takes (its place in ``swaps``)."""
def best_discard(table: Table, hand: int, keep: int = 0) -> tuple[int, int]:
    """``(held, card)`` after melding and discarding one card not in ``keep``."""
def draw_outcomes(table: Table, hand: int, draws: int) -> list[tuple[int, int, int]]:
    """``[(card, held, discard), ...]``: :func:`best_discard` of ``hand`` plus each card of ``draws``."""
