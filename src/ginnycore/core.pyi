"""Type stubs for the compiled :mod:`ginnycore.core` (hand-written from core.pyx).

Keep in step with the ``def`` functions, methods and properties of core.pyx;
``mypy --strict`` over ``python/ginnyo`` and ``tests`` checks every use.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Literal, TypeVar, overload

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
#: A play with its melds: ``(score, placements, melds)``.
_CoreScoredPlay: TypeAlias = tuple[int, tuple[_Placement, ...], tuple[_CoreMeld, ...]]
#: Where an illegal play breaks its rule: three ints (see ``ILLEGAL_CODES``).
_Detail: TypeAlias = tuple[int, int, int]
_T = TypeVar("_T")

MAX_PLACED: int
FORK_WARNING: str

def forked_single_threaded() -> bool: ...

MAX_MELDS: int
RACK_KINDS: int
JOKER: int
NUM_CARDS: int
EMPTY_SQUARE: int
KIND_SET: int
KIND_RUN: int
ACROSS: int
DOWN: int
CONSTANTS: dict[str, int]
ILLEGAL_COUNT: int
ILLEGAL_REPEATED: int
ILLEGAL_OFF_BOARD: int
ILLEGAL_COVERED: int
ILLEGAL_CARD: int
ILLEGAL_RACK: int
ILLEGAL_SHAPE: int
ILLEGAL_GAP: int
ILLEGAL_MELD: int
ILLEGAL_SHORT: int
ILLEGAL_CENTRE: int
ILLEGAL_PLACE: int
ILLEGAL_AREAS: int
ILLEGAL_CODES: dict[str, int]

class PlayMaker(Generic[_T]):
    """Builds each play a core hands back as the caller's objects, in C."""

    def __new__(cls, scored: type[_T], play: type, meld: type, tile: Callable[[int, bool], Any],
                kinds: Sequence[str | None]) -> PlayMaker[_T]: ...

class Core:
    """One board and rack in C.  Load cards, then ask for plays.  One call at a
    time: a call while another thread's call has the core raises RuntimeError."""

    # the arguments go to Cython's __cinit__, which runs in tp_new: hence __new__
    def __new__(cls, width: int, height: int, tile_mults: Buffer, meld_mults: Buffer, reds: Buffer,
                centre: int) -> Self: ...
    def load(self, cards: Buffer, jokers: Buffer, rack: Buffer) -> None:
        """``cards`` and ``jokers`` one byte a square, ``rack`` 53 counts
        (any 1-D buffer of unsigned bytes: bytes, bytearray, a uint8 array)."""
    def load_tiles(self, tiles: Mapping[int, tuple[int, bool]], rack: Iterable[int]) -> None:
        """``tiles`` maps a square to ``(card, is_joker)``; ``rack`` the rack tiles."""
    def count_plays(self) -> int: ...
    def generate_plays(self) -> int: ...
    @overload
    def legal_plays(self, melds: Literal[False] = False, ranked: bool = False, make: None = None
                    ) -> list[_CorePlay]: ...
    @overload
    def legal_plays(self, melds: Literal[True], ranked: bool = False, make: None = None
                    ) -> list[_CoreScoredPlay]: ...
    @overload
    def legal_plays(self, melds: Literal[False] = False, ranked: bool = False, make: None = None, *,
                    limit: int) -> list[_CorePlay] | None: ...
    @overload
    def legal_plays(self, melds: Literal[True], ranked: bool = False, make: None = None, *,
                    limit: int) -> list[_CoreScoredPlay] | None: ...
    @overload
    def legal_plays(self, melds: bool = False, ranked: bool = False, *, make: PlayMaker[_T],
                    limit: None = None) -> list[_T]: ...
    @overload
    def legal_plays(self, melds: bool = False, ranked: bool = False, *, make: PlayMaker[_T],
                    limit: int) -> list[_T] | None:
        """With ``limit``: None when there are more plays than that."""
    def stored_plays(self) -> list[_CorePlay]:
        """The plays the last generation stored; none after load, apply or undo."""
    def has_play(self) -> bool: ...
    @overload
    def best_play(self, melds: Literal[False] = False, make: None = None) -> _CorePlay | None: ...
    @overload
    def best_play(self, melds: Literal[True], make: None = None) -> _CoreScoredPlay | None: ...
    @overload
    def best_play(self, melds: bool = False, *, make: PlayMaker[_T]) -> _T | None: ...
    def top_plays(self, n: int, melds: bool = False, make: PlayMaker[Any] | None = None) -> list[Any]:
        """The ``n`` first plays in ranking order, kept in a heap of at most ``n`` records
        (as ``legal_plays`` hands them back with the same ``melds`` and ``make``)."""
    def ranked_plays(self, limit: int | None = None, buffer: int = ..., melds: bool = False,
                     make: PlayMaker[Any] | None = None) -> RankedPlays[Any]:
        """The plays in ranking order (at most ``limit``), at most ``buffer`` held in C."""
    def score_play(self, squares: Sequence[int], cards: Sequence[int],
                   jokers: Sequence[bool]) -> tuple[int, list[_CoreMeld] | None]:
        """``(score, melds)``; ``(negative code, None)`` when illegal."""
    @overload
    def judge_play(self, squares: Sequence[int], cards: Sequence[int], jokers: Sequence[bool],
                   make: None = None) -> tuple[_CoreScoredPlay, None] | tuple[int, _Detail]:
        """``(play, None)`` when legal, else ``(ILLEGAL_* code, detail)``."""
    @overload
    def judge_play(self, squares: Sequence[int], cards: Sequence[int], jokers: Sequence[bool],
                   make: PlayMaker[_T]) -> tuple[_T, None] | tuple[int, _Detail]: ...
    def apply(self, squares: Sequence[int], cards: Sequence[int], jokers: Sequence[bool]) -> int: ...
    def undo(self) -> None: ...
    def state(self) -> tuple[bytes, list[list[int]], list[tuple[int, ...]]]: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def cross_masks(self) -> list[list[int]]: ...

class RankedPlays(Generic[_T]):
    """The legal plays of a core's position in ranking order, made in bounded passes."""

    def __new__(cls, core: Core, limit: int | None, buffer: int, melds: bool = False,
                make: PlayMaker[Any] | None = None) -> RankedPlays[Any]: ...
    def __iter__(self) -> Self: ...
    def __next__(self) -> _T: ...

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
                     seconds: NDArray[np.float64] | None = None, melds: NDArray[np.int32] | None = None) -> None:
    """Best play of every row of ``boards``/``racks`` into the output arrays, on
    ``threads`` threads (1 or more; at most one a processor is started)."""
