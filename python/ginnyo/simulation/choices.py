"""The choices a simulation offers (rollout policies, stopping levels), kept light for the command line's parser."""

from __future__ import annotations

#: How the players of a rollout choose: the best-scoring play, or the core's equity ranking.
POLICIES = ("greedy", "equity")
DEFAULT_POLICY = "greedy"
#: ``--stop`` levels (percent): the one-sided normal quantile a lead must pass (docs/EQUITY.md).
STOP_LEVELS = {95: 1.644854, 98: 2.053749, 99: 2.326348}
#: Late in the game (at most this many tiles in the box) rollouts play on to the
#: game's end and candidates are ranked by their share of wins (docs/EQUITY.md).
LATE_BOX = 7
#: A rollout of a 2-player game whose box runs empty is finished by the endgame
#: solver within about this many search nodes (a count, so the same on any machine).
ROLLOUT_ENDGAME_NODES = 1000

__all__ = ["POLICIES", "DEFAULT_POLICY", "STOP_LEVELS", "LATE_BOX", "ROLLOUT_ENDGAME_NODES"]
