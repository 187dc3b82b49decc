"""A position's plays: a given play judged (read from notation if need be, scored
by the core, or refused with the rule it breaks, docs/RULES.md §4-5) and all
its legal plays as a lazy view, in the manner of python-chess's
``Board.legal_moves``: nothing is generated until it is asked for."""

from __future__ import annotations

from typing import Iterator, Union

from ..native.core import RANKED_BUFFER

from .. import native
from ..errors import GinnyoError, IllegalMoveError
from ..vocab.illegal import out_of_range, reason
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
    return judge_play(position, as_play(position, move))


def judge_play(position: PositionFields, play: Play) -> ScoredPlay:
    """``play`` as it is, scored by the core, or :class:`IllegalMoveError` naming the
    first rule it breaks in the core's order of the rules (docs/RULES.md §4)."""
    outside = out_of_range(play)    # a square or card the core's C types cannot hold
    if outside is not None:
        raise IllegalMoveError(outside)
    judged = native.judge_play(position, play)
    if isinstance(judged, ScoredPlay):
        return judged
    raise IllegalMoveError(reason(position, play, *judged))


def is_legal(position: PositionFields, move: object) -> bool:
    """Whether ``move`` is a legal play here; never raises: bad notation, an
    illegal play or something that is no play at all is simply not legal."""
    try:
        score_play(position, move)
    except GinnyoError:
        return False
    return True


class LegalPlays:
    """The legal plays of ``position``.

    Iterating generates them as :class:`ScoredPlay` objects, best first, one
    at a time: the core ranks them in bounded passes, so memory stays bounded
    however many plays there are; :meth:`top` is the best ``n`` as a list;
    ``play in view`` checks one play (a :class:`Play` or notation);
    ``len(view)`` and :meth:`count` count them in C without building objects;
    ``bool(view)`` stops at the first play the core finds; :meth:`best` is the best
    play or None.  The view reads the position each time, so it stays current.
    """

    __slots__ = ("position", "_count")

    def __init__(self, position: PositionFields) -> None:
        self.position = position
        self._count: int | None = None      # the position is a value: its count never changes

    def __iter__(self) -> Iterator[ScoredPlay]:
        # one ranked list from one core call when there are no more plays than
        # a pass of the stream holds, and it gives the count ``list(view)``
        # asks for next; else the stream, in bounded passes
        plays = native.legal_plays_upto(self.position, RANKED_BUFFER)
        if plays is None:
            return native.ranked_plays(self.position)
        self._count = len(plays)
        return iter(plays)

    def top(self, n: int) -> list[ScoredPlay]:
        """The ``n`` best plays, best first (fewer when there are fewer)."""
        return native.top_plays(self.position, n)

    def __contains__(self, move: object) -> bool:
        """True when ``move`` is a legal play here (a :class:`Play`, a
        :class:`ScoredPlay` or notation); bad notation, an illegal play or
        anything else is simply not in the view."""
        return is_legal(self.position, move)

    def count(self) -> int:
        """How many legal plays there are, counted in C."""
        if self._count is None:
            self._count = native.count_plays(self.position)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return native.has_play(self.position)

    def best(self) -> ScoredPlay | None:
        """The best play (ranked as :meth:`ScoredPlay.sort_key`), or None."""
        return native.best_play(self.position)

    def __repr__(self) -> str:
        return f"<LegalPlays: {self.count()} plays>"


__all__ = ["Move", "as_play", "is_legal", "score_play", "judge_play", "LegalPlays"]
