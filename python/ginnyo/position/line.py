"""The one-line position string (docs/POSITION-STRING.md), written and read:
``to_line`` / ``line_data``, under :meth:`ginnyo.Position.to_line` / :meth:`ginnyo.Position.from_line`.

A position on one line, in the manner of chess's FEN and the crossword games'
CGP: board rows separated by ``/`` with runs of empty squares as numbers, then
the rack, then options::

    15/15/15/15/15/15/15/6AH8/15/15/15/15/15/15/15 5C5S*KDKCKSAS9H sets=2

Every string :func:`to_line` writes, :meth:`Position.from_line` reads back to
an equal position: :func:`line_data` turns a line into the JSON object of
docs/FORMAT.md, which :meth:`Position.from_dict` checks, so a line is checked by
exactly the rules a JSON position is.
"""

from __future__ import annotations

import re

from ..errors import PositionError
from ..support.files import BYTE_ORDER_MARK, POSITION_BYTES, check_length, quote
from ..vocab.layout import Layout
from ..vocab.fields import PositionFields
from ..vocab.tiles import RANKS, SUITS, rack_code

DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SUIT_LETTERS = SUITS + SUITS.lower()
EMPTY_RACK = "-"
MAX_GAP_DIGITS = 2  # layouts are at most 26 wide
OPTIONS = ("sets", "layout")
JSON_OPENERS = "{[\""  # a position string never starts with one of these
_FIELD_SEPARATOR = re.compile(r"[ \t]+")


def to_line(position: PositionFields) -> str:
    """The position as one line.  Options at their defaults (``sets=1``,
    ``layout=standard``) are left out; game context (players, scores...) is not
    part of the line."""
    layout = position.layout
    rows = []
    for row in range(layout.height):
        items, gap = [], 0
        for col in range(layout.width):
            tile = position.board.get(row * layout.width + col)
            if tile is None:
                gap += 1
                continue
            if gap:
                items.append(str(gap))
                gap = 0
            items.append(tile.code)
        if gap:
            items.append(str(gap))
        rows.append("".join(items))
    fields = ["/".join(rows), "".join(rack_code(tile) for tile in position.rack) or EMPTY_RACK]
    if position.sets != 1:
        fields.append(f"sets={position.sets}")
    if layout != Layout.standard():
        fields.append("layout=" + "/".join(layout.rows))
    return " ".join(fields)


def line_data(text: str) -> dict[str, object]:
    """A position string as the JSON object of docs/FORMAT.md (for
    :meth:`Position.from_dict`); raises :class:`PositionError` with one line
    naming the field, row, square or tile that is wrong."""
    if not isinstance(text, str):
        raise PositionError(f"position string: must be text, not {type(text).__name__}")
    check_length(text, POSITION_BYTES, what="position", error=PositionError)
    stripped = text.strip(" \t\r\n")
    if not stripped:
        raise PositionError("position string: empty (expected '<board rows> <rack> [options]')")
    if "\n" in stripped or "\r" in stripped:
        raise PositionError("position string: more than one line")
    fields = _FIELD_SEPARATOR.split(stripped)
    if len(fields) < 2:
        raise PositionError(
            f"position string: {quote(stripped)} has no rack field (write '-' for an empty rack)")
    board_field, rack_field, option_fields = fields[0], fields[1], fields[2:]
    options = _parse_options(option_fields)
    layout_value = options.get("layout", "standard")
    layout = Layout.standard() if layout_value == "standard" else Layout.from_rows(layout_value)
    return {
        "layout": layout_value,
        "sets": options.get("sets", 1),
        "board": _parse_board(layout, board_field),
        "rack": _parse_rack(rack_field),
    }


