"""``ginnyo puzzles make``: the same bytes for a seed whatever the workers, one-line
errors for bad arguments, and puzzles from game records (docs/PUZZLES.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo.game.records import read_record
from ginnyo.position.position import Position
from ginnyo.vocab.tiles import parse_rack_tile


def make(capsys: pytest.CaptureFixture[str], out: Path, *options: str) -> list[dict[str, Any]]:
    code, printed, _ = cli(capsys, "puzzles", "make", "--out", str(out), *options)
    assert code == 0 and printed.startswith("wrote ")
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_the_same_seed_writes_the_same_bytes_on_one_worker_or_two(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    alone = make(capsys, tmp_path / "one.jsonl", "--games", "3", "--seed", "5", "--workers", "1",
                 "--rollouts", "64")
    make(capsys, tmp_path / "two.jsonl", "--games", "3", "--seed", "5", "--workers", "2", "--rollouts", "64")
    assert alone, "three games give puzzles"
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_another_seed_writes_other_puzzles(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    first = make(capsys, tmp_path / "a.jsonl", "--games", "3", "--seed", "1", "--workers", "1")
    other = make(capsys, tmp_path / "b.jsonl", "--games", "3", "--seed", "2", "--workers", "1")
    assert [p["position"] for p in first] != [p["position"] for p in other]


def test_a_puzzle_line_has_the_documented_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for puzzle in make(capsys, tmp_path / "p.jsonl", "--games", "3", "--workers", "1"):
        assert list(puzzle)[:8] == ["id", "kind", "position", "solution", "margin", "themes", "rating", "second"]
        assert puzzle["margin"] >= (10 if puzzle["kind"] == "score" else 5)


def test_puzzles_from_records_are_decisions_of_those_games(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    records = tmp_path / "records"
    code, _, _ = cli(capsys, "selfplay", "--games", "3", "--bots", "equity", "--records", str(records),
                     "--workers", "1")
    assert code == 0
    puzzles = make(capsys, tmp_path / "r.jsonl", "--from-records", str(records), "--workers", "1")
    assert puzzles
    for puzzle in puzzles:
        name, turn, kind = str(puzzle["id"]).rsplit("-", 2)
        lines = dict((data.get("turn"), data) for _, data in read_record(records / f"{name}.jsonl"))
        played = lines[int(turn.removeprefix("t"))]
        position = Position.from_dict(puzzle["position"])
        drawn = [played["draw"]] if played["draw"] else []
        assert sorted(position.rack) == sorted(parse_rack_tile(code) for code in played["rack"].split() + drawn)
        assert position.game_context.to_move == played["player"]
        assert kind == puzzle["kind"]


@pytest.mark.parametrize(("argv", "message"), [
    (("--out", "x.jsonl"), "one of the arguments --games --from-records is required"),
    (("--games", "2", "--from-records", ".", "--out", "x.jsonl"), "not allowed with argument"),
    (("--games", "two", "--out", "x.jsonl"), "--games: 'two' is not a whole number"),
    (("--games", "2"), "the following arguments are required: --out"),
    (("--games", "2", "--margin", "0", "--out", "x.jsonl"), "--margin: 0 is out of range"),
    (("--games", "2", "--rollouts", "-3", "--out", "x.jsonl"), "--rollouts: -3 is out of range"),
])
def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    assert_bad_input(capsys, "puzzles", "make", *argv, message=message)


def test_records_from_a_missing_or_empty_folder_are_one_line(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    assert_bad_input(capsys, "puzzles", "make", "--from-records", str(tmp_path / "none"), "--out", out,
                     message="not a directory")
    assert_bad_input(capsys, "puzzles", "make", "--from-records", str(tmp_path), "--out", out,
                     message="no game records")


def test_a_broken_record_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "game-1.jsonl").write_text('{"record": "ginnyo game"}\n', encoding="utf-8")
    assert_bad_input(capsys, "puzzles", "make", "--from-records", str(tmp_path), "--out",
                     str(tmp_path / "x.json"), "--workers", "1", message="game-1.jsonl")


def test_an_existing_file_is_kept_without_force(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "kept.jsonl"
    out.write_text("mine\n", encoding="utf-8")
    assert_bad_input(capsys, "puzzles", "make", "--games", "1", "--out", str(out), message="--force")
    assert out.read_text(encoding="utf-8") == "mine\n"
