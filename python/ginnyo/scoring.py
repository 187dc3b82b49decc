"""A given play judged in a position: read from notation if need be, scored by
the core, or refused with the rule it breaks (docs/RULES.md §4-5)."""

from __future__ import annotations

from typing import Union

from . import native
from .errors import GinnyoError, IllegalMoveError
from .notation import parse_notation
from .play import Play, ScoredPlay, check_placements
from .position_fields import PositionFields

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
    """Validate and score a play; raises :class:`IllegalMoveError` saying which
    rule it breaks (the reason comes from the plain-Python reference, loaded
    only for an illegal play)."""
    play = as_play(position, move)
    scored = native.score(native.core_of(position), position, play)
    if scored is None:
        from . import reference     # only here: the CLI's start-up need not load it
        reference.check_play(position, play)  # names the rule broken
        raise IllegalMoveError("illegal play")  # pragma: no cover - core and reference disagree
    return scored


def is_legal(position: PositionFields, move: object) -> bool:
    """Whether ``move`` is a legal play here; never raises: bad notation, an
    illegal play or something that is no play at all is simply not legal."""
    try:
        score_play(position, move)
    except GinnyoError:
        return False
    return True


__all__ = ["Move", "as_play", "is_legal", "score_play"]
