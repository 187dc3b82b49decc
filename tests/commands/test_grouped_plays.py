"""``moves --group``: the orderings of the same tiles on the same squares for the
same score (distinct plays, docs/RULES.md §4.6) as one line with their count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import cli
from ginnyo import Position
from ginnyo.native import ranked_moves
from ginnyo.position.play_groups import group_key, grouped

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OPENING = str(EXAMPLES / "opening.json")


def test_without_group_every_ordering_is_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "moves", "--limit", "8", OPENING)
    assert [line.split()[1:3] for line in out.splitlines()[:6]] == [
        ["H6", "7C7H7S"], ["H6", "7C7S7H"], ["H6", "7H7C7S"], ["H6", "7H7S7C"], ["H6", "7S7C7H"], ["H6", "7S7H7C"]]


def test_group_shows_the_six_orderings_of_a_set_of_three_as_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "moves", "--limit", "8", "--group", OPENING)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 8
    assert lines[0].split() == ["1.", "H6", "7C7H7S", "21", "(6", "orderings)"]
    assert lines[1].split()[1:3] == ["H7", "7C7H7S"]   # --limit counts lines: 8 groups


def test_group_counts_add_up_to_every_play() -> None:
    position = Position.load(OPENING)
    groups = list(grouped(ranked_moves(position)))
    assert sum(count for _, _, count in groups) == len(position.legal_plays)
    assert len({(score, group_key(play)) for score, play, _ in groups}) == len(groups)


def test_group_keeps_the_ranking_order_of_each_groups_best_ordering() -> None:
    position = Position.load(EXAMPLES / "midgame.json")
    moves = list(ranked_moves(position))
    firsts = [play for _, play, _ in grouped(moves)]
    indices = [next(i for i, (_, play) in enumerate(moves) if play == first) for first in firsts]
    assert indices == sorted(indices)


def test_jokers_standing_for_other_cards_are_other_groups(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "moves", "--limit", "2", "--group", str(EXAMPLES / "midgame.json"))
    assert [line.split()[1:4] for line in out.splitlines()] == [["J5", ".KSkc", "30"], ["J5", ".KSkh", "30"]]


def test_group_json_gives_each_groups_orderings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "moves", "--limit", "2", "--group", "--json", OPENING)
    data = json.loads(out)
    assert code == 0 and [(item["notation"], item["orderings"]) for item in data] == [
        ("H6 7C7H7S", 6), ("H7 7C7H7S", 6)]


def test_group_without_a_play_names_the_tile_to_return(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "moves", "--group", str(EXAMPLES / "no-play.json"))
    assert code == 0 and out.startswith("No legal play. Return AS")
