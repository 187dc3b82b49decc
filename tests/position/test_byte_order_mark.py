"""A UTF-8 byte-order mark is read past where a position, a state or a record
begins, however it comes, and gives the same answer as without it
(docs/FORMAT.md, "Readings"); anywhere else it is refused as malformed."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cli_helpers import cli
from ginnyo import Position
from ginnyo.analysis.bulk import load_jsonl
from ginnyo.crazy.state import load_state
from ginnyo.engine import Engine
from ginnyo.errors import PositionError

ROOT = Path(__file__).resolve().parents[2]
BOM = "\ufeff"
LATE_JSON = (ROOT / "examples" / "late.json").read_text(encoding="utf-8")
LATE = Position.from_json(LATE_JSON)
LATE_LINE = LATE.to_line()
STATE_JSON = (ROOT / "examples" / "crazy" / "midround.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("text", [LATE_JSON, LATE_LINE], ids=["json", "line"])
def test_a_position_file_after_a_byte_order_mark_reads_the_same(tmp_path: Path, text: str) -> None:
    path = tmp_path / "position.txt"
    path.write_bytes((BOM + text).encode())
    assert Position.load(path) == LATE


@pytest.mark.parametrize("text", [LATE_JSON, LATE_LINE], ids=["json", "line"])
def test_a_position_on_standard_input_after_a_byte_order_mark_gives_the_same_best_move(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    expected = cli(capsys, "best-move", str(ROOT / "examples" / "late.json"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((BOM + text).encode())))
    assert cli(capsys, "best-move", "-") == expected


@pytest.mark.parametrize("text", [LATE_JSON, LATE_LINE], ids=["json", "line"])
def test_a_position_argument_after_a_byte_order_mark_gives_the_same_best_move(
        capsys: pytest.CaptureFixture[str], text: str) -> None:
    expected = cli(capsys, "best-move", str(ROOT / "examples" / "late.json"))
    assert cli(capsys, "best-move", BOM + text) == expected


def test_the_api_reads_past_a_byte_order_mark() -> None:
    assert Position.from_json(BOM + LATE_JSON) == LATE
    assert Position.from_json((BOM + LATE_JSON).encode()) == LATE
    assert Position.from_line(BOM + LATE_LINE) == LATE
    assert Position.load(BOM + LATE_JSON) == LATE


def test_each_corpus_line_may_begin_with_a_byte_order_mark() -> None:
    line = json.dumps(json.loads(LATE_JSON))
    arrays = load_jsonl(f"{BOM}{line}\n{BOM}{line}\n".encode())
    assert len(arrays) == 2 and arrays.position(1) == LATE


def test_the_engine_reads_past_a_byte_order_mark() -> None:
    engine = Engine()
    plain = list(engine.handle(f"position json {json.dumps(json.loads(LATE_JSON))}")) + list(engine.handle("go"))
    marked = list(engine.handle(f"position json {BOM}{json.dumps(json.loads(LATE_JSON))}"))
    assert plain[-1].startswith("bestmove") and marked + list(engine.handle("go")) == plain
    assert list(engine.handle(f"position {BOM}{LATE_LINE}")) + list(engine.handle("go")) == plain


def test_a_crazy_state_after_a_byte_order_mark_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes((BOM + STATE_JSON).encode())
    expected = load_state(STATE_JSON)
    assert load_state(path) == expected and load_state(BOM + STATE_JSON) == expected


@pytest.mark.parametrize("text", [LATE_JSON.replace('"rack"', BOM + '"rack"'), BOM + BOM + LATE_JSON,
                                  LATE_LINE.replace(" ", " " + BOM, 1)],
                         ids=["inside json", "twice before json", "inside a line"])
def test_a_byte_order_mark_elsewhere_is_refused(text: str) -> None:
    with pytest.raises(PositionError):
        Position.from_json(text) if text.lstrip(BOM).startswith("{") else Position.from_line(text)
