"""A position's legal plays as a lazy view, in the manner of python-chess's
``Board.legal_moves``: nothing is generated until it is asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .errors import GinnyoError
from .play import Play, ScoredPlay

if TYPE_CHECKING:
    from .position import Position


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

    __slots__ = ("position",)

    def __init__(self, position: Position) -> None:
        self.position = position

    def __iter__(self) -> Iterator[ScoredPlay]:
        from .native import ranked_plays
        return ranked_plays(self.position)

    def top(self, n: int) -> list[ScoredPlay]:
        """The ``n`` best plays, best first (fewer when there are fewer)."""
        from .solver import top_plays
        return top_plays(self.position, n)

    def __contains__(self, move: object) -> bool:
        """True when ``move`` is a legal play here; bad notation or an
        illegal play is simply not in the view."""
        from .solver import score_play
        if not isinstance(move, (Play, str)):
            return False
        try:
            score_play(self.position, move)
        except GinnyoError:
            return False
        return True

    def count(self) -> int:
        """How many legal plays there are, counted in C."""
        from .native import core_of
        return int(core_of(self.position).count_plays())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        from .native import core_of
        return bool(core_of(self.position).has_play())

    def best(self) -> ScoredPlay | None:
        """The best play (ranked as :func:`ginnyo.solver.ranked`), or None."""
        from .solver import best_play
        return best_play(self.position)

    def __repr__(self) -> str:
        return f"<LegalPlays: {self.count()} plays>"


__all__ = ["LegalPlays"]
