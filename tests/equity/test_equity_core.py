"""The compiled equity ranking (ginnycore.equity): the same leave features and
values as ginnyo.equity.leaves, the same ranking as the Python yardstick
(tests/equity_reference.py) over corpus positions, every return subset, the
tie-break, top-N limits, the batch over threads, and bad arguments refused."""

from __future__ import annotations

import math

import numpy as np
import pytest

from equity_reference import reference_key, reference_ranking
from helpers import FULL_CORPUS, position
from ginnyo.selfplay.corpus import game_positions
from ginnyo.equity.rank import PLAY, RETURN, compiled_model, rank_actions, rank_position, rank_positions
from ginnyo.equity.leaves import FEATURES, STAGES, TILES, LeaveModel, LeaveState, default_model, features, stage_of
from ginnyo.native import core_of
from ginnyo.position.position import Position
from ginnyo.vocab.tiles import parse_rack_tile

QUICK_POSITIONS = 500
SLOW_POSITIONS = 5000


def tiles(text: str) -> list[int]:
    return [parse_rack_tile(code) for code in text.split()]


def hand_model(returns: float = 0.0, **weights: float) -> LeaveModel:
    row = tuple(weights.get(name, 0.0) for name in FEATURES)
    return LeaveModel(tuple(row for _ in STAGES), tuple(returns for _ in STAGES))


def corpus(count: int) -> list[Position]:
    """``count`` decision positions (every third of seeded 2-4 player games): all
    stages of the box, one and two sets, jokers."""
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        found.extend(list(game_positions(seed))[::3][:count - len(found)])
        seed += 1
    return found


def disagreements(positions: list[Position], model: LeaveModel,
                  states: list[LeaveState] | None = None) -> list[str]:
    """Where the compiled ranking (all actions) differs from the reference's:
    another action at some rank, or an equity off by more than 1e-9 (in the
    game state ``states[i]`` of position i; None: the default state)."""
    found = []
    for index, pos in enumerate(positions):
        box = pos.game_context.box_size
        core = core_of(pos)
        state = states[index] if states is not None else None
        expected = reference_ranking(core.legal_plays(), pos.rack, box, model, state=state)
        got = rank_actions(core, pos.rack, box, model, state=state)
        if len(got) != len(expected):
            found.append(f"position {index}: {len(got)} actions, expected {len(expected)}")
            continue
        for rank, (mine, theirs) in enumerate(zip(got, expected)):
            if (mine.kind, mine.score, mine.placements, mine.returned, sorted(mine.leave)) != \
                    (theirs.kind, theirs.score, theirs.placements, theirs.returned, sorted(theirs.leave)) \
                    or not math.isclose(mine.equity, theirs.equity, abs_tol=1e-9):
                found.append(f"position {index} rank {rank}: {mine} != {theirs}")
                break
    return found


# -- leave features and values ---------------------------------------------------------------------

