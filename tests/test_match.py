"""Matches: paired seeded games, the win rate's Wilson interval, the summary, the
score plot and ``ginnyo match``'s bad input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli
from helpers import FULL_CORPUS
from ginnyo.strength import PairResult, play_pair, run, scores_svg, summarise, wilson, SimSettings


def test_wilson_interval_of_known_proportions() -> None:
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0.56, 4000)
    assert low == pytest.approx(0.5446, abs=1e-4) and high == pytest.approx(0.5753, abs=1e-4)
    assert wilson(1.0, 10)[1] == pytest.approx(1.0)


def test_a_deal_is_played_twice_with_the_seats_swapped() -> None:
    result = play_pair(4, ("greedy", "greedy"), SimSettings())
    # the same player on both sides: the second game mirrors the first
    assert result.a_scores == (result.b_scores[1], result.b_scores[0])


def test_summary_counts_ties_as_half() -> None:
    results = [PairResult(0, (10, 5), (5, 5), (20, 20)), PairResult(1, (0, 30), (10, 20), (20, 20))]
    summary = summarise(("a", "b"), results)
    assert (summary.games, summary.wins, summary.ties, summary.losses) == (4, 2, 1, 1)
    assert summary.win_rate == pytest.approx(2.5 / 4)
    assert summary.mean_difference == pytest.approx(((5 + 0) / 2 + (-10 + 10) / 2) / 2)


def test_match_results_do_not_depend_on_the_workers() -> None:
    assert run(("equity", "greedy"), 4, seed=3, workers=2) == run(("equity", "greedy"), 4, seed=3, workers=1)


def test_the_score_plot_is_an_svg_with_both_panels() -> None:
    results = run(("greedy", "random"), 6, seed=1, workers=1)
    svg = scores_svg(summarise(("greedy", "random"), results), results)
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "final score" in svg and "score difference" in svg and "greedy vs random" in svg


def test_match_command_prints_the_win_rate_and_writes_the_plot(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    plot = tmp_path / "scores.svg"
    code, out, _ = cli(capsys, "match", "--bots", "greedy,random", "--games", "6", "--workers", "1",
                       "--plot", str(plot))
    assert code == 0 and "win rate of greedy" in out and "95% CI" in out
    assert plot.read_text(encoding="utf-8").startswith("<svg")
    code, out, _ = cli(capsys, "match", "--bots", "sim,greedy", "--games", "2", "--workers", "1",
                       "--rollouts", "4", "--candidates", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 2 and data["sim"] == {"rollouts": 4, "candidates": 2, "plies": 2}
    assert data["ci95"][0] <= data["win_rate"] <= data["ci95"][1]


@pytest.mark.parametrize("argv, message", [
    (["--bots", "greedy", "--games", "4"], "--bots: give two players"),
    (["--bots", "greedy,clever", "--games", "4"], "--bots: unknown player 'clever'"),
    (["--bots", "greedy,random", "--games", "5"], "--games: 5 is odd"),
    (["--bots", "greedy,random", "--games", "0"], "--games: give at least 2"),
    (["--bots", "greedy,random", "--games", "-2"], "--games: -2 is out of range"),
    (["--bots", "sim,greedy", "--games", "2", "--rollouts", "0"], "--rollouts"),
    (["--bots", "greedy,random", "--games", "2", "--plot", "/no/such/dir/x.svg"], "--plot"),
])
def test_match_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert_bad_input(capsys, "match", *argv, message=message)


def test_plot_sim_prints_a_win_rate_a_rollout_count_and_writes_the_svg(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    out = tmp_path / "sim.svg"
    code, text, _ = cli(capsys, "plot-sim", "--rollouts", "1,3", "--games", "2", "--workers", "1",
                        "--out", str(out))
    lines = text.splitlines()
    assert code == 0 and lines[2].split()[0] == "1" and lines[3].split()[0] == "3"
    root = ElementTree.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and "rollouts a decision" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, message", [
    (["--rollouts", "4,2"], "--rollouts: '4,2' must be increasing"),
    (["--rollouts", "0,2"], "--rollouts"),
    (["--rollouts", "two"], "--rollouts: 'two' is not a list"),
    (["--against", "clever"], "unknown player 'clever'"),
    (["--games", "3"], "--games: 3 is not a positive even number"),
])
def test_plot_sim_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
                                    message: str) -> None:
    assert_bad_input(capsys, "plot-sim", *argv, "--out", str(tmp_path / "x.svg"), message=message)


@pytest.mark.skipif(not FULL_CORPUS, reason="a longer match: GINNYO_FULL_CORPUS=1")
def test_equity_beats_greedy_over_a_thousand_games() -> None:
    summary = summarise(("equity", "greedy"), run(("equity", "greedy"), 1000, seed=500000))
    assert summary.win_rate > 0.5 and summary.mean_difference > 0


def test_match_leaves_give_each_side_its_leave_file(tmp_path: Path) -> None:
    from ginnyo.leaves import FEATURES, STAGES, LeaveModel
    zero = tmp_path / "zero.json"
    zero.write_text(json.dumps(LeaveModel(tuple((0.0,) * len(FEATURES) for _ in STAGES)).to_json()), encoding="utf-8")
    same = run(("equity", "equity"), 4, seed=0, workers=1, leaves=(str(zero), str(zero)))
    assert all(result.a_scores == result.b_scores[::-1] for result in same)   # one player: mirrored
    mixed = run(("equity", "equity"), 4, seed=0, workers=1, leaves=(str(zero), None))
    assert any(result.a_scores != result.b_scores[::-1] for result in mixed)


def test_match_bad_leaves_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("not json", encoding="utf-8")
    assert_bad_input(capsys, "match", "--bots", "equity,equity", "--games", "2", "--leaves", f"{bad},",
                     message="--leaves")
    assert_bad_input(capsys, "match", "--bots", "equity,equity", "--games", "2", "--leaves", "a,b,c",
                     message="--leaves")
