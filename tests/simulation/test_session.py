"""The stoppable simulation session: the block loop that ``best-move --sim``, the players and the
analysis board's jobs all drive, stepped, stopped and read while it runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from ginnyo.equity.leaves import default_model
from ginnyo.position import Position
from ginnyo.simulation.rollouts import BLOCK, Setup
from ginnyo.simulation.session import DONE, RUNNING, STOPPED, WAITING, SimulationSession, position_setup, simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def midgame_setup(seed: int = 3) -> Setup:
    return position_setup(Position.load(EXAMPLES / "midgame.json"), default_model(), candidates=3, seed=seed)


def test_a_session_stepped_a_block_at_a_time_ends_where_simulate_does() -> None:
    setup = midgame_setup()
    session = SimulationSession(setup, BLOCK + 10)
    assert session.state == WAITING and session.progress == (0, BLOCK + 10)
    session.start()
    assert session.state == RUNNING
    assert session.step() == BLOCK and session.progress == (BLOCK, BLOCK + 10)
    assert session.step() == 10 and session.state == DONE
    assert session.step() == 0 and session.next_block() == (BLOCK + 10, 0)
    expected = simulate(setup, BLOCK + 10)
    assert [(r.candidate, r.rollouts, r.mean, r.stdev) for r in session.results()] == \
        [(r.candidate, r.rollouts, r.mean, r.stdev) for r in expected]


def test_a_block_run_elsewhere_counts_the_same_as_one_stepped_here() -> None:
    setup = midgame_setup()
    stepped, added = SimulationSession(setup, 64).start(), SimulationSession(setup, 64).start()
    stepped.step()
    start, count = added.next_block()
    added.add(added.run_block(start, count, threads=2))
    assert [r.mean for r in stepped.results()] == [r.mean for r in added.results()]


def test_a_stopped_session_keeps_what_it_made_and_runs_no_more() -> None:
    session = SimulationSession(midgame_setup(), 10 * BLOCK).start()
    session.step()
    session.stop()
    assert session.state == STOPPED and session.finished
    assert session.step() == 0 and session.progress == (BLOCK, 10 * BLOCK)
    assert all(result.rollouts == BLOCK for result in session.results())


def test_before_its_first_block_every_candidate_shows_no_rollouts_in_equity_order() -> None:
    setup = midgame_setup()
    results = SimulationSession(setup, 100).results()
    assert [r.candidate for r in results] == list(setup.candidates)
    assert all(r.rollouts == 0 and r.wins is None for r in results)


def test_a_stopping_level_must_be_one_of_the_levels() -> None:
    with pytest.raises(ValueError, match="stop must be one of"):
        SimulationSession(midgame_setup(), 100, stop=90)
