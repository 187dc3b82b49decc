"""Ranked plays grouped for a listing: the plays that put the same tiles on the
same squares for the same score, in another order (distinct plays by
docs/RULES.md §4.6, one line a group in ``moves --group``)."""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Iterator

from ..vocab.play import Play

GroupKey = tuple[tuple[int, ...], tuple[tuple[int, bool], ...]]


def group_key(play: Play) -> GroupKey:
    """What the orderings of one group share: the squares, and the tiles as a multiset."""
    return play.squares, tuple(sorted((tile.card, tile.joker) for _, tile in play.placements))


def grouped(moves: Iterable[tuple[int, Play]], limit: int | None = None) -> Iterator[tuple[int, Play, int]]:
    """``(score, first play, how many orderings)`` of ranked ``(score, play)``
    pairs, each group where its best-ranked ordering stood, at most ``limit``
    groups.  A group's orderings share its score, so a group is whole once the
    scores fall below it: the plays of one score are held at a time."""
    shown = 0
    for score, band in _bands(moves):
        for first, count in band:
            if limit is not None and shown >= limit:
                return
            yield score, first, count
            shown += 1


def _bands(moves: Iterable[tuple[int, Play]]) -> Iterator[tuple[int, list[tuple[Play, int]]]]:
    """The plays of each score in turn, grouped: (first ordering, count), in first-seen order."""
    score: int | None = None
    firsts: dict[GroupKey, Play] = {}
    counts: Counter[GroupKey] = Counter()
    for total, play in moves:
        if total != score:
            if score is not None:
                yield score, [(first, counts[key]) for key, first in firsts.items()]
            score, firsts, counts = total, {}, Counter()
        key = group_key(play)
        firsts.setdefault(key, play)
        counts[key] += 1
    if score is not None:
        yield score, [(first, counts[key]) for key, first in firsts.items()]


__all__ = ["group_key", "grouped"]