def looks_like_json(text: str | bytes) -> bool:
    """Whether a position text is JSON rather than a position string: its first
    non-blank character (after a byte order mark) is ``{``, ``[`` or ``"``, or it
    is blank, or it is bytes that are not UTF-8 (so that JSON's own error
    message explains it)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return True
    stripped = text.lstrip(BYTE_ORDER_MARK).lstrip()
    return not stripped or stripped[0] in JSON_OPENERS


def _parse_options(fields: list[str]) -> dict[str, object]:
    options: dict[str, object] = {}
    for field in fields:
        key, equals, value = field.partition("=")
        if not equals:
            raise PositionError(f"position string: option {quote(field)} is not key=value (sets=2, layout=...)")
        if key not in OPTIONS:
            raise PositionError(f"position string: unknown option {quote(key)} (known: {', '.join(OPTIONS)})")
        if key in options:
            raise PositionError(f"position string: option {key!r} given twice")
        if key == "sets":
            if value not in ("1", "2"):
                raise PositionError(f"field 'sets': must be 1 or 2, not {quote(value)}")
            options[key] = int(value)
        else:
            options[key] = value if value == "standard" else value.split("/")
    return options


def _parse_board(layout: Layout, field: str) -> dict[str, str]:
    rows = field.split("/")
    if len(rows) != layout.height:
        raise PositionError(
            f"position string: the board has {len(rows)} rows, the layout has {layout.height}")
    board: dict[str, str] = {}
    for row_index, row in enumerate(rows):
        col = 0
        for item, is_gap in _row_items(row, row_index + 1):
            if is_gap:
                col += int(item)
                continue
            if col < layout.width:
                board[layout.square_name(row_index * layout.width + col)] = item
            col += 1
        if col != layout.width:
            raise PositionError(
                f"position string: board row {row_index + 1} {quote(row)} covers {col} squares,"
                f" the layout is {layout.width} wide")
    return board


def _row_items(row: str, number: int) -> list[tuple[str, bool]]:
    """Split a board row into ``(text, is_gap)`` items.

    A tile is always two characters, rank then suit, and the suit letters
    (``C D H S``, ``c d h s``) are never ranks; so a digit followed by a suit
    letter is a tile's rank and every other digit belongs to a count of empty
    squares.  Two counts are never next to each other: the
    digits between two tiles are read as one count."""
    if not row:
        raise PositionError(f"position string: board row {number} is empty (write the width, e.g. 15)")
    items = []
    index = 0
    while index < len(row):
        if row[index] in DIGITS and not _tile_starts(row, index):
            end = index
            while end < len(row) and row[end] in DIGITS and not _tile_starts(row, end):
                end += 1
            gap = row[index:end]
            if gap[0] == "0" or len(gap) > MAX_GAP_DIGITS:
                raise PositionError(
                    f"position string: board row {number}: {quote(gap)} is not a count of empty squares"
                    " (1 to 26, no leading 0; a ten is T)")
            items.append((gap, True))
            index = end
        else:
            code = row[index:index + 2]
            if not _is_code(code):
                raise PositionError(
                    f"position string: board row {number}: {quote(code)} is not a tile"
                    " (rank A 2-9 T J Q K then suit C D H S; a joker in lower case)")
            items.append((code, False))
            index += 2
    return items


def _tile_starts(row: str, index: int) -> bool:
    """Whether the digit at ``index`` is a rank: the next character is a suit."""
    return index + 1 < len(row) and row[index + 1] in SUIT_LETTERS


def _is_code(code: str) -> bool:
    return (len(code) == 2 and code[0].upper() in RANKS and code[1].upper() in SUITS
            and code[0] in DIGITS + LETTERS and code[1] in LETTERS)


def _parse_rack(field: str) -> list[str]:
    if field == EMPTY_RACK:
        return []
    codes = []
    index = 0
    while index < len(field):
        if field[index] == "*":
            codes.append("*")
            index += 1
            continue
        code = field[index:index + 2]
        if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
            raise PositionError(
                f"rack: {quote(code)} at character {index + 1} is not a rack tile"
                " (a card in upper case like TH, '*' for a joker, '-' for an empty rack)")
        codes.append(code)
        index += 2
    return codes
