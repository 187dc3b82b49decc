"""Matches: seeded deals played with A in every seat (2 to 4 players), the win
share's Wilson interval, the summary, the score plot and ``ginnyo match``'s bad input."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli
from helpers import FULL_CORPUS
from ginnyo.game.game import Game, play_game
from ginnyo.equity.leaves import default_model
from ginnyo.players.players import make_player
from ginnyo.strength.match import SimSettings, play_deal, run, seatings
from ginnyo.strength.results import DealResult, game_point, summarise, wilson
from ginnyo.strength.plots import scores_svg


def test_wilson_interval_of_known_proportions() -> None:
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0.56, 4000)
    assert low == pytest.approx(0.5446, abs=1e-4) and high == pytest.approx(0.5753, abs=1e-4)
    assert wilson(1.0, 10)[1] == pytest.approx(1.0)


def test_a_deal_is_played_twice_with_the_seats_swapped() -> None:
    result = play_deal(4, ("greedy", "greedy"), SimSettings(), make_player=make_player)
    # the same player on both sides: the second game mirrors the first
    assert result.a_scores == (result.field_scores[1][0], result.field_scores[0][0])


def test_summary_counts_ties_as_half() -> None:
    # A's and B's scores (10, 5) and (5, 5), then (0, 10) and (30, 20): A in seat 0, then in seat 1
    results = [DealResult(0, ((10, 5), (5, 5)), (20, 20)), DealResult(1, ((0, 10), (20, 30)), (20, 20))]
    summary = summarise(("a", "b"), results)
    assert (summary.games, summary.wins, summary.ties, summary.losses) == (4, 2, 1, 1)
    assert summary.win_rate == pytest.approx(2.5 / 4)
    assert summary.mean_difference == pytest.approx(((5 + 0) / 2 + (-10 + 10) / 2) / 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_deal_is_played_k_times_with_a_once_in_each_seat(players: int) -> None:
    games = seatings(("a", "b"), players)
    assert len(games) == players
    assert [[seat for seat, kind in enumerate(kinds) if kind == "a"] for kinds in games] == \
        [[seat] for seat in range(players)]
    # identical players: every game of the deal is the same, and A's score in game s is seat s's
    result = play_deal(9, ("greedy", "greedy"), SimSettings(), players, make_player=make_player)
    assert len(set(result.scores)) == 1 and len(result.scores[0]) == players
    assert result.a_scores == result.scores[0]
    assert result.field_scores[1] == result.scores[0][:1] + result.scores[0][2:]


def test_a_deal_at_three_players_is_the_same_deal_with_a_moved_seat_to_seat() -> None:
    result = play_deal(12, ("equity", "greedy"), SimSettings(), 3, make_player=make_player)
    for a_seat in range(3):
        seated = [make_player("equity" if seat == a_seat else "greedy", 12, seat) for seat in range(3)]
        game = play_game(Game.deal(3, 12), seated)
        assert result.scores[a_seat] == tuple(game.scores) and result.turns[a_seat] == game.turns_played


def test_a_game_point_splits_the_win_among_the_players_tied_for_first() -> None:
    assert game_point((30, 20, 10), 0) == 1.0 and game_point((30, 20, 10), 1) == 0.0
    assert game_point((30, 30, 10), 1) == 0.5 and game_point((30, 30, 10), 2) == 0.0
    assert game_point((7, 7, 7, 2), 2) == pytest.approx(1 / 3) and game_point((5, 5), 0) == 0.5


def test_three_player_summary_counts_wins_ties_for_first_and_the_field_difference() -> None:
    # A in seat 0, 1, 2: A alone on top; A tied with one B; A below both
    results = [DealResult(0, ((30, 10, 20), (25, 25, 10), (40, 20, 10)), (30, 30, 30))]
    summary = summarise(("a", "b"), results)
    assert summary.players == 3 and summary.parity == pytest.approx(1 / 3)
    assert (summary.games, summary.wins, summary.ties, summary.losses) == (3, 1, 1, 1)
    assert summary.win_rate == pytest.approx(1.5 / 3)
    assert (summary.low, summary.high) == pytest.approx(wilson(0.5, 3))
    # A - the field's mean: 30 - 15, 25 - 17.5, 10 - 30
    assert summary.mean_difference == pytest.approx((15 + 7.5 - 20) / 3)
    assert summary.a_mean == pytest.approx(65 / 3) and summary.b_mean == pytest.approx((10 + 20 + 25 + 10 + 40 + 20) / 6)
    assert summary.to_json()["players"] == 3


def test_two_player_json_is_what_it_was_before_the_players_option_plus_players(
        capsys: pytest.CaptureFixture[str]) -> None:
    # printed by ``ginnyo match --bots greedy,random --games 6 --seed 5 --json`` at 2ccba61, before --players
    before = {"bots": ["greedy", "random"], "games": 6, "wins": 2, "ties": 0, "losses": 4, "win_rate": 0.33333,
              "ci95": [0.09677, 0.70001], "mean_difference": -34.833, "difference_ci95": [-148.438, 78.772],
              "mean_scores": [147.333, 182.167], "seed": 5}
    code, out, _ = cli(capsys, "match", "--bots", "greedy,random", "--games", "6", "--seed", "5", "--json",
                       "--workers", "1")
    data = json.loads(out)
    del data["seconds"]
    assert code == 0 and data == {**before, "players": 2}


def test_two_player_deals_are_the_seat_swapped_pairs_played_directly() -> None:
    for result in run(("equity", "random"), 4, seed=21, workers=1, make_player=make_player):
        for a_seat in (0, 1):
            kinds = ("equity", "random") if a_seat == 0 else ("random", "equity")
            game = play_game(Game.deal(2, result.seed),
                             [make_player(kind, result.seed, seat) for seat, kind in enumerate(kinds)])
            assert result.scores[a_seat] == tuple(game.scores)


def test_each_side_plays_by_its_own_leave_file() -> None:
    shipped = default_model()
    zero = dataclasses.replace(shipped, weights=tuple(tuple(0.0 for _ in row) for row in shipped.weights))
    plain = summarise(("equity", "equity"), run(("equity", "equity"), 8, seed=30, workers=1, make_player=make_player))
    assert plain.win_rate == 0.5 and plain.mean_difference == 0   # the same player: mirrored games
    a_zero = summarise(("equity", "equity"), run(("equity", "equity"), 8, seed=30, workers=1, models=(zero, None),
                                                  make_player=make_player))
    b_zero = summarise(("equity", "equity"), run(("equity", "equity"), 8, seed=30, workers=1, models=(None, zero),
                                                  make_player=make_player))
    assert a_zero.mean_difference != 0
    assert a_zero.win_rate == pytest.approx(1 - b_zero.win_rate)
    assert a_zero.mean_difference == pytest.approx(-b_zero.mean_difference)


def test_match_command_reads_each_sides_leave_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shipped = default_model()
    zero = dataclasses.replace(shipped, weights=tuple(tuple(0.0 for _ in row) for row in shipped.weights))
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(zero.to_json()), encoding="utf-8")
    argv = ["match", "--bots", "equity,equity", "--games", "4", "--seed", "30", "--workers", "1", "--json"]
    code, out, _ = cli(capsys, *argv, "--leaves-b", str(path), "--label", "shipped vs zero")
    data = json.loads(out)
    assert code == 0 and data["leaves"] == [None, str(path)] and data["label"] == "shipped vs zero"
    assert data["mean_difference"] != 0
    code, out, _ = cli(capsys, *argv, "--leaves-a", str(path), "--leaves-b", str(path))
    assert code == 0 and json.loads(out)["mean_difference"] == 0


def test_match_at_three_players_prints_the_win_share_against_the_field(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    plot = tmp_path / "scores.svg"
    code, out, _ = cli(capsys, "match", "--bots", "equity,greedy", "--players", "3", "--games", "3",
                       "--workers", "1", "--plot", str(plot))
    assert code == 0 and "equity vs 2 x greedy: 3 games (1 deal," in out
    assert "win share of equity against the field" in out and "parity 33.33%" in out
    svg = plot.read_text(encoding="utf-8")
    ElementTree.fromstring(svg)
    assert "the field of 2" in svg and "3 players, win share" in svg


def test_a_deal_records_whether_each_games_box_ran_empty() -> None:
    for seed in (4, 5):
        result = play_deal(seed, ("greedy", "greedy"), SimSettings(), make_player=make_player)
        game = play_game(Game.deal(2, seed), [make_player("greedy", seed, seat) for seat in range(2)])
        assert result.box_emptied == (len(game.box) == 0,) * 2
        assert result.reached_endgame == (len(game.box) == 0)


def test_endgame_deals_keeps_only_the_deals_whose_box_ran_empty(capsys: pytest.CaptureFixture[str]) -> None:
    results = run(("endgame", "equity"), 20, seed=20, workers=1, make_player=make_player)
    kept = [result for result in results if result.reached_endgame]
    assert 0 < len(kept) < len(results)
    code, out, _ = cli(capsys, "match", "--bots", "endgame,equity", "--games", "20", "--seed", "20",
                       "--workers", "1", "--json", "--endgame-deals")
    data = json.loads(out)
    expected = summarise(("endgame", "equity"), kept).to_json()
    assert code == 0 and data["endgame_deals"] == {"kept": len(kept), "played": 10}
    assert {key: data[key] for key in expected} == expected


def test_endgame_deals_without_one_says_so_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "match", "--bots", "greedy,greedy", "--games", "2", "--seed", "4",
                       "--workers", "1", "--endgame-deals")
    assert code == 1 and err.count("\n") == 1 and "--endgame-deals: the box ran empty in none of the 1 deals" in err


def test_one_deal_has_no_difference_interval_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "match", "--bots", "greedy,random", "--games", "2", "--workers", "1", "--json")
    assert code == 0 and json.loads(out, parse_constant=lambda name: pytest.fail(name))["difference_ci95"] is None


def test_match_results_do_not_depend_on_the_workers() -> None:
    assert run(("equity", "greedy"), 4, seed=3, workers=2, make_player=make_player) \
        == run(("equity", "greedy"), 4, seed=3, workers=1, make_player=make_player)


def test_three_player_results_with_a_leave_model_do_not_depend_on_the_workers() -> None:
    shipped = default_model()
    zero = dataclasses.replace(shipped, weights=tuple(tuple(0.0 for _ in row) for row in shipped.weights))
    one, two = (run(("equity", "equity"), 6, seed=3, players=3, models=(zero, None), workers=workers,
                    make_player=make_player)
                for workers in (1, 2))
    assert one == two and len(one) == 2


def test_the_score_plot_is_an_svg_with_both_panels() -> None:
    results = run(("greedy", "random"), 6, seed=1, workers=1, make_player=make_player)
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
    (["--bots", "greedy,random", "--games", "4", "--players", "5"], "--players: 5 is out of range (from 2 to 4)"),
    (["--bots", "greedy,random", "--games", "4", "--players", "1"], "--players: 1 is out of range"),
    (["--bots", "greedy,random", "--games", "4", "--players", "three"], "--players: 'three' is not a whole number"),
    (["--bots", "greedy,random", "--games", "4", "--players", "3"], "--games: 4 is not a multiple of 3"),
    (["--bots", "greedy,random", "--games", "0", "--players", "4"], "--games: give at least 4 games"),
    (["--bots", "greedy,equity", "--games", "2", "--leaves-a", "x.json"], "--leaves-a: greedy plays without leave"),
    (["--bots", "equity,random", "--games", "2", "--leaves-b", "x.json"], "--leaves-b: random plays without leave"),
    (["--bots", "equity,greedy", "--games", "2", "--leaves-a", "/no/such/leaves.json"], "--leaves-a: leave file"),
    (["--bots", "greedy,random", "--games", "2", "--label", "x" * 81], "--label: give one line of 1 to 80"),
    (["--bots", "greedy,random", "--games", "2", "--label", "a\nb"], "--label: give one line"),
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
    summary = summarise(("equity", "greedy"), run(("equity", "greedy"), 1000, seed=500000, make_player=make_player))
    assert summary.win_rate > 0.5 and summary.mean_difference > 0
