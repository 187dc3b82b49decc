"""The win-probability model (ginnyo.odds.win_probability): the shipped file loads
and beats the spread-only baseline as it records, a bigger lead is a better
chance, the fit recovers a known logistic law, the compiled snapshots are
reproducible and label the mover's share of the win, and best-move --sim
reports a chance for every candidate."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import cli
from helpers import position
from ginnyo.odds.win_probability import (BOX_BANDS, DATA_FILE, PLAYER_COUNTS, band_of, calibration, default_model,
                                    fit_logistic, from_json, outcome_chances, self_play_positions, train)


def test_the_shipped_model_loads_for_every_player_count() -> None:
    model = default_model()
    assert set(model.weights) == set(PLAYER_COUNTS)
    assert all(len(rows) == len(BOX_BANDS) for rows in model.weights.values())


def test_the_shipped_model_beats_the_spread_only_baseline_on_held_out_games() -> None:
    brier = default_model().training["brier"]
    for players in PLAYER_COUNTS:
        assert brier[str(players)]["model"] < brier[str(players)]["spread_only"]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_bigger_lead_is_a_better_chance(players: int) -> None:
    model = default_model()
    for box in (0, 5, 30):
        chances = [model.probability(players, [lead] * (players - 1), box) for lead in (-40, -10, 0, 10, 40)]
        assert chances == sorted(chances) and chances[0] < chances[-1]


def test_a_lead_counts_for_more_as_the_box_empties() -> None:
    model = default_model()
    assert model.probability(2, [20], 0) > model.probability(2, [20], 35)


def test_every_box_size_has_one_band() -> None:
    assert [band_of(size) for size in (0, 1, 3, 4, 31, 32, 500)] == [0, 1, 1, 2, 5, 6, 6]


def test_the_fit_recovers_a_known_logistic_law() -> None:
    rng = np.random.default_rng(5)
    x = np.column_stack([np.ones(20000), rng.normal(size=20000)])
    y = (rng.random(20000) < 1 / (1 + np.exp(-(0.5 + 2.0 * x[:, 1])))).astype(float)
    weights = fit_logistic(x, y, ridge=0.0)
    assert weights == pytest.approx([0.5, 2.0], abs=0.1)


def test_calibration_bins_hold_their_predictions() -> None:
    predicted = np.array([0.05, 0.05, 0.95, 0.95])
    wins = np.array([0.0, 0.0, 1.0, 0.0])
    assert calibration(predicted, wins) == [(0.05, 0.0, 2), (0.95, 0.5, 2)]


def test_the_snapshots_are_the_same_on_one_thread_or_two() -> None:
    one = self_play_positions(3, 300, 8, per_game=8, threads=1)
    two = self_play_positions(3, 300, 8, per_game=8, threads=2)
    assert np.array_equal(one.leads, two.leads) and np.array_equal(one.wins, two.wins)


def test_a_snapshots_label_is_the_movers_share_of_the_win() -> None:
    positions = self_play_positions(2, 40, 3, per_game=6)
    assert set(np.unique(positions.wins)) <= {0.0, 0.5, 1.0}
    by_game: dict[int, set[float]] = {}
    for game, lead, won in zip(positions.game, positions.leads[:, 0], positions.wins):
        by_game.setdefault(int(game), set()).add(float(won))
    # two seats of one game: one won, the other lost (or both tied)
    assert all(labels in ({0.0}, {1.0}, {0.5}, {0.0, 1.0}) for labels in by_game.values())
    assert any(labels == {0.0, 1.0} for labels in by_game.values())


def test_a_file_of_another_kind_is_refused() -> None:
    data = json.loads(DATA_FILE.read_text())
    data["kind"] = "something else"
    with pytest.raises(ValueError, match="not a ginnyo win probability file"):
        from_json(data)


def test_outcome_chances_rise_with_the_outcome() -> None:
    chances = outcome_chances(default_model(), 2, [0.0], 10, 2)(np.array([[-20.0, 0.0, 20.0]]))
    assert chances.shape == (1, 3) and chances[0, 0] < chances[0, 1] < chances[0, 2]


def test_best_move_sim_reports_each_candidates_win_probability(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    pos = position({"G8": "5H", "H8": "6H", "I8": "7H"}, "5C 5S KD KC KS AS 9H 8D")
    path = tmp_path / "position.json"
    path.write_text(json.dumps(pos.to_dict()))
    code, out, _ = cli(capsys, "best-move", str(path), "--sim", "32", "--json", "--workers", "1")
    data = json.loads(out)
    assert code == 0
    assert all(0.0 <= candidate["win_probability"] <= 1.0 for candidate in data["candidates"])


def test_training_is_reproducible_from_its_settings() -> None:
    first = train(games=60, seed=4, per_game=3, threads=1, player_counts=(2, 4))
    again = train(games=60, seed=4, per_game=3, threads=2, player_counts=(2, 4))
    assert first.model.to_json() == again.model.to_json()
    assert first.brier == again.brier
