"""Why a play is illegal, in words: the core's ILLEGAL_* codes (docs/RULES.md §4) worded once.

The core checks a play and returns the first rule it breaks as a negative code
and three ints saying where (``Core.judge_play``); :func:`reason` turns them
into the line a user reads.  The plain-Python ``reference.check_play`` says
the same in the same words: the tests hold the two to it.
"""

from __future__ import annotations

from typing import Callable

from ..errors import Reason
from ..support.quoting import quote
from .play import Play
from .rules import (ILLEGAL_AREAS, ILLEGAL_CARD, ILLEGAL_CENTRE, ILLEGAL_COUNT, ILLEGAL_COVERED, ILLEGAL_GAP, ILLEGAL_MELD,
                    ILLEGAL_OFF_BOARD, ILLEGAL_PLACE, ILLEGAL_RACK, ILLEGAL_REPEATED, ILLEGAL_SHAPE, ILLEGAL_SHORT,
                    MAX_PLACED)
from .fields import PositionFields as Position  # not position.py, which imports this module
from .tiles import JOKER_CODE, PlacedTile, rack_code

Detail = tuple[int, int, int]

#: the refusal codes each core code may give (a page words a refusal by its code, docs/WEB.md)
RULE_CODES: dict[int, tuple[str, ...]] = {
    ILLEGAL_COUNT: ("no-tiles", "too-many-tiles"),
    ILLEGAL_REPEATED: ("square-twice",),
    ILLEGAL_OFF_BOARD: ("off-board",),
    ILLEGAL_COVERED: ("covered",),
    ILLEGAL_CARD: ("no-such-card",),
    ILLEGAL_RACK: ("not-on-rack", "joker-not-on-rack"),
    ILLEGAL_SHAPE: ("not-in-line",),
    ILLEGAL_GAP: ("gap",),
    ILLEGAL_MELD: ("not-a-meld",),
    ILLEGAL_SHORT: ("short-line",),
    ILLEGAL_CENTRE: ("off-centre",),
    ILLEGAL_PLACE: ("unconnected",),
    ILLEGAL_AREAS: ("joins-areas",),
}
#: the codes of :func:`out_of_range`'s reasons and of a code this table lacks
OTHER_CODES = ("off-board", "no-placed-tile", "no-such-card", "illegal")


def _no_card(card: object) -> Reason:
    return Reason(f"card {quote(card)} is no card (0..51)", "no-such-card", card=quote(card))


def _count(position: Position, play: Play, detail: Detail) -> Reason:
    if detail[0] < 1:
        return Reason("a play places at least one tile", "no-tiles")
    return Reason(f"a play places at most {MAX_PLACED} tiles", "too-many-tiles", most=MAX_PLACED)


def _rack(position: Position, play: Play, detail: Detail) -> Reason:
    tile = rack_code(detail[0])
    text = f"the rack does not hold {detail[1]} x {tile}"
    if tile == JOKER_CODE:
        return Reason(text, "joker-not-on-rack", count=detail[1])
    return Reason(text, "not-on-rack", count=detail[1], tile=tile)


def _line(position: Position, play: Play, detail: Detail) -> Reason:
    direction, first, length = detail
    step = 1 if direction == 0 else position.layout.width
    squares = [first + i * step for i in range(length)]
    after = dict(position.board)
    after.update(play.placements)
    tiles = " ".join(after[square].code for square in squares)
    name = position.layout.square_name
    return Reason(f"line {name(squares[0])}-{name(squares[-1])} ({tiles}) would not be a meld", "not-a-meld",
                  first=name(squares[0]), last=name(squares[-1]), tiles=tiles)


def _at(text: str, code: str) -> Callable[[Position, Play, Detail], Reason]:
    """A reason naming one square (the detail's first): ``text`` with ``{square}``."""
    def words(position: Position, play: Play, detail: Detail) -> Reason:
        square = position.layout.square_name(detail[0])
        return Reason(text.format(square=square), code, square=square)
    return words


_WORDS: dict[int, Callable[[Position, Play, Detail], Reason]] = {
    ILLEGAL_COUNT: _count,
    ILLEGAL_REPEATED: lambda position, play, detail: Reason("a square is used twice", "square-twice"),
    ILLEGAL_OFF_BOARD: lambda position, play, detail:
        Reason(f"square {detail[0]} is off the board", "off-board", square=str(detail[0])),
    ILLEGAL_COVERED: _at("square {square} is already covered", "covered"),
    ILLEGAL_CARD: lambda position, play, detail: _no_card(detail[0]),
    ILLEGAL_RACK: _rack,
    ILLEGAL_SHAPE: lambda position, play, detail:
        Reason("the placed tiles are not in one row or one column", "not-in-line"),
    ILLEGAL_GAP: _at("empty square {square} between the placed tiles", "gap"),
    ILLEGAL_MELD: _line,
    ILLEGAL_SHORT: _at("tile on {square} lies in no line of three or more", "short-line"),
    ILLEGAL_CENTRE: _at("the first play must cover the centre {square}", "off-centre"),
    ILLEGAL_PLACE: lambda position, play, detail:
        Reason("the play neither connects to the board nor covers an empty red square", "unconnected"),
    ILLEGAL_AREAS: lambda position, play, detail:
        Reason(f"the play would join {detail[0]} areas", "joins-areas", count=detail[0]),
}


def reason(position: Position, play: Play, code: int, detail: Detail) -> Reason:
    """The rule ``play`` breaks in ``position``, from the core's ``code`` and ``detail``: its words,
    with a refusal code (of :data:`RULE_CODES`) and arguments."""
    words = _WORDS.get(code)
    if words is None:  # pragma: no cover - a code the core has and this table lacks
        return Reason(f"illegal play (code {code})", "illegal")
    return words(position, play, detail)


def out_of_range(play: Play) -> Reason | None:
    """The reason for a square or card no C ``short`` / ``signed char`` holds
    (the core takes no such value), else None."""
    for square, tile in play.placements:
        if not isinstance(square, int) or not -0x8000 <= square < 0x8000:
            return Reason(f"square {quote(square)} is off the board", "off-board", square=quote(square))
        if not isinstance(tile, PlacedTile):
            return Reason(f"tile {quote(tile)} is no placed tile", "no-placed-tile", tile=quote(tile))
        if not isinstance(tile.card, int) or not -0x80 <= tile.card < 0x80:
            return _no_card(tile.card)
    return None


__all__ = ["reason", "out_of_range", "RULE_CODES", "OTHER_CODES"]
