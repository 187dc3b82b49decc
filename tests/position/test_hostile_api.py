"""The public API's functions given what they do not take: each raises the
documented error class (ginnyo.errors), never another exception and never a
wrong answer (a square or card of no board read as one that is)."""

from __future__ import annotations

from typing import Any

import pytest

from ginnyo import Layout, PlacedTile, Position, PositionError, TileError, card_code, rack_code
from ginnyo.vocab.layout import column_letter
from ginnyo.vocab.melds import tile_value
from ginnyo.vocab.tiles import rack_penalty, run_value, set_value


@pytest.mark.parametrize("card", [-1, 52, 10**30, None, "AS", 1.5])
def test_card_code_refuses_what_is_no_card(card: Any) -> None:
    with pytest.raises(TileError, match="is not a card"):
        card_code(card)


@pytest.mark.parametrize("tile", [-1, 53, 10**30])
def test_rack_code_refuses_what_is_no_rack_tile(tile: int) -> None:
    with pytest.raises(TileError):
        rack_code(tile)


def test_placed_tile_of_no_card_has_no_code() -> None:
    with pytest.raises(TileError):
        PlacedTile(-1).code


@pytest.mark.parametrize("square", [-1, 225, 10**30, None, 1.0])
def test_square_name_refuses_a_square_off_the_board(square: Any) -> None:
    with pytest.raises(PositionError, match="off the board"):
        Layout.standard().square_name(square)


@pytest.mark.parametrize("text", [None, 5, ["{}"]])
def test_from_text_refuses_what_is_not_text(text: Any) -> None:
    with pytest.raises(PositionError, match="must be text"):
        Position.from_text(text)


@pytest.mark.parametrize("path", [None, 0, 3.5])
def test_from_file_refuses_what_names_no_file(path: Any) -> None:
    with pytest.raises(PositionError, match="a file is named by"):
        Position.from_file(path)


@pytest.mark.parametrize("context", [5, "players", ["players"]])
def test_constructor_refuses_a_context_that_is_no_mapping(context: Any) -> None:
    with pytest.raises(PositionError, match="context must map"):
        Position(Layout.standard(), 1, {}, [], context)


@pytest.mark.parametrize("square", [-1, -225, 225, 10**30, None, 1.0])
@pytest.mark.parametrize("method", ["tile_multiplier", "meld_multiplier", "neighbours"])
def test_layout_refuses_a_square_off_the_board(method: str, square: Any) -> None:
    with pytest.raises(PositionError, match=rf"square {square!r} is off the board \(0 to 224\)"):
        getattr(Layout.standard(), method)(square)


def test_layout_of_a_small_board_refuses_the_squares_of_a_larger_one() -> None:
    small = Layout.from_rows(["Y.B", ".S.", "G.R"])
    assert small.tile_multiplier(6) == 3 and small.meld_multiplier(8) == 2 and small.neighbours(4) == [1, 7, 3, 5]
    with pytest.raises(PositionError, match="square 9 is off the board"):
        small.tile_multiplier(9)


@pytest.mark.parametrize("column", [-1, 26])
def test_column_letter_refuses_a_column_of_no_board(column: int) -> None:
    with pytest.raises(PositionError, match=f"column {column} is off every board"):
        column_letter(column)


@pytest.mark.parametrize("tile", [-1, 53, 10**30])
def test_rack_penalty_refuses_what_is_no_rack_tile(tile: int) -> None:
    with pytest.raises(TileError, match=f"tile {tile} is not a rack tile"):
        rack_penalty(tile)


@pytest.mark.parametrize("card", [-1, -13, 52, 10**30, None, 1.5])
@pytest.mark.parametrize("value", [run_value, set_value])
def test_a_meld_value_refuses_what_is_no_card(value: Any, card: Any) -> None:
    with pytest.raises(TileError, match="is not a card"):
        value(card)


@pytest.mark.parametrize("kind", ["run", "set"])
def test_a_placed_tile_of_no_card_has_no_value_in_a_meld(kind: str) -> None:
    with pytest.raises(TileError, match="is not a card"):
        tile_value(PlacedTile(-1), kind)
