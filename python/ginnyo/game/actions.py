"""What a player does with a turn (docs/RULES.md §6): place tiles, return tiles to the box, or pass.

Each action has a text form, read back by :func:`parse_action`: a play in move
notation (``8G 7H7C7S``), ``return AS 7H``, or ``pass``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..errors import InvalidMoveError, TileError
from ..vocab.notation import parse_notation, play_notation
from ..vocab.fields import PositionFields
from ..vocab.play import Play
from ..vocab.tiles import parse_rack_tile, rack_code

RETURN_WORD = "return"
PASS_WORD = "pass"


@dataclass(frozen=True)
class Place:
    """Put tiles on the board; the game checks the play and scores it."""

    play: Play


@dataclass(frozen=True)
class Return:
    """Give ``tiles`` (rack tiles, jokers as :data:`~ginnyo.vocab.tiles.JOKER`) back to
    the box and draw up to 7: one tile is the sheet's discard, more its exchange."""

    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        # sorted: the box takes the tiles back in the order a record writes them,
        # so a replay mixes them in exactly as the game did
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))


@dataclass(frozen=True)
class Pass:
    """Do nothing: only when the box is empty and there is no legal play."""


PASS = Pass()
Action = Union[Place, Return, Pass]


def action_notation(position: PositionFields, action: Action) -> str:
    """The text of an action taken in ``position`` (the board before it)."""
    if isinstance(action, Place):
        return play_notation(position, action.play)
    if isinstance(action, Return):
        return " ".join([RETURN_WORD, *(rack_code(tile) for tile in sorted(action.tiles))])
    if isinstance(action, Pass):
        return PASS_WORD
    raise TypeError(f"not an action: {action!r}")


def parse_action(position: PositionFields, text: str) -> Action:
    """Read an action written by :func:`action_notation`.  Raises
    :class:`InvalidMoveError` for bad syntax (legality is the game's to check)."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"action {text!r}: not a string")
    words = text.split()
    if words == [PASS_WORD]:
        return PASS
    if words and words[0] == RETURN_WORD:
        if len(words) == 1:
            raise InvalidMoveError(f"action {text!r}: return names at least one tile")
        try:
            return Return(tuple(sorted(parse_rack_tile(word) for word in words[1:])))
        except TileError as error:
            raise InvalidMoveError(f"action {text!r}: {error}") from None
    return Place(parse_notation(position, text))


__all__ = ["Action", "Place", "Return", "Pass", "PASS", "action_notation", "parse_action"]
