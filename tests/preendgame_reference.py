"""The yardstick of the pre-endgame ranking: a plain-Python brute force over every
ordering of the unseen tiles, written to be read against docs/RULES.md §6 and
docs/ENDGAME.md ("Pre-endgame").

Each ordering of the unseen tiles, the copies told apart, is equally likely:
its first tiles are the opponent's rack, the rest the box, drawn from the
front.  A returned tile goes into the box at each of its places in turn, all
equally likely.  Our action is played on every ordering; then each turn starts
with a draw while the box has tiles; a player deciding with tiles still in the
box makes the best-scoring play or returns the costliest real tile (a joker
from a rack of only jokers); a player deciding with the box empty plays the
exact endgame (:mod:`endgame_reference`).  A play draws up to the rack size, a
return draws back up to it; turns without a play count towards the stall clock.
Only for tiny racks: it lists every ordering.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import permutations
from typing import Sequence

from endgame_reference import PlayLister, exact_spread, rack_cost

from ginnyo.game.actions import Action, Place, Return
from ginnyo.game.game import quiet_turn_limit
from ginnyo.position.position import Position
from ginnyo.vocab.tiles import JOKER, PlacedTile, rack_penalty

Board = dict[int, PlacedTile]


def expected_spread(position: Position, unseen: Sequence[int], action: Action, rack_size: int,
                    plays: PlayLister, quiet_turns: int = 0) -> Fraction:
    """Our action's mean spread over every ordering of ``unseen``."""
    total = Fraction(0)
    count = 0
    for order in permutations(range(len(unseen))):
        tiles = [unseen[index] for index in order]
        opponent, box = tiles[:rack_size], tiles[rack_size:]
        total += _our_action(position, action, list(opponent), box, rack_size, plays, quiet_turns)
        count += 1
    assert count == math.factorial(len(unseen))
    return total / count


def _our_action(position: Position, action: Action, opponent: list[int], box: list[int], rack_size: int,
                plays: PlayLister, quiet: int) -> Fraction:
    board: Board = dict(position.board)
    ours = list(position.rack)
    if isinstance(action, Place):
        scored = next(scored for scored in plays(position) if scored.play == action.play)
        board.update(action.play.placements)
        for tile in action.play.tiles_used:
            ours.remove(tile)
        return scored.score + _after(position, board, [ours, opponent], box, 0, 0, rack_size, plays)
    assert isinstance(action, Return)
    for tile in action.tiles:
        ours.remove(tile)
    return _mixed_in(position, board, [ours, opponent], box, list(action.tiles), 0, quiet + 1, rack_size, plays)


def _mixed_in(position: Position, board: Board, racks: list[list[int]], box: list[int], returned: list[int],
              mover: int, quiet: int, rack_size: int, plays: PlayLister) -> Fraction:
    """Each returned tile at each place in the box (equally likely), then the draw back."""
    if not returned:
        return _after(position, board, racks, box, mover, quiet, rack_size, plays)
    places = len(box) + 1
    total = Fraction(0)
    for place in range(places):
        total += _mixed_in(position, board, racks, box[:place] + [returned[0]] + box[place:], returned[1:],
                           mover, quiet, rack_size, plays)
    return total / places


def _after(position: Position, board: Board, racks: list[list[int]], box: list[int], mover: int, quiet: int,
           rack_size: int, plays: PlayLister) -> Fraction:
    """``mover`` draws up to the rack size; the game ends by the stall clock or the other player moves."""
    racks = [list(racks[0]), list(racks[1])]
    box = list(box)
    while len(racks[mover]) < rack_size and box:
        racks[mover].append(box.pop(0))
    opened = bool(board)
    if quiet >= quiet_turn_limit(2, opened):
        return Fraction(rack_cost(racks[1]) - rack_cost(racks[0]))
    return _turn(position, board, racks, box, 1 - mover, quiet, rack_size, plays)


_seen: dict[tuple[object, ...], Fraction] = {}


def _turn(position: Position, board: Board, racks: list[list[int]], box: list[int], mover: int, quiet: int,
          rack_size: int, plays: PlayLister) -> Fraction:
    """A turn from a state met before (same board, racks, box in the same order,
    mover and clock) is looked up: it would be played out the same way."""
    key = (position.layout, frozenset(board.items()), tuple(sorted(racks[0])), tuple(sorted(racks[1])),
           tuple(box), mover, quiet, rack_size, plays)
    if key not in _seen:
        if len(_seen) > 200_000:
            _seen.clear()
        _seen[key] = _play_turn(position, board, racks, box, mover, quiet, rack_size, plays)
    return _seen[key]


def _play_turn(position: Position, board: Board, racks: list[list[int]], box: list[int], mover: int, quiet: int,
               rack_size: int, plays: PlayLister) -> Fraction:
    sign = 1 if mover == 0 else -1
    racks = [list(racks[0]), list(racks[1])]
    box = list(box)
    if box:
        racks[mover].append(box.pop(0))
    now = Position(position.layout, position.sets, board, racks[mover], validate=False)
    if not box:
        after_pass = quiet + 1 >= quiet_turn_limit(2, bool(board))
        return Fraction(sign * exact_spread(now, racks[1 - mover], after_pass, plays))
    legal = plays(now)
    if legal:
        best = legal[0]
        after = dict(board)
        after.update(best.play.placements)
        racks[mover] = list((Counter(racks[mover]) - Counter(best.play.tiles_used)).elements())
        return sign * best.score + _after(position, after, racks, box, mover, 0, rack_size, plays)
    real = [tile for tile in racks[mover] if tile != JOKER]
    tile = max(real, key=lambda t: (rack_penalty(t), -t)) if real else JOKER
    racks[mover].remove(tile)
    return _mixed_in(position, board, racks, box, [tile], mover, quiet + 1, rack_size, plays)
