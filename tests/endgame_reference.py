"""The yardstick of the endgame solver: a plain-Python exhaustive minimax over the
reference rules (:mod:`ginnyo.position.reference`), written to be read against docs/RULES.md §6.

A player with a legal play must play (any of them); one without passes; a pass
answered by a pass ends the game, and each player then loses what is left on
their rack.  The value of a state is the mover's points from there on minus the
opponent's.  Only for tiny racks: it tries every play at every turn.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence

from ginnyo.position import reference
from ginnyo.vocab.play import ScoredPlay
from ginnyo.position.position import Position
from ginnyo.vocab.tiles import PlacedTile, rack_penalty

State = tuple[frozenset[tuple[int, PlacedTile]], tuple[int, ...], tuple[int, ...], bool]
PlayLister = Callable[[Position], list[ScoredPlay]]


def rack_cost(rack: Sequence[int]) -> int:
    """What a rack left at the end costs its owner (positive)."""
    return sum(rack_penalty(tile) for tile in rack)


def exact_spread(position: Position, opponent: Sequence[int], after_pass: bool = False,
                 plays: PlayLister = reference.legal_plays) -> int:
    """The spread with best play on both sides for the player to move in
    ``position`` against an opponent holding ``opponent``; ``after_pass``: the
    opponent's last turn was a pass.  ``plays`` lists a position's legal plays
    (the reference rules; the core's for cases too big for them)."""
    memo: dict[State, int] = {}
    return _value(position, dict(position.board), tuple(sorted(position.rack)), tuple(sorted(opponent)),
                  after_pass, memo, plays)


def _value(position: Position, board: dict[int, PlacedTile], mover: tuple[int, ...], other: tuple[int, ...],
           passed: bool, memo: dict[State, int], plays: PlayLister) -> int:
    key = (frozenset(board.items()), mover, other, passed)
    if key in memo:
        return memo[key]
    now = Position(position.layout, position.sets, board, mover, validate=False)
    legal = plays(now)
    if not legal:
        if passed:
            value = rack_cost(other) - rack_cost(mover)       # the game is over
        else:
            value = -_value(position, board, other, mover, True, memo, plays)
    else:
        value = -10 ** 9
        for scored in legal:
            after = dict(board)
            after.update(scored.play.placements)
            left = tuple(sorted((Counter(mover) - Counter(scored.play.tiles_used)).elements()))
            value = max(value, scored.score - _value(position, after, other, left, False, memo, plays))
    memo[key] = value
    return value
