"""The graded review of ``ginnyo analyze RECORD`` (ginnyo.analysis.grades): the grade
cut-offs, lichess's accuracy, and every move of a record graded, a weaker
player's moves graded worse, endgame moves by the exact spread lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import cli
from ginnyo.players.equity import EquityPlayer
from ginnyo.game import Game, play_game
from ginnyo.players.levels import make_level
from ginnyo.game.records import parse_record, record_text
from ginnyo.analysis.records import analyze_record
from ginnyo.analysis.grades import GRADES, accuracy, endgame_grade, grade

Graded = tuple[list[dict[str, Any]], list[dict[str, Any]]]


@pytest.mark.parametrize("lost, expected", [(0.0, "none"), (0.0099, "none"), (0.01, "small"), (0.039, "small"),
                                            (0.04, "medium"), (0.0999, "medium"), (0.10, "large"), (1.0, "large")])
def test_a_move_is_graded_by_the_win_probability_it_lost(lost: float, expected: str) -> None:
    assert grade(lost) == expected


@pytest.mark.parametrize("points, expected", [(0, "none"), (1, "small"), (5, "small"), (6, "medium"),
                                              (15, "medium"), (16, "large")])
def test_an_endgame_move_is_graded_by_the_points_it_lost(points: int, expected: str) -> None:
    assert endgame_grade(points) == expected


def test_accuracy_is_100_for_moves_that_lose_nothing_and_falls_with_the_loss() -> None:
    assert accuracy([0.0, 0.0]) == 100.0
    marks = [accuracy([lost]) or 0.0 for lost in (0.05, 0.2, 0.6)]
    assert 100.0 > marks[0] > marks[1] > marks[2] >= 0.0
    assert accuracy([]) is None


@pytest.fixture(scope="module")
def graded() -> Graded:
    """A 2-player game of seed 4: the equity player against level 1."""
    game = Game.deal(2, 4)
    play_game(game, [EquityPlayer(), make_level("level1", 4, 1)])
    lines = parse_record(record_text(game, ["equity", "level1"]))
    return analyze_record(lines, "game")


def test_every_move_of_a_record_is_graded(graded: Graded) -> None:
    rows, _ = graded
    assert rows
    for row in rows:
        assert row["grade"] in GRADES
        assert 0.0 <= row["win_after"] <= row["win_before"] <= 1.0
        assert row["win_lost"] == pytest.approx(row["win_before"] - row["win_after"], abs=2e-4)


def test_the_weaker_player_is_the_less_accurate(graded: Graded) -> None:
    _, summary = graded
    equity, level1 = summary
    assert equity["accuracy"] > level1["accuracy"]
    assert sum(equity["grades"].values()) == equity["turns"]


def test_an_endgame_move_loses_the_exact_spread(graded: Graded) -> None:
    rows, _ = graded
    endgame = [row for row in rows if row.get("endgame")]
    assert endgame
    for row in endgame:
        assert row["spread_lost"] == max(0, row["spread_best"] - row["spread_played"])
        assert row["grade"] == endgame_grade(row["spread_lost"])


def test_analyze_writes_the_grades_in_its_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.deal(2, 6)
    play_game(game, [EquityPlayer(), EquityPlayer()])
    path = tmp_path / "game.jsonl"
    path.write_text(record_text(game, ["equity", "equity"]))
    code, out, _ = cli(capsys, "analyze", str(path), "--json", "--quiet")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert all("grade" in line for line in lines if "turn" in line)
    assert all("accuracy" in line["summary"] for line in lines if "summary" in line)
