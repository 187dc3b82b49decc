"""Type stubs for the compiled :mod:`ginnycore.core` (hand-written from core.pyx).

Keep in step with the ``def`` functions, methods and properties of core.pyx;
``mypy --strict`` over ``python/ginnyo`` and ``tests`` checks every use.
"""

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Buffer, Self, TypeAlias

# The aliases below exist only for type checking (private, not in the module at run time).

#: One placed tile of a play: ``(square, card, is_joker)``.
_Placement: TypeAlias = tuple[int, int, bool]
#: A play as the core returns it: ``(score, placements)``.
_CorePlay: TypeAlias = tuple[int, tuple[_Placement, ...]]
#: A scored meld: ``(direction, first square, length, kind, score)``.
_CoreMeld: TypeAlias = tuple[int, int, int, int, int]

class Core:
    """One board and rack in C.  Load cards, then ask for plays.  One call at a
    time: a call while another thread's call has the core raises RuntimeError."""

    # the arguments go to Cython's __cinit__, which runs in tp_new: hence __new__
    def __new__(cls, width: int, height: int, tile_mults: Buffer, meld_mults: Buffer, reds: Buffer,
                centre: int) -> Self: ...
    def load(self, cards: Buffer, jokers: Buffer, rack: Buffer) -> None:
        """``cards`` and ``jokers`` one byte a square, ``rack`` 53 counts
        (any 1-D buffer of unsigned bytes: bytes, bytearray, a uint8 array)."""
    def count_plays(self) -> int: ...
    def generate_plays(self) -> int: ...
    def legal_plays(self) -> list[_CorePlay]: ...
    def stored_plays(self) -> list[_CorePlay]:
        """The plays the last generation stored; none after load, apply or undo."""
    def has_play(self) -> bool: ...
    def best_play(self) -> _CorePlay | None: ...
    def top_plays(self, n: int) -> list[_CorePlay]:
        """The ``n`` first plays in ranking order, kept in a heap of at most ``n`` records."""
    def ranked_plays(self, limit: int | None = None, buffer: int = ...) -> RankedPlays:
        """The plays in ranking order (at most ``limit``), at most ``buffer`` held in C."""
    def score_play(self, squares: Sequence[int], cards: Sequence[int],
                   jokers: Sequence[bool]) -> tuple[int, list[_CoreMeld] | None]:
        """``(score, melds)``; ``(negative code, None)`` when illegal."""
    def apply(self, squares: Sequence[int], cards: Sequence[int], jokers: Sequence[bool]) -> int: ...
    def undo(self) -> None: ...
    def state(self) -> tuple[bytes, list[list[int]], list[tuple[int, ...]]]: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def cross_masks(self) -> list[list[int]]: ...

class RankedPlays:
    """The legal plays of a core's position in ranking order, made in bounded passes."""

    def __new__(cls, core: Core, limit: int | None, buffer: int) -> Self: ...
    def __iter__(self) -> Self: ...
    def __next__(self) -> _CorePlay: ...

RANKED_BUFFER: int

class Cores:
    """Many loaded cores, generated or counted in one call, on one thread or several
    (``threads`` 1 or more; at most one a processor is started)."""

    def __new__(cls, cores: Iterable[Core]) -> Self: ...
    def __len__(self) -> int: ...
    def count_plays(self, threads: int = 1) -> NDArray[np.int64]: ...
    def generate_plays(self, threads: int = 1) -> NDArray[np.int64]: ...

def best_plays_batch(layout: Core, boards: NDArray[np.uint8], racks: NDArray[np.uint8],
                     scores: NDArray[np.int32], squares: NDArray[np.int16], cards: NDArray[np.int8],
                     jokers: NDArray[np.uint8], threads: int = 1,
                     seconds: NDArray[np.float64] | None = None) -> None:
    """Best play of every row of ``boards``/``racks`` into the output arrays, on
    ``threads`` threads (1 or more; at most one a processor is started)."""
