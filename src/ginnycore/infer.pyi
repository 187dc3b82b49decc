"""Type stubs for the compiled :mod:`ginnycore.infer` (hand-written from infer.pyx)."""

from collections.abc import Iterable

from .core import Core, _Placement
from .equity import LeaveModel

def hidden_count(pool: bytes, size: int) -> int: ...
def infer(position: Core, model: LeaveModel, pool: bytes, rack_size: int, kind: int,
          placements: Iterable[_Placement], returned: int, box_size: int, state: tuple[int, bool, int, int],
          margin: float, max_leaves: int, samples: int, seed: int = 0,
          threads: int = 1) -> tuple[bool, float, list[tuple[bytes, float]]]: ...
def condition(pool: bytes, now: bytes,
              kept: list[tuple[bytes, float]]) -> tuple[float, list[tuple[tuple[int, ...], float, bytes]]]: ...
