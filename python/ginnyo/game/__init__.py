"""Whole games: the game, its views and turns (game), the actions a player takes (actions) and game
records (records).

The names below are those of :mod:`ginnyo.game.game`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .game import (
    Game, View, Turn, Box, play_game, first_player, tile_set, sets_for, draw_strength,
    RACK_SIZE, STALL_ROUNDS, RULES_VERSION, OPENING_GUARD_ROUNDS, BOX_EMPTY_AND_ALL_PASSED,
    NO_PLAY_FOR_ROUNDS, NOBODY_OPENED, quiet_turn_limit, quiet_end_reason, check_rules)

__all__ = [
    "Game", "View", "Turn", "Box", "play_game", "first_player", "tile_set", "sets_for",
    "draw_strength", "RACK_SIZE", "STALL_ROUNDS", "RULES_VERSION", "OPENING_GUARD_ROUNDS",
    "BOX_EMPTY_AND_ALL_PASSED", "NO_PLAY_FOR_ROUNDS", "NOBODY_OPENED", "quiet_turn_limit",
    "quiet_end_reason", "check_rules"]

__getattr__ = lazy_names(__name__, {"game": __all__})
