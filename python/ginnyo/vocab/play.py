"""Plays and scored plays: small immutable value objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from ..errors import IllegalMoveError, InvalidMoveError
from ..support.quoting import quote
from .tiles import JOKER, NUM_CARDS, PlacedTile


def play_rank_key(score: int, placements: Iterable[tuple[int, int, bool]]) -> tuple[int, int, int, tuple[
        tuple[int, bool, int], ...]]:
    """The ranking of plays (docs/RULES.md §5, "Ranking of plays"), smallest first:
    higher score, then fewer jokers, then more tiles, then the placements compared
    as (square, real tile before joker, card) in square order.  ``placements`` are
    ``(square, card, is_joker)`` in square order, as the core gives them; the core's
    ``_rank_order`` ranks its plays the same way."""
    ordered = tuple([(square, joker, card) for square, card, joker in placements])
    return (-score, sum([joker for _, joker, _ in ordered]), -len(ordered), ordered)


@dataclass(frozen=True, slots=True)
class Play:
    """Tiles put on empty squares in one turn: ``placements`` is a tuple of
    ``(square, PlacedTile)`` sorted by square.  Two plays are equal when they put
    the same tiles (jokers with the same identities) on the same squares."""

    placements: tuple[tuple[int, PlacedTile], ...]

    @classmethod
    def of(cls, placements: Mapping[int, PlacedTile] | Iterable[tuple[int, PlacedTile]]) -> "Play":
        items = placements.items() if isinstance(placements, Mapping) else placements
        return cls(tuple(sorted((square, PlacedTile(*tile)) for square, tile in items)))

    @property
    def squares(self) -> tuple[int, ...]:
        return tuple(square for square, _ in self.placements)

    @property
    def tiles_used(self) -> list[int]:
        """The rack tiles the play takes (jokers as :data:`JOKER`)."""
        return [tile.rack_tile for _, tile in self.placements]

    @property
    def jokers_used(self) -> int:
        return sum(1 for _, tile in self.placements if tile.joker)

    def __len__(self) -> int:
        return len(self.placements)


@dataclass(frozen=True, slots=True)
class MeldScore:
    """One meld touched by a play: its kind, all its squares in reading order, its score."""

    kind: str
    squares: tuple[int, ...]
    score: int


@dataclass(frozen=True, repr=False)
class ScoredPlay:
    """A legal play with its total score and the per-meld breakdown.  One that a
    :class:`~ginnyo.position.Position` method hands back (``best_play``,
    ``top_plays``, ``score``) knows where it was found, and its ``str`` is its move
    notation (``D2 KCKDKS``) and its ``repr`` ``ScoredPlay('D2 KCKDKS', score=60)``;
    one from elsewhere (a core, a batch) shows its squares by number."""

    # "found_in" is no field: it takes no part in equality, hashing or fields(); the
    # core builds these objects without it (docs/API.md, "The core's objects")
    __slots__ = ("play", "score", "melds", "found_in")

    play: Play
    score: int
    melds: tuple[MeldScore, ...]

    def __getstate__(self) -> tuple[Play, int, tuple[MeldScore, ...]]:   # pickled without found_in
        return self.play, self.score, self.melds

    def __setstate__(self, state: tuple[Play, int, tuple[MeldScore, ...]]) -> None:
        for name, value in zip(("play", "score", "melds"), state):
            object.__setattr__(self, name, value)

    def at(self, position: object) -> "ScoredPlay":
        """This play, told the position it was found in (for its ``str`` and ``repr``)."""
        object.__setattr__(self, "found_in", position)
        return self

    def _notation(self) -> str | None:
        position = getattr(self, "found_in", None)
        if position is None:
            return None
        try:
            return str(position.notation(self.play))
        except Exception:   # never a failing repr
            return None

    def __str__(self) -> str:
        notation = self._notation()
        return repr(self) if notation is None else notation

    def __repr__(self) -> str:
        notation = self._notation()
        if notation is not None:
            return f"ScoredPlay({notation!r}, score={self.score})"
        return f"ScoredPlay(play={self.play!r}, score={self.score!r}, melds={self.melds!r})"

    def sort_key(self) -> tuple[int, int, int, tuple[tuple[int, bool, int], ...]]:
        """Best first, by :func:`play_rank_key`: higher score, then
        fewer jokers spent, then more tiles unloaded, then the placements
        (square, joker?, card) in order, so the order is total and reproducible."""
        return play_rank_key(self.score, ((square, tile[0], tile[1]) for square, tile in self.play.placements))


def check_placements(play: object, size: int) -> Play:
    """``play`` itself when it is a :class:`Play` of one or more tiles, each a
    :class:`PlacedTile` of a card on one of the ``size`` squares of a board, no
    square twice; else :class:`InvalidMoveError` (not a play of tiles) or
    :class:`IllegalMoveError` (a square off the board or used twice), naming it.
    What the rules say of the play is not checked here."""
    if not isinstance(play, Play) or not isinstance(play.placements, tuple):
        raise InvalidMoveError(f"move {quote(play)}: not a Play (nor notation)")
    if not play.placements:
        raise IllegalMoveError("a play places at least one tile")
    squares = set()
    for placement in play.placements:
        if not isinstance(placement, tuple) or len(placement) != 2:
            raise InvalidMoveError(f"placement {quote(placement)}: not a (square, PlacedTile) pair")
        square, tile = placement
        if type(square) is not int:
            raise InvalidMoveError(f"placement {quote(placement)}: the square is not an int")
        if not 0 <= square < size:
            raise IllegalMoveError(f"square {quote(square)} is off the board")
        if square in squares:
            raise IllegalMoveError("a square is used twice")
        squares.add(square)
        if not isinstance(tile, PlacedTile) or type(tile.card) is not int or not 0 <= tile.card < NUM_CARDS:
            raise InvalidMoveError(f"placement {quote(placement)}: not a PlacedTile of a card 0..{NUM_CARDS - 1}")
    return play


__all__ = ["Play", "MeldScore", "ScoredPlay", "JOKER", "check_placements", "play_rank_key"]
