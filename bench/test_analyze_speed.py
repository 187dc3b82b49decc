"""``ginnyo analyze`` on a corpus: positions a second for the best play by score
including loading (the issue's target: 50 000 a second on 2 cores), and for
both best plays (score and equity), on the committed mid-game corpus repeated.
Also each part alone: loading the ``.jsonl`` (``ginnyo.analysis.bulk.load_jsonl``), the
batch calls with the rows, the whole command.

The figures go to the summary; nothing is asserted about time.
"""

from __future__ import annotations

import contextlib
import io
import time
from pathlib import Path
from typing import Callable

import pytest

from conftest import FACTS, HERE, record
from ginnyo.analysis.positions import BOTH, SCORE, analyze_arrays
from ginnyo.analysis.bulk import load_jsonl
from ginnyo.cli import main

REPEATS = 4             # the 500-position corpus this many times
ROUNDS = 3
THREADS = 2


def _fastest(piece: Callable[[], object]) -> float:
    fastest = float("inf")
    for _ in range(ROUNDS):
        started = time.perf_counter()
        piece()
        fastest = min(fastest, time.perf_counter() - started)
    return fastest


def test_analyze_positions_a_second(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (HERE / "corpus-mid.jsonl").read_bytes() * REPEATS
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_bytes(data)
    arrays = load_jsonl(data, where="corpus")
    n = len(arrays)

    def command(*options: str) -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["analyze", str(corpus), "--json", "--quiet", "--workers", str(THREADS), *options]) == 0

    seconds = {
        "load": _fastest(lambda: load_jsonl(data, where="corpus")),
        "best play by score, batch and rows": _fastest(lambda: analyze_arrays(arrays, want=SCORE, threads=THREADS)),
        "best play and best equity action, batch and rows": _fastest(lambda: analyze_arrays(arrays, want=BOTH, threads=THREADS)),
        "analyze --by score (load included)": _fastest(lambda: command("--by", "score")),
        "analyze (both, load included)": _fastest(lambda: command()),
    }
    for name, value in seconds.items():
        record(f"analyze: {name}, {THREADS} threads", (value, value), n)
    FACTS["analyze: positions a round"] = f"{n:12,}"

    # the command with loading made free (each piece's arrays kept from the first
    # round): what it costs besides the loader, which wt-load's bulk loader replaces
    from ginnyo.analysis import bulk
    loaded: dict[tuple[int, bytes], bulk.PositionArrays] = {}
    real_load = bulk.load_jsonl

    def kept(data: bytes, *, first_line: int, where: str) -> bulk.PositionArrays:
        key = (first_line, data)
        if key not in loaded:
            loaded[key] = real_load(data, first_line=first_line, where=where)
        return loaded[key]

    monkeypatch.setattr(bulk, "load_jsonl", kept)
    command("--by", "score")
    free = _fastest(lambda: command("--by", "score"))
    record(f"analyze: analyze --by score, loading free, {THREADS} threads", (free, free), n)
