"""One analysis report for every face: what ``best-move`` prints and the analysis board serves."""

from __future__ import annotations

import json
from pathlib import Path

from ginnyo.analysis.report import position_report, result_json, simulation_json
from ginnyo.equity.leaves import default_model
from ginnyo.position import Position
from ginnyo.simulation.session import SimulationSession, position_setup

MIDGAME = Path(__file__).resolve().parents[2] / "examples" / "midgame.json"


def test_one_rollout_makes_no_interval_and_the_json_stays_json() -> None:
    position = Position.load(MIDGAME)
    setup = position_setup(position, default_model(), candidates=2)
    session = SimulationSession(setup, 1).start()
    session.step()
    results = session.results()
    assert result_json({}, results[0])["ci95"] is None
    text = json.dumps(simulation_json(position, setup, results, 1), allow_nan=False)   # no Infinity
    assert json.loads(text)["rollouts"] == 1


def test_the_analysis_board_and_best_move_name_the_same_best_play() -> None:
    position = Position.load(MIDGAME)
    report = position_report(position, position.game_context, 3)
    best = position.best_play()
    assert best is not None
    assert report["by_score"][0]["notation"] == position.notation(best)
    assert all(meld["tiles"] and None not in meld["tiles"] for meld in report["by_score"][0]["melds"])
