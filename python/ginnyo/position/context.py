"""The game around a decision, one checked object for a static position and a
game's view alike: the players, their scores, whose turn it is, the sets, the
tiles the player to move cannot see, the other racks' sizes, the box, whether a
meld is down and the stall clock.

``position.game_context`` and ``view.game_context`` fill it once and every
feature reads it from there: the leave state (:func:`ginnyo.equity.leave_state`),
the ranking, the simulation's setup, the endgame, the corpus writers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from ..vocab import rules
from ..errors import PositionError, TileError
from ..vocab.fields import GameFields, PositionFields
from ..vocab.rules import JOKERS_PER_SET, RACK_SIZE, RULES_VERSION, STALL_ROUNDS, default_players, quiet_turn_limit
from ..support.files import quote
from ..vocab.tiles import JOKER, parse_rack_tile, rack_code


@dataclass(frozen=True)
class GameContext:
    """What the player to move knows of the game around the board and its rack:
    the players, their scores, whose turn it is, the tiles it cannot see, the
    other racks' sizes (in turn order after it), the box, the stall clock (turns
    in a row without a play before this one), the sets and whether a meld is down."""

    players: int
    to_move: int
    scores: tuple[int, ...]
    unseen: tuple[int, ...]
    opponent_racks: tuple[int, ...]
    box_size: int
    quiet_turns: int = 0
    stall_rounds: int = STALL_ROUNDS
    rules: int = RULES_VERSION
    sets: int = 1
    opened: bool = False

    @property
    def quiet_limit(self) -> int:
        """How many turns in a row without a play end the game now (:func:`ginnyo.vocab.rules.quiet_turn_limit`)."""
        return quiet_turn_limit(self.players, self.opened, rules=self.rules, stall_rounds=self.stall_rounds)


class Decision(PositionFields, Protocol):
    """What every feature asks of a decision, a static :class:`~ginnyo.Position`
    or a game's :class:`~ginnyo.game.View`: the board, the rack and the game around them."""

    @property
    def game_context(self) -> GameContext: ...


def parse_tile_codes(value: object, field: str, tile_prefix: str, limit: int | None = None) -> list[int]:
    """Rack tiles from a string of codes or a list of codes (a rack, the unseen
    tiles); a bad one raises PositionError naming ``field`` (``tile_prefix``
    leads the message about a single tile)."""
    if isinstance(value, str):   # split no further than the limit: a huge string never becomes a huge list
        codes: list[object] = list(value.split(None, limit) if limit is not None else value.split())
    elif isinstance(value, list):
        codes = list(value)
    else:
        raise PositionError(f"field '{field}': must be a string of tile codes or a list of codes")
    if limit is not None and len(codes) > limit:
        count = len(codes) if isinstance(value, list) else f"more than {limit}"
        raise PositionError(f"field '{field}': {count} tiles, at most {limit}")
    tiles = []
    for code in codes:
        if not isinstance(code, str):
            raise PositionError(f"{tile_prefix}: tile {quote(code)} is not a string")
        try:
            tiles.append(parse_rack_tile(code))
        except TileError as error:
            raise PositionError(f"{tile_prefix}: {error}") from None
    return tiles


def checked_game_fields(position: GameFields) -> tuple[int, list[int], int, list[int]]:
    """A position's game fields (docs/FORMAT.md) checked: ``(players, scores,
    to_move, unseen)``, each at its default when absent: ``players`` 2 with one
    set and 3 with two, ``scores`` zeros, ``to_move`` 0, ``unseen`` every tile not
    on the board or the rack.  Raises :class:`PositionError` naming the field."""
    context = position.context
    players = context.get("players", rules.default_players(position.sets))
    try:
        sets = rules.sets_for(players)
    except ValueError:
        raise PositionError(f"field 'players': must be a whole number from {rules.MIN_PLAYERS} to "
                            f"{rules.MAX_PLAYERS}, not {quote(players)}") from None
    if sets != position.sets:
        raise PositionError(f"field 'players': {players} players play with {sets} set(s), "
                            f"the position has {position.sets}")
    scores = context.get("scores", [0] * players)
    if not isinstance(scores, list) or len(scores) != players or not all(type(s) is int for s in scores):
        raise PositionError(f"field 'scores': must be a list of {players} whole numbers")
    for seat, score in enumerate(scores):
        if not -rules.MAX_SCORE <= score <= rules.MAX_SCORE:
            raise PositionError(f"field 'scores': seat {seat}'s score must be from {-rules.MAX_SCORE} to "
                                f"{rules.MAX_SCORE}, not {quote(score)}")
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
        unseen = rules.unseen_tiles(position.sets, seen.elements())
    return players, list(scores), to_move, unseen


def position_context(position: GameFields) -> GameContext:
    """The game context of a static position (docs/FORMAT.md's optional fields),
    checked: ``players`` defaults to 2 with one set and 3 with two, ``scores`` to
    zeros, ``to_move`` to 0, ``unseen`` to every tile not on the board or the
    rack; the other racks hold 7 each while the unseen tiles last, the box the
    rest; the clock is at 0.  Raises :class:`PositionError` naming the field.
    ``position.game_context`` keeps it."""
    players, scores, to_move, unseen = checked_game_fields(position)
    left = len(unseen)
    racks = []
    for _ in range(players - 1):
        size = min(RACK_SIZE, left)
        racks.append(size)
        left -= size
    return GameContext(players, to_move, tuple(scores), tuple(sorted(unseen)), tuple(racks), left,
                       sets=position.sets, opened=bool(position.board))


__all__ = ["GameContext", "Decision", "position_context", "checked_game_fields",
           "parse_tile_codes", "default_players"]
