"""One analysis report for every face: what ``best-move`` prints and the analysis board serves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import cli
from ginnyo.analysis.report import position_report, result_json
from ginnyo.equity.leaves import default_model
from ginnyo.position import Position
from ginnyo.simulation.session import SimulationSession, position_setup

MIDGAME = Path(__file__).resolve().parents[2] / "examples" / "midgame.json"


def test_one_rollout_makes_no_interval() -> None:
    setup = position_setup(Position.load(MIDGAME), default_model(), candidates=2)
    session = SimulationSession(setup, 1).start()
    session.step()
    assert result_json({}, session.results()[0])["ci95"] is None


def test_best_move_sim_json_of_one_rollout_is_strict_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", str(MIDGAME), "--sim", "1", "--json", "--workers", "1")
    answer = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert code == 0 and answer["rollouts"] == 1 and answer["candidates"][0]["ci95"] is None


def test_the_analysis_board_and_best_move_name_the_same_best_play() -> None:
    position = Position.load(MIDGAME)
    report = position_report(position, position.game_context, 3)
    best = position.best_play()
    assert best is not None
    assert report["by_score"][0]["notation"] == position.notation(best)
    assert all(meld["tiles"] and None not in meld["tiles"] for meld in report["by_score"][0]["melds"])
