"""What the commands print for a newcomer (issue 30 item 2): one word for each
meaning (sd a standard deviation, spread a score difference), no negative zero,
Crazy Rummy's summary saying the lowest total wins, --stop showing the paired
lead it tests, plays shown in notation, and the SVG board's legend."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_helpers import cli
from ginnyo import Position
from ginnyo.commands.table import turn_line
from ginnyo.support.number_text import number
from ginnyo.position.render import KINDS, board_svg

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(\.0+)?(?![\d.])")


def test_selfplay_summary_calls_a_standard_deviation_sd(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "selfplay", "--games", "4", "--workers", "1")
    assert code == 0 and "spread" not in out
    assert out.splitlines()[2].split()[:6] == ["player", "kind", "wins", "shared", "mean", "sd"]
    assert "(sd " in out


def test_crazy_selfplay_summary_says_the_lowest_total_wins(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "crazy", "selfplay", "--games", "2", "--players", "3", "--workers", "1")
    assert code == 0 and "the lowest total wins" in out and "spread" not in out


@pytest.mark.parametrize("value, spec, shown", [
    (-0.0, "+7.1f", "   +0.0"), (-0.04, ">6.1f", "   0.0"), (-0.0, "+g", "+0"), (-0.0004, "+9.3f", "   +0.000"),
    (-1.5, "+.1f", "-1.5"), (-4e-05, "+g", "-4e-05"), (0, "+d", "+0"),
])
def test_a_number_that_rounds_to_zero_has_no_minus(value: float, spec: str, shown: str) -> None:
    assert number(value, spec) == shown


def test_the_analysis_table_shows_no_negative_zero() -> None:
    row = {"turn": 3, "player": 0, "name": "equity", "points_lost": 0, "equity_lost": -0.0,
           "played": {"notation": "pass", "score": 0, "equity": -0.0001},
           "best": None, "equity": {"notation": "pass", "score": 0, "equity": -0.0}}
    assert not NEGATIVE_ZERO.search(turn_line(row)), turn_line(row)


def test_endgame_whose_racks_are_empty_says_they_cost_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "endgame", str(EXAMPLES / "endgame-short.json"))
    assert code == 0 and out.splitlines()[-1] == "end of game: racks left cost 0 (to move), 0 (opponent)"


@pytest.mark.parametrize("argv", [
    ["endgame", "examples/endgame.json"], ["endgame", "examples/endgame-short.json"],
    ["best-move", "--endgame", "examples/preendgame.json"], ["best-move", "--equity", "examples/midgame.json"],
    ["best-move", "--sim", "64", "--workers", "1", "examples/late.json"],
    ["analyze", "--table", "examples/game-7.jsonl"],
])
def test_no_negative_zero_in_the_examples_output(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES.parent)
    code, out, _ = cli(capsys, *argv)
    assert code == 0 and not NEGATIVE_ZERO.search(out), out


def test_stop_shows_the_paired_lead_it_tests(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--sim", "20000", "--stop", "99", "--workers", "1",
                       str(EXAMPLES / "midgame.json"))
    lines = out.splitlines()
    assert code == 0 and "stopped early" in lines[0]
    rows = lines[1:-1]
    assert "lead" not in rows[0] and all(" lead +" in row for row in rows[1:])
    for row in rows[1:]:   # stopped: every lead's interval at the --stop level lies above 0
        found = re.search(r"lead [+-][\d.]+%? \[([+-][\d.]+)", row)
        assert found is not None and float(found.group(1)) > 0, row
    assert "--stop 99 stops once every low end is above 0" in lines[-1] and "2.33 standard errors" in lines[-1]


def test_sim_json_gives_the_paired_lead_of_every_other_candidate(capsys: pytest.CaptureFixture[str]) -> None:
    import json
    code, out, _ = cli(capsys, "best-move", "--sim", "512", "--json", "--workers", "1", str(EXAMPLES / "midgame.json"))
    candidates = json.loads(out)["candidates"]
    assert "paired_lead" not in candidates[0]
    assert all(set(c["paired_lead"]) == {"lead", "se", "by"} and c["paired_lead"]["by"] == "outcome"
               for c in candidates[1:])


def test_a_scored_play_from_a_position_prints_in_notation() -> None:
    position = Position.load(EXAMPLES / "extend.json")
    best = position.best_play()
    assert best is not None
    assert str(best) == "D2 KCKDKS" and repr(best) == "ScoredPlay('D2 KCKDKS', score=60)"
    assert [str(play) for play in position.top_plays(2)] == ["D2 KCKDKS", "D2 KCKSKD"]
    assert str(position.score("J8 8H8C8S")) == "J8 8H8C8S"


def test_a_scored_play_equals_and_pickles_as_before() -> None:
    import pickle
    position = Position.load(EXAMPLES / "extend.json")
    best = position.best_play()
    first = next(iter(position.legal_plays))
    assert best == first and hash(best) == hash(first)
    assert pickle.loads(pickle.dumps(best)) == best


def test_the_svg_board_has_a_legend_of_every_square_kind_and_the_joker() -> None:
    svg = board_svg(Position.load(EXAMPLES / "small-board.json"))
    legend = svg[svg.index('<g class="legend">'):]
    for _, effect in KINDS.values():
        assert f">{effect}</text>" in legend, effect
    assert ">joker (its card in the corner)</text>" in legend


def test_equity_says_why_a_return_beats_the_highest_scoring_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--equity", str(EXAMPLES / "midgame.json"))
    last = out.splitlines()[-1]
    assert code == 0 and out.splitlines()[1].startswith(" 1. return")
    assert last.startswith("#1 beats the highest-scoring play, J5 .KSkc for 30: that would keep")
    assert "#1 returns tiles for new ones and keeps KS KS *, worth +33.5" in last


def test_equity_says_nothing_more_when_the_highest_scoring_play_is_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "best-move", "--equity", str(EXAMPLES / "small-board.json"))
    assert code == 0 and out.splitlines()[1].startswith(" 1. B2 8S.TS ") and "#1 beats" not in out
