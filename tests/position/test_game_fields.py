"""A position's game fields (players, scores, to_move, unseen) are checked when
the position is read, on the C reader's path and the checked path alike: a bad
one is one line naming the field, never an internal error later."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import assert_bad_input, cli
from ginnyo import Position
from ginnyo.errors import PositionError
from ginnyo.vocab.rules import MAX_SCORE

ROOT = Path(__file__).resolve().parents[2]
LATE = json.loads((ROOT / "examples" / "late.json").read_text(encoding="utf-8"))

BAD_FIELDS: dict[str, tuple[dict[str, Any], str]] = {
    "a score past 2**70": ({"scores": [2**70, 0]}, "field 'scores'"),
    "a score below minus the largest": ({"scores": [0, -MAX_SCORE - 1]}, "field 'scores'"),
    "a score one past the largest": ({"scores": [MAX_SCORE + 1, 0]}, "field 'scores'"),
    "a score that is a float": ({"scores": [1.5, 0]}, "field 'scores'"),
    "a score that is true": ({"scores": [True, 0]}, "field 'scores'"),
    "too few scores": ({"scores": [3]}, "field 'scores'"),
    "scores that are not a list": ({"scores": "3 4"}, "field 'scores'"),
    "five players": ({"players": 5}, "field 'players'"),
    "three players on one set": ({"players": 3}, "field 'players'"),
    "players that is a string": ({"players": "2"}, "field 'players'"),
    "to_move past the last seat": ({"to_move": 2}, "field 'to_move'"),
    "a negative to_move": ({"to_move": -1}, "field 'to_move'"),
    "a huge to_move": ({"to_move": 2**70}, "field 'to_move'"),
    "unseen with a card the board holds": ({"unseen": "7S"}, "field 'unseen'"),
    "unseen with a bad code": ({"unseen": "ZZ"}, "field 'unseen'"),
}


def _text(fields: dict[str, Any]) -> str:
    return json.dumps({**LATE, **fields})


@pytest.mark.parametrize("fields, field", BAD_FIELDS.values(), ids=BAD_FIELDS.keys())
def test_a_bad_game_field_is_refused_when_json_is_read(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError, match=field):
        Position.from_json(_text(fields))       # the C reader's path first


@pytest.mark.parametrize("fields, field", BAD_FIELDS.values(), ids=BAD_FIELDS.keys())
def test_a_bad_game_field_is_refused_when_a_dict_is_read(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError, match=field):
        Position.from_dict({**LATE, **fields})


@pytest.mark.parametrize("fields, field", BAD_FIELDS.values(), ids=BAD_FIELDS.keys())
def test_a_bad_game_field_is_refused_when_a_file_is_loaded(tmp_path: Path, fields: dict[str, Any],
                                                           field: str) -> None:
    path = tmp_path / "position.json"
    path.write_text(_text(fields), encoding="utf-8")
    with pytest.raises(PositionError, match=field):
        Position.load(path)


def test_the_largest_scores_either_way_are_taken() -> None:
    position = Position.from_json(_text({"scores": [MAX_SCORE, -MAX_SCORE]}))
    assert position.context["scores"] == [MAX_SCORE, -MAX_SCORE]


@pytest.mark.parametrize("option", [["--sim", "20"], ["--equity"], []], ids=["sim", "equity", "static"])
def test_best_move_refuses_a_huge_score_naming_the_field(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         option: list[str]) -> None:
    path = tmp_path / "huge.json"
    path.write_text(_text({"scores": [1180591620717411303424, 0]}), encoding="utf-8")
    assert_bad_input(capsys, "best-move", *option, str(path), message="field 'scores'")


def test_the_engine_refuses_a_huge_score_naming_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    from ginnyo.engine import Engine
    lines = list(Engine().handle(f"position json {_text({'scores': [2**70, 0]})}"))
    assert any("field 'scores'" in line for line in lines), lines


def test_a_corpus_line_with_a_huge_score_names_its_line() -> None:
    from ginnyo.analysis.bulk import load_jsonl
    data = (json.dumps(LATE) + "\n" + json.dumps({**LATE, "scores": [2**70, 0]}) + "\n").encode()
    with pytest.raises(PositionError, match=r"<corpus>:2: field 'scores'"):
        load_jsonl(data)


def test_show_refuses_a_huge_score_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(_text({"scores": [2**70, 0]}), encoding="utf-8")
    code, _, err = cli(capsys, "show", str(path))
    assert code == 2 and "field 'scores'" in err
