"""Inputs as users hand them (issue 30 item 5): ``analyze`` on a pretty-printed
position (a file or stdin), on several files or a folder, with an error that
says what it reads; and ``corpus`` writing the game fields a late position needs."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cli_helpers import assert_bad_input, cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXTEND = EXAMPLES / "extend.json"
RECORD = EXAMPLES / "game-7.jsonl"
EXTEND_ROW = {"line": 1, "best": {"notation": "D2 KCKDKS", "score": 60}}


def _rows(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_analyze_reads_a_pretty_printed_position_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert "\n  " in EXTEND.read_text()
    code, out, _ = cli(capsys, "analyze", "--by", "score", str(EXTEND))
    assert code == 0 and _rows(out) == [EXTEND_ROW]


def test_analyze_reads_a_pretty_printed_position_on_stdin(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, EXTEND.read_text())
    code, out, _ = cli(capsys, "analyze", "--by", "score", "-")
    assert code == 0 and _rows(out) == [EXTEND_ROW]


def test_analyze_of_broken_multiline_json_says_what_it_reads(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, '{\n  "board": {},\n  "rack": 5C\n}\n')
    assert_bad_input(capsys, "analyze", "-",
                     message="standard input: neither JSON lines (one position a line) nor one JSON position")


def test_analyze_of_several_files_names_each_rows_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "analyze", "--by", "score", str(EXTEND), str(RECORD))
    rows = _rows(out)
    assert code == 0 and rows[0] == {"file": str(EXTEND), **EXTEND_ROW}
    assert {row["file"] for row in rows[1:]} == {str(RECORD)} and "turn" in rows[1] and "summary" in rows[-1]


def test_analyze_of_one_file_rows_have_no_file_field(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "analyze", str(RECORD))
    assert all("file" not in row for row in _rows(out))


def test_analyze_of_a_folder_reads_its_json_and_jsonl_files_in_name_order(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "b.json").write_text(EXTEND.read_text())
    (tmp_path / "a.jsonl").write_text(RECORD.read_text())
    (tmp_path / "notes.txt").write_text("not a position")
    code, out, _ = cli(capsys, "analyze", "--by", "score", str(tmp_path))
    files = list(dict.fromkeys(row["file"] for row in _rows(out)))
    assert code == 0 and files == [str(tmp_path / "a.jsonl"), str(tmp_path / "b.json")]


def test_analyze_of_a_folder_without_positions_is_one_line(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "analyze", str(tmp_path), message="a folder without .json or .jsonl files")


def test_analyze_of_the_shipped_examples_folder(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "analyze", "--by", "score", str(EXAMPLES))
    assert code == 0 and {Path(str(row["file"])).name for row in _rows(out)} >= {"extend.json", "game-7.jsonl",
                                                                                   "endgame.json"}


def test_corpus_writes_the_game_fields_of_a_late_position(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "late.jsonl"
    code, _, _ = cli(capsys, "corpus", "--positions", "12", "--stage", "late", "--seed", "3", "--workers", "1",
                     "--out", str(out))
    positions = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0 and len(positions) == 12
    for position in positions:
        assert {"players", "scores", "to_move", "unseen"} <= set(position)
        assert len(position["scores"]) == position["players"]
    endgames = [p for p in positions if p["players"] == 2 and len(p["unseen"].split()) <= 7]
    assert endgames, "seed 3 gives 2-player endgames"
    code, text, _ = cli(capsys, "endgame", json.dumps(endgames[0]))
    assert code == 0 and text.startswith("spread ")


def test_corpus_leaves_early_positions_without_game_fields(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "early.jsonl"
    cli(capsys, "corpus", "--positions", "4", "--stage", "early", "--seed", "3", "--workers", "1", "--out", str(out))
    assert all("unseen" not in json.loads(line) for line in out.read_text().splitlines())


def test_analyze_of_a_corpus_whose_first_line_is_broken_says_what_it_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "broken.jsonl"
    corpus.write_text('{"board": {}, "rack": \n' + json.dumps({"board": {}, "rack": "5C"}) + "\n")
    assert_bad_input(capsys, "analyze", str(corpus),
                     message="neither JSON lines (one position a line) nor one JSON position")


def test_analyze_of_a_corpus_whose_later_line_is_broken_names_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "broken.jsonl"
    corpus.write_text(json.dumps({"board": {}, "rack": "5C"}) + "\n" + '{"board": \n')
    assert_bad_input(capsys, "analyze", str(corpus), message=f"{corpus}:2: malformed JSON")
