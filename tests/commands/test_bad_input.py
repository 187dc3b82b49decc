"""Bad input, as docs/FORMAT.md lists it: a clear one-line error naming
the field, the square or the tile, and a non-zero exit (2) — never a traceback,
never a guess.

Each case is its own test, run at four levels (the ``via`` parameter):
``api`` — ``Position.from_json(text)`` and, where the text is a JSON object,
``Position.from_dict(data)`` raise ``ginnyo.PositionError`` (a ValueError) with a
one-line message; ``best-move``, ``moves``, ``show`` — ``ginnyo.cli.main`` on a
file holding the text returns 2 and prints exactly one line to stderr.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from ginnyo import Position, PositionError
from ginnyo.cli import main

VIA = ["api", "best-move", "moves", "show"]
COMMANDS = ["best-move", "moves", "show"]

RUN_5_7H = {"G8": "5H", "H8": "6H", "I8": "7H"}


def doc(**fields: object) -> str:
    """A position JSON text; ``board`` and ``rack`` default to a valid position."""
    data: dict[str, object] = {"board": RUN_5_7H, "rack": "5C 5S"}
    data.update(fields)
    return json.dumps(data)


def without(field: str) -> str:
    data = {"board": RUN_5_7H, "rack": "5C 5S"}
    del data[field]
    return json.dumps(data)


def _names_one(message: str, names: list[str]) -> bool:
    return any(name.lower() in message.lower() for name in names)


def _check_message(message: str, names: list[str]) -> None:
    assert message.strip(), "empty error message"
    assert "\n" not in message.strip(), f"error is not one line: {message!r}"
    assert "Traceback" not in message
    assert _names_one(message, names), f"{message!r} names none of {names}"


def check_bad(via: str, text: str | bytes, names: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
              *, dict_too: bool = True) -> None:
    if via == "api":
        with pytest.raises(PositionError) as info:
            Position.from_json(text)
        assert isinstance(info.value, ValueError)
        _check_message(str(info.value), names)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if dict_too and isinstance(data, dict):
            with pytest.raises(PositionError) as info:
                Position.from_dict(data)
            _check_message(str(info.value), names)
        return
    path = tmp_path / "position.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    status = main([via, str(path)])
    out, err = capsys.readouterr()
    assert status == 2, f"exit status {status}; stderr {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1, f"stderr is not one line: {err!r}"
    assert "Traceback" not in err
    _check_message(lines[0], names)


# --------------------------------------------------------------------------
# malformed JSON

@pytest.mark.parametrize("via", VIA)
def test_malformed_json_truncated(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, '{"board": {}, "rack": ', ["JSON"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_malformed_json_trailing_comma(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, '{"board": {}, "rack": "",}', ["JSON"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_malformed_json_empty_file(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, "", ["JSON"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_malformed_json_not_text(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, b"\xff\xfe\x00{board", ["JSON"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_malformed_json_nested_too_deeply(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, "[" * 100000, ["JSON"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_malformed_json_duplicate_key(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # JSON that names a square twice would need a guess at which tile is meant
    text = '{"board": {"G8": "5H", "H8": "6H", "I8": "7H", "H8": "6C"}, "rack": ""}'
    check_bad(via, text, ["H8"], capsys, tmp_path, dict_too=False)  # a dict cannot hold it


# --------------------------------------------------------------------------
# wrong field types

@pytest.mark.parametrize("via", VIA)
def test_position_not_an_object(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, '[{"board": {}, "rack": ""}]', ["position", "object"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_not_an_object(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board=["G8", "5H"]), ["board"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_a_string(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board="G8 5H"), ["board"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_null(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board=None), ["board"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_tile_not_a_string(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "5H", "H8": 6, "I8": "7H"}), ["H8"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_rack_a_number(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack=5), ["rack"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_rack_an_object(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack={"5C": 1}), ["rack"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_rack_list_entry_not_a_string(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack=["5C", 7]), ["rack"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_sets_a_string(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(sets="two"), ["sets"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_sets_three(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(sets=3), ["sets"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_sets_zero(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(sets=0), ["sets"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_sets_a_boolean(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(sets=True), ["sets"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_sets_a_fraction(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(sets=1.5), ["sets"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_layout_a_number(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(layout=5), ["layout"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_layout_an_unknown_name(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(layout="huge"), ["layout"], capsys, tmp_path)


# --------------------------------------------------------------------------
# unknown tile codes

@pytest.mark.parametrize("via", VIA)
def test_unknown_tile_code_on_the_board(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "5H", "H8": "ZZ", "I8": "7H"}), ["ZZ"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_unknown_rank_on_the_board(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "5H", "H8": "1H", "I8": "7H"}), ["1H"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_mixed_case_tile_on_the_board(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # a board joker is written wholly in lower case; '6h' is one, '6H' a card, 'Qh' neither
    check_bad(via, doc(board={"G8": "JH", "H8": "Qh", "I8": "KH"}), ["Qh"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_unknown_tile_code_on_the_rack(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack="5C XX"), ["XX"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_unknown_suit_on_the_rack(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack=["5C", "5X"]), ["5X"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_joker_code_with_extra_characters_on_the_rack(via: str, capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    check_bad(via, doc(rack="5C **"), ["**"], capsys, tmp_path)


# --------------------------------------------------------------------------
# squares off the board

@pytest.mark.parametrize("via", VIA)
def test_square_off_the_board_column_p(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"P8": "5H", "G8": "5C"}), ["P8"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_square_off_the_board_row_16(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"H16": "5H"}), ["H16"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_square_off_the_board_row_0(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"H0": "5H"}), ["H0"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_square_off_a_custom_layout(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    layout = [".....", ".....", "..S..", ".....", "....."]
    check_bad(via, doc(layout=layout, board={"C3": "5H", "F3": "6H"}), ["F3"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_square_name_malformed(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"88": "5H"}), ["88"], capsys, tmp_path)


# --------------------------------------------------------------------------
# boards that break the rules

@pytest.mark.parametrize("via", VIA)
def test_board_line_not_a_valid_meld(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "5H", "H8": "6C", "I8": "7H"}),
              ["G8", "H8", "I8", "6C"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_line_set_with_repeated_suit(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "5H", "H8": "5C", "I8": "5h"}, rack=""),
              ["G8", "H8", "I8"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_line_wrapping_run(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "KH", "H8": "AH", "I8": "2H"}, rack=""),
              ["G8", "H8", "I8"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_two_tile_line(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"H8": "5H", "I8": "6H"}), ["H8", "I8"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_two_tile_crossing_line(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = dict(RUN_5_7H, H9="6C")  # H8-H9 is a 2-tile column
    check_bad(via, doc(board=board), ["H8", "H9"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_tile_in_no_meld_of_three(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = dict(RUN_5_7H, D4="KD")  # alone on a red start square
    check_bad(via, doc(board=board), ["D4"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_lone_tile_on_the_centre(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"H8": "KD"}), ["H8"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_group_covering_no_start_square(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = dict(RUN_5_7H, B2="KD", C2="KC", D2="KS")
    check_bad(via, doc(board=board), ["B2", "C2", "D2"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_tiles_while_the_centre_is_empty(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = {"D4": "KD", "E4": "KC", "F4": "KS"}
    check_bad(via, doc(board=board), ["H8", "centre", "center"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_board_joker_with_no_identity(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "5H", "H8": "*", "I8": "7H"}), ["H8"], capsys, tmp_path)


# --------------------------------------------------------------------------
# copies

@pytest.mark.parametrize("via", VIA)
def test_too_many_copies_of_a_card_one_set(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack="5H 5C"), ["5H"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_too_many_copies_of_a_card_on_the_board(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # valid melds, but two physical 9C with one set
    board = {"G8": "9H", "H8": "9C", "I8": "9S", "G9": "9D", "G10": "9C"}
    assert Position.from_dict({"board": board, "rack": "", "sets": 2}).board
    check_bad(via, doc(board=board, rack=""), ["9C"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_too_many_copies_of_a_card_two_sets(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack="5H 5H", sets=2), ["5H"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_too_many_jokers_one_set(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack="* * *"), ["joker"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_too_many_jokers_two_sets(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(rack="* * * * *", sets=2), ["joker"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_too_many_jokers_counting_board_jokers(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(board={"G8": "5h", "H8": "6h", "I8": "7H"}, rack="*"), ["joker"],
              capsys, tmp_path)


# --------------------------------------------------------------------------
# layouts

@pytest.mark.parametrize("via", VIA)
def test_layout_not_rectangular(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    layout = [".....", "....", "..S..", ".....", "....."]
    check_bad(via, doc(layout=layout, board={}), ["layout"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_layout_with_no_centre(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(layout=["....."] * 5, board={}), ["layout"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_layout_with_two_centres(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    layout = ["S....", ".....", "..S..", ".....", "....."]
    check_bad(via, doc(layout=layout, board={}), ["layout"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_layout_with_an_unknown_square_kind(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    layout = [".....", "..X..", "..S..", ".....", "....."]
    check_bad(via, doc(layout=layout, board={}), ["layout"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_layout_empty_list(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(layout=[], board={}), ["layout"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_layout_row_not_a_string(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, doc(layout=[".....", 5, "..S..", ".....", "....."], board={}), ["layout"],
              capsys, tmp_path)


# --------------------------------------------------------------------------
# rack size, missing fields

@pytest.mark.parametrize("via", VIA)
def test_rack_of_fifteen_tiles(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rack = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D"
    check_bad(via, doc(board={}, rack=rack), ["rack"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_rack_list_of_fifteen_tiles(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rack = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D".split()
    check_bad(via, doc(board={}, rack=rack), ["rack"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_missing_rack_field(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, without("rack"), ["rack"], capsys, tmp_path)


@pytest.mark.parametrize("via", VIA)
def test_missing_board_field(via: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    check_bad(via, without("board"), ["board"], capsys, tmp_path)


# --------------------------------------------------------------------------
# files and standard input (command line only)

@pytest.mark.parametrize("command", COMMANDS)
def test_cli_file_that_does_not_exist(command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "no-such-position.json"
    status = main([command, str(path)])
    out, err = capsys.readouterr()
    assert status == 2
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    assert "no-such-position.json" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_cli_file_that_does_not_exist_with_a_newline_in_its_name(command: str, capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    path = tmp_path / "no-such\nposition.json"
    status = main([command, str(path)])
    out, err = capsys.readouterr()
    assert status == 2
    assert len(err.splitlines()) == 1, err


@pytest.mark.parametrize("command", COMMANDS)
def test_cli_path_that_is_a_directory(command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = main([command, str(tmp_path)])
    out, err = capsys.readouterr()
    assert status == 2
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize("command", COMMANDS)
def test_cli_stdin_dash_malformed(command: str, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b'{"board": {}, "rack": ')
    status = main([command, "-"])
    out, err = capsys.readouterr()
    assert status == 2
    assert len(err.splitlines()) == 1, err
    assert "JSON" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", COMMANDS)
def test_cli_stdin_dash_bad_board(command: str, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, doc(board={"G8": "5H", "H8": "ZZ", "I8": "7H"}).encode())
    status = main([command, "-"])
    out, err = capsys.readouterr()
    assert status == 2
    assert len(err.splitlines()) == 1, err
    assert "ZZ" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_cli_stdin_dash_good_position(command: str, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, doc().encode())
    status = main([command, "-"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err == ""
    assert out.strip()


def test_cli_best_move_good_position_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(doc(rack="5C 5S 8H 8C 8S KD KC KS"))
    assert main(["best-move", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["score"] == 60
    assert result["notation"] and result["melds"] and result["placements"]


# --------------------------------------------------------------------------
# input docs/FORMAT.md accepts must load (no false alarms)

def test_rack_accepts_ten_and_lower_case_suits() -> None:
    p = Position.from_dict({"board": {}, "rack": "10h 5c TD"})
    assert Position.from_dict({"board": {}, "rack": "TH 5C TD"}).rack == p.rack


def test_rack_accepts_a_list_of_codes() -> None:
    p = Position.from_dict({"board": {}, "rack": ["5C", "*", "10s"]})
    assert p == Position.from_dict({"board": {}, "rack": "5C * TS"})


def test_board_accepts_ten_written_10() -> None:
    p = Position.from_dict({"board": {"G8": "8H", "H8": "9H", "I8": "10H"}, "rack": ""})
    assert p == Position.from_dict({"board": {"G8": "8H", "H8": "9H", "I8": "TH"}, "rack": ""})


def test_board_accepts_ten_written_10_as_a_lower_case_joker() -> None:
    p = Position.from_dict({"board": {"G8": "8H", "H8": "9H", "I8": "10h"}, "rack": ""})
    assert p == Position.from_dict({"board": {"G8": "8H", "H8": "9H", "I8": "th"}, "rack": ""})


def test_board_accepts_optional_context_fields() -> None:
    p = Position.from_dict({"board": {}, "rack": "", "players": 2, "scores": [0, 0],
                            "to_move": 0, "unseen": "5C"})
    assert p.board == {}


def test_board_accepts_empty_rack_and_empty_board() -> None:
    assert Position.from_json('{"board": {}, "rack": ""}').rack == ()
    assert Position.from_json('{"board": {}, "rack": []}').rack == ()


def test_square_with_a_superscript_digit_is_a_position_error() -> None:
    # found by the property tests: str.isdigit() accepts '²', int() does not
    with pytest.raises(PositionError, match="H²"):
        Position.from_dict({"board": {"G8": "5H", "H8": "6H", "I8": "7H", "H²": "AS"}, "rack": ""})
