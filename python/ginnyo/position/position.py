"""A Ginny-O position, the centre of the API in the manner of python-chess's
``Board``: loaded from any source and validated per docs/FORMAT.md, written as
JSON or one line, and asked for its legal plays, best play, notation and scores.

Every malformed input raises :class:`PositionError` with one line naming the
field, square or tile; a play that breaks the rules raises
:class:`IllegalMoveError` naming the rule.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, overload

from ..native.parse import PositionReader

from .. import native
from ..vocab import board as board_lines
from ..vocab import notation, rules
from ..support import strict_json
from ..errors import PositionError, TileError
from ..support.files import BYTE_ORDER_MARK, POSITION_BYTES, check_length, quote, read_bounded
from ..vocab.layout import Layout
from .context import GameContext, checked_game_fields, parse_tile_codes, position_context
from . import legal
from .legal import LegalPlays
from ..vocab.melds import meld_kind
from ..vocab.play import Play, ScoredPlay
from .line import line_data, looks_like_json, to_line
from .render import board_svg
from ..vocab.rules import JOKERS_PER_SET
from ..vocab.tiles import JOKER, NUM_CARDS, PlacedTile, card_code, parse_card, rack_code, rack_penalty

MAX_RACK = 14
CONTEXT_FIELDS = ("players", "scores", "to_move", "unseen")
KNOWN_FIELDS = ("layout", "sets", "board", "rack") + CONTEXT_FIELDS
NO_TILES: tuple[int, ...] = ()


class Position:
    """A validated position, a value: ``layout``, ``sets`` (1 or 2), ``board``
    (a read-only mapping of squares, ints, to :class:`PlacedTile`), ``rack`` (a
    sorted tuple of rack tiles: cards and :data:`JOKER`) and ``context``, the
    game fields of docs/FORMAT.md (players, scores...), which equality ignores.

    ``Position('<line>')`` reads a position string (docs/POSITION-STRING.md),
    which is also what ``repr`` writes; ``Position(layout, sets, board, rack)``
    builds one from its parts.  Operations return new positions
    (:meth:`apply`); a position never changes.
    """

    __slots__ = ("layout", "sets", "board", "rack", "context", "_game_context")
    layout: Layout
    sets: int
    board: Mapping[int, PlacedTile]
    rack: tuple[int, ...]
    context: dict[str, Any]
    _game_context: GameContext

    @overload
    def __init__(self, line: str, /) -> None: ...

    @overload
    def __init__(self, layout: Layout, sets: int = 1, board: Mapping[int, PlacedTile] | None = None,
                 rack: Iterable[int] = (), context: Mapping[str, Any] | None = None,
                 *, validate: bool = True) -> None: ...

    def __init__(self, layout: Layout | str, sets: int = 1, board: Mapping[int, PlacedTile] | None = None,
                 rack: Iterable[int] = NO_TILES, context: Mapping[str, Any] | None = None,
                 *, validate: bool = True) -> None:
        if isinstance(layout, str):
            alone = board is None and rack is NO_TILES and context is None and type(sets) is int and sets == 1
            if not alone:
                raise PositionError("Position(line): a position string comes alone, without other arguments")
            read = self.from_line(layout)
            layout, sets, board, rack, context = read.layout, read.sets, read.board, read.rack, read.context
        if validate:
            rack = _checked_parts(layout, sets, board, rack)
        setter = object.__setattr__
        setter(self, "layout", layout)
        setter(self, "sets", sets)
        setter(self, "board", MappingProxyType(dict(board or {})))
        setter(self, "rack", tuple(sorted(rack)))
        if context is not None and not isinstance(context, Mapping):
            raise PositionError(f"Position: context must map game fields to values, not {quote(context)}")
        setter(self, "context", dict(context or {}))
        if validate:
            _validate(self)

    IMMUTABLE = True    # a value: the core bridge may reuse its last load of this object

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Position does not change: {name} cannot be set (apply() gives a new one)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Position does not change: {name} cannot be deleted")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_trusted, (self.layout, self.sets, dict(self.board), self.rack, self.context))

    # -- loading -----------------------------------------------------------
    @classmethod
    def load(cls, source: Position | dict[str, Any] | str | Path) -> Position:
        """A position from a :class:`Position`, a dict, a file path or ``'-'``
        (stdin), JSON text or a one-line position string.

        A str is JSON text when it starts with ``{``, ``[`` or ``"``; else a file
        when it is ``'-'`` or names an existing file; else a position string when it
        holds a blank (a line always does, between board and rack); else a file path.
        A file holds JSON or a position string (docs/POSITION-STRING.md)."""
        if isinstance(source, Position):
            return source
        if isinstance(source, dict):
            return cls.from_dict(source)
        if isinstance(source, Path):
            return cls.from_file(source)
        if isinstance(source, str):
            if looks_like_json(source) and source.strip():
                return cls.from_json(source)
            if source != "-" and any(ch.isspace() for ch in source.strip()) and not _is_file(source):
                return cls.from_line(source)
            return cls.from_file(source)
        raise PositionError(f"position: cannot load from {type(source).__name__}")

    @classmethod
    def from_dict(cls, data: object) -> Position:
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
    def from_json(cls, text: str | bytes) -> Position:
        """Build from JSON text of at most :data:`files.POSITION_BYTES`: read in C
        (``ginnycore.parse``) when it is plain and legal, else by :meth:`checked_json`."""
        return _read(cls, READER.read_json, cls.checked_json, text)

    @classmethod
    def checked_json(cls, text: str | bytes) -> Position:
        """:meth:`from_json` read field by field in Python: the position, or the
        error line naming the field, square or tile."""
        if not isinstance(text, (str, bytes)):
            raise PositionError(f"position: JSON must be text, not {type(text).__name__}")
        check_length(text, POSITION_BYTES, what="position", error=PositionError)
        if isinstance(text, str) and text.startswith(BYTE_ORDER_MARK):    # as json.loads skips it in bytes
            text = text[len(BYTE_ORDER_MARK):]
        return cls.from_dict(strict_json.loads(text, PositionError))

    @classmethod
    def from_line(cls, line: str) -> Position:
        """Read a position string (docs/POSITION-STRING.md), as :meth:`to_line` writes
        it: in C when it is plain and legal, else by :meth:`checked_line`."""
        return _read(cls, READER.read_line, cls.checked_line, line)

    @classmethod
    def checked_line(cls, line: str) -> Position:
        """:meth:`from_line` read in Python: the position, or the error line (a
        byte-order mark before it skipped, as before a file's)."""
        if isinstance(line, str) and line.startswith(BYTE_ORDER_MARK):
            line = line[len(BYTE_ORDER_MARK):]
        return cls.from_dict(line_data(line))

    @classmethod
    def from_text(cls, text: str | bytes) -> Position:
        """A position file's content: JSON (see :func:`position_line.looks_like_json`)
        or a position string, of at most :data:`files.POSITION_BYTES`."""
        if not isinstance(text, (str, bytes)):
            raise PositionError(f"position: must be text, not {type(text).__name__}")
        check_length(text, POSITION_BYTES, what="position", error=PositionError)
        if looks_like_json(text):
            return cls.from_json(text)
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return cls.from_line(text.lstrip(BYTE_ORDER_MARK))

    @classmethod
    def from_file(cls, path: str | Path) -> Position:
        """Read a position file, JSON or a one-line position string
        (``'-'`` reads standard input), of at most :data:`files.POSITION_BYTES`."""
        if not isinstance(path, (str, Path)):
            raise PositionError(f"position: a file is named by a str or a Path, not {type(path).__name__}")
        return cls.from_text(read_bounded(path, POSITION_BYTES, what="position", error=PositionError))

    # -- writing -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object of docs/FORMAT.md, game context included."""
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

    def to_line(self) -> str:
        """The position as one line (docs/POSITION-STRING.md): board, rack, and the
        options that are not at their defaults; the game context is left out."""
        return to_line(self)

    # -- plays -------------------------------------------------------------
    def parse(self, text: str) -> Play:
        """The play written ``text`` in move notation (docs/FORMAT.md); raises
        :class:`InvalidMoveError` for bad syntax, :class:`IllegalMoveError` when it
        does not fit the board.  Whether the rules allow it is :meth:`is_legal`."""
        return notation.parse_notation(self, text)

    def notation(self, move: Play | ScoredPlay) -> str:
        """The play in move notation, as :meth:`parse` reads it back; raises
        :class:`IllegalMoveError` for a play whose tiles are not on empty squares
        of one unbroken row or column."""
        return notation.play_notation(self, move.play if isinstance(move, ScoredPlay) else move)

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` (a :class:`Play`, a :class:`ScoredPlay` or notation) is
        a legal play here.  Never raises: bad notation is not legal."""
        return legal.is_legal(self, move)

    def score(self, move: legal.Move) -> ScoredPlay:
        """The play scored, melds and all; raises :class:`IllegalMoveError` naming
        the rule an illegal play breaks (:class:`InvalidMoveError` for bad notation)."""
        return legal.score_play(self, move).at(self)

    def apply(self, move: legal.Move) -> Position:
        """The position after a legal play: its tiles moved from the rack to the
        board (nothing is drawn: the box is not part of a static position)."""
        play = self.score(move).play
        board = dict(self.board)
        board.update(play.placements)
        rack = list(self.rack)
        for tile in play.tiles_used:
            rack.remove(tile)
        return Position(self.layout, self.sets, board, rack, self.context, validate=False)

    @property
    def game_context(self) -> GameContext:
        """The game around this position, its game fields checked and filled
        (:class:`ginnyo.position.context.GameContext`), made once and kept.
        Raises :class:`PositionError` naming a bad field."""
        try:
            return self._game_context
        except AttributeError:   # not asked yet (the C reader builds positions without __init__)
            made = position_context(self)
            object.__setattr__(self, "_game_context", made)
            return made

    @property
    def legal_plays(self) -> LegalPlays:
        """The legal plays as a lazy view (:class:`ginnyo.position.legal.LegalPlays`):
        iterating gives them best first, ``in`` tests one, ``len`` counts them."""
        return LegalPlays(self)

    def best_play(self) -> ScoredPlay | None:
        """The best legal play (highest score, ties as :meth:`ScoredPlay.sort_key`), or None."""
        best = native.best_play(self)
        return None if best is None else best.at(self)

    def top_plays(self, n: int) -> list[ScoredPlay]:
        """The ``n`` best legal plays, best first (fewer when there are fewer), kept
        during generation in a heap of ``n`` in C; ``n`` < 1 raises ValueError."""
        return [play.at(self) for play in native.top_plays(self, n)]

    def tile_to_return(self) -> int | None:
        """With no legal play, the rack tile to return to the box (docs/RULES.md §6,
        "No legal play in best-move"): the real tile that costs most if left on the
        rack at the end, an ace before a king, among equals the lowest card; None
        when the rack holds only jokers or nothing (they are kept: pass)."""
        choice = rules.tile_to_return(self.rack)     # the built-in players' choice (a joker when alone)
        return None if choice is None or choice == JOKER else choice

    def return_advice(self) -> tuple[list[int], str]:
        """With no legal play, what ``best-move`` and the engine say: the tiles to
        return (:meth:`tile_to_return`, a list of at most one; none: pass) and why."""
        tile = self.tile_to_return()
        if tile is None:
            if not self.rack:
                return [], "the rack is empty: pass"
            return [], "only jokers on the rack, which cost nothing and fit any meld: pass"
        reason = (f"{rack_code(tile)} costs the most if left on the rack at the end "
                  f"(-{rack_penalty(tile)}); jokers are kept")
        return [tile], reason

    def rack_counts(self) -> Counter[int]:
        return Counter(self.rack)

    # -- a value -----------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self.layout == other.layout and self.sets == other.sets
                and self.board == other.board and self.rack == other.rack)

    def __hash__(self) -> int:
        return hash((self.layout, self.sets, frozenset(self.board.items()), self.rack))

    def __repr__(self) -> str:
        return f"Position({self.to_line()!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks."""
        return board_svg(self)


def _read(cls: type[Position], fast: Callable[[Any], Position | None], checked: Callable[[Any], Position],
          text: object) -> Position:
    """``fast(text)`` (the C reader) for a plain Position it takes, else ``checked(text)``."""
    read = fast(text) if cls is Position else None
    if read is None:
        return checked(text)
    if read.context:     # the C reader keeps the game fields as given: check them as __init__ does
        checked_game_fields(read)
    return read


def _checked_layout(rows: list[str]) -> Layout:
    """A layout of rows, as a position's ``layout`` field gives it (the reader's ``layout_of``)."""
    return _parse_layout(rows)


#: reads a plain, legal position in C, building it as the checked path would
READER = PositionReader(Position, PlacedTile, Layout.standard(), _checked_layout, json.loads, KNOWN_FIELDS,
                        POSITION_BYTES, MAX_RACK)


def _trusted(layout: Layout, sets: int, board: Mapping[int, PlacedTile], rack: Iterable[int],
             context: Mapping[str, Any]) -> Position:
    """A position rebuilt from parts that were valid (unpickling)."""
    return Position(layout, sets, board, rack, context, validate=False)


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):   # a name too long, or holding a NUL
        return False


def _checked_parts(layout: object, sets: object, board: object, rack: object) -> tuple[int, ...]:
    """The rack as a tuple, once the constructor's arguments are found to have
    the types a position is made of."""
    if not isinstance(layout, Layout):
        raise PositionError(f"Position: layout must be a Layout or a position string, not {quote(layout)}")
    if type(sets) is not int or sets not in (1, 2):
        raise PositionError(f"Position: sets must be 1 or 2, not {quote(sets)}")
    if board is not None and not isinstance(board, Mapping):
        raise PositionError(f"Position: board must map squares to PlacedTile, not {quote(board)}")
    for square, tile in (board or {}).items():
        if type(square) is not int or not 0 <= square < layout.size:
            raise PositionError(f"Position: board square {quote(square)} is not a square of the layout")
        if not isinstance(tile, PlacedTile) or type(tile.card) is not int or not 0 <= tile.card < NUM_CARDS:
            raise PositionError(f"Position: board square {square} holds {quote(tile)}, not a PlacedTile of a card")
    if isinstance(rack, (str, bytes)) or not isinstance(rack, Iterable):
        raise PositionError(f"Position: rack must be rack tiles (ints 0..{JOKER}), not {quote(rack)}")
    tiles = tuple(rack)
    for tile in tiles:
        if type(tile) is not int or not 0 <= tile <= JOKER:
            raise PositionError(f"Position: rack tile {quote(tile)} is not a rack tile (an int 0..{JOKER})")
    return tiles


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
    if position.context:
        checked_game_fields(position)


def _check_copies(position: Position) -> None:
    counts = Counter(tile.rack_tile for tile in position.board.values())
    counts.update(position.rack)
    for tile in sorted(counts):
        if tile == JOKER:
            if counts[tile] > JOKERS_PER_SET * position.sets:
                raise PositionError(
                    f"tiles: {counts[tile]} jokers, but {position.sets} set(s) hold {JOKERS_PER_SET * position.sets}")
        elif counts[tile] > position.sets:
            raise PositionError(
                f"tiles: {counts[tile]} copies of {card_code(tile)}, but {position.sets} set(s) hold {position.sets}")
    assert all(0 <= tile <= NUM_CARDS for tile in counts)
