"""Analysis of many positions and of game records: batch solving (positions), records turn by turn
(records) and the bulk loader of .jsonl corpora (bulk).

The names below are those of :mod:`ginnyo.analysis.positions`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .positions import (
    Solved, solve, best_rows, analyze_arrays, equity_json, Notation, row_json, layout_core,
    WANTS, SCORE, EQUITY, BOTH)

__all__ = [
    "Solved", "solve", "best_rows", "analyze_arrays", "equity_json", "Notation", "row_json",
    "layout_core", "WANTS", "SCORE", "EQUITY", "BOTH"]

__getattr__ = lazy_names(__name__, {"positions": __all__})
