"""A Ginny-O position: layout, tile sets, board and rack, loaded and validated
per docs/FORMAT.md.  Every malformed input raises :class:`PositionError` with one line
naming the field, square or tile."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from . import board as board_lines
from . import strict_json
from .errors import PositionError, TileError
from .files import POSITION_BYTES, check_length, quote, read_bounded
from .layout import Layout
from .melds import meld_kind
from .tiles import JOKER, NUM_CARDS, PlacedTile, card_code, parse_card, parse_rack_tile, rack_code

if TYPE_CHECKING:
    from .legal import LegalPlays

MAX_RACK = 14
CONTEXT_FIELDS = ("players", "scores", "to_move", "unseen")
KNOWN_FIELDS = ("layout", "sets", "board", "rack") + CONTEXT_FIELDS


class Position:
    """A validated position.  ``board`` maps squares (ints) to :class:`PlacedTile`;
    ``rack`` is a sorted tuple of rack tiles (cards and :data:`JOKER`)."""

    __slots__ = ("layout", "sets", "board", "rack", "context")

    def __init__(self, layout: Layout, sets: int, board: Mapping[int, PlacedTile],
                 rack: Iterable[int], context: Mapping[str, Any] | None = None,
                 *, validate: bool = True) -> None:
        self.layout = layout
        self.sets = sets
        self.board = dict(board)
        self.rack = tuple(sorted(rack))
        self.context = dict(context or {})
        if validate:
            _validate(self)

    # -- loading -----------------------------------------------------------
    @classmethod
    def from_dict(cls, data: object) -> "Position":
        """Build from the decoded JSON object of docs/FORMAT.md."""
        if not isinstance(data, dict):
            raise PositionError("position: must be a JSON object")
        for key in data:
            if key not in KNOWN_FIELDS:
                raise PositionError(f"field {quote(key)}: unknown field (known: {', '.join(KNOWN_FIELDS)})")
        for key in ("board", "rack"):
            if key not in data:
                raise PositionError(f"field {quote(key)}: missing")
        layout = _parse_layout(data.get("layout", "standard"))
        sets = data.get("sets", 1)
        if type(sets) is not int or sets not in (1, 2):
            raise PositionError(f"field 'sets': must be 1 or 2, not {quote(sets)}")
        board = _parse_board(layout, data["board"])
        rack = _parse_rack(data["rack"])
        context = {key: data[key] for key in CONTEXT_FIELDS if key in data}
        return cls(layout, sets, board, rack, context)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Position":
        """Build from JSON text of at most :data:`files.POSITION_BYTES`."""
        if not isinstance(text, (str, bytes)):
            raise PositionError(f"position: JSON must be text, not {type(text).__name__}")
        check_length(text, POSITION_BYTES, what="position", error=PositionError)
        return cls.from_dict(strict_json.loads(text, PositionError))

    @classmethod
    def from_file(cls, path: str | Path) -> "Position":
        """Read a position file, JSON or a one-line position string
        (``'-'`` reads standard input), of at most :data:`files.POSITION_BYTES`."""
        from .position_string import from_text
        return from_text(read_bounded(path, POSITION_BYTES, what="position", error=PositionError))

    # -- writing -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "layout": self.layout.to_json(),
            "sets": self.sets,
            "board": {self.layout.square_name(square): tile.code
                      for square, tile in sorted(self.board.items())},
            "rack": " ".join(rack_code(tile) for tile in self.rack),
        }
        data.update(self.context)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    # -- queries -----------------------------------------------------------
    @property
    def legal_plays(self) -> LegalPlays:
        """The legal plays as a lazy view (:class:`ginnyo.legal.LegalPlays`)."""
        from .legal import LegalPlays
        return LegalPlays(self)

    def rack_counts(self) -> Counter[int]:
        return Counter(self.rack)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.layout == other.layout
                and self.sets == other.sets and self.board == other.board
                and self.rack == other.rack)

    def __repr__(self) -> str:
        return f"Position({self.to_json()})"


def _parse_layout(value: object) -> Layout:
    if value == "standard":
        return Layout.standard()
    if isinstance(value, str):
        raise PositionError(f"field 'layout': unknown layout {quote(value)} (\"standard\" or a list of rows)")
    if not isinstance(value, list):
        raise PositionError("field 'layout': must be \"standard\" or a list of strings")
    return Layout.from_rows(value)


def _parse_board(layout: Layout, value: object) -> dict[int, PlacedTile]:
    if not isinstance(value, dict):
        raise PositionError("field 'board': must be an object of square -> tile")
    board: dict[int, PlacedTile] = {}
    for name, code in value.items():
        square = layout.parse_square(name)
        if square in board:
            raise PositionError(f"board {name}: square given twice")
        if not isinstance(code, str):
            raise PositionError(f"board {name}: tile must be a string, not {quote(code)}")
        if code.strip() == "*":
            raise PositionError(
                f"board {name}: a joker on the board needs an identity (write the card in lower case, e.g. 5h)")
        try:
            card_id, joker = parse_card(code, lower_is_joker=True)
        except TileError as error:
            raise PositionError(f"board {name}: {error}") from None
        board[square] = PlacedTile(card_id, joker)
    return board


def parse_tile_codes(value: object, field: str, tile_prefix: str, limit: int | None = None) -> list[int]:
    """Rack tiles from a string of codes or a list of codes (a rack, the unseen
    tiles); a bad one raises PositionError naming ``field`` (``tile_prefix``
    leads the message about a single tile)."""
    if isinstance(value, str):   # split no further than the limit: a huge string never becomes a huge list
        codes: list[object] = list(value.split(None, limit) if limit is not None else value.split())
    elif isinstance(value, list):
        codes = list(value)
    else:
        raise PositionError(f"field '{field}': must be a string of tile codes or a list of codes")
    if limit is not None and len(codes) > limit:
        count = len(codes) if isinstance(value, list) else f"more than {limit}"
        raise PositionError(f"field '{field}': {count} tiles, at most {limit}")
    tiles = []
    for code in codes:
        if not isinstance(code, str):
            raise PositionError(f"{tile_prefix}: tile {quote(code)} is not a string")
        try:
            tiles.append(parse_rack_tile(code))
        except TileError as error:
            raise PositionError(f"{tile_prefix}: {error}") from None
    return tiles


def _parse_rack(value: object) -> list[int]:
    return parse_tile_codes(value, "rack", "rack", MAX_RACK)


def _validate(position: Position) -> None:
    layout, board = position.layout, position.board
    for square in board:
        if not 0 <= square < layout.size:
            raise PositionError(f"board: square {square} is off the board")
    _check_copies(position)
    if board and layout.centre not in board:
        raise PositionError(
            f"board: tiles on the board while the centre {layout.square_name(layout.centre)} is empty")
    in_meld: set[int] = set()
    for line in board_lines.all_lines(layout, board):
        cards = [board[square].card for square in line]
        if meld_kind(cards) is None:
            names = f"{layout.square_name(line[0])}-{layout.square_name(line[-1])}"
            tiles = " ".join(board[square].code for square in line)
            raise PositionError(f"board {names}: line {tiles} is not a valid meld")
        in_meld.update(line)
    for square in sorted(board):
        if square not in in_meld:
            raise PositionError(
                f"board {layout.square_name(square)}: tile {board[square].code} lies in no meld of three or more")
    for group in board_lines.groups(layout, board):
        if not group & layout.start_squares:
            first = layout.square_name(min(group))
            raise PositionError(f"board {first}: the group of tiles there covers no start square (R or S)")


def _check_copies(position: Position) -> None:
    counts = Counter(tile.rack_tile for tile in position.board.values())
    counts.update(position.rack)
    for tile in sorted(counts):
        if tile == JOKER:
            if counts[tile] > 2 * position.sets:
                raise PositionError(
                    f"tiles: {counts[tile]} jokers, but {position.sets} set(s) hold {2 * position.sets}")
        elif counts[tile] > position.sets:
            raise PositionError(
                f"tiles: {counts[tile]} copies of {card_code(tile)}, but {position.sets} set(s) hold {position.sets}")
    assert all(0 <= tile <= NUM_CARDS for tile in counts)
