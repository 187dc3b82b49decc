"""``ginnyo.players.simulate_with_odds`` is what ``best-move --sim`` computes: the
command parses, calls it and prints, so the Python API gives the same candidates,
means and win probabilities for the same seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import cli
from ginnyo import Position
from ginnyo.equity.leaves import default_model
from ginnyo.equity.rank import candidate_json
from ginnyo.players import simulate_with_odds

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["midgame", "late"])
def test_the_api_gives_what_best_move_sim_prints(capsys: pytest.CaptureFixture[str], name: str) -> None:
    path = EXAMPLES / f"{name}.json"
    code, out, _ = cli(capsys, "best-move", "--sim", "96", "--seed", "4", "--workers", "1", "--json", str(path))
    assert code == 0
    printed = json.loads(out)
    setup, results, inferred = simulate_with_odds(Position.load(path), 96, default_model(), seed=4, threads=1)
    assert inferred is None and setup.to_end == printed["to_end"]
    position = Position.load(path)
    assert [(row["notation"], row["mean"], row["win_probability"]) for row in printed["candidates"]] == [
        (candidate_json(position, result.candidate)["notation"], round(result.mean, 3), round(result.chance or 0, 4))
        for result in results]
    assert all(result.chance is not None and 0.0 <= result.chance <= 1.0 for result in results)
