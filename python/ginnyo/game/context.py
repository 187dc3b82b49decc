"""The game around a position: players, scores, whose turn, the tiles unseen, the
other racks and the box (docs/FORMAT.md's optional game fields), from a static
position or from a game's view."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import PositionError
from ..support.files import quote
from ..position.position import parse_tile_codes
from ..rules import JOKERS_PER_SET, MAX_PLAYERS, MIN_PLAYERS, RACK_SIZE, RULES_VERSION, STALL_ROUNDS, sets_for, tile_set
from ..tiles import JOKER, NUM_CARDS, rack_code

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
    context = position.context
    players = context.get("players", default_players(position.sets))
    try:
        sets = sets_for(players)
    except ValueError:
        raise PositionError(f"field 'players': must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                            f"not {quote(players)}") from None
    if sets != position.sets:
        raise PositionError(f"field 'players': {players} players play with {sets} set(s), "
                            f"the position has {position.sets}")
    scores = context.get("scores", [0] * players)
    if not isinstance(scores, list) or len(scores) != players or not all(type(s) is int for s in scores):
        raise PositionError(f"field 'scores': must be a list of {players} whole numbers")
    to_move = context.get("to_move", 0)
    if type(to_move) is not int or not 0 <= to_move < players:
        raise PositionError(f"field 'to_move': must be a seat from 0 to {players - 1}, not {quote(to_move)}")
    seen = Counter(tile.rack_tile for tile in position.board.values())
    seen.update(position.rack)
    if "unseen" in context:
        unseen = parse_tile_codes(context["unseen"], "unseen", "field 'unseen'")
        total = seen + Counter(unseen)
        for tile in sorted(total):
            held = JOKERS_PER_SET * position.sets if tile == JOKER else position.sets
            if total[tile] > held:
                what = "jokers" if tile == JOKER else f"copies of {rack_code(tile)}"
                raise PositionError(f"field 'unseen': {total[tile]} {what} with the board and rack, "
                                    f"but {position.sets} set(s) hold {held}")
    else:
        unseen = []
        for tile in range(NUM_CARDS + 1):
            held = JOKERS_PER_SET * position.sets if tile == JOKER else position.sets
            unseen += [tile] * (held - seen[tile])
    left = len(unseen)
    racks = []
    for _ in range(players - 1):
        size = min(RACK_SIZE, left)
        racks.append(size)
        left -= size
    return GameContext(players, to_move, tuple(scores), tuple(sorted(unseen)), tuple(racks), left)


def default_players(sets: int) -> int:
    """The players of a position without a ``players`` field: 2 with one set, 3 with two."""
    return 2 if sets == 1 else 3


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
