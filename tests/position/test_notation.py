"""Move notation (docs/FORMAT.md): writing, reading back, and the errors of each kind."""

from __future__ import annotations

import pytest

from helpers import play, position
from ginnyo import IllegalMoveError, InvalidMoveError, native
from ginnyo.selfplay.corpus import sample_positions
from ginnyo.vocab.notation import parse_notation, play_notation

ROW_OF_HEARTS = {"G8": "5H", "H8": "6H", "I8": "7H"}


def test_extension_is_written_with_dots_for_tiles_on_the_board() -> None:
    pos = position(ROW_OF_HEARTS, "8H 9H")
    assert play_notation(pos, play(pos, {"J8": "8H", "K8": "9H"})) == "8G ...8H9H"


def test_across_starts_with_the_row_number_and_down_with_the_column_letter() -> None:
    pos = position(ROW_OF_HEARTS, "5C 5S")
    assert play_notation(pos, play(pos, {"G7": "5C", "G9": "5S"})) == "G7 5C.5S"
    empty = position({}, "7H 7C 7S")
    assert play_notation(empty, play(empty, {"G8": "7H", "H8": "7C", "I8": "7S"})) == "8G 7H7C7S"


def test_joker_is_written_as_its_identity_in_lower_case() -> None:
    pos = position(ROW_OF_HEARTS, "*")
    assert play_notation(pos, play(pos, {"J8": "8h"})) == "8G ...8h"


def test_single_tile_is_written_along_its_meld() -> None:
    pos = position(ROW_OF_HEARTS, "8H 5C")
    # extends the row: across
    assert play_notation(pos, play(pos, {"J8": "8H"})) == "8G ...8H"


def test_single_tile_making_melds_both_ways_is_written_across() -> None:
    board = {"G6": "5C", "G7": "5D", "G8": "5H", "H8": "6H", "I8": "7H",
             "H9": "6S", "I9": "7S", "J9": "8S", "H10": "6D", "I10": "7D", "J10": "8D", "J11": "8C"}
    pos = position(board, "5S")
    # G9 completes the column set 5C 5D 5H 5S and the row run 5S 6S 7S 8S
    assert play_notation(pos, play(pos, {"G9": "5S"})) == "9G 5S..."
    assert parse_notation(pos, "G6 ...5S") == play(pos, {"G9": "5S"})


def test_ten_is_read_as_T_or_10() -> None:
    pos = position(ROW_OF_HEARTS, "8H 9H TH")
    expected = play(pos, {"J8": "8H", "K8": "9H", "L8": "TH"})
    assert parse_notation(pos, "8G ...8H9HTH") == expected
    assert parse_notation(pos, "8G ...8H9H10H") == expected
    assert parse_notation(pos, "8G ...8H9H10h") == play(pos, {"J8": "8H", "K8": "9H", "L8": "th"})


def test_spaces_between_tiles_are_allowed() -> None:
    pos = position(ROW_OF_HEARTS, "8H 9H")
    assert parse_notation(pos, "8G . . . 8H 9H") == play(pos, {"J8": "8H", "K8": "9H"})


@pytest.mark.parametrize("text", ["", "8G", "Z 5H", "88 5H", "8G 5X", "8G 5", "8G ..", "8G 1H", "G 5H5C"])
def test_bad_syntax_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_notation(position(ROW_OF_HEARTS, "5C"), text)


@pytest.mark.parametrize("text", ["8H .8H", "7G 5C.", "8N ..8H9H", "16A 5C", "8G .5C"])
def test_notation_that_does_not_fit_the_board_is_an_illegal_move(text: str) -> None:
    with pytest.raises(IllegalMoveError):
        parse_notation(position(ROW_OF_HEARTS, "5C"), text)


def test_invalid_and_illegal_moves_are_value_errors() -> None:
    assert issubclass(InvalidMoveError, ValueError) and issubclass(IllegalMoveError, ValueError)


def test_every_legal_play_round_trips_through_notation() -> None:
    checked = 0
    for pos in sample_positions(150, seed=7):
        for scored in native.legal_plays(pos):
            text = play_notation(pos, scored.play)
            assert parse_notation(pos, text) == scored.play, text
            checked += 1
    assert checked > 1500
