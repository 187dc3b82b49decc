"""Type stubs for the compiled :mod:`ginnycore.equity` (hand-written from equity.pyx)."""

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Buffer, Self, TypeAlias

from .core import Core, _Placement

#: One ranked action: ``(kind, score, leave value, placements, returned)``, kind 0 play, 1 return, 2 pass.
_Action: TypeAlias = tuple[int, int, float, tuple[_Placement, ...], tuple[int, ...]]

#: A game state: ``(players, opened, quiet_turns, quiet_limit)``.
_State: TypeAlias = tuple[int, bool, int, int]
#: One player count's ``(weights, returns, state_weights)``.
_Weights: TypeAlias = tuple[Iterable[Sequence[float]], Iterable[float], Iterable[Sequence[float]] | None]

class LeaveModel:
    """A leave model in C (weights a stage and a player count, return terms, state
    weights, stage box ranges, penalties)."""

    # the arguments go to Cython's __cinit__, which runs in tp_new: hence __new__
    def __new__(cls, weights: Iterable[Sequence[float]], returns: Iterable[float],
                stages: Iterable[Sequence[int]], penalty: Iterable[int],
                state_weights: Iterable[Sequence[float]] | None = None,
                players: Mapping[int, _Weights] | None = None, open_first: bool = False) -> Self: ...
    def stage(self, box_size: int) -> int: ...
    def features(self, counts: Buffer) -> tuple[float, ...]: ...
    def row(self, box_size: int, state: _State | None = None) -> tuple[tuple[float, ...], float]: ...
    def value(self, counts: Buffer, box_size: int, state: _State | None = None) -> float: ...

def rank_core(core: Core, model: LeaveModel, box_size: int, returns: bool = True,
              limit: int | None = None, state: _State | None = None) -> list[_Action]: ...
def rank_batch(layout: Core, model: LeaveModel, boards: NDArray[np.uint8], racks: NDArray[np.uint8],
               box_sizes: NDArray[np.int32], kinds: NDArray[np.int8], scores: NDArray[np.int32],
               values: NDArray[np.float64], squares: NDArray[np.int16], cards: NDArray[np.int8],
               jokers: NDArray[np.uint8], counts: NDArray[np.int32], returns: bool = True,
               threads: int = 1, states: NDArray[np.int64] | None = None) -> None:
    """The first actions of every row by equity into the output arrays (see equity.pyx)."""
