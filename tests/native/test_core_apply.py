"""Apply and undo in the core update only the lines through the play; the result
must be exactly what a full recomputation gives."""

from __future__ import annotations

import random

import pytest

from helpers import FULL_CORPUS
from ginnycore import Core
from ginnyo import Position, native
from ginnyo.vocab.layout import core_premiums
from ginnyo.selfplay.corpus import sample_positions
from ginnyo.vocab.play import ScoredPlay

POSITIONS = 400 if FULL_CORPUS else 80


def _arguments(scored: ScoredPlay) -> tuple[list[int], list[int], list[bool]]:
    placements = scored.play.placements
    return ([s for s, _ in placements], [t.card for _, t in placements], [t.joker for _, t in placements])


def test_apply_then_undo_matches_full_recomputation() -> None:
    rng = random.Random(5)
    checked = 0
    for position in sample_positions(POSITIONS, seed=99):
        plays = native.legal_plays(position)
        if not plays:
            continue
        core = native.core_of(position)
        before = core.state()
        scored = rng.choice(plays)
        assert core.apply(*_arguments(scored)) == scored.score
        after = position.apply(scored.play)
        fresh = native.core_of(after)
        assert core.state() == fresh.state()
        assert core.count_plays() == fresh.count_plays()
        assert core.best_play() == fresh.best_play()
        core.undo()
        assert core.state() == before
        checked += 1
    assert checked > POSITIONS // 2


def test_a_chain_of_applied_plays_stays_exact() -> None:
    for position in sample_positions(10, seed=3, stage="early"):
        core = native.core_of(position)
        current = position
        rng = random.Random(len(position.board))
        for _ in range(4):
            plays = native.legal_plays(current)
            if not plays:
                break
            scored = rng.choice(plays)
            core.apply(*_arguments(scored))
            current = current.apply(scored.play)
            assert core.state() == native.core_of(current).state()


def test_illegal_apply_is_refused_and_changes_nothing() -> None:
    position = sample_positions(1, seed=1)[0]
    core = native.core_of(position)
    before = core.state()
    with pytest.raises(ValueError):
        core.apply([0], [0], [False])
    with pytest.raises(ValueError):
        core.undo()
    assert core.state() == before


def test_a_standard_position_takes_a_few_kilobytes_in_the_core() -> None:
    """About 53 bytes a square: its 32-byte record (cross-checks, premiums, group),
    a place in the list of anchors, its card and its joker flag."""
    core = native.core_of(sample_positions(1, seed=1)[0])
    assert core.nbytes < 12 * 1024
    large = Core(21, 21, *core_premiums("." * 220 + "S" + "." * 220))
    assert core.nbytes < large.nbytes < 24 * 1024


def test_has_play_stops_at_the_first_and_agrees_with_the_count() -> None:
    positions = sample_positions(60, seed=21)
    positions.append(Position.from_dict({"board": {"G8": "5H", "H8": "6H", "I8": "7H"}, "rack": "AS 2D 9C"}))
    answers = set()
    for position in positions:
        core = native.core_of(position)
        answers.add(core.has_play())
        assert core.has_play() == (core.count_plays() > 0)
    assert answers == {True, False}


def test_generate_plays_counts_what_count_plays_and_legal_plays_give() -> None:
    counted = 0
    for position in sample_positions(60, seed=23):
        core = native.core_of(position)
        count = core.generate_plays()
        assert count == core.count_plays() == len(core.legal_plays())
        counted += count
    assert counted > 0


def test_positions_and_tiles_survive_pickling_for_worker_processes() -> None:
    import pickle
    position = next(p for p in sample_positions(10, seed=8) if p.board)
    copy = pickle.loads(pickle.dumps(position))
    assert copy == position and copy.board == position.board
    assert all(type(tile).__name__ == "PlacedTile" and tile.code for tile in copy.board.values())
