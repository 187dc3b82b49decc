"""The C reader of positions (``ginnycore.parse`` through ``Position.from_json`` /
``from_line``) against the checked Python path it stands in front of: on the
committed corpora it takes every position and builds the same object, and on
generated inputs, good and bad, it never takes what the checked path refuses, so
every error message is the checked path's."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from ginnyo.errors import PositionError
from ginnyo.position.context import checked_game_fields
from ginnyo.position.position import READER, Position
from ginnyo.vocab.tiles import rack_code

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / "bench" / "corpus-mid.jsonl").read_text(encoding="utf-8").splitlines()
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
MUTANTS = 1500
ALPHABET = ' "{}[],:\\0123456789TtJjQqKkAaCcDdHhSs*-/=_xé\t\n'


def _outcome(read: Callable[[Any], Position], text: object) -> Position | str:
    try:
        return read(text)
    except PositionError as error:
        return f"PositionError: {error}"


def _same(fast: Position, checked: Position) -> None:
    assert fast == checked and hash(fast) == hash(checked) and repr(fast) == repr(checked)
    assert fast.context == checked.context and list(fast.context) == list(checked.context)
    assert list(fast.board.items()) == list(checked.board.items())
    assert fast.rack == checked.rack and fast.sets == checked.sets and fast.layout == checked.layout
    assert fast.to_json() == checked.to_json()


def _texts() -> list[str]:
    return CORPUS + [path.read_text(encoding="utf-8") for path in EXAMPLES]


def test_the_reader_takes_every_committed_position_and_builds_the_checked_one() -> None:
    for text in _texts():
        fast = READER.read_json(text)
        assert fast is not None, text
        _same(fast, Position.checked_json(text))
        from_bytes = READER.read_json(text.encode("utf-8"))
        assert from_bytes is not None
        _same(from_bytes, Position.checked_json(text))


def test_the_reader_takes_every_committed_positions_line_and_builds_the_checked_one() -> None:
    for text in _texts():
        line = Position.checked_json(text).to_line()
        fast = READER.read_line(line)
        assert fast is not None, line
        _same(fast, Position.checked_line(line))


def test_the_game_fields_are_kept_as_the_checked_path_keeps_them() -> None:
    data = json.loads(CORPUS[0])
    unseen = " ".join(rack_code(tile) for tile in Position.from_json(CORPUS[0]).game_context.unseen[:2])
    text = json.dumps({"unseen": unseen, "players": 2, "rack": data["rack"], "to_move": 1,
                       "board": data["board"], "scores": [1_000_000_000, -3]})
    fast = READER.read_json(text)
    assert fast is not None and list(fast.context) == ["players", "scores", "to_move", "unseen"]
    _same(fast, Position.checked_json(text))


@pytest.mark.parametrize("text", [
    '{"board": {}, "rack": "", "sets": 1.0}',
    '{"board": {}, "rack": "", "sets": true}',
    '{"board": {}, "rack": "", "colour": 1}',
    '{"board": {}, "rack": "", "rack": ""}',
    '{"board": {"H8": "KH", "h8": "KS"}, "rack": ""}',
    '{"board": {"H08": "KH"}, "rack": ""}',
    '{"board": {"H8": "Th", "G8": "TC", "I8": "TD"}, "rack": ""}',
    '{"board": {"H8": " *"}, "rack": ""}',
    '{"board": {}, "rack": "5H 5H"}',
    '{"board": {}, "rack": "* * *"}',
    '{"board": {}, "rack": "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D"}',
    '{"board": {}, "rack": ["AC", 5]}',
    '{"board": {"G8": "5C", "I8": "5D", "J8": "5H"}, "rack": ""}',
    '{"board": {"G8": "5C", "H8": "6D", "I8": "5H"}, "rack": ""}',
    '{"board": {"G8": "5C", "H8": "5D", "I8": "5H", "A1": "2C", "A2": "2D", "A3": "2H"}, "rack": ""}',
    '{"board": {"H8": "5C", "H9": "5D", "H10": "5H", "J10": "KH"}, "rack": ""}',
    '{"board": {}, "rack": "", "layout": "huge"}',
    '{"board": {}, "rack": "", "layout": ["..S", "..X"]}',
    '{"board": {}, "rack": "", "players": {"a": 1, "a": 2}}',
    '{"board": {}, "rack": ""} x',
    '{"board": {}, "rack": "",}',
    '[{"board": {}, "rack": ""}]',
    '{"board": {}}',
    '',
])
def test_the_reader_leaves_every_refused_position_to_the_checked_path(text: str) -> None:
    checked = _outcome(Position.checked_json, text)
    assert isinstance(checked, str)
    assert READER.read_json(text) is None
    assert _outcome(Position.from_json, text) == checked


@pytest.mark.parametrize("text", [
    '{"board": {"H8": "\\u0035C", "G8": "5D", "I8": "5H"}, "rack": "*"}',
    '{"board": {"H8": "10h", "G8": "TD", "I8": "TC"}, "rack": ["  5c ", "*", "10s"], "sets": 2}',
    ' \n{ "rack" : "" , "board" : { } }\r\n',
    '{"board": {}, "rack": "", "layout": ["..S", "..."] }',
])
def test_plain_or_not_a_good_position_is_the_checked_one(text: str) -> None:
    checked = Position.checked_json(text)
    _same(Position.from_json(text), checked)


def _mutant(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        kind = rng.randrange(6)
        if kind >= 4:               # blanks where JSON allows them: the position stays good
            places = [i + 1 for i, ch in enumerate(text) if ch in ",:{}[]"] or [0]
            at = rng.choice(places)
            text = text[:at] + rng.choice([" ", "\t", "\n", "\r\n", "  "]) + text[at:]
        elif kind == 0:
            text = text[:at] + text[at + 1:]
        elif kind == 1:
            text = text[:at] + rng.choice(ALPHABET) + text[at + 1:]
        elif kind == 2:
            text = text[:at] + rng.choice(ALPHABET) + text[at:]
        else:                       # a piece of the text again somewhere else
            start = rng.randrange(len(text))
            text = text[:at] + text[start:start + rng.randint(1, 12)] + text[at:]
    return text


def _differential(read_fast: str, read_checked: Callable[[Any], Position], texts: list[str],
                  seed: int) -> tuple[int, int]:
    """Mutants of ``texts``: the reader's position (when it takes one) is the
    checked path's, and the public method's answer is the checked path's;
    how many mutants the reader took and the checked path refused."""
    rng = random.Random(seed)
    taken = refused = 0
    for _ in range(MUTANTS):
        text = _mutant(rng, rng.choice(texts))
        checked = _outcome(read_checked, text)
        fast = READER.read_json(text) if read_fast == "json" else READER.read_line(text)
        if fast is not None and fast.context:   # the reader keeps game fields as given: Position checks them next
            try:
                checked_game_fields(fast)
            except PositionError as error:
                assert checked == f"PositionError: {error}", text
                fast = None
        if fast is not None:
            assert isinstance(checked, Position), (text, checked)
            _same(fast, checked)
            taken += 1
        refused += isinstance(checked, str)
        public = _outcome(Position.from_json if read_fast == "json" else Position.from_line, text)
        if isinstance(checked, str) or isinstance(public, str):
            assert public == checked, text
        else:
            _same(public, checked)
    return taken, refused


def test_generated_json_gets_the_checked_paths_position_or_message() -> None:
    texts = CORPUS[:20] + [json.dumps(json.loads(path.read_text(encoding="utf-8"))) for path in EXAMPLES]
    taken, refused = _differential("json", Position.checked_json, texts, 19)
    assert taken > MUTANTS // 30 and refused > MUTANTS // 3    # both kinds were tried


def test_generated_lines_get_the_checked_paths_position_or_message() -> None:
    texts = [Position.checked_json(text).to_line() for text in CORPUS[:20] + [p.read_text() for p in EXAMPLES]]
    taken, refused = _differential("line", Position.checked_line, texts, 20)
    assert taken > MUTANTS // 30 and refused > MUTANTS // 3


def test_threads_sharing_the_reader_get_each_their_own_position() -> None:
    """A read calls Python in the middle (a layout's rows, a game field's value),
    where another thread may read: each keeps its own parse."""
    from concurrent.futures import ThreadPoolExecutor
    small = json.loads((ROOT / "examples" / "small-board.json").read_text(encoding="utf-8"))
    texts = [json.dumps({**data, "scores": [n + seat for seat in range(3 if data.get("sets") == 2 else 2)],
                         "to_move": n % 2})
             for n, data in enumerate(json.loads(text) for text in CORPUS[:60])]
    texts += [json.dumps({**small, "to_move": n % 2}) for n in range(60)]
    expected = [Position.checked_json(text) for text in texts]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(5):
            for got, want in zip(pool.map(Position.from_json, texts), expected):
                _same(got, want)
