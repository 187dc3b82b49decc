"""The positions reached in seeded greedy 2-player games (the compiled game loop,
:func:`ginnycore.selfplay.greedy_game_record`): the endgames and the pre-endgames the
tests and the benches search, each the first of its kind in its game.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from .. import native
from ..native.selfplay import greedy_game_record
from ..position.position import Position
from ..vocab.layout import Layout
from ..vocab.rules import RACK_SIZE, tile_set, unseen_tiles
from ..vocab.tiles import JOKER, PlacedTile, rack_code
from .exact import MAX_UNSEEN


def greedy_turns(index: int, seed: int, layout: Layout) -> Iterator[tuple[str, int, list[Counter[int]], int,
                                                                            dict[int, PlacedTile]]]:
    """Seeded greedy 2-player game ``index`` of ``seed`` (the compiled game loop,
    :func:`ginnycore.selfplay.greedy_game_record`) replayed turn by turn: for each
    turn ``("drawn", player, racks, box size, board)`` just after its first draw,
    then ``("done", ...)`` once it is over (refill included).  The racks and board
    are live: copy what you keep."""
    _, dealt, turns, _ = greedy_game_record(native.empty_core(layout), 2, seed, index)
    racks = [Counter(rack) for rack in dealt]
    box = len(tile_set(1)) - sum(len(rack) for rack in dealt)
    board: dict[int, PlacedTile] = {}
    for turn in turns:
        player = turn["player"]
        rack = racks[player]
        if turn["drawn"] >= 0:
            rack[turn["drawn"]] += 1
            box -= 1
        yield "drawn", player, racks, box, board
        for square, card, joker in turn["placements"]:
            rack[JOKER if joker else card] -= 1
            board[square] = PlacedTile(card, joker)
        if turn["returned"] >= 0:
            rack[turn["returned"]] -= 1
            box += 1
        rack.update(turn["refill"])
        box -= len(turn["refill"])
        yield "done", player, racks, box, board


def position_between(layout: Layout, board: dict[int, PlacedTile], mover: Counter[int],
                     other: Counter[int]) -> Position:
    """The 2-player position of ``mover`` on ``board`` with ``other``'s rack as ``unseen``."""
    context = {"players": 2, "unseen": [rack_code(tile) for tile in sorted(other.elements())]}
    return Position(layout, 1, dict(board), mover.elements(), context, validate=False)


def greedy_endgames(games: int, seed: int = 0) -> list[Position]:
    """The endgames reached in ``games`` seeded greedy 2-player games (:func:`greedy_turns`):
    each game's position just after the turn that emptied the box, the next
    player to move, the other's rack as ``unseen``.  A game whose box ran out on
    a turn's first draw, the player then passing with 8 tiles, has no endgame
    by docs/FORMAT.md's definition (8 unseen tiles) and is left out."""
    layout = Layout.standard()
    found = []
    for index in range(games):
        for stage, player, racks, box, board in greedy_turns(index, seed, layout):
            if stage == "done" and box == 0:     # the first turn that emptied the box
                if sum(racks[player].values()) <= MAX_UNSEEN:
                    found.append(position_between(layout, board, racks[1 - player], racks[player]))
                break
    return found


def greedy_preendgames(games: int, seed: int, box: int) -> list[Position]:
    """The pre-endgames with ``box`` tiles in the box reached in ``games`` seeded
    greedy 2-player games (:func:`greedy_turns`): in each game,
    the first turn that starts (after its draw) with exactly ``box`` tiles left,
    the other player holding 7.  Games whose box skips that count give none."""
    layout = Layout.standard()
    found = []
    for index in range(games):
        for stage, player, racks, left, board in greedy_turns(index, seed, layout):
            if stage != "drawn" or left > box:
                continue
            if left == box and sum(racks[1 - player].values()) == RACK_SIZE:
                seen = [*(tile.rack_tile for tile in board.values()), *racks[player].elements()]
                unseen = Counter(unseen_tiles(1, seen))
                found.append(position_between(layout, board, racks[player], unseen))
            break
    return found


__all__ = ["greedy_endgames", "greedy_preendgames", "greedy_turns", "position_between"]
