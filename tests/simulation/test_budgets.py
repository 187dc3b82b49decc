"""Every time budget holds at every stage of the game: a simulation's
``seconds`` (``best-move --sim --time``), the endgame solver's, the pre-endgame
solver's and the engine's ``go endgame S``.

A budget holds when the call takes at most ``max(OVERSHOOT * budget,
FLOOR_SECONDS)``: the bound of issue 31.  The tests measure the ratio of the
time taken to the budget and assert that bound, never the speed of the work
itself; the budgets are long enough for a loaded 2-core machine to keep them, and a call over its bound is
timed again (the fewest of three), as that machine's load comes in bursts."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from cli_helpers import cli
from ginnyo.endgame.exact import solve
from ginnyo.endgame.greedy import greedy_endgames
from ginnyo.endgame.choice import solver_move
from ginnyo.engine.server import Engine
from ginnyo.equity.rank import rank_position
from ginnyo.equity.leaves import default_model
from ginnyo.position import Position
from ginnyo.endgame.greedy import greedy_preendgames
from ginnyo.simulation.rollouts import BLOCK, Setup, Tally, rollout_results, setup_for, top_candidates
from ginnyo.simulation.session import simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OVERSHOOT = 4           # a budget holds within this multiple of itself ...
FLOOR_SECONDS = 0.5     # ... or this many seconds, whichever is larger
STAGES = ("opening", "midgame", "late")    # late.json's rollouts are played to the game's end
ATTEMPTS = 3            # calls timed before a budget is said to be overrun (see overshoot_ratio)


def bound(budget: float) -> float:
    """The longest a call with a budget of ``budget`` seconds may take."""
    return max(OVERSHOOT * budget, FLOOR_SECONDS)


def overshoot_ratio(call: Callable[[], object], budget: float) -> float:
    """How many budgets ``call`` took: the fewest of up to :data:`ATTEMPTS` calls, made again only while over
    the bound.  A shared machine's load comes in bursts of about a second that may stall any one call; a call
    that does not keep its budget keeps failing."""
    ratios: list[float] = []
    while len(ratios) < ATTEMPTS and (not ratios or min(ratios) > bound(budget) / budget):
        began = time.perf_counter()
        call()
        ratios.append((time.perf_counter() - began) / budget)
    return min(ratios)


def stage_setup(stage: str) -> Setup:
    position = Position.load(EXAMPLES / f"{stage}.json")
    model = default_model()
    return setup_for(position, top_candidates(rank_position(position, model, limit=5), 5), 2, 0, model)


def test_the_late_example_plays_its_rollouts_to_the_end() -> None:
    assert stage_setup("late").to_end and not stage_setup("opening").to_end


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("budget", [0.01, 0.2])
@pytest.mark.parametrize("stage", STAGES)
def test_a_simulation_keeps_its_time_budget(stage: str, budget: float, threads: int) -> None:
    setup = stage_setup(stage)
    ratio = overshoot_ratio(lambda: simulate(setup, 10**6, threads=threads, seconds=budget), budget)
    assert ratio <= bound(budget) / budget, f"{stage}: {ratio:.1f} budgets"


@pytest.mark.parametrize("stage", STAGES)
def test_best_move_sim_keeps_its_time_budget(capsys: pytest.CaptureFixture[str], stage: str) -> None:
    budget = 0.01
    argv = ["best-move", "--sim", "1000000", "--time", str(budget), "--workers", "1", "--json",
            str(EXAMPLES / f"{stage}.json")]
    ratio = overshoot_ratio(lambda: cli(capsys, *argv), budget)
    assert ratio <= bound(budget) / budget, f"{stage}: {ratio:.1f} budgets"


def test_a_simulation_stopped_by_its_budget_is_the_same_as_one_asked_for_that_many_rollouts() -> None:
    setup = stage_setup("late")
    stopped = simulate(setup, 10**6, seconds=0.05)
    count = stopped[0].rollouts
    assert 0 < count < 10**6
    assert simulate(setup, count) == stopped


def test_a_block_run_in_pieces_sums_as_the_whole_block() -> None:
    setup = stage_setup("midgame")
    tally = Tally(len(setup.candidates))
    for start in range(0, 3 * BLOCK, BLOCK):
        tally.add(rollout_results(setup, start, BLOCK)[0])
    results = simulate(setup, 3 * BLOCK)
    means = sorted(tally.mean(row) for row in range(len(setup.candidates)))
    assert sorted(result.mean for result in results) == means
    assert np.array_equal(rollout_results(setup, 0, 10)[0], rollout_results(setup, 0, 10, threads=2)[0])


def test_the_endgame_solver_keeps_its_time_budget() -> None:
    budget = 0.02
    endgames = greedy_endgames(30, 1)
    assert len(endgames) >= 10
    worst = max(overshoot_ratio(lambda: solve(position, budget), budget) for position in endgames)
    assert worst <= bound(budget) / budget, f"{worst:.1f} budgets"


@pytest.mark.parametrize("box", [1, 2])
def test_the_preendgame_solver_keeps_its_time_budget(box: int) -> None:
    budget = 0.05
    positions = greedy_preendgames(4, 1, box)
    assert positions
    worst = max(overshoot_ratio(lambda: solver_move(position, budget), budget) for position in positions)
    assert worst <= bound(budget) / budget, f"box {box}: {worst:.1f} budgets"


def test_the_engine_go_endgame_keeps_its_time_budget() -> None:
    budget = 0.05
    engine = Engine()
    position = greedy_preendgames(1, 2, 2)[0]
    list(engine.handle(f"position json {position.to_json()}"))
    ratio = overshoot_ratio(lambda: list(engine.handle(f"go endgame {budget}")), budget)
    assert ratio <= bound(budget) / budget, f"{ratio:.1f} budgets"


def test_the_endgame_command_keeps_its_time_budget(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    budget = 0.02
    path = tmp_path / "endgame.json"
    ratios = []
    for position in greedy_endgames(10, 3):
        path.write_text(position.to_json(), encoding="utf-8")
        ratios.append(overshoot_ratio(lambda: cli(capsys, "endgame", "--time", str(budget), str(path)), budget))
    assert ratios and max(ratios) <= bound(budget) / budget, f"{max(ratios):.1f} budgets"


def test_a_dask_part_past_its_deadline_runs_one_rollout_and_stops() -> None:
    from ginnyo.simulation.session import _outcome_part
    setup = stage_setup("midgame")
    start, (outcomes, wins) = _outcome_part((BLOCK, BLOCK), setup, (time.time() - 1.0, 0.01))
    assert start == BLOCK and outcomes.shape == (1, len(setup.candidates))
    assert np.array_equal(outcomes, rollout_results(setup, BLOCK, 1)[0])
    assert _outcome_part((0, 10), setup)[1][0].shape == (10, len(setup.candidates))


def test_a_simulation_on_a_dask_cluster_keeps_its_time_budget_within_a_block() -> None:
    """Before issue 31's fix a Dask run checked its budget only between blocks, so it
    always ran a whole block; now each part runs in pieces and stops at the deadline."""
    distributed = pytest.importorskip("distributed")
    setup = stage_setup("late")   # its rollouts play to the end: a block takes far longer than the budget
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        results = simulate(setup, 10**6, scheduler=cluster.scheduler_address, seconds=0.01)
    assert 0 < results[0].rollouts < BLOCK
