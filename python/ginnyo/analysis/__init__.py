"""Analysis of many positions and of game records: batch solving (positions), records turn by turn
(records), the bulk loader of .jsonl corpora (bulk), and where a corpus's or a record's analysis
runs, on threads, processes or a Dask cluster (schedule), and one position's analysis for every
face, the command line's and the web table's (report).

The names below are those of :mod:`ginnyo.analysis.positions` and of
:mod:`ginnyo.analysis.schedule`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .positions import (
    Solved, solve, best_rows, analyze_arrays, equity_json, Notation, row_json, layout_core,
    WANTS, SCORE, EQUITY, BOTH)
    from .schedule import analyze_corpus, analyze_record_file

__all__ = [
    "Solved", "solve", "best_rows", "analyze_arrays", "equity_json", "Notation", "row_json",
    "layout_core", "WANTS", "SCORE", "EQUITY", "BOTH",
    "analyze_corpus", "analyze_record_file"]

__getattr__ = lazy_names(__name__, {"positions": __all__[:-2], "schedule": __all__[-2:]})
