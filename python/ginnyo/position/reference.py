"""The rules of a play in plain Python (docs/RULES.md §4-5): the yardstick.

Written to be read against the rules, not to be fast.  :func:`check_play` tests
each condition of §4 literally; :func:`score_play` applies §5 literally;
:func:`legal_plays` proposes every candidate whose main line could be a meld and
keeps the ones :func:`check_play` accepts.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations
from typing import Iterator

from ..vocab.board import ACROSS, DIRECTIONS, DOWN, groups, line_through
from ..errors import IllegalMoveError
from ..vocab.melds import meld_kind, tile_value
from ..vocab.play import MeldScore, Play, ScoredPlay
from ..vocab.fields import PositionFields
from ..vocab.tiles import JOKER, PlacedTile, card, card_code, rack_code


def check_play(position: PositionFields, play: Play) -> None:
    """Raise :class:`IllegalMoveError` naming the first rule the play breaks."""
    layout, board = position.layout, position.board
    name = layout.square_name
    squares = [square for square, _ in play.placements]
    if not squares:
        raise IllegalMoveError("a play places at least one tile")
    if len(set(squares)) != len(squares):
        raise IllegalMoveError("a square is used twice")
    for square in squares:
        if not 0 <= square < layout.size:
            raise IllegalMoveError(f"square {square} is off the board")
        if square in board:
            raise IllegalMoveError(f"square {name(square)} is already covered")

    needed = Counter(play.tiles_used)
    held = Counter(position.rack)
    for tile, count in sorted(needed.items()):
        if held[tile] < count:
            raise IllegalMoveError(f"the rack does not hold {count} x {rack_code(tile)}")

    # §4.1 one row or one column, unbroken
    rows = {square // layout.width for square in squares}
    cols = {square % layout.width for square in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMoveError("the placed tiles are not in one row or one column")
    if len(squares) > 1:
        step = 1 if len(rows) == 1 else layout.width
        for square in range(min(squares), max(squares) + 1, step):
            if square not in board and square not in squares:
                raise IllegalMoveError(f"empty square {name(square)} between the placed tiles")

    after = dict(board)
    after.update(play.placements)

    # §4.2 every line of two or more tiles through a placed tile is a meld
    # §4.3 every placed tile lies in a line of three or more
    for square in squares:
        longest = 1
        for direction in DIRECTIONS:
            line = line_through(layout, after.__contains__, square, direction)
            longest = max(longest, len(line))
            if len(line) >= 2 and meld_kind([after[s].card for s in line]) is None:
                tiles = " ".join(after[s].code for s in line)
                raise IllegalMoveError(
                    f"line {name(line[0])}-{name(line[-1])} ({tiles}) would not be a meld")
        if longest < 3:
            raise IllegalMoveError(f"tile on {name(square)} lies in no line of three or more")

    # §4.4 placement
    touched = {n for square in squares for n in layout.neighbours(square) if n in board}
    if not board:
        if layout.centre not in squares:
            raise IllegalMoveError(f"the first play must cover the centre {name(layout.centre)}")
    elif not touched and not any(square in layout.red_squares for square in squares):
        raise IllegalMoveError("the play neither connects to the board nor covers an empty red square")

    # §4.5 areas never join
    touched_groups = [group for group in groups(layout, board) if group & touched]
    if len(touched_groups) > 1:
        raise IllegalMoveError(f"the play would join {len(touched_groups)} areas")


def is_legal(position: PositionFields, play: Play) -> bool:
    try:
        check_play(position, play)
    except IllegalMoveError:
        return False
    return True


def score_play(position: PositionFields, play: Play) -> ScoredPlay:
    """Score a play (§5); raises :class:`IllegalMoveError` if it is not legal."""
    check_play(position, play)
    layout = position.layout
    after = dict(position.board)
    after.update(play.placements)
    placed = dict(play.placements)
    touched_lines: list[tuple[int, ...]] = []
    for direction in DIRECTIONS:
        for square in sorted(placed):
            line = tuple(line_through(layout, after.__contains__, square, direction))
            if len(line) >= 3 and line not in touched_lines:
                touched_lines.append(line)
    melds = []
    for line in touched_lines:
        kind = meld_kind([after[s].card for s in line])
        assert kind is not None
        tile_sum = sum(tile_value(placed[s], kind) * layout.tile_multiplier(s)
                       for s in line if s in placed)
        multiplier = 1
        for s in line:
            if s in placed:
                multiplier *= layout.meld_multiplier(s)
        melds.append(MeldScore(kind, line, tile_sum * multiplier))
    return ScoredPlay(play, sum(m.score for m in melds), tuple(melds))


# -- generation ------------------------------------------------------------

def _board_lines(position: PositionFields, direction: str) -> list[list[int]]:
    """Every whole row (across) or column (down) of the board, as squares."""
    width, height = position.layout.width, position.layout.height
    if direction == ACROSS:
        return [[row * width + col for col in range(width)] for row in range(height)]
    return [[row * width + col for row in range(height)] for col in range(width)]


@lru_cache(maxsize=None)
def _all_melds(length: int) -> tuple[tuple[int, ...], ...]:
    """Every card sequence of ``length`` that is a meld: each run (suit, first
    rank, up or down; an ace at either end) and each set (rank, suit order)."""
    melds = []
    for suit in range(4):
        for step in (1, -1):
            for first in range(1, 15):
                positions = [first + step * i for i in range(length)]
                if all(1 <= p <= 14 for p in positions):
                    melds.append(tuple(card(1 if p == 14 else p, suit) for p in positions))
    if length in (3, 4):
        for rank in range(1, 14):
            for suits in permutations(range(4), length):
                melds.append(tuple(card(rank, s) for s in suits))
    assert all(meld_kind(m) for m in melds)
    return tuple(melds)


@lru_cache(maxsize=None)
def _melds_with(length: int, index: int, card_id: int) -> tuple[tuple[int, ...], ...]:
    """The melds of ``length`` that have ``card_id`` at ``index``."""
    return tuple(m for m in _all_melds(length) if m[index] == card_id)


def _meld_cards(length: int, fixed: dict[int, int]) -> Iterator[tuple[int, ...]]:
    """Every card sequence of ``length`` that is a meld and agrees with ``fixed``
    (index in the line -> card already there)."""
    if fixed:
        index, card_id = next(iter(fixed.items()))
        candidates = _melds_with(length, index, card_id)
    else:
        candidates = _all_melds(length)
    for cards in candidates:
        if all(cards[i] == c for i, c in fixed.items()):
            yield cards


def _tile_choices(needed: list[int], held: Counter[int]) -> Iterator[list[PlacedTile]]:
    """Every way the rack can supply the cards ``needed``: each from a real tile
    of that card or from a joker standing for it."""
    if not needed:
        yield []
        return
    first, rest = needed[0], needed[1:]
    for tile, as_joker in ((first, False), (JOKER, True)):
        if held[tile] > 0:
            held[tile] -= 1
            for tail in _tile_choices(rest, held):
                yield [PlacedTile(first, as_joker)] + tail
            held[tile] += 1


def _could_be_placed(position: PositionFields, placed: list[int]) -> bool:
    """A cheap necessary condition of §4.4, to skip hopeless intervals."""
    layout, board = position.layout, position.board
    if not board:
        return layout.centre in placed
    return any(square in layout.red_squares or
               any(n in board for n in layout.neighbours(square)) for square in placed)


def legal_plays(position: PositionFields) -> list[ScoredPlay]:
    """Every legal play with its score, in no particular order."""
    board = position.board
    held = Counter(position.rack)
    found: dict[Play, ScoredPlay] = {}
    for direction in DIRECTIONS:
        for line in _board_lines(position, direction):
            for first in range(len(line)):
                if line[first] in board:
                    continue
                placed: list[int] = []
                for last in range(first, len(line)):
                    if line[last] in board:
                        continue
                    placed.append(line[last])
                    if len(placed) > len(position.rack):
                        break
                    low, high = first, last
                    while low > 0 and line[low - 1] in board:
                        low -= 1
                    while high < len(line) - 1 and line[high + 1] in board:
                        high += 1
                    whole = line[low:high + 1]
                    # a lone tile whose line here is shorter than 3 is found the other way
                    if len(whole) < 3 or not _could_be_placed(position, placed):
                        continue
                    fixed = {i: board[s].card for i, s in enumerate(whole) if s in board}
                    for cards in _meld_cards(len(whole), fixed):
                        needed = [cards[i] for i, s in enumerate(whole) if s not in board]
                        if sum(1 for c in needed if not held[c]) > held[JOKER]:
                            continue  # not even the jokers can make up what is missing
                        for tiles in _tile_choices(needed, held):
                            play = Play.of(zip(placed, tiles))
                            if play in found:
                                continue
                            try:
                                found[play] = score_play(position, play)
                            except IllegalMoveError:
                                pass
    return list(found.values())


__all__ = ["check_play", "is_legal", "score_play", "legal_plays", "tile_value",
           "ACROSS", "DOWN", "card_code"]
