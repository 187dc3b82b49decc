"""The batch solver (``native.Batch``, ``ginnycore.core.best_plays_batch``): the
same best play as one call on each position, on one thread or two, with the
per-position timings it can report, and clear errors for malformed arrays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers import position
from ginnyo import native
from ginnyo.position.position import Position
from ginnycore.core import best_plays_batch

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus-mid.jsonl"


def _corpus() -> list[Position]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [Position.from_json(line) for line in lines[:200]]


def test_batch_best_plays_equal_one_call_on_each_position() -> None:
    positions = _corpus() + [position({}, "7H 7C 7S 5H 6H * KD 2C"), position({}, "2C 9D")]
    expected = [native.best_play(p) for p in positions]
    assert native.best_plays_batch(positions, threads=1) == expected
    assert native.best_plays_batch(positions, threads=2) == expected
    assert expected[-2] is not None and expected[-2].score == 21      # docs/RULES.md §5 example 1
    assert expected[-1] is None


def test_batch_reports_each_positions_time() -> None:
    batch = native.Batch(_corpus()[:50])
    seconds = np.zeros(len(batch))
    scores = batch.best_plays(threads=2, seconds=seconds)[0]
    assert len(scores) == 50
    assert (seconds > 0).all() and (seconds < 1).all()


def test_batch_rejects_malformed_arrays() -> None:
    batch = native.Batch(_corpus()[:4])
    scores = np.empty(4, dtype=np.int32)
    squares = np.empty((4, 14), dtype=np.int16)
    cards = np.empty((4, 14), dtype=np.int8)
    jokers = np.empty((4, 14), dtype=np.uint8)
    core = batch._core
    with pytest.raises(ValueError, match="seconds is too small"):
        best_plays_batch(core, batch.boards, batch.racks, scores, squares, cards, jokers, 1, np.empty(3))
    with pytest.raises(ValueError, match="output arrays are too small"):
        best_plays_batch(core, batch.boards, batch.racks, scores[:3], squares, cards, jokers)
    with pytest.raises(ValueError, match="boards must be"):
        best_plays_batch(core, batch.boards[:, :10].copy(), batch.racks, scores, squares, cards, jokers)
    bad = batch.boards.copy()
    bad[2, 0] = 60
    with pytest.raises(ValueError, match="row 2: card 60 on square 0"):
        best_plays_batch(core, bad, batch.racks, scores, squares, cards, jokers)
    with pytest.raises(ValueError):     # rows must be contiguous
        best_plays_batch(core, batch.boards[:, ::-1], batch.racks, scores, squares, cards, jokers)
