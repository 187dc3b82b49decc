"""Every reader that takes a path refuses what is not one: an int would be
taken as a file descriptor the caller owns, and closing the file would close it
(``bulk.iter_jsonl(1)`` once closed standard output)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from helpers import child_environment
from ginnyo import Position
from ginnyo.analysis import bulk
from ginnyo.equity import leaves
from ginnyo.game import records
from ginnyo.crazy import game as crazy_game
from ginnyo.crazy.state import TurnState
from ginnyo.support.files import read_bounded
from ginnyo.strength.ladder import read_rungs
from ginnyo.support.line_chunks import LineFile

ROOT = Path(__file__).resolve().parents[2]

READERS: dict[str, Callable[[Any], object]] = {
    "bulk.iter_jsonl": lambda path: list(bulk.iter_jsonl(path)),
    "Position.from_file": Position.from_file,
    "Position.load": Position.load,
    "records.read_record": records.read_record,
    "leaves.load": leaves.load,
    "crazy read_record": crazy_game.read_record,
    "TurnState.from_file": TurnState.from_file,
    "ladder.read_rungs": lambda path: read_rungs([path]),
    "LineFile": LineFile,
    "read_bounded": lambda path: read_bounded(path, 100),
}


@pytest.fixture
def descriptor() -> Iterator[int]:
    """An open file descriptor of the test's own (a pipe's reading end)."""
    read, write = os.pipe()
    os.write(write, b'{"board": {}, "rack": ""}\n')
    os.close(write)
    yield read
    os.close(read)


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_a_reader_refuses_a_file_descriptor_and_leaves_it_open(reader: Callable[[Any], object],
                                                                descriptor: int) -> None:
    with pytest.raises((TypeError, ValueError)):
        reader(descriptor)
    os.fstat(descriptor)     # still open: raises OSError once closed


@pytest.mark.parametrize("value", [True, 1.5, None, object()], ids=["bool", "float", "None", "object"])
def test_iter_jsonl_refuses_what_is_not_a_path(value: object) -> None:
    with pytest.raises(TypeError, match="path must be a str, bytes or os.PathLike"):
        bulk.iter_jsonl(value)  # type: ignore[arg-type]


def test_iter_jsonl_takes_a_bytes_path() -> None:
    path = ROOT / "bench" / "corpus-mid.jsonl"
    chunks = list(bulk.iter_jsonl(os.fsencode(path), chunk_positions=1000))
    assert sum(len(chunk) for chunk in chunks) == sum(len(chunk) for chunk in bulk.iter_jsonl(path, 1000))


def test_iter_jsonl_of_one_leaves_standard_output_open() -> None:
    script = textwrap.dedent('''
        import os, sys
        from ginnyo.analysis import bulk
        try:
            bulk.iter_jsonl(1)
        except TypeError as error:
            print("refused:", error, flush=True)
        os.fstat(1)
        print("standard output still open", flush=True)
    ''')
    done = subprocess.run([sys.executable, "-c", script], env=child_environment(), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "refused: path must be" in done.stdout and "standard output still open" in done.stdout
