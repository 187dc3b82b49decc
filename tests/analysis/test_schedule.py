"""``ginnyo.analysis.analyze_corpus`` and ``analyze_record_file``, the Python API
of ``ginnyo analyze``: their rows are the command's output line for line, the
same in this process, over worker processes and on a Dask cluster, and the
progress told is the file's lines (or the record's turns)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from cli_helpers import cli
from ginnyo.analysis import analyze_corpus, analyze_record_file, row_json
from ginnyo.analysis import schedule

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "corpus-mid.jsonl"
RECORD = ROOT / "examples" / "game-7.jsonl"


def _corpus(tmp_path: Path, count: int, blank_every: int = 0) -> Path:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()[:count]
    if blank_every:
        lines = [text for i, line in enumerate(lines) for text in ((line, "") if i % blank_every == 0 else (line,))]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _as_lines(pieces: Any) -> str:
    return "".join(row_json(row) + "\n" for rows in pieces for row in rows)


class Told:
    """A progress callback: the totals it was told and the steps after each."""

    def __init__(self) -> None:
        self.totals: list[int | None] = []
        self.steps: list[int] = []

    def __call__(self, total: int | None) -> Callable[[int], object]:
        self.totals.append(total)
        return self.steps.append


@pytest.mark.parametrize("want", ["both", "score", "equity"])
def test_a_corpus_api_rows_are_the_commands_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      want: str) -> None:
    path = _corpus(tmp_path, 60, blank_every=7)
    code, out, _ = cli(capsys, "analyze", str(path), "--json", "--by", want)
    assert code == 0 and out.count("\n") == 60
    assert _as_lines(analyze_corpus(path, want=want, workers=1)) == out
    assert _as_lines(analyze_corpus(str(path), want=want, workers=2)) == out


def test_worker_processes_give_the_rows_of_one_thread_and_tell_every_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = _corpus(tmp_path, 90, blank_every=10)
    out = cli(capsys, "analyze", str(path), "--json", "--workers", "1")[1]
    monkeypatch.setattr(schedule, "PROCESS_SECONDS", 0.0)    # processes pay after the first piece
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 8)      # and more pieces than processes
    monkeypatch.setattr(schedule, "SPREAD_PIECES", 8)
    started: list[int] = []
    original = schedule._spread

    def spread(*args: Any) -> Any:
        started.append(args[2])
        return original(*args)

    monkeypatch.setattr(schedule, "_spread", spread)
    told = Told()
    pieces = list(analyze_corpus(path, workers=2, progress=told))
    assert started == [2] and len(pieces) > 3
    assert _as_lines(pieces) == out
    lines = len(path.read_bytes().splitlines())
    assert told.totals == [lines] and sum(told.steps) == lines


def test_then_runs_on_each_pieces_rows_where_it_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schedule, "PROCESS_SECONDS", 0.0)
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 16)
    monkeypatch.setattr(schedule, "SPREAD_PIECES", 16)
    path = _corpus(tmp_path, 100)
    assert list(analyze_corpus(path, workers=2, then=len)) == [16] * 6 + [4]


def test_a_record_api_rows_are_the_commands_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "analyze", str(RECORD), "--json")
    told = Told()
    rows, summary = analyze_record_file(RECORD, workers=2, progress=told)
    assert code == 0 and "".join(json.dumps(row) + "\n" for row in rows + [{"summary": s} for s in summary]) == out
    turns = len(RECORD.read_text().splitlines()) - 2
    assert told.totals == [turns] and told.steps == [1] * turns == [1] * len(rows)


def test_a_dask_cluster_gives_the_rows_of_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(schedule, "CHUNK_POSITIONS", 7)     # several tasks, and several windows
    monkeypatch.setattr(schedule, "WINDOW_CHUNKS", 2)
    path = _corpus(tmp_path, 30)
    here = _as_lines(analyze_corpus(path, workers=1))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert _as_lines(analyze_corpus(path, scheduler=address)) == here
        assert list(analyze_corpus(path, scheduler=address, then=len)) == [7] * 4 + [2]
        assert analyze_record_file(RECORD, scheduler=address) == analyze_record_file(RECORD, workers=1)


def test_a_bad_line_is_named_by_its_file_and_line(tmp_path: Path) -> None:
    from ginnyo.errors import PositionError
    path = _corpus(tmp_path, 3)
    with path.open("a") as corpus:
        corpus.write('{"board": {}, "rack": "ZZ"}\n')
    with pytest.raises(PositionError, match="c.jsonl:4: rack: "):
        list(analyze_corpus(path))
