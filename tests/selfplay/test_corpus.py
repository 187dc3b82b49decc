"""`ginnyo corpus`: positions from seeded games, the same wherever they are played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ginnyo.cli import main
from ginnyo.selfplay.corpus import sample_texts, stage_of
from ginnyo.position.position import Position


def test_corpus_is_the_same_on_one_process_and_on_several() -> None:
    assert sample_texts(30, seed=4, workers=1) == sample_texts(30, seed=4, workers=2)


def test_corpus_is_the_same_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert sample_texts(20, seed=9, scheduler=cluster.scheduler_address) == sample_texts(20, seed=9)


def test_corpus_of_one_stage_holds_only_that_stage() -> None:
    for text in sample_texts(20, seed=1, stage="late"):
        position = Position.from_json(text)
        assert stage_of(len(position.board), position.sets) == "late"


def test_corpus_command_writes_a_directory_or_a_jsonl_file(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "--positions", "5", "--seed", "3", "--out", str(tmp_path / "dir"),
                 "--workers", "1"]) == 0
    files = sorted((tmp_path / "dir").glob("position-*.json"))
    assert len(files) == 5
    assert main(["corpus", "--positions", "5", "--seed", "3", "--out", str(tmp_path / "c.jsonl"),
                 "--workers", "1"]) == 0
    lines = (tmp_path / "c.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == [json.loads(f.read_text()) for f in files]


def test_corpus_into_an_unwritable_place_is_one_line_exit_2(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["corpus", "--positions", "1", "--out", str(blocker / "dir"), "--workers", "1"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
