"""The one-line position string (docs/POSITION-STRING.md): round trips, the
grammar's cases, its errors, and every place a position file is accepted."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import FULL_CORPUS, position
from ginnyo import Layout, PlacedTile, Position, PositionError
from ginnyo.cli import main
from ginnyo.selfplay.corpus import sample_positions
from ginnyo.vocab.layout import SQUARE_KINDS
from ginnyo.position.line import looks_like_json
from ginnyo.vocab.tiles import JOKER, card

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
EMPTY_ROWS = "/".join(["15"] * 15)
ROWS_1_7 = "/".join(["15"] * 7)
RUN_5_7H = {"G8": "5H", "H8": "6H", "I8": "7H"}


def line_with_row_8(row_8: str, rest: str = "-") -> str:
    return f"{ROWS_1_7}/{row_8}/{ROWS_1_7} {rest}"


# -- round trips ---------------------------------------------------------------

def test_corpus_positions_round_trip_through_the_line() -> None:
    positions = sample_positions(2000 if FULL_CORPUS else 300, 17)
    assert any(p.sets == 2 for p in positions) and any(p.board for p in positions)
    for pos in positions:
        line = pos.to_line()
        assert Position.from_line(line) == pos, line
        assert Position.from_line(line).to_line() == line


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_shipped_examples_round_trip_through_the_line(example: str) -> None:
    pos = Position.from_file(EXAMPLES / example)
    assert Position.from_line(pos.to_line()) == pos


@st.composite
def positions_on_random_layouts(draw: st.DrawFn) -> Position:
    """A valid position on a random layout: maybe a set of three across the
    centre, a rack of up to 14 tiles, one or two sets."""
    width, height = draw(st.integers(1, 26)), draw(st.integers(1, 26))
    kinds = draw(st.lists(st.sampled_from(SQUARE_KINDS.replace("S", "")), min_size=width * height,
                          max_size=width * height))
    centre = draw(st.integers(0, width * height - 1))
    kinds[centre] = "S"
    layout = Layout.from_rows(["".join(kinds[r * width:(r + 1) * width]) for r in range(height)])
    sets = draw(st.sampled_from((1, 2)))
    board = {}
    col = centre % width
    if 1 <= col <= width - 2 and draw(st.booleans()):
        rank = draw(st.integers(1, 13))
        suits = draw(st.permutations(range(4)))
        joker_at = draw(st.integers(-2, 1))  # -2: no joker
        for offset, suit in zip((-1, 0, 1), suits):
            board[centre + offset] = PlacedTile(card(rank, suit), offset == joker_at)
    on_board = [tile.rack_tile for tile in board.values()]
    pool = [tile for tile in range(52) for _ in range(sets)] + [JOKER] * (2 * sets)
    for tile in on_board:
        pool.remove(tile)
    picks = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=14))
    return Position(layout, sets, board, [pool[i] for i in picks])


@settings(max_examples=150, deadline=None)
@given(positions_on_random_layouts())
def test_positions_on_any_layout_round_trip_through_the_line(pos: Position) -> None:
    line = pos.to_line()
    assert Position.from_line(line) == pos
    assert Position.from_line(line).to_line() == line


def test_documented_examples_are_read_and_written_back_exactly() -> None:
    text = (ROOT / "docs" / "POSITION-STRING.md").read_text(encoding="utf-8")
    block = re.search(r"```position-strings\n(.*?)```", text, re.S)
    assert block
    for line in block.group(1).splitlines():
        assert Position.from_line(line).to_line() == line


# -- the grammar ---------------------------------------------------------------

def test_empty_board_is_every_row_as_its_width() -> None:
    assert position({}, "").to_line() == f"{EMPTY_ROWS} -"


def test_a_count_followed_by_a_digit_rank_reads_the_last_digit_as_the_rank() -> None:
    assert Position.from_line(line_with_row_8("65H6H7H6")) == position(RUN_5_7H)


def test_a_two_digit_count_before_a_digit_rank() -> None:
    pos = Position.from_line("102C3C4C - layout=..........S..")
    assert sorted(pos.layout.square_name(s) for s in pos.board) == ["K1", "L1", "M1"]
    assert pos.to_line() == "102C3C4C - layout=..........S.."


def test_a_letter_rank_after_a_count() -> None:
    pos = Position.from_line(line_with_row_8("6JHJDJC6"))
    assert sorted(pos.layout.square_name(s) for s in pos.board) == ["G8", "H8", "I8"]


def test_joker_is_the_card_it_stands_for_in_lower_case() -> None:
    pos = Position.from_line(line_with_row_8("65H6H7h6"))
    assert pos.board[pos.layout.parse_square("I8")] == PlacedTile(card(7, 2), True)
    assert pos.to_line() == line_with_row_8("65H6H7h6")


def test_ten_is_written_t_and_10_is_an_error() -> None:
    assert "TH" in position({"G8": "TH", "H8": "JH", "I8": "QH"}).to_line()
    with pytest.raises(PositionError, match="'0H' is not a tile"):
        Position.from_line(line_with_row_8("610H6"))


def test_mixed_case_tile_is_an_error() -> None:
    with pytest.raises(PositionError, match="mixed case"):
        Position.from_line(line_with_row_8("65H6H7h6".replace("7h", "Th")))


def test_rack_joker_is_a_star_and_an_empty_rack_a_dash() -> None:
    pos = Position.from_line(f"{EMPTY_ROWS} *AS")
    assert pos.rack == (card(1, 3), JOKER)
    assert pos.to_line() == f"{EMPTY_ROWS} AS*"
    assert Position.from_line(f"{EMPTY_ROWS} -").rack == ()


def test_rack_tiles_must_be_upper_case_cards() -> None:
    with pytest.raises(PositionError, match="rack: '5h'"):
        Position.from_line(f"{EMPTY_ROWS} 5h")
    with pytest.raises(PositionError, match="rack: '10'"):
        Position.from_line(f"{EMPTY_ROWS} 10H")


def test_options_in_any_order_defaults_left_out_when_written() -> None:
    line = f"5/5/19S9D9h1/5/5 9C sets=2 layout=Y...B/.R.../..S../...R./B...Y"
    swapped = f"5/5/19S9D9h1/5/5 9C layout=Y...B/.R.../..S../...R./B...Y sets=2"
    assert Position.from_line(line) == Position.from_line(swapped)
    assert Position.from_line(line).to_line() == line
    assert Position.from_line(f"{EMPTY_ROWS} - sets=1 layout=standard").to_line() == f"{EMPTY_ROWS} -"


def test_blanks_around_and_between_fields_are_allowed() -> None:
    assert Position.from_line(f"  {EMPTY_ROWS}\t \tAS  sets=2 \n") == position({}, "AS", sets=2)


@pytest.mark.parametrize("text, names", [
    ("", "empty"),
    (EMPTY_ROWS, "no rack"),
    (f"{EMPTY_ROWS} - \n -", "more than one line"),
    ("15/15 -", "2 rows"),
    (line_with_row_8("65H6H7H"), "covers 9 squares"),
    (line_with_row_8("65H6H7H7"), "covers 16 squares"),
    (line_with_row_8("065H6H7H6"), "not a count"),
    (line_with_row_8(""), "row 8 is empty"),
    (line_with_row_8("6XH6H7H6"), "'XH' is not a tile"),
    (line_with_row_8("6**6H7H6"), "'**' is not a tile"),
    (line_with_row_8("65H6H8H6"), "not a valid meld"),
    (f"{EMPTY_ROWS} - sets=3", "sets"),
    (f"{EMPTY_ROWS} - sets=2 sets=2", "given twice"),
    (f"{EMPTY_ROWS} - colour=red", "unknown option"),
    (f"{EMPTY_ROWS} - sets", "key=value"),
    (f"{EMPTY_ROWS} - layout=S..", "the layout has 1"),
    (f"{EMPTY_ROWS} - layout=huge", "unknown square kind"),
    (f"{EMPTY_ROWS} ASASAS", "copies of AS"),
    (f"{EMPTY_ROWS} " + "2C" * 15, "15 tiles"),
])
def test_bad_lines_are_one_line_position_errors_naming_the_problem(text: str, names: str) -> None:
    with pytest.raises(PositionError) as error:
        Position.from_line(text)
    message = str(error.value)
    assert names in message and "\n" not in message


def test_from_line_is_checked_by_the_same_rules_as_json() -> None:
    board_only_off_centre = "/".join(["15"] * 3) + "/3KDKCKS9/" + "/".join(["15"] * 11) + " -"
    with pytest.raises(PositionError, match="centre H8 is empty"):
        Position.from_line(board_only_off_centre)


# -- where a line is accepted --------------------------------------------------

def test_looks_like_json_by_the_first_non_blank_character() -> None:
    assert looks_like_json('  {"board": {}}') and looks_like_json("[1]") and looks_like_json('"x"')
    assert looks_like_json("") and looks_like_json(b"\xff{")
    assert not looks_like_json(f"{EMPTY_ROWS} -")


def test_files_beginning_with_a_byte_order_mark_load_as_before(tmp_path: Path) -> None:
    pos = position(RUN_5_7H, "5C 5S")
    for name, content in (("bom.json", pos.to_json()), ("bom.line", pos.to_line())):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + content.encode())
        assert Position.from_file(path) == pos


def test_from_text_reads_json_and_lines_alike() -> None:
    pos = position(RUN_5_7H, "5C 5S")
    assert Position.from_text(pos.to_json()) == Position.from_text(pos.to_line().encode() + b"\n") == pos


def test_position_load_takes_a_line_a_line_file_and_json(tmp_path: Path) -> None:
    pos = position(RUN_5_7H, "5C 5S")
    path = tmp_path / "position.line"
    path.write_text(pos.to_line() + "\n", encoding="utf-8")
    assert Position.load(pos.to_line()) == pos
    assert Position.load(str(path)) == pos
    assert Position.load(path) == pos
    assert Position.load(pos.to_json()) == pos


def test_position_load_reports_a_missing_file_as_a_file(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="cannot read"):
        Position.load(str(tmp_path / "missing.json"))


@pytest.mark.parametrize("command", ["best-move", "moves", "show"])
def test_cli_commands_read_a_file_holding_a_line(command: str, capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    path = tmp_path / "extend.line"
    path.write_text(Position.from_file(EXAMPLES / "extend.json").to_line() + "\n", encoding="utf-8")
    assert main([command, str(path)]) == 0
    from_line_out = capsys.readouterr().out
    assert main([command, str(EXAMPLES / "extend.json")]) == 0
    assert capsys.readouterr().out == from_line_out


def test_cli_reads_a_line_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    line = Position.from_file(EXAMPLES / "opening.json").to_line()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(line.encode() + b"\n")))
    assert main(["best-move", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 21


def test_cli_bad_line_file_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.line"
    path.write_text("15/15 -\n", encoding="utf-8")
    assert main(["best-move", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2 rows" in err


def test_show_line_prints_the_position_string(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--line", str(EXAMPLES / "small-board.json")]) == 0
    assert capsys.readouterr().out == "5/5/19S9D9h1/5/5 9CQC8STS layout=Y...B/.R.../..S../...R./B...Y\n"


def test_show_line_and_svg_cannot_be_combined(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["show", "--line", "--svg", str(tmp_path / "x.svg"), str(EXAMPLES / "extend.json")])
    assert exit_info.value.code == 2
