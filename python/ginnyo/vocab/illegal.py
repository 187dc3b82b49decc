"""Why a play is illegal, in words: the core's ILLEGAL_* codes (docs/RULES.md §4) worded once.

The core checks a play and returns the first rule it breaks as a negative code
and three ints saying where (``Core.judge_play``); :func:`reason` turns them
into the line a user reads.  The plain-Python ``reference.check_play`` says
the same in the same words: the tests hold the two to it.
"""

from __future__ import annotations

from typing import Callable

from ..support.quoting import quote
from .play import Play
from .rules import (ILLEGAL_AREAS, ILLEGAL_CARD, ILLEGAL_CENTRE, ILLEGAL_COUNT, ILLEGAL_COVERED, ILLEGAL_GAP, ILLEGAL_MELD,
                    ILLEGAL_OFF_BOARD, ILLEGAL_PLACE, ILLEGAL_RACK, ILLEGAL_REPEATED, ILLEGAL_SHAPE, ILLEGAL_SHORT,
                    MAX_PLACED)
from .fields import PositionFields as Position  # not position.py, which imports this module
from .tiles import PlacedTile, rack_code

Detail = tuple[int, int, int]


def _no_card(card: object) -> str:
    return f"card {quote(card)} is no card (0..51)"


def _count(position: Position, play: Play, detail: Detail) -> str:
    if detail[0] < 1:
        return "a play places at least one tile"
    return f"a play places at most {MAX_PLACED} tiles"


def _line(position: Position, play: Play, detail: Detail) -> str:
    direction, first, length = detail
    step = 1 if direction == 0 else position.layout.width
    squares = [first + i * step for i in range(length)]
    after = dict(position.board)
    after.update(play.placements)
    tiles = " ".join(after[square].code for square in squares)
    name = position.layout.square_name
    return f"line {name(squares[0])}-{name(squares[-1])} ({tiles}) would not be a meld"


_WORDS: dict[int, Callable[[Position, Play, Detail], str]] = {
    ILLEGAL_COUNT: _count,
    ILLEGAL_REPEATED: lambda position, play, detail: "a square is used twice",
    ILLEGAL_OFF_BOARD: lambda position, play, detail: f"square {detail[0]} is off the board",
    ILLEGAL_COVERED: lambda position, play, detail:
        f"square {position.layout.square_name(detail[0])} is already covered",
    ILLEGAL_CARD: lambda position, play, detail: _no_card(detail[0]),
    ILLEGAL_RACK: lambda position, play, detail: f"the rack does not hold {detail[1]} x {rack_code(detail[0])}",
    ILLEGAL_SHAPE: lambda position, play, detail: "the placed tiles are not in one row or one column",
    ILLEGAL_GAP: lambda position, play, detail:
        f"empty square {position.layout.square_name(detail[0])} between the placed tiles",
    ILLEGAL_MELD: _line,
    ILLEGAL_SHORT: lambda position, play, detail:
        f"tile on {position.layout.square_name(detail[0])} lies in no line of three or more",
    ILLEGAL_CENTRE: lambda position, play, detail:
        f"the first play must cover the centre {position.layout.square_name(detail[0])}",
    ILLEGAL_PLACE: lambda position, play, detail:
        "the play neither connects to the board nor covers an empty red square",
    ILLEGAL_AREAS: lambda position, play, detail: f"the play would join {detail[0]} areas",
}


def reason(position: Position, play: Play, code: int, detail: Detail) -> str:
    """The rule ``play`` breaks in ``position``, from the core's ``code`` and ``detail``."""
    words = _WORDS.get(code)
    if words is None:  # pragma: no cover - a code the core has and this table lacks
        return f"illegal play (code {code})"
    return words(position, play, detail)


def out_of_range(play: Play) -> str | None:
    """The reason for a square or card no C ``short`` / ``signed char`` holds
    (the core takes no such value), else None."""
    for square, tile in play.placements:
        if not isinstance(square, int) or not -0x8000 <= square < 0x8000:
            return f"square {quote(square)} is off the board"
        if not isinstance(tile, PlacedTile):
            return f"tile {quote(tile)} is no placed tile"
        if not isinstance(tile.card, int) or not -0x80 <= tile.card < 0x80:
            return _no_card(tile.card)
    return None


__all__ = ["reason", "out_of_range"]
