"""Many loaded cores in one call (``native.Cores``, ``ginnycore.core.Cores``):
the same counts and stored plays as one call on each core, on one thread or
two, and clear errors for what it cannot take."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers import position
from ginnyo import native
from ginnyo.position.position import Position

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus-mid.jsonl"


def _positions() -> list[Position]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()[:150]
    return [Position.from_json(line) for line in lines] + [
        position({}, "7H 7C 7S 5H 6H * KD 2C"),     # an empty board, a joker on the rack
        position({}, "2C 9D"),                      # no play
    ]


@pytest.mark.parametrize("threads", [1, 2])
def test_cores_count_and_store_what_each_core_does_alone(threads: int) -> None:
    positions = _positions()
    cores = [native.core_of(p) for p in positions]
    expected = [native.core_of(p).legal_plays() for p in positions]
    batch = native.Cores(cores)
    assert len(batch) == len(cores)
    counts = batch.count_plays(threads=threads)
    assert counts.dtype == np.int64
    assert counts.tolist() == [len(plays) for plays in expected]
    assert all(core.stored_plays() == [] for core in cores)    # counting stores nothing
    generated = batch.generate_plays(threads=threads)
    assert generated.tolist() == counts.tolist()
    assert [core.stored_plays() for core in cores] == expected
    assert generated[-1] == 0 and generated[-2] > 0


def test_stored_plays_are_those_of_the_last_generation_until_the_position_changes() -> None:
    core = native.core_of(position({}, "7H 7C 7S 5H 6H * KD 2C"))
    assert core.stored_plays() == []
    count = core.generate_plays()
    plays = core.stored_plays()
    assert len(plays) == count > 0
    assert core.legal_plays() == plays
    assert core.count_plays() == count and core.stored_plays() == plays
    score, placements = plays[0]
    core.apply([s for s, _, _ in placements], [c for _, c, _ in placements], [j for _, _, j in placements])
    assert core.stored_plays() == []
    core.generate_plays()
    core.undo()
    assert core.stored_plays() == []
    cards, jokers, rack = native.encode(position({}, "2C 9D"))
    core.generate_plays()
    core.load(cards, jokers, rack)
    assert core.stored_plays() == []


def test_cores_of_nothing_give_empty_counts() -> None:
    batch = native.Cores([])
    assert len(batch) == 0
    assert batch.generate_plays().tolist() == [] and batch.count_plays(threads=2).tolist() == []


def test_cores_refuse_a_core_listed_twice() -> None:
    first, second = (native.core_of(p) for p in _positions()[:2])
    with pytest.raises(ValueError, match=r"cores\[2\] is cores\[0\] again"):
        native.Cores([first, second, first])


def test_cores_refuse_what_is_not_a_core() -> None:
    core = native.core_of(_positions()[0])
    with pytest.raises(TypeError, match=r"cores\[1\] is a Position, not a Core"):
        native.Cores([core, _positions()[1]])    # type: ignore[list-item]


@pytest.mark.parametrize("threads", [0, -2])
def test_cores_refuse_fewer_than_one_thread(threads: int) -> None:
    batch = native.Cores([native.core_of(_positions()[0])])
    with pytest.raises(ValueError, match=f"threads must be 1 or more, not {threads}"):
        batch.generate_plays(threads=threads)
    with pytest.raises(ValueError, match=f"threads must be 1 or more, not {threads}"):
        batch.count_plays(threads=threads)
