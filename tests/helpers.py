"""Helpers shared by the tests: positions from dicts, plays from square -> code maps,
and whether the full corpora run (GINNYO_FULL_CORPUS=1, set by .ci/run)."""

from __future__ import annotations

import os

from ginnyo import Play, PlacedTile, Position
from ginnyo.tiles import parse_card

FULL_CORPUS = os.environ.get("GINNYO_FULL_CORPUS") == "1"


def position(board: dict[str, str] | None = None, rack: str = "", **fields: object) -> Position:
    """A validated position from docs/FORMAT.md fields."""
    return Position.from_dict({"board": board or {}, "rack": rack, **fields})


def play(pos: Position, placements: dict[str, str]) -> Play:
    """A play from ``{"G7": "5C", "G9": "5s"}`` (lower case: a joker with that identity)."""
    return Play.of({pos.layout.parse_square(square): PlacedTile(*parse_card(code, lower_is_joker=True))
                    for square, code in placements.items()})
