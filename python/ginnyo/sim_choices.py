"""The choices a simulation offers (rollout policies, stopping levels), kept light for the command line's parser."""

from __future__ import annotations

#: How the players of a rollout choose: the best-scoring play, or the core's equity ranking.
POLICIES = ("greedy", "equity")
DEFAULT_POLICY = "greedy"
#: ``--stop`` levels (percent): the one-sided normal quantile a lead must pass (docs/EQUITY.md).
STOP_LEVELS = {95: 1.644854, 98: 2.053749, 99: 2.326348}

__all__ = ["POLICIES", "DEFAULT_POLICY", "STOP_LEVELS"]
