"""The placement preview as a domain call (ginnyo.position.preview): no web in the way."""

from __future__ import annotations

import pytest

from ginnyo import Position
from ginnyo.position.preview import NEEDS_MORE_TILES, RepeatedSquare, preview


def test_a_square_named_twice_is_a_malformed_placement_not_an_illegal_play() -> None:
    position = Position.from_dict({"board": {}, "rack": "7C 7D * 2S KH"})
    with pytest.raises(RepeatedSquare, match="given twice"):
        preview(position, {"H8": "7C", "h8": "7D"})


def test_a_lone_joker_put_down_first_needs_more_tiles() -> None:
    judged = preview(Position.from_dict({"board": {}, "rack": "7C 7D * 2S KH"}), {"H8": "*"})
    assert not judged["legal"] and judged["reason"].startswith(f"{NEEDS_MORE_TILES}: ")
