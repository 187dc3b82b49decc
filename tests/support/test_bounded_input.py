"""Bounded input: a position, a state or a leave file costs at most its size
limit to read, whether it comes from a file, a device, standard input or an API
argument; and every error line quotes at most a short prefix of a bad value, so
a 1 MB bad rack gives a short line, not a 1 MB one."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginnyo import GinnyoError, Layout, Position
from ginnyo.crazy.cards import parse_cards, wild_rank
from ginnyo.crazy.errors import CrazyError
from ginnyo.crazy.state import TurnState, load_state
from ginnyo.errors import IllegalMoveError, PositionError
from ginnyo.support.files import LEAVES_BYTES, POSITION_BYTES, STATE_BYTES, quote
from ginnyo.equity.leaves import LeaveFileError, load
from ginnyo.vocab.tiles import parse_card, parse_rack_tile

ROOT = Path(__file__).resolve().parents[2]
MAX_ERROR_CHARS = 200        # the longest error line any input may produce
HUGE = 1_000_000             # a value this long must never be echoed whole
CLI_SECONDS = 60             # generous: the machine is shared; a hang is minutes or forever
HOSTILE = settings(max_examples=60, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

GOOD_POSITION: dict[str, Any] = {"board": {"G8": "5H", "H8": "6H", "I8": "7H"}, "rack": "5C 8C KC"}
GOOD_STATE: dict[str, Any] = {"round": 5, "hand": "3C 4C 6C 5H 9D 9S KS", "melds": ["AS 2S 3S"],
                              "others": ["QH QD 5S=Q", "2D 3D 4D"], "discard": "AD 9H", "stock": 20}


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


# long runs of one character, long garbage, huge numbers, huge and deep containers
long_texts = st.builds(lambda piece, count: (piece * count)[:HUGE],
                       st.text(min_size=1, max_size=3), st.integers(300, HUGE))
hostile_values = st.one_of(
    long_texts,
    st.text(max_size=50),
    st.integers(-10**12, 10**12),
    st.sampled_from([10**5000, -10**6000, 2**70000]),
    st.floats(),
    st.builds(lambda text, count: [text] * count, long_texts, st.integers(1, 3000)),
    st.builds(lambda text: {text: text}, long_texts),
    st.builds(nested, st.integers(50, 5000)),
    st.none() | st.booleans())


def assert_short_error(call: Callable[..., Any], *args: Any, kind: type[GinnyoError]) -> None:
    """``call(*args)`` either succeeds or raises ``kind`` with one short line."""
    try:
        call(*args)
    except kind as error:
        message = str(error)
        assert message and "\n" not in message and "\r" not in message, repr(message[:300])
        # the file's own name is not the input's fault: a long temporary folder (pytest-xdist's) does not count
        for arg in args:
            if isinstance(arg, Path):
                message = message.replace(str(arg), "FILE")
        assert len(message) <= MAX_ERROR_CHARS, f"{len(message)} characters: {message[:300]!r}"


def with_field(good: dict[str, Any], field: str, value: object) -> dict[str, Any]:
    """``good`` with ``field`` set to ``value`` (``"<unknown>"``: ``value`` as a key too)."""
    data = dict(good)
    data[value if field == "<unknown>" and isinstance(value, str) else field] = value
    return data


# -- every field of a position, hostile ---------------------------------------------

POSITION_FIELDS = ("layout", "sets", "board", "rack", "players", "scores", "to_move", "unseen")


@HOSTILE
@given(st.sampled_from(POSITION_FIELDS + ("<unknown>",)), hostile_values)
def test_any_value_in_any_position_field_is_a_position_or_a_short_one_line_error(field: str, value: object) -> None:
    assert_short_error(Position.from_dict, with_field(GOOD_POSITION, field, value), kind=PositionError)


@HOSTILE
@given(hostile_values, hostile_values)
def test_any_board_square_and_tile_is_a_short_one_line_error(square: object, tile: object) -> None:
    board = dict(GOOD_POSITION["board"])
    if isinstance(square, str):
        board[square] = tile
    board["H9"] = tile
    assert_short_error(Position.from_dict, {"board": board, "rack": ""}, kind=PositionError)


@HOSTILE
@given(hostile_values)
def test_any_rack_tile_is_a_short_one_line_error(tile: object) -> None:
    assert_short_error(Position.from_dict, {"board": {}, "rack": ["AS", tile]}, kind=PositionError)
    assert_short_error(parse_rack_tile, tile, kind=GinnyoError)
    assert_short_error(lambda code: parse_card(code, lower_is_joker=True), tile, kind=GinnyoError)


@HOSTILE
@given(hostile_values)
def test_any_layout_row_is_a_short_one_line_error(row: object) -> None:
    rows = [".....", ".....", "..S..", ".....", "....."]
    assert_short_error(Position.from_dict, {"layout": rows[:2] + [row] + rows[3:], "board": {}, "rack": ""},
                       kind=PositionError)
    assert_short_error(Layout.standard().parse_square, row, kind=PositionError)


@HOSTILE
@given(st.sampled_from(["rack", "board", "option", "row"]), long_texts)
def test_any_part_of_a_position_string_is_a_short_one_line_error(part: str, text: str) -> None:
    rows = ["15"] * 15
    line = {"rack": f"{'/'.join(rows)} 5C{text}",
            "board": f"{'/'.join(rows[:7] + [text] + rows[8:])} 5C",
            "option": f"{'/'.join(rows)} 5C {text}",
            "row": f"{'/'.join(rows)}/{text} 5C"}[part]
    assert_short_error(Position.from_line, line, kind=PositionError)


@HOSTILE
@given(hostile_values)
def test_any_move_notation_is_a_short_one_line_error(text: object) -> None:
    position = Position.from_dict(GOOD_POSITION)
    assert_short_error(position.parse, text, kind=GinnyoError)
    if isinstance(text, str):
        assert_short_error(position.parse, "8G " + text, kind=GinnyoError)


# -- every field of a Crazy Rummy state, hostile -----------------------------------------

STATE_FIELDS = ("round", "hand", "melds", "others", "discard", "stock", "draw")


@HOSTILE
@given(st.sampled_from(STATE_FIELDS + ("<unknown>",)), hostile_values)
def test_any_value_in_any_state_field_is_a_state_or_a_short_one_line_error(field: str, value: object) -> None:
    assert_short_error(TurnState.from_dict, with_field(GOOD_STATE, field, value), kind=CrazyError)


@HOSTILE
@given(hostile_values)
def test_any_meld_card_is_a_short_one_line_error(card: object) -> None:
    assert_short_error(TurnState.from_dict, {**GOOD_STATE, "others": [["QH", "QD", card]]}, kind=CrazyError)
    if isinstance(card, str):
        assert_short_error(TurnState.from_dict, {**GOOD_STATE, "others": [f"QH QD 5S={card}"]}, kind=CrazyError)
    assert_short_error(parse_cards, [card], "hand", kind=CrazyError)
    assert_short_error(wild_rank, card if isinstance(card, int) else 99, kind=CrazyError)


# -- texts handed over in memory are bounded like files --------------------------------------

def test_a_position_json_text_longer_than_the_limit_is_refused_before_decoding() -> None:
    text = '{"board": {}, "rack": "' + " " * POSITION_BYTES + '"}'
    for call in (Position.from_json, Position.from_text):
        with pytest.raises(PositionError, match="larger than a position may be"):
            call(text)
    with pytest.raises(PositionError, match="larger than a position may be"):
        Position.from_json(text.encode())


def test_a_position_string_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(PositionError, match="larger than a position may be"):
        Position.from_line("15/" * 14 + "15 " + "5C" * POSITION_BYTES)


def test_a_huge_rack_string_is_refused_without_being_split_whole() -> None:
    rack = "AS " * 1_000_000
    tracemalloc.start()
    try:
        with pytest.raises(PositionError, match="field 'rack': more than 14 tiles, at most 14"):
            Position.from_dict({"board": {}, "rack": rack})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * len(rack), f"{peak} bytes to refuse a rack of {len(rack)} characters"  # one copy at most


def test_a_huge_move_is_refused_without_reading_all_its_tiles() -> None:
    position = Position.from_dict(GOOD_POSITION)
    notation = "1A " + "5C" * 500_000
    tracemalloc.start()
    try:
        with pytest.raises(IllegalMoveError, match="the line runs off the board"):
            position.parse(notation)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * len(notation), f"{peak} bytes to refuse a move of {len(notation)} characters"


class UnreadRow(str):
    """A layout row that fails the test when its squares are read one by one."""

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("the squares of a layout too large were read")


@pytest.mark.parametrize("width, height", [(1000, 3), (5, 1000)], ids=["wide", "tall"])
def test_a_huge_layout_is_refused_by_its_size_before_its_squares_are_read(width: int, height: int) -> None:
    rows = [UnreadRow("." * width)] * height
    with pytest.raises(PositionError, match=f"layout: {width} x {height} is larger than 26 x 26"):
        Position.from_dict({"layout": rows, "board": {}, "rack": ""})


def test_json_that_is_not_text_is_a_one_line_error_not_a_type_error() -> None:
    with pytest.raises(PositionError, match="must be text, not int"):
        Position.from_json(42)  # type: ignore[arg-type]
    with pytest.raises(CrazyError, match="must be text, not list"):
        TurnState.from_json([])  # type: ignore[arg-type]


def test_an_inline_state_longer_than_the_limit_is_refused() -> None:
    text = '{"round": 5, "hand": "' + " " * STATE_BYTES + '3C"}'
    with pytest.raises(CrazyError, match="larger than a state may be"):
        load_state(text)


def test_a_leave_file_longer_than_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "leaves.json"
    path.write_bytes(b" " * (LEAVES_BYTES + 1))
    with pytest.raises(LeaveFileError, match="larger than a leave file may be"):
        load(path)
    with pytest.raises(LeaveFileError, match="larger than a leave file may be"):
        load("/dev/zero")


def test_a_leave_file_with_a_repeated_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "leaves.json"
    path.write_text('{"format": "ginnyo-leaves", "format": "ginnyo-leaves"}', encoding="utf-8")
    with pytest.raises(LeaveFileError, match="key 'format' appears twice"):
        load(path)


def test_a_leave_file_with_a_huge_bad_field_gives_a_short_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)     # the line names the file: a short path, however deep pytest's folder (-n 2)
    path = Path("leaves.json")
    path.write_text(json.dumps({"format": "x" * HUGE}), encoding="utf-8")
    assert_short_error(load, path, kind=LeaveFileError)
    with pytest.raises(LeaveFileError, match="field 'format'"):
        load(path)


# -- quote ------------------------------------------------------------------------------

QUOTED = {"long text": "x" * HUGE, "long bytes": b"\0" * HUGE, "newlines": "\n" * HUGE, "huge int": 10**5000,
          "list of long texts": ["y" * HUGE] * 1000, "deep list": nested(100_000), "long key": {"k" * HUGE: 1}}


@pytest.mark.parametrize("name", QUOTED)
def test_quote_is_short_and_one_line_whatever_the_value(name: str) -> None:
    text = quote(QUOTED[name])
    assert len(text) <= 80 and "\n" not in text


def test_quote_of_a_short_value_is_its_repr() -> None:
    assert quote("KX") == "'KX'" and quote(3) == "3" and quote(["AS"]) == "['AS']"


# -- the command line ------------------------------------------------------------------------

def run_ginnyo(*argv: str, stdin: bytes | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "ginnyo", *argv], input=stdin.decode() if stdin else None,
                          capture_output=True, text=True, timeout=CLI_SECONDS, cwd=ROOT)
    return done, time.monotonic() - started


def assert_one_short_stderr_line(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[:300])
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr[:300]
    assert len(done.stderr) <= MAX_ERROR_CHARS + len("ginnyo: error: \n"), done.stderr[:300]
    assert message in done.stderr, done.stderr[:300]


@pytest.mark.parametrize("command", ["best-move", "moves", "show"])
def test_a_position_from_dev_zero_exits_2_with_one_line(command: str) -> None:
    done, _ = run_ginnyo(command, "/dev/zero")
    assert_one_short_stderr_line(done, "larger than a position may be")


def test_a_state_from_dev_zero_exits_2_with_one_line() -> None:
    done, _ = run_ginnyo("crazy", "solve", "/dev/zero")
    assert_one_short_stderr_line(done, "larger than a state may be")


def test_a_leave_file_from_dev_zero_exits_2_with_one_line(tmp_path: Path) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps(GOOD_POSITION), encoding="utf-8")
    done, _ = run_ginnyo("best-move", "--equity", "--leaves", "/dev/zero", str(position))
    assert_one_short_stderr_line(done, "larger than a leave file may be")


def test_a_megabyte_bad_rack_gives_a_short_line(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"board": {}, "rack": ["Z" * (HUGE - 100)]}), encoding="utf-8")
    done, _ = run_ginnyo("best-move", str(path))
    assert_one_short_stderr_line(done, "rack: unknown tile code 'ZZZZ")


def test_a_megabyte_bad_rack_in_a_position_string_on_stdin_gives_a_short_line() -> None:
    line = "/".join(["15"] * 15) + " " + "Z" * (HUGE - 100)
    done, _ = run_ginnyo("moves", "-", stdin=line.encode())
    assert_one_short_stderr_line(done, "is not a rack tile")


def test_a_megabyte_bad_hand_in_an_inline_state_gives_a_short_line() -> None:
    state = json.dumps({"round": 5, "hand": "Q" * 100_000})   # one argument may be up to 128 KiB
    done, _ = run_ginnyo("crazy", "solve", state)
    assert_one_short_stderr_line(done, "hand: unknown tile code 'QQQ")


def test_a_crazy_hand_of_more_cards_than_a_deck_is_refused_without_reading_them_all() -> None:
    from ginnyo.crazy.cards import parse_cards
    from ginnyo.crazy.errors import CrazyError
    with pytest.raises(CrazyError, match=r"^hand: more than 52 cards \(one deck\)$"):
        parse_cards("AC " * 200_000, "hand")
    assert len(parse_cards(" ".join(f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789TJQK") + " ",
                           "deck")) == 52


@pytest.mark.parametrize("field", ["players", "to_move"])
def test_a_huge_game_context_value_is_quoted_short(field: str) -> None:
    position = Position.load(str(ROOT / "examples" / "midgame.json"))
    position.context[field] = "x" * 100_000
    with pytest.raises(PositionError) as caught:
        position.game_context
    assert len(str(caught.value)) < 200 and f"field {field!r}" in str(caught.value)
