"""The players of a game, every kind in one place: a view in, an action out
(players: the simple kinds, the registry :func:`make_player` and
:data:`PLAYER_KINDS`; equity: :class:`EquityPlayer`; simulation:
:class:`SimPlayer`, and :func:`simulate_with_odds`, its simulation of a static position
with the win probabilities and the inferred racks, ``best-move --sim``'s).

The names below load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .equity import EquityPlayer
    from .simulation import SimPlayer, simulate_with_odds, sim_options
    from .players import (
    Player, GreedyPlayer, RandomPlayer, RandomOrBestPlayer, make_player, no_play_action,
    PLAYER_KINDS, SIM_KINDS)

__all__ = [
    "EquityPlayer", "SimPlayer", "simulate_with_odds",
    "Player", "GreedyPlayer", "RandomPlayer", "RandomOrBestPlayer", "make_player",
    "no_play_action", "PLAYER_KINDS", "SIM_KINDS", "sim_options"]

__getattr__ = lazy_names(__name__, {"players": __all__[3:-1], "equity": ["EquityPlayer"],
                                    "simulation": ["SimPlayer", "simulate_with_odds", "sim_options"]})
