"""The compiled core takes each square's premiums as layout.py maps them: no
square letters in the core, and bad premium arrays refused with one clear line."""

from __future__ import annotations

import pytest

from ginnycore import Core
from ginnyo import Position, native
from ginnyo.vocab.layout import PREMIUMS, Layout, core_premiums
from helpers import play, position


def test_core_premiums_follow_the_premium_of_each_kind() -> None:
    tiles, melds, reds, centre = core_premiums(".YGRBS")
    assert list(tiles) == [PREMIUMS[kind].tile for kind in ".YGRBS"] == [1, 2, 3, 1, 1, 1]
    assert list(melds) == [PREMIUMS[kind].meld for kind in ".YGRBS"] == [1, 1, 1, 2, 3, 1]
    assert list(reds) == [0, 0, 0, 1, 0, 0]
    assert centre == 5
    assert core_premiums(b".S") == core_premiums(".S")


def test_the_core_scores_with_the_multipliers_it_is_given() -> None:
    """The same opening on a layout of plain squares and on one whose centre row
    doubles every tile (Y): the core's score follows the arrays, as the Python
    scoring of the layout does."""
    rows = ["...", "YSY", "..."]
    plain = position({}, "3C 4C 5C", layout=[row.replace("Y", ".") for row in rows])
    doubled = position({}, "3C 4C 5C", layout=rows)
    opening = {"A2": "3C", "B2": "4C", "C2": "5C"}
    assert native.core_of(plain).apply(*_arrays(plain, opening)) == 12
    assert native.core_of(doubled).apply(*_arrays(doubled, opening)) == 3 * 2 + 4 + 5 * 2


def _arrays(pos: Position, placements: dict[str, str]) -> tuple[list[int], list[int], list[bool]]:
    placed = play(pos, placements)
    return ([square for square, _ in placed.placements], [tile.card for _, tile in placed.placements],
            [tile.joker for _, tile in placed.placements])


@pytest.mark.parametrize("arguments, message", [
    ((b"\x01" * 3, b"\x01" * 4, b"\x00" * 4, 0), "tile_mults must have one byte a square \\(4\\), not 3"),
    ((b"\x01" * 4, b"\x01" * 4, b"\x00" * 5, 0), "reds must have one byte a square \\(4\\), not 5"),
    ((b"\x01\x00\x01\x01", b"\x01" * 4, b"\x00" * 4, 0), "square 1: multipliers must be 1..3"),
    ((b"\x01" * 4, b"\x01\x01\x01\x04", b"\x00" * 4, 0), "square 3: multipliers must be 1..3"),
    ((b"\x01" * 4, b"\x01" * 4, b"\x00" * 4, 4), "centre 4 is not a square of the board"),
    ((b"\x01" * 4, b"\x01" * 4, b"\x00" * 4, -2), "centre -2 is not a square of the board"),
])
def test_the_core_refuses_bad_premium_arrays(arguments: tuple[bytes, bytes, bytes, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Core(2, 2, *arguments)


def test_a_layout_gives_the_core_its_premiums_once() -> None:
    layout = Layout.standard()
    assert layout.core_premiums is layout.core_premiums
    assert layout.core_premiums == core_premiums(layout.kinds)
