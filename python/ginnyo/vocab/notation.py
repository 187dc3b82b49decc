"""Move notation (docs/FORMAT.md "Move notation"): ``8G ...8H9H`` across, ``G8 5C.5S`` down."""

from __future__ import annotations

import re

from .board import ACROSS, DOWN, line_through
from ..errors import IllegalMoveError, InvalidMoveError, TileError
from ..support.quoting import quote
from .layout import column_letter
from .play import Play, check_placements
from .fields import PositionFields
from .tiles import PlacedTile, parse_card

_ACROSS_START = re.compile(r"^([0-9]{1,2})([A-Za-z])$")  # not \d: it matches any script's digits
_DOWN_START = re.compile(r"^([A-Za-z])([0-9]{1,2})$")
_TILE = re.compile(r"\.|10[A-Za-z]|[0-9A-Za-z][A-Za-z]")


def play_direction(position: PositionFields, play: Play) -> str:
    """The direction a play is written in: along its tiles; a single tile along
    the line where it makes a meld of three or more, across when both do."""
    squares = play.squares
    width = position.layout.width
    if len(squares) > 1:
        return ACROSS if squares[0] // width == squares[-1] // width else DOWN
    after = set(position.board) | set(squares)
    across = line_through(position.layout, after.__contains__, squares[0], ACROSS)
    return ACROSS if len(across) >= 3 else DOWN


def play_notation(position: PositionFields, play: Play) -> str:
    """Write a play, legal or not, as long as its tiles go on empty squares of one
    unbroken row or column; else raise :class:`IllegalMoveError` (or
    :class:`InvalidMoveError` for what is not a play) saying why."""
    layout = position.layout
    check_placements(play, layout.size)
    covered = [square for square in play.squares if square in position.board]
    if covered:
        raise IllegalMoveError(f"square {layout.square_name(covered[0])} is already covered")
    direction = play_direction(position, play)
    placed = dict(play.placements)
    occupied = set(position.board) | set(placed)
    line = line_through(layout, occupied.__contains__, min(placed), direction)
    if not placed.keys() <= set(line):
        raise IllegalMoveError("the placed tiles are not in one unbroken row or column")
    row, col = divmod(line[0], layout.width)
    start = f"{row + 1}{column_letter(col)}" if direction == ACROSS else f"{column_letter(col)}{row + 1}"
    spelled = "".join(placed[s].code if s in placed else "." for s in line)
    return f"{start} {spelled}"


def parse_notation(position: PositionFields, text: str) -> Play:
    """Read a play written in notation.

    Raises :class:`InvalidMoveError` for bad syntax and :class:`IllegalMoveError`
    when the notation does not fit the board (a ``.`` on an empty square, a tile
    on a covered one, the line running off the board).  Legality under the rules
    is checked separately.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"move {quote(text)}: not a string")
    parts = text.split(None, 1)
    if len(parts) != 2:
        raise InvalidMoveError(f"move {quote(text)}: expected '<start> <tiles>', e.g. '8G ...8H9H'")
    start_text, tiles_text = parts[0], "".join(parts[1].split())
    layout = position.layout
    across = _ACROSS_START.match(start_text)
    down = _DOWN_START.match(start_text)
    if across:
        direction, row_text, col_text = ACROSS, across.group(1), across.group(2)
    elif down:
        direction, col_text, row_text = DOWN, down.group(1), down.group(2)
    else:
        raise InvalidMoveError(
            f"move {quote(text)}: start {quote(start_text)} is not a square (8G across, G8 down)")
    start = layout.parse_square_or_none(f"{col_text}{row_text}")
    if start is None:
        raise IllegalMoveError(f"move {quote(text)}: start square {col_text.upper()}{row_text} is off the board")

    tokens = []
    pos = 0
    longest = max(layout.width, layout.height)   # more tiles than that never fit: stop reading
    while pos < len(tiles_text):
        match = _TILE.match(tiles_text, pos)
        if not match:
            raise InvalidMoveError(f"move {quote(text)}: cannot read tiles from {quote(tiles_text[pos:])}")
        tokens.append(match.group(0))
        if len(tokens) > longest:
            raise IllegalMoveError(f"move {quote(text)}: the line runs off the board")
        pos = match.end()
    if not tokens:
        raise InvalidMoveError(f"move {quote(text)}: no tiles")

    row, col = divmod(start, layout.width)
    d_row, d_col = (0, 1) if direction == ACROSS else (1, 0)
    placements = []
    for index, token in enumerate(tokens):
        r, c = row + d_row * index, col + d_col * index
        if r >= layout.height or c >= layout.width:
            raise IllegalMoveError(f"move {quote(text)}: the line runs off the board")
        square = r * layout.width + c
        name = layout.square_name(square)
        if token == ".":
            if square not in position.board:
                raise IllegalMoveError(f"move {quote(text)}: '.' on {name}, which is empty")
            continue
        try:
            card_id, joker = parse_card(token, lower_is_joker=True)
        except TileError as error:
            raise InvalidMoveError(f"move {quote(text)}: {error}") from None
        if square in position.board:
            raise IllegalMoveError(
                f"move {quote(text)}: {name} is covered by {position.board[square].code}; write '.' there")
        placements.append((square, PlacedTile(card_id, joker)))
    if not placements:
        raise InvalidMoveError(f"move {quote(text)}: places no tile")
    return Play.of(placements)