def random_leaves(count: int, seed: int) -> np.ndarray:
    """Leaves of 0 to 14 tiles drawn from two sets (jokers included), as counts."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((count, TILES), dtype=np.uint8)
    for row in range(count):
        for tile in rng.choice(np.repeat(np.arange(TILES), [2] * 52 + [4]), size=rng.integers(0, 15), replace=False):
            counts[row, tile] += 1
    return counts


def test_compiled_leave_features_are_those_of_leaves_py() -> None:
    compiled = compiled_model(default_model())
    counts = random_leaves(2000, seed=1)
    expected = features(counts.astype(np.int16))
    got = np.array([compiled.features(row) for row in counts])
    assert np.array_equal(got, expected)


def test_compiled_leave_values_are_those_of_leaves_py_at_every_stage() -> None:
    model = default_model()
    compiled = compiled_model(model)
    counts = random_leaves(500, seed=2)
    for box in (0, 1, 8, 9, 20, 21, 90, -3):
        expected = model.values(counts.astype(np.int16), box)
        got = np.array([compiled.value(row, box) for row in counts])
        assert np.allclose(got, expected, rtol=0, atol=1e-9), box
        assert compiled.stage(box) == stage_of(box)


# -- the ranking against the Python yardstick ------------------------------------------------------

def test_compiled_ranking_agrees_with_the_python_reference_on_the_corpus() -> None:
    positions = corpus(QUICK_POSITIONS)
    assert {p.game_context.box_size > 0 for p in positions} == {True, False}
    assert {p.sets for p in positions} == {1, 2}
    assert disagreements(positions, default_model()) == []


@pytest.mark.slow
def test_compiled_ranking_agrees_with_the_python_reference_on_a_larger_corpus() -> None:
    assert disagreements(corpus(SLOW_POSITIONS if FULL_CORPUS else 2 * QUICK_POSITIONS), default_model()) == []


def test_compiled_ranking_agrees_with_the_reference_under_a_hand_model() -> None:
    # return terms and weights that make many returns rank among the plays
    model = hand_model(returns=4.0, tiles=-2.0, jokers=9.0, pairs=3.5, connected=1.25, penalty=-0.1)
    assert disagreements(corpus(120), model) == []


def test_every_return_subset_is_considered_not_only_the_old_129() -> None:
    # no play on an empty board; keeping the two pairs (return four, keep four)
    # is best, a return the old rule (give one or two back, or keep three at most) never saw
    pos = position({}, "7H 7C 9S 9D 2H 4C 6S QD")
    model = hand_model(pairs=10.0, tiles=-1.0)
    best = rank_position(pos, model)[0]
    assert best.kind == RETURN and best.returned == tuple(sorted(tiles("2H 4C 6S QD")))
    old = reference_ranking([], pos.rack, pos.game_context.box_size, model, every_subset=False)
    assert len(old) == 129 and old[0].returned != best.returned and old[0].equity < best.equity


def test_equal_equities_rank_plays_first_then_shorter_returns_in_tile_order() -> None:
    # every action has equity 8: the play (score 8) first, then the returns of
    # one tile in tile order, then of two, then the three
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "8H AS 2D")
    ranked = rank_position(pos, hand_model(returns=8.0))
    assert [candidate.equity for candidate in ranked] == [8.0] * 8
    assert ranked[0].kind == PLAY and ranked[0].score == 8
    assert [candidate.returned for candidate in ranked[1:]] == sorted(
        (candidate.returned for candidate in ranked[1:]), key=lambda returned: (len(returned), returned))
    assert sorted(ranked, key=reference_key) == ranked


def test_a_limit_keeps_the_first_actions_of_the_whole_ranking() -> None:
    model = default_model()
    for pos in corpus(40):
        whole = rank_position(pos, model)
        for limit in (1, 3, 10):
            assert rank_position(pos, model, limit=limit) == whole[:limit]


def test_without_returns_a_player_with_no_play_gets_the_best_return_alone() -> None:
    pos = position({}, "7H 7C 9S 9D 2H 4C 6S QD")
    model = hand_model(pairs=10.0, tiles=-1.0)
    alone = rank_actions(core_of(pos), pos.rack, 30, model, returns=False)
    assert alone == rank_actions(core_of(pos), pos.rack, 30, model)[:1]


# -- the batch -------------------------------------------------------------------------------------

def test_the_batch_ranks_as_one_position_at_a_time_on_any_thread_count() -> None:
    positions = corpus(150)
    positions = [p for p in positions if p.layout == positions[0].layout]
    assert len(positions) > 100
    one_at_a_time = [rank_position(p, default_model(), limit=4) for p in positions]
    assert rank_positions(positions, limit=4, threads=1) == one_at_a_time
    assert rank_positions(positions, limit=4, threads=2) == one_at_a_time


def test_the_batch_refuses_a_limit_below_one() -> None:
    with pytest.raises(ValueError, match="limit"):
        rank_positions(corpus(2), limit=0)


# -- bad arguments ---------------------------------------------------------------------------------

@pytest.mark.parametrize("limit", [0, -1, True, 2.5, "3"])
def test_a_bad_limit_is_a_value_error(limit: object) -> None:
    from ginnycore.equity import rank_core
    pos = position({}, "AS 2D")
    with pytest.raises(ValueError, match="limit"):
        rank_core(core_of(pos), compiled_model(default_model()), 10, True, limit)  # type: ignore[arg-type]


def test_a_rack_too_large_to_enumerate_is_refused_not_hung() -> None:
    from ginnycore.equity import rank_core
    from ginnyo.native import empty_core
    layout = position({}, "AS").layout
    core = empty_core(layout)
    core.load(bytes([255]) * layout.size, bytes(layout.size), bytes([2] * 52 + [4]))
    with pytest.raises(ValueError, match="rack holds 108 tiles"):
        rank_core(core, compiled_model(default_model()), 10)


@pytest.mark.parametrize("weights, returns, message", [
    ([[0.0] * 11] * 3, [0.0] * 4, "weights"),
    ([[0.0] * 10] * 4, [0.0] * 4, "weights"),
    ([[math.nan] * 11] * 4, [0.0] * 4, "finite"),
    ([[0.0] * 11] * 4, [0.0, math.inf, 0.0, 0.0], "finite"),
    ([[0.0] * 11] * 4, [0.0] * 3, "returns"),
])
def test_a_bad_compiled_model_is_a_value_error(weights: list[list[float]], returns: list[float],
                                               message: str) -> None:
    from ginnycore.equity import LeaveModel as Compiled
    with pytest.raises(ValueError, match=message):
        Compiled(weights, returns, STAGES, [1] * 13)


def test_huge_weights_rank_without_overflow() -> None:
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "8H AS 2D *")
    ranked = rank_position(pos, hand_model(returns=1e300, jokers=1e308, penalty=-1e308))
    assert len(ranked) > 1 and all(isinstance(candidate.equity, float) for candidate in ranked)
