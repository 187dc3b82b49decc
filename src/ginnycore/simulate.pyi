"""Type stubs for the compiled :mod:`ginnycore.simulate` (hand-written from simulate.pyx)."""

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Self, TypeAlias

from .core import Core, _Placement
from .equity import LeaveModel

#: A candidate: ``(kind, placements, returned)``, kind 0 play, 1 return, 2 pass.
_Candidate: TypeAlias = tuple[int, Iterable[_Placement], Iterable[int]]

POLICY_GREEDY: int
POLICY_EQUITY: int

class Rollouts:
    """The rollouts of one position's candidates, ready to run in C."""

    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def candidates(self) -> int: ...
    # the arguments go to Cython's __cinit__, which runs in tp_new: hence __new__
    def __new__(cls, position: Core, model: LeaveModel, unseen: Iterable[int], opponent_racks: Iterable[int],
                candidates: Iterable[_Candidate], plies: int, seed: int, policy: int = 0, quiet_turns: int = 0,
                stall_rounds: int = 3, rules: int = 2, scores: Iterable[int] | None = None, to_end: bool = False,
                endgame_nodes: int = 0,
                inferred: Iterable[tuple[bytes, Iterable[float], Iterable[int]] | None] | None = None) -> Self: ...
    def run(self, start: int, out: NDArray[np.float64], threads: int = 1,
            wins: NDArray[np.float64] | None = None) -> None: ...

def deal(unseen: Iterable[int], opponent_racks: Iterable[int], seed: int,
         index: int) -> tuple[list[list[int]], list[int], int]: ...
def inferred_deal(unseen: Iterable[int], opponent_racks: Iterable[int], seed: int, index: int,
                  inferred: Iterable[tuple[bytes, Iterable[float], Iterable[int]] | None]
                  ) -> tuple[list[list[int]], list[int], int]: ...
