"""The compiled endgame search (:mod:`ginnycore.endgame`) run on a core already
loaded with the board and the rack of the player to move: no position, so that the
exact solver (:mod:`ginnyo.endgame.exact`) and the pre-endgame ranking
(:mod:`ginnyo.endgame.preendgame`), which solves many endgames a decision, both
stand on it side by side.
"""

from __future__ import annotations

import threading
from typing import Any, Sequence

from ..native.core import Core
from ..native.encoding import encode_rack
from ..native.endgame import Endgame

#: the transposition table: 2 ** TABLE_BITS entries of 16 bytes (16 MiB)
TABLE_BITS = 20
#: the largest node budget a search takes
MAX_NODES = 10 ** 12


def solve_loaded(core: Core, opponent: Sequence[int], seconds: float | None = None, *,
                 after_pass: bool = False, table_bits: int = TABLE_BITS, nodes: int | None = None
                 ) -> tuple[int, bool]:
    """The spread and whether it is proven for the board and rack loaded in
    ``core`` (the player to move) against ``opponent``'s rack tiles: the search
    of :func:`ginnyo.endgame.exact.solve` without the position checks and the line, for callers that
    solve many endgames (:mod:`ginnyo.endgame.preendgame`)."""
    search = Endgame(core, bytes(encode_rack(opponent)), table_bits, after_pass)
    check_nodes(nodes)
    spread, _, proven, _, _, _ = run_search(search, float(seconds or 0.0), nodes or 0)
    return spread, proven


def check_nodes(nodes: int | None) -> None:
    if nodes is not None and (type(nodes) is not int or not 0 < nodes <= MAX_NODES):
        raise ValueError(f"nodes must be a whole number 1..{MAX_NODES}, not {nodes!r}")


def run_search(search: Endgame, seconds: float, nodes: int = 0
         ) -> tuple[int, list[tuple[int, tuple[tuple[int, int, bool], ...]]], bool, int, int, float]:
    """``search.solve(seconds, nodes)`` in a thread, the main thread waiting so that a
    KeyboardInterrupt stops the search (the C loop holds no GIL to notice it)."""
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append(search.solve(seconds, nodes))
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
            outcome.append(error)

    thread = threading.Thread(target=target, name="ginnyo-endgame", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.1)
    except KeyboardInterrupt:
        search.stop()
        thread.join()
        raise
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    result: tuple[int, list[tuple[int, tuple[tuple[int, int, bool], ...]]], bool, int, int, float] = outcome[0]
    return result


__all__ = ["MAX_NODES", "TABLE_BITS", "check_nodes", "run_search", "solve_loaded"]
