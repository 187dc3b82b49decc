"""A .jsonl corpus loaded in bulk (``ginnyo.analysis.bulk``): the arrays are those of each
line's Position, a bad line is named, and a file is read in bounded chunks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ginnyo.analysis import bulk
from ginnyo import native
from ginnyo.analysis.bulk import iter_jsonl, load_jsonl
from ginnyo.errors import PositionError
from ginnyo.position.position import Position

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / "bench" / "corpus-mid.jsonl").read_bytes()
SMALL = json.dumps(json.loads((ROOT / "examples" / "small-board.json").read_text(encoding="utf-8")))


def _expected(data: bytes, first_line: int = 1) -> list[tuple[int, Position]]:
    """``(line, position)`` of every non-blank line, read one at a time."""
    return [(number, Position.from_json(text)) for number, text in enumerate(data.split(b"\n"), first_line)
            if text.strip()]


def _check(arrays: bulk.PositionArrays, expected: list[tuple[int, Position]]) -> None:
    assert len(arrays) == len(expected)
    for row, (line, position) in enumerate(expected):
        cards, jokers, rack = native.encode(position)
        assert arrays.layout == position.layout
        assert arrays.cards[row].tobytes() == cards and arrays.jokers[row].tobytes() == jokers
        assert arrays.racks[row].tobytes() == rack
        assert arrays.box_sizes[row] == position.game_context.box_size
        assert arrays.lines[row] == line and arrays.sets[row] == position.sets
        rebuilt = arrays.position(row)
        assert rebuilt == position and repr(rebuilt) == repr(position) and rebuilt.context == position.context
    assert arrays.cards.dtype == np.uint8 and arrays.racks.dtype == np.uint8
    assert arrays.box_sizes.dtype == np.int32 and arrays.lines.dtype == np.int64


def _mixed() -> bytes:
    """Corpus lines with blank lines, game fields, two sets, an escape and CRLF among them."""
    lines = CORPUS.splitlines()[:40]
    data = json.loads(lines[3])
    with_fields = json.dumps({**data, "players": 2, "unseen": "5C", "scores": [3, 4]}).encode()
    two_sets = json.dumps({**data, "sets": 2}).encode()
    escaped = lines[5].replace(b'"rack": "', b'"rack": "\\u0020')
    return b"\n".join(lines[:3] + [b"", b"  \t", with_fields, two_sets, escaped + b"\r"] + lines[6:]) + b"\n\n"


def test_a_corpus_loads_into_the_arrays_of_each_lines_position() -> None:
    _check(load_jsonl(CORPUS), _expected(CORPUS))


def test_blank_lines_game_fields_and_two_sets_load_with_their_line_numbers() -> None:
    data = _mixed()
    arrays = load_jsonl(data, first_line=10)
    _check(arrays, _expected(data, 10))
    assert 3 in arrays.contexts and arrays.contexts[3]["players"] == 2
    assert arrays.lines[:4].tolist() == [10, 11, 12, 15]


def test_each_rows_game_state_is_its_positions() -> None:
    from ginnyo.equity.rank import leave_state
    data = _mixed() + json.dumps({**json.loads(CORPUS.splitlines()[7]), "players": 3, "sets": 2}).encode() + b"\n" + json.dumps({"board": {}, "rack": "AS"}).encode()
    arrays = load_jsonl(data)
    states = arrays.states()
    assert states.dtype == np.int64 and states.shape == (len(arrays), 4)
    assert [tuple(row) for row in states.tolist()] == \
        [leave_state(position).as_tuple() for _, position in _expected(data)]
    assert {row[0] for row in states.tolist()} == {2, 3} and {row[1] for row in states.tolist()} == {0, 1}


def test_another_layout_loads_alone_and_is_refused_beside_the_standard_one() -> None:
    data = (SMALL + "\n" + SMALL + "\n").encode()
    _check(load_jsonl(data), _expected(data))
    with pytest.raises(PositionError) as caught:
        load_jsonl(CORPUS.splitlines()[0] + b"\n\n" + SMALL.encode())
    assert str(caught.value).startswith("<corpus>:3: field 'layout': not the layout of the first position (line 1)")


@pytest.mark.parametrize("bad", [
    b'{"board": {}, "rack": "5H 5H"}',
    b'{"board": {"H8": "KX"}, "rack": ""}',
    b'{"board": {}, "rack": "", "players": 9}',
    b'{"board": {}, "rack": ""',
    b'not json',
    b'{"board": {}, "rack": "", "board": {}}',
])
@pytest.mark.parametrize("where_bad", [0, 7])
def test_a_bad_line_is_named_with_the_message_position_gives(bad: bytes, where_bad: int) -> None:
    lines = CORPUS.splitlines()[:10]
    lines.insert(where_bad, bad)
    try:
        Position.from_json(bad)
        Position.from_json(bad).game_context
    except PositionError as error:
        message = str(error)
    with pytest.raises(PositionError) as caught:
        load_jsonl(b"\n".join(lines), where="games.jsonl", first_line=3)
    assert str(caught.value) == f"games.jsonl:{where_bad + 3}: {message}"


def test_no_position_is_empty_arrays() -> None:
    arrays = load_jsonl(b"\n  \n")
    assert len(arrays) == 0 and arrays.cards.shape == (0, 225)


@pytest.mark.parametrize("call", [lambda: load_jsonl("text"),  # type: ignore[arg-type]
                                  lambda: load_jsonl(b"", first_line=0),
                                  lambda: load_jsonl(CORPUS).position(500),
                                  lambda: list(iter_jsonl(ROOT / "bench" / "corpus-mid.jsonl", 0))])
def test_bad_arguments_are_value_errors(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        call()


def test_a_file_comes_in_chunks_equal_to_loading_it_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bulk, "BLOCK_BYTES", 1000)      # lines cut across blocks
    path = tmp_path / "corpus.jsonl"
    data = _mixed()
    path.write_bytes(data)
    chunks = list(iter_jsonl(path, chunk_positions=7))
    assert [len(chunk) for chunk in chunks[:-1]] == [7] * (len(chunks) - 1) and 0 < len(chunks[-1]) <= 7
    whole = load_jsonl(data)
    for name in ("cards", "jokers", "racks", "box_sizes", "lines", "sets"):
        assert np.array_equal(np.concatenate([getattr(chunk, name) for chunk in chunks]), getattr(whole, name))
    assert chunks[0].contexts[3]["players"] == 2


def test_a_file_is_read_a_block_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bulk, "BLOCK_BYTES", 4096)
    path = tmp_path / "corpus.jsonl"
    path.write_bytes(CORPUS)
    chunks = iter_jsonl(path, chunk_positions=5)
    first = next(chunks)
    assert len(first) == 5
    assert chunks.gi_frame.f_locals["handle"].tell() <= 2 * 4096 < len(CORPUS)   # type: ignore[attr-defined]


def test_a_line_longer_than_a_position_is_refused_naming_it(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bulk, "BLOCK_BYTES", 1000)
    monkeypatch.setattr(bulk, "POSITION_BYTES", 3000)
    path = tmp_path / "corpus.jsonl"
    path.write_bytes(CORPUS.splitlines()[0] + b"\n" + b" " * 10_000 + b"{}")
    with pytest.raises(PositionError) as caught:
        list(iter_jsonl(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:2: position: ") and "larger than a position may be" in message


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="cannot read"):
        iter_jsonl(tmp_path / "none.jsonl")


@pytest.mark.parametrize("offset, row", [(-1, 0), (10**6, 0), (0, -1), (0, 3)])
def test_the_readers_fill_refuses_an_offset_or_row_outside_its_data(offset: int, row: int) -> None:
    from ginnyo.position.position import READER
    layout = Position.from_json(CORPUS.splitlines()[0]).layout
    arrays = bulk._Rows(layout, 2, 1)
    with pytest.raises(ValueError):
        READER.fill_jsonl(CORPUS, offset, True, layout, arrays.cards, arrays.jokers, arrays.racks, arrays.sets,
                          arrays.box_sizes, arrays.lines, row, 1, (2, 3))
