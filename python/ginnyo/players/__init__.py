"""The players of a game: a view in, an action out (players: the simple kinds, the registry
:func:`make_player` and :data:`PLAYER_KINDS`).

The names below are those of :mod:`ginnyo.players.players`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .players import (
    Player, GreedyPlayer, RandomPlayer, RandomOrBestPlayer, make_player, no_play_action,
    PLAYER_KINDS, SIM_KINDS, sim_options)

__all__ = [
    "Player", "GreedyPlayer", "RandomPlayer", "RandomOrBestPlayer", "make_player",
    "no_play_action", "PLAYER_KINDS", "SIM_KINDS", "sim_options"]

__getattr__ = lazy_names(__name__, {"players": __all__})
