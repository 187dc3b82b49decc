"""Board layouts: square kinds, premium multipliers and square names (docs/RULES.md §3)."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from ..errors import PositionError
from ..support.quoting import quote

STANDARD_ROWS = (
    "B..Y...B...Y..B",
    ".G...G...G...G.",
    "..Y...Y.Y...Y..",
    "Y..R...Y...R..Y",
    "...............",
    ".G...G...G...G.",
    "..Y...Y.Y...Y..",
    "B..Y...S...Y..B",
    "..Y...Y.Y...Y..",
    ".G...G...G...G.",
    "...............",
    "Y..R...Y...R..Y",
    "..Y...Y.Y...Y..",
    ".G...G...G...G.",
    "B..Y...B...Y..B",
)



@dataclass(frozen=True)
class Premium:
    """What a square kind does (docs/RULES.md §3)."""

    tile: int  # multiplies the value of a tile placed on it
    meld: int  # multiplies the score of each meld made through a tile placed on it
    red: bool  # a new area may start on it once the board is not empty
    centre: bool  # the first play covers it


PREMIUMS = {
    ".": Premium(tile=1, meld=1, red=False, centre=False),
    "Y": Premium(tile=2, meld=1, red=False, centre=False),
    "G": Premium(tile=3, meld=1, red=False, centre=False),
    "R": Premium(tile=1, meld=2, red=True, centre=False),
    "B": Premium(tile=1, meld=3, red=False, centre=False),
    "S": Premium(tile=1, meld=1, red=False, centre=True),
}
SQUARE_KINDS = "".join(PREMIUMS)
TILE_MULTIPLIER = {kind: premium.tile for kind, premium in PREMIUMS.items()}
MELD_MULTIPLIER = {kind: premium.meld for kind, premium in PREMIUMS.items()}
MAX_SIDE = 26  # columns are named by one letter A..Z


@lru_cache(maxsize=64)
def core_premiums(kinds: str | bytes) -> tuple[bytes, bytes, bytes, int]:
    """What the compiled core takes after width and height for square kinds in
    square order: tile multipliers, meld multipliers and red flags, one byte a
    square, and the centre square (-1 with none).  Kept for the last 64 layouts:
    a simulation builds a core for every batch of rollouts."""
    premiums = [PREMIUMS[kind] for kind in (kinds.decode("ascii") if isinstance(kinds, bytes) else kinds)]
    centres = [square for square, premium in enumerate(premiums) if premium.centre]
    return (bytes(premium.tile for premium in premiums), bytes(premium.meld for premium in premiums),
            bytes(premium.red for premium in premiums), centres[0] if centres else -1)


@dataclass(frozen=True)
class Layout:
    """A rectangular grid of square kinds; squares are ints ``row * width + col``."""

    rows: tuple[str, ...]

    @classmethod
    def standard(cls) -> "Layout":
        return _STANDARD

    @classmethod
    def from_rows(cls, rows: object) -> "Layout":
        """Validate a list of equal-length strings of ``. Y G R B S``."""
        if not isinstance(rows, (list, tuple)) or not rows:
            raise PositionError("layout: must be \"standard\" or a non-empty list of strings")
        for number, row in enumerate(rows[:MAX_SIDE + 1], 1):
            if not isinstance(row, str):
                raise PositionError(f"layout: row {number} is not a string")
        width = len(rows[0])
        if width > MAX_SIDE or len(rows) > MAX_SIDE:   # before reading every square of a huge layout
            raise PositionError(f"layout: {width} x {len(rows)} is larger than {MAX_SIDE} x {MAX_SIDE}")
        for number, row in enumerate(rows, 1):
            if len(row) != width:
                raise PositionError(
                    f"layout: not rectangular (row 1 has {width} squares, row {number} has {len(row)})")
            for col, kind in enumerate(row):
                if kind not in SQUARE_KINDS:
                    raise PositionError(
                        f"layout: unknown square kind {quote(kind)} at {column_letter(col)}{number}"
                        f" (use . Y G R B S)")
        if width == 0:
            raise PositionError("layout: rows are empty")
        centres = sum(row.count("S") for row in rows)
        if centres != 1:
            raise PositionError(f"layout: needs exactly one centre square S, has {centres}")
        return cls(tuple(rows))

    @cached_property
    def width(self) -> int:
        return len(self.rows[0])

    @cached_property
    def height(self) -> int:
        return len(self.rows)

    @cached_property
    def size(self) -> int:
        return self.width * self.height

    @cached_property
    def kinds(self) -> str:
        """Square kinds in square order."""
        return "".join(self.rows)

    @cached_property
    def centre(self) -> int:
        return next(i for i, kind in enumerate(self.kinds) if PREMIUMS[kind].centre)

    @cached_property
    def start_squares(self) -> frozenset[int]:
        """Squares where a group may begin: the centre and every red square."""
        return frozenset(i for i, kind in enumerate(self.kinds) if PREMIUMS[kind].red or PREMIUMS[kind].centre)

    @cached_property
    def red_squares(self) -> frozenset[int]:
        """Squares where a new area may start once the board is not empty."""
        return frozenset(i for i, kind in enumerate(self.kinds) if PREMIUMS[kind].red)

    @cached_property
    def core_premiums(self) -> tuple[bytes, bytes, bytes, int]:
        """The premiums of every square as the compiled core takes them (see :func:`core_premiums`)."""
        return core_premiums(self.kinds)

    def checked_square(self, square: object) -> int:
        """``square`` when it is a square of this board, else :class:`PositionError`
        naming it: -1 would otherwise be read as the last square, as Python indexes."""
        try:
            index = operator.index(square)   # type: ignore[arg-type]   # anything else is refused below
        except TypeError:
            index = -1
        if not 0 <= index < self.size:
            raise PositionError(f"square {quote(square)} is off the board (0 to {self.size - 1})")
        return index

    def tile_multiplier(self, square: int) -> int:
        """What ``square`` multiplies a tile's value by; :class:`PositionError` off the board."""
        return TILE_MULTIPLIER[self.kinds[self.checked_square(square)]]

    def meld_multiplier(self, square: int) -> int:
        """What ``square`` multiplies a meld's score by; :class:`PositionError` off the board."""
        return MELD_MULTIPLIER[self.kinds[self.checked_square(square)]]

    def square_name(self, square: int) -> str:
        """``'H8'`` for square 112 of the standard layout; :class:`PositionError` off the board."""
        row, col = divmod(self.checked_square(square), self.width)   # divmod alone would name -1 'O0'
        return f"{column_letter(col)}{row + 1}"

    def parse_square(self, name: object) -> int:
        """``'H8'`` -> square; raises :class:`PositionError` off the board or malformed."""
        if not isinstance(name, str) or len(name) < 2 or not name[0].isalpha() \
                or not name[1:].isdigit() or not name.isascii():  # '²' and '٨' are digits too
            raise PositionError(f"square {quote(name)}: not a square name like H8")
        col = ord(name[0].upper()) - ord("A")
        row = int(name[1:]) - 1 if len(name) <= 4 else self.height  # int() refuses 4 300+ digits
        if not (0 <= col < self.width and 0 <= row < self.height) or name[1] == "0":
            raise PositionError(
                f"square {quote(name)}: off the board (columns A-{column_letter(self.width - 1)},"
                f" rows 1-{self.height})")
        return row * self.width + col

    def parse_square_or_none(self, name: str) -> int | None:
        try:
            return self.parse_square(name)
        except PositionError:
            return None

    def neighbours(self, square: int) -> list[int]:
        """Orthogonally adjacent squares on the board; :class:`PositionError` off the board."""
        row, col = divmod(self.checked_square(square), self.width)
        result = []
        if row > 0:
            result.append(square - self.width)
        if row < self.height - 1:
            result.append(square + self.width)
        if col > 0:
            result.append(square - 1)
        if col < self.width - 1:
            result.append(square + 1)
        return result

    def to_json(self) -> object:
        return "standard" if self == _STANDARD else list(self.rows)


def column_letter(col: int) -> str:
    """``'A'`` for column 0 .. ``'Z'`` for 25; :class:`PositionError` for a column of no board."""
    if not 0 <= col < MAX_SIDE:   # chr would give '@' for -1
        raise PositionError(f"column {quote(col)} is off every board (0 to {MAX_SIDE - 1})")
    return chr(ord("A") + col)


_STANDARD = Layout(STANDARD_ROWS)
