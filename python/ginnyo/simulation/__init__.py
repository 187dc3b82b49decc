"""Monte Carlo simulation: the top equity candidates played forward against sampled racks (rollouts)
and the choices a simulation offers (choices).

The names below are those of :mod:`ginnyo.simulation.rollouts` and of the stoppable simulation
(:mod:`ginnyo.simulation.session`); each loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..support.lazy import lazy_names

if TYPE_CHECKING:
    from .rollouts import (
    GameContext, Setup, SimResult, rollout_outcomes,
    rollout_results, rollouts_of, ranking, is_late, top_candidates, setup_for, deal,
    Tally, leader_is_significant, POLICIES, STOP_LEVELS, LATE_BOX, BLOCK)
    from .session import SimulationSession, simulate, simulate_position

__all__ = [
    "GameContext", "Setup", "SimResult",
    "rollout_outcomes", "rollout_results", "rollouts_of", "ranking", "is_late",
    "top_candidates", "setup_for", "deal", "Tally", "leader_is_significant", "POLICIES",
    "STOP_LEVELS", "LATE_BOX", "BLOCK",
    "SimulationSession", "simulate", "simulate_position"]
_SESSION = __all__[-3:]
_ROLLOUTS = __all__[:-3]

#: moved to the players package; the old path warns for one release
__getattr__ = lazy_names(__name__, {"rollouts": _ROLLOUTS, "session": _SESSION},
                         moved={"SimPlayer": "ginnyo.players.simulation"})
