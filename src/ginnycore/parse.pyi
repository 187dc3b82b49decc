"""Type stubs for the compiled :mod:`ginnycore.parse` (hand-written from parse.pyx)."""

from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import NDArray

DONE: int
FULL: int
SLOW: int
MORE: int
OTHER_LAYOUT: int

class PositionReader:
    def __init__(self, position: type, tile: Callable[[int, bool], object], standard: Any,
                 layout_of: Callable[[list[str]], Any], loads: Callable[[str | bytes], Any],
                 fields: Sequence[str], limit: int, max_rack: int) -> None: ...
    def read_json(self, text: object) -> Any | None: ...
    def read_line(self, text: object) -> Any | None: ...
    def fill_jsonl(self, data: bytes, offset: int, final: bool, layout: Any,
                   cards: NDArray[np.uint8], jokers: NDArray[np.uint8], racks: NDArray[np.uint8],
                   sets: NDArray[np.uint8], box_sizes: NDArray[np.int32], lines: NDArray[np.int64],
                   row: int, line: int, players: tuple[int, int]
                   ) -> tuple[int, int, int, int]: ...
