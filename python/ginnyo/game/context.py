"""The game around a position: players, scores, whose turn, the tiles unseen, the
other racks and the box (docs/FORMAT.md's optional game fields), from a static
position or from a game's view."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..position.position import checked_game_fields
from ..rules import RACK_SIZE, RULES_VERSION, STALL_ROUNDS, default_players, tile_set

if TYPE_CHECKING:
    from .game import View
    from ..position.position import Position


@dataclass(frozen=True)
class GameContext:
    """What a position says about the game around it: the players, their scores,
    whose turn it is, the tiles we cannot see, the other racks' sizes and the box."""

    players: int
    to_move: int
    scores: tuple[int, ...]
    unseen: tuple[int, ...]
    opponent_racks: tuple[int, ...]   # sizes, in turn order after us
    box_size: int
    quiet_turns: int = 0              # turns in a row without a play before ours (the game-end clock)
    stall_rounds: int = STALL_ROUNDS
    rules: int = RULES_VERSION


def game_context(position: Position) -> GameContext:
    """The game context of a position (docs/FORMAT.md's optional fields), checked:
    ``players`` defaults to 2 with one set and 3 with two, ``scores`` to zeros,
    ``to_move`` to 0, ``unseen`` to every tile not on the board or the rack.
    Raises :class:`PositionError` naming the field."""
    players, scores, to_move, unseen = checked_game_fields(position)
    left = len(unseen)
    racks = []
    for _ in range(players - 1):
        size = min(RACK_SIZE, left)
        racks.append(size)
        left -= size
    return GameContext(players, to_move, tuple(scores), tuple(sorted(unseen)), tuple(racks), left)


def view_context(view: View) -> GameContext:
    """The game context a player sees: everything not on the board or its rack is unseen."""
    seen = Counter(tile.rack_tile for tile in view.board.values())
    seen.update(view.rack)
    unseen = list((Counter(tile_set(view.sets)) - seen).elements())
    sizes = view.rack_sizes
    racks = tuple(sizes[(view.player + offset) % view.players] for offset in range(1, view.players))
    return GameContext(view.players, view.player, view.scores, tuple(sorted(unseen)), racks, view.box_size,
                       view.quiet_turns, view.stall_rounds, view.rules)


__all__ = ["GameContext", "default_players", "game_context", "view_context"]
