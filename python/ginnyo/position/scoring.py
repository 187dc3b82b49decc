"""A given play judged in a position: read from notation if need be, scored by
the core, or refused with the rule it breaks (docs/RULES.md §4-5)."""

from __future__ import annotations

from typing import Union

from .. import native
from ..errors import GinnyoError
from ..vocab.notation import parse_notation
from ..vocab.play import Play, ScoredPlay, check_placements
from ..vocab.fields import PositionFields

Move = Union[Play, ScoredPlay, str]
"""A play as the API takes it: a :class:`Play`, a :class:`ScoredPlay` or notation."""


def as_play(position: PositionFields, move: object) -> Play:
    """The :class:`Play` of ``move`` (notation is read, a scored play gives its
    play); raises :class:`InvalidMoveError` or :class:`IllegalMoveError` for what
    is not a play of tiles on squares of this board."""
    if isinstance(move, str):
        return parse_notation(position, move)
    return check_placements(move.play if isinstance(move, ScoredPlay) else move, position.layout.size)


def score_play(position: PositionFields, move: object) -> ScoredPlay:
    """Validate and score a play in one core call; raises
    :class:`IllegalMoveError` naming the first rule it breaks (the core's code,
    worded by :mod:`ginnyo.vocab.illegal`)."""
    return native.score_play(position, as_play(position, move))


def is_legal(position: PositionFields, move: object) -> bool:
    """Whether ``move`` is a legal play here; never raises: bad notation, an
    illegal play or something that is no play at all is simply not legal."""
    try:
        score_play(position, move)
    except GinnyoError:
        return False
    return True


__all__ = ["Move", "as_play", "is_legal", "score_play"]
