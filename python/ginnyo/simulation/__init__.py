"""Monte Carlo simulation: the top equity candidates played forward against sampled racks (rollouts)
and the choices a simulation offers (choices).

The names below are those of :mod:`ginnyo.simulation.rollouts`; each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .rollouts import (
    GameContext, Setup, SimResult, simulate, rollout_outcomes,
    rollout_results, rollouts_of, ranking, is_late, top_candidates, setup_for, simulate_position, deal,
    Tally, leader_is_significant, POLICIES, STOP_LEVELS, LATE_BOX, BLOCK)

__all__ = [
    "GameContext", "Setup", "SimResult", "simulate",
    "rollout_outcomes", "rollout_results", "rollouts_of", "ranking", "is_late",
    "top_candidates", "setup_for", "simulate_position", "deal", "Tally", "leader_is_significant", "POLICIES",
    "STOP_LEVELS", "LATE_BOX", "BLOCK"]

#: moved to the players package; the old path warns for one release
__getattr__ = lazy_names(__name__, {"rollouts": __all__}, moved={"SimPlayer": "ginnyo.players.simulation"})
