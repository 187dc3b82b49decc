"""Plays and scored plays: small immutable value objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from .rules import play_rank_key
from .tiles import JOKER, PlacedTile


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class MeldScore:
    """One meld touched by a play: its kind, all its squares in reading order, its score."""

    kind: str
    squares: tuple[int, ...]
    score: int


@dataclass(frozen=True)
class ScoredPlay:
    """A legal play with its total score and the per-meld breakdown."""

    play: Play
    score: int
    melds: tuple[MeldScore, ...]

    def sort_key(self) -> tuple[int, int, int, tuple[tuple[int, bool, int], ...]]:
        """Best first, by :func:`ginnyo.rules.play_rank_key`: higher score, then
        fewer jokers spent, then more tiles unloaded, then the placements
        (square, joker?, card) in order, so the order is total and reproducible."""
        return play_rank_key(self.score, ((square, tile[0], tile[1]) for square, tile in self.play.placements))


__all__ = ["Play", "MeldScore", "ScoredPlay", "JOKER"]
