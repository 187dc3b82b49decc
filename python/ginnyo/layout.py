"""Board layouts: square kinds, premium multipliers and square names (docs/RULES.md §3)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .errors import PositionError
from .files import quote

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

SQUARE_KINDS = ".YGRBS"
TILE_MULTIPLIER = {".": 1, "Y": 2, "G": 3, "R": 1, "B": 1, "S": 1}
MELD_MULTIPLIER = {".": 1, "Y": 1, "G": 1, "R": 2, "B": 3, "S": 1}
MAX_SIDE = 26  # columns are named by one letter A..Z


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

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> int:
        return self.width * self.height

    @cached_property
    def kinds(self) -> str:
        """Square kinds in square order."""
        return "".join(self.rows)

    @cached_property
    def centre(self) -> int:
        return self.kinds.index("S")

    @cached_property
    def start_squares(self) -> frozenset[int]:
        """Squares where a group may begin: the centre and every red square."""
        return frozenset(i for i, kind in enumerate(self.kinds) if kind in "RS")

    @cached_property
    def red_squares(self) -> frozenset[int]:
        """Squares where a new area may start once the board is not empty."""
        return frozenset(i for i, kind in enumerate(self.kinds) if kind == "R")

    def tile_multiplier(self, square: int) -> int:
        return TILE_MULTIPLIER[self.kinds[square]]

    def meld_multiplier(self, square: int) -> int:
        return MELD_MULTIPLIER[self.kinds[square]]

    def square_name(self, square: int) -> str:
        row, col = divmod(square, self.width)
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
        """Orthogonally adjacent squares on the board."""
        row, col = divmod(square, self.width)
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
    return chr(ord("A") + col)


_STANDARD = Layout(STANDARD_ROWS)
