"""Type stubs for the compiled :mod:`ginnycore.endgame` (hand-written from endgame.pyx)."""

from typing_extensions import Buffer, Self

from .core import Core, _CorePlay

class Endgame:
    """A 2-player endgame: the core's board and rack (the player to move)
    against ``opponent_rack`` (53 counts), searched to the end."""

    # the arguments go to Cython's __cinit__, which runs in tp_new: hence __new__
    def __new__(cls, core: Core, opponent_rack: Buffer, table_bits: int = 20,
                after_pass: bool = False) -> Self: ...
    def stop(self) -> None: ...
    def solve(self, seconds: float = 0.0, nodes: int = 0,
              check_every: int = 1024) -> tuple[int, list[_CorePlay], bool, int, int, float]:
        """``(spread, line, proven, nodes, depth, elapsed)``; a pass is ``(0, ())``."""
    @property
    def table_bytes(self) -> int: ...
