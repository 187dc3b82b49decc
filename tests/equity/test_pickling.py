"""What goes to worker processes and a Dask cluster pickles, after local use too:
a leave model whose compiled form is kept on it, a simulation setup."""

from __future__ import annotations

import pickle
from pathlib import Path

from ginnyo.equity import compiled_model, rank_position
from ginnyo.equity.leaves import default_model, load
from ginnyo.position import Position
from ginnyo.simulation import rollouts_of, setup_for, simulate, top_candidates

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_leave_model_pickles_after_it_was_compiled() -> None:
    model = load(None)
    compiled_model(model)
    again = pickle.loads(pickle.dumps(model))
    assert again == model and "_compiled" not in again.__dict__


def test_a_simulation_setup_pickles_after_a_local_simulation() -> None:
    position = Position.load(EXAMPLES / "midgame.json")
    model = default_model()
    setup = setup_for(position, top_candidates(rank_position(position, model, limit=3), 3), 2, 0, model)
    first = simulate(setup, 20)
    rollouts_of(setup)
    copy = pickle.loads(pickle.dumps(setup))
    assert simulate(copy, 20) == first
